"""HTML as a word processor lays it out, written into a :class:`DocumentBuilder`.

Web systems (EMR and LIS front ends, court case systems) export "Word" files by wrapping an HTML
page in a DOCX as an imported chunk (``w:altChunk``), which Word converts when it opens the file:
the document body holds no paragraph of its own. This module reads such a page the way Word
shows it: each block (``p``, ``div``, ``li`` …) a line, ``<br>`` a line break, ``h1``–``h6``
headings with their depth, tables one line per row with tab-separated cells, an empty block a
blank line, and whitespace in the source one space, a line break in it between CJK characters
none (a source's line wrapped inside a sentence), as CSS lays out text. A page saved on its own
(a law database's or a court's web page, an EMR system's export) is read the same way.
"""
from __future__ import annotations

import email
import re

import lxml.html

from ..models import Document
from .layout import CellSpec, DocumentBuilder, Fragment, clean_cell, looks_like_header

# Block elements: each starts and ends a line of its own.
_BLOCKS = frozenset("p div li dt dd blockquote pre address center section article header footer main ul ol dl form fieldset caption".split())
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# lxml refuses a str that declares its encoding (an XHTML page's <?xml … encoding="utf-8"?>)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_SKIPPED = frozenset("head script style title template".split())  # nothing a reader sees


_CHARSET = re.compile(rb"""charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""")


def decoded(data: bytes, charset: str | None = None) -> str:
    """A page's text: in the charset it declares (or its part does), else UTF-8, else GB18030, the
    two a Chinese system writes (lxml alone would take an undeclared page for Latin-1)."""
    declared = charset or (m.group(1).decode("ascii") if (m := _CHARSET.search(data[:4096])) else None)
    if declared:
        try:
            return data.decode(declared, errors="replace")
        except LookupError:  # a charset Python does not know
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("gb18030", errors="replace")


def mime_html(data: bytes) -> str | None:
    """The HTML part of a MIME HTML (.mht) archive, as html-docx exporters import it."""
    message = email.message_from_bytes(data)
    for part in message.walk():
        if part.get_content_type() == "text/html":
            payload = part.get_payload(decode=True)
            return decoded(payload, part.get_content_charset()) if isinstance(payload, bytes) else None
    return None


def read_html(data: bytes, source: str) -> Document:
    """A web page (.html, .htm, .xhtml) or a browser's MIME HTML archive (.mht, .mhtml), as a law
    database, a court's or an EMR system's page is saved: read as a browser lays it out."""
    head = data.lstrip()[:2048].lower()
    page = mime_html(data) if not head.startswith(b"<") and b"mime-version:" in head else decoded(data)
    builder = DocumentBuilder()
    write_html(page or "", builder, None)
    return builder.build(source, metadata={"format": "html"})


def write_html(page_text: str, builder: DocumentBuilder, page: int | None) -> None:
    """Write the HTML page ``page_text`` into ``builder``, its headings as the readers write a
    heading (Markdown marks of its depth, the first line, the title, without)."""
    page_text = _XML_DECLARATION.sub("", page_text, count=1)
    if not page_text.strip():  # an empty page imports nothing (lxml refuses to parse it)
        return
    root = lxml.html.document_fromstring(page_text)
    body = root.find("body")
    pending: list[str] = []

    def flush(blank_if_empty: bool = False) -> None:
        text = clean_cell("".join(pending))
        pending.clear()
        if text:
            builder.line(text, page=page)
        elif blank_if_empty:
            builder.blank()

    def visit(element) -> None:
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if tag in _SKIPPED or not tag:
            return
        if tag == "br":
            flush()
        elif tag == "table":
            flush()
            _write_table(element, builder, page)
        elif tag in _HEADINGS:
            flush()
            text = clean_cell(element.text_content())
            if text:
                builder.heading([Fragment(text, page)], _HEADINGS[tag])
        else:
            block = tag in _BLOCKS
            if block:
                flush()
            pending.append(element.text or "")
            for child in element:
                visit(child)
                pending.append(child.tail or "")
            if block:
                flush(blank_if_empty=True)

    visit(body if body is not None else root)
    flush()


def _write_table(table, builder: DocumentBuilder, page: int | None) -> None:
    """A table's own rows (not those of tables nested in its cells), one line each."""
    rows: list[list[CellSpec]] = []
    for tr in table.iter("tr"):
        if next(tr.iterancestors("table")) is not table:
            continue
        cells = []
        for cell in tr:
            if not isinstance(cell.tag, str) or cell.tag.lower() not in ("td", "th"):
                continue
            span = cell.get("colspan", "1")
            cells.append(CellSpec(clean_cell(_cell_text(cell)), int(span) if span.isdigit() and int(span) > 0 else 1))
        rows.append(cells)
    builder.table(rows, page=page, header_rows=1 if looks_like_header(rows) else 0)


def _cell_text(cell) -> str:
    """A cell's text, its line breaks and blocks as line breaks (clean_cell joins them as soft wraps)."""
    pieces: list[str] = [cell.text or ""]
    for child in cell:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if tag == "br" or tag in _BLOCKS:
            pieces.append("\n")
        if tag and tag not in _SKIPPED:
            pieces.append(_cell_text(child))
        if tag in _BLOCKS:
            pieces.append("\n")
        pieces.append(child.tail or "")
    return "".join(pieces)
