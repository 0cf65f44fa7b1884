"""DOCX reader: Word numbering labels, headings, merged table cells, page breaks, errors."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domainchunk.errors import ReadError
from domainchunk.readers import read_document
from domainchunk.readers.docx import chinese_number, format_number, read_docx

OFFICE = Path(__file__).parents[1] / "corpora" / "office"
SHARED_DOCS = Path(__file__).parents[2] / "shared" / "corpus" / "docs"
CONTRACT = OFFICE / "contract_示例软件开发合同.docx"
STATUTE = OFFICE / "statute_示例市公共数据开放管理办法.docx"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


@pytest.fixture(scope="module")
def contract():
    return read_document(CONTRACT)


def _lines(text: str) -> list[str]:
    return text.split("\n")


# ---------------------------------------------------------------- number formats


@pytest.mark.parametrize(
    "n, expected",
    [(1, "一"), (10, "十"), (11, "十一"), (20, "二十"), (21, "二十一"), (99, "九十九"), (100, "一百"),
     (101, "一百零一"), (110, "一百一十"), (111, "一百一十一"), (1000, "一千"), (1010, "一千零一十"),
     (2003, "二千零三"), (10000, "一万"), (10001, "一万零一"), (12345, "一万二千三百四十五")],
)
def test_chinese_counting(n, expected):
    assert chinese_number(n) == expected


_VALUES = dict(zip("零一二三四五六七八九", range(10)))


def _parse_chinese(text: str) -> int:
    """An independent reading of a Chinese numeral (for the round-trip property)."""
    total, section, digit = 0, 0, 0
    for char in text:
        if char in _VALUES:
            digit = _VALUES[char]
        elif char == "万":
            total, section = (section + digit) * 10000, 0
            digit = 0
        else:
            section += (digit or 1) * {"十": 10, "百": 100, "千": 1000}[char]
            digit = 0
    return total + section + digit


@given(st.integers(min_value=1, max_value=99999))
def test_chinese_counting_round_trips(n):
    assert _parse_chinese(chinese_number(n)) == n


@pytest.mark.parametrize(
    "n, fmt, expected",
    [(3, "upperLetter", "C"), (28, "lowerLetter", "bb"), (14, "upperRoman", "XIV"), (9, "lowerRoman", "ix"),
     (12, "decimalFullWidth", "１２"), (3, "decimalEnclosedCircle", "③"), (25, "decimalEnclosedCircle", "25"),
     (2, "ideographTraditional", "乙"), (3, "chineseLegalSimplified", "叁"), (7, "decimalZero", "07"), (4, "japaneseCounting", "四")],
)
def test_number_formats(n, fmt, expected):
    assert format_number(n, fmt) == expected


# ---------------------------------------------------------------- the generated contract


def test_auto_numbered_clauses_get_their_labels(contract):
    lines = _lines(contract.text)
    clauses = [l for l in lines if re.match(r"^第[一二三四五六七八九十]+条 ", l)]
    assert [c.split(" ")[0] for c in clauses] == [
        "第一条", "第二条", "第三条", "第四条", "第五条", "第六条", "第七条", "第八条", "第九条", "第十条", "第十一条", "第十二条"
    ]
    assert "第一条 合同标的：甲方委托乙方" in contract.text
    # the second level restarts under each clause and uses its own format, with no separator (suff nothing)
    assert "第四条 付款方式：\n（一）合同签订后五日内" in contract.text
    assert "（三）质保期满后" in contract.text
    # a second list: decimal with a tab suffix (→ space), and %1.%2 restarting under each item
    assert "1. 客户信息管理\n1.1 客户资料的录入、修改与查询\n1.2 客户分级与标签\n2. 销售过程管理\n2.1 商机登记" in contract.text


def test_merged_cells(contract):
    table = next(b for b in contract.blocks if b.kind == "table")
    rows = [[(c.text, c.colspan) for c in r.cells] for r in table.rows]
    assert rows[0] == [("合同当事人", 3)]
    assert rows[1] == [("甲方", 1), ("示例贸易有限公司", 1), ("联系方式见签署页", 1)]
    assert rows[2] == [("乙方", 1), ("示例软件有限公司", 1), ("", 1)]  # vMerge continuation: empty
    assert rows[3] == [("签订地点", 1), ("示例市高新区", 2)]
    assert contract.text.count("联系方式见签署页") == 1 and contract.text.count("合同当事人") == 1
    assert contract.text[table.start : table.end].split("\n")[1] == "甲方\t示例贸易有限公司\t联系方式见签署页"
    for row in table.rows:
        assert all(contract.text[c.start : c.end] == c.text for c in row.cells)


def test_explicit_page_break(contract):
    breaks = [b for b in contract.blocks if b.kind == "page_break"]
    assert [b.page for b in breaks] == [2]
    assert contract.text[breaks[0].start :].startswith("甲方（盖章）")
    assert [p.number for p in contract.pages] == [1, 2]
    signature = next(b for b in contract.blocks if contract.text[b.start : b.end].startswith("甲方（盖章）"))
    assert signature.page == 2


def test_heading_styles_and_title():
    doc = read_document(STATUTE)
    headings = [(doc.text[b.start : b.end], b.level) for b in doc.blocks if b.kind == "heading"]
    assert headings[0] == ("示例市公共数据开放管理办法", None)
    # Heading 1 is written with its Markdown mark; the Title style has no depth and no mark
    assert headings[1:] == [(f"# {c}", 1) for c in ("第一章 总则", "第二章 开放目录", "第三章 开放平台", "第四章 法律责任", "第五章 附则")]
    assert doc.title == "示例市公共数据开放管理办法"
    assert doc.pages == [] and all(b.page is None for b in doc.blocks)  # no explicit page breaks
    assert sum(bool(re.match(r"第.{1,3}条", l)) for l in _lines(doc.text)) == 15


# ---------------------------------------------------------------- numbering variants built in the test


def _numbering_doc(levels: str, paragraphs: list[tuple[str, str]], *, overrides: str = "", style_num: str | None = None) -> bytes:
    """A DOCX whose list 7 has ``levels``; paragraphs are (numPr xml or style id, text)."""
    from docx import Document
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import parse_xml

    document = Document()
    root = document.part.numbering_part.element
    first_num = root.find(f"{{{W}}}num")
    abstract = parse_xml(f'<w:abstractNum xmlns:w="{W}" w:abstractNumId="70">{levels}</w:abstractNum>')
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        root.append(abstract)
    root.append(parse_xml(f'<w:num xmlns:w="{W}" w:numId="7"><w:abstractNumId w:val="70"/></w:num>'))
    root.append(parse_xml(f'<w:num xmlns:w="{W}" w:numId="8"><w:abstractNumId w:val="70"/>{overrides}</w:num>'))
    if style_num:
        style = document.styles.add_style("Clause", WD_STYLE_TYPE.PARAGRAPH)
        style.element.get_or_add_pPr().append(parse_xml(f'<w:numPr xmlns:w="{W}">{style_num}</w:numPr>'))
    for numbering, text in paragraphs:
        if numbering == "Clause":
            document.add_paragraph(text, style="Clause")
        else:
            p = document.add_paragraph(text)
            if numbering:
                p._p.get_or_add_pPr().append(parse_xml(f'<w:numPr xmlns:w="{W}">{numbering}</w:numPr>'))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _lvl(ilvl: int, fmt: str, text: str, start: int = 1, suff: str = "nothing", extra: str = "") -> str:
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/><w:suff w:val="{suff}"/>{extra}</w:lvl>')


def _num(num_id: int, ilvl: int = 0) -> str:
    return f'<w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/>'


def test_numbering_through_paragraph_style_and_switch_off():
    data = _numbering_doc(
        _lvl(0, "chineseCounting", "第%1条", suff="space"),
        [("Clause", f"条文{i}") for i in range(1, 12)] + [('<w:numId w:val="0"/>', "不编号"), ("Clause", "最后")],
        style_num='<w:numId w:val="7"/>',
    )
    lines = _lines(read_docx(data, "styled.docx").text)
    assert lines[9:] == ["第十条 条文10", "第十一条 条文11", "不编号", "第十二条 最后"]


def test_multilevel_restart_and_start_override():
    levels = _lvl(0, "decimal", "%1.", suff="space") + _lvl(1, "decimal", "%1.%2", suff="space") + _lvl(2, "lowerLetter", "(%3)")
    paragraphs = [(_num(7), "总则"), (_num(7, 1), "定义"), (_num(7, 2), "甲"), (_num(7, 2), "乙"), (_num(7, 1), "适用"),
                  (_num(7, 2), "丙"), (_num(7), "义务"), (_num(7, 1), "付款"), (_num(8), "另一列表")]
    overrides = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride>'
    lines = _lines(read_docx(_numbering_doc(levels, paragraphs, overrides=overrides), "multi.docx").text)
    assert lines == ["1. 总则", "1.1 定义", "(a)甲", "(b)乙", "1.2 适用", "(a)丙", "2. 义务", "2.1 付款", "5. 另一列表"]


def test_enclosed_and_roman_formats_with_start_value():
    levels = _lvl(0, "upperRoman", "%1、", start=3) + _lvl(1, "decimalEnclosedCircle", "%2")
    lines = _lines(read_docx(_numbering_doc(levels, [(_num(7), "甲"), (_num(7, 1), "乙"), (_num(7, 1), "丙"), (_num(7), "丁")]), "r.docx").text)
    assert lines == ["III、甲", "①乙", "②丙", "IV、丁"]


def test_outline_level_makes_a_heading_and_bold_short_paragraph_is_a_candidate():
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    p = document.add_paragraph("第一章 总则")
    p._p.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl xmlns:w="{W}" w:val="0"/>'))
    document.add_paragraph().add_run("第一节 一般规定").bold = True
    document.add_paragraph("正文。")
    buffer = io.BytesIO()
    document.save(buffer)
    doc = read_docx(buffer.getvalue(), "outline.docx")
    assert [(b.kind, b.level, b.style) for b in doc.blocks] == [("heading", 1, None), ("paragraph", None, "bold"), ("paragraph", None, None)]


# ---------------------------------------------------------------- errors


def test_doc_renamed_to_docx():
    with pytest.raises(ReadError, match=r"\.doc"):
        read_docx(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "old.docx")


def test_zip_without_word_document():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", "hello")
    with pytest.raises(ReadError, match="word/document.xml"):
        read_document("notes.docx", buffer.getvalue())


def test_truncated_docx():
    data = CONTRACT.read_bytes()
    with pytest.raises(ReadError, match="corrupt|not a zip"):
        read_docx(data[: len(data) // 2], "cut.docx")


def test_broken_document_xml():
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(CONTRACT.read_bytes())) as source, zipfile.ZipFile(buffer, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            target.writestr(info, b"<w:document>broken" if info.filename == "word/document.xml" else data)
    with pytest.raises(ReadError, match="corrupt DOCX"):
        read_docx(buffer.getvalue(), "broken.docx")


# ---------------------------------------------------------------- the shared real documents


def _shared(name: str) -> Path:
    path = SHARED_DOCS / name
    if not path.exists():
        pytest.skip("shared corpus not present")
    return path


def test_real_statute_docx_articles_start_lines():
    doc = read_document(_shared("statute_劳动合同法实施条例.docx"))
    articles = [l for l in _lines(doc.text) if re.match(r"^第[一二三四五六七八九十]+条", l)]
    assert len(articles) == 38
    assert all(re.match(r"^第.+?条 ", a) for a in articles)


def test_real_lease_contract_numbering_and_tables():
    doc = read_document(_shared("contract_lease_商铺租赁合同_real.docx"))
    clauses = [b for b in doc.blocks if b.kind == "heading" and re.match(r"^### 第.+?条、", doc.text[b.start : b.end])]
    assert len(clauses) == 15 and all(b.level == 3 for b in clauses)
    assert "\n2）甲方未按本合同第五条规定" in doc.text  # Word numbering (start 2, suff nothing) made visible
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 2 and all("\t" in doc.text[t.start : t.end] for t in tables)


# ---------------------------------------------------------------- statute numbered by Word


def test_statute_articles_numbered_by_a_paragraph_style_list():
    doc = read_document(OFFICE / "statute_示例市养犬管理规定.docx")
    lines = _lines(doc.text)
    articles = [l.split(" ", 1)[0] for l in lines if re.match(r"第[一二三四五六七八九十]+条 ", l)]
    assert articles == [f"第{n}条" for n in ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三")]
    assert "（一）具有完全民事行为能力；" in lines and "（一）机关、学校、医院；" in lines  # items restart per article
    assert "军队、警用犬只的管理，不适用本规定。" in lines  # an unnumbered 款 keeps its text as written
    chapters = [b for b in doc.blocks if b.kind == "heading" and b.level == 2]
    assert [doc.text[b.start : b.end] for b in chapters] == ["## 第一章 总则", "## 第二章 养犬登记", "## 第三章 养犬行为规范", "## 第四章 附则"]


def test_word_table_of_contents_is_marked():
    doc = read_document(OFFICE / "statute_示例市养犬管理规定.docx")
    toc = [doc.text[b.start : b.end] for b in doc.blocks if b.style == "toc"]
    assert toc == ["目录", "第一章 总则\t1", "第二章 养犬登记\t2", "第三章 养犬行为规范\t3", "第四章 附则\t4"]


def test_tab_aligned_columns_in_a_paragraph_stay_tab_separated():
    import docx

    document = docx.Document()
    document.add_paragraph("项目\t结果\t\t单位")
    document.add_paragraph("白细胞计数   12.5\t10^9/L")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "甲\t乙"
    table.cell(0, 1).text = "丙"
    buffer = io.BytesIO()
    document.save(buffer)
    doc = read_docx(buffer.getvalue(), "tabs.docx")
    lines = doc.text.split("\n")
    assert "项目\t结果\t单位" in lines  # a run of tabs is one column break
    assert "白细胞计数 12.5\t10^9/L" in lines  # spaces stay spaces
    assert "甲 乙\t丙" in lines  # inside a table cell a tab is a space: tabs separate cells


# ---------------------------------------------------------------- the package, read without python-docx


def _rewritten(source: Path, change) -> bytes:
    """``source`` with each member's bytes passed through ``change(name, data)`` (None drops it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in original.infolist():
            data = change(info.filename, original.read(info.filename))
            if data is not None:
                target.writestr(info.filename, data)
    return buffer.getvalue()


