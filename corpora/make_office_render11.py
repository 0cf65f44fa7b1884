"""Word files as other producers and other review habits write them (round eleven).

Each file is one of the committed renderings of ``corpora/office`` (or a corpora text) as a
producer the earlier scripts do not cover writes it, so the gold of its source applies:

* Strict Open XML (Word's "Strict Open XML Document", ISO/IEC 29500 Strict): the same parts under
  other namespace and relationship names (``http://purl.oclc.org/ooxml/…``), a statute whose
  articles are Word's list numbers and a lab report whose panel column is merged down;
* a contract saved as a macro-enabled document (``.docm``: another main part content type);
* a statute after review with tracked changes on, an article moved up and back (its old place a
  ``w:moveFrom`` paragraph whose mark is moved too: Word neither shows nor counts it);
* a record exported by a web EMR's "export to Word": an HTML page (Word's HTML dialect, with
  ``xmlns:w`` and ``ProgId Word.Document``) in a file named ``.doc``;
* a form-style admission record from a hospital template: its check boxes inserted as symbols
  (``w:sym`` of Wingdings 2: R a ticked box, £ an empty one), the template's prompts hidden
  (Font > Hidden) by a character style and a paragraph style, as the template set them;
* a judgment typed as a text file, opened in LibreOffice and printed to PDF (a monospaced body,
  punctuation hanging past the right margin on many lines; committed, as CI has no LibreOffice).

The DOCX, DOCM and DOC files are byte for byte the same on every run. Run:
``python corpora/make_office_render11.py``.
"""
from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs_word import _package, para, run  # noqa: E402

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
_DATE = (2024, 3, 1, 0, 0, 0)

# Transitional names → Strict names, as Word writes a Strict file.
_STRICT = (
    (b"http://schemas.openxmlformats.org/wordprocessingml/2006/main", b"http://purl.oclc.org/ooxml/wordprocessingml/main"),
    (b"http://schemas.openxmlformats.org/officeDocument/2006/relationships", b"http://purl.oclc.org/ooxml/officeDocument/relationships"),
    (b"http://schemas.openxmlformats.org/drawingml/2006/main", b"http://purl.oclc.org/ooxml/drawingml/main"),
    (b"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing", b"http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"),
)
_MAIN = b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_MACRO_MAIN = b"application/vnd.ms-word.document.macroEnabled.main+xml"


def _rezip(source: str, target: str, change) -> None:
    """``source`` (a committed office file) rewritten member by member by ``change(name, bytes)``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(OUT / source) as original, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in original.namelist():
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, change(name, original.read(name)))
    (OUT / target).write_bytes(buffer.getvalue())
    _copy_gold(OUT / f"{source}.gold.json", target)


def _copy_gold(gold: Path, target: str) -> None:
    (OUT / f"{target}.gold.json").write_text(gold.read_text(encoding="utf-8"), encoding="utf-8")


def _strict(name: str, data: bytes) -> bytes:
    if name.endswith((".xml", ".rels")):
        for transitional, strict in _STRICT:
            data = data.replace(transitional, strict)
    return data


def _macro_enabled(name: str, data: bytes) -> bytes:
    return data.replace(_MAIN, _MACRO_MAIN) if name == "[Content_Types].xml" else data


# A numbered article paragraph of the list-numbered statute (numId 4, level 0), its runs after.
_ARTICLE = re.compile(rb'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr>(.*?)</w:pPr>(.*?)</w:p>')
_MOVE = b'w:author="\xe5\xae\xa1\xe6\xa0\xa1" w:date="2024-03-01T00:00:00Z"'  # author 审校


def _moved_article(name: str, data: bytes) -> bytes:
    """The ninth article moved up before the fourth with tracked changes on, then moved back: Word
    leaves the copy above as a moved-away paragraph (runs in ``w:moveFrom``, its mark moved
    too) and the text below in ``w:moveTo``; the document reads as before."""
    if name != "word/document.xml":
        return data
    articles = list(_ARTICLE.finditer(data))
    before, moved = articles[3], articles[8]
    props, runs = moved.group(1), moved.group(2)
    away = (b'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr>' + props
            + b'<w:rPr><w:moveFrom w:id="901" ' + _MOVE + b'/></w:rPr></w:pPr>'
            + b'<w:moveFromRangeStart w:id="902" w:name="move1" ' + _MOVE + b'/>'
            + b'<w:moveFrom w:id="903" ' + _MOVE + b'>' + runs + b'</w:moveFrom><w:moveFromRangeEnd w:id="902"/></w:p>')
    here = (b'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr>' + props
            + b'<w:rPr><w:moveTo w:id="904" ' + _MOVE + b'/></w:rPr></w:pPr>'
            + b'<w:moveToRangeStart w:id="905" w:name="move1" ' + _MOVE + b'/>'
            + b'<w:moveTo w:id="906" ' + _MOVE + b'>' + runs + b'</w:moveTo><w:moveToRangeEnd w:id="905"/></w:p>')
    return (data[:before.start()] + away + data[before.start():moved.start()] + here + data[moved.end():])


def _word_html_doc(source: str, target: str) -> None:
    """A corpora text as a web EMR's "export to Word" writes it: Word's HTML dialect, one ``<p>``
    a line (an empty one ``&nbsp;``), tab-separated lines a table, saved as ``.doc``."""
    lines = (CORPORA / source).read_text(encoding="utf-8").splitlines()
    body: list[str] = []
    rows: list[str] = []
    for line in lines:
        if "\t" in line:
            rows.append("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in line.split("\t")) + "</tr>")
            continue
        if rows:
            body.append('<table class=MsoTableGrid border=1 cellspacing=0>' + "".join(rows) + "</table>")
            rows = []
        text = html.escape(line.lstrip("#").strip()) if line.strip() else "&nbsp;"
        body.append(f"<p class=MsoNormal>{text}</p>")
    if rows:
        body.append('<table class=MsoTableGrid border=1 cellspacing=0>' + "".join(rows) + "</table>")
    page = ('<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40">\n'
            '<head><meta http-equiv=Content-Type content="text/html; charset=utf-8">'
            '<meta name=ProgId content=Word.Document><meta name=Generator content="Microsoft Word 15">'
            '<!--[if gte mso 9]><xml><w:WordDocument><w:View>Print</w:View></w:WordDocument></xml><![endif]-->'
            '<style>p.MsoNormal{margin:0cm;font-size:12.0pt;font-family:宋体}</style></head>\n'
            '<body lang=ZH-CN style="tab-interval:21.0pt"><div class=WordSection1>\n' + "\n".join(body) + "\n</div></body></html>\n")
    (OUT / target).write_bytes(page.encode("utf-8"))
    _copy_gold(CORPORA / f"{source}.gold.json", target)


# The template's two hidden styles: a character style for prompts inside a line, a paragraph
# style for a whole prompt paragraph (neither shown nor printed where Hidden text is off).
_HIDDEN_STYLES = ('<w:style w:type="character" w:styleId="TemplatePrompt"><w:name w:val="模板提示"/>'
                  '<w:rPr><w:vanish/><w:color w:val="808080"/></w:rPr></w:style>'
                  '<w:style w:type="paragraph" w:styleId="TemplateNote"><w:name w:val="模板说明"/><w:basedOn w:val="Normal"/>'
                  '<w:rPr><w:vanish/><w:i/></w:rPr></w:style>')
_BOXES = {"☑": '<w:r><w:sym w:font="Wingdings 2" w:char="F052"/></w:r>', "□": '<w:r><w:sym w:font="Wingdings 2" w:char="F0A3"/></w:r>'}


def _boxed_runs(line: str) -> str:
    """A line's runs, each check box a Wingdings 2 symbol, a hidden prompt after a line of boxes."""
    runs = "".join(_BOXES.get(piece) or run(piece) for piece in re.split("([☑□])", line) if piece)
    if any(box in line for box in _BOXES):
        runs += f'<w:r><w:rPr><w:rStyle w:val="TemplatePrompt"/></w:rPr><w:t xml:space="preserve">（请在符合项前勾选，第{len(line) % 7 + 1}项必填）</w:t></w:r>'
    return runs


