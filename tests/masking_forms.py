"""The adversarial masking records (tests/data/phi/records.yaml) and the forms they are read in.

Everything in the records is invented. Besides the text and the suite's re-layouts and
renderings (tests/relayout.py), each record is written as a DOCX of the kind a hospital system
exports (the header fields in a four-column Word table, label | value | label | value; the record
number and name in the page header; the title and author in the file's properties) and as a PDF
printed on small pages, so that a page header with the record number and the patient's name
repeats on every page, with the title and author in its metadata.
"""
from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

import yaml

from relayout import RENDERINGS, TEXT_VARIANTS

DATA = Path(__file__).resolve().parent / "data" / "phi"
_GAP = re.compile(r"[ \u3000]{2,}|[ \u3000](?=[^\s:：]{1,12}[:：])")


@dataclass(frozen=True)
class MaskingRecord:
    id: str
    file: str  # the name it is read under: the patient's, as hospital exports often are
    text: str
    hide: tuple[str, ...]  # every value no output may hold
    title: str
    page_header: str
    lost: dict[str, tuple[str, ...]]  # layout -> values known to reach the output there (records.yaml says why)
    keep: tuple[str, ...]  # clinical text, column heads and titles masking must leave alone


def masking_records() -> list[MaskingRecord]:
    rows = yaml.safe_load((DATA / "records.yaml").read_text(encoding="utf-8"))
    return [MaskingRecord(r["id"], r["file"], r["text"], tuple(str(v) for v in r["hide"]),
                          r.get("title") or Path(r["file"]).stem, r["page_header"],
                          {k: tuple(map(str, v)) for k, v in (r.get("lost") or {}).items()},
                          tuple(str(v) for v in r.get("keep", ()))) for r in rows]


def fields_of(line: str) -> list[tuple[str, str]] | None:
    """A header line's ``label：value`` fields (set apart by wide gaps, or by a blank before the
    next label), or None for a line that is not all fields."""
    if "。" in line or not line.strip():
        return None
    parts = [p for p in _GAP.split(line.strip()) if p]
    fields = [p.partition(":" if ":" in p and "：" not in p else "：") for p in parts]
    if not all(sep and label and len(label) <= 12 for label, sep, _ in fields):
        return None
    return [(label.strip(), value.strip()) for label, _, value in fields]


def to_docx_form(rec: MaskingRecord) -> bytes:
    """A hospital system's DOCX: the header fields in a label | value | label | value table (a
    value's second line inside its cell), the record number and name in the page header, the
    title and the physician as the file's title and author."""
    import docx

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = rec.page_header
    lines = rec.text.rstrip("\n").split("\n")
    first_field = next((i for i, line in enumerate(lines) if fields_of(line)), len(lines))
    document.add_heading(lines[0], level=1)
    for line in lines[1:first_field]:
        document.add_paragraph(line)
    cells: list[tuple[str, str]] = []
    i = first_field
    while i < len(lines) and (fields_of(lines[i]) or (lines[i][:1] in " \u3000" and lines[i].strip())):
        found = fields_of(lines[i])
        if found:
            cells += found
        else:  # a value's second line: a line break inside its cell
            cells[-1] = (cells[-1][0], f"{cells[-1][1]}\n{lines[i].strip()}")
        i += 1
    if cells:
        table = document.add_table(rows=(len(cells) + 1) // 2, cols=4)
        for n, (label, value) in enumerate(cells):
            row, col = divmod(n, 2)
            table.cell(row, 2 * col).text = label
            table.cell(row, 2 * col + 1).text = value
    for line in lines[i:]:
        document.add_paragraph(line)
    props = document.core_properties
    props.title, props.author, props.created = rec.title, "记录医师", datetime(2026, 1, 1)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def to_pdf_form(rec: MaskingRecord) -> bytes:
    """Printed on half-height pages (so that the record spans several), the page header on each."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    width, height = 595, 300
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(width, height), invariant=1)
    pdf.setTitle(rec.title)
    pdf.setAuthor("记录医师")
    lines = [line for line in rec.text.rstrip("\n").split("\n") if line.strip()]
    per_page, page = 9, 0
    for start in range(0, len(lines), per_page):
        page += 1
        pdf.setFont("STSong-Light", 9)
        pdf.drawString(50, height - 30, rec.page_header)
        pdf.drawCentredString(width / 2, 20, f"第 {page} 页")
        y = height - 60
        for line in lines[start : start + per_page]:
            pdf.setFont("STSong-Light", 11)
            pdf.drawString(50, y, line.replace("\t", "    "))
            y -= 22
        pdf.showPage()
    pdf.save()
    return out.getvalue()


RELAYOUTS = ("nospace", "wrap36", "nospace_wrap36", "oneline_paras", "pdftotext_blocks", "justified_wrap36",
             "dblank_wrap36")
FORMS: dict[str, tuple[Callable[[MaskingRecord], bytes], str]] = {
    "docx_form": (to_docx_form, ".docx"), "pdf_form": (to_pdf_form, ".pdf")}
LAYOUTS = ("as_written", *RELAYOUTS, *RENDERINGS, *FORMS)


def squash(value: object) -> str:
    """Whitespace and dashes left out: a value leaks however an output spaces or breaks it."""
    return "".join(c for c in str(value) if not c.isspace() and c not in "-－")


def leaked(rec: MaskingRecord, outputs: dict[str, str], *layouts: str) -> set[tuple[str, str]]:
    """(output, value) for every value of ``rec`` one of ``outputs`` holds, but for those known
    to reach it in ``layouts`` (the outputs' files were in those layouts)."""
    lost = {value for layout in layouts for value in rec.lost.get(layout, ())}
    return {(name, value) for name, blob in outputs.items() for value in rec.hide
            if value not in lost and squash(value) in squash(blob)}


def write(rec: MaskingRecord, layout: str, folder: Path) -> Path:
    """The record as a file in ``layout``, under its own (identifying) name."""
    stem = Path(rec.file).stem
    if layout in FORMS:
        render, suffix = FORMS[layout]
        path = folder / f"{stem}{suffix}"
        path.write_bytes(render(rec))
    elif layout in RENDERINGS:
        to_bytes, suffix = RENDERINGS[layout]
        path = folder / f"{stem}{suffix}"
        path.write_bytes(to_bytes(rec.text))
    else:
        path = folder / rec.file
        path.write_text(rec.text if layout == "as_written" else TEXT_VARIANTS[layout][0](rec.text), encoding="utf-8")
    return path


def _dump(values: object) -> str:
    return json.dumps(values, ensure_ascii=False, default=str)


def api_outputs(path: Path) -> dict[str, str]:
    """Every field of the API's result, masked, as text: chunks, parents, context, title, metadata."""
    from domainchunk import pipeline

    result = pipeline.chunk(path, mask_phi=True, parents=True)
    everything = (*result.chunks, *result.parents)
    return {
        "text": "\n".join(c.text for c in result.chunks),
        "parents": "\n".join(c.text for c in result.parents),
        "path": _dump([c.path for c in everything]),
        "metadata": _dump([c.metadata for c in everything]),
        "source": _dump([c.source for c in everything] + [result.document.source]),
        "context_text": "\n".join(result.contexts()),
        "title": result.document.title or "",
        "document_metadata": _dump(result.document.metadata),
        "records": _dump(result.records()),
    }