def _texts_and_kinds(doc) -> list[tuple[str, str, int | None, str | None]]:
    return [(doc.text[b.start : b.end], b.kind, b.level, b.style) for b in doc.blocks]


def test_table_styles_cut_or_not_read_alike():
    # Word's serialisation has the table styles cut before parsing; another spelling of the same
    # styles (attributes reordered) is parsed whole: the two must read the same.
    def reorder(name: str, data: bytes) -> bytes:
        return data.replace(b'<w:style w:type="table"', b'<w:style w:customStyle="0" w:type="table"') \
            if name == "word/styles.xml" else data

    cut, whole = read_docx(STATUTE.read_bytes(), "a.docx"), read_docx(_rewritten(STATUTE, reorder), "b.docx")
    assert _texts_and_kinds(cut) == _texts_and_kinds(whole)
    assert sum(b.kind == "heading" for b in cut.blocks) == 6


def test_table_style_cut_never_crosses_into_another_style():
    from domainchunk.readers.docx import _without_table_styles

    xml = (b'<w:styles><w:style w:type="table" w:styleId="T"/><w:style w:type="paragraph" w:styleId="P">'
           b'<w:name w:val="p"/></w:style><w:style w:type="table" w:styleId="U"><w:name w:val="u"/></w:style></w:styles>')
    assert _without_table_styles(xml) == (b'<w:styles><w:style w:type="paragraph" w:styleId="P">'
                                          b'<w:name w:val="p"/></w:style></w:styles>')
    unclosed = b'<w:styles><w:style w:type="table" w:styleId="T"><w:style w:type="paragraph"></w:style></w:styles>'
    assert _without_table_styles(unclosed) is unclosed


