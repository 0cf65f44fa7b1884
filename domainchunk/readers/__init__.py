"""Readers turn a file into a :class:`~domainchunk.models.Document`.

A reader is a function ``read(data: bytes, source: str) -> Document`` registered
for file suffixes. Heavy readers (pdfplumber, python-docx) are imported only
when a file of their kind is read, so ``import domainchunk`` stays fast.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

from ..errors import ReadError
from ..models import Document

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
}


def reader_for(source: str) -> Reader:
    suffix = Path(source).suffix.lower()
    target = READERS.get(suffix, READERS[".txt"])
    module, func = target.split(":")
    try:
        return getattr(importlib.import_module(module), func)
    except ImportError as exc:  # a reader whose library is missing
        raise ReadError(source, f"no reader for {suffix} files: {exc}") from None


def sniff_kind(data: bytes) -> str | None:
    """Recognise PDF and ZIP (DOCX) by their magic bytes, whatever the suffix says."""
    if data.startswith(b"%PDF"):
        return ".pdf"
    if data.startswith(b"PK\x03\x04"):
        return ".docx"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return ".doc"
    return None


def read_document(source: str | Path, data: bytes | None = None) -> Document:
    """Read a file (or given bytes named ``source``) with the reader for its kind."""
    name = str(source)
    if data is None:
        try:
            data = Path(source).read_bytes()
        except FileNotFoundError:
            raise ReadError(name, "file not found") from None
        except IsADirectoryError:
            raise ReadError(name, "is a directory") from None
        except OSError as exc:
            raise ReadError(name, f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise ReadError(name, "empty file")
    kind = sniff_kind(data)
    if kind == ".doc":
        raise ReadError(name, "old binary Word (.doc) file: save it as .docx first")
    suffix = Path(name).suffix.lower()
    if kind and suffix != kind:
        name_for_reader = name + kind  # a PDF named .txt is still a PDF
        reader = reader_for(name_for_reader)
    else:
        reader = reader_for(name)
    return reader(data, name)