def _checkbox_record_docx(source: str, target: str) -> None:
    """A form-style record from a hospital's Word template (see the module's docstring): each
    line a paragraph, its boxes symbols; a hidden note paragraph after the title and before each
    blank line's next section."""
    body: list[str] = []
    note = '<w:pPr><w:pStyle w:val="TemplateNote"/></w:pPr>'
    for index, line in enumerate((CORPORA / source).read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            body.append(para(""))
            body.append(f'<w:p>{note}{run("模板说明：本栏由经治医师填写，无内容时填“无”。")}</w:p>')
            continue
        body.append(para(_boxed_runs(line), style="Title" if index == 1 else None))
    data = _package("".join(body))
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as original, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in original.namelist():
            member = original.read(name)
            if name == "word/styles.xml":
                member = member.replace(b"</w:styles>", _HIDDEN_STYLES.encode() + b"</w:styles>")
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member)
    (OUT / target).write_bytes(buffer.getvalue())
    _copy_gold(CORPORA / f"{source}.gold.json", target)


def _libreoffice_text_print(source: str, target: str) -> None:
    """A corpora text opened in LibreOffice as text and printed to PDF (skipped without soffice)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        print(f"soffice not found: {target} not rebuilt")
        return
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "source.txt"
        shutil.copy(CORPORA / source, text)
        subprocess.run([soffice, "--headless", "--infilter=Text (encoded):UTF8,,,", "--convert-to", "docx:MS Word 2007 XML",
                        "--outdir", tmp, str(text)], check=True, capture_output=True)
        subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", tmp, str(Path(tmp) / "source.docx")],
                       check=True, capture_output=True)
        shutil.copy(Path(tmp) / "source.pdf", OUT / target)
    _copy_gold(CORPORA / f"{source}.gold.json", target)


def main() -> None:
    _rezip("statute_江临市古村落保护条例_列表自动编号_Word.docx", "statute_江临市古村落保护条例_列表自动编号_Strict_Word.docx", _strict)
    _rezip("lab_住院检验汇总_单表组合列纵向合并_Word.docx", "lab_住院检验汇总_单表组合列纵向合并_Strict_Word.docx", _strict)
    _rezip("contract_示例软件开发合同.docx", "contract_示例软件开发合同_启用宏.docm", _macro_enabled)
    _rezip("statute_江临市古村落保护条例_列表自动编号_Word.docx", "statute_江临市古村落保护条例_修订移动条文_Word.docx", _moved_article)
    _checkbox_record_docx("emr_表格式入院记录_勾选项.txt", "emr_表格式入院记录_勾选项_符号勾选框隐藏提示_Word.docx")
    _word_html_doc("emr_24小时内入出院记录.txt", "emr_24小时内入出院记录_网页导出Word.doc")
    _libreoffice_text_print("judgment_执行裁定书_追加被执行人.txt", "judgment_执行裁定书_追加被执行人_文本_LibreOffice.pdf")


if __name__ == "__main__":
    main()
