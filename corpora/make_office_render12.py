"""Word and PDF files of layouts and producers the earlier scripts do not cover (round twelve).

Every name, number and value is invented for this project; the texts are ours (new ones here, or
the documents of ``corpora/`` re-rendered, whose gold then applies as the page shows the same
text). Each file was written, with its gold, before the chunker read it:

* a lab report whose Word tables set two panels side by side (each row: the left panel's item,
  result, unit and range, then the right panel's), each half named in a cell spanning it, the
  four column names written twice in the header row;
* an EMR template's record whose headings and field values sit in content controls (block and
  inline ``w:sdt``, a date picker, a drop-down list);
* a contract whose party names, dates and cross references are fields (``w:fldSimple``
  DOCPROPERTY / REF, a complex ``PAGE`` field) under a table of contents that is Word's TOC field
  with its cached result (``toc 1`` / ``toc 2`` entries, PAGEREF page numbers, a content control
  of the Table of Contents gallery around it, as Word 2013+ writes it);
* a contract whose clauses are set in a two-column section between one-column sections
  (continuous section breaks, ``w:cols w:num="2"``), printed to PDF by LibreOffice too;
* a discharge record whose section headings are set by direct formatting only (bold, larger,
  centred: no style, no outline level);
* a statute whose chapters and articles are one multi-level list (``第%1章`` / ``第%2条``, the
  article level never restarting), printed to PDF by LibreOffice too;
* Chromium's prints of web pages: a judgment with a running header and footer (fixed-position
  elements, repeated on every page), a record whose headings are only bold, a lab report typed
  as preformatted text (its table columns aligned by spaces, no rules).

The DOCX files are byte for byte the same on every run; the PDFs are committed (CI has neither
LibreOffice nor Chromium). Run: ``python corpora/make_office_render12.py``.
"""
from __future__ import annotations

import html
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs import Unit, write_gold  # noqa: E402
from make_office_docs_word import _cell, _package, _row, para, run, sdt_block  # noqa: E402

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
_DATE = (2024, 3, 1, 0, 0, 0)


def _grid_table(rows: str, widths: list[int]) -> str:
    grid = "".join(f'<w:gridCol w:w="{w}"/>' for w in widths)
    return (f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="5000" w:type="pct"/></w:tblPr>'
            f'<w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>')


# ---------------------------------------------------------------- two panels side by side

SIDE_PATIENT = [
    "青梧县第二人民医院检验报告单",
    "姓名：韦某某　性别：女　年龄：46岁　科别：内分泌科　床号：07　住院号：QW2026110308",
]
SIDE_COLUMNS = ["项目", "结果", "单位", "参考区间"]
# (left panel, its items), (right panel, its items): one table each pair
SIDE_TABLES = [
    (("血常规", [
        ("白细胞计数", "7.82", "10^9/L", "3.5-9.5"), ("中性粒细胞百分比", "71.4", "%", "40-75"),
        ("淋巴细胞百分比", "20.3", "%", "20-50"), ("红细胞计数", "3.62↓", "10^12/L", "3.8-5.1"),
        ("血红蛋白", "104↓", "g/L", "115-150"), ("红细胞压积", "32.1↓", "%", "35-45"),
        ("平均红细胞体积", "88.7", "fL", "82-100"), ("血小板计数", "236", "10^9/L", "125-350"),
    ]), ("凝血功能", [
        ("凝血酶原时间", "11.6", "s", "9.8-12.1"), ("国际标准化比值", "1.02", "", "0.8-1.2"),
        ("活化部分凝血活酶时间", "29.4", "s", "25-31.3"), ("纤维蛋白原", "4.36↑", "g/L", "2-4"),
        ("凝血酶时间", "16.8", "s", "14-21"), ("D-二聚体", "0.42", "mg/L FEU", "0-0.55"),
    ])),
    (("肝功能", [
        ("丙氨酸氨基转移酶", "18", "U/L", "7-40"), ("天门冬氨酸氨基转移酶", "21", "U/L", "13-35"),
        ("总胆红素", "9.6", "μmol/L", "0-21"), ("直接胆红素", "3.1", "μmol/L", "0-8"),
        ("总蛋白", "66.8", "g/L", "65-85"), ("白蛋白", "38.2↓", "g/L", "40-55"),
        ("碱性磷酸酶", "74", "U/L", "35-100"),
    ]), ("肾功能及电解质", [
        ("尿素", "5.42", "mmol/L", "2.6-7.5"), ("肌酐", "61", "μmol/L", "41-73"),
        ("尿酸", "388↑", "μmol/L", "155-357"), ("钾", "3.41↓", "mmol/L", "3.5-5.3"),
        ("钠", "139.2", "mmol/L", "137-147"), ("氯", "101.6", "mmol/L", "99-110"),
        ("葡萄糖", "9.84↑", "mmol/L", "3.9-6.1"), ("钙", "2.26", "mmol/L", "2.11-2.52"),
        ("二氧化碳结合力", "24.1", "mmol/L", "22-29"),
    ])),
]
SIDE_SIGNED = "标本：静脉血　采集时间：2026-11-03 06:40　报告时间：2026-11-03 10:26　检验者：蒙某　审核者：覃某"


def side_by_side_panels_docx() -> None:
    """Each table holds two panels, left and right; reading a panel is reading its half."""
    body = "".join(para(run(line, bold=i == 0), style="Title" if i == 0 else None) for i, line in enumerate(SIDE_PATIENT))
    units: list[Unit] = []
    width = len(SIDE_COLUMNS)
    for (left, left_items), (right, right_items) in SIDE_TABLES:
        rows = _row(_cell(left, span=width, bold=True) + _cell(right, span=width, bold=True))
        rows += _row("".join(_cell(c, bold=True) for c in SIDE_COLUMNS * 2), header=True)
        for k in range(max(len(left_items), len(right_items))):
            pair = [left_items[k] if k < len(left_items) else ("",) * width,
                    right_items[k] if k < len(right_items) else ("",) * width]
            rows += _row("".join(_cell(c) for item in pair for c in item))
        body += _grid_table(rows, [1500, 800, 800, 1050] * 2)
        body += para(run(SIDE_SIGNED))
        for name, items, tail in ((left, left_items, []), (right, right_items, [SIDE_SIGNED])):
            units.append(Unit([name], [name, "".join(SIDE_COLUMNS), *("".join(item) for item in items), *tail]))
    name = "lab_检验报告单_两组合左右并排一表_Word.docx"
    (OUT / name).write_bytes(_package(body))
    write_gold(name, "lab_report", units)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    side_by_side_panels_docx()


if __name__ == "__main__":
    main()
