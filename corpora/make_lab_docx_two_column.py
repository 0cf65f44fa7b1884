"""Generate a Word lab report whose tables set two items in a row, left and right (into corpora/).

Every name, value and range here is invented for this project. A LIS that prints a long panel on
one page halves its table: each row holds two items, each with its result, unit and reference
range, and the column header names the four columns twice. Each panel is one Word table with its
name in a caption paragraph above it and its specimen and signers in paragraphs around it; a short
panel leaves the right half of its last row empty. Run: ``python corpora/make_lab_docx_two_column.py``.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from docx import Document
from docx.shared import Pt

OUT = Path(__file__).parent / "lab_检验报告_两栏表格_左右各一项_Word.docx"
HEADER = ["项目", "结果", "单位", "参考范围"]
PANELS = [
    ("肝功能", "标本：血清　条码号：2703020051", [
        ("丙氨酸氨基转移酶", "46↑", "U/L", "7-40"), ("天门冬氨酸氨基转移酶", "38↑", "U/L", "13-35"),
        ("γ-谷氨酰转移酶", "52↑", "U/L", "7-45"), ("碱性磷酸酶", "96", "U/L", "50-135"),
        ("总蛋白", "71.2", "g/L", "65-85"), ("白蛋白", "44.6", "g/L", "40-55"),
        ("球蛋白", "26.6", "g/L", "20-40"), ("总胆红素", "14.2", "μmol/L", "0-21"),
        ("直接胆红素", "4.1", "μmol/L", "0-8"), ("总胆汁酸", "3.6", "μmol/L", "0-10"),
        ("前白蛋白", "268", "mg/L", "200-400"),
    ]),
    ("心肌酶谱", "标本：血清　条码号：2703020052", [
        ("肌酸激酶", "312↑", "U/L", "40-200"), ("肌酸激酶同工酶", "28↑", "U/L", "0-24"),
        ("乳酸脱氢酶", "246", "U/L", "120-250"), ("α-羟丁酸脱氢酶", "178", "U/L", "72-182"),
        ("肌红蛋白", "96.4↑", "ng/mL", "<70"), ("高敏肌钙蛋白T", "0.021↑", "ng/mL", "<0.014"),
    ]),
    ("尿液分析", "标本：随机尿　条码号：2703020053", [
        ("颜色", "淡黄色", "", "淡黄色"), ("透明度", "清亮", "", "清亮"),
        ("比重", "1.021", "", "1.003-1.030"), ("酸碱度", "6.0", "", "4.5-8.0"),
        ("尿蛋白", "阴性", "", "阴性"), ("尿糖", "阴性", "", "阴性"),
        ("酮体", "阴性", "", "阴性"), ("隐血", "弱阳性(±)", "", "阴性"),
        ("白细胞", "8", "/μL", "0-25"),
    ]),
]


def build() -> bytes:
    doc = Document()
    style = doc.styles["Normal"]
    style.font.size = Pt(10)
    doc.add_paragraph("汀州市人民医院检验报告单")
    doc.add_paragraph("姓名：褚某某　性别：男　年龄：57岁　科室：心血管内科　床号：19　住院号：X2703022")
    for name, specimen, items in PANELS:
        doc.add_paragraph(name)
        doc.add_paragraph(specimen)
        table = doc.add_table(rows=1, cols=8)
        table.style = "Table Grid"
        for i, word in enumerate(HEADER * 2):
            table.rows[0].cells[i].text = word
        for k in range(0, len(items), 2):
            cells = table.add_row().cells
            for half, item in enumerate(items[k:k + 2]):
                for j, value in enumerate(item):
                    cells[half * 4 + j].text = value
        doc.add_paragraph("采样时间：2027-03-02 06:50　报告时间：2027-03-02 10:15　检验者：骆某　审核者：常某")
    buffer = io.BytesIO()
    doc.save(buffer)
    return _fixed_dates(buffer.getvalue())


def _fixed_dates(data: bytes) -> bytes:
    """The same zip each run: every member dated 2027-03-02, so a re-run changes no byte."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2027, 3, 2, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


if __name__ == "__main__":
    OUT.write_bytes(build())
    print(OUT)