def test_package_without_styles_part_uses_the_default_styles():
    # Without styles.xml python-docx (whose reading this one replaced) falls back on its default
    # template, which defines no "Heading1": the text stays, the headings become paragraphs.
    def drop_styles(name: str, data: bytes) -> bytes | None:
        if name == "word/styles.xml":
            return None
        if name == "word/_rels/document.xml.rels":
            return re.sub(rb'<Relationship [^>]*Target="styles.xml"/>', b"", data)
        return data

    doc = read_docx(_rewritten(STATUTE, drop_styles), "nostyles.docx")
    assert doc.text == re.sub(r"(?m)^# ", "", read_docx(STATUTE.read_bytes(), "styled.docx").text)  # no heading marks
    assert {kind for _, kind, _, _ in _texts_and_kinds(doc)} == {"paragraph"}


def test_package_naming_no_main_document_or_another_kind():
    no_main = _rewritten(STATUTE, lambda n, d: re.sub(rb'<Relationship [^>]*officeDocument"?[^>]*/>', b"", d)
                         if n == "_rels/.rels" else d)
    with pytest.raises(ReadError, match="no main document"):
        read_docx(no_main, "nomain.docx")
    # a Word template (.dotx) is a document to read (test_readers_producers); a workbook's main part is not
    workbook = _rewritten(STATUTE, lambda n, d: d.replace(b"wordprocessingml.document.main+xml", b"spreadsheetml.sheet.main+xml")
                          if n == "[Content_Types].xml" else d)
    with pytest.raises(ReadError, match="not a Word document: its main part is .*spreadsheetml"):
        read_docx(workbook, "workbook.docx")
    missing = _rewritten(STATUTE, lambda n, d: None if n == "word/numbering.xml" else d)
    with pytest.raises(ReadError, match="corrupt DOCX: the package has no part /word/numbering.xml"):
        read_docx(missing, "missing.docx")


