"""Word files as hospitals' and courts' systems write them, from our own documents (round eight).

``make_office_docs.py`` builds its files with python-docx; the constructs here are the ones a
real Word, WPS or an EMR/LIS export writes and python-docx never does, so this script writes the
WordprocessingML itself:

* runs inside ``w:hyperlink``, ``w:smartTag``, ``w:fldSimple`` (MERGEFIELD results), complex
  fields (``w:fldChar`` begin / ``w:instrText`` / separate / result / end), inline content
  controls, tracked insertions (``w:ins``, read) beside tracked deletions (``w:del``, not read),
  bookmarks, comments and footnote references (the note itself, in footnotes.xml, not read);
* headings numbered by Word's list numbering on plain paragraphs (``numPr`` + ``abstractNum``
  level texts ``第%1章`` / ``第%1条`` / ``（%1）``), in one column and in two;
* a medical-record bundle whose record titles are Heading 1 paragraphs, whose header fields
  share one paragraph split by soft breaks, and whose section bodies sit in content controls;
* a body read from text boxes anchored in empty paragraphs, as PDF-to-Word converters write;
* lab reports with all 25 panels of ``make_office_docs.LAB_PANELS`` in ONE long table whose
  panel rows are a cell spanning every column (``gridSpan``), a first cell with the rest of the
  row empty, or a legacy ``w:hMerge``, or a first column merged down each panel's rows; a
  panel table nested in each cell of a layout table; and the report typed as paragraphs with tab
  stops (``w:tab`` and positional ``w:ptab``), no table at all; and a web LIS's export, the
  report an HTML page imported as MIME HTML (``w:altChunk``), the body holding nothing else.

Every text is ours: the documents of ``corpora/`` re-rendered (their gold applies, as Word
shows the same text) and the lab panels of the earlier script. LibreOffice (``soffice
--headless --convert-to pdf``) prints a selection of them to PDF where it is installed; the
PDFs are committed, as CI has no LibreOffice. The DOCX files are byte for byte the same on every
run (LibreOffice stamps its PDFs with the time). Run:
``python corpora/make_office_docs_word.py``.
"""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs import LAB_COLUMNS, LAB_PANELS, LAB_PATIENT, Unit, write_gold  # noqa: E402

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
_NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
       'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
       'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
       'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
       'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
       'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
       'xmlns:v="urn:schemas-microsoft-com:vml" '
       'mc:Ignorable="wps"')

# ---------------------------------------------------------------- the package


def _styles() -> str:
    headings = "".join(
        f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/><w:basedOn w:val="Normal"/>'
        f'<w:next w:val="Normal"/><w:pPr><w:keepNext/><w:outlineLvl w:val="{n - 1}"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>'
        for n in (1, 2, 3))
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles {_NS}>'
            '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:eastAsia="Noto Serif CJK SC"/><w:sz w:val="24"/>'
            '</w:rPr></w:rPrDefault></w:docDefaults>'
            '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
            '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/>'
            '<w:pPr><w:jc w:val="center"/></w:pPr><w:rPr><w:b/><w:sz w:val="36"/></w:rPr></w:style>'
            f'{headings}'
            '<w:style w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/><w:basedOn w:val="Normal"/>'
            '<w:rPr><w:sz w:val="18"/></w:rPr></w:style>'
            '<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:rPr><w:u w:val="single"/></w:rPr></w:style>'
            '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders>'
            + "".join(f'<w:{side} w:val="single" w:sz="4" w:space="0" w:color="000000"/>'
                      for side in ("top", "left", "bottom", "right", "insideH", "insideV"))
            + '</w:tblBorders></w:tblPr></w:style></w:styles>')


