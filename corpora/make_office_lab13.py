"""Generate round twelve's Word lab reports and their gold (into corpora/office/).

Every name, value and range here is invented for this project. Three layouts of a report in Word not
made before (round ten's are in make_office_lab11.py, whose table helpers and gold this script uses):

- ``heading``: each panel's name a paragraph in Word's Heading 2 style, its specimen line under it, then
  its table, whose 结果 column is followed by a 提示 column holding only the arrow (↑ ↓), and a 备注
  paragraph under some tables;
- ``caption_cells``: one table per panel whose first row is the panel's caption written across the
  row's cells unmerged (检验项目：… | 标本：… | 条码号：… | empty cells), the column header under it;
- ``nested``: one layout table for the report, a row per panel: the panel's name and specimen in the
  left cell, the panel's table of items nested in the right cell.

The gold is written from the same data, before any chunker reads the files: a unit opens at the
panel's name (its caption row in ``caption_cells``) and runs to the next panel's name.
``soffice --headless --convert-to pdf`` prints each (``--pdf``; the PDFs share the gold), but for
``nested``: the PDF reader gives a nested table's cells twice, once run together as the outer cell's text
lines and once as the inner table's rows, so no panel's anchor survives; that print is written only where
``--nested-pdf DIR`` says, out of corpora/, until the PDF reader reads a table inside a cell once.
Run: ``python corpora/make_office_lab13.py [--pdf] [--nested-pdf DIR] [--out DIR]``.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_lab_docx_two_column import _fixed_dates  # noqa: E402  (every zip member dated alike)
from make_office_lab11 import _fill, _new_document, gold  # noqa: E402

OUT = Path(__file__).parent / "office"
HEADER = ["检验项目", "结果", "提示", "单位", "参考区间"]
Row = tuple[str, str, str, str, str]
Panel = tuple[str, str, list[Row], str]  # name, specimen line, rows, remark ("" for none)

REPORTS: dict[str, tuple[str, str, list[Panel]]] = {
    "heading": ("青崖市第二人民医院检验报告单",
                "姓名：殳某某　性别：男　年龄：58岁　科室：肝胆外科　床号：19　住院号：2710250064", [
        ("肝功能十五项", "标本：血清　条码号：2710260031　采样时间：2027-10-26 06:20", [
            ("丙氨酸氨基转移酶(ALT)", "126", "↑", "U/L", "9-50"), ("天门冬氨酸氨基转移酶(AST)", "98", "↑", "U/L", "15-40"),
            ("总胆红素(TBIL)", "86.4", "↑", "μmol/L", "0-26"), ("直接胆红素(DBIL)", "61.2", "↑", "μmol/L", "0-8"),
            ("白蛋白(ALB)", "32.1", "↓", "g/L", "40-55"), ("γ-谷氨酰转移酶(GGT)", "412", "↑", "U/L", "10-60"),
            ("碱性磷酸酶(ALP)", "286", "↑", "U/L", "45-125"), ("总胆汁酸(TBA)", "48.6", "↑", "μmol/L", "0-10")],
         "备注：标本轻度黄疸，已按说明书校正。"),
        ("凝血功能", "标本：枸橼酸钠血浆　条码号：2710260032　采样时间：2027-10-26 06:20", [
            ("凝血酶原时间(PT)", "14.2", "↑", "秒", "9.8-12.1"), ("国际标准化比值(INR)", "1.26", "↑", "", "0.85-1.15"),
            ("活化部分凝血活酶时间(APTT)", "33.6", "", "秒", "22.7-31.8"), ("纤维蛋白原(FIB)", "3.12", "", "g/L", "2.0-4.0")],
         ""),
        ("肿瘤标志物", "标本：血清　条码号：2710260033　采样时间：2027-10-26 06:20", [
            ("甲胎蛋白(AFP)", "3.2", "", "ng/mL", "0-7"), ("癌胚抗原(CEA)", "6.8", "↑", "ng/mL", "0-5"),
            ("糖类抗原19-9(CA19-9)", "462.5", "↑", "U/mL", "0-37"), ("糖类抗原242(CA242)", "58.4", "↑", "U/mL", "0-20")],
         "备注：CA19-9在胆道梗阻时可升高，请结合影像学。"),
        ("淀粉酶", "标本：血清　条码号：2710260034　采样时间：2027-10-26 06:20", [
            ("血清淀粉酶(AMY)", "72", "", "U/L", "35-135")], ""),
    ]),
    "caption_cells": ("鹿鸣县中医院检验报告单",
                      "姓名：闵某某　性别：女　年龄：73岁　科室：心血管内科　床号：08　住院号：2711120037", [
        ("心肌损伤标志物", "标本：血清", [
            ("高敏肌钙蛋白T(hs-cTnT)", "86.4", "↑", "ng/L", "0-14"), ("肌酸激酶同工酶(CK-MB)", "18.2", "↑", "ng/mL", "0-4.94"),
            ("肌红蛋白(MYO)", "96.0", "↑", "ng/mL", "0-58"), ("N端脑钠肽前体(NT-proBNP)", "4860", "↑", "pg/mL", "0-738")], ""),
        ("电解质四项", "标本：血清", [
            ("钾(K)", "3.28", "↓", "mmol/L", "3.5-5.3"), ("钠(Na)", "134.6", "↓", "mmol/L", "137-147"),
            ("氯(Cl)", "97.2", "↓", "mmol/L", "99-110"), ("镁(Mg)", "0.71", "↓", "mmol/L", "0.75-1.02")], ""),
        ("血脂四项", "标本：血清", [
            ("总胆固醇(TC)", "5.46", "↑", "mmol/L", "<5.2"), ("甘油三酯(TG)", "1.42", "", "mmol/L", "<1.7"),
            ("高密度脂蛋白胆固醇(HDL-C)", "0.96", "↓", "mmol/L", ">1.04"), ("低密度脂蛋白胆固醇(LDL-C)", "3.58", "↑", "mmol/L", "<3.4")], ""),
        ("D-二聚体", "标本：枸橼酸钠血浆", [
            ("D-二聚体(D-D)", "1.86", "↑", "mg/L FEU", "0-0.55")], ""),
        ("甲状腺功能三项", "标本：血清", [
            ("促甲状腺激素(TSH)", "0.12", "↓", "mIU/L", "0.27-4.2"), ("游离三碘甲状腺原氨酸(FT3)", "7.9", "↑", "pmol/L", "3.1-6.8"),
            ("游离甲状腺素(FT4)", "26.4", "↑", "pmol/L", "12-22")], ""),
    ]),
    "nested": ("桐江市妇幼保健院检验报告单",
               "姓名：鞠某某　性别：女　年龄：31岁　科室：产科　床号：27　住院号：2712010058", [
        ("血常规", "标本：EDTA抗凝全血", [
            ("白细胞计数(WBC)", "12.8", "↑", "10^9/L", "3.5-9.5"), ("血红蛋白(HGB)", "96", "↓", "g/L", "115-150"),
            ("血小板计数(PLT)", "98", "↓", "10^9/L", "125-350"), ("中性粒细胞百分比(NEU%)", "84.2", "↑", "%", "40-75")], ""),
        ("肝肾功能", "标本：血清", [
            ("丙氨酸氨基转移酶(ALT)", "86", "↑", "U/L", "7-40"), ("天门冬氨酸氨基转移酶(AST)", "112", "↑", "U/L", "13-35"),
            ("乳酸脱氢酶(LDH)", "642", "↑", "U/L", "120-250"), ("尿酸(UA)", "486", "↑", "μmol/L", "155-357"),
            ("肌酐(CREA)", "78", "", "μmol/L", "41-81")], ""),
        ("尿蛋白定性", "标本：随机尿", [
            ("尿蛋白(PRO)", "2+", "↑", "", "阴性")], ""),
        ("凝血功能", "标本：枸橼酸钠血浆", [
            ("凝血酶原时间(PT)", "11.6", "", "秒", "9.8-12.1"), ("活化部分凝血活酶时间(APTT)", "28.4", "", "秒", "22.7-31.8"),
            ("纤维蛋白原(FIB)", "3.62", "", "g/L", "2.0-4.0"), ("D-二聚体(D-D)", "3.42", "↑", "mg/L FEU", "0-0.55")], ""),
    ]),
}
SIGN_OFF = "报告时间：2027-12-02 10:40　检验者：甯某　审核者：澹台某"


def _table(container, rows: int, cols: int):
    table = container.add_table(rows=rows, cols=cols)
    table.style = "Table Grid"
    return table


def build(form: str) -> tuple[bytes, list[tuple[str, list[str]]]]:
    """The DOCX of ``form`` and, per unit, the panel's name and the text a reader should give it."""
    title, patient, panels = REPORTS[form]
    doc = _new_document(title, patient)
    units: list[tuple[str, list[str]]] = []
    if form == "heading":
        for name, specimen, rows, remark in panels:
            doc.add_heading(name, level=2)
            doc.add_paragraph(specimen)
            table = _table(doc, 1, len(HEADER))
            _fill(table.rows[0].cells, HEADER)
            for row in rows:
                _fill(table.add_row().cells, row)
            if remark:
                doc.add_paragraph(remark)
            units.append((name, [name, specimen, *HEADER, *(c for r in rows for c in r), remark]))
    elif form == "caption_cells":
        for k, (name, specimen, rows, _) in enumerate(panels):
            table = _table(doc, 0, len(HEADER))
            caption = [f"检验项目：{name}", specimen, f"条码号：27111300{41 + k}", "", ""]
            _fill(table.add_row().cells, caption)
            _fill(table.add_row().cells, HEADER)
            for row in rows:
                _fill(table.add_row().cells, row)
            units.append((name, [*caption, *HEADER, *(c for r in rows for c in r)]))
    else:  # nested: a layout table, a row a panel: its name and specimen left, its table nested right
        outer = _table(doc, 0, 2)
        for name, specimen, rows, _ in panels:
            left, right = outer.add_row().cells
            left.text = name
            left.add_paragraph(specimen)
            inner = right.add_table(rows=1, cols=len(HEADER))
            inner.style = "Table Grid"
            _fill(inner.rows[0].cells, HEADER)
            for row in rows:
                _fill(inner.add_row().cells, row)
            units.append((name, [name, specimen, *HEADER, *(c for r in rows for c in r)]))
    doc.add_paragraph(SIGN_OFF)
    units[-1][1].append(SIGN_OFF)
    buffer = io.BytesIO()
    doc.save(buffer)
    return _fixed_dates(buffer.getvalue()), units