# ---------------------------------------------------------------- Word's own means of structure (round five)


def _office(name: str):
    return read_document(OFFICE / name)


def test_headings_written_with_their_markdown_depth_the_first_line_without():
    doc = _office("statute_江临市住宅物业管理条例_标题样式自动编号.docx")
    lines = _lines(doc.text)
    assert lines[0] == "江临市住宅物业管理条例" and doc.title == "江临市住宅物业管理条例"
    # 章 and 节 come from Heading 1/2 bound to the list, 条 from a style bound to its third level
    assert "# 第二章 业主和业主组织" in lines and "## 第一节 业主" in lines and "## 第二节 业主大会和业主委员会" in lines
    assert [l.split(" ", 1)[0] for l in lines if l.startswith("第")] == [f"第{n}条" for n in "一二三四五六七八九十"]
    headings = [(doc.text[b.start : b.end].split(" ", 1)[0], b.level) for b in doc.blocks if b.kind == "heading"]
    assert headings[0] == ("江临市住宅物业管理条例", None)  # the Title style: a heading without depth
    assert headings[1:4] == [("#", 1), ("#", 1), ("##", 2)]


def test_a_heading_that_opens_the_document_is_its_title_and_takes_no_marks():
    from docx import Document

    document = Document()
    document.add_heading("示范合同", level=2)
    document.add_heading("第一条 标的", level=2)
    buffer = io.BytesIO()
    document.save(buffer)
    doc = read_docx(buffer.getvalue(), "title.docx")
    assert _lines(doc.text) == ["示范合同", "## 第一条 标的"] and doc.title == "示范合同"


def test_outline_level_on_a_body_paragraph_is_a_heading_depth():
    lines = _lines(_office("contract_医疗设备维修服务合同_大纲级别签署表.docx").text)
    assert "# 第一条 服务范围" in lines and "1.1 乙方负责甲方放射科、检验科所列医疗设备的日常维护、故障维修和定期保养。" in lines
    assert "甲方（盖章）：\t乙方（盖章）：" in lines  # the signature table: one row a line, cells tab-separated


def test_soft_line_breaks_end_lines_and_text_boxes_are_read_once():
    doc = _office("judgment_示范民事判决书_文本框页眉软回车.docx")
    lines = _lines(doc.text)
    assert lines[:3] == ["江临市北塘区人民法院", "民事判决书", "（2025）江0105民初2187号"]  # the text box, once
    assert doc.text.count("江临市北塘区人民法院") == 1
    assert "经营者：尤某某，男，1979年6月2日出生，汉族。" in lines  # after a soft break in the parties' paragraph
    assert any(l.startswith("被告辩称，") for l in lines) and any(l.startswith("本院认为，") for l in lines)
    assert "第 1 页" not in doc.text  # header and footer parts are page furniture, not read


def test_soft_break_inside_a_table_cell_stays_a_space():
    from docx import Document

    document = Document()
    cell = document.add_table(rows=1, cols=2).cell(0, 0)
    cell.paragraphs[0].add_run("Line one").add_break()
    cell.paragraphs[0].add_run("line two")
    buffer = io.BytesIO()
    document.save(buffer)
    assert read_docx(buffer.getvalue(), "cell.docx").text == "Line one line two\t"


def test_text_box_in_vml_only_is_read_and_nested_box_once():
    from docx import Document
    from docx.oxml import parse_xml

    inner = f'<w:p><w:r><w:pict><v:rect><v:textbox><w:txbxContent><w:p><w:r><w:t>内框</w:t></w:r></w:p></w:txbxContent></v:textbox></v:rect></w:pict></w:r></w:p>'
    run = (f'<w:r xmlns:w="{W}" xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:rect><v:textbox><w:txbxContent>'
           f'<w:p><w:r><w:t>外框</w:t></w:r></w:p>{inner}</w:txbxContent></v:textbox></v:rect></w:pict></w:r>')
    document = Document()
    paragraph = document.add_paragraph("正文")
    paragraph._p.append(parse_xml(run))
    buffer = io.BytesIO()
    document.save(buffer)
    assert _lines(read_docx(buffer.getvalue(), "vml.docx").text) == ["外框", "内框", "正文"]


def test_bold_name_keeps_the_line_bold_when_its_colon_is_a_plain_run():
    doc = _office("emr_入院记录_粗体标题分开冒号.docx")
    styles = {doc.text[b.start : b.end]: b.style for b in doc.blocks}
    assert styles["心功能评估："] == "bold"
    assert styles["主诉：反复胸闷、气促2年，加重伴双下肢水肿5天。"] is None  # its text is plain


def test_a_column_merged_down_over_its_rows_becomes_their_caption():
    doc = _office("lab_示范检验报告单_组合列合并.docx")
    lines = _lines(doc.text)
    at = lines.index("甲状腺功能")
    assert lines[at + 1].startswith("\t游离三碘甲状腺原氨酸\t")
    assert lines[lines.index("G试验") + 1].startswith("\t")  # a one-row panel's unmerged cell is a caption too
    assert lines.count("检验组合\t项目名称\t结果\t单位\t参考区间") == 1  # the repeat of the marked header row dropped
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.rows[0].is_header and not table.rows[1].is_header


