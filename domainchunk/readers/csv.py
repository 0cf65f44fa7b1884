"""CSV and TSV exports (a LIS's lab results): rows of several cells become table blocks.

Every row is one line of the document text with its cells separated by tabs,
as the PDF and DOCX readers write tables, so a lab panel exported as CSV is
chunked like the same panel printed. A row with a single filled cell (a panel
name, a header field) is an ordinary line between tables.
"""
from __future__ import annotations

import csv
import io

from ..errors import ReadError
from ..models import Document
from .layout import CellSpec, DocumentBuilder, looks_like_header
from .text import decode


def _rows(text: str, source: str) -> list[list[str]]:
    sample = text[:4096]
    delimiter = "\t" if source.lower().endswith(".tsv") or sample.count("\t") > sample.count(",") else ","
    return [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)]


def read_csv(data: bytes, source: str) -> Document:
    builder = DocumentBuilder()
    table: list[list[CellSpec]] = []

    def flush() -> None:
        if table:
            builder.table(table, header_rows=1 if looks_like_header(table) else 0)
            table.clear()

    for row in _rows(decode(data, source), source):
        filled = [cell for cell in row if cell]
        if len(filled) > 1:
            table.append([CellSpec(cell) for cell in row])
        else:
            flush()
            if filled:
                builder.line(filled[0])
    flush()
    doc = builder.build(source, metadata={"format": "csv"})
    if not doc.text.strip():
        raise ReadError(source, "empty file")
    doc.pages = []
    return doc
