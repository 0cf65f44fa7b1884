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
    # Word's macro-enabled documents and its templates hold the same WordprocessingML as .docx
    ".docm": "domainchunk.readers.docx:read_docx",
    ".dotx": "domainchunk.readers.docx:read_docx",
    ".dotm": "domainchunk.readers.docx:read_docx",
    # Formats with no reader: listed so that a folder's files of these kinds are reported (what
    # to convert them to) rather than passed over, and a named one is not read as plain text.
    # A .doc or .wps that is in fact HTML, MIME HTML, DOCX or PDF (what web systems' "export to
    # Word" writes) is read as what it is (see read_document).
    ".doc": "domainchunk.readers:refuse_format",
    ".wps": "domainchunk.readers:refuse_format",
    ".rtf": "domainchunk.readers:refuse_format",
    ".odt": "domainchunk.readers:refuse_format",
}

# What each format a reader refuses is, and what to turn it into.
_REFUSED = {
    ".doc": "old binary Word (.doc) file: save it as .docx first",
    ".wps": "WPS Office binary (.wps) file: save it as .docx first",
    ".rtf": "RTF file: no RTF reader; save it as .docx first (Word, WPS or soffice --convert-to docx)",
    ".odt": "OpenDocument text (.odt) file: save it as .docx first (LibreOffice: soffice --convert-to docx)",
    ".wordml": "Word 2003 XML (WordprocessingML 2003) file: save it as .docx first",
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


# A Word 2003 XML document names its program in a processing instruction, or opens with its root.
_WORDML_2003 = (b'progid="word.document"', b"<w:worddocument")
# Suffixes that promise a Word file, which a web system's export to Word may give a web page.
_WORD_SUFFIXES = frozenset((".doc", ".wps", ".docx", ".docm", ".dotx", ".dotm"))
# The head of a web page, and of a MIME HTML archive (a mail-like header block, then the page).
_HTML_HEADS = (b"<!doctype html", b"<html")


def sniff_kind(data: bytes) -> str | None:
    """Recognise PDF, ZIP (DOCX), compound (old Word, WPS) and RTF files by their magic bytes,
    whatever the suffix says."""
    if data.startswith(b"%PDF"):
        return ".pdf"
    if data.startswith(b"PK\x03\x04"):
        return ".docx"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return "encrypted" if _ENCRYPTED_PACKAGE in data else ".doc"
    if data.startswith(b"{\\rtf"):
        return ".rtf"
    return None


def sniff_markup(data: bytes) -> str | None:
    """What a file that opens with markup is: ``.html`` (a web page, also one an XML
    declaration or a comment opens), ``.mht`` (MIME HTML), ``.wordml`` (Word 2003 XML), or None.
    Asked only of files whose suffix promises a Word file (a web system's "export to Word" names
    its page .doc) or no known kind, never of a text file that happens to start with a tag."""
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"mime-version:") and b"multipart/related" in head:
        return ".mht"
    if not head.startswith(b"<"):
        return None
    if any(mark in head for mark in _HTML_HEADS):  # Word's own HTML names its XML islands w:WordDocument too
        return ".html"
    return ".wordml" if any(mark in head for mark in _WORDML_2003) else None


def refuse_format(data: bytes, source: str) -> Document:
    """The reader of a format no reader reads: a :class:`ReadError` saying what it is."""
    raise ReadError(source, _REFUSED.get(Path(source).suffix.lower(), _REFUSED[".doc"]))


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
    suffix = Path(name).suffix.lower()
    if kind == ".doc":
        raise ReadError(name, _REFUSED[".wps" if suffix == ".wps" else ".doc"])
    if kind == ".rtf":
        raise ReadError(name, _REFUSED[".rtf"])
    if kind is None and (suffix in _WORD_SUFFIXES or suffix not in READERS):
        kind = sniff_markup(data)
        if kind == ".wordml":
            raise ReadError(name, _REFUSED[".wordml"])
    if kind and suffix != kind:
        name_for_reader = name + kind  # a PDF named .txt is still a PDF
        reader = reader_for(name_for_reader)
    else:
        reader = reader_for(name)
    return reader(data, name)


__all__ = ["READERS", "Reader", "read_document", "reader_for", "refuse_format", "sniff_kind", "sniff_markup"]