def test_a_merged_column_beside_spanning_caption_rows_stays_data():
    lines = _lines(_office("lab_示范检验报告单_三种表格.docx").text)
    assert "血清\t总胆固醇\t4.12\tmmol/L\t<5.2" in lines and "血清" not in lines  # the specimen, not a caption
    assert lines.count("项目名称\t代号\t结果\t提示\t单位\t参考区间") == 5  # one per table; the page-break copy dropped


def test_two_panels_side_by_side_in_one_table_are_read_half_by_half():
    doc = _office("lab_检验报告单_两组合左右并排一表_Word.docx")
    lines = _lines(doc.text)
    left, right = lines.index("血常规"), lines.index("凝血功能")
    assert lines[left + 1] == lines[right + 1] == "项目\t结果\t单位\t参考区间"  # each half under its own header
    assert lines[left + 2 : right] == [l for l in lines[left + 2 : right] if l.count("\t") == 3]  # no right-half cell among them
    assert "血小板计数\t236\t10^9/L\t125-350" in lines[left:right] and "D-二聚体\t0.42\tmg/L FEU\t0-0.55" in lines[right:]
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) == 4 and all(doc.text[t.start : t.end].split("\n")[0] in ("血常规", "凝血功能", "肝功能", "肾功能及电解质") for t in tables)


def test_a_page_set_in_two_columns_by_a_one_row_table_is_read_column_by_column():
    doc = _office("statute_江临市共享单车停放管理办法_无框表格两栏_Word.docx")
    lines = _lines(doc.text)
    assert "第一章 总则" in lines and "第四章 法律责任" in lines  # each paragraph of a cell a line of its own
    assert lines.index("第一章 总则") < lines.index("第三章 运营维护") < lines.index("第四章 法律责任")  # the left column, then the right
    assert not any(b.kind == "table" and doc.text[b.start : b.end].startswith("第") for b in doc.blocks)
    from docx import Document

    def one_table(cells: list[list[str]], rows: int = 1) -> list[str]:
        document = Document()
        table = document.add_table(rows=rows, cols=len(cells))
        for row in table.rows:
            for cell, paragraphs in zip(row.cells, cells):
                cell.text = paragraphs[0]
                for text in paragraphs[1:]:
                    cell.add_paragraph(text)
        buffer = io.BytesIO()
        document.save(buffer)
        return _lines(read_docx(buffer.getvalue(), "t.docx").text)

    assert one_table([["第一条 甲。", "第二条 乙。"], ["第三条 丙。", "第四条 丁。"]]) == ["第一条 甲。", "第二条 乙。", "第三条 丙。", "第四条 丁。"]
    assert one_table([["备注", ""], ["空腹采血。", "复查。"]]) == ["备注\t空腹采血。复查。"]  # three paragraphs: a row of values
    assert one_table([["第一条 甲。", "第二条 乙。"], ["第三条 丙。", "第四条 丁。"]], rows=2)[0] == "第一条 甲。第二条 乙。\t第三条 丙。第四条 丁。"


def test_side_by_side_needs_the_column_names_repeated_in_order():
    from domainchunk.readers.layout import CellSpec, side_by_side

    def table(*rows: str) -> list[list[CellSpec]]:
        return [[CellSpec(t) for t in row.split("|")] for row in rows]

    cut = side_by_side(table("项目|结果|项目|结果", "甲|1|乙|2", "注：复查|||"))
    assert [[[c.text for c in r] for r in g] for g in cut] == [[["项目", "结果"], ["甲", "1"], ["注：复查", ""]], [["项目", "结果"], ["乙", "2"], ["", ""]]]
    note = side_by_side([[CellSpec("项目"), CellSpec("结果"), CellSpec("项目"), CellSpec("结果")], [CellSpec("备注：空腹采血", 4)], *table("甲|1|乙|2")])
    assert [[[c.text for c in r] for r in g] for g in note] == [[["项目", "结果"]], [["项目", "结果"]], [["备注：空腹采血"]], [["甲", "1"]], [["乙", "2"]]]
    assert side_by_side(table("项目|结果|结果|项目", "甲|1|2|乙")) is None  # not the same columns in the same order
    assert side_by_side(table("项目|结果|单位|参考区间", "甲|1|g/L|1-2")) is None
    assert side_by_side(table("第1次|第2次|第1次|第2次", "1|2|3|4")) is None  # digits: values, not column names


def test_empty_paragraphs_are_one_blank_line_between_lines_only():
    from docx import Document

    document = Document()
    for text in ("", "手术日期：", "", "", "2023-09-07", ""):
        document.add_paragraph(text)
    buffer = io.BytesIO()
    document.save(buffer)
    doc = read_docx(buffer.getvalue(), "blank.docx")
    assert doc.text == "手术日期：\n\n2023-09-07"
    assert [doc.text[b.start : b.end] for b in doc.blocks] == ["手术日期：", "2023-09-07"]


def test_a_rendering_to_docx_keeps_blank_lines_as_empty_paragraphs():
    from relayout import to_docx

    text = "第一条　甲。\n\n\n第二条　乙。\n项目\t结果\n\n白细胞\t5.1\n"
    assert read_docx(to_docx(text, tables=True), "r.docx").text == "第一条 甲。\n\n第二条 乙。\n项目\t结果\n\n白细胞\t5.1"


