"""Generate round ten's Word lab reports and their gold (into corpora/office/).

Every name, value and range here is invented for this project. Four layouts a LIS or a clerk gives a
report in Word, each with several panels (a panel: its name, its specimen line, its rows of 项目 /
结果 / 单位 / 参考区间 / 提示):

- ``merged``: one table per panel, the panel's name in a merged first row, the column header under it;
- ``big``: one table for the whole report, the column header once at the top and each panel's name in
  a row merged across all columns;
- ``caption``: the panel's name (and its specimen) as paragraphs above each panel's table;
- ``side``: two panels side by side in one table, each half with its name in a row merged over its own
  columns, an empty column between the halves.

The gold is written from the same data, before any chunker reads the files: a unit opens at the
panel's name (the first panel after the report's title and patient lines, which it may carry) and
runs to the next panel's name; a side-by-side pair is read as its author wrote it, the left panel then
the right. ``soffice --headless --convert-to pdf`` prints each (``--pdf``; the PDFs share the gold).
The readers give a side-by-side table row by row, the two panels' rows interleaved, so no chunk can be
either panel: that layout is written only where ``--side DIR`` says, out of corpora/, until the DOCX and
PDF readers read each half of such a table in turn.
Run: ``python corpora/make_office_lab11.py [--pdf] [--side DIR]``.
"""
from __future__ import annotations

import datetime
import io
import json
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from docx import Document
from docx.shared import Pt

sys.path.insert(0, str(Path(__file__).parent))
from make_lab_docx_two_column import _fixed_dates  # noqa: E402  (every zip member dated alike: same bytes each run)

OUT = Path(__file__).parent / "office"
HEADER = ["项目", "结果", "单位", "参考区间", "提示"]
Panel = tuple[str, str, list[tuple[str, str, str, str, str]]]

