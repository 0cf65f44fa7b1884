"""Word and PDF files of constructs and producers the earlier scripts do not cover (round twelve).

Every text is ours: documents of ``corpora/`` re-rendered (their gold applies, as the page shows
the same text; where a file shows more, a table's group names, its gold is the source's with
that text added to the unit it sits in). Each file was written, with its gold, before the chunker
read it:

* a judgment from a court system's template whose fields nest: an ``IF`` or ``DOCVARIABLE`` field
  whose instruction holds another field (its cached result is part of the instruction, never
  shown), and legacy text form fields (``FORMTEXT``);
* a postnatal visit form whose check boxes are legacy form fields (``FORMCHECKBOX``: no text in
  the file, Word draws the box from the field's data) and whose choices are ``FORMDROPDOWN``
  fields (Word shows the selected entry of the field's list, again no text run);
* a lease whose handover list groups its rows by a first column merged down (``w:vMerge``), under
  a title cell across the table (``w:gridSpan``), and whose rent clause holds a payment table
  nested in a one-cell frame table, the parties table merged too;
* a party regulation whose articles and items are Word list numbers, the items restarted under
  each article as Word does when "Restart at 1" is chosen (a new ``w:num`` with
  ``w:lvlOverride`` / ``w:startOverride``), with endnotes (the note text not read), a hidden
  drafting note (its paragraph mark hidden too: Word shows no line) and a running header and a
  ``PAGE`` footer;
* LibreOffice's prints of two of these, its "Text" export (its list numbers written out, a table
  one cell a line), and the DOCX its own writer makes of three (opened, saved as ODT, saved as DOCX
  again: a drop-down form field's result an empty run);
* PDFs drawn by reportlab the way some producers write them: a judgment whose lines are drawn
  bottom-up in the content stream, a regulation whose headings are bolded by drawing each glyph
  twice a fraction of a point apart under a diagonal watermark, a record whose section names are
  letter-spaced and whose justified lines are spread by character spacing (``Tc``), a contract
  under a sticky-note comment and a link, a record printed as a report engine prints it (each
  page's labels drawn first, then the field values after them), a loan contract whose blanks were
  filled in as form fields (AcroForm widgets), and a judgment set on landscape pages turned onto
  portrait sheets by the content's matrix (no ``/Rotate``).

The DOCX files are byte for byte the same on every run; the PDFs and text exports are committed
(CI has no LibreOffice). Run: ``python corpora/make_office_render13.py``.
"""
from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs import FONT, NO_LINE_START  # noqa: E402
from make_office_docs_word import _BODY, _NS, _package, para, run  # noqa: E402

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
_DATE = (2024, 3, 1, 0, 0, 0)


