"""Generate our own sample PDF and DOCX documents (and their gold files) into corpora/office/.

Every text here is written for this project. The documents exercise what the
PDF and DOCX readers must get right: running headers and footers, page
numbers, a table of contents, soft-wrapped lines (with a cross-reference
``第十条规定的`` landing at a line start), a ruled table continued across a
page break with its header row repeated, two columns, Word automatic numbering
and merged table cells; a WPS-style export with a 目录 page without page numbers, chapter
headings centred in body size and ``- 3 -`` footers; articles numbered by a Word list bound to a
paragraph style, with a Word table of contents. Wrapping follows 禁则: closing punctuation hangs
past the margin instead of opening a line. Round five: a law whose 章/节/条 are all Word's (heading
styles bound to one multilevel list), a judgment with a text-box title, a header, a PAGE footer
and soft line breaks, an admission record whose bold section names have the colon in a plain run,
a contract with outline-level clause titles and a signature table, and lab reports as a 字段/值
patient table, one table per panel (repeating header row, repeated by hand at a page break),
one table with spanning panel rows and a merged specimen column, and one table whose merged
first column names the panels. Round seven: a lab report of 23 panels in one long table, each opened
by a merged row spanning all columns (the name alone, with its specimen in brackets, or followed
by its specimen field), the column header a repeating header row printed again mid-table.

Output is deterministic (fixed dates, no random ids), so re-running the script
gives the same files. Run: ``python corpora/make_office_docs.py``.
"""
from __future__ import annotations

import copy
import io
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

OUT = Path(__file__).parent / "office"
FONT = "STSong-Light"

# ---------------------------------------------------------------- gold