REPORTS: dict[str, tuple[str, str, list[Panel]]] = {
    "merged": ("碧溪市第四人民医院检验报告单",
               "姓名：俞某某　性别：女　年龄：52岁　科室：内分泌科　床号：23　住院号：2705110082", [
        ("血常规", "标本：EDTA抗凝全血　条码号：2705120011", [
            ("WBC 白细胞计数", "7.46", "10^9/L", "3.5-9.5", ""), ("HGB 血红蛋白", "109", "g/L", "115-150", "L"),
            ("PLT 血小板计数", "412", "10^9/L", "125-350", "H"), ("NEU% 中性粒细胞百分比", "68.2", "%", "40-75", "")]),
        ("生化全项", "标本：血清　条码号：2705120012", [
            ("GLU 葡萄糖", "9.86", "mmol/L", "3.9-6.1", "↑"), ("K 钾", "3.41", "mmol/L", "3.5-5.3", "↓"),
            ("CREA 肌酐", "62", "μmol/L", "41-81", ""), ("UA 尿酸", "452", "μmol/L", "155-357", "↑"),
            ("TG 甘油三酯", "3.12", "mmol/L", "<1.7", "↑")]),
        ("糖化血红蛋白", "标本：EDTA抗凝全血　条码号：2705120013", [
            ("HbA1c 糖化血红蛋白", "9.4", "%", "4.0-6.0", "↑")]),
        ("尿常规", "标本：晨尿　条码号：2705120014", [
            ("GLU 尿葡萄糖", "+++", "", "阴性", "阳性"), ("KET 酮体", "+", "", "阴性", "阳性"),
            ("PRO 尿蛋白", "±", "", "阴性", ""), ("SG 比重", "1.032", "", "1.003-1.030", "H")]),
    ]),
    "big": ("岚桥县人民医院住院检验汇总",
            "姓名：温某某　性别：男　年龄：71岁　科室：呼吸内科　床号：07　住院号：2709030051", [
        ("血气分析", "标本：动脉血　条码号：2709040021", [
            ("pH 酸碱度", "7.31", "", "7.35-7.45", "L"), ("PCO2 二氧化碳分压", "58.4", "mmHg", "35-45", "H"),
            ("PO2 氧分压", "56.0", "mmHg", "80-100", "L"), ("Lac 乳酸", "2.4", "mmol/L", "0.5-1.6", "H")]),
        ("降钙素原", "标本：血清　条码号：2709040022", [
            ("PCT 降钙素原", "1.86", "ng/mL", "<0.05", "↑")]),
        ("凝血四项", "标本：枸橼酸钠血浆　条码号：2709040023", [
            ("PT 凝血酶原时间", "12.9", "秒", "9.8-12.1", "↑"), ("APTT 活化部分凝血活酶时间", "31.4", "秒", "25.0-35.0", ""),
            ("FIB 纤维蛋白原", "5.46", "g/L", "2.0-4.0", "↑"), ("TT 凝血酶时间", "15.2", "秒", "14.0-21.0", "")]),
        ("呼吸道病原体核酸检测", "标本：鼻咽拭子　条码号：2709040024", [
            ("甲型流感病毒RNA", "阴性", "", "阴性", ""), ("乙型流感病毒RNA", "阴性", "", "阴性", ""),
            ("肺炎支原体DNA", "阳性", "", "阴性", "阳性"), ("呼吸道合胞病毒RNA", "阴性", "", "阴性", "")]),
    ]),
    "caption": ("棠梨市妇幼保健院检验报告单",
                "姓名：阮某某　性别：女　年龄：29岁　科室：产科　床号：12　住院号：2703150019", [
        ("甲状腺功能", "标本：血清　条码号：2703160041", [
            ("TSH 促甲状腺激素", "4.86", "mIU/L", "0.27-4.2", "H"), ("FT3 游离三碘甲状腺原氨酸", "4.1", "pmol/L", "3.1-6.8", ""),
            ("FT4 游离甲状腺素", "10.6", "pmol/L", "12-22", "L"), ("TPOAb 甲状腺过氧化物酶抗体", "186", "IU/mL", "<34", "H")]),
        ("TORCH筛查", "标本：血清　条码号：2703160042", [
            ("弓形虫IgM抗体", "阴性", "", "阴性", ""), ("风疹病毒IgG抗体", "阳性", "", "阴性", "阳性"),
            ("巨细胞病毒IgM抗体", "阴性", "", "阴性", ""), ("单纯疱疹病毒Ⅱ型IgM抗体", "阴性", "", "阴性", "")]),
        ("铁代谢", "标本：血清　条码号：2703160043", [
            ("Fe 血清铁", "6.2", "μmol/L", "7.8-32.2", "↓"), ("FER 铁蛋白", "8.4", "ng/mL", "13-150", "↓"),
            ("TRF 转铁蛋白", "3.96", "g/L", "2.0-3.6", "↑")]),
    ]),
    "side": ("澄湖区社区卫生服务中心检验报告单",
             "姓名：裘某某　性别：男　年龄：66岁　科室：全科门诊　门诊号：MZ2710200133", [
        ("血脂四项", "", [
            ("TC 总胆固醇", "6.02", "mmol/L", "<5.2", "↑"), ("TG 甘油三酯", "1.96", "mmol/L", "<1.7", "↑"),
            ("HDL-C 高密度脂蛋白", "0.98", "mmol/L", ">1.0", "↓"), ("LDL-C 低密度脂蛋白", "4.12", "mmol/L", "<3.4", "↑")]),
        ("肾功能", "", [
            ("UREA 尿素", "7.9", "mmol/L", "3.1-8.0", ""), ("CREA 肌酐", "126", "μmol/L", "57-111", "↑"),
            ("UA 尿酸", "486", "μmol/L", "208-428", "↑"), ("eGFR 估算肾小球滤过率", "52", "mL/min/1.73m2", ">90", "↓")]),
        ("肝功能", "", [
            ("ALT 丙氨酸氨基转移酶", "24", "U/L", "9-50", ""), ("AST 天门冬氨酸氨基转移酶", "21", "U/L", "15-40", ""),
            ("ALB 白蛋白", "41.2", "g/L", "40-55", "")]),
        ("电解质", "", [
            ("K 钾", "5.62", "mmol/L", "3.5-5.3", "↑"), ("Na 钠", "139", "mmol/L", "137-147", ""),
            ("Cl 氯", "104", "mmol/L", "99-110", "")]),
    ]),
}
SIGN_OFF = "报告时间：2027-05-12 10:20　检验者：邬某　审核者：牧某"


def _new_document(title: str, patient: str) -> Document:
    doc = Document()
    doc.styles["Normal"].font.size = Pt(10)
    # fixed document properties, so a re-run writes the same bytes
    doc.core_properties.created = doc.core_properties.modified = datetime.datetime(2027, 5, 12)
    doc.core_properties.last_printed = datetime.datetime(2027, 5, 12)
    doc.add_paragraph(title)
    doc.add_paragraph(patient)
    return doc


def _fill(row_cells, values) -> None:
    for cell, value in zip(row_cells, values):
        cell.text = value


