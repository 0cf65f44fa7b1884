"""Invented lab reports, rendered in every form a lab report reaches us in.

A :class:`Report` is a title, a patient line and panels; each panel has a name,
an optional specimen line, its columns (项目 / 结果 / 单位 / 参考范围 / 提示 in
varying choice, order and wording) and its rows. :func:`render` writes one
report as

- ``text``: one line per paragraph, table rows tab-separated;
- ``spaces``: the same with space-aligned columns (a plain-text LIS print);
- ``docx_caption``: one Word table per panel, the panel's name in a paragraph above it;
- ``docx_merged``: one Word table per panel, its name in a merged first row;
- ``docx_big``: one Word table for the whole report, the column header once at the
  top and each panel's name in a merged row;
- ``pdf``: ruled tables with the panel's name printed above each (reportlab), over
  as many pages as it takes, the column header repeated on a continued table.

Everything is made up: names, values and ranges are drawn from small lists here.
"""
from __future__ import annotations

import io
import random
import unicodedata
from dataclasses import dataclass

FORMS = ("text", "spaces", "docx_caption", "docx_merged", "docx_big", "pdf")
FONT = "STSong-Light"

# Panel names: some in the rule file's panel vocabulary, some a lab names its own way.
PANELS = ("血常规", "肝功能", "肾功能", "电解质", "凝血四项", "甲功五项", "生化4", "免疫球蛋白", "血脂",
          "心肌标志物", "尿常规", "乙肝两对半", "微量元素", "性激素六项")
ITEMS = (
    ("白细胞计数", "WBC", "10^9/L", (3.5, 9.5)), ("血红蛋白", "HGB", "g/L", (115, 150)),
    ("血小板计数", "PLT", "10^9/L", (125, 350)), ("丙氨酸氨基转移酶", "ALT", "U/L", (7, 40)),
    ("总胆红素", "TBIL", "μmol/L", (3.4, 20.5)), ("白蛋白", "ALB", "g/L", (40, 55)),
    ("尿素", "UREA", "mmol/L", (2.6, 7.5)), ("肌酐", "CREA", "μmol/L", (41, 81)),
    ("钾", "K", "mmol/L", (3.5, 5.3)), ("钠", "NA", "mmol/L", (137, 147)),
    ("纤维蛋白原", "FIB", "g/L", (2.0, 4.0)), ("凝血酶原时间", "PT", "秒", (9.8, 12.1)),
    ("促甲状腺激素", "TSH", "mIU/L", (0.27, 4.2)), ("总胆固醇", "TC", "mmol/L", (2.8, 5.2)),
    ("甘油三酯", "TG", "mmol/L", (0.45, 1.7)), ("免疫球蛋白G", "IgG", "g/L", (7.0, 16.0)),
    ("肌钙蛋白I", "cTnI", "ng/mL", (0.0, 0.04)), ("葡萄糖", "GLU", "mmol/L", (3.9, 6.1)),
)
# Column choices: each a field and the ways a lab heads it.
COLUMN_WORDS = {
    "seq": ("序号", "No"),
    "name": ("项目", "项目名称", "检验项目"),
    "code": ("代号", "英文缩写"),
    "result": ("结果", "检验结果", "测定值"),
    "flag": ("提示", "标志"),
    "unit": ("单位",),
    "ref": ("参考范围", "参考区间", "参考值"),
}


@dataclass
class Panel:
    name: str
    specimen: str | None
    header: list[str]
    rows: list[list[str]]


@dataclass
class Report:
    title: str
    patient: str
    panels: list[Panel]


def _cell(field: str, seq: int, item: tuple, value: float) -> str:
    name, code, unit, (low, high) = item
    if field == "seq":
        return str(seq)
    if field == "name":
        return name
    if field == "code":
        return code
    if field == "result":
        return f"{value:g}"
    if field == "flag":
        return "↑" if value > high else "↓" if value < low else ""
    if field == "unit":
        return unit
    return f"{low:g}-{high:g}"


def make_report(seed: int) -> Report:
    """A report of 2–6 panels, each with its own columns and 1–12 rows."""
    rng = random.Random(seed)
    panels = []
    shared = rng.random() < 0.3  # one set of columns for every panel, as a LIS prints them
    fields: list[str] = []
    for name in rng.sample(PANELS, rng.randint(2, 6)):
        if not (shared and fields):
            fields = _fields(rng)
        header = [COLUMN_WORDS[f][0] for f in fields] if shared else [rng.choice(COLUMN_WORDS[f]) for f in fields]
        items = rng.sample(ITEMS, rng.randint(1, 12))
        values = [round(rng.uniform(item[3][0] * 0.6, item[3][1] * 1.4), 2) for item in items]
        rows = [[_cell(f, i, item, value) for f in fields] for i, (item, value) in enumerate(zip(items, values), start=1)]
        specimen = rng.choice((None, "标本：血清", "标本类型：全血　条码号：B" + str(rng.randint(1000, 9999))))
        panels.append(Panel(name, specimen, header, rows))
    return Report("示范医院检验报告单", "姓名：某甲　性别：女　年龄：41岁　科室：内科", panels)


