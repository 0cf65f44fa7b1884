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
import tempfile
import zipfile
from pathlib import Path

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
    _word_html_doc("emr_24小时内入出院记录.txt", "emr_24小时内入出院记录_网页导出Word.doc")
    _libreoffice_text_print("judgment_执行裁定书_追加被执行人.txt", "judgment_执行裁定书_追加被执行人_文本_LibreOffice.pdf")


if __name__ == "__main__":
    main()