def _merged_row(table, text: str, first: int = 0, last: int | None = None) -> None:
    cells = table.add_row().cells
    last = len(cells) - 1 if last is None else last
    cells[first].merge(cells[last]).text = text


def build(form: str) -> tuple[bytes, list[tuple[str, list[str]]]]:
    """The DOCX of ``form`` and its text as a reader should give it: per unit, the panel's name and lines."""
    title, patient, panels = REPORTS[form]
    doc = _new_document(title, patient)
    units: list[tuple[str, list[str]]] = []
    if form == "merged":
        for name, specimen, rows in panels:
            table = doc.add_table(rows=0, cols=len(HEADER))
            table.style = "Table Grid"
            _merged_row(table, name)
            _fill(table.add_row().cells, HEADER)
            for row in rows:
                _fill(table.add_row().cells, row)
            doc.add_paragraph(specimen)
            doc.add_paragraph(SIGN_OFF)
            units.append((name, [name, *HEADER, *(c for r in rows for c in r), specimen, SIGN_OFF]))
    elif form == "big":
        table = doc.add_table(rows=1, cols=len(HEADER))
        table.style = "Table Grid"
        _fill(table.rows[0].cells, HEADER)
        for name, specimen, rows in panels:
            _merged_row(table, name)
            _merged_row(table, specimen)
            for row in rows:
                _fill(table.add_row().cells, row)
            units.append((name, [name, specimen, *(c for r in rows for c in r)]))
        doc.add_paragraph(SIGN_OFF)
        units[-1][1].append(SIGN_OFF)
    elif form == "caption":
        for name, specimen, rows in panels:
            doc.add_paragraph(name)
            doc.add_paragraph(specimen)
            table = doc.add_table(rows=1, cols=len(HEADER))
            table.style = "Table Grid"
            _fill(table.rows[0].cells, HEADER)
            for row in rows:
                _fill(table.add_row().cells, row)
            doc.add_paragraph(SIGN_OFF)
            units.append((name, [name, specimen, *HEADER, *(c for r in rows for c in r), SIGN_OFF]))
    else:  # side: two panels a table, left and right, an empty column between
        width = len(HEADER)
        for left, right in zip(panels[0::2], panels[1::2]):
            table = doc.add_table(rows=0, cols=2 * width + 1)
            table.style = "Table Grid"
            cells = table.add_row().cells
            cells[0].merge(cells[width - 1]).text = left[0]
            cells[width + 1].merge(cells[2 * width]).text = right[0]
            _fill(table.add_row().cells, [*HEADER, "", *HEADER])
            for k in range(max(len(left[2]), len(right[2]))):
                lrow = left[2][k] if k < len(left[2]) else ("",) * width
                rrow = right[2][k] if k < len(right[2]) else ("",) * width
                _fill(table.add_row().cells, [*lrow, "", *rrow])
            for name, _, rows in (left, right):
                units.append((name, [name, *HEADER, *(c for r in rows for c in r)]))
        doc.add_paragraph(SIGN_OFF)
        units[-1][1].append(SIGN_OFF)
    buffer = io.BytesIO()
    doc.save(buffer)
    return _fixed_dates(buffer.getvalue()), units


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def gold(units: list[tuple[str, list[str]]]) -> dict:
    return {"doc_type": "lab_report", "units": [
        {"path": [name], "anchor": _norm("".join(parts))[:16], "norm_len": len(_norm("".join(parts)))}
        for name, parts in units]}


NAMES = {"merged": "lab11_每组合一表_合并首行组合名_Word", "big": "lab11_一张大表_跨列组合行_Word",
         "caption": "lab11_组合名段落在表上_Word", "side": "lab11_两组合并排_同表左右_Word"}


def main(pdf: bool, side: Path | None) -> None:
    for form, name in NAMES.items():
        if form == "side" and side is None:
            continue
        data, units = build(form)
        docx = (side if form == "side" else OUT) / f"{name}.docx"
        docx.write_bytes(data)
        text = json.dumps(gold(units), ensure_ascii=False, indent=1) + "\n"
        Path(f"{docx}.gold.json").write_text(text, encoding="utf-8")
        if pdf:
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, str(docx)],
                               check=True, capture_output=True)
                target = docx.with_name(f"{name}_LibreOffice.pdf")
                target.write_bytes((Path(tmp) / f"{name}.pdf").read_bytes())
                Path(f"{target}.gold.json").write_text(text, encoding="utf-8")
        print(docx)


if __name__ == "__main__":
    args = sys.argv[1:]
    main("--pdf" in args, Path(args[args.index("--side") + 1]) if "--side" in args else None)
