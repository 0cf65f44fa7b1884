"""Readers on what other producers write: Strict Open XML, macro-enabled and template Word files,
review left in tracked moves and row deletions, web pages and RTF named as Word files, a
LibreOffice print whose lines hang their punctuation past the margin (round eleven)."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from domainchunk.errors import ReadError
from domainchunk.readers import READERS, read_document
from domainchunk.readers.docx import read_docx

OFFICE = Path(__file__).parents[1] / "corpora" / "office"
STATUTE = OFFICE / "statute_江临市古村落保护条例_列表自动编号_Word.docx"
LAB = OFFICE / "lab_住院检验汇总_单表组合列纵向合并_Word.docx"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_STRICT = (
    (b"http://schemas.openxmlformats.org/wordprocessingml/2006/main", b"http://purl.oclc.org/ooxml/wordprocessingml/main"),
    (b"http://schemas.openxmlformats.org/officeDocument/2006/relationships", b"http://purl.oclc.org/ooxml/officeDocument/relationships"),
)


def _rewritten(source: Path, change) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in original.infolist():
            target.writestr(info.filename, change(info.filename, original.read(info.filename)))
    return buffer.getvalue()


def _strict(name: str, data: bytes) -> bytes:
    for transitional, strict in _STRICT:
        data = data.replace(transitional, strict)
    return data


def _blocks(doc) -> list[tuple[str, str, str | None]]:
    return [(doc.text[b.start:b.end], b.kind, b.style) for b in doc.blocks]


@pytest.mark.parametrize("source", [STATUTE, LAB], ids=["numbered statute", "merged lab table"])
def test_a_strict_open_xml_package_reads_as_its_transitional_twin(source):
    transitional = read_docx(source.read_bytes(), "t.docx")
    strict = read_docx(_rewritten(source, _strict), "s.docx")
    assert "第一条" in transitional.text or "血常规" in transitional.text
    assert strict.text == transitional.text and _blocks(strict) == _blocks(transitional)


@pytest.mark.parametrize("content_type, suffix", [
    (b"application/vnd.ms-word.document.macroEnabled.main+xml", ".docm"),
    (b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml", ".dotx"),
    (b"application/vnd.ms-word.template.macroEnabledTemplate.main+xml", ".dotm"),
])
def test_macro_enabled_documents_and_templates_are_read_as_documents(tmp_path, content_type, suffix):
    data = _rewritten(STATUTE, lambda name, d: d.replace(_MAIN, content_type) if name == "[Content_Types].xml" else d)
    path = tmp_path / f"条例{suffix}"
    path.write_bytes(data)
    assert suffix in READERS  # a folder's such files are taken, not passed over
    assert read_document(path).text == read_docx(STATUTE.read_bytes(), "t.docx").text


def _docx(body_xml: str) -> bytes:
    """A python-docx package whose body holds ``body_xml`` (w:p and w:tbl elements) and a list
    7 numbering its level-0 paragraphs 第%1条 in Chinese counting."""
    from docx import Document
    from docx.oxml import parse_xml

    document = Document()
    numbering = document.part.numbering_part.element
    numbering.append(parse_xml(
        f'<w:abstractNum xmlns:w="{W}" w:abstractNumId="70"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1条"/><w:suff w:val="space"/></w:lvl></w:abstractNum>'))
    numbering.append(parse_xml(f'<w:num xmlns:w="{W}" w:numId="7"><w:abstractNumId w:val="70"/></w:num>'))
    body = document.element.body
    for element in parse_xml(f'<w:body xmlns:w="{W}">{body_xml}</w:body>'):
        body.insert(len(body) - 1, element)  # before the section properties
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


_NUMBERED = '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr>{mark}</w:pPr>'


def _article(text: str, mark: str = "", wrapper: str = "") -> str:
    run = f"<w:r><w:t>{text}</w:t></w:r>"
    if wrapper:
        run = f'<w:{wrapper} w:id="9" w:author="审校">{run}</w:{wrapper}>'
    return f"<w:p>{_NUMBERED.format(mark=mark)}{run}</w:p>"


@pytest.mark.parametrize("removed", ["moveFrom", "del"])
def test_a_numbered_paragraph_moved_or_deleted_in_tracked_changes_is_not_counted(removed):
    inner = "delText" if removed == "del" else "t"
    mark = f'<w:rPr><w:{removed} w:id="8" w:author="审校"/></w:rPr>'
    gone = (f'<w:p>{_NUMBERED.format(mark=mark)}'
            f'<w:{removed} w:id="9" w:author="审校"><w:r><w:{inner}>本条移至他处。</w:{inner}></w:r></w:{removed}></w:p>')
    body = (_article("为了保护古村落，制定本条例。") + gone + _article("本条例适用于本市。")
            + _article("本条例自公布之日起施行。", '<w:rPr><w:moveTo w:id="10" w:author="审校"/></w:rPr>', "moveTo"))
    text = read_docx(_docx(body), "moved.docx").text
    assert text.split("\n") == ["第一条 为了保护古村落，制定本条例。", "第二条 本条例适用于本市。", "第三条 本条例自公布之日起施行。"]


def test_a_table_row_deleted_in_tracked_changes_is_not_read():
    """A row marked deleted (``w:trPr/w:del``) is deleted with its contents (ECMA-376 17.13.5.14),
    whether or not a producer marked its runs deleted too."""
    def row(cells: list[str], deleted: bool = False) -> str:
        props = '<w:trPr><w:del w:id="3" w:author="审校"/></w:trPr>' if deleted else ""
        runs = "".join(f"<w:tc><w:p><w:r><w:t>{c}</w:t></w:r></w:p></w:tc>" for c in cells)
        return f"<w:tr>{props}{runs}</w:tr>"
    table = ('<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>' + row(["项目", "结果"])
             + row(["白细胞计数", "5.2"]) + row(["误录项目", "0"], deleted=True) + row(["血红蛋白", "131"]) + "</w:tbl>")
    doc = read_docx(_docx(table), "rows.docx")
    assert doc.text.split("\n") == ["项目\t结果", "白细胞计数\t5.2", "血红蛋白\t131"]


# ---------------------------------------------------------------- what a file named .doc holds

_PAGE = ('<html xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta charset="utf-8">'
         '<meta name=ProgId content=Word.Document><!--[if gte mso 9]><xml><w:WordDocument></w:WordDocument></xml><![endif]-->'
         '</head><body><p>江临市示例条例</p><p>第一条 为了测试，制定本条例。</p><p>第二条 本条例自公布之日起施行。</p></body></html>')


@pytest.mark.parametrize("name", ["导出.doc", "导出.wps", "导出.docx"])
def test_a_web_page_saved_under_a_word_name_is_read_as_html(tmp_path, name):
    path = tmp_path / name
    path.write_text(_PAGE, encoding="utf-8")
    doc = read_document(path)
    assert doc.metadata["format"] == "html"
    assert doc.text.split("\n") == ["江临市示例条例", "第一条 为了测试，制定本条例。", "第二条 本条例自公布之日起施行。"]


def test_a_text_file_opening_with_a_tag_stays_text(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text(_PAGE, encoding="utf-8")
    assert "<p>" in read_document(path).text


_RTF = rb"{\rtf1\ansi\ansicpg936{\fonttbl{\f0 SimSun;}}\f0 \'b5\'da\'d2\'bb\'cc\'f5\par}"
_WORDML = (b'<?xml version="1.0"?><?mso-application progid="Word.Document"?>'
           b'<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml"><w:body/></w:wordDocument>')


@pytest.mark.parametrize("name, data, cause", [
    ("合同.rtf", _RTF, "RTF file"),
    ("合同.doc", _RTF, "RTF file"),  # what many systems' "export to Word" writes
    ("合同.doc", _WORDML, "Word 2003 XML"),
    ("合同.wps", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "WPS Office binary"),
])
def test_formats_without_a_reader_are_refused_by_name(tmp_path, name, data, cause):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ReadError) as err:
        read_document(path)
    assert str(path) in str(err.value) and cause in err.value.cause and ".docx" in err.value.cause


@pytest.mark.parametrize("name", ["条例.odt", "条例.docx"])
def test_an_opendocument_file_is_named_for_what_it_is(tmp_path, name):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", "<office:document-content/>")
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    with pytest.raises(ReadError, match="OpenDocument file .*opendocument.text.*save it as .docx"):
        read_document(path)


# ---------------------------------------------------------------- PDF


def test_a_wrap_short_of_a_margin_hung_with_punctuation_is_joined():
    """LibreOffice hangs a line's closing punctuation past the margin; where many lines do, the
    margin is where the others end, and a line that wrapped a char short of it goes on below."""
    doc = read_document(OFFICE / "judgment_执行裁定书_追加被执行人_文本_LibreOffice.pdf")
    line = next(line for line in doc.text.split("\n") if "请求追加" in line and "申请执行人" in line)
    assert "郗某丁为本案被执行人。" in line


# ---------------------------------------------------------------- what Word shows of a run


def _styled_docx(body_xml: str) -> bytes:
    """``_docx`` with a hidden character style (a template's prompt) and a hidden paragraph style."""
    from docx import Document
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import parse_xml

    document = Document(io.BytesIO(_docx(body_xml)))
    for name, kind in (("Prompt", WD_STYLE_TYPE.CHARACTER), ("Note", WD_STYLE_TYPE.PARAGRAPH)):
        document.styles.add_style(name, kind).element.get_or_add_rPr().append(parse_xml(f'<w:vanish xmlns:w="{W}"/>'))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_text_hidden_by_a_character_or_paragraph_style_is_not_read():
    body = ('<w:p><w:pPr><w:pStyle w:val="Note"/></w:pPr><w:r><w:t>第九条 模板说明，不打印。</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>第一条 可见的条文。</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Prompt"/></w:rPr><w:t>（填写提示）</w:t></w:r></w:p>'
            # shown again: a run of the hidden paragraph style whose own property turns Hidden off
            '<w:p><w:pPr><w:pStyle w:val="Note"/></w:pPr><w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>第二条 显示。</w:t></w:r></w:p>')
    assert read_docx(_styled_docx(body), "hidden.docx").text.split("\n") == ["第一条 可见的条文。", "第二条 显示。"]


@pytest.mark.parametrize("font, char, shown", [
    ("Wingdings 2", "F052", "☑"), ("Wingdings 2", "F0A3", "□"), ("Wingdings", "F0FE", "☑"), ("Wingdings", "F0A8", "◻"),
    ("Symbol", "F067", "γ"), ("Symbol", "F06D", "μ"), ("Symbol", "F0B1", "±"),
    ("Segoe UI Symbol", "2612", "☒"),  # a Unicode font's symbol is its code point
    ("Webdings", "F021", ""),  # a symbol font's glyph not known: left out, not made up
])
def test_a_symbol_inserted_from_a_font_is_its_character(font, char, shown):
    body = f'<w:p><w:r><w:t>过敏史：</w:t></w:r><w:r><w:sym w:font="{font}" w:char="{char}"/></w:r><w:r><w:t>有</w:t></w:r></w:p>'
    assert read_docx(_docx(body), "sym.docx").text == f"过敏史：{shown}有"


def test_a_row_starting_grid_columns_in_keeps_its_cells_under_their_columns():
    cells = lambda *texts: "".join(f"<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>" for t in texts)  # noqa: E731
    table = ('<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>'
             f'<w:tr>{cells("检验组合", "项目", "结果")}</w:tr><w:tr>{cells("血常规", "白细胞计数", "5.2")}</w:tr>'
             f'<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>{cells("血红蛋白", "131")}</w:tr></w:tbl>')
    rows = [line.split("\t") for line in read_docx(_docx(table), "grid.docx").text.split("\n")]
    assert rows[-1] == ["", "血红蛋白", "131"]


def test_a_ruby_is_read_as_its_base_text_without_its_phonetic_guide():
    body = ('<w:p><w:r><w:t>患者</w:t></w:r><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>zhāng</w:t></w:r></w:rt>'
            '<w:rubyBase><w:r><w:t>张</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:t>某某</w:t></w:r></w:p>')
    assert read_docx(_docx(body), "ruby.docx").text == "患者张某某"


def test_a_pdf_locked_only_against_editing_is_read():
    """A PDF with an owner password and no user password (printing allowed, copying not: as many
    official PDFs are published) opens without one, and is read."""
    from reportlab.lib import pdfencrypt
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    from domainchunk.readers.pdf import read_pdf

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    locked = pdfencrypt.StandardEncryption("", ownerPassword="owner", canPrint=1, canModify=0, canCopy=0, strength=128)
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, encrypt=locked)
    page.setFont("STSong-Light", 12)
    page.drawString(72, 720, "第一条 为了测试，制定本办法。")
    page.showPage()
    page.save()
    assert read_pdf(buffer.getvalue(), "locked.pdf").text == "第一条 为了测试，制定本办法。"