def _text_lines(name: str) -> list[str]:
    return (CORPORA / name).read_text(encoding="utf-8").splitlines()


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _gold(source: str, target: str, added: dict[str, str] | None = None, swap: dict[str, str] | None = None) -> None:
    """The source's gold for ``target``: ``added`` text (by the anchor of the unit it joins) counted
    into that unit's length, ``swap`` characters the file shows in place of the source's."""
    gold = json.loads((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"))
    for unit in gold["units"]:
        extra = (added or {}).get(unit["anchor"])
        if extra:
            unit["norm_len"] += len(_norm(extra))
        for old, new in (swap or {}).items():
            unit["anchor"] = unit["anchor"].replace(old, new)
    (OUT / f"{target}.gold.json").write_text(json.dumps(gold, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _with_parts(data: bytes, parts: dict[str, tuple[str, str, str]]) -> bytes:
    """``data`` (a package ``_package`` wrote) with more parts: name → (xml, relationship type,
    content type), each related from the main document."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as original, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in original.namelist():
            content = original.read(name)
            if name == "word/_rels/document.xml.rels":
                rels = "".join(f'<Relationship Id="rIdX{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{part}"/>'
                               for i, (part, (_, kind, _)) in enumerate(sorted(parts.items())))
                content = content.replace(b"</Relationships>", rels.encode() + b"</Relationships>")
            elif name == "[Content_Types].xml":
                overrides = "".join(f'<Override PartName="/word/{part}" ContentType="{ctype}"/>' for part, (_, _, ctype) in sorted(parts.items()))
                content = content.replace(b"</Types>", overrides.encode() + b"</Types>")
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, content)
        for part, (xml, _, _) in sorted(parts.items()):
            info = zipfile.ZipInfo(f"word/{part}", date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, xml)
    return buffer.getvalue()


def _title_or_body(line: str, index: int) -> str:
    """A line of a corpora text as a paragraph: the opening short lines centred and bold, the
    rest body paragraphs."""
    if index < 3 and len(line) <= 30:
        return para(run(line, bold=True), extra='<w:jc w:val="center"/>')
    return para(run(line), extra=_BODY)


# ---------------------------------------------------------------- nested fields


def _begin(data: str = "") -> str:
    return f'<w:r><w:fldChar w:fldCharType="begin">{data}</w:fldChar></w:r>'


def _instr(text: str) -> str:
    return f'<w:r><w:instrText xml:space="preserve">{escape(text)}</w:instrText></w:r>'


_SEPARATE = '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
_END = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'


def _nested_if(shown: str, inner_result: str, seed: int) -> str:
    """``{ IF { MERGEFIELD 字段 } = "值" "shown" "" }`` as Word stores it after an update: the inner
    field's cached result sits in the IF's instruction, then the IF's own result ``shown``."""
    return (_begin() + _instr(" IF ") + _begin() + _instr(f" MERGEFIELD 字段{seed} ") + _SEPARATE + run(inner_result) + _END
            + _instr(f' = "{inner_result}" "') + _instr(shown) + _instr('" "" ') + _SEPARATE + run(shown) + _END)


def _docvariable(shown: str, inner_result: str, seed: int) -> str:
    """``{ DOCVARIABLE { SET 变量 "…" } }``: a variable named by a nested field, the result after."""
    return (_begin() + _instr(" DOCVARIABLE ") + _begin() + _instr(f' QUOTE "案件{seed}" ') + _SEPARATE + run(inner_result) + _END
            + _instr(" \\* MERGEFORMAT ") + _SEPARATE + run(shown) + _END)


def _form_text(shown: str, seed: int) -> str:
    data = f'<w:ffData><w:name w:val="文字{seed}"/><w:enabled/><w:calcOnExit w:val="0"/><w:textInput/></w:ffData>'
    return _begin(data) + _instr(" FORMTEXT ") + _SEPARATE + run(shown) + _END


def judgment_nested_fields_docx(source: str, target: str) -> None:
    """Every body paragraph's opening words are the result of a nested IF field, a DOCVARIABLE
    field named by a nested field, or a legacy text form field, in turn; the inner fields' cached
    results are words Word does not show."""
    body: list[str] = []
    for index, line in enumerate(_text_lines(source)):
        if not line.strip():
            body.append(para(""))
            continue
        if index < 3:
            body.append(_title_or_body(line, index))
            continue
        head, rest = line[:4], line[4:]
        kind = index % 3
        if kind == 0:
            runs = _nested_if(head, "普通程序适用", index)
        elif kind == 1:
            runs = _docvariable(head, "变量名称", index)
        else:
            runs = _form_text(head, index)
        body.append(para(runs + run(rest), extra=_BODY))
    (OUT / target).write_bytes(_package("".join(body)))
    _gold(source, target)


# ---------------------------------------------------------------- legacy form fields

_CHECKED, _UNCHECKED = "☒", "☐"  # how Word draws a legacy check box field, checked or not


def _form_checkbox(checked: bool, seed: int) -> str:
    state = '<w:checked/>' if checked else ''
    data = (f'<w:ffData><w:name w:val="复选框{seed}"/><w:enabled/><w:calcOnExit w:val="0"/>'
            f'<w:checkBox><w:sizeAuto/><w:default w:val="0"/>{state}</w:checkBox></w:ffData>')
    return _begin(data) + _instr(" FORMCHECKBOX ") + _END


def _form_dropdown(entries: list[str], chosen: int, seed: int) -> str:
    items = "".join(f'<w:listEntry w:val="{escape(e)}"/>' for e in entries)
    data = (f'<w:ffData><w:name w:val="下拉{seed}"/><w:enabled/><w:calcOnExit w:val="0"/>'
            f'<w:ddList><w:result w:val="{chosen}"/>{items}</w:ddList></w:ffData>')
    return _begin(data) + _instr(" FORMDROPDOWN ") + _END


# a field value the form offers as a drop-down: (the label before it, the list's entries)
_DROPDOWNS = {"分娩方式：": ["顺产", "剖宫产", "阴道助产"], "访视方式：": ["入户访视", "电话访视", "门诊访视"]}


def _form_runs(line: str, seed: int) -> str:
    out: list[str] = []
    pieces = re.split(r"([☑□])", line)
    for i, piece in enumerate(pieces):
        if piece in ("☑", "□"):
            out.append(_form_checkbox(piece == "☑", seed * 100 + i))
            continue
        for label, entries in _DROPDOWNS.items():
            at = piece.find(label)
            if at < 0:
                continue
            value = next((e for e in entries if piece.startswith(e, at + len(label))), None)
            if value is None:
                continue
            end = at + len(label) + len(value)
            out.append(run(piece[: at + len(label)]) + _form_dropdown(entries, entries.index(value), seed * 100 + i))
            piece = piece[end:]
        out.append(run(piece) if piece else "")
    return "".join(out)


def emr_legacy_form_fields_docx(source: str, target: str) -> None:
    body: list[str] = []
    for index, line in enumerate(_text_lines(source)):
        if not line.strip():
            body.append(para(""))
        elif index < 2:
            body.append(_title_or_body(line, index))
        else:
            body.append(para(_form_runs(line, index)))
    (OUT / target).write_bytes(_package("".join(body)))
    _gold(source, target, swap={"☑": _CHECKED, "□": _UNCHECKED})


# ---------------------------------------------------------------- merged and nested tables


def _tc(text: str, *, span: int = 1, merge: str | None = None, width: int = 1500, bold: bool = False, inner: str | None = None) -> str:
    props = f'<w:tcW w:w="{width * span}" w:type="dxa"/>'
    props += f'<w:gridSpan w:val="{span}"/>' if span > 1 else ""
    props += ('<w:vMerge w:val="restart"/>' if merge == "restart" else "<w:vMerge/>") if merge else ""
    content = inner if inner is not None else para(run(text, bold=bold) if text else "")
    return f"<w:tc><w:tcPr>{props}</w:tcPr>{content}</w:tc>"


def _tbl(rows: list[str], columns: int, width: int = 1500, borders: bool = True) -> str:
    grid = "".join(f'<w:gridCol w:w="{width}"/>' for _ in range(columns))
    style = '<w:tblStyle w:val="TableGrid"/>' if borders else ""
    return (f'<w:tbl><w:tblPr>{style}<w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>'
            + "".join(f"<w:tr>{r}</w:tr>" for r in rows) + "</w:tbl>")


# the handover list's rows grouped: (group, its rows of 项目 数量 状况 备注)
_HANDOVER_GROUPS = {"空调": "家用电器", "冰箱": "家用电器", "洗衣机": "家用电器", "燃气热水器": "家用电器",
                    "入户门钥匙": "钥匙", "水表读数": "表具读数", "电表读数": "表具读数"}
_PAYMENT = [["期次", "支付时间", "金额（元）"], ["第一期", "2024年9月30日前", "7800"], ["第二期", "2025年3月31日前", "7800"]]


def contract_merged_tables_docx(source: str, target: str) -> tuple[dict[str, str], list[str]]:
    """The parties in a table whose side labels are merged down over each party's rows under a
    title across it; the handover list grouped by a merged first column; the rent clause in a
    frame table holding the payment table. Returns the text added per unit (for the gold) and
    the lines as a reader sees them in order."""
    lines = _text_lines(source)
    body: list[str] = []
    added: dict[str, str] = {}
    i = 0
    clause_three = None
    while i < len(lines):
        line = lines[i]
        if "\t" in line:
            block = []
            while i < len(lines) and "\t" in lines[i]:
                block.append(lines[i].split("\t"))
                i += 1
            if block[0][0].startswith("出租方"):  # the parties: a title row, each party's label merged over its two rows
                rows = [_tc("当事人信息", span=5, bold=True)]
                for r, cells in enumerate(block):
                    side = "甲方" if r < 2 else "乙方"
                    rows.append(_tc(side, merge="restart" if r % 2 == 0 else "continue") + "".join(_tc(c) for c in cells))
                body.append(_tbl(rows, 5, 1600))
            elif block[0][0] == "项目":  # the handover list, grouped by a merged first column
                rows = [_tc("类别", bold=True) + "".join(_tc(c, bold=True) for c in block[0])]
                previous = None
                for cells in block[1:]:
                    group = _HANDOVER_GROUPS[cells[0]]
                    rows.append(_tc(group, merge="restart" if group != previous else "continue") + "".join(_tc(c) for c in cells + [""] * (4 - len(cells))))
                    previous = group
                body.append(_tbl(rows, 5, 1600))
                added["附:房屋交接清单"] = "类别" + "".join(dict.fromkeys(_HANDOVER_GROUPS.values()))
            else:  # the signature lines: a borderless table
                rows = ["".join(_tc(c, width=4000) for c in cells + [""] * (2 - len(cells))) for cells in block]
                body.append(_tbl(rows, 2, 4000, borders=False))
            continue
        if not line.strip():
            body.append(para(""))
        elif line.startswith("三、"):
            clause_three = [line]
            i += 1
            while i < len(lines) and lines[i].strip() and not re.match(r"^[一二三四五六七八九十]+、", lines[i]):
                clause_three.append(lines[i])
                i += 1
            payment = _tbl(["".join(_tc(c, width=2200) for c in row) for row in _PAYMENT], 3, 2200)
            inner = "".join(para(run(t), extra=_BODY) for t in clause_three) + payment + para("")
            body.append(_tbl([_tc("", width=8800, inner=inner)], 1, 8800, borders=False))
            added["三、租金及支付方式"] = "".join("".join(r) for r in _PAYMENT)
            continue
        else:
            body.append(_title_or_body(line, i))
        i += 1
    (OUT / target).write_bytes(_package("".join(body)))
    _gold(source, target, added)
    return added, lines


# ---------------------------------------------------------------- list numbers restarted, endnotes


def _restart_numbering(item_lists: int) -> str:
    def level(ilvl: int, text: str, suffix: str, jc: str = "left") -> str:
        return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="chineseCounting"/>'
                f'<w:suff w:val="{suffix}"/><w:lvlText w:val="{text}"/><w:lvlJc w:val="{jc}"/></w:lvl>')
    out = (f'<w:abstractNum w:abstractNumId="1"><w:multiLevelType w:val="singleLevel"/>{level(0, "第%1章", "space", "center")}</w:abstractNum>'
           f'<w:abstractNum w:abstractNumId="2"><w:multiLevelType w:val="singleLevel"/>{level(0, "第%1条", "space")}</w:abstractNum>'
           f'<w:abstractNum w:abstractNumId="3"><w:multiLevelType w:val="singleLevel"/>{level(0, "（%1）", "nothing")}</w:abstractNum>'
           '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>'
           '<w:num w:numId="3"><w:abstractNumId w:val="3"/></w:num>')
    # each later run of items: Restart at 1 (a list instance of its own, started over)
    for n in range(4, 3 + item_lists):
        out += (f'<w:num w:numId="{n}"><w:abstractNumId w:val="3"/>'
                '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>')
    return out


_ENDNOTE_REF = '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:endnoteReference w:id="{}"/></w:r>'
_HIDDEN_NOTE = "起草说明：本条参照上位法规定修改，定稿时删除本说明。"


def _endnotes(texts: list[str]) -> str:
    notes = "".join(f'<w:endnote w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:endnoteRef/></w:r>'
                    f'<w:r><w:t xml:space="preserve"> {escape(t)}</w:t></w:r></w:p></w:endnote>' for i, t in enumerate(texts, start=1))
    separators = ('<w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote>'
                  '<w:endnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:endnote>')
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:endnotes {_NS}>{separators}{notes}</w:endnotes>'


def statute_restarted_items_docx(source: str, target: str) -> None:
    lines = _text_lines(source)
    body: list[str] = []
    first_chapter = next(i for i, line in enumerate(lines) if re.match(r"^第一章", line))
    item_list, in_items, notes = 2, False, []
    for index, line in enumerate(lines):
        if not line.strip():
            body.append(para(""))
            in_items = False
            continue
        if index < first_chapter:
            body.append(_title_or_body(line, index) if index else para(run(line, bold=True), extra='<w:jc w:val="center"/>'))
            continue
        chapter = re.match(r"^第[一二三四五六七八九十]+章[ 　]*", line)
        article = re.match(r"^第[一二三四五六七八九十]+条[ 　]*", line)
        item = re.match(r"^（[一二三四五六七八九十]+）", line)
        if chapter:
            body.append(para(run(line[chapter.end():], bold=True), numpr=(1, 0), extra='<w:jc w:val="center"/>'))
            in_items = False
        elif article:
            text = line[article.end():]
            runs = run(text)
            if text.endswith("。") and len(notes) < 3:
                notes.append(f"注{len(notes) + 1}：本条依据{('党章', '监督条例', '问责条例')[len(notes)]}制定。")
                runs += _ENDNOTE_REF.format(len(notes))
            body.append(para(runs, numpr=(2, 0), extra=_BODY))
            in_items = False
            if len(notes) == 1 and not any(_HIDDEN_NOTE in b for b in body):
                hidden = '<w:rPr><w:vanish/></w:rPr>'
                body.append(f'<w:p><w:pPr>{_BODY}<w:rPr><w:vanish/></w:rPr></w:pPr><w:r>{hidden}<w:t>{_HIDDEN_NOTE}</w:t></w:r></w:p>')
        elif item:
            if not in_items:
                item_list += 1
                in_items = True
            body.append(para(run(line[item.end():]), numpr=(item_list, 0), extra=_BODY))
        else:
            body.append(para(run(line), extra=_BODY))
    data = _package("".join(body), numbering=_restart_numbering(item_list), header=next(lines[i - 1] for i in range(1, len(lines)) if lines[i].startswith("（")).strip())
    data = _with_parts(data, {"endnotes.xml": (_endnotes(notes), "endnotes",
                                               "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml")})
    (OUT / target).write_bytes(data)
    _gold(source, target)


# ---------------------------------------------------------------- LibreOffice's exports


def libreoffice(names: list[str], to: str, shown: dict[str, dict[str, str]] | None = None) -> None:
    """Each DOCX here converted by LibreOffice (``to``: ``pdf`` or ``txt:Text``), its gold beside it;
    ``shown`` the text the conversion writes that Word does not show (by file, then by the anchor
    of the unit it is in), counted into that unit."""
    soffice = shutil.which("soffice")
    if soffice is None:
        print("soffice not found: the LibreOffice exports are left as committed")
        return
    suffix = to.split(":")[0]
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            subprocess.run([soffice, "--headless", "--convert-to", to, "--outdir", tmp, str(OUT / name)],
                           check=True, capture_output=True, timeout=300)
            stem = Path(name).stem
            tag = "LibreOffice" if suffix == "pdf" else "LibreOffice另存文本"
            target = f"{stem}_{tag}.{suffix}"
            shutil.move(Path(tmp) / f"{stem}.{suffix}", OUT / target)
            gold = json.loads((OUT / f"{name}.gold.json").read_text(encoding="utf-8"))
            for unit in gold["units"]:
                unit["norm_len"] += len(_norm((shown or {}).get(name, {}).get(unit["anchor"], "")))
            (OUT / f"{target}.gold.json").write_text(json.dumps(gold, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- PDFs drawn as some producers draw them

_PAGE = (595.0, 842.0)
_SIDE, _TOP, _BOTTOM = 80.0, 80.0, 80.0
_SIZE, _PITCH = 12.0, 21.0
_WATERMARK = "内部资料　注意保存"
_HEADING_LINE = re.compile(r"^[ 　]*第[一二三四五六七八九十百零]+[章节][ 　]")
_LABEL = re.compile(r"^([^：:，。]{2,6})[：:]")  # a record's section name before its colon


@dataclass
class _Op:
    """One printed line: its place, text, size and how it is set."""

    x: float
    y: float
    text: str
    size: float = _SIZE
    bold: bool = False
    spacing: float = 0.0  # character spacing (Tc) spreading a justified line to the margin
    label: int = 0  # leading characters set letter-spaced (a section name)


def _pdf_width(text: str, size: float) -> float:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    return pdfmetrics.stringWidth(text, FONT, size)


def _pdf_pages(lines: list[str], *, label_space: float = 0.0, justify: bool = False, size: tuple[float, float] = _PAGE) -> list[list[_Op]]:
    """A corpora text laid out on A4 pages: the opening short lines centred and bold (the first
    larger), 章 / 节 headings centred and bold, every other line a paragraph with a two-character
    first-line indent, wrapped at the margin (a line never opens with closing punctuation);
    ``label_space`` spreads a record's section names, ``justify`` sets full lines to the margin by
    character spacing; ``size`` the page's width and height."""
    pages: list[list[_Op]] = [[]]
    width = size[0] - 2 * _SIDE
    y = size[1] - _TOP

    def room() -> None:
        nonlocal y
        if y < _BOTTOM:
            pages.append([])
            y = size[1] - _TOP

    for index, raw in enumerate(lines):
        line = raw.strip("　 ")
        if not line:
            y -= _PITCH / 2
            continue
        if (index < 4 and len(line) <= 24) or _HEADING_LINE.match(raw):
            font = 18.0 if index == 0 else 14.0 if index < 4 else _SIZE
            room()
            pages[-1].append(_Op((size[0] - _pdf_width(line, font)) / 2, y, line, font, bold=True))
            y -= _PITCH * 1.4
            continue
        label = _LABEL.match(line)
        label_chars = len(label.group(1)) if label and label_space else 0
        extra = label_chars * label_space
        out, current, limit = [], "", width - 2 * _SIZE - extra
        for char in line:
            if current and char not in NO_LINE_START and _pdf_width(current + char, _SIZE) > limit:
                out.append(current)
                current, limit = "", width
            current += char
        out.append(current)
        for k, text in enumerate(out):
            room()
            x = _SIDE + (2 * _SIZE if k == 0 else 0.0)
            spacing = 0.0
            if justify and k < len(out) - 1 and len(text) > 1:
                natural = _pdf_width(text, _SIZE) + (extra if k == 0 else 0.0)
                spacing = max(0.0, (_SIDE + width - x - natural) / (len(text) - 1))
            pages[-1].append(_Op(x, y, text, spacing=spacing, label=label_chars if k == 0 else 0))
            y -= _PITCH
    return pages


def _draw_pdf(pages: list[list[_Op]], target: str, *, reverse: bool = False, overstrike: bool = False,
              watermark: bool = False, label_space: float = 0.0, annotate: bool = False, sideways: bool = False) -> None:
    """Print ``pages``: ``reverse`` draws each page's lines bottom-up in the content stream,
    ``overstrike`` bolds a line by drawing it twice a fraction of a point apart (as some
    producers bold a CJK font with no bold face), ``watermark`` draws a diagonal watermark over
    each page, ``annotate`` adds a sticky-note comment and a link on each page, ``sideways`` prints
    landscape pages turned a quarter onto portrait sheets by the content's matrix (no ``/Rotate``),
    as some print drivers do."""
    from reportlab.lib.colors import Color
    from reportlab.pdfgen import canvas as rl_canvas

    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, pagesize=_PAGE, invariant=1)
    c.setAuthor("domainchunk")
    total = len(pages)
    for number, ops in enumerate(pages, start=1):
        if sideways:
            c.translate(_PAGE[0], 0)
            c.rotate(90)
        c.setFont(FONT, 9)
        c.drawCentredString((_PAGE[1] if sideways else _PAGE[0]) / 2, 45, f"第{number}页 共{total}页")
        for op in reversed(ops) if reverse else ops:
            for dx in ((0.0, 0.35) if op.bold and overstrike else (0.0,)):
                c.saveState()
                out = c.beginText(op.x + dx, op.y)
                out.setFont(FONT, op.size)
                if op.bold and not overstrike:
                    c.setLineWidth(op.size / 30)
                    out.setTextRenderMode(2)
                if op.label:
                    out.setCharSpace(label_space)
                    out.textOut(op.text[: op.label])
                out.setCharSpace(op.spacing)
                out.textOut(op.text[op.label:])
                c.drawText(out)
                c.restoreState()
        if watermark:
            c.saveState()
            c.setFillColor(Color(0.6, 0.6, 0.6, alpha=0.35))
            c.translate(_PAGE[0] / 2, _PAGE[1] / 2)
            c.rotate(35)
            c.setFont(FONT, 40)
            c.drawCentredString(0, 0, _WATERMARK)
            c.restoreState()
        if annotate:
            c.textAnnotation("审核意见：本页金额待财务核对后再签署。", Rect=(_SIDE, 720, _SIDE + 20, 740), relative=0)
            c.linkURL("https://example.invalid/contract", (_SIDE, 90, _SIDE + 200, 110), relative=0)
        c.showPage()
    c.save()
    (OUT / target).write_bytes(buffer.getvalue())



# a form's static labels: one opening the line (主　诉：, spaced out or not), one after a gap (　性别：)
_FIELD_LABEL = re.compile(r"^[^：:，。；]{1,10}[：:]|(?<=　)[^：:　\s，。；]{1,8}[：:]")


def _split_fields(op: _Op) -> tuple[list[_Op], list[_Op]]:
    """A printed line cut into a report engine's static labels and its field values: (labels,
    values), each piece at its place on the line."""
    labels: list[_Op] = []
    values: list[_Op] = []
    at = 0
    for match in [*_FIELD_LABEL.finditer(op.text), None]:
        start = match.start() if match else len(op.text)
        if start > at:
            values.append(_Op(op.x + _pdf_width(op.text[:at], op.size), op.y, op.text[at:start], op.size, op.bold))
        if match:
            labels.append(_Op(op.x + _pdf_width(op.text[:start], op.size), op.y, match.group(), op.size, op.bold))
            at = match.end()
    return labels, values


def report_engine_pdf(source: str, target: str) -> None:
    """A record as a report engine prints it (JasperReports, FastReport: an HIS's print
    templates): each page's static text (the title, every label) is drawn first, then every
    field's value at its place after its label, so a line's label and its value are far apart in
    the content stream."""
    pages = []
    for ops in _pdf_pages(_text_lines(source)):
        labels: list[_Op] = []
        values: list[_Op] = []
        for op in ops:
            if op.bold:
                labels.append(op)
                continue
            static, fields = _split_fields(op)
            labels += static
            values += fields
        pages.append(labels + values)
    _draw_pdf(pages, target)
    _gold(source, target)


_FILLED = re.compile(r"(?<=[^\d\s.])\d[\d.:-]*\d")  # a number typed into a blank: a sum, a date's parts


def form_fields_pdf(source: str, target: str) -> None:
    """A contract form whose blanks were filled in a PDF viewer: every number past a line's start
    (a sum, a date's parts, a term) is the value of a text field (an AcroForm widget in the
    Helvetica the viewer sets it in) in its place on the line, the printed words around it."""
    from reportlab.pdfgen import canvas as rl_canvas

    pages = _pdf_pages(_text_lines(source))
    buffer = io.BytesIO()
    c = rl_canvas.Canvas(buffer, pagesize=_PAGE, invariant=1)
    c.setAuthor("domainchunk")
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fields = 0
    for number, ops in enumerate(pages, start=1):
        c.setFont(FONT, 9)
        c.drawCentredString(_PAGE[0] / 2, 45, f"第{number}页 共{len(pages)}页")
        for op in ops:
            x, at = op.x, 0
            for match in [*_FILLED.finditer(op.text), None]:
                start = match.start() if match else len(op.text)
                if start > at:
                    out = c.beginText(x, op.y)
                    out.setFont(FONT, op.size)
                    if op.bold:
                        out.setTextRenderMode(2)
                    out.textOut(op.text[at:start])
                    c.drawText(out)
                    x += _pdf_width(op.text[at:start], op.size)
                if match:
                    fields += 1
                    width = stringWidth(match.group(), "Helvetica", op.size) + 2
                    c.acroForm.textfield(name=f"field{fields}", value=match.group(), x=x, y=op.y - 3, width=width, height=op.size + 4,
                                         fontName="Helvetica", fontSize=op.size, borderWidth=0, borderColor=None, fillColor=None,
                                         forceBorder=False)
                    x += width
                    at = match.end()
        c.showPage()
    c.save()
    (OUT / target).write_bytes(buffer.getvalue())
    _gold(source, target)


BOTTOM_UP = "judgment_行政公益诉讼判决书_内容流自下而上_reportlab.pdf"
OVERSTRIKE = "statute_农村供水工程管理条例_重影加粗斜向水印_reportlab.pdf"
LETTER_SPACED = "emr_入院记录_标题字距Tc两端对齐_reportlab.pdf"
ANNOTATED = "contract_法律服务委托协议_批注链接注释_reportlab.pdf"
REPORT_ENGINE = "emr_儿科入院记录_报表引擎先标签后字段值_reportlab.pdf"
FORM_FIELDS = "contract_个人借款合同_填写表单域_reportlab.pdf"
SIDEWAYS = "judgment_刑事判决书_附录_横向内容竖放页面_reportlab.pdf"


def reportlab_pdfs() -> None:
    sources = {BOTTOM_UP: "judgment_示范行政公益诉讼判决书.txt", OVERSTRIKE: "statute_示范农村供水工程管理条例_国务院令.txt",
               LETTER_SPACED: "emr_入院记录_专科检查_诊断分行.txt", ANNOTATED: "contract_法律服务委托协议_括号汉字条款.txt"}
    _draw_pdf(_pdf_pages(_text_lines(sources[BOTTOM_UP])), BOTTOM_UP, reverse=True)
    _draw_pdf(_pdf_pages(_text_lines(sources[OVERSTRIKE])), OVERSTRIKE, overstrike=True, watermark=True)
    space = _SIZE * 0.8
    _draw_pdf(_pdf_pages(_text_lines(sources[LETTER_SPACED]), label_space=space, justify=True), LETTER_SPACED, label_space=space)
    _draw_pdf(_pdf_pages(_text_lines(sources[ANNOTATED])), ANNOTATED, annotate=True)
    for target, source in sources.items():
        _gold(source, target)
    report_engine_pdf("emr_儿科入院记录_出生喂养史.txt", REPORT_ENGINE)
    source = "judgment_示范刑事判决书_附录.txt"
    _draw_pdf(_pdf_pages(_text_lines(source), size=(_PAGE[1], _PAGE[0])), SIDEWAYS, sideways=True)
    _gold(source, SIDEWAYS)
    form_fields_pdf("contract_个人借款合同_条题粘连.txt", FORM_FIELDS)


def libreoffice_round_trip(names: list[str]) -> None:
    """Each DOCX here opened in LibreOffice, saved as ODT and that saved as DOCX again: the DOCX
    LibreOffice's own writer makes (its styles, list definitions and form fields as it writes
    them: a drop-down's result an empty run), its gold beside it."""
    soffice = shutil.which("soffice")
    if soffice is None:
        print("soffice not found: the LibreOffice round trips are left as committed")
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            subprocess.run([soffice, "--headless", "--convert-to", "odt", "--outdir", tmp, str(OUT / name)],
                           check=True, capture_output=True, timeout=300)
            odt = Path(tmp) / f"{Path(name).stem}.odt"
            subprocess.run([soffice, "--headless", "--convert-to", "docx:MS Word 2007 XML", "--outdir", str(Path(tmp) / "docx"), str(odt)],
                           check=True, capture_output=True, timeout=300)
            target = f"{Path(name).stem}_LibreOffice往返.docx"
            shutil.move(Path(tmp) / "docx" / f"{Path(name).stem}.docx", OUT / target)
            (OUT / f"{target}.gold.json").write_text((OUT / f"{name}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


NESTED = "judgment_刑事自诉判决书_嵌套域窗体域_Word.docx"
FORMS = "emr_产后访视记录_旧式复选框下拉窗体域_Word.docx"
MERGED = "contract_住宅房屋租赁合同_合并单元格嵌套表_Word.docx"
RESTART = "statute_党内法规_条项列表重新编号尾注_Word.docx"


def main() -> None:
    judgment_nested_fields_docx("judgment_刑事自诉判决书_自诉人诉称_被告人辩称.txt", NESTED)
    emr_legacy_form_fields_docx("emr_产后访视记录_基本公卫表单.txt", FORMS)
    contract_merged_tables_docx("contract_住宅房屋租赁合同_当事人表格_附清单.txt", MERGED)
    statute_restarted_items_docx("statute_党内法规_印发通知_章条_附则.txt", RESTART)
    reportlab_pdfs()
    libreoffice([MERGED, RESTART], "pdf")  # its print of the nested fields shows their codes' inner results: not kept
    # its text export writes hidden text (the drafting note after the first article) as any other
    libreoffice([MERGED, RESTART], "txt:Text", {RESTART: {"第一条为了加强和规范党政机关领导": _HIDDEN_NOTE}})
    libreoffice_round_trip([FORMS, MERGED, RESTART])  # it writes the nested fields' inner results as text: not kept


if __name__ == "__main__":
    main()