NAMES = {"heading": "lab13_组合名标题样式_提示列箭头_备注段_Word",
         "caption_cells": "lab13_每组合一表_首行分格题注_Word",
         "nested": "lab13_版式表左格组合名_右格嵌套表_Word"}


def main(pdf: bool, out: Path, nested_pdf: Path | None) -> None:
    for form, name in NAMES.items():
        data, units = build(form)
        docx = out / f"{name}.docx"
        docx.write_bytes(data)
        text = json.dumps(gold(units), ensure_ascii=False, indent=1) + "\n"
        Path(f"{docx}.gold.json").write_text(text, encoding="utf-8")
        printed_to = nested_pdf if form == "nested" else out
        if pdf and printed_to is not None:
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, str(docx)],
                               check=True, capture_output=True)
                target = printed_to / f"{name}_LibreOffice.pdf"
                target.write_bytes((Path(tmp) / f"{name}.pdf").read_bytes())
                Path(f"{target}.gold.json").write_text(text, encoding="utf-8")
        print(docx)


if __name__ == "__main__":
    args = sys.argv[1:]
    main("--pdf" in args, Path(args[args.index("--out") + 1]) if "--out" in args else OUT,
         Path(args[args.index("--nested-pdf") + 1]) if "--nested-pdf" in args else None)