def _fields(rng: random.Random) -> list[str]:
    """A table's columns: name first, then result and some of unit, range, flag, code in any order."""
    fields = ["name", "result"] + [f for f in ("unit", "ref", "flag", "code") if rng.random() < 0.7]
    fields = fields[:1] + rng.sample(fields[1:], len(fields) - 1)
    if "ref" not in fields:
        fields.append("ref")  # a result table without reference ranges is not what a lab prints
    if rng.random() < 0.4:
        fields.insert(0, "seq")
    return fields


COLUMN_WIDTH = 20


def print_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def columns(report: Report) -> int:
    return max(len(p.header) for p in report.panels)


# ---------------------------------------------------------------- text


def to_text(report: Report, *, spaces: bool = False) -> str:
    def row(cells: list[str]) -> str:
        # A monospaced print pads every cell, an empty one too, to its column's width
        # (a CJK character prints two columns wide).
        return "".join(c + " " * (COLUMN_WIDTH - print_width(c)) for c in cells).rstrip() if spaces else "\t".join(cells)

    lines = [report.title, report.patient]
    for panel in report.panels:
        lines.append(panel.name)
        if panel.specimen:
            lines.append(panel.specimen)
        lines += [row(panel.header), *(row(r) for r in panel.rows)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- DOCX


def _table(document, rows: list[list[str]], width: int, merged: list[int]):
    """A Word table of ``width`` columns; rows listed in ``merged`` are one cell across it."""
    table = document.add_table(rows=len(rows), cols=width)
    table.style = "Table Grid"
    for r, cells in enumerate(rows):
        if r in merged:
            table.cell(r, 0).merge(table.cell(r, width - 1)).text = cells[0]
            continue
        for c, text in enumerate(cells):
            table.cell(r, c).text = text
    return table


def to_docx(report: Report, form: str) -> bytes:
    from docx import Document

    document = Document()
    document.add_paragraph(report.title)
    document.add_paragraph(report.patient)
    if form == "docx_big":
        # Panels that share their columns are headed once, at the top; else each heads its rows.
        shared = all(p.header == report.panels[0].header for p in report.panels)
        rows: list[list[str]] = [report.panels[0].header] if shared else []
        merged = []
        for panel in report.panels:
            for lead in filter(None, (panel.name, panel.specimen)):
                merged.append(len(rows))
                rows.append([lead])
            rows += ([] if shared else [panel.header]) + panel.rows
        _table(document, [r + [""] * (columns(report) - len(r)) for r in rows], columns(report), merged)
    else:
        for panel in report.panels:
            width = len(panel.header)
            if form == "docx_caption":
                document.add_paragraph(panel.name)
                if panel.specimen:
                    document.add_paragraph(panel.specimen)
                _table(document, [panel.header, *panel.rows], width, [])
            else:
                lead = [[panel.name]] + ([[panel.specimen]] if panel.specimen else [])
                _table(document, [*lead, panel.header, *panel.rows], width, list(range(len(lead))))
            document.add_paragraph("")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------- PDF


def to_pdf(report: Report) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    height = A4[1]
    row_height, left, bottom_margin = 20.0, 60.0, 60.0
    y = height - 60

    def text(line: str, size: float) -> None:
        nonlocal y
        c.setFont(FONT, size)
        c.drawString(left, y - size, line)
        y -= size + 12

    def table(rows: list[list[str]]) -> None:
        nonlocal y
        # Every column as wide as its widest cell: a cell's text stays inside its ruling.
        widths = [max(stringWidth(row[i], FONT, 9) for row in rows) + 8 for i in range(len(rows[0]))]
        c.setFont(FONT, 9)
        top = y
        for i, row in enumerate(rows):
            c.line(left, top - i * row_height, left + sum(widths), top - i * row_height)
            x = left
            for width, cell in zip(widths, row):
                c.drawString(x + 3, top - i * row_height - 14, cell)
                x += width
        bottom = top - len(rows) * row_height
        c.line(left, bottom, left + sum(widths), bottom)
        x = left
        for width in [0, *widths]:
            x += width
            c.line(x, top, x, bottom)
        y = bottom - 16

    def room(lines: int) -> float:
        return y - bottom_margin - lines * row_height

    text(report.title, 16)
    text(report.patient, 10)
    for panel in report.panels:
        if room(3) < 0:
            c.showPage()
            y = height - 60
        text(panel.name, 12)
        if panel.specimen:
            text(panel.specimen, 10)
        rows = list(panel.rows)
        while rows:
            fits = max(1, int(room(1) // row_height))
            table([panel.header, *rows[:fits]])
            rows = rows[fits:]
            if rows:  # the table goes on over the page, its header repeated
                c.showPage()
                y = height - 60
    c.showPage()
    c.save()
    return buffer.getvalue()


def render(report: Report, form: str) -> tuple[str, bytes]:
    """The report as a file: (suffix, bytes)."""
    if form in ("text", "spaces"):
        return ".txt", to_text(report, spaces=form == "spaces").encode("utf-8")
    if form == "pdf":
        return ".pdf", to_pdf(report)
    return ".docx", to_docx(report, form)
