"""DOCX reader: body paragraphs and tables in document order, Word numbering made visible.

Word keeps automatic numbers (``第一条``, ``1.1``, ``（一）``) out of the text, in
numbering.xml; a reader that ignores them loses the very labels the outline
engine looks for. :class:`Numbering` recomputes each label the way Word shows
it and the reader puts it in front of the paragraph text.

Each paragraph is one line of ``Document.text``; a table is one line per row
with tab-separated cells. Pages are known only from explicit breaks (page
breaks, page-break-before, next-page section breaks): when there are any, the
blocks and ``Document.pages`` carry page numbers counted from them, otherwise
no page numbers are given.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

import regex
from docx import Document as open_docx
from docx.oxml.ns import qn
from lxml import etree

from ..errors import ReadError
from ..models import Document
from .layout import CellSpec, DocumentBuilder, Fragment, clean_cell, clean_line, looks_like_header
from .limits import check_archive

SHORT_BOLD = 30  # a bold paragraph up to this many characters is a heading candidate
_HEADING_NAME = regex.compile(r"^(?:heading|标题)\s*([1-9])$", regex.IGNORECASE)
_TITLE_NAME = regex.compile(r"^(?:title|标题)$", regex.IGNORECASE)
# Word's table-of-contents styles: entries "toc 1" … "toc 9" (目录 1 in a Chinese Word) and the "TOC Heading" title.
_TOC_NAME = regex.compile(r"^(?:toc|目录)\s*(?:[1-9]|heading|标题)$", regex.IGNORECASE)
_SENTENCE_END = regex.compile(r"[。；！？;!?]$")


def _val(element, tag: str) -> str | None:
    """The ``w:val`` of child ``tag`` (``None`` when the child is absent)."""
    if element is None:
        return None
    child = element.find(qn(tag))
    return None if child is None else child.get(qn("w:val"))


def _is_on(element, tag: str) -> bool | None:
    """A toggle property such as ``w:b``: ``None`` when not set here."""
    if element is None:
        return None
    child = element.find(qn(tag))
    if child is None:
        return None
    return child.get(qn("w:val"), "true") not in ("0", "false", "off")


# ---------------------------------------------------------------- number formats

_CN_DIGITS = "零一二三四五六七八九"
_CN_LEGAL_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_CN_UNITS = ("", "十", "百", "千")
_CN_LEGAL_UNITS = ("", "拾", "佰", "仟")
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
_CELESTIAL = "甲乙丙丁戊己庚辛壬癸"
_ZODIAC = "子丑寅卯辰巳午未申酉戌亥"


def chinese_number(n: int, digits: str = _CN_DIGITS, units: tuple[str, ...] = _CN_UNITS) -> str:
    """Chinese counting as written in legal text: 十一, 二十, 一百零一, 一千零十, 一万零五."""
    if n == 0:
        return digits[0]
    if n >= 10000:
        high, low = divmod(n, 10000)
        rest = chinese_number(low, digits, units) if low else ""
        zero = digits[0] if 0 < low < 1000 else ""
        return chinese_number(high, digits, units) + "万" + zero + rest
    out: list[str] = []
    pending_zero = False
    for power in range(3, -1, -1):
        digit = n // 10**power % 10
        if digit == 0:
            pending_zero = bool(out)
            continue
        if pending_zero:
            out.append(digits[0])
            pending_zero = False
        out.append(digits[digit] + units[power])
    text = "".join(out)
    # 一十一 is written 十一 when it opens the number (not inside 一百一十)
    return text[1:] if units is _CN_UNITS and 10 <= n < 20 else text


def _letters(n: int, alphabet: str) -> str:
    """Word repeats the letter: A … Z, AA … ZZ, AAA …"""
    count, index = divmod(n - 1, 26)
    return alphabet[index] * (count + 1)


def _roman(n: int) -> str:
    out = []
    for value, numeral in _ROMAN:
        while n >= value:
            out.append(numeral)
            n -= value
    return "".join(out)


def _enclosed(n: int, first: int, last: int) -> str:
    """Circled/parenthesised digits exist only for small numbers; Word falls back to decimal."""
    return chr(first + n - 1) if 1 <= n <= last else str(n)


def format_number(n: int, fmt: str) -> str:
    """A counter value in one of Word's ``w:numFmt`` formats (unknown formats as decimal)."""
    if fmt in ("chineseCounting", "chineseCountingThousand", "japaneseCounting", "taiwaneseCounting", "taiwaneseCountingThousand"):
        return chinese_number(n)
    if fmt in ("chineseLegalSimplified",):
        return chinese_number(n, _CN_LEGAL_DIGITS, _CN_LEGAL_UNITS)
    if fmt == "ideographDigital":
        return "".join("〇一二三四五六七八九"[int(d)] for d in str(n))
    if fmt == "ideographTraditional":
        return _CELESTIAL[(n - 1) % 10]
    if fmt == "ideographZodiac":
        return _ZODIAC[(n - 1) % 12]
    if fmt == "upperLetter":
        return _letters(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if fmt == "lowerLetter":
        return _letters(n, "abcdefghijklmnopqrstuvwxyz")
    if fmt == "upperRoman":
        return _roman(n)
    if fmt == "lowerRoman":
        return _roman(n).lower()
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    if fmt == "none":
        return ""
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese"):
        return _enclosed(n, 0x2460, 20)
    if fmt == "decimalEnclosedParen":
        return _enclosed(n, 0x2474, 20)
    if fmt == "decimalEnclosedFullstop":
        return _enclosed(n, 0x2488, 20)
    if fmt == "ideographEnclosedCircle":
        return _enclosed(n, 0x3280, 10)
    return str(n)


# ---------------------------------------------------------------- numbering.xml


@dataclass
class Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    suffix: str = "tab"
    legal: bool = False  # w:isLgl: show every level's number as decimal
    restart: int | None = None  # w:lvlRestart: restart after this level (1-based); 0 = never
    style: str | None = None  # w:pStyle: the paragraph style bound to this level


def _level(lvl) -> Level:
    level = Level()
    if (start := _val(lvl, "w:start")) is not None:
        level.start = int(start)
    level.fmt = _val(lvl, "w:numFmt") or level.fmt
    text = _val(lvl, "w:lvlText")
    level.text = text if text is not None else level.text
    level.suffix = _val(lvl, "w:suff") or level.suffix
    level.legal = bool(_is_on(lvl, "w:isLgl"))
    if (restart := _val(lvl, "w:lvlRestart")) is not None:
        level.restart = int(restart)
    level.style = _val(lvl, "w:pStyle")
    return level


@dataclass
class _List:
    """One ``w:num``: its levels (abstract definition with overrides) and counters."""

    levels: dict[int, Level]
    key: str  # lists without overrides share counters with their abstract definition
    start_overrides: dict[int, int] = field(default_factory=dict)


class Numbering:
    """Computes Word's visible list labels, paragraph by paragraph, in document order."""

    def __init__(self, root, style_num: dict[str, tuple[str | None, int | None]]) -> None:
        self._lists: dict[str, _List] = {}
        self._counters: dict[str, list[int | None]] = {}
        self._started: set[str] = set()
        if root is None:
            return
        abstract = {a.get(qn("w:abstractNumId")): a for a in root.findall(qn("w:abstractNum"))}
        for num in root.findall(qn("w:num")):
            num_id = num.get(qn("w:numId"))
            abstract_id = _val(num, "w:abstractNumId")
            definition = self._resolve_link(abstract.get(abstract_id), abstract, root, style_num)
            if definition is None:
                continue
            levels = {int(l.get(qn("w:ilvl"), "0")): _level(l) for l in definition.findall(qn("w:lvl"))}
            overrides: dict[int, int] = {}
            for override in num.findall(qn("w:lvlOverride")):
                ilvl = int(override.get(qn("w:ilvl"), "0"))
                if (lvl := override.find(qn("w:lvl"))) is not None:
                    levels[ilvl] = _level(lvl)
                if (start := _val(override, "w:startOverride")) is not None:
                    overrides[ilvl] = int(start)
            key = f"num:{num_id}" if num.find(qn("w:lvlOverride")) is not None else f"abstract:{definition.get(qn('w:abstractNumId'))}"
            self._lists[num_id] = _List(levels, key, overrides)

    @staticmethod
    def _resolve_link(definition, abstract: dict, root, style_num: dict) -> etree._Element | None:
        """An abstractNum with ``w:numStyleLink`` takes its levels from the list its style names."""
        if definition is None or (link := _val(definition, "w:numStyleLink")) is None:
            return definition
        num_id = style_num.get(link, (None, None))[0]
        for num in root.findall(qn("w:num")):
            if num.get(qn("w:numId")) == num_id:
                return abstract.get(_val(num, "w:abstractNumId"))
        return definition

    def level_for_style(self, num_id: str, style_id: str) -> int | None:
        """The level whose ``w:pStyle`` binds it to ``style_id`` (heading styles tied to a list)."""
        listing = self._lists.get(num_id)
        if listing is None:
            return None
        return next((i for i, level in listing.levels.items() if level.style == style_id), None)

    def label(self, num_id: str, ilvl: int) -> tuple[str, str] | None:
        """Advance the counter of (list, level) and return (label, separator), or ``None``."""
        listing = self._lists.get(num_id)
        if listing is None or ilvl not in listing.levels:
            return None
        levels = listing.levels
        counters = self._counters.setdefault(listing.key, [None] * 9)
        if num_id not in self._started:  # startOverride applies when the list instance first appears
            self._started.add(num_id)
            for i, start in listing.start_overrides.items():
                counters[i] = start - 1  # the next label at this level shows ``start``
        level = levels[ilvl]
        current = counters[ilvl]
        counters[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, 9):
            restart = levels[deeper].restart if deeper in levels else None
            if restart != 0 and (restart is None or restart > ilvl):
                counters[deeper] = None
        if level.fmt == "bullet":  # a bullet is not a label anyone cites
            return None

        def number(match: regex.Match) -> str:
            i = int(match.group(1)) - 1
            ref = levels.get(i, Level())
            counted = counters[i]
            value = counted if counted is not None else ref.start
            fmt = "decimal" if level.legal and i != ilvl else ref.fmt
            return format_number(value, fmt)

        label = regex.sub(r"%([1-9])", number, level.text)
        return label, "" if level.suffix == "nothing" else " "


# ---------------------------------------------------------------- styles


@dataclass
class StyleInfo:
    name: str = ""
    based_on: str | None = None
    outline: int | None = None
    num_id: str | None = None
    ilvl: int | None = None
    bold: bool | None = None


def _style_elements(document) -> list[tuple[str, etree._Element]]:
    return [(style.get(qn("w:styleId")), style) for style in document.styles.element.findall(qn("w:style"))]


def _styles(document) -> dict[str, StyleInfo]:
    styles = {}
    for style_id, style in _style_elements(document):
        ppr, rpr = style.find(qn("w:pPr")), style.find(qn("w:rPr"))
        numpr = ppr.find(qn("w:numPr")) if ppr is not None else None
        outline = _val(ppr, "w:outlineLvl")
        ilvl = _val(numpr, "w:ilvl")
        styles[style_id] = StyleInfo(
            name=(_val(style, "w:name") or "").strip(),
            based_on=_val(style, "w:basedOn"),
            outline=int(outline) if outline is not None else None,
            num_id=_val(numpr, "w:numId"),
            ilvl=int(ilvl) if ilvl is not None else None,
            bold=_is_on(rpr, "w:b"),
        )
    return styles


def _inherited(styles: dict[str, StyleInfo], style_id: str | None, attribute: str):
    """The first value of ``attribute`` along the ``basedOn`` chain (cycles cut)."""
    seen = set()
    while style_id and style_id in styles and style_id not in seen:
        seen.add(style_id)
        value = getattr(styles[style_id], attribute)
        if value is not None:
            return value
        style_id = styles[style_id].based_on
    return None


def _heading_level(styles: dict[str, StyleInfo], style_id: str | None, ppr) -> int | None:
    """Heading level from the paragraph's outline level, its style's, or a Heading N / 标题 N name."""
    outline = _val(ppr, "w:outlineLvl")
    if outline is None:
        value = _inherited(styles, style_id, "outline")
        outline = str(value) if value is not None else None
    if outline is not None and outline.isdigit() and int(outline) < 9:  # 9 means body text
        return int(outline) + 1
    seen = set()
    while style_id and style_id in styles and style_id not in seen:
        seen.add(style_id)
        if match := _HEADING_NAME.match(styles[style_id].name):
            return int(match.group(1))
        style_id = styles[style_id].based_on
    return None


# ---------------------------------------------------------------- body walk


@dataclass
class _Paragraph:
    """A paragraph's text split at explicit page breaks: pieces[i] is printed on page start+i."""

    pieces: list[str]
    bold: bool


class _Reader:
    def __init__(self, document) -> None:
        self.styles = _styles(document)
        style_num = {sid: (s.num_id, s.ilvl) for sid, s in self.styles.items()}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError):
            root = None
        self.numbering = Numbering(root, style_num)
        self.default_style = next(
            (sid for sid, el in _style_elements(document) if el.get(qn("w:type")) == "paragraph" and el.get(qn("w:default")) in ("1", "true")),
            None,
        )
        self.builder = DocumentBuilder()
        self.page = 1
        self.page_breaks = 0

    # -- paragraphs

    def _run_bold(self, run, paragraph_bold: bool) -> bool:
        rpr = run.find(qn("w:rPr"))
        direct = _is_on(rpr, "w:b")
        if direct is not None:
            return direct
        styled = _inherited(self.styles, _val(rpr, "w:rStyle"), "bold")
        return styled if styled is not None else paragraph_bold

    def _paragraph_text(self, p, style_id: str | None) -> _Paragraph:
        paragraph_bold = bool(_inherited(self.styles, style_id, "bold"))
        pieces = [""]
        bold_chars = plain_chars = 0
        for run in p.iter(qn("w:r")):
            if _outside_body_text(run, p):
                continue
            bold = self._run_bold(run, paragraph_bold)
            for child in run:
                tag = child.tag
                if tag == qn("w:t"):
                    text = child.text or ""
                elif tag == qn("w:tab"):
                    text = "\t"
                elif tag in (qn("w:cr"), qn("w:br")):
                    if child.get(qn("w:type")) == "page":
                        pieces.append("")
                        continue
                    text = " "
                elif tag == qn("w:noBreakHyphen"):
                    text = "-"
                else:
                    continue
                pieces[-1] += text
                count = len(text.strip())
                bold_chars, plain_chars = (bold_chars + count, plain_chars) if bold else (bold_chars, plain_chars + count)
        return _Paragraph(pieces, bold_chars > 0 and plain_chars == 0)

    def _numbering_label(self, ppr, style_id: str | None) -> tuple[str, str] | None:
        numpr = ppr.find(qn("w:numPr")) if ppr is not None else None
        num_id = _val(numpr, "w:numId") or _inherited(self.styles, style_id, "num_id")
        if not num_id or num_id == "0":  # numId 0 switches inherited numbering off
            return None
        ilvl: str | int | None = _val(numpr, "w:ilvl")
        if ilvl is None:
            inherited = _inherited(self.styles, style_id, "ilvl")
            bound = self.numbering.level_for_style(num_id, style_id) if style_id else None
            ilvl = inherited if inherited is not None else (bound or 0)
        return self.numbering.label(num_id, int(ilvl))

    def paragraph(self, p) -> None:
        ppr = p.find(qn("w:pPr"))
        style_id = _val(ppr, "w:pStyle") or self.default_style
        if _is_on(ppr, "w:pageBreakBefore"):
            self._next_page()
        label = self._numbering_label(ppr, style_id)
        content = self._paragraph_text(p, style_id)
        texts = [clean_line(piece) for piece in content.pieces]
        if label and any(texts):
            first = next(i for i, t in enumerate(texts) if t)
            texts[first] = clean_line(label[0]) + label[1] + texts[first]
        fragments = []
        for index, text in enumerate(texts):
            if index:
                self._next_page()
            fragments.append(Fragment(text, self.page))
        self._write_paragraph(fragments, style_id, ppr, content.bold)
        sect = ppr.find(qn("w:sectPr")) if ppr is not None else None
        if sect is not None and _val(sect, "w:type") != "continuous":
            self._next_page()

    def _write_paragraph(self, fragments: list[Fragment], style_id: str | None, ppr, bold: bool) -> None:
        text = "".join(f.text for f in fragments)
        if not text:
            return
        level = _heading_level(self.styles, style_id, ppr)
        name = self.styles[style_id].name if style_id in self.styles else ""
        if _TOC_NAME.match(name):  # TOC entries repeat the headings: marked so the outline skips them
            self.builder.line(fragments, style="toc")
        elif level is not None:
            self.builder.line(fragments, kind="heading", level=level)
        elif _TITLE_NAME.match(name):
            self.builder.line(fragments, kind="heading")
        else:
            short_bold = bold and len(text) <= SHORT_BOLD and not _SENTENCE_END.search(text)
            self.builder.line(fragments, style="bold" if short_bold else None)

    def _next_page(self) -> None:
        self.page += 1
        self.page_breaks += 1

    # -- tables

    def table(self, tbl) -> None:
        rows: list[list[CellSpec]] = []
        header_rows = 0
        for tr in tbl.findall(qn("w:tr")):
            row = []
            for tc in tr.findall(qn("w:tc")):
                tcpr = tc.find(qn("w:tcPr"))
                span = _val(tcpr, "w:gridSpan")
                merge = tcpr.find(qn("w:vMerge")) if tcpr is not None else None
                continuation = merge is not None and merge.get(qn("w:val"), "continue") == "continue"
                text = "" if continuation else self._cell_text(tc)
                row.append(CellSpec(text, int(span) if span else 1))
            if _is_on(tr.find(qn("w:trPr")), "w:tblHeader") and len(rows) == header_rows:
                header_rows += 1
            rows.append(row)
        if not header_rows and looks_like_header(rows):
            header_rows = 1
        self.builder.table(rows, page=self.page, header_rows=header_rows)

    def _cell_text(self, tc) -> str:
        """A cell's paragraphs (with their list labels) joined on one line."""
        parts = []
        for p in tc.iter(qn("w:p")):
            ppr = p.find(qn("w:pPr"))
            style_id = _val(ppr, "w:pStyle") or self.default_style
            label = self._numbering_label(ppr, style_id)
            text = clean_line(" ".join(self._paragraph_text(p, style_id).pieces))
            if text:
                parts.append(f"{label[0]}{label[1]}{text}" if label else text)
        return clean_cell("\n".join(parts))

    # -- body

    def walk(self, container) -> None:
        for child in container:
            if child.tag == qn("w:p"):
                self.paragraph(child)
            elif child.tag == qn("w:tbl"):
                self.table(child)
            elif child.tag == qn("w:sdt"):  # content controls wrap ordinary paragraphs and tables
                content = child.find(qn("w:sdtContent"))
                if content is not None:
                    self.walk(content)


