"""Word and PDF files of layouts and producers the earlier scripts do not cover (round eleven).

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
  article level never restarting: LibreOffice restarts it at each chapter, so its print is not
  kept);
* a statute set in two columns by a borderless table of one row (its LibreOffice print, the row
  split over pages, reads the cells' page halves in turn and is not kept);
* Chromium's prints of web pages: a judgment and a record with a running header and footer (a
  ``<thead>`` / ``<tfoot>`` frame the browser repeats on every page: lower on page 1 by the
  body's margin, the footer under the last page's body), a record whose headings are only bold,
  a law whose chapter headings span two columns of articles, a lab report typed as preformatted
  text (columns aligned by spaces) and one in a table without rules under a running patient header.

The DOCX files are byte for byte the same on every run; the PDFs are committed (CI has neither
LibreOffice nor Chromium). Run: ``python corpora/make_office_render12.py``.
"""
from __future__ import annotations

import html
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs import LAB_COLUMNS, LAB_PANELS, LAB_PATIENT, Unit, write_gold  # noqa: E402
from make_office_docs_word import _BODY, _cell, _package, _row, para, run, sdt_block  # noqa: E402
from make_office_prints_browser import GAP, _HEAD_CSS, _chromium, _document_body, _page, _paragraph  # noqa: E402
from make_office_prints_browser import _lines as _page_lines  # noqa: E402

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


# ---------------------------------------------------------------- a corpora text, re-rendered


def _text_lines(name: str) -> list[str]:
    return (CORPORA / name).read_text(encoding="utf-8").splitlines()


