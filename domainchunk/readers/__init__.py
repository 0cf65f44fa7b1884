"""Readers turn a file into a :class:`~domainchunk.models.Document`.

A reader is a function ``read(data: bytes, source: str) -> Document`` registered
for file suffixes. Heavy readers (pdfplumber, python-docx) are imported only
when a file of their kind is read, so ``import domainchunk`` stays fast.
"""
from __future__ import annotations

import importlib
import warnings
from pathlib import Path
from typing import Callable

from ..errors import DomainChunkWarning, ReadError
from ..models import Document
from .limits import read_input_bytes

Reader = Callable[[bytes, str], Document]

# suffix -> "module:function", resolved lazily
READERS: dict[str, str] = {
    ".txt": "domainchunk.readers.text:read_text",
    ".md": "domainchunk.readers.text:read_markdown",
    ".markdown": "domainchunk.readers.text:read_markdown",
    ".csv": "domainchunk.readers.csv:read_csv",
    ".tsv": "domainchunk.readers.csv:read_csv",
    ".pdf": "domainchunk.readers.pdf:read_pdf",
    ".docx": "domainchunk.readers.docx:read_docx",
    ".html": "domainchunk.readers.html:read_html",
    ".htm": "domainchunk.readers.html:read_html",
    ".xhtml": "domainchunk.readers.html:read_html",
    ".mht": "domainchunk.readers.html:read_html",
    ".mhtml": "domainchunk.readers.html:read_html",
}

# Libraries a reader imports only for some files (pdfplumber: PDF pages with ruled tables). A
# batch that forks several workers imports them first, once, rather than once in each worker.
LAZY_LIBRARIES: dict[str, tuple[str, ...]] = {".pdf": ("pdfplumber",)}


def reader_for(source: str) -> Reader:
    suffix = Path(source).suffix.lower()
    target = READERS.get(suffix, READERS[".txt"])
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except ImportError as exc:  # a reader whose library is missing
        raise ReadError(source, f"no reader for {suffix} files: {exc}") from None


# An Office file saved with a password is not a zip but a compound (CFB) file holding the
# zip encrypted in a stream of this name (MS-OFFCRYPTO), written in UTF-16LE in its directory.
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")


def sniff_kind(data: bytes) -> str | None:
    """Recognise PDF and ZIP (DOCX) by their magic bytes, whatever the suffix says."""
    if data.startswith(b"%PDF"):
        return ".pdf"
    if data.startswith(b"PK\x03\x04"):
        return ".docx"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return "encrypted" if _ENCRYPTED_PACKAGE in data else ".doc"
    return None


def read_document(source: str | Path, data: bytes | None = None) -> Document:
    """Read a file (or given bytes named ``source``) with the reader for its kind."""
    name = str(source)
    if data is None:
        data = read_input_bytes(source)
    if not data.strip():
        # Nothing to chunk is not a failure: a batch keeps going and resumes past it.
        warnings.warn(f"{name}: empty file: no chunks", DomainChunkWarning, stacklevel=2)
        return Document(source=name, text="")
    kind = sniff_kind(data)
    if kind == "encrypted":
        raise ReadError(name, "password-protected (encrypted) Office file: remove the password and save it again")
    if kind == ".doc":
        raise ReadError(name, "old binary Word (.doc) file: save it as .docx first")
    suffix = Path(name).suffix.lower()
    if kind and suffix != kind:
        name_for_reader = name + kind  # a PDF named .txt is still a PDF
        reader = reader_for(name_for_reader)
    else:
        reader = reader_for(name)
    return reader(data, name)


__all__ = ["READERS", "Reader", "read_document", "reader_for", "sniff_kind"]