def test_text_box_in_a_table_cell_is_read_once():
    from docx import Document
    from docx.oxml import parse_xml

    box = "<w:txbxContent><w:p><w:r><w:t>框内</w:t></w:r></w:p></w:txbxContent>"
    run = (f'<w:r xmlns:w="{W}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:AlternateContent>'
           f'<mc:Choice Requires="wps"><w:drawing>{box}</w:drawing></mc:Choice>'
           f"<mc:Fallback><w:pict>{box}</w:pict></mc:Fallback></mc:AlternateContent></w:r>")
    document = Document()
    cell = document.add_table(rows=1, cols=2).cell(0, 0)
    cell.paragraphs[0]._p.append(parse_xml(run))
    cell.add_paragraph("格内")
    document.add_paragraph("正文").runs[0]._r.addnext(parse_xml(run))
    buffer = io.BytesIO()
    document.save(buffer)
    # the drawing's box, not its VML copy for old readers too; in the body the box comes first
    assert _lines(read_docx(buffer.getvalue(), "cell.docx").text) == ["框内格内\t", "框内", "正文"]


def test_rows_cells_and_paragraphs_inside_content_controls_and_custom_xml_are_read():
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    table = document.add_table(rows=2, cols=2)
    for row, texts in zip(table.rows, (("项目", "结果"), ("白细胞计数", "5.1"))):
        for cell, text in zip(row.cells, texts):
            cell.text = text
    # a repeating section wraps the second row, a field control its first cell
    second = table.rows[1]._tr
    sdt = parse_xml(f'<w:sdt xmlns:w="{W}"><w:sdtPr/><w:sdtContent/></w:sdt>')
    second.addprevious(sdt)
    sdt[1].append(second)
    first_cell = second.find(f"{{{W}}}tc")
    cell_sdt = parse_xml(f'<w:sdt xmlns:w="{W}"><w:sdtContent/></w:sdt>')
    first_cell.addprevious(cell_sdt)
    cell_sdt[0].append(first_cell)
    custom = parse_xml(f'<w:customXml xmlns:w="{W}" w:element="report"><w:p><w:r><w:t>备注：复查</w:t></w:r></w:p></w:customXml>')
    document.element.body.insert(len(document.element.body) - 1, custom)
    buffer = io.BytesIO()
    document.save(buffer)
    assert _lines(read_docx(buffer.getvalue(), "controls.docx").text) == ["项目\t结果", "白细胞计数\t5.1", "备注：复查"]


def test_the_old_place_of_moved_text_is_not_read():
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    paragraph = document.add_paragraph("本条例自公布之日起施行。")
    paragraph._p.insert(0, parse_xml(f'<w:moveFrom xmlns:w="{W}" w:id="1" w:author="a"><w:r><w:t>移走的文字</w:t></w:r></w:moveFrom>'))
    buffer = io.BytesIO()
    document.save(buffer)
    assert read_docx(buffer.getvalue(), "moved.docx").text == "本条例自公布之日起施行。"


def test_unnumbered_heading_styles_open_path_elements_as_their_markdown_twin_does():
    # 总则 / 分则 / 一般规定 carry no number a rule can read: their Word heading depth places them,
    # as the same headings' # marks do in Markdown.
    import domainchunk
    from docx import Document

    document = Document()
    document.add_paragraph("示范市社区服务条例")
    document.add_heading("总则", level=1)
    document.add_paragraph("第一条　为了规范社区服务，制定本条例。")
    document.add_paragraph("第二条　本条例适用于本市行政区域内的社区服务。")
    document.add_heading("分则", level=1)
    document.add_heading("一般规定", level=2)
    document.add_paragraph("第三条　社区服务应当便民利民。")
    buffer = io.BytesIO()
    document.save(buffer)
    chunks = domainchunk.chunk(buffer.getvalue(), name="示范市社区服务条例.docx", doc_type="statute").chunks
    paths = {c.path[-1]: c.path for c in chunks if c.path}
    assert paths["第一条"] == ["总则", "第一条"] and paths["第二条"] == ["总则", "第二条"]
    assert paths["第三条"] == ["分则", "一般规定", "第三条"]


def test_a_position_tab_separates_cells_as_a_tab_does():
    # Word aligns a typed table's last column to the margin with an absolute position tab (w:ptab):
    # what it shows is a gap between two cells, not the two glued.
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    paragraph = document.add_paragraph("白细胞计数\t10^9/L")
    paragraph._p.append(parse_xml(f'<w:r xmlns:w="{W}"><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/>'
                                  "<w:t>3.5-9.5</w:t></w:r>"))
    buffer = io.BytesIO()
    document.save(buffer)
    assert read_docx(buffer.getvalue(), "ptab.docx").text == "白细胞计数\t10^9/L\t3.5-9.5"


def test_a_table_nested_in_a_layout_cell_is_read_as_its_own_rows():
    # a report framed by a one-column layout table, each cell a panel: its name, then the panel's
    # own table. Word shows the name above the rows; flattening the cell ran them into one line.
    from docx import Document

    document = Document()
    frame = document.add_table(rows=2, cols=1)
    for row, (panel, items) in zip(frame.rows, (("血常规", (("白细胞计数", "5.1"), ("血红蛋白", "138"))),
                                                ("肝功能", (("总胆红素", "15.2"),)))):
        cell = row.cells[0]
        cell.paragraphs[0].add_run(panel)
        inner = cell.add_table(rows=0, cols=2)
        for name, value in items:
            cells = inner.add_row().cells
            cells[0].text, cells[1].text = name, value
    document.add_paragraph("检验者：某甲")
    buffer = io.BytesIO()
    document.save(buffer)
    doc = read_docx(buffer.getvalue(), "nested.docx")
    # a cell ends with a paragraph after its table (Word requires one): the empty line it shows
    assert _lines(doc.text) == ["血常规", "白细胞计数\t5.1", "血红蛋白\t138", "", "肝功能", "总胆红素\t15.2", "", "检验者：某甲"]
    assert [len(b.rows) for b in doc.blocks if b.kind == "table"] == [2, 1]