def _copy_gold(source: str, target: str) -> None:
    (OUT / f"{target}.gold.json").write_text((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


def _gold_labels(source: str) -> set[str]:
    """The innermost path elements of the source's gold: the headings its units open with."""
    gold = json.loads((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"))
    return {unit["path"][-1] for unit in gold["units"] if unit["path"]}


_DECORATION = re.compile(r"^(?:[一二三四五六七八九十]+、|[0-9]+[.、．])|[：:]$|[【】]")


def _is_heading(text: str, labels: set[str]) -> bool:
    """The line is one of ``labels`` as a heading line writes it (``一、``, ``【】`` or a colon around it)."""
    return _DECORATION.sub("", text) in labels


def _signature_line(source: str, lines: list[str]) -> int:
    """The line the source's signature block (its gold unit with an empty path) opens."""
    gold = json.loads((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"))
    anchor = next(unit["anchor"] for unit in gold["units"] if not unit["path"])
    squash = lambda text: re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))  # noqa: E731
    return next(i for i, line in enumerate(lines) if line.strip() and squash(anchor).startswith(squash(line)[:6]))


def _with_styles(data: bytes, styles: str) -> bytes:
    """``data`` (a package ``_package`` wrote) with paragraph ``styles`` added to styles.xml."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            member = src.read(info.filename)
            if info.filename == "word/styles.xml":
                member = member.replace(b"</w:styles>", styles.encode("utf-8") + b"</w:styles>")
            dst.writestr(info, member)
    return out.getvalue()


_FIELD = re.compile(r"^([^：:\t　 ]{1,8})([：:])(.*)$")
_HEADER_FIELD = re.compile(r"([^：　 ]{1,6})：([^　 ]*)")


def _control(inner: str, tag: str, kind: str = "") -> str:
    """An inline content control (rich text; ``kind`` a date picker or a drop-down list)."""
    extra = {"date": '<w:date w:fullDate="2025-02-17T00:00:00Z"><w:dateFormat w:val="yyyy-MM-dd HH:mm"/><w:lid w:val="zh-CN"/></w:date>',
             "list": '<w:dropDownList><w:listItem w:displayText="男" w:value="1"/><w:listItem w:displayText="女" w:value="2"/></w:dropDownList>'}.get(kind, "")
    return (f'<w:sdt><w:sdtPr><w:alias w:val="{escape(tag)}"/><w:tag w:val="{escape(tag)}"/>{extra}</w:sdtPr>'
            f'<w:sdtContent>{inner}</w:sdtContent></w:sdt>')


def emr_content_controls_docx(source: str, target: str) -> None:
    """An EMR template's record: every section a block content control around its paragraph, the
    section name and its text each an inline control in it; the header's fields controls too."""
    labels = _gold_labels(source)
    body = ""
    for line in _text_lines(source):
        text = line.strip()
        if not text:
            body += para("")
            continue
        field = _FIELD.match(text)
        if field and field.group(1) in labels:  # a section: heading control + content control
            name, colon, rest = field.groups()
            inner = _control(run(name + colon, bold=True), "节名") + (_control(run(rest), name) if rest else "")
            body += sdt_block(para(inner), name)
        elif _is_heading(text, labels):
            body += sdt_block(para(_control(run(text, bold=True), "节名")), text)
        elif len(_HEADER_FIELD.findall(text)) >= 2:  # a header line of fields
            pieces, at = [], 0
            for match in _HEADER_FIELD.finditer(text):
                pieces.append(run(text[at:match.start()]) if match.start() > at else "")
                kind = "date" if "时间" in match.group(1) else "list" if match.group(1) == "性别" else ""
                pieces.append(run(match.group(1) + "：") + _control(run(match.group(2)), match.group(1), kind))
                at = match.end()
            pieces.append(run(text[at:]))
            body += para("".join(pieces))
        else:
            body += para(run(text))
    (OUT / target).write_bytes(_package(body))
    _copy_gold(source, target)


_TOC_STYLES = "".join(
    f'<w:style w:type="paragraph" w:styleId="TOC{n}"><w:name w:val="toc {n}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>'
    f'<w:uiPriority w:val="39"/><w:unhideWhenUsed/><w:pPr><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="8296"/></w:tabs>'
    f'<w:ind w:leftChars="{(n - 1) * 200}" w:left="{(n - 1) * 420}"/></w:pPr></w:style>' for n in (1, 2)) + (
    '<w:style w:type="paragraph" w:styleId="TOCHeading"><w:name w:val="TOC Heading"/><w:basedOn w:val="Heading1"/>'
    '<w:next w:val="Normal"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>')
_CHAPTER = re.compile(r"^第[一二三四五六七八九十]+章[　 ]")
_ANNEX = re.compile(r"^附件[一二三四五六七八九十]+[　 ]")


def _fld(instruction: str, result: str) -> str:
    """A complex field (begin, instruction, separate, its cached result, end)."""
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {escape(instruction)} </w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{run(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def contract_fields_toc_docx(source: str, target: str, fields: dict[str, str], *, styled: bool = True) -> None:
    """A contract under Word's table of contents (a TOC field whose cached result lists the
    chapters and annexes with their pages, in a Table of Contents content control), its chapters
    Heading 1 paragraphs with the TOC's bookmarks, the parties' names and dates ``w:fldSimple``
    DOCPROPERTY fields (``fields``: text -> property), references to an annex REF fields. Not
    ``styled``: the field's result in plain paragraphs with a right tab and dot leader, no TOC
    style nor content control, as WPS and converters write a table of contents field."""
    lines = _text_lines(source)
    headings = [line.strip() for line in lines if _CHAPTER.match(line.strip()) or _ANNEX.match(line.strip())]
    toc, page = [], 1
    for index, heading in enumerate(headings):
        page += 1 if index % 2 else 0
        level = 1
        reference = _fld(f"PAGEREF _Toc{1000 + index} " + "\\h", str(page))
        link = f'<w:hyperlink w:anchor="_Toc{1000 + index}" w:history="1">{run(heading)}<w:r><w:tab/></w:r>{reference}</w:hyperlink>'

        begin = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h \\z \\u </w:instrText></w:r>'
                 '<w:r><w:fldChar w:fldCharType="separate"/></w:r>') if index == 0 else ""
        end = '<w:r><w:fldChar w:fldCharType="end"/></w:r>' if index == len(headings) - 1 else ""
        toc.append(para(begin + link + end, style=f"TOC{level}" if styled else None, extra='<w:tabs><w:tab w:val="right" w:leader="dot" w:pos="8296"/></w:tabs>'))
    gallery = ('<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr>'
               f'<w:sdtContent>{para(run("目录"), style="TOCHeading")}{"".join(toc)}</w:sdtContent></w:sdt>'
               if styled else para(run("目　录", bold=True), extra='<w:jc w:val="center"/>') + "".join(toc))
    pattern = re.compile("|".join([*(re.escape(k) for k in sorted(fields, key=len, reverse=True)), r"附件[一二三四五六七八九十]+(?=《)"]))
    body, bookmark = "", 0
    for number, line in enumerate(lines):
        text = line.strip()
        if number == 0:
            body += para(run(text, bold=True), style="Title") + gallery
            continue
        if not text:
            body += para("")
            continue
        if text in headings:
            body += para(f'<w:bookmarkStart w:id="{bookmark}" w:name="_Toc{1000 + bookmark}"/>{run(text)}<w:bookmarkEnd w:id="{bookmark}"/>',
                         style="Heading1")
            bookmark += 1
            continue
        pieces, at = [], 0
        for match in pattern.finditer(text):
            pieces.append(run(text[at:match.start()]))
            found = match.group()
            if found in fields:
                pieces.append(f'<w:fldSimple w:instr=" DOCPROPERTY {fields[found]} \\* MERGEFORMAT ">{run(found)}</w:fldSimple>')
            else:
                pieces.append(_fld(f"REF _Ref{found} " + "\\h", found))
            at = match.end()
        pieces.append(run(text[at:]))
        body += para("".join(pieces), extra=_BODY if _CHAPTER.match(text) is None else "")
    (OUT / target).write_bytes(_with_styles(_package(body), _TOC_STYLES))
    _copy_gold(source, target)


_CLAUSE = re.compile(r"^第[0-9０-９一二三四五六七八九十]+条")


def _section_end(columns: int) -> str:
    """The properties closing a section of ``columns`` text columns, the next one on the same page."""
    return ('<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838"/>'
            '<w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/>'
            f'<w:cols w:num="{columns}" w:space="425"/></w:sectPr>')


def contract_two_column_section_docx(source: str, target: str) -> None:
    """The title and parties in one column, the clauses in two (a continuous section break before
    and after them), the signature block in one column again."""
    lines = _text_lines(source)
    first = next(i for i, line in enumerate(lines) if _CLAUSE.match(line.strip()))
    last = max(i for i, line in enumerate(lines[:_signature_line(source, lines)]) if line.strip())
    body = ""
    for number, line in enumerate(lines):
        text = line.strip()
        extra = _section_end(1) if number == first - 1 else _section_end(2) if number == last else ""
        if not text:
            body += para("", extra=extra)
        elif number == 0:
            body += para(run(text, bold=True), style="Title", extra=extra)
        else:
            body += para(run(text, bold=bool(_CLAUSE.match(text)) and len(text) < 20), extra=(_BODY if number >= first else "") + extra)
    (OUT / target).write_bytes(_package(body))
    _copy_gold(source, target)


def emr_direct_headings_docx(source: str, target: str) -> None:
    """A record whose section headings are set by hand: bold, 14 pt, centred, in Normal paragraphs
    (no heading style, no outline level), as a doctor formats a typed record."""
    labels = _gold_labels(source)
    body = ""
    for number, line in enumerate(_text_lines(source)):
        text = line.strip()
        if not text:
            body += para("")
        elif _is_heading(text, labels):
            body += (f'<w:p><w:pPr><w:spacing w:before="120" w:after="60"/><w:jc w:val="center"/></w:pPr>'
                     f'<w:r><w:rPr><w:b/><w:bCs/><w:sz w:val="28"/><w:szCs w:val="28"/></w:rPr><w:t>{escape(text)}</w:t></w:r></w:p>')
        elif number < 2:  # the hospital and the record's name, as the template centres them
            body += (f'<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val="{36 if number else 32}"/></w:rPr>'
                     f'<w:t>{escape(text)}</w:t></w:r></w:p>')
        else:
            body += para(run(text), extra=_BODY)
    (OUT / target).write_bytes(_package(body))
    _copy_gold(source, target)


_ARTICLE = re.compile(r"^第[一二三四五六七八九十百零]+条[　 ]*")
_CHAPTER_LABEL = re.compile(r"^第[一二三四五六七八九十]+章[　 ]*")
_MULTILEVEL = ('<w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/>'
               '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1章"/>'
               '<w:lvlJc w:val="center"/><w:suff w:val="space"/></w:lvl>'
               '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/><w:lvlRestart w:val="0"/>'
               '<w:lvlText w:val="第%2条"/><w:lvlJc w:val="left"/><w:suff w:val="space"/>'
               '<w:pPr><w:ind w:firstLine="480"/></w:pPr></w:lvl>'
               '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')


def statute_multilevel_list_docx(source: str, target: str) -> None:
    """Chapters and articles numbered by ONE multi-level list: level 1 ``第%1章``, level 2
    ``第%2条`` (``w:lvlRestart 0``: articles run on across chapters, as a law numbers them);
    the labels are Word's, not the text's."""
    body = ""
    for number, line in enumerate(_text_lines(source)):
        text = line.strip()
        if not text:
            body += para("")
        elif _CHAPTER_LABEL.match(text):
            body += para(run(_CHAPTER_LABEL.sub("", text), bold=True), numpr=(1, 0), extra='<w:jc w:val="center"/>')
        elif _ARTICLE.match(text):
            body += para(run(_ARTICLE.sub("", text)), numpr=(1, 1))
        else:
            body += para(run(text, bold=text.endswith("条例")), extra='<w:jc w:val="center"/>' if text.endswith("条例") else "")
    (OUT / target).write_bytes(_package(body, numbering=_MULTILEVEL))
    _copy_gold(source, target)


_NO_BORDERS = ('<w:tblBorders>' + "".join(f'<w:{side} w:val="nil"/>' for side in ("top", "left", "bottom", "right", "insideH", "insideV"))
               + '</w:tblBorders>')


def statute_layout_table_docx(source: str, target: str) -> None:
    """A gazette page set in two columns by a borderless table of one row and two cells (an
    older template's way, before section columns): the title above it, the body's first half
    in the left cell, the rest in the right cell, paragraph by paragraph."""
    lines = [line.strip() for line in _text_lines(source)]
    title = next(i for i, line in enumerate(lines) if line.endswith(("办法", "条例", "规定")))
    body = [line for line in lines[title + 1:]]
    half = len(body) // 2
    while half < len(body) and not _CHAPTER_LABEL.match(body[half]):  # the right column opens with a chapter
        half += 1
    cell = lambda part: "<w:tc><w:tcPr><w:tcW w:w=\"4150\" w:type=\"dxa\"/></w:tcPr>" + "".join(  # noqa: E731
        para(run(text, bold=bool(_CHAPTER_LABEL.match(text))), extra='<w:jc w:val="center"/>' if _CHAPTER_LABEL.match(text) else _BODY)
        if text else para("") for text in part) + "</w:tc>"
    table = (f'<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/>{_NO_BORDERS}<w:tblLayout w:type="fixed"/></w:tblPr>'
             '<w:tblGrid><w:gridCol w:w="4150"/><w:gridCol w:w="4150"/></w:tblGrid>'
             f"<w:tr>{cell(body[:half])}{cell(body[half:])}</w:tr></w:tbl>")
    head = "".join(para(run(text, bold=i == title), style="Title" if i == title else None) if text else para("")
                   for i, text in enumerate(lines[:title + 1]))
    (OUT / target).write_bytes(_package(head + table + para("")))
    _copy_gold(source, target)


# ---------------------------------------------------------------- prints


def libreoffice_pdfs(names: list[str]) -> None:
    """Each DOCX here printed to PDF by LibreOffice, its gold beside it."""
    soffice = shutil.which("soffice")
    if soffice is None:
        print("soffice not found: the committed PDFs are kept", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{tmp}/profile", "--convert-to", "pdf",
                            "--outdir", tmp, str(OUT / name)], check=True, capture_output=True, timeout=300)
            target = Path(name).stem + "_LibreOffice.pdf"
            (OUT / target).write_bytes((Path(tmp) / (Path(name).stem + ".pdf")).read_bytes())
            (OUT / f"{target}.gold.json").write_text((OUT / f"{name}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


def _running(header: str, footer: str, body: str) -> str:
    """A page whose header and footer repeat on every printed page: a table's ``<thead>`` and
    ``<tfoot>``, which the browser prints at the top and the bottom of each page, around the body."""
    return (f'<table class="frame"><thead><tr><td class="hdr">{html.escape(header)}</td></tr></thead>'
            f'<tfoot><tr><td class="ftr">{html.escape(footer)}</td></tr></tfoot>'
            f"<tbody><tr><td>{body}</td></tr></tbody></table>")


_RUNNING_CSS = (_HEAD_CSS + " p { margin: 0; text-indent: 2em; text-align: justify; } table.frame { width: 100%; border-collapse: collapse; }"
                " td.hdr { border-bottom: 0.6pt solid #000; font-size: 9pt; padding-bottom: 4pt; text-align: center; }"
                " td.ftr { border-top: 0.6pt solid #000; font-size: 9pt; padding-top: 4pt; text-align: center; }"
                " thead { display: table-header-group; } tfoot { display: table-footer-group; }")


def _bold_headings_body(lines: list[str], labels: set[str]) -> str:
    """A record as a web EMR prints it: its headings only bold, the size and place of body text."""
    out = []
    for index, line in enumerate(lines):
        text = line.removeprefix(GAP)
        if index < 2:
            out.append(_paragraph("p", line, "head"))
        elif _is_heading(text, labels):
            out.append(f"<p><b>{html.escape(text)}</b></p>")
        else:
            out.append(_paragraph("p", line))
    return "".join(out)


def _width(text: str) -> int:
    """Columns a monospaced CJK font gives ``text``: an ideograph or full-width sign two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(1, width - _width(text))


SPACED_PATIENT = ["澜沧市妇幼保健院检验科　检验报告",
                  "姓名：岑某某    性别：女    年龄：33岁    门诊号：LC2026120544    科别：产科门诊",
                  "临床诊断：孕28周    送检医生：滕某"]
SPACED_COLUMNS = ("代号", "项目名称", "结果", "单位", "参考范围")
SPACED_PANELS = [
    ("糖耐量试验（OGTT 75g）", "标本：静脉血浆", [
        ("GLU0", "空腹血糖", "5.32 ↑", "mmol/L", "<5.1"), ("GLU1", "服糖后1小时血糖", "10.46 ↑", "mmol/L", "<10.0"),
        ("GLU2", "服糖后2小时血糖", "8.21", "mmol/L", "<8.5")]),
    ("甲状腺功能", "标本：血清", [
        ("TSH", "促甲状腺激素", "2.84", "mIU/L", "0.27-4.2"), ("FT3", "游离三碘甲状腺原氨酸", "4.12", "pmol/L", "3.1-6.8"),
        ("FT4", "游离甲状腺素", "11.6 ↓", "pmol/L", "12-22"), ("TPOAb", "甲状腺过氧化物酶抗体", "18.2", "IU/mL", "<34")]),
    ("尿常规", "标本：中段尿", [
        ("COL", "颜色", "淡黄色", "", "淡黄色"), ("SG", "比重", "1.018", "", "1.003-1.030"),
        ("PH", "酸碱度", "6.5", "", "4.5-8.0"), ("PRO", "尿蛋白", "阴性", "", "阴性"), ("GLU", "尿糖", "弱阳性(±)", "", "阴性"),
        ("KET", "酮体", "阴性", "", "阴性"), ("WBC", "白细胞", "12", "/μL", "0-25")]),
    ("血常规", "标本：EDTA抗凝全血", [
        ("WBC", "白细胞计数", "9.62", "10^9/L", "3.5-9.5"), ("NEUT%", "中性粒细胞百分比", "76.8 ↑", "%", "40-75"),
        ("HGB", "血红蛋白", "108 ↓", "g/L", "115-150"), ("PLT", "血小板计数", "198", "10^9/L", "125-350")]),
]
SPACED_SIGNED = "检验者：敖某    审核者：闭某    报告时间：2026-12-05 11:02"
_WIDTHS = (8, 24, 12, 10, 12)


def lab_space_aligned_page() -> tuple[str, list[Unit]]:
    """A LIS's print as preformatted text: each panel's name and specimen on a line, its columns
    aligned by spaces under a column-name line, no rules, in a monospaced font."""
    lines = [*SPACED_PATIENT, ""]
    units = []
    for name, specimen, items in SPACED_PANELS:
        block = [f"{name}    {specimen}", "".join(_pad(c, w) for c, w in zip(SPACED_COLUMNS, _WIDTHS)).rstrip()]
        block += ["".join(_pad(c, w) for c, w in zip(item, _WIDTHS)).rstrip() for item in items]
        lines += [*block, "-" * 66, ""]
        units.append(Unit([name], [*block, "-" * 66]))
    lines.append(SPACED_SIGNED)
    units[-1].lines.append(SPACED_SIGNED)
    css = ' pre { font-family: "Noto Sans Mono CJK SC", monospace; font-size: 10.5pt; line-height: 1.5; }'
    return _page(SPACED_PATIENT[0], css, f"<pre>{html.escape(chr(10).join(lines))}</pre>"), units


_CHAPTER_LINE = re.compile(r"^第[一二三四五六七八九十]+[章节]")


def _gazette_body(lines: list[str]) -> str:
    """A law as a gazette's web edition sets it: chapter headings across the page
    (``column-span: all``), the articles between them in two columns."""
    out, open_ = [_paragraph("h1", lines[0])], False
    for line in lines[1:]:
        if _CHAPTER_LINE.match(line.removeprefix(GAP).strip()):
            out.append(("</div>" if open_ else "") + _paragraph("h2", line.strip()) + '<div class="cols">')
            open_ = True
        else:
            out.append(_paragraph("p", line))
    return "".join(out) + ("</div>" if open_ else "")


_GAZETTE_CSS = (" h1 { font-size: 18pt; text-align: center; } h2 { font-size: 13pt; text-align: center; margin: 0.8em 0 0.4em; }"
                " .cols { column-count: 2; column-gap: 1.5em; column-rule: 0.5pt solid #999; }"
                " p { margin: 0.2em 0; text-indent: 2em; text-align: justify; }")


def _borderless_lab_body() -> tuple[str, list[Unit]]:
    """All panels in one table without rules: a panel's name in a bold cell spanning the row, the
    column names in a ``<thead>`` (repeated on every page), cells aligned by the table alone."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in LAB_COLUMNS)
    rows, units = [], []
    for panel, specimen, items in LAB_PANELS:
        caption = f"{panel}（{specimen}）"
        rows.append(f'<tr><td class="panel" colspan="{len(LAB_COLUMNS)}">{html.escape(caption)}</td></tr>')
        rows += ["<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in item) + "</tr>" for item in items]
        units.append(Unit([panel], [caption, *("".join(item) for item in items)]))
    return f"<table class=\"results\"><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>", units


_BORDERLESS_CSS = (_RUNNING_CSS + " table.results { border-collapse: collapse; width: 100%; margin-top: 0.5em; }"
                   " table.results th, table.results td { border: none; padding: 1pt 4pt; font-size: 10pt; text-align: left; text-indent: 0; }"
                   " table.results td.panel { font-weight: bold; padding-top: 6pt; } table.results tr { break-inside: avoid; }"
                   " p.pt { text-indent: 0; margin: 0.1em 0; }")


def chromium_pdfs() -> None:
    if shutil.which("chromium") is None:
        print("chromium not found: the committed PDFs are kept", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        source = "judgment_民事判决书_离婚纠纷_事实分项.txt"
        lines = _page_lines(source)
        page = _page(lines[1], _RUNNING_CSS, _running("石梁县人民法院　（2024）石0322民初1905号　民事判决书",
                                                      "本文书由审判管理系统打印　仅供当事人及诉讼参与人查阅", _document_body(lines, 3)))
        target = "judgment_民事判决书_离婚纠纷_网页页眉页脚逐页_Chromium.pdf"
        _chromium(target, page, ["--no-pdf-header-footer"], Path(tmp))
        _copy_gold(source, target)
        source = "emr_出院记录_标题独占行无冒号.txt"
        lines = _page_lines(source)
        target = "emr_出院记录_标题仅加粗_Chromium.pdf"
        _chromium(target, _page(lines[1], _HEAD_CSS + " p { margin: 0.2em 0; }", _bold_headings_body(lines, _gold_labels(source))),
                  ["--no-pdf-header-footer"], Path(tmp))
        _copy_gold(source, target)
        source = "statute_示范自治县民族文化保护单行条例_章节.txt"
        lines = _page_lines(source)
        target = "statute_示范自治县民族文化保护单行条例_章名通栏条文两栏_Chromium.pdf"
        _chromium(target, _page(lines[0], _GAZETTE_CSS, _gazette_body(lines)), ["--no-pdf-header-footer"], Path(tmp))
        _copy_gold(source, target)
        table, units = _borderless_lab_body()
        patient = "".join(f'<p class="pt">{html.escape(line)}</p>' for line in LAB_PATIENT[1:])
        target = "lab_住院检验汇总_无框线表格_病人信息页眉逐页_Chromium.pdf"
        _chromium(target, _page(LAB_PATIENT[0], _BORDERLESS_CSS, _running(
            LAB_PATIENT[0] + "　" + LAB_PATIENT[1].split("　")[0] + "　住院号：2025030417", "本报告仅对所检标本负责　如有疑问请于三日内与检验科联系",
            patient + table)), ["--no-pdf-header-footer"], Path(tmp))
        write_gold(target, "lab_report", units)
        source = "emr_入院记录_体格检查分项.txt"
        lines = _page_lines(source)
        target = "emr_入院记录_病人信息页眉逐页_Chromium.pdf"
        _chromium(target, _page(lines[1], _RUNNING_CSS, _running(
            "江临市人民医院　姓名：曹某某　性别：男　年龄：66岁　科室：呼吸内科　床号：12　住院号：JL2025021703", "江临市人民医院电子病历系统打印",
            _document_body(lines, 2))), ["--no-pdf-header-footer"], Path(tmp))
        _copy_gold(source, target)
        page, units = lab_space_aligned_page()
        target = "lab_检验报告_等宽空格对齐无框线_Chromium.pdf"
        _chromium(target, page, ["--no-pdf-header-footer"], Path(tmp))
        write_gold(target, "lab_report", units)


CONTRACT_FIELDS = {"澄川锦程房地产开发有限公司": "甲方名称", "澄川安居物业服务有限公司": "乙方名称", "2024年9月1日": "合同起始日"}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    side_by_side_panels_docx()
    emr_content_controls_docx("emr_入院记录_体格检查分项.txt", "emr_入院记录_内容控件标题与字段_Word.docx")
    contract_fields_toc_docx("contract_前期物业服务合同_章条.txt", "contract_前期物业服务合同_目录域文档属性域_Word.docx", CONTRACT_FIELDS)
    contract_fields_toc_docx("contract_物业服务合同_章条_收费标准表格.txt", "contract_物业服务合同_目录域无目录样式_WPS.docx",
                             {}, styled=False)
    contract_two_column_section_docx("contract_示范仓储合同.txt", "contract_示范仓储合同_分节两栏条款_Word.docx")
    emr_direct_headings_docx("emr_出院记录_汉字序号分节.txt", "emr_出院记录_直接格式标题_Word.docx")
    statute_multilevel_list_docx("statute_示范农村供水工程管理条例_国务院令.txt", "statute_示范农村供水工程管理条例_多级列表章条_Word.docx")
    statute_layout_table_docx("statute_江临市共享单车停放管理办法_政府令.txt", "statute_江临市共享单车停放管理办法_无框表格两栏_Word.docx")
    if "--no-pdf" not in sys.argv:
        libreoffice_pdfs(["lab_检验报告单_两组合左右并排一表_Word.docx", "contract_示范仓储合同_分节两栏条款_Word.docx",
                          "emr_出院记录_直接格式标题_Word.docx"])
        chromium_pdfs()


if __name__ == "__main__":
    main()