def _outside_body_text(run, paragraph) -> bool:
    """Runs inside text boxes or alternate-content fallbacks are not the paragraph's own text."""
    for ancestor in run.iterancestors():
        if ancestor is paragraph:
            return False
        if ancestor.tag in (qn("w:txbxContent"), qn("w:drawing"), qn("w:pict"), qn("w:del")):
            return True
        if etree.QName(ancestor).localname == "AlternateContent":
            return True
    return False


def _check_package(data: bytes, source: str) -> None:
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise ReadError(source, "old binary Word (.doc) file, not DOCX: save it as .docx first")
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile:
        raise ReadError(source, "not a DOCX file: corrupt or not a zip archive") from None
    if "word/document.xml" not in names and not any(n.endswith("document.xml") and n.startswith("word/") for n in names):
        raise ReadError(source, "not a DOCX file: the zip has no word/document.xml")


def read_docx(data: bytes, source: str) -> Document:
    check_archive(data, source)
    _check_package(data, source)
    try:
        document = open_docx(io.BytesIO(data))
    except Exception as exc:  # python-docx raises KeyError, ValueError, lxml errors … for broken packages
        raise ReadError(source, f"corrupt DOCX: {type(exc).__name__}: {exc}") from None
    reader = _Reader(document)
    try:
        reader.walk(document.element.body)
    except (ValueError, etree.LxmlError) as exc:
        raise ReadError(source, f"corrupt DOCX: {exc}") from None
    built = reader.builder.build(source, metadata={"format": "docx", "explicit_page_breaks": reader.page_breaks})
    if not reader.page_breaks:  # no explicit breaks: the page of a paragraph is unknown
        built.pages = []
        for block in built.blocks:
            block.page = None
    title = next((b for b in built.blocks if b.kind == "heading"), None)
    if title is not None:
        built.title = built.text[title.start : title.end]
    if not built.text.strip():
        raise ReadError(source, "empty DOCX: no text in the document body")
    return built