@dataclass
class Unit:
    path: list[str]
    lines: list[str] = field(default_factory=list)


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def write_gold(name: str, doc_type: str, units: list[Unit]) -> None:
    """GOLD.md format: anchor = first characters of the unit, norm_len = its length up to the next unit."""
    records = []
    for unit in units:
        body = "".join(unit.lines)
        records.append({"path": unit.path, "anchor": _norm(body)[:16], "norm_len": len(_norm(body))})
    (OUT / f"{name}.gold.json").write_text(
        json.dumps({"doc_type": doc_type, "units": records}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


# ---------------------------------------------------------------- texts (our own)

REGULATION_TITLE = "示例市公共数据开放管理办法"
REGULATION = [
    ("第一章　总则", [
        "为了规范公共数据开放工作，提升公共数据资源的利用水平，保障数据安全，促进数字经济健康发展，根据有关法律、法规，结合本市实际，制定本办法。",
        "本市行政区域内公共管理和服务机构开展公共数据开放、利用和安全管理等活动，适用本办法。",
        "本办法所称公共数据，是指本市各级行政机关以及履行公共管理和服务职能的事业单位在依法履职过程中收集和产生的各类数据资源。",
        "公共数据开放应当遵循需求导向、安全可控、分级分类、统一标准、便捷高效的原则。",
    ]),
    ("第二章　开放目录", [
        "市数据主管部门负责组织编制本市公共数据开放目录，并根据经济社会发展需要定期调整。",
        "公共数据按照开放属性分为无条件开放、有条件开放和不予开放三类。涉及个人隐私、商业秘密或者国家秘密的公共数据，列入不予开放类。",
        "数据提供单位应当对列入有条件开放类的公共数据明确开放条件，并在开放平台上公布。",
        "数据提供单位应当按照开放目录的要求，及时更新已经开放的公共数据，保证数据的完整性、准确性和时效性。",
    ]),
    ("第三章　开放平台", [
        "市数据主管部门负责建设全市统一的公共数据开放平台，数据提供单位应当通过开放平台开放公共数据，不得另行建设开放渠道。",
        "数据利用主体申请获取有条件开放类公共数据的，应当通过开放平台提交申请，说明数据用途、应用场景和安全保障措施。",
        "数据提供单位收到申请后，应当在规定期限内完成审核；同意开放的，应当与数据利用主体签订数据利用协议。",
    ]),
    ("第四章　法律责任", [
        "数据利用主体在使用有条件开放类公共数据的过程中，违反本办法第十条规定的数据利用协议约定，超出申请用途使用公共数据的，数据提供单位可以暂停或者终止向其开放数据，并记入信用档案。",
        "数据提供单位未按照本办法规定开放、更新公共数据的，由市数据主管部门责令改正；情节严重的，依法追究有关人员的责任。",
        "违反本办法规定，泄露、篡改、毁损公共数据的，依照有关法律、法规的规定处理。",
    ]),
    ("第五章　附则", [
        "本办法自发布之日起施行。",
    ]),
]
ITEMS_AFTER = {  # article number → its numbered items
    6: ["（一）涉及国家秘密的；", "（二）涉及商业秘密或者个人隐私的；", "（三）法律、法规规定不予开放的其他情形。"],
}


def cn(n: int) -> str:
    """一 … 九十九, as written in article labels."""
    digits = "零一二三四五六七八九"
    if n < 10:
        return digits[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else digits[tens]) + "十" + (digits[ones] if ones else "")


# ---------------------------------------------------------------- PDF helpers


def _canvas(buffer: io.BytesIO, **kwargs):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    c = canvas.Canvas(buffer, pagesize=A4, invariant=1, **kwargs)
    c.setAuthor("domainchunk")
    return c


NO_LINE_START = "。，、；：？！）”’》」』"


def wrap(text: str, width: float, size: float, indent: float = 0.0) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (the first line indented), char by char."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines, current, limit = [], "", width - indent
    for char in text:
        # 禁则: closing punctuation never opens a line, it hangs past the margin as WPS and Word print it
        if current and char not in NO_LINE_START and stringWidth(current + char, FONT, size) > limit:
            lines.append(current)
            current, limit = "", width
        current += char
    if current:
        lines.append(current)
    return lines


class Flow:
    """Writes lines top to bottom on A4 pages, with a running header and a page-number footer."""

    def __init__(self, c, *, header: str | None, footer, size: float = 12.0, left: float = 80.0, width: float = 432.0, spacing: float = 2.2):
        from reportlab.lib.pagesizes import A4

        self.c, self.header, self.footer, self.size, self.spacing = c, header, footer, size, spacing
        self.left, self.width, self.page_height = left, width, A4[1]
        self.page = 0
        self.y = 0.0
        self.split_paragraphs = 0  # paragraphs that run over a page break: soft wraps across pages
        self._new_page(first=True)

    def _new_page(self, first: bool = False) -> None:
        if not first:
            self._finish_page()
            self.c.showPage()
        self.page += 1
        self.y = self.page_height - 90
        if self.header:
            self.c.setFont(FONT, 9)
            self.c.drawString(self.left, self.page_height - 50, self.header)
            self.c.line(self.left, self.page_height - 55, self.left + self.width, self.page_height - 55)

    def _finish_page(self) -> None:
        self.c.setFont(FONT, 10)
        self.c.drawCentredString(self.left + self.width / 2, 40, self.footer(self.page))

    def need(self, height: float) -> None:
        if self.y - height < 80:
            self._new_page()

    def line(self, text: str, *, size: float | None = None, x: float | None = None, centred: bool = False) -> None:
        size = size or self.size
        self.need(size * self.spacing)
        self.c.setFont(FONT, size)
        if centred:
            self.c.drawCentredString(self.left + self.width / 2, self.y, text)
        else:
            self.c.drawString(self.left if x is None else x, self.y, text)
        self.y -= size * self.spacing

    def paragraph(self, text: str, indent_chars: int = 2) -> list[str]:
        indent = indent_chars * self.size
        lines = wrap(text, self.width, self.size, indent)
        pages = set()
        for i, line in enumerate(lines):
            self.line(line, x=self.left + (indent if i == 0 else 0))
            pages.add(self.page)
        self.split_paragraphs += len(pages) > 1
        return lines

    def close(self) -> None:
        self._finish_page()
        self.c.save()


# ---------------------------------------------------------------- regulation PDF


def regulation_parts() -> list[tuple[str, str]]:
    """The regulation in reading order as (chapter | article | item, text): one source for its PDF and DOCX."""
    parts: list[tuple[str, str]] = []
    article = 0
    for chapter, articles in REGULATION:
        parts.append(("chapter", chapter))
        for text in articles:
            article += 1
            parts.append(("article", f"第{cn(article)}条　{text}"))
            parts += [("item", item) for item in ITEMS_AFTER.get(article, [])]
    return parts


def regulation_units() -> list[Unit]:
    """Gold units of the regulation: each article, with the chapter heading that follows it as its last line."""
    units: list[Unit] = []
    chapter = ""
    for kind, text in regulation_parts():
        if kind == "chapter":
            chapter = text.replace("　", " ")
            if units:
                units[-1].lines.append(text)
        elif kind == "article":
            units.append(Unit([chapter, text.split("　", 1)[0]], [text]))
        else:
            units[-1].lines.append(text)
    return units


def regulation_pdf() -> None:
    """Statute-like: title page with a 目录 (dot leaders), running header, footer page numbers."""
    buffer = io.BytesIO()
    c = _canvas(buffer)
    flow = Flow(c, header=f"{REGULATION_TITLE}（试行）", footer=lambda n: f"— {n} —", spacing=2.5)
    flow.line(REGULATION_TITLE, size=18, centred=True)
    flow.line("目　录", size=14, centred=True)
    for number, (chapter, _) in enumerate(REGULATION, start=1):
        flow.line(f"{chapter} {'…' * 20} {number}")
    for kind, text in regulation_parts():
        if kind == "chapter":
            flow.need(80)  # no chapter heading alone at a page foot
            flow.line(text, size=14, centred=True)
            continue
        lines = flow.paragraph(text)
        if "第十条规定的" in text and kind == "article":
            assert any(line.startswith("第十条规定的") for line in lines), lines  # the trap for readers
    assert flow.split_paragraphs, "no article runs over a page break"
    assert flow.page >= 3, flow.page
    flow.close()
    (OUT / "regulation_示例市公共数据开放管理办法.pdf").write_bytes(buffer.getvalue())
    write_gold("regulation_示例市公共数据开放管理办法.pdf", "statute", regulation_units())


# ---------------------------------------------------------------- lab report PDF

CBC = [
    ("白细胞计数", "6.8", "10^9/L", "3.5-9.5"), ("红细胞计数", "4.52", "10^12/L", "4.3-5.8"),
    ("血红蛋白", "138", "g/L", "130-175"), ("红细胞压积", "41.2", "%", "40-50"),
    ("平均红细胞体积", "91.2", "fL", "82-100"), ("平均血红蛋白量", "30.5", "pg", "27-34"),
    ("平均血红蛋白浓度", "335", "g/L", "316-354"), ("红细胞分布宽度", "12.9", "%", "11.5-14.5"),
    ("血小板计数", "236", "10^9/L", "125-350"), ("平均血小板体积", "10.1", "fL", "7.4-12.5"),
    ("血小板压积", "0.24", "%", "0.11-0.28"), ("中性粒细胞百分比", "62.4", "%", "40-75"),
    ("淋巴细胞百分比", "28.1", "%", "20-50"), ("单核细胞百分比", "6.3", "%", "3-10"),
    ("嗜酸性粒细胞百分比", "2.7", "%", "0.4-8"), ("嗜碱性粒细胞百分比", "0.5", "%", "0-1"),
    ("中性粒细胞计数", "4.24", "10^9/L", "1.8-6.3"), ("淋巴细胞计数", "1.91", "10^9/L", "1.1-3.2"),
    ("单核细胞计数", "0.43", "10^9/L", "0.1-0.6"), ("嗜酸性粒细胞计数", "0.18", "10^9/L", "0.02-0.52"),
]
LIVER = [
    ("丙氨酸氨基转移酶", "58", "U/L", "9-50"), ("天门冬氨酸氨基转移酶", "41", "U/L", "15-40"),
    ("总胆红素", "15.2", "umol/L", "0-21"), ("直接胆红素", "4.1", "umol/L", "0-8"),
    ("总蛋白", "71.3", "g/L", "65-85"), ("白蛋白", "44.6", "g/L", "40-55"),
]
LAB_HEADER = ("项目", "结果", "单位", "参考区间")


def _draw_table(c, rows: list[tuple[str, ...]], x: float, y: float, widths: list[float], row_height: float = 20.0) -> float:
    """A fully ruled table with its top-left corner at (x, y); returns the y below it."""
    total = sum(widths)
    c.setFont(FONT, 10)
    for i, row in enumerate(rows):
        top = y - i * row_height
        c.line(x, top, x + total, top)
        cx = x
        for width, text in zip(widths, row):
            c.drawString(cx + 4, top - 14, text)
            cx += width
    bottom = y - len(rows) * row_height
    c.line(x, bottom, x + total, bottom)
    cx = x
    for width in [0, *widths]:
        cx += width
        c.line(cx, y, cx, bottom)
    return bottom


def lab_pdf() -> None:
    """A lab report: letterhead on every page, a 血常规 table running onto page 2 with its header repeated."""
    from reportlab.lib.pagesizes import A4

    buffer = io.BytesIO()
    c = _canvas(buffer)
    height = A4[1]
    widths = [170, 80, 80, 100]
    pages = 2

    def letterhead(page: int) -> None:
        c.setFont(FONT, 16)
        c.drawCentredString(A4[0] / 2, height - 50, "示例第一人民医院检验报告单")
        c.setFont(FONT, 9)
        c.drawCentredString(A4[0] / 2, 30, f"第 {page} 页 共 {pages} 页")

    letterhead(1)
    c.setFont(FONT, 10)
    c.drawString(80, height - 90, "姓名：某甲　性别：男　年龄：四十五岁　科别：内科门诊　标本：静脉血")
    c.setFont(FONT, 13)
    c.drawString(80, height - 125, "血常规")
    first, rest = CBC[:14], CBC[14:]
    _draw_table(c, [LAB_HEADER, *first], 80, height - 140, widths)
    c.showPage()
    letterhead(2)
    bottom = _draw_table(c, [LAB_HEADER, *rest], 80, height - 90, widths)
    c.setFont(FONT, 13)
    c.drawString(80, bottom - 40, "肝功能")
    bottom = _draw_table(c, [LAB_HEADER, *LIVER], 80, bottom - 55, widths)
    c.setFont(FONT, 10)
    c.drawString(80, bottom - 30, "检验者：某乙　审核者：某丙　报告日期：二〇二四年三月一日")
    c.showPage()
    c.save()
    (OUT / "lab_示例血常规肝功能.pdf").write_bytes(buffer.getvalue())
    cells = lambda rows: ["".join(r) for r in rows]  # noqa: E731 - gold text only
    write_gold(
        "lab_示例血常规肝功能.pdf",
        "lab_report",
        [
            Unit(["血常规"], ["血常规", "".join(LAB_HEADER), *cells(CBC)]),
            Unit(["肝功能"], ["肝功能", "".join(LAB_HEADER), *cells(LIVER), "检验者：某乙　审核者：某丙　报告日期：二〇二四年三月一日"]),
        ],
    )


# ---------------------------------------------------------------- two-column PDF

NOTICE_TITLE = "示例社区居民公约"
NOTICE = [
    "为了营造整洁、安全、和睦的居住环境，增进邻里之间的互助与理解，经居民代表会议讨论通过，制定本公约。",
    "居民应当爱护公共设施，不在楼道、消防通道内堆放杂物，不占用消防登高场地停放车辆。",
    "居民饲养犬只的，应当依法办理登记，出户时束犬链并及时清理犬只粪便，不得妨碍他人正常生活。",
    "居民装修房屋的，应当提前告知物业服务企业，在规定时段内施工，不得擅自改变房屋承重结构。",
    "居民应当按照分类要求投放生活垃圾，大件垃圾和装修垃圾应当投放到指定地点。",
    "邻里之间发生纠纷的，可以向居民委员会申请调解，调解应当遵循自愿、平等的原则。",
    "居民委员会应当定期公布公共收益的收支情况，接受居民监督，居民有权查询有关账目。",
    "本公约由居民委员会负责解释，自居民代表会议通过之日起施行。",
]


def two_column_pdf() -> None:
    """A full-width title over two columns: the left column must be read before the right one."""
    from reportlab.lib.pagesizes import A4

    buffer = io.BytesIO()
    c = _canvas(buffer)
    size, column_width, gap, left = 11.0, 210.0, 32.0, 70.0
    c.setFont(FONT, 18)
    c.drawCentredString(A4[0] / 2, A4[1] - 80, NOTICE_TITLE)
    half = (len(NOTICE) + 1) // 2
    units = []
    for column, articles in enumerate((NOTICE[:half], NOTICE[half:])):
        x, y = left + column * (column_width + gap), A4[1] - 130
        c.setFont(FONT, size)
        for number, text in enumerate(articles, start=1 + column * half):
            label = f"第{cn(number)}条"
            body = f"{label}　{text}"
            units.append(Unit([label], [body]))
            for i, line in enumerate(wrap(body, column_width, size, 2 * size)):
                c.drawString(x + (2 * size if i == 0 else 0), y, line)
                y -= size * 1.8
    c.showPage()
    c.save()
    (OUT / "two_column_示例社区居民公约.pdf").write_bytes(buffer.getvalue())
    write_gold("two_column_示例社区居民公约.pdf", "statute", units)


# ---------------------------------------------------------------- DOCX contract with Word numbering

CONTRACT_CLAUSES = [
    ("合同标的", "甲方委托乙方开发客户管理软件一套，具体功能以附件一所列需求说明为准。"),
    ("开发期限", "乙方应当自本合同生效之日起九十日内完成开发并交付验收。"),
    ("合同价款", "本合同总价款为人民币捌万元整，包括开发、部署和培训费用。"),
    ("付款方式", None),
    ("甲方义务", "甲方应当及时提供开发所需的业务资料，并指定专人负责联络。"),
    ("乙方义务", "乙方应当按照需求说明进行开发，并对甲方提供的资料承担保密义务。"),
    ("验收", "甲方应当在收到交付通知后十日内组织验收，逾期未提出书面异议的，视为验收合格。"),
    ("知识产权", "软件著作权归甲方所有，乙方保留其原有通用组件的权利。"),
    ("保密", "双方对在履行本合同过程中知悉的对方商业秘密负有保密义务，该义务不因合同终止而解除。"),
    ("违约责任", "任何一方违约的，应当赔偿对方因此遭受的直接损失。"),
    ("争议解决", "因本合同发生的争议，双方应当协商解决；协商不成的，提交甲方所在地人民法院诉讼解决。"),
    ("其他", "本合同一式两份，双方各执一份，自双方签字盖章之日起生效。"),
]
PAYMENT_ITEMS = ["合同签订后五日内，甲方支付总价款的百分之三十；", "验收合格后五日内，甲方支付总价款的百分之六十；", "质保期满后，甲方支付剩余的百分之十。"]
ANNEX_ITEMS = [(0, "客户信息管理"), (1, "客户资料的录入、修改与查询"), (1, "客户分级与标签"), (0, "销售过程管理"), (1, "商机登记与跟进记录")]

NUMBERING_XML = """
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
 <w:abstractNum w:abstractNumId="90">
  <w:multiLevelType w:val="multilevel"/>
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1条"/><w:suff w:val="space"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="（%2）"/><w:suff w:val="nothing"/></w:lvl>
 </w:abstractNum>
 <w:abstractNum w:abstractNumId="91">
  <w:multiLevelType w:val="multilevel"/>
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:suff w:val="tab"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/><w:suff w:val="space"/></w:lvl>
 </w:abstractNum>
 <w:num w:numId="90"><w:abstractNumId w:val="90"/></w:num>
 <w:num w:numId="91"><w:abstractNumId w:val="91"/></w:num>
</w:numbering>
"""


def _numbered(paragraph, num_id: int, ilvl: int) -> None:
    from docx.oxml import parse_xml

    paragraph._p.get_or_add_pPr().append(
        parse_xml(
            f'<w:numPr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            f'<w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'
        )
    )


def _install_numbering(document, xml: str = NUMBERING_XML) -> None:
    from docx.oxml import parse_xml

    root = document.part.numbering_part.element
    definitions = parse_xml(xml)
    # abstractNum elements must come before num elements in numbering.xml
    first_num = root.find("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}num")
    for element in list(definitions):
        if element.tag.endswith("abstractNum") and first_num is not None:
            first_num.addprevious(copy.deepcopy(element))
        else:
            root.append(copy.deepcopy(element))


def _save_docx(document, name: str) -> None:
    document.core_properties.author = "domainchunk"
    from datetime import datetime

    stamp = datetime(2024, 3, 1)
    document.core_properties.created = document.core_properties.modified = stamp
    document.core_properties.last_modified_by = "domainchunk"
    document.core_properties.revision = 1
    buffer = io.BytesIO()
    document.save(buffer)
    (OUT / name).write_bytes(_fixed_zip(buffer.getvalue()))


def _fixed_zip(data: bytes) -> bytes:
    """Rewrite the zip with fixed timestamps so the file is byte-for-byte reproducible."""
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2024, 3, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(fixed, source.read(info.filename))
    return out.getvalue()


def _merged_table(document) -> None:
    """Party table: the title row spans both columns (gridSpan), 联系方式 spans two rows (vMerge)."""
    table = document.add_table(rows=4, cols=3)
    table.style = "Table Grid"
    title = table.cell(0, 0).merge(table.cell(0, 2))
    title.text = "合同当事人"
    for row, (role, name) in enumerate((("甲方", "示例贸易有限公司"), ("乙方", "示例软件有限公司")), start=1):
        table.cell(row, 0).text = role
        table.cell(row, 1).text = name
    contact = table.cell(1, 2).merge(table.cell(2, 2))
    contact.text = "联系方式见签署页"
    table.cell(3, 0).text = "签订地点"
    table.cell(3, 1).merge(table.cell(3, 2)).text = "示例市高新区"


def contract_docx() -> None:
    from docx import Document
    from docx.enum.text import WD_BREAK

    document = Document()
    _install_numbering(document)
    document.add_heading("软件开发合同", level=1)
    _merged_table(document)
    document.add_paragraph("甲乙双方经友好协商，就软件开发事宜达成如下协议。")
    units: list[Unit] = []
    for number, (title, text) in enumerate(CONTRACT_CLAUSES, start=1):
        label = f"第{cn(number)}条"
        paragraph = document.add_paragraph(f"{title}：{text}" if text else f"{title}：")
        _numbered(paragraph, 90, 0)
        units.append(Unit([label], [f"{label} {paragraph.text}"]))
        if text is None:
            for index, item in enumerate(PAYMENT_ITEMS, start=1):
                _numbered(document.add_paragraph(item), 90, 1)
                units[-1].lines.append(f"（{cn(index)}）{item}")
    signature = ["甲方（盖章）：示例贸易有限公司", "乙方（盖章）：示例软件有限公司", "签订日期：二〇二四年三月一日"]
    opening = document.add_paragraph()
    opening.add_run().add_break(WD_BREAK.PAGE)  # the signature page starts with an explicit break
    opening.add_run(signature[0])
    for line in signature[1:]:
        document.add_paragraph(line)
    units.append(Unit([], signature))
    document.add_paragraph("附件一　需求说明")
    annex = Unit(["附件一"], ["附件一　需求说明"])
    counters = [0, 0]
    for level, text in ANNEX_ITEMS:
        _numbered(document.add_paragraph(text), 91, level)
        counters[level] += 1
        if level == 0:
            counters[1] = 0
        annex.lines.append(f"{counters[0]}. {text}" if level == 0 else f"{counters[0]}.{counters[1]} {text}")
    units.append(annex)
    _save_docx(document, "contract_示例软件开发合同.docx")
    write_gold("contract_示例软件开发合同.docx", "contract", units)


# ---------------------------------------------------------------- DOCX statute with heading styles


def statute_docx() -> None:
    from docx import Document

    document = Document()
    document.add_heading(REGULATION_TITLE, level=0)  # the Title style
    for kind, text in regulation_parts():
        if kind == "chapter":
            document.add_heading(text, level=1)
        else:
            document.add_paragraph(text)
    _save_docx(document, "statute_示例市公共数据开放管理办法.docx")
    write_gold("statute_示例市公共数据开放管理办法.docx", "statute", regulation_units())


# ---------------------------------------------------------------- WPS-style statute PDF: TOC page, plain centred chapters

ELEVATOR_TITLE = "示例省电梯安全管理条例"
ELEVATOR = [  # (chapter as printed, [(article text, [items])])
    ("第一章　总　　则", [
        ("为了加强电梯安全管理，预防和减少电梯事故，保障人身和财产安全，根据有关法律、行政法规，结合本省实际，制定本条例。", []),
        ("本省行政区域内电梯的生产、使用、维护保养、检验检测及其监督管理，适用本条例。", []),
        ("县级以上人民政府负责特种设备安全监督管理的部门对本行政区域内的电梯安全实施监督管理。", []),
        ("电梯安全管理坚持安全第一、预防为主、节能环保、综合治理的原则。", []),
    ]),
    ("第二章　使用管理", [
        ("电梯使用单位应当对其使用的电梯的安全负责。新安装的电梯，由电梯所有权人确定使用单位；委托物业服务企业管理的，受委托的物业服务企业为使用单位。", []),
        ("电梯使用单位应当履行下列义务：", ["（一）建立电梯安全管理制度，配备电梯安全管理人员；", "（二）在电梯轿厢内显著位置张贴使用登记标志和安全注意事项；", "（三）保证电梯紧急报警装置能够有效应答。"]),
        ("电梯使用单位应当在电梯检验合格有效期届满前一个月，向检验机构提出定期检验要求。", []),
        ("乘坐电梯应当遵守电梯安全注意事项，服从管理人员的指挥，不得拆除、损坏电梯的安全警示标志。", []),
        ("电梯出现故障或者发生异常情况的，使用单位应当立即停止使用，并通知维护保养单位进行检查维修。", []),
        ("电梯使用单位应当与维护保养单位签订维护保养合同，约定维护保养的内容、期限和双方的权利义务。", []),
    ]),
    ("第三章　维护保养", [
        ("维护保养单位应当按照安全技术规范和维护保养合同的要求，对电梯进行维护保养，每十五日至少进行一次。", []),
        ("维护保养单位应当建立每日二十四小时值班制度，接到故障通知后应当立即赶赴现场，并在三十分钟内到达。", []),
        ("维护保养单位不得将电梯维护保养业务转包或者分包。", []),
        ("维护保养单位应当如实记录维护保养情况，记录保存期限不少于四年。", []),
        ("维护保养单位发现电梯存在严重事故隐患的，应当及时告知使用单位，并向所在地负责特种设备安全监督管理的部门报告。", []),
    ]),
    ("第四章　法律责任", [
        ("电梯使用单位违反本条例第六条规定，未建立电梯安全管理制度的，由负责特种设备安全监督管理的部门责令限期改正；逾期未改正的，处一万元以上五万元以下罚款。", []),
        ("维护保养单位违反本条例第十一条规定，未按照要求进行维护保养的，由负责特种设备安全监督管理的部门责令改正，处二万元以上十万元以下罚款。", []),
        ("维护保养单位违反本条例第十三条规定，转包或者分包维护保养业务的，由负责特种设备安全监督管理的部门责令改正，处二万元以上十万元以下罚款。", []),
        ("乘客违反本条例第八条规定，损坏电梯安全警示标志的，由负责特种设备安全监督管理的部门责令改正，处二百元以上一千元以下罚款。", []),
        ("负责特种设备安全监督管理的部门及其工作人员在电梯安全监督管理工作中滥用职权、玩忽职守、徇私舞弊的，依法给予处分。", []),
    ]),
    ("第五章　附　　则", [
        ("本条例所称电梯，是指动力驱动，利用沿刚性导轨运行的箱体或者沿固定线路运行的梯级，进行升降或者平行运送人、货物的机电设备。", []),
        ("违反本条例规定，需要对有关责任人员作出处理的，依照本条例第十条规定的程序办理；对有关单位依法作出行政处罚决定的，并同时适用本条例第二十条第一款规定的罚款标准。", []),  # wraps put both references at a line start
        ("本条例自2026年1月1日起施行。", []),
    ]),
]
ELEVATOR_TRAPS = ("第十条规定的", "第二十条第一款")


def statute_pdf() -> None:
    """A WPS/Word export of a regulation: title page with a 目录 (no page numbers), chapter headings
    centred in body size, a running header on every page, footers ``- 3 -``, hard-wrapped articles
    with cross-references wrapped to a line start, and an article running over a page break."""
    buffer = io.BytesIO()
    c = _canvas(buffer)
    size = 12.0
    flow = Flow(c, header=ELEVATOR_TITLE, footer=lambda n: f"- {n} -", size=size, spacing=2.4)
    flow.line(ELEVATOR_TITLE, size=18, centred=True)
    flow.line("目　　录", size=size, centred=True)
    for chapter, _ in ELEVATOR:
        flow.line(chapter, x=flow.left + 4 * size)
    flow.need(flow.page_height)  # the body starts on a new page
    units: list[Unit] = []
    article = 0
    traps: set[str] = set()
    for chapter, articles in ELEVATOR:
        flow.need(60)
        flow.line(chapter, centred=True)
        if units:
            units[-1].lines.append(chapter)
        for text, items in articles:
            article += 1
            label = f"第{cn(article)}条"
            body = f"{label}　{text}"
            lines = flow.paragraph(body)
            traps.update(t for t in ELEVATOR_TRAPS for line in lines if line.startswith(t))
            units.append(Unit([chapter, label], [body]))
            for item in items:
                flow.paragraph(item)
                units[-1].lines.append(item)
    assert traps == set(ELEVATOR_TRAPS), traps  # the cross-references readers must not cut at
    assert flow.split_paragraphs, "no article runs over a page break"
    flow.close()
    (OUT / "statute_示例省电梯安全管理条例.pdf").write_bytes(buffer.getvalue())
    write_gold("statute_示例省电梯安全管理条例.pdf", "statute", units)


# ---------------------------------------------------------------- DOCX statute: Word-numbered articles, Heading 2 chapters

DOG_TITLE = "示例市养犬管理规定"
DOG = [  # (chapter, [(article text, [further paragraphs], [numbered items])])
    ("第一章　总则", [
        ("为了规范养犬行为，保障公民人身安全和健康，维护市容环境和社会秩序，制定本规定。", [], []),
        ("本市行政区域内的养犬及相关管理活动，适用本规定。", ["军队、警用犬只的管理，不适用本规定。"], []),
        ("市公安机关是养犬管理的主管部门，农业农村、城市管理等部门按照各自职责做好养犬管理工作。", [], []),
    ]),
    ("第二章　养犬登记", [
        ("本市对养犬实行登记制度。未经登记，任何单位和个人不得养犬。", [], []),
        ("申请养犬登记，应当具备下列条件：", [], ["具有完全民事行为能力；", "有固定住所且独户居住；", "犬只已经接种狂犬病疫苗。"]),
        ("养犬登记证有效期为一年。有效期届满需要继续养犬的，应当在届满前三十日内办理延续手续。", [], []),
        ("犬只死亡或者丢失的，养犬人应当在十五日内办理注销手续。", [], []),
    ]),
    ("第三章　养犬行为规范", [
        ("携犬出户时，应当为犬只挂犬牌，并由完全民事行为能力人束以犬链牵领。", ["携犬乘坐电梯的，应当避开高峰时段，并为犬只戴嘴套或者将犬只装入犬袋、犬笼。"], []),
        ("养犬不得干扰他人正常生活。犬只吠叫影响他人休息的，养犬人应当采取措施予以制止。", [], []),
        ("犬只在户外排泄的，携犬人应当立即清除粪便。", [], []),
        ("禁止携犬进入下列场所：", [], ["机关、学校、医院；", "博物馆、图书馆、体育场馆；", "公共交通工具。"]),
    ]),
    ("第四章　附则", [
        ("违反本规定的，由公安机关依照有关法律、法规的规定处理。", [], []),
        ("本规定自2026年3月1日起施行。", [], []),
    ]),
]

STATUTE_NUMBERING_XML = """
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
 <w:abstractNum w:abstractNumId="80">
  <w:multiLevelType w:val="multilevel"/>
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1条"/><w:suff w:val="space"/><w:pStyle w:val="ArticleText"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="（%2）"/><w:suff w:val="nothing"/></w:lvl>
 </w:abstractNum>
 <w:num w:numId="80"><w:abstractNumId w:val="80"/></w:num>
</w:numbering>
"""


def _article_style(document) -> None:
    """Paragraph style 条文 (ArticleText) bound to the 第%1条 list: articles are numbered by their style."""
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import parse_xml

    style = document.styles.add_style("ArticleText", WD_STYLE_TYPE.PARAGRAPH)
    style.name = "条文"
    style.base_style = document.styles["Normal"]
    style.element.get_or_add_pPr().append(
        parse_xml('<w:numPr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:numId w:val="80"/></w:numPr>')
    )


def _word_toc(document, entries: list[str]) -> None:
    """A table of contents as Word writes it: a TOC Heading title, then "toc 2" entries with a tab and a page number."""
    from docx.enum.style import WD_STYLE_TYPE

    document.add_paragraph("目录", style="TOC Heading")
    style = document.styles.add_style("TOC2", WD_STYLE_TYPE.PARAGRAPH)
    style.name = "toc 2"
    for page, entry in enumerate(entries, start=1):
        document.add_paragraph(f"{entry}\t{page}", style="toc 2")


def statute_numbered_docx() -> None:
    """Articles numbered by Word (lvlText 第%1条, chineseCounting, through a paragraph style), items
    numbered （%2）, chapters in Heading 2, further paragraphs (款) unnumbered, a Word table of contents."""
    from docx import Document

    document = Document()
    _install_numbering(document, STATUTE_NUMBERING_XML)
    _article_style(document)
    document.add_heading(DOG_TITLE, level=1)
    document.add_paragraph("（2025年12月1日示例市人民政府第三十次常务会议通过）")
    _word_toc(document, [chapter for chapter, _ in DOG])
    units: list[Unit] = []
    article = 0
    for chapter, articles in DOG:
        document.add_heading(chapter, level=2)
        if units:
            units[-1].lines.append(chapter)
        for text, paragraphs, items in articles:
            article += 1
            label = f"第{cn(article)}条"
            document.add_paragraph(text, style="条文")
            units.append(Unit([chapter, label], [f"{label} {text}"]))
            for index, item in enumerate(items, start=1):
                _numbered(document.add_paragraph(item), 80, 1)
                units[-1].lines.append(f"（{cn(index)}）{item}")
            for paragraph in paragraphs:
                document.add_paragraph(paragraph).paragraph_format.first_line_indent = 2 * 152400
                units[-1].lines.append(paragraph)
    _save_docx(document, "statute_示例市养犬管理规定.docx")
    write_gold("statute_示例市养犬管理规定.docx", "statute", units)


# ---------------------------------------------------------------- DOCX lab report: one Word table per panel

LAB_PATIENT = [
    "江临市中心医院检验科　住院检验结果汇总",
    "姓名：祁某某　性别：男　年龄：58岁　住院号：2025030417　科室：呼吸与危重症医学科　床号：23",
    "临床诊断：重症肺炎；2型糖尿病",
]

# (panel name, specimen, items (name, code, result, flag, unit, reference)); every value invented.
LAB_PANELS: list[tuple[str, str, list[tuple[str, str, str, str, str, str]]]] = [
    ("血常规", "全血", [
        ("白细胞计数", "WBC", "14.6", "↑", "10^9/L", "3.5-9.5"),
        ("中性粒细胞百分比", "NEUT%", "88.2", "↑", "%", "40-75"),
        ("淋巴细胞百分比", "LYMPH%", "6.9", "↓", "%", "20-50"),
        ("红细胞计数", "RBC", "4.02", "↓", "10^12/L", "4.3-5.8"),
        ("血红蛋白", "HGB", "121", "↓", "g/L", "130-175"),
        ("血小板计数", "PLT", "168", "", "10^9/L", "125-350"),
    ]),
    ("C反应蛋白", "全血", [
        ("超敏C反应蛋白", "hs-CRP", "86.4", "H", "mg/L", "0-6"),
    ]),
    ("降钙素原", "血清", [
        ("降钙素原", "PCT", "2.31", "H", "ng/mL", "<0.05"),
    ]),
    ("红细胞沉降率", "全血", [
        ("血沉", "ESR", "48", "H", "mm/h", "0-15"),
    ]),
    ("肝功能", "血清", [
        ("丙氨酸氨基转移酶", "ALT", "52", "↑", "U/L", "9-50"),
        ("天门冬氨酸氨基转移酶", "AST", "47", "↑", "U/L", "15-40"),
        ("总胆红素", "TBIL", "15.2", "", "μmol/L", "0-26"),
        ("白蛋白", "ALB", "31.6", "↓", "g/L", "40-55"),
        ("γ-谷氨酰转移酶", "GGT", "61", "↑", "U/L", "10-60"),
    ]),
    ("肾功能", "血清", [
        ("尿素", "UREA", "8.9", "↑", "mmol/L", "3.1-8.0"),
        ("肌酐", "CREA", "96", "", "μmol/L", "57-111"),
        ("尿酸", "UA", "402", "", "μmol/L", "208-428"),
        ("估算肾小球滤过率", "eGFR", "74.3", "", "mL/min/1.73m²", ">90"),
    ]),
    ("电解质", "血清", [
        ("钾", "K", "3.28", "L", "mmol/L", "3.5-5.3"),
        ("钠", "Na", "133.6", "L", "mmol/L", "137-147"),
        ("氯", "Cl", "97.1", "L", "mmol/L", "99-110"),
        ("钙", "Ca", "2.08", "L", "mmol/L", "2.11-2.52"),
    ]),
    ("血糖", "血浆", [
        ("空腹葡萄糖", "GLU", "11.4", "H", "mmol/L", "3.9-6.1"),
    ]),
    ("糖化血红蛋白", "全血", [
        ("糖化血红蛋白A1c", "HbA1c", "8.7", "↑", "%", "4.0-6.0"),
    ]),
    ("血脂四项", "血清", [
        ("总胆固醇", "TC", "4.12", "", "mmol/L", "<5.2"),
        ("甘油三酯", "TG", "1.96", "↑", "mmol/L", "<1.7"),
        ("高密度脂蛋白胆固醇", "HDL-C", "0.88", "↓", "mmol/L", ">1.0"),
        ("低密度脂蛋白胆固醇", "LDL-C", "2.64", "", "mmol/L", "<3.4"),
    ]),
    ("凝血四项", "枸橼酸钠抗凝血浆", [
        ("凝血酶原时间", "PT", "13.9", "↑", "秒", "9.4-12.5"),
        ("国际标准化比值", "INR", "1.21", "↑", "", "0.8-1.2"),
        ("活化部分凝血活酶时间", "APTT", "38.2", "↑", "秒", "25.1-36.5"),
        ("纤维蛋白原", "FIB", "5.86", "↑", "g/L", "2.0-4.0"),
        ("凝血酶时间", "TT", "15.8", "", "秒", "10.3-16.6"),
    ]),
    ("D-二聚体", "枸橼酸钠抗凝血浆", [
        ("D-二聚体", "D-D", "1.84", "↑", "mg/L FEU", "<0.5"),
        ("纤维蛋白(原)降解产物", "FDP", "<2.5", "", "μg/mL", "<5.0"),
    ]),
    ("动脉血气分析", "动脉血", [
        ("酸碱度", "pH", "7.48", "↑", "", "7.35-7.45"),
        ("二氧化碳分压", "PaCO2", "31", "↓", "mmHg", "35-45"),
        ("氧分压", "PaO2", "58", "↓", "mmHg", "80-100"),
        ("实际碳酸氢根", "HCO3-", "22.9", "", "mmol/L", "21-28"),
        ("剩余碱", "BE", "-0.6", "", "mmol/L", "-3-3"),
        ("乳酸", "Lac", "2.6", "↑", "mmol/L", "0.5-1.6"),
        ("血氧饱和度", "SaO2", "90.4", "↓", "%", "95-98"),
    ]),
    ("心肌损伤标志物", "血清", [
        ("高敏肌钙蛋白T", "hs-cTnT", "<0.003", "", "ng/mL", "<0.014"),
        ("肌酸激酶同工酶", "CK-MB", "2.1", "", "ng/mL", "0-4.94"),
        ("肌红蛋白", "MYO", "<21.0", "", "ng/mL", "28-72"),
    ]),
    ("B型钠尿肽", "血浆", [
        ("N末端B型钠尿肽前体", "NT-proBNP", "412", "H", "pg/mL", "<125"),
    ]),
    ("甲状腺功能", "血清", [
        ("游离三碘甲状腺原氨酸", "FT3", "3.02", "L", "pmol/L", "3.1-6.8"),
        ("游离甲状腺素", "FT4", "14.6", "", "pmol/L", "12-22"),
        ("促甲状腺激素", "TSH", "0.98", "", "μIU/mL", "0.27-4.2"),
    ]),
    ("肿瘤标志物", "血清", [
        ("癌胚抗原", "CEA", "3.86", "", "ng/mL", "<5.0"),
        ("甲胎蛋白", "AFP", "<0.5", "", "ng/mL", "<7.0"),
        ("糖类抗原125", "CA125", "41.3", "↑", "U/mL", "<35"),
        ("糖类抗原19-9", "CA19-9", "12.7", "", "U/mL", "<27"),
        ("细胞角蛋白19片段", "CYFRA21-1", "4.62", "↑", "ng/mL", "<3.3"),
        ("神经元特异性烯醇化酶", "NSE", "15.1", "", "ng/mL", "<16.3"),
    ]),
    ("乙肝两对半", "血清", [
        ("乙肝表面抗原", "HBsAg", "0.01", "阴性", "IU/mL", "<0.05"),
        ("乙肝表面抗体", "抗-HBs", "126.4", "阳性", "mIU/mL", "<10"),
        ("乙肝e抗原", "HBeAg", "0.32", "阴性", "S/CO", "<1.0"),
        ("乙肝e抗体", "抗-HBe", "1.68", "阴性", "S/CO", ">1.0"),
        ("乙肝核心抗体", "抗-HBc", "0.21", "阴性", "S/CO", "<1.0"),
    ]),
    ("术前四项", "血清", [
        ("丙型肝炎病毒抗体", "抗-HCV", "0.08", "阴性", "S/CO", "<1.0"),
        ("梅毒螺旋体特异抗体", "TP-Ab", "0.11", "阴性", "S/CO", "<1.0"),
        ("人类免疫缺陷病毒抗原抗体", "HIV Ag/Ab", "0.19", "阴性", "S/CO", "<1.0"),
    ]),
    ("免疫球蛋白及补体", "血清", [
        ("免疫球蛋白G", "IgG", "15.8", "", "g/L", "8.6-17.4"),
        ("免疫球蛋白A", "IgA", "2.46", "", "g/L", "1.0-4.2"),
        ("免疫球蛋白M", "IgM", "0.62", "", "g/L", "0.5-2.8"),
        ("补体C3", "C3", "1.42", "", "g/L", "0.7-1.4"),
        ("补体C4", "C4", "0.31", "", "g/L", "0.1-0.4"),
    ]),
    ("铁代谢", "血清", [
        ("血清铁", "Fe", "6.2", "↓", "μmol/L", "10.6-36.7"),
        ("总铁结合力", "TIBC", "41.0", "", "μmol/L", "40.8-76.6"),
        ("铁蛋白", "FER", "486", "↑", "ng/mL", "30-400"),
    ]),
    ("尿常规", "尿液", [
        ("尿比重", "SG", "1.028", "", "", "1.003-1.030"),
        ("尿酸碱度", "pH", "5.5", "", "", "4.5-8.0"),
        ("尿蛋白", "PRO", "+", "↑", "", "阴性"),
        ("尿葡萄糖", "GLU", "++", "↑", "", "阴性"),
        ("尿酮体", "KET", "±", "", "", "阴性"),
        ("尿白细胞", "WBC", "5", "", "/μL", "0-25"),
    ]),
    ("粪便常规", "粪便", [
        ("颜色", "", "黄色", "", "", ""),
        ("性状", "", "软便", "", "", ""),
        ("隐血试验", "OB", "阴性", "", "", "阴性"),
        ("白细胞", "", "未检出", "", "/HP", "0-2"),
    ]),
    ("同型半胱氨酸", "血清", [
        ("同型半胱氨酸", "Hcy", "18.6", "H", "μmol/L", "<15"),
    ]),
    ("G试验", "血清", [
        ("(1-3)-β-D葡聚糖", "BDG", "<37.5", "", "pg/mL", "<70"),
    ]),
]

LAB_COLUMNS = ("项目名称", "代号", "结果", "提示", "单位", "参考区间")


def _lab_times(index: int) -> str:
    return f"采样时间：2025-03-{4 + index // 8:02d} 06:{10 + index:02d}　报告时间：2025-03-{4 + index // 8:02d} {9 + index % 8:02d}:30"


def _lab_table(document, panel: str, items, *, merged_title: bool, columns=LAB_COLUMNS) -> list[str]:
    """One Word table; a merged first row names the panel when merged_title. Returns its rows as the reader writes them."""
    rows = ([panel] if merged_title else []) + ["\t".join(columns)] + ["\t".join(item) for item in items]
    table = document.add_table(rows=len(items) + 1 + merged_title, cols=len(columns))
    table.style = "Table Grid"
    first = 0
    if merged_title:
        table.cell(0, 0).merge(table.cell(0, len(columns) - 1)).text = panel
        first = 1
    for col, name in enumerate(columns):
        table.cell(first, col).text = name
    for row, item in enumerate(items, start=first + 1):
        for col, value in enumerate(item):
            table.cell(row, col).text = value
    return rows


def lab_panels_docx() -> None:
    """A patient's results, one Word table per panel, the panel named in five ways in turn.

    0: a bold paragraph above the table; 1: ``检验项目：`` above it, the specimen line between;
    2: a merged first row of the table; 3: the specimen line only, the panel's name in its
    ``检验目的：`` field; 4: the bracketed name 【…】 with the specimen on the same line.
    """
    from docx import Document

    document = Document()
    units: list[Unit] = []
    # The patient lines, right above the first panel's name, belong to it; the title is the file's.
    document.add_paragraph(LAB_PATIENT[0]).runs[0].bold = True
    head = LAB_PATIENT[1:]
    for line in head:
        document.add_paragraph(line)
    for index, (panel, specimen, items) in enumerate(LAB_PANELS):
        style = index % 5
        lines = head if index == 0 else []
        head = []
        if style == 0:
            document.add_paragraph().add_run(panel).bold = True
            lines.append(panel)
        elif style == 1:
            lines += [f"检验项目：{panel}", f"标本类型：{specimen}　条码号：25030{4100 + index}"]
            for line in lines[-2:]:
                document.add_paragraph(line)
        elif style == 3:
            lines.append(f"标本：{specimen}　检验目的：{panel}　条码号：25030{4100 + index}")
            document.add_paragraph(lines[-1])
        elif style == 4:
            lines.append(f"【{panel}】　标本：{specimen}")
            document.add_paragraph(lines[-1])
        lines += _lab_table(document, panel, items, merged_title=style == 2)
        if index % 2:
            lines.append(_lab_times(index) + "　检验者：庞某　审核者：邝某某")
            document.add_paragraph(lines[-1])
        units.append(Unit([panel], lines))
    _save_docx(document, "lab_示范住院检验汇总_每组合一表.docx")
    write_gold("lab_示范住院检验汇总_每组合一表.docx", "lab_report", units)


def lab_one_table_docx() -> None:
    """The same results in ONE Word table: the column header once, each panel opened by a merged row."""
    from docx import Document

    document = Document()
    for line in LAB_PATIENT:
        document.add_paragraph(line)
    count = len(LAB_COLUMNS)
    table = document.add_table(rows=1 + sum(1 + len(items) for _, _, items in LAB_PANELS), cols=count)
    table.style = "Table Grid"
    for col, name in enumerate(LAB_COLUMNS):
        table.cell(0, col).text = name
    units: list[Unit] = []
    row = 1
    for index, (panel, specimen, items) in enumerate(LAB_PANELS):
        caption = f"{panel}（{specimen}）"
        table.cell(row, 0).merge(table.cell(row, count - 1)).text = caption
        lines = [caption]  # the title, patient lines and column header above the first panel are the file's
        for item in items:
            row += 1
            for col, value in enumerate(item):
                table.cell(row, col).text = value
            lines.append("\t".join(item))
        row += 1
        units.append(Unit([panel], lines))
    _save_docx(document, "lab_示范住院检验汇总_单表.docx")
    write_gold("lab_示范住院检验汇总_单表.docx", "lab_report", units)


# ---------------------------------------------------------------- Word as people write it (round five)
#
# Five documents whose structure is only in Word's own means: heading styles and list
# numbering bound to them, a header and footer, a title in a text box, soft line breaks
# (Shift+Enter) inside a paragraph, bold runs with the colon in a run of its own, outline
# levels set on body paragraphs, and tables in the three layouts lab systems export.

_WNS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _xml(fragment: str):
    from docx.oxml import parse_xml

    return parse_xml(fragment)


def _soft_lines(document, lines: list[str], style: str | None = None):
    """One paragraph whose lines are separated by soft line breaks (w:br), as Shift+Enter types them."""
    paragraph = document.add_paragraph(style=style)
    for index, line in enumerate(lines):
        run = paragraph.add_run(line)
        if index < len(lines) - 1:
            run.add_break()
    return paragraph


def _header_footer(document, header: str) -> None:
    """A running header and a footer holding a PAGE field ("第 N 页"), as Word stores them: in
    header/footer parts outside the body."""
    section = document.sections[0]
    section.header.paragraphs[0].text = header
    footer = section.footer.paragraphs[0]
    footer.add_run("第 ")
    for fragment in ('<w:r %s><w:fldChar w:fldCharType="begin"/></w:r>' % _WNS,
                     '<w:r %s><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>' % _WNS,
                     '<w:r %s><w:fldChar w:fldCharType="separate"/></w:r>' % _WNS,
                     '<w:r %s><w:t>1</w:t></w:r>' % _WNS,
                     '<w:r %s><w:fldChar w:fldCharType="end"/></w:r>' % _WNS):
        footer._p.append(_xml(fragment))
    footer.add_run(" 页")


_TEXT_BOX = """<w:r {ns} xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
 xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
 xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"
 xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
 xmlns:v="urn:schemas-microsoft-com:vml"><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>
 <wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">
 <wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:align>center</wp:align></wp:positionH>
 <wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="4000000" cy="500000"/>
 <wp:wrapTopAndBottom/><wp:docPr id="{id}" name="文本框 {id}"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">
 <wps:wsp><wps:spPr><a:prstGeom prst="rect"/></wps:spPr><wps:txbx><w:txbxContent>{body}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>
 </a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
 <mc:Fallback><w:pict><v:rect style="width:315pt;height:40pt"><v:textbox><w:txbxContent>{body}</w:txbxContent></v:textbox></v:rect></w:pict></mc:Fallback>
 </mc:AlternateContent></w:r>"""


def _text_box(document, lines: list[str], box_id: int = 1):
    """A paragraph anchoring a text box that holds ``lines`` (Word writes it twice: the drawing
    and a VML fallback for old readers)."""
    body = "".join(f'<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>{line}</w:t></w:r></w:p>' for line in lines)
    paragraph = document.add_paragraph()
    paragraph._p.append(_xml(_TEXT_BOX.format(ns=_WNS, id=box_id, body=body)))
    return paragraph


JUDGMENT_COURT = "江临市北塘区人民法院"
JUDGMENT_TITLE = "民事判决书"
JUDGMENT_NUMBER = "（2025）江0105民初2187号"
# (unit label, [paragraph, as its lines joined by soft breaks]); every name and fact invented.
JUDGMENT = [
    ("当事人", [
        ["原告：江临市北塘区示范家电经营部，住所地江临市北塘区滨河路18号。",
         "经营者：尤某某，男，1979年6月2日出生，汉族。",
         "委托诉讼代理人：容某，江临市示范律师事务所律师。"],
        ["被告：江临示范物流有限公司，住所地江临市北塘区港城大道66号。",
         "法定代表人：阙某某，该公司总经理。"],
    ]),
    ("审理经过", [
        ["原告江临市北塘区示范家电经营部与被告江临示范物流有限公司运输合同纠纷一案，本院于2025年4月8日立案后，依法适用简易程序，公开开庭进行了审理。原告的委托诉讼代理人容某、被告的法定代表人阙某某到庭参加诉讼。本案现已审理终结。"],
    ]),
    ("诉讼请求", [
        ["原告向本院提出诉讼请求：",
         "1.判令被告赔偿货物损失人民币36,800元；",
         "2.本案诉讼费用由被告负担。"],
        ["事实和理由：2025年1月10日，原告委托被告将冰箱二十台自江临市运至示范县，运到后发现其中八台箱体破损，被告至今未予赔偿。"],
    ]),
    ("答辩", [
        ["被告辩称，货物破损系原告包装不当所致，被告不应承担赔偿责任；即便承担，也应以保价金额为限。"],
    ]),
    ("事实", [
        ["本院经审理认定事实如下：2025年1月10日，原告与被告签订《货物运输合同》一份，约定被告承运冰箱二十台，运费2,400元，原告未办理保价。同月12日货物运抵示范县，收货人签收时在运单上注明八台箱体破损。"],
    ]),
    ("本院认为", [
        ["本院认为，承运人对运输过程中货物的毁损、灭失承担赔偿责任，但承运人证明货物的毁损、灭失是因包装不符合约定造成的除外。被告未能证明货物破损系原告包装不当所致，应当承担赔偿责任。原告主张的损失金额有购货发票为证，本院予以确认。"],
    ]),
    ("判决主文", [
        ["依照《中华人民共和国民法典》第八百三十二条规定，判决如下：",
         "一、被告江临示范物流有限公司于本判决生效之日起十日内赔偿原告江临市北塘区示范家电经营部货物损失36,800元；",
         "二、驳回原告的其他诉讼请求。"],
        ["案件受理费减半收取计360元，由被告负担。"],
    ]),
    ("尾部", [
        ["如不服本判决，可以在判决书送达之日起十五日内，向本院递交上诉状，并按对方当事人的人数提出副本，上诉于江临市中级人民法院。"],
        ["审判员　邬某某", "二〇二五年六月十六日", "书记员　濮某"],
    ]),
]


# sections whose first paragraph the clerk typed on in the previous one, after a soft break
JUDGMENT_SOFT_JOINED = {"审理经过", "答辩", "本院认为", "尾部"}


def judgment_docx() -> None:
    """A judgment as a court's Word template makes it: the court's name in a text box, the case
    number in the running header and a PAGE field in the footer, parties and signatures as
    lines of one paragraph separated by soft breaks."""
    from docx import Document

    document = Document()
    _header_footer(document, f"{JUDGMENT_COURT}　{JUDGMENT_NUMBER}")
    _text_box(document, [JUDGMENT_COURT])
    document.add_paragraph(JUDGMENT_TITLE)
    document.add_paragraph(JUDGMENT_NUMBER)
    units: list[Unit] = []
    written: list[list[str]] = []
    for label, paragraphs in JUDGMENT:
        units.append(Unit([label], [line for lines in paragraphs for line in lines]))
        if label in JUDGMENT_SOFT_JOINED:  # typed after a Shift+Enter at the end of the previous paragraph
            written[-1] += paragraphs[0]
            paragraphs = paragraphs[1:]
        written += [list(lines) for lines in paragraphs]
    for lines in written:
        _soft_lines(document, lines)
    _save_docx(document, "judgment_示范民事判决书_文本框页眉软回车.docx")
    write_gold("judgment_示范民事判决书_文本框页眉软回车.docx", "judgment", units)


PROPERTY_TITLE = "江临市住宅物业管理条例"
# (chapter, [(section or None, [(article text, [further paragraphs], [items])])]); all invented.
PROPERTY = [
    ("总则", [(None, [
        ("为了规范住宅物业管理活动，维护业主和物业服务人的合法权益，营造安全、整洁、文明的居住环境，制定本条例。", [], []),
        ("本市行政区域内住宅物业的管理、服务、使用及其监督活动，适用本条例。", ["非住宅物业的管理，参照本条例执行。"], []),
        ("市住房和城乡建设主管部门负责全市物业管理活动的监督管理工作。", [], []),
    ])]),
    ("业主和业主组织", [
        ("业主", [
            ("房屋的所有权人为业主。业主在物业管理活动中享有下列权利：", [], ["按照物业服务合同的约定，接受物业服务人提供的服务；", "提议召开业主大会会议，并就物业管理的有关事项提出建议；", "监督物业服务人履行物业服务合同。"]),
            ("业主应当遵守管理规约，按时交纳物业费。", [], []),
        ]),
        ("业主大会和业主委员会", [
            ("一个物业管理区域成立一个业主大会。业主大会由物业管理区域内的全体业主组成。", [], []),
            ("业主委员会由业主大会选举产生，对业主大会负责。", ["业主委员会委员实行任期制，每届任期不超过五年。"], []),
        ]),
    ]),
    ("物业服务", [(None, [
        ("物业服务人应当按照物业服务合同的约定提供服务，并在物业管理区域内显著位置公示服务内容、服务标准和收费标准。", [], []),
        ("物业服务人不得采取停止供电、供水、供热、供燃气等方式催交物业费。", [], []),
    ])]),
    ("附则", [(None, [
        ("本条例自2026年7月1日起施行。", [], []),
    ])]),
]

# One multilevel list for the whole law, as a drafting template sets it up: 章 bound to Heading 1,
# 节 to Heading 2, 条 to the 法条 style and numbered through the chapters (lvlRestart 0), 项 under
# each article restarting with it.
PROPERTY_NUMBERING_XML = """
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
 <w:abstractNum w:abstractNumId="60">
  <w:multiLevelType w:val="multilevel"/>
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:pStyle w:val="Heading1"/><w:lvlText w:val="第%1章"/><w:suff w:val="space"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:pStyle w:val="Heading2"/><w:lvlText w:val="第%2节"/><w:suff w:val="space"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:lvlRestart w:val="0"/><w:numFmt w:val="chineseCounting"/><w:pStyle w:val="LawArticle"/><w:lvlText w:val="第%3条"/><w:suff w:val="space"/></w:lvl>
  <w:lvl w:ilvl="3"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="（%4）"/><w:suff w:val="nothing"/></w:lvl>
 </w:abstractNum>
 <w:num w:numId="60"><w:abstractNumId w:val="60"/></w:num>
</w:numbering>
"""


def _bind_style(document, style_name: str, ilvl: int, num_id: int = 60) -> None:
    """The paragraph style carries the list (numPr in its pPr), as Word's 'link level to style' sets it."""
    style = document.styles[style_name]
    style.element.get_or_add_pPr().append(_xml(
        f'<w:numPr {_WNS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'))


def statute_heading_list_docx() -> None:
    """A law whose 章/节/条 labels are all Word's: no 第X章 or 第X条 is typed in any run."""
    from docx import Document
    from docx.enum.style import WD_STYLE_TYPE

    document = Document()
    _install_numbering(document, PROPERTY_NUMBERING_XML)
    article_style = document.styles.add_style("LawArticle", WD_STYLE_TYPE.PARAGRAPH)
    article_style.name = "法条"
    article_style.base_style = document.styles["Normal"]
    _bind_style(document, "Heading 1", 0)
    _bind_style(document, "Heading 2", 1)
    _bind_style(document, "法条", 2)
    document.add_paragraph(PROPERTY_TITLE, style="Title")
    document.add_paragraph("（2026年3月28日江临市第十七届人民代表大会常务委员会第二十次会议通过）")
    units: list[Unit] = []
    article = 0
    for c, (chapter, sections) in enumerate(PROPERTY, start=1):
        chapter_label = f"第{cn(c)}章 {chapter}"
        document.add_heading(chapter, level=1)
        if units:
            units[-1].lines.append(f"# {chapter_label}")
        for n, (section, articles) in enumerate(sections, start=1):
            path = [chapter_label]
            if section:
                section_label = f"第{cn(n)}节 {section}"
                document.add_heading(section, level=2)
                if units:
                    units[-1].lines.append(f"## {section_label}")
                path.append(section_label)
            for text, paragraphs, items in articles:
                article += 1
                label = f"第{cn(article)}条"
                document.add_paragraph(text, style="法条")
                units.append(Unit([*path, label], [f"{label} {text}"]))
                for index, item in enumerate(items, start=1):
                    _numbered(document.add_paragraph(item), 60, 3)
                    units[-1].lines.append(f"（{cn(index)}）{item}")
                for paragraph in paragraphs:
                    document.add_paragraph(paragraph)
                    units[-1].lines.append(paragraph)
    _save_docx(document, "statute_江临市住宅物业管理条例_标题样式自动编号.docx")
    write_gold("statute_江临市住宅物业管理条例_标题样式自动编号.docx", "statute", units)


LAB3_TITLE = "江临市第一人民医院检验报告单"
LAB3_PATIENT = [("姓名", "龚某某"), ("性别", "女"), ("年龄", "46岁"), ("住院号", "2025110862"),
                ("科室", "内分泌科"), ("床号", "12"), ("临床诊断", "2型糖尿病；高脂血症")]
LAB3_BY_PANEL = LAB_PANELS[4:9]  # one Word table per panel
LAB3_ONE_TABLE = LAB_PANELS[9:14]  # one table, each panel opened by a row spanning all columns
LAB3_ONE_TABLE_COLUMNS = ("标本", "项目名称", "结果", "单位", "参考区间")


def _header_row(row) -> None:
    """Mark a table row as the header Word repeats at the top of each page (w:tblHeader)."""
    row._tr.get_or_add_trPr().append(_xml(f"<w:tblHeader {_WNS}/>"))


def _vmerge(cells) -> None:
    """Merge ``cells`` (one column, consecutive rows) vertically, the first cell's text kept."""
    cells[0].merge(cells[-1])


def lab_three_layouts_docx() -> None:
    """One patient's report in the layouts lab systems export to Word: the patient block as a
    2-column 字段/值 table; five panels one table each (named by a bold paragraph above, the
    column header a repeating header row, the longest table's header repeated where the
    printout broke the page); five more panels in one table, each opened by a row spanning all
    columns, the specimen cell merged down the panel's rows."""
    from docx import Document

    document = Document()
    document.add_paragraph().add_run(LAB3_TITLE).bold = True
    patient = document.add_table(rows=0, cols=2)
    patient.style = "Table Grid"
    head = []
    for field_name, value in LAB3_PATIENT:
        cells = patient.add_row().cells
        cells[0].text, cells[1].text = field_name, value
        head.append(f"{field_name}\t{value}")
    units: list[Unit] = []
    for index, (panel, specimen, items) in enumerate(LAB3_BY_PANEL):
        lines = head if index == 0 else []
        head = []
        document.add_paragraph().add_run(panel).bold = True
        lines.append(panel)
        table = document.add_table(rows=0, cols=len(LAB_COLUMNS))
        table.style = "Table Grid"
        header = table.add_row()
        _header_row(header)
        for cell, name in zip(header.cells, LAB_COLUMNS):
            cell.text = name
        lines.append("\t".join(LAB_COLUMNS))
        for number, item in enumerate(items):
            if number and number == len(items) // 2 and len(items) >= 5:  # a page break: the header printed again
                for cell, name in zip(table.add_row().cells, LAB_COLUMNS):  # the reader drops the copy
                    cell.text = name
            for cell, value in zip(table.add_row().cells, item):
                cell.text = value
            lines.append("\t".join(item))
        footer = _lab_times(index) + "　检验者：岑某　审核者：蒯某某"
        document.add_paragraph(footer)
        lines.append(footer)
        units.append(Unit([panel], lines))
    width = len(LAB3_ONE_TABLE_COLUMNS)
    table = document.add_table(rows=0, cols=width)
    table.style = "Table Grid"
    header = table.add_row()
    _header_row(header)
    for cell, name in zip(header.cells, LAB3_ONE_TABLE_COLUMNS):
        cell.text = name
    units[-1].lines.append("\t".join(LAB3_ONE_TABLE_COLUMNS))
    for panel, specimen, items in LAB3_ONE_TABLE:
        title = table.add_row().cells
        title[0].merge(title[-1]).text = panel
        rows = [table.add_row().cells for _ in items]
        for cells, (name, _code, result, flag, unit, reference) in zip(rows, items):
            for cell, value in zip(cells[1:], (name, f"{result} {flag}".strip(), unit, reference)):
                cell.text = value
        _vmerge([cells[0] for cells in rows])
        rows[0][0].text = specimen
        lines = [panel] + [
            "\t".join(((specimen if i == 0 else ""), name, f"{result} {flag}".strip(), unit, reference))
            for i, (name, _code, result, flag, unit, reference) in enumerate(items)
        ]
        units.append(Unit([panel], lines))
    _save_docx(document, "lab_示范检验报告单_三种表格.docx")
    write_gold("lab_示范检验报告单_三种表格.docx", "lab_report", units)


EMR_HOSPITAL = "江临市第三人民医院"
EMR_PATIENT = ["姓名：滕某某　性别：男　年龄：67岁　住院号：2025090331", "科室：心血管内科　床号：08　入院时间：2025-09-03 09:40"]
# (section name, how Word sets it, [paragraphs]); "bold": the name a bold run, the colon a plain run
# of its own, the text after it on the line; "heading": a Heading 2 paragraph, the colon a run of
# its own; "bold-alone": a bold name and a plain colon alone on the line. Every fact invented.
EMR = [
    ("主诉", "bold", ["反复胸闷、气促2年，加重伴双下肢水肿5天。"]),
    ("现病史", "bold", ["患者2年前起活动后出现胸闷、气促，休息后可缓解，未系统诊治。5天前受凉后上述症状加重，夜间不能平卧，伴双下肢水肿、尿量减少，为进一步诊治来我院。"]),
    ("既往史", "bold", ["高血压病史15年，血压最高180/100mmHg，平素口服氨氯地平，血压控制不详。否认糖尿病史。"]),
    ("个人史", "bold", ["生于原籍，吸烟40年，每日约20支，已戒烟2年。少量饮酒。"]),
    ("家族史", "bold", ["父亲患高血压，已故。否认家族遗传病史。"]),
    ("体格检查", "heading", ["T 36.4℃，P 104次/分，R 24次/分，BP 158/92mmHg。神志清楚，半卧位，口唇轻度发绀。双肺底可闻及湿啰音。心界向左下扩大，心率104次/分，律不齐。双下肢凹陷性水肿。"]),
    ("心功能评估", "bold-alone", ["NYHA心功能分级Ⅲ级。"]),
    ("辅助检查", "heading", ["心电图：心房颤动，心室率约110次/分。", "胸部X线：心影增大，双肺淤血。"]),
    ("初步诊断", "heading", ["1.慢性心力衰竭急性加重", "2.心房颤动", "3.高血压3级（很高危）"]),
    ("诊疗计划", "bold", ["完善心脏超声、BNP等检查，予利尿、控制心室率、抗凝等治疗。"]),
]


def _bold_name(document, name: str, text: str | None):
    """A paragraph whose section name is a bold run and whose colon is a plain run of its own."""
    paragraph = document.add_paragraph()
    paragraph.add_run(name).bold = True
    paragraph.add_run("：")
    if text is not None:
        paragraph.add_run(text)
    return paragraph


def medical_record_docx() -> None:
    """An admission record as a hospital's Word template writes it: section names in bold runs
    with the colon typed in plain after them, or as Heading 2 paragraphs, the hospital's name in
    the running header."""
    from docx import Document

    document = Document()
    _header_footer(document, EMR_HOSPITAL)
    document.add_heading("入院记录", level=1)
    for line in EMR_PATIENT:
        document.add_paragraph(line)
    units: list[Unit] = []
    for name, how, paragraphs in EMR:
        if how == "bold":
            _bold_name(document, name, paragraphs[0])
            lines = [f"{name}：{paragraphs[0]}"] + paragraphs[1:]
            rest = paragraphs[1:]
        elif how == "bold-alone":
            _bold_name(document, name, None)
            lines, rest = [f"{name}："] + paragraphs, paragraphs
        else:
            document.add_heading(name, level=2).add_run("：")
            lines, rest = [f"## {name}："] + paragraphs, paragraphs
        for paragraph in rest:
            document.add_paragraph(paragraph)
        units.append(Unit([name], lines))
    document.add_paragraph("医师签名：沈某某　2025-09-03 15:20")
    units[-1].lines.append("医师签名：沈某某　2025-09-03 15:20")
    _save_docx(document, "emr_入院记录_粗体标题分开冒号.docx")
    write_gold("emr_入院记录_粗体标题分开冒号.docx", "medical_record", units)


REPAIR_TITLE = "医疗设备维修服务合同"
REPAIR_PARTIES = ["甲方（委托方）：江临市第五人民医院", "乙方（服务方）：江临示范医疗设备技术有限公司"]
REPAIR_PREAMBLE = "根据《中华人民共和国民法典》及有关法律法规，甲乙双方经协商一致，就医疗设备维修服务事宜订立本合同。"
# (clause title, [body paragraphs]); every term invented.
REPAIR_CLAUSES = [
    ("服务范围", ["1.1 乙方负责甲方放射科、检验科所列医疗设备的日常维护、故障维修和定期保养。", "1.2 设备明细见附件一。"]),
    ("服务期限", ["本合同服务期限为一年，自2026年1月1日起至2026年12月31日止。"]),
    ("响应时间", ["2.1 乙方接到甲方报修后，应当在两小时内响应，二十四小时内到达现场。", "2.2 重大故障应当在七十二小时内修复或者提供备用设备。"]),
    ("服务费用及支付", ["本合同服务费总额为人民币壹拾贰万元整，按季度平均支付，甲方于每季度首月十五日前支付当季费用。"]),
    ("双方责任", ["甲方应当为乙方提供必要的工作条件；乙方应当遵守甲方的院内管理制度。"]),
    ("违约责任", ["乙方未按约定时间响应或者修复的，每逾期一日，按当季服务费的百分之一向甲方支付违约金。"]),
    ("争议解决", ["因本合同引起的争议，双方协商解决；协商不成的，向甲方所在地人民法院提起诉讼。"]),
    ("其他", ["本合同一式四份，甲乙双方各执两份，自双方签字盖章之日起生效。"]),
]
REPAIR_SIGNATURE = [("甲方（盖章）：", "乙方（盖章）："), ("法定代表人或授权代表：", "法定代表人或授权代表："),
                    ("签订日期：2025年12月20日", "签订日期：2025年12月20日")]
REPAIR_ANNEX = [("序号", "设备名称", "型号", "数量"), ("1", "数字化X射线摄影系统", "DX-500", "2"),
                ("2", "全自动生化分析仪", "BC-800", "1"), ("3", "血细胞分析仪", "HA-60", "3")]


def _outline_level(paragraph, level: int) -> None:
    """Set an outline level on the paragraph itself (Word's 段落 > 大纲级别), its style left Normal."""
    paragraph._p.get_or_add_pPr().append(_xml(f'<w:outlineLvl {_WNS} w:val="{level}"/>'))


def contract_outline_docx() -> None:
    """A contract whose clause titles are Normal paragraphs given outline level 1 in the paragraph
    dialog (so Word's navigation pane lists them), signed in a two-column table."""
    from docx import Document

    document = Document()
    document.add_paragraph(REPAIR_TITLE, style="Title")
    for line in REPAIR_PARTIES:
        document.add_paragraph(line)
    document.add_paragraph(REPAIR_PREAMBLE)
    units: list[Unit] = []
    for number, (title, body) in enumerate(REPAIR_CLAUSES, start=1):
        label = f"第{cn(number)}条"
        heading = document.add_paragraph(f"{label} {title}")
        _outline_level(heading, 0)
        for paragraph in body:
            document.add_paragraph(paragraph)
        units.append(Unit([label], [f"# {label} {title}", *body]))
    table = document.add_table(rows=0, cols=2)
    for left, right in REPAIR_SIGNATURE:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = left, right
    units.append(Unit([], [f"{left}\t{right}" for left, right in REPAIR_SIGNATURE]))
    document.add_page_break()
    document.add_paragraph("附件一：维修设备清单")
    annex = document.add_table(rows=0, cols=len(REPAIR_ANNEX[0]))
    annex.style = "Table Grid"
    for row in REPAIR_ANNEX:
        for cell, value in zip(annex.add_row().cells, row):
            cell.text = value
    units.append(Unit(["附件一"], ["附件一：维修设备清单", *("\t".join(row) for row in REPAIR_ANNEX)]))
    _save_docx(document, "contract_医疗设备维修服务合同_大纲级别签署表.docx")
    write_gold("contract_医疗设备维修服务合同_大纲级别签署表.docx", "contract", units)


LAB_GROUPED = LAB_PANELS[15:]  # the last two one item each: their cells are not merged
LAB_GROUPED_COLUMNS = ("检验组合", "项目名称", "结果", "单位", "参考区间")


def lab_grouped_column_docx() -> None:
    """Ten panels in one table whose first column names the panel, the cell merged down over
    the panel's rows (a one-item panel's cell is not merged); the header row is marked to repeat
    and is repeated by hand too, where a converted printout broke the page."""
    from docx import Document

    document = Document()
    document.add_paragraph(LAB3_TITLE)
    document.add_paragraph("姓名：蓝某某　性别：女　年龄：71岁　住院号：2025120415　科室：老年医学科")
    table = document.add_table(rows=0, cols=len(LAB_GROUPED_COLUMNS))
    table.style = "Table Grid"
    header = table.add_row()
    _header_row(header)
    for cell, name in zip(header.cells, LAB_GROUPED_COLUMNS):
        cell.text = name
    units: list[Unit] = []
    for index, (panel, _specimen, items) in enumerate(LAB_GROUPED):
        if index == len(LAB_GROUPED) // 2:
            for cell, name in zip(table.add_row().cells, LAB_GROUPED_COLUMNS):
                cell.text = name
        rows = [table.add_row().cells for _ in items]
        for cells, (name, _code, result, flag, unit, reference) in zip(rows, items):
            for cell, value in zip(cells[1:], (name, f"{result} {flag}".strip(), unit, reference)):
                cell.text = value
        if len(rows) > 1:
            _vmerge([cells[0] for cells in rows])
        rows[0][0].text = panel
        # the reader writes the panel's name as a caption row above the items
        units.append(Unit([panel], [panel] + [
            "\t".join(("", name, f"{result} {flag}".strip(), unit, reference))
            for name, _code, result, flag, unit, reference in items]))
    _save_docx(document, "lab_示范检验报告单_组合列合并.docx")
    write_gold("lab_示范检验报告单_组合列合并.docx", "lab_report", units)


# ---------------------------------------------------------------- round seven

LAB4_PATIENT = [
    "沧源市人民医院检验科　住院患者检验报告",
    "姓名：蒲某某　性别：女　年龄：69岁　住院号：ZY2603120　科室：老年医学科　床号：31",
    "临床诊断：慢性心力衰竭；2型糖尿病；贫血待查",
]
LAB4_COLUMNS = ("序号", "检验项目", "英文缩写", "结果", "提示", "单位", "参考范围")
# (panel, specimen, caption style, items (name, code, result, flag, unit, reference)); every value invented.
# Caption styles: 0 the name alone; 1 ``name　标本：specimen``; 2 ``name（specimen）``. No caption names the panel
# by a header field (检验组合：): a LIS that writes one writes it on every panel (lab.field_panel).
LAB4_PANELS: list[tuple[str, str, list[tuple[str, str, str, str, str, str]]]] = [
    ("血常规", "全血", [("白细胞计数", "WBC", "5.21", "", "10^9/L", "3.5-9.5"),
                       ("血红蛋白", "HGB", "86", "↓", "g/L", "115-150"),
                       ("平均红细胞体积", "MCV", "104.2", "↑", "fL", "82-100"),
                       ("血小板计数", "PLT", "142", "", "10^9/L", "125-350")]),
    ("网织红细胞", "全血", [("网织红细胞百分比", "RET%", "0.62", "", "%", "0.5-1.5"),
                          ("网织红细胞绝对值", "RET#", "0.016", "↓", "10^12/L", "0.024-0.084")]),
    ("红细胞沉降率", "全血", [("红细胞沉降率", "ESR", "38", "↑", "mm/h", "0-20")]),
    ("C反应蛋白", "全血", [("超敏C反应蛋白", "hs-CRP", "6.8", "↑", "mg/L", "<3.0")]),
    ("肝功能", "血清", [("丙氨酸氨基转移酶", "ALT", "14", "", "U/L", "7-40"),
                       ("天门冬氨酸氨基转移酶", "AST", "21", "", "U/L", "13-35"),
                       ("总蛋白", "TP", "61.2", "↓", "g/L", "65-85"),
                       ("白蛋白", "ALB", "33.8", "↓", "g/L", "40-55"),
                       ("总胆红素", "TBIL", "18.6", "", "μmol/L", "0-21")]),
    ("肾功能", "血清", [("尿素", "UREA", "9.8", "↑", "mmol/L", "2.6-7.5"),
                       ("肌酐", "CREA", "112", "↑", "μmol/L", "41-81"),
                       ("尿酸", "UA", "436", "↑", "μmol/L", "155-357")]),
    ("电解质", "血清", [("钾", "K", "3.42", "↓", "mmol/L", "3.5-5.3"),
                       ("钠", "Na", "133", "↓", "mmol/L", "137-147"),
                       ("氯", "Cl", "97", "↓", "mmol/L", "99-110")]),
    ("血脂四项", "血清", [("总胆固醇", "TC", "3.62", "", "mmol/L", "<5.20"),
                         ("甘油三酯", "TG", "1.21", "", "mmol/L", "<1.70"),
                         ("高密度脂蛋白胆固醇", "HDL-C", "1.08", "", "mmol/L", ">1.04"),
                         ("低密度脂蛋白胆固醇", "LDL-C", "1.96", "", "mmol/L", "<1.80")]),
    ("空腹血糖", "血浆", [("葡萄糖", "GLU", "7.9", "↑", "mmol/L", "3.9-6.1")]),
    ("糖化血红蛋白", "全血", [("糖化血红蛋白", "HbA1c", "7.4", "↑", "%", "4.0-6.0")]),
    ("心肌酶谱", "血清", [("肌酸激酶", "CK", "52", "", "U/L", "40-200"),
                         ("肌酸激酶同工酶", "CK-MB", "11", "", "U/L", "0-24"),
                         ("乳酸脱氢酶", "LDH", "268", "↑", "U/L", "120-250")]),
    ("高敏肌钙蛋白T", "血清", [("高敏肌钙蛋白T", "hs-cTnT", "0.021", "↑", "ng/mL", "<0.014")]),
    ("N末端B型钠尿肽前体", "血浆", [("N末端B型钠尿肽前体", "NT-proBNP", "3862", "↑", "pg/mL", "<450")]),
    ("凝血四项", "枸橼酸钠抗凝血浆", [("凝血酶原时间", "PT", "12.4", "", "s", "9.4-12.5"),
                                    ("国际标准化比值", "INR", "1.08", "", "", "0.8-1.2"),
                                    ("活化部分凝血活酶时间", "APTT", "31.6", "", "s", "25.1-36.5"),
                                    ("纤维蛋白原", "FIB", "4.36", "↑", "g/L", "2.0-4.0")]),
    ("D-二聚体", "枸橼酸钠抗凝血浆", [("D-二聚体", "D-D", "0.86", "↑", "mg/L FEU", "<0.55")]),
    ("铁代谢", "血清", [("血清铁", "Fe", "12.6", "", "μmol/L", "7.8-32.2"),
                       ("总铁结合力", "TIBC", "46.2", "", "μmol/L", "45-75"),
                       ("铁蛋白", "FER", "186", "", "ng/mL", "13-150")]),
    ("叶酸+维生素B12", "血清", [("叶酸", "FOL", "6.8", "", "ng/mL", ">3.89"),
                               ("维生素B12", "VB12", "98", "↓", "pg/mL", "180-914")]),
    ("甲状腺功能三项", "血清", [("促甲状腺激素", "TSH", "3.12", "", "mIU/L", "0.27-4.20"),
                               ("游离三碘甲状腺原氨酸", "FT3", "3.36", "", "pmol/L", "3.10-6.80"),
                               ("游离甲状腺素", "FT4", "14.8", "", "pmol/L", "12.0-22.0")]),
    ("免疫球蛋白+补体", "血清", [("免疫球蛋白G", "IgG", "11.2", "", "g/L", "7.0-16.0"),
                                ("免疫球蛋白A", "IgA", "2.16", "", "g/L", "0.7-4.0"),
                                ("补体C3", "C3", "0.92", "", "g/L", "0.9-1.8")]),
    ("抗内因子抗体+抗壁细胞抗体", "血清", [("抗内因子抗体", "IFA", "阳性(+)", "↑", "", "阴性(-)"),
                                        ("抗胃壁细胞抗体", "PCA", "1:320", "↑", "", "<1:40")]),
    ("尿常规", "尿液", [("尿蛋白", "PRO", "+", "↑", "", "阴性(-)"),
                       ("尿葡萄糖", "GLU", "阴性(-)", "", "", "阴性(-)"),
                       ("尿比重", "SG", "1.015", "", "", "1.003-1.030"),
                       ("尿白细胞", "LEU", "阴性(-)", "", "", "阴性(-)")]),
    ("粪便常规+隐血", "粪便", [("颜色", "COL", "黄褐色", "", "", "黄褐色"),
                              ("性状", "CHA", "软便", "", "", "软便"),
                              ("隐血试验", "OB", "阴性(-)", "", "", "阴性(-)")]),
    ("血型鉴定", "全血", [("ABO血型", "ABO", "B型", "", "", ""),
                         ("Rh(D)血型", "RhD", "阳性", "", "", "")]),
]


def lab_long_table_docx() -> None:
    """Round seven: 23 panels in ONE long Word table (the column header a repeating header row,
    printed again mid-table where the page broke), each panel opened by a merged row spanning all
    columns that names it in one of three ways in turn, the item numbers restarting per panel."""
    from docx import Document

    document = Document()
    for line in LAB4_PATIENT:
        document.add_paragraph(line)
    width = len(LAB4_COLUMNS)
    table = document.add_table(rows=0, cols=width)
    table.style = "Table Grid"
    header = table.add_row()
    _header_row(header)
    for cell, name in zip(header.cells, LAB4_COLUMNS):
        cell.text = name
    units: list[Unit] = []
    for index, (panel, specimen, items) in enumerate(LAB4_PANELS):
        if index == len(LAB4_PANELS) // 2:  # a page break: the header printed again, which the reader drops
            for cell, name in zip(table.add_row().cells, LAB4_COLUMNS):
                cell.text = name
        caption = (panel, f"{panel}　标本：{specimen}", f"{panel}（{specimen}）")[index % 3]
        title = table.add_row().cells
        title[0].merge(title[-1]).text = caption
        lines = [caption]  # the patient lines and the column header above the first panel are the file's
        for number, item in enumerate(items, start=1):
            values = (str(number),) + item
            for cell, value in zip(table.add_row().cells, values):
                cell.text = value
            lines.append("\t".join(values))
        units.append(Unit([panel], lines))
    document.add_paragraph("检验者：钟某某　审核者：阮某某　报告时间：2026-03-12 16:40")
    units[-1].lines.append("检验者：钟某某　审核者：阮某某　报告时间：2026-03-12 16:40")
    _save_docx(document, "lab_检验报告_一张长表_合并组合行23组.docx")
    write_gold("lab_检验报告_一张长表_合并组合行23组.docx", "lab_report", units)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    regulation_pdf()
    lab_pdf()
    two_column_pdf()
    contract_docx()
    statute_docx()
    statute_pdf()
    statute_numbered_docx()
    lab_panels_docx()
    lab_one_table_docx()
    judgment_docx()
    statute_heading_list_docx()
    lab_three_layouts_docx()
    medical_record_docx()
    contract_outline_docx()
    lab_grouped_column_docx()
    lab_long_table_docx()


if __name__ == "__main__":
    main()