def _package(body: str, *, numbering: str | None = None, footnotes: list[str] | None = None,
             comments: list[str] | None = None, imported: tuple[str, str, bytes] | None = None,
             header: str | None = None, columns: int = 1) -> bytes:
    """A DOCX holding ``body`` (the w:body's children) with the parts it refers to; ``imported``
    is a chunk (part name, content type, bytes) the body's ``w:altChunk r:id="rIdChunk"`` imports;
    ``header`` a running header, with a footer ``第 X 页 共 Y 页`` of PAGE and NUMPAGES fields;
    ``columns`` the section's text columns."""
    parts: dict[str, str | bytes] = {"word/styles.xml": _styles()}
    rels = ['<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>',
            '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.invalid/law" TargetMode="External"/>']
    overrides = ['<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
                 '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>']
    if numbering:
        parts["word/numbering.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering {_NS}>{numbering}</w:numbering>'
        rels.append('<Relationship Id="rIdNumbering" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>')
        overrides.append('<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>')
    if footnotes:
        notes = "".join(f'<w:footnote w:id="{i}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> {escape(t)}</w:t></w:r></w:p></w:footnote>'
                        for i, t in enumerate(footnotes, start=1))
        separators = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                      '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>')
        parts["word/footnotes.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {_NS}>{separators}{notes}</w:footnotes>'
        rels.append('<Relationship Id="rIdFootnotes" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>')
        overrides.append('<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>')
    if comments:
        notes = "".join(f'<w:comment w:id="{i}" w:author="审校" w:initials="SJ"><w:p><w:r><w:t>{escape(t)}</w:t></w:r></w:p></w:comment>'
                        for i, t in enumerate(comments))
        parts["word/comments.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments {_NS}>{notes}</w:comments>'
        rels.append('<Relationship Id="rIdComments" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/>')
        overrides.append('<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/>')
    if imported:
        name, content_type, data = imported
        parts[f"word/{name}"] = data
        rels.append(f'<Relationship Id="rIdChunk" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk" Target="{name}"/>')
        overrides.append(f'<Override PartName="/word/{name}" ContentType="{content_type}"/>')
    references = ""
    if header:
        centred = '<w:jc w:val="center"/>'
        parts["word/header1.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr {_NS}>{para(run(header), extra=centred)}</w:hdr>'
        page_of = (run("第 ") + '<w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple>' + run(" 页 共 ")
                   + '<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>1</w:t></w:r></w:fldSimple>' + run(" 页"))
        parts["word/footer1.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr {_NS}>{para(page_of, extra=centred)}</w:ftr>'
        for kind in ("header", "footer"):
            rels.append(f'<Relationship Id="rId{kind}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{kind}1.xml"/>')
            overrides.append(f'<Override PartName="/word/{kind}1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}+xml"/>')
        references = '<w:headerReference w:type="default" r:id="rIdheader"/><w:footerReference w:type="default" r:id="rIdfooter"/>'
    sect = f'<w:sectPr>{references}<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/><w:cols w:num="{columns}" w:space="425"/></w:sectPr>'
    parts["word/document.xml"] = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {_NS}><w:body>{body}{sect}</w:body></w:document>'
    parts["word/_rels/document.xml.rels"] = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                                             '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                             + "".join(rels) + "</Relationships>")
    parts["_rels/.rels"] = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
                            "</Relationships>")
    parts["[Content_Types].xml"] = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                                    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                                    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                                    '<Default Extension="xml" ContentType="application/xml"/>' + "".join(overrides) + "</Types>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("[Content_Types].xml", "_rels/.rels", *sorted(n for n in parts if n.startswith("word/"))):
            info = zipfile.ZipInfo(name, date_time=(2024, 3, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, parts[name])  # str parts as UTF-8, an imported chunk as its bytes
    return buffer.getvalue()


def _save(name: str, data: bytes, doc_type: str, units: list[Unit]) -> None:
    (OUT / name).write_bytes(data)
    write_gold(name, doc_type, units)


# ---------------------------------------------------------------- runs and paragraphs


def run(text: str, *, bold: bool = False) -> str:
    """One run; tabs typed in the text become w:tab elements, as Word stores them."""
    props = "<w:rPr><w:b/></w:rPr>" if bold else ""
    pieces = text.split("\t")
    inner = "<w:tab/>".join(f'<w:t xml:space="preserve">{escape(p)}</w:t>' if p else "" for p in pieces)
    return f"<w:r>{props}{inner}</w:r>"


def para(inner: str, *, style: str | None = None, numpr: tuple[int, int] | None = None, extra: str = "") -> str:
    props = ""
    if style:
        props += f'<w:pStyle w:val="{style}"/>'
    if numpr:
        props += f'<w:numPr><w:ilvl w:val="{numpr[1]}"/><w:numId w:val="{numpr[0]}"/></w:numPr>'
    props += extra
    return f"<w:p>{'<w:pPr>' + props + '</w:pPr>' if props else ''}{inner}</w:p>"


# A body paragraph as courts and offices set one: justified, the first line indented two characters.
_BODY = '<w:ind w:firstLineChars="200" w:firstLine="480"/><w:jc w:val="both"/>'


def sdt_block(inner: str, tag: str) -> str:
    """A block content control (an EMR template's field or section) around paragraphs or rows."""
    return f'<w:sdt><w:sdtPr><w:alias w:val="{tag}"/><w:tag w:val="{tag}"/></w:sdtPr><w:sdtContent>{inner}</w:sdtContent></w:sdt>'


_pieces = re.compile(r".{1,5}", re.S)


def revised_runs(text: str, seed: int, comment: int) -> tuple[str, int]:
    """``text`` cut into short pieces, each wrapped in one of the constructs Word and form systems
    write around runs; deletions (struck-out text Word shows but a reader must not), bookmarks and
    comments (numbered from ``comment``) go between them. Returns the runs and the next comment id."""
    out: list[str] = []
    for i, piece in enumerate(_pieces.findall(text)):
        kind = (seed + i) % 9
        if kind == 0:
            out.append(f'<w:hyperlink r:id="rIdLink" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'
                       f'<w:t xml:space="preserve">{escape(piece)}</w:t></w:r></w:hyperlink>')
        elif kind == 1:
            out.append(f'<w:ins w:id="{seed * 100 + i}" w:author="书记员" w:date="2024-03-01T00:00:00Z">{run(piece)}</w:ins>'
                       f'<w:del w:id="{seed * 100 + i + 50}" w:author="书记员" w:date="2024-03-01T00:00:00Z">'
                       '<w:r><w:delText>删去的旧文字</w:delText></w:r></w:del>')
        elif kind == 2:
            out.append(f'<w:smartTag w:uri="urn:schemas-microsoft-com:office:smarttags" w:element="place">{run(piece)}</w:smartTag>')
        elif kind == 3:
            out.append(f'<w:fldSimple w:instr=" MERGEFIELD 字段{i} \\* MERGEFORMAT ">{run(piece)}</w:fldSimple>')
        elif kind == 4:
            out.append('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
                       f'<w:r><w:instrText xml:space="preserve"> DOCPROPERTY 案号{i} \\* MERGEFORMAT </w:instrText></w:r>'
                       f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{run(piece)}<w:r><w:fldChar w:fldCharType="end"/></w:r>')
        elif kind == 5:
            out.append(f'<w:sdt><w:sdtPr><w:tag w:val="域{i}"/></w:sdtPr><w:sdtContent>{run(piece)}</w:sdtContent></w:sdt>')
        elif kind == 6:
            out.append(f'<w:bookmarkStart w:id="{i}" w:name="_Ref{seed}_{i}"/>{run(piece)}<w:bookmarkEnd w:id="{i}"/>'
                       '<w:proofErr w:type="spellStart"/><w:proofErr w:type="spellEnd"/>')
        elif kind == 7:
            out.append(f'<w:commentRangeStart w:id="{comment}"/>{run(piece)}<w:commentRangeEnd w:id="{comment}"/>'
                       f'<w:r><w:commentReference w:id="{comment}"/></w:r>')
            comment += 1
        else:
            out.append(f'<w:moveTo w:id="{seed * 100 + i + 80}" w:author="书记员" w:date="2024-03-01T00:00:00Z">{run(piece)}</w:moveTo>')
    return "".join(out), comment


# ---------------------------------------------------------------- a corpora text, re-rendered

_HEADING = re.compile(r"^(#{1,6})\s*(.*)$")


def _text_lines(name: str) -> list[str]:
    return (CORPORA / name).read_text(encoding="utf-8").splitlines()


def _copy_gold(source: str, target: str) -> None:
    (OUT / f"{target}.gold.json").write_text((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


def _plain_table(rows: list[list[str]]) -> str:
    width = max(map(len, rows))
    grid = "".join('<w:gridCol w:w="1500"/>' for _ in range(width))
    body = "".join("<w:tr>" + "".join(f"<w:tc>{para(run(c))}</w:tc>" for c in row + [""] * (width - len(row))) + "</w:tr>" for row in rows)
    return f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{body}</w:tbl>'


def revised_docx(source: str, target: str) -> None:
    """A corpora text as a court clerk's Word file after review: every paragraph's runs inside
    hyperlinks, tracked insertions beside deletions, smart tags, merge fields, complex fields,
    inline content controls, bookmarks, comments and moves; a footnote after the first paragraph
    that ends a sentence."""
    body: list[str] = []
    comment_count = 0
    footnote_done = False
    table: list[list[str]] = []
    for index, line in enumerate(_text_lines(source)):
        if "\t" in line:
            table.append(line.split("\t"))
            continue
        if table:
            body.append(_plain_table(table))
            table = []
        if not line.strip():
            body.append(para(""))
            continue
        heading = _HEADING.match(line)
        text = heading.group(2) if heading else line
        runs, comment_count = revised_runs(text, index, comment_count)
        if not footnote_done and text.endswith("。"):
            runs += '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
            footnote_done = True
        style = f"Heading{min(len(heading.group(1)), 3)}" if heading and index else ("Title" if heading else None)
        body.append(para(runs, style=style, extra="" if style else _BODY))
    if table:
        body.append(_plain_table(table))
    _save_raw(target, _package("".join(body), footnotes=["本注释为脚注正文，不属于正文内容。"],
                               comments=["审校意见：核对。"] * comment_count))
    _copy_gold(source, target)


def _save_raw(name: str, data: bytes) -> None:
    (OUT / name).write_bytes(data)


# ---------------------------------------------------------------- Word list numbering

_CN = "零一二三四五六七八九"


def cn_value(text: str) -> int:
    """一 … 九百九十九 as an integer."""
    total, digit = 0, 0
    for char in text:
        if char in _CN:
            digit = _CN.index(char)
        elif char in "十百":
            total += (digit or 1) * (10 if char == "十" else 100)
            digit = 0
    return total + digit


# (pattern of a line opening with the label, its list and level: the chapters one list, the articles
# another whose second level is the items, so the articles run on across chapters and the items
# restart under each article, as Word counts them; LibreOffice, which prints the PDFs, ignores a
# ``w:lvlRestart`` of 0 and so is never asked for one)
_LEVELS = (
    (re.compile(r"^(?:#+\s*)?第([一二三四五六七八九十百]+)章[ 　]*"), (3, 0)),
    (re.compile(r"^第([一二三四五六七八九十百]+)条[ 　]*"), (4, 0)),
    (re.compile(r"^[（(]([一二三四五六七八九十]+)[）)]"), (4, 1)),
)


def _numbering_xml() -> str:
    def level(ilvl: int, text: str, suffix: str, jc: str = "left") -> str:
        return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/>'
                f'<w:suff w:val="{suffix}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="{jc}"/></w:lvl>')
    return (f'<w:abstractNum w:abstractNumId="7"><w:multiLevelType w:val="singleLevel"/>{level(0, "第%1章", "space", "center")}</w:abstractNum>'
            f'<w:abstractNum w:abstractNumId="8"><w:multiLevelType w:val="multilevel"/>{level(0, "第%1条", "space")}'
            f'{level(1, "（%2）", "nothing")}</w:abstractNum>'
            '<w:num w:numId="3"><w:abstractNumId w:val="7"/></w:num><w:num w:numId="4"><w:abstractNumId w:val="8"/></w:num>')


def list_numbered_docx(source: str, target: str, columns: int = 1) -> None:
    """A statute whose 章, 条 and （一） labels are Word's automatic numbers on plain (Normal)
    paragraphs (see ``_LEVELS``). A label Word would not count to
    (out of order, 条之一) stays typed."""
    counters = [0, 0, 0]
    body: list[str] = []
    lines = _text_lines(source)
    first_article = next(i for i, line in enumerate(lines) if line.lstrip("　 ").startswith("第一条"))
    numbered_from = max(i for i in range(first_article) if _LEVELS[0][0].match(lines[i].lstrip("　 ")))  # after the 目录
    for index, line in enumerate(lines):
        if not line.strip():
            body.append(para(""))
            continue
        stripped = line.lstrip("　 ")
        for level, (pattern, numpr) in enumerate(_LEVELS):
            match = pattern.match(stripped) if index >= numbered_from else None
            if not match:
                continue
            expected = counters[level] + 1
            if cn_value(match.group(1)) != expected or stripped[match.end():].startswith("之"):
                continue
            counters[level] = expected
            if level == 1:  # the items restart under each article
                counters[2] = 0
            extra = '<w:jc w:val="center"/>' if level == 0 else _BODY
            body.append(para(run(stripped[match.end():], bold=level == 0), numpr=numpr, extra=extra))
            break
        else:
            heading = _HEADING.match(line)
            body.append(para(run(heading.group(2) if heading else line), style="Title" if heading and not body else None))
    _save_raw(target, _package("".join(body), numbering=_numbering_xml(), header=lines[0].strip(), columns=columns))
    _copy_gold(source, target)


# ---------------------------------------------------------------- text boxes as the body


def _text_box(paragraphs: list[str], number: int) -> str:
    """A floating text box holding ``paragraphs``, written as Word writes one: a DrawingML shape
    with a VML copy as the fallback for older readers (the same text twice in the XML)."""
    inner = "".join(paragraphs)
    return ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
            f'<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="{number}" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
            '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:posOffset>0</wp:posOffset></wp:positionH>'
            '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="5400000" cy="8000000"/>'
            f'<wp:wrapNone/><wp:docPr id="{number}" name="文本框 {number}"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
            f'<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="5400000" cy="8000000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
            f'<wps:txbx><w:txbxContent>{inner}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>'
            f'<mc:Fallback><w:pict><v:shape id="文本框{number}" type="#_x0000_t202" style="position:absolute;width:425pt;height:630pt">'
            f'<v:textbox><w:txbxContent>{inner}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')


def text_box_docx(source: str, target: str, per_box: int = 14) -> None:
    """A PDF-to-Word conversion that set each page's text in a text box: the body holds only
    empty paragraphs, each anchoring one box of about ``per_box`` lines."""
    paragraphs: list[str] = []
    for line in _text_lines(source):
        heading = _HEADING.match(line)
        paragraphs.append(para(run(heading.group(2) if heading else line)) if line.strip() else para(""))
    body = "".join(para(_text_box(paragraphs[at:at + per_box], 1 + at // per_box), extra='<w:spacing w:after="0"/>')
                   for at in range(0, len(paragraphs), per_box))
    _save_raw(target, _package(body))
    _copy_gold(source, target)


# ---------------------------------------------------------------- a medical bundle as an EMR writes it

_RECORD_TITLES = ("入院记录", "首次病程记录", "日常病程记录", "出院记录", "手术记录", "会诊记录", "死亡记录")
_FIELD = re.compile(r"^([\u4e00-\u9fff]{2,6})：")


def emr_bundle_docx(source: str, target: str) -> None:
    """An EMR system's export of a record bundle: each record title a Heading 1 paragraph; the
    header lines that follow it (no section name) one paragraph split by soft line breaks;
    every section a content control holding its paragraphs, the section name a bold run."""
    lines = _text_lines(source)
    body: list[str] = []
    header: list[str] = []

    def flush_header() -> None:
        if header:
            runs = "<w:r><w:br/></w:r>".join(run(line) for line in header)
            body.append(para(runs))
            header.clear()

    in_header = False
    section: list[str] = []

    def flush_section() -> None:
        if section:
            body.append(sdt_block("".join(section), "病历段落"))
            section.clear()

    for index, line in enumerate(lines):
        if not line.strip():
            flush_header()
            flush_section()
            body.append(para(""))
            continue
        if line.strip() in _RECORD_TITLES:
            flush_header()
            flush_section()
            body.append(para(run(line.strip()), style="Heading1"))
            in_header = True
            continue
        field = _FIELD.match(line)
        if in_header and not (field and field.group(1) not in ("记录时间", "科室", "入院日期", "出院日期")):
            header.append(line)
            continue
        in_header = False
        flush_header()
        if field:
            flush_section()
            section.append(para(run(field.group(0), bold=True) + run(line[field.end():])))
        else:
            section.append(para(run(line)))
    flush_header()
    flush_section()
    _save_raw(target, _package("".join(body), header="江临市示范医院　住院病历"))
    _copy_gold(source, target)


# ---------------------------------------------------------------- lab reports in one long table

_GRID = 6  # LAB_COLUMNS


def _cell(text: str, *, span: int = 1, extra: str = "", bold: bool = False) -> str:
    props = (f'<w:gridSpan w:val="{span}"/>' if span > 1 else "") + extra
    return f"<w:tc>{'<w:tcPr>' + props + '</w:tcPr>' if props else ''}{para(run(text, bold=bold) if text else '')}</w:tc>"


def _row(cells: str, *, header: bool = False) -> str:
    return f"<w:tr>{'<w:trPr><w:tblHeader/></w:trPr>' if header else ''}{cells}</w:tr>"


def _table(rows: str, columns: int = _GRID) -> str:
    grid = "".join('<w:gridCol w:w="1380"/>' for _ in range(columns))
    return (f'<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="5000" w:type="pct"/></w:tblPr>'
            f'<w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>')


def _item_cells(item: tuple[str, ...]) -> list[str]:
    name, code, result, flag, unit, reference = item
    return [name, code, result, flag, unit, reference]


_LAB_HEADER = "江临市中心医院检验科　姓名：祁某某　住院号：2025030417"  # the running header of the printed lab reports


def _patient() -> str:
    """The report's title and patient lines, an empty paragraph under them as a typist leaves one."""
    return para(run(LAB_PATIENT[0], bold=True), style="Title") + "".join(para(run(line)) for line in LAB_PATIENT[1:]) + para("")


def _panel_rows(panel_row, *, header_every: int = 0, controls: bool = False) -> tuple[str, list[Unit]]:
    """The rows of all panels under one repeating header row; ``panel_row(index, name, specimen)``
    writes a panel's opening row and gives the text the reader shows for it."""
    rows = [_row("".join(_cell(c, bold=True) for c in LAB_COLUMNS), header=True)]
    units: list[Unit] = []
    for index, (panel, specimen, items) in enumerate(LAB_PANELS):
        if header_every and index and index % header_every == 0:  # a printout's page break, typed back in
            rows.append(_row("".join(_cell(c, bold=True) for c in LAB_COLUMNS)))
        opening, shown = panel_row(index, panel, specimen)
        item_rows = [_row("".join(_cell(c) for c in _item_cells(item))) for item in items]
        group = opening + "".join(item_rows)
        rows.append(sdt_block(group, "检验组合") if controls else group)
        units.append(Unit([panel], [shown, *("\t".join(_item_cells(item)) for item in items)]))
    return "".join(rows), units


def lab_spanning_rows_docx() -> None:
    """All 25 panels in one table: the header row marked to repeat and typed again every eight
    panels, each panel opened by one cell spanning every column, the rows of each panel in a
    repeating-section content control."""
    rows, units = _panel_rows(lambda i, p, s: (_row(_cell(f"{p}（{s}）", span=_GRID, bold=True)), f"{p}（{s}）"),
                              header_every=8, controls=True)
    _save("lab_住院检验汇总_单表跨列组合行_Word.docx", _package(_patient() + _table(rows), header=_LAB_HEADER), "lab_report", units)


def lab_first_cell_rows_docx() -> None:
    """One table whose panel rows hold the name in the first cell and leave the other cells of
    the row empty (no merge), as LIS exports fill a grid."""
    rows, units = _panel_rows(lambda i, p, s: (_row(_cell(p, bold=True) + "".join(_cell("") for _ in range(_GRID - 1))), p))
    _save("lab_住院检验汇总_单表组合行首格_Word.docx", _package(_patient() + _table(rows), header=_LAB_HEADER), "lab_report", units)


def lab_hmerge_rows_docx() -> None:
    """One table whose panel rows are merged the old way (``w:hMerge`` restart / continue, as Word
    97-2003 documents saved again as DOCX keep them)."""
    def opening(i: int, p: str, s: str) -> tuple[str, str]:
        cells = _cell(p, extra='<w:hMerge w:val="restart"/>', bold=True)
        cells += "".join(_cell("", extra='<w:hMerge/>') for _ in range(_GRID - 1))
        return _row(cells), p
    rows, units = _panel_rows(opening)
    _save("lab_住院检验汇总_单表旧式横向合并_Word.docx", _package(_patient() + _table(rows)), "lab_report", units)


def lab_merged_column_docx() -> None:
    """All 25 panels in one table whose first column names the panel, the cell merged down over
    the panel's rows (``w:vMerge``), the header row repeating: printed, a merged cell is cut by
    the page breaks it spans."""
    columns = ("检验组合", *LAB_COLUMNS)
    rows = [_row("".join(_cell(c, bold=True) for c in columns), header=True)]
    units: list[Unit] = []
    for panel, specimen, items in LAB_PANELS:
        for number, item in enumerate(items):
            merge = "" if len(items) == 1 else '<w:vMerge w:val="restart"/>' if number == 0 else "<w:vMerge/>"
            first = _cell(panel if number == 0 else "", extra=merge)
            rows.append(_row(first + "".join(_cell(c) for c in _item_cells(item))))
        # the reader writes the panel's name as a caption row above its items, their first cell empty
        units.append(Unit([panel], [panel, *("\t".join(("", *_item_cells(item))) for item in items)]))
    _save("lab_住院检验汇总_单表组合列纵向合并_Word.docx", _package(_patient() + _table("".join(rows), columns=len(columns)), header=_LAB_HEADER),
          "lab_report", units)


def lab_nested_tables_docx() -> None:
    """A layout table of one column whose every cell holds a panel: its name as a bold paragraph,
    then the panel's own table of items nested in the cell."""
    cells = []
    units: list[Unit] = []
    header = _row("".join(_cell(c, bold=True) for c in LAB_COLUMNS), header=True)
    for panel, specimen, items in LAB_PANELS:
        inner = _table(header + "".join(_row("".join(_cell(c) for c in _item_cells(item))) for item in items))
        name = f"{panel}（{specimen}）"
        cells.append(f"<w:tr><w:tc>{para(run(name, bold=True))}{inner}{para('')}</w:tc></w:tr>")
        units.append(Unit([panel], [name, "\t".join(LAB_COLUMNS), *("\t".join(_item_cells(item)) for item in items)]))
    _save("lab_住院检验汇总_版式表内嵌组合表_Word.docx", _package(_patient() + _table("".join(cells), columns=1)), "lab_report", units)


def lab_tab_stops_docx() -> None:
    """The report typed as paragraphs aligned by tab stops, no table: each panel's name a bold
    paragraph, its column header and item lines cells separated by tabs, some of them the
    positional tabs (``w:ptab``) Word writes for alignment to the margin."""
    tabs = '<w:tabs><w:tab w:val="left" w:pos="2600"/><w:tab w:val="left" w:pos="3900"/><w:tab w:val="left" w:pos="5000"/><w:tab w:val="left" w:pos="5800"/><w:tab w:val="left" w:pos="7000"/></w:tabs>'
    body = [_patient()]
    units: list[Unit] = []
    for index, (panel, specimen, items) in enumerate(LAB_PANELS):
        name = f"{panel}（{specimen}）"
        body.append(para(run(name, bold=True)))
        body.append(para(run("\t".join(LAB_COLUMNS)), extra=tabs))
        for number, item in enumerate(items):
            cells = _item_cells(item)
            if (index + number) % 3 == 0:  # the last column aligned by a positional tab
                inner = run("\t".join(cells[:-1])) + '<w:r><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/>' + f'<w:t>{escape(cells[-1])}</w:t></w:r>'
            else:
                inner = run("\t".join(cells))
            body.append(para(inner, extra=tabs))
        units.append(Unit([panel], [name, "\t".join(LAB_COLUMNS), *("\t".join(_item_cells(item)) for item in items)]))
    _save("lab_住院检验汇总_制表位段落_Word.docx", _package("".join(body)), "lab_report", units)


def lab_web_export_docx() -> None:
    """A web LIS's "export to Word": the report an HTML page, wrapped as MIME HTML (afchunk.mht,
    quoted-printable) in a DOCX whose body holds nothing but the chunk that imports it, as
    html-docx exporters write: each panel's name a bold paragraph above its own table."""
    import quopri

    rows = "".join(f"<td>{escape(c)}</td>" for c in LAB_COLUMNS)
    html = [f"<html><head><meta charset=\"utf-8\"><title>{escape(LAB_PATIENT[0])}</title></head><body>",
            f"<h2 style=\"text-align:center\">{escape(LAB_PATIENT[0])}</h2>",
            *(f"<p>{escape(line)}</p>" for line in LAB_PATIENT[1:]), "<p>&nbsp;</p>"]
    units: list[Unit] = []
    for panel, specimen, items in LAB_PANELS:
        name = f"{panel}（{specimen}）"
        html.append(f"<p><b>{escape(name)}</b></p><table border=\"1\" cellspacing=\"0\"><tr>{rows}</tr>")
        html += ["<tr>" + "".join(f"<td>{escape(c)}</td>" for c in _item_cells(item)) + "</tr>" for item in items]
        html.append("</table>")
        units.append(Unit([panel], [name, "\t".join(LAB_COLUMNS), *("\t".join(_item_cells(item)) for item in items)]))
    html.append("</body></html>")
    page = quopri.encodestring("\n".join(html).encode("utf-8"))
    mht = (b'MIME-Version: 1.0\r\nContent-Type: multipart/related; type="text/html"; boundary="----=mhtDocumentPart"\r\n\r\n'
           b'------=mhtDocumentPart\r\nContent-Type: text/html; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n'
           b"Content-Location: file:///C:/fake/document.html\r\n\r\n" + page + b"\r\n\r\n------=mhtDocumentPart--\r\n")
    body = '<w:altChunk r:id="rIdChunk"/>'
    _save("lab_住院检验汇总_网页导出_altChunk.docx", _package(body, imported=("afchunk.mht", "message/rfc822", mht)), "lab_report", units)


# ---------------------------------------------------------------- LibreOffice prints


_DELETION = re.compile(r"<w:del [^>]*>.*?</w:del>|<w:moveFrom [^>]*>.*?</w:moveFrom>", re.S)


def _changes_accepted(docx: bytes) -> bytes:
    """The file with its tracked deletions accepted, as a clerk prints the final text (LibreOffice
    prints the markup, struck-out deletions included, whatever Word would)."""
    source = zipfile.ZipFile(io.BytesIO(docx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                data = _DELETION.sub("", data.decode("utf-8")).encode("utf-8")
            target.writestr(item, data)
    return out.getvalue()


def libreoffice_pdfs(names: list[str]) -> None:
    """Each DOCX printed to PDF by LibreOffice, its gold beside it (the same text on the page)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        print("soffice not found: the committed PDFs are kept", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            printed = Path(tmp) / name
            printed.write_bytes(_changes_accepted((OUT / name).read_bytes()))
            subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{tmp}/profile", "--convert-to", "pdf",
                            "--outdir", tmp, str(printed)], check=True, capture_output=True, timeout=300)
            pdf = Path(tmp) / (Path(name).stem + ".pdf")
            target = Path(name).stem + "_LibreOffice.pdf"
            (OUT / target).write_bytes(pdf.read_bytes())
            (OUT / f"{target}.gold.json").write_text((OUT / f"{name}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


RENDERED = {  # corpora text -> its Word file here
    "judgment_民事判决书_争议焦点分题_当事人分行.txt": ("judgment_民事判决书_修订痕迹域超链接_Word.docx", revised_docx),
    "contract_办公用品采购合同.txt": ("contract_办公用品采购合同_修订痕迹域超链接_Word.docx", revised_docx),
    "statute_江临市古村落保护条例.txt": ("statute_江临市古村落保护条例_列表自动编号_Word.docx", list_numbered_docx),
    "statute_示范城市绿地管理条例.txt": ("statute_示范城市绿地管理条例_文本框正文_Word.docx", text_box_docx),
    "emr_bundle_示范_心内科.txt": ("emr_病历合集_标题样式软回车内容控件_Word.docx", emr_bundle_docx),
}
PRINTED = [
    "statute_江临市古村落保护条例_两栏_Word.docx",
    "lab_住院检验汇总_单表组合列纵向合并_Word.docx",
    "judgment_民事判决书_修订痕迹域超链接_Word.docx",
    "contract_办公用品采购合同_修订痕迹域超链接_Word.docx",
    "lab_住院检验汇总_单表跨列组合行_Word.docx",
    "lab_住院检验汇总_单表组合行首格_Word.docx",
    "lab_住院检验汇总_制表位段落_Word.docx",
    "emr_病历合集_标题样式软回车内容控件_Word.docx",
    "statute_江临市古村落保护条例_列表自动编号_Word.docx",
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for source, (target, render) in RENDERED.items():
        render(source, target)
    # the same statute set in two columns, as a gazette prints one
    list_numbered_docx("statute_江临市古村落保护条例.txt", "statute_江临市古村落保护条例_两栏_Word.docx", columns=2)
    lab_spanning_rows_docx()
    lab_first_cell_rows_docx()
    lab_hmerge_rows_docx()
    lab_merged_column_docx()
    lab_nested_tables_docx()
    lab_tab_stops_docx()
    lab_web_export_docx()
    libreoffice_pdfs(PRINTED if "--no-pdf" not in sys.argv else [])


if __name__ == "__main__":
    main()