def test_a_layout_row_between_plain_rows_keeps_them_tables_in_order():
    from docx import Document

    document = Document()
    table = document.add_table(rows=3, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "姓名：某甲", "科室：内科"
    nested = table.rows[1].cells[0].add_table(rows=1, cols=2)
    nested.rows[0].cells[0].text, nested.rows[0].cells[1].text = "血糖", "5.6"
    table.rows[2].cells[0].text, table.rows[2].cells[1].text = "检验者：某乙", "审核者：某丙"
    buffer = io.BytesIO()
    document.save(buffer)
    # the layout row's cells hold empty paragraphs around the nested table: the blank lines Word shows
    doc = read_docx(buffer.getvalue(), "mixed.docx")
    assert _lines(doc.text) == ["姓名：某甲\t科室：内科", "", "血糖\t5.6", "", "检验者：某乙\t审核者：某丙"]
    assert [len(b.rows) for b in doc.blocks if b.kind == "table"] == [1, 1, 1]


def test_hidden_text_is_not_read():
    # an EMR template's prompts set as hidden text (Font > Hidden, w:vanish): Word neither shows nor
    # prints them, so they are no part of the record; w:vanish="0" switches hiding off again
    from docx import Document

    document = Document()
    paragraph = document.add_paragraph()
    paragraph.add_run("主诉：")
    paragraph.add_run("（请填写患者主要症状及持续时间。）").font.hidden = True
    paragraph.add_run("发热2天。")
    shown = document.add_paragraph().add_run("现病史：受凉后发热。")
    shown.font.hidden = False
    buffer = io.BytesIO()
    document.save(buffer)
    assert _lines(read_docx(buffer.getvalue(), "hidden.docx").text) == ["主诉：发热2天。", "现病史：受凉后发热。"]


def _with_imported_chunk(name: str, content_type: str, data: bytes, before: str = "") -> bytes:
    """A DOCX whose body imports ``data`` (w:altChunk), as web exporters write one, after ``before``."""
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    if before:
        document.add_paragraph(before)
    rid = document.part.relate_to("/word/" + name, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk",
                                  is_external=True)
    chunk = parse_xml(f'<w:altChunk xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="{rid}"/>')
    document.element.body.insert(len(document.element.body) - 1, chunk)
    buffer = io.BytesIO()
    document.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "[Content_Types].xml":
                content = content.replace(b"</Types>", f'<Override PartName="/word/{name}" ContentType="{content_type}"/></Types>'.encode())
            if item.filename == "word/_rels/document.xml.rels":  # python-docx relates an external URL: make it a part
                content = content.replace(f'Target="/word/{name}" TargetMode="External"'.encode(), f'Target="{name}"'.encode())
            target.writestr(item, content)
        target.writestr(f"word/{name}", data)
    return out.getvalue()


IMPORTED_PAGE = """<html><head><title>报告</title><style>p{margin:0}</style></head><body>
<h1>江临市中心医院检验报告单</h1>
<p>姓名：某甲<br>性别：男</p>
<p>&nbsp;</p>
<h2>血常规</h2>
<table border="1"><tr><th>项目</th><th>结果</th><th>单位</th></tr>
<tr><td>白细胞
计数</td><td>6.5</td><td>10^9/L</td></tr>
<tr><td colspan="3">备注：<b>复查</b></td></tr></table>
<div><p>检验者：
某乙</p>审核者：某丙</div>
</body></html>"""


def test_an_imported_web_page_is_read_where_it_is_imported():
    # a web system's "export to Word": the HTML page wrapped as an imported chunk, which Word
    # converts in place. Its blocks are lines, <br> ends one, headings take their depth (the
    # document's first line, its title, none), rows are tab-separated cells.
    data = _with_imported_chunk("page.html", "text/html", IMPORTED_PAGE.encode("utf-8"), before="导出时间：2025-03-04")
    doc = read_docx(data, "imported.docx")
    assert _lines(doc.text) == ["导出时间：2025-03-04", "# 江临市中心医院检验报告单", "姓名：某甲", "性别：男", "",
                                "## 血常规", "项目\t结果\t单位", "白细胞计数\t6.5\t10^9/L", "备注：复查", "检验者：某乙", "审核者：某丙"]
    assert [len(b.rows) for b in doc.blocks if b.kind == "table"] == [3]


def test_an_imported_mime_html_archive_is_read():
    # html-docx exporters import the page as MIME HTML (afchunk.mht, message/rfc822), its HTML quoted-printable
    import quopri

    html = IMPORTED_PAGE.replace("<h1>", "<h1 class=\"t\">").encode("utf-8")
    mht = (b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n--B\r\n"
           b"Content-Type: text/html; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n"
           b"Content-Location: file:///C:/fake/document.html\r\n\r\n" + quopri.encodestring(html) + b"\r\n--B--\r\n")
    doc = read_docx(_with_imported_chunk("afchunk.mht", "message/rfc822", mht), "mht.docx")
    assert _lines(doc.text)[:3] == ["江临市中心医院检验报告单", "姓名：某甲", "性别：男"]
    assert "## 血常规" in _lines(doc.text)


def test_a_paragraph_deleted_whole_in_tracked_changes_leaves_no_line_nor_number():
    # its runs and its paragraph mark deleted (w:pPr/w:rPr/w:del): the final text has neither the
    # paragraph, nor the blank line an empty one shows, nor its place in the numbering
    from docx.oxml import parse_xml

    levels = _lvl(0, "chineseCounting", "第%1条", suff="space")
    data = _numbering_doc(levels, [(_num(7), "甲规定。"), (_num(7), ""), (_num(7), "丙规定。")])
    document = zipfile.ZipFile(io.BytesIO(data))
    xml = document.read("word/document.xml").decode("utf-8")
    deleted = (f'<w:rPr><w:del w:id="9" w:author="a" w:date="2024-01-01T00:00:00Z"/></w:rPr></w:pPr>'
               '<w:del w:id="8" w:author="a" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>乙规定。</w:delText></w:r></w:del></w:p>')
    xml = re.sub(r"(<w:p>(?:(?!</w:p>).)*?<w:numPr>(?:(?!</w:p>).)*?</w:numPr>)</w:pPr></w:p>", lambda m: m.group(1) + deleted, xml, count=1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in document.infolist():
            target.writestr(item, xml if item.filename == "word/document.xml" else document.read(item))
    assert "乙规定" not in xml.replace("delText>乙规定", "")
    assert _lines(read_docx(out.getvalue(), "deleted.docx").text) == ["第一条 甲规定。", "第二条 丙规定。"]


def test_pandoc_styles_and_pipe_tables_read_as_paragraphs_and_word_tables():
    # pandoc writes First Paragraph / Body Text paragraphs and a pipe table as a Word table
    # (style Table, the header row marked): each line of the Markdown a paragraph, each table
    # one tab-separated line a row, the lab panel's caption above it.
    doc = read_document(OFFICE / "lab_累积报告_日期为列_pandoc.docx")
    assert sum(1 for b in doc.blocks if b.kind == "table") == 4
    lines = _lines(doc.text)
    at = lines.index("【血常规】")
    assert lines[at + 1].split("\t") == ["项目", "单位", "参考范围", "05-08", "05-11", "05-14", "05-17", "05-20"]
    assert lines[at + 2].split("\t")[:3] == ["白细胞计数WBC", "10^9/L", "3.5-9.5"]
    assert lines[:2] == ["雍州市人民医院 检验结果累积报告", "姓名：邢某某 性别：女 年龄：48岁 科室：血液内科 床号：09 住院号：2025050714"]


def _body_docx(body: str) -> bytes:
    """A minimal DOCX whose w:body holds ``body``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("[Content_Types].xml",
                         '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                         '<Default Extension="xml" ContentType="application/xml"/>'
                         '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        archive.writestr("_rels/.rels",
                         '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        archive.writestr("word/document.xml", f'<?xml version="1.0"?><w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')
    return out.getvalue()


def _r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _fld(kind: str, data: str = "") -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}">{data}</w:fldChar></w:r>'


def _code(text: str) -> str:
    return f'<w:r><w:instrText xml:space="preserve">{text}</w:instrText></w:r>'


def test_a_nested_fields_cached_result_inside_an_outer_fields_code_is_not_read():
    # { IF { MERGEFIELD 程序 } = "普通" "依法组成合议庭" "" }: Word shows only the IF's result; the
    # MERGEFIELD's cached result (普通) is part of the IF's code
    nested_if = (_fld("begin") + _code(" IF ") + _fld("begin") + _code(" MERGEFIELD 程序 ") + _fld("separate") + _r("普通")
                 + _fld("end") + _code(' = "普通" "依法组成合议庭" "" ') + _fld("separate") + _r("依法组成合议庭") + _fld("end"))
    # a field with no separate mark and text after it, and an unclosed one: neither swallows text
    page = _fld("begin") + _code(" PAGE ") + _fld("end")
    unclosed = _fld("begin") + _code(" REF 甲 ")
    body = (f"<w:p>{_r('本院受理后，')}{nested_if}{_r('公开开庭审理。')}</w:p>"
            f"<w:p>{_r('第')}{page}{_r('页')}</w:p><w:p>{unclosed}{_r('现已审理终结。')}</w:p>")
    assert _lines(read_docx(_body_docx(body), "nested.docx").text) == ["本院受理后，依法组成合议庭公开开庭审理。", "第页", "现已审理终结。"]


def test_legacy_check_box_and_drop_down_form_fields_read_as_word_draws_them():
    def box(state: str) -> str:
        data = f'<w:ffData><w:name w:val="c"/><w:checkBox><w:sizeAuto/>{state}</w:checkBox></w:ffData>'
        return _fld("begin", data) + _code(" FORMCHECKBOX ") + _fld("end")

    def listing(result: str) -> str:
        data = (f'<w:ffData><w:name w:val="d"/><w:ddList>{result}<w:listEntry w:val="顺产"/>'
                '<w:listEntry w:val="剖宫产"/></w:ddList></w:ffData>')
        return _fld("begin", data) + _code(" FORMDROPDOWN ") + _fld("end")

    checked, unchecked = '<w:default w:val="0"/><w:checked/>', '<w:default w:val="0"/>'
    by_default, unticked = '<w:default w:val="1"/>', '<w:default w:val="1"/><w:checked w:val="0"/>'
    body = ("<w:p>" + _r("分类：") + box(checked) + _r("未见异常 ") + box(unchecked) + _r("异常") + "</w:p>"
            + "<w:p>" + _r("转诊：") + box(by_default) + _r("无 ") + box(unticked) + _r("有") + "</w:p>"
            + "<w:p>" + _r("分娩方式：") + listing('<w:result w:val="1"/>') + _r("　胎次：") + listing("") + "</w:p>")
    # LibreOffice writes a separate mark and an empty result run; a typed result is read as it is
    empty_result = (_fld("begin", '<w:ffData><w:ddList><w:result w:val="2"/><w:listEntry w:val="入户"/><w:listEntry w:val="电话"/>'
                                  '<w:listEntry w:val="门诊"/></w:ddList></w:ffData>')
                    + _code(" FORMDROPDOWN ") + _fld("separate") + "<w:r/>" + _fld("end"))
    typed = (_fld("begin", '<w:ffData><w:ddList><w:listEntry w:val="甲"/></w:ddList></w:ffData>')
             + _code(" FORMDROPDOWN ") + _fld("separate") + _r("乙") + _fld("end"))
    body += "<w:p>" + _r("访视方式：") + empty_result + _r(" 等级：") + typed + "</w:p>"
    assert _lines(read_docx(_body_docx(body), "form.docx").text) == [
        "分类：☒未见异常 ☐异常", "转诊：☒无 ☐有", "分娩方式：剖宫产 胎次：顺产", "访视方式：门诊 等级：乙"]
