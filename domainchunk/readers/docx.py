"""DOCX reader: body paragraphs and tables in document order, Word numbering made visible.

Word keeps automatic numbers (``第一条``, ``1.1``, ``（一）``) out of the text, in
numbering.xml; a reader that ignores them loses the very labels the outline
engine looks for. :class:`Numbering` recomputes each label the way Word shows
it and the reader puts it in front of the paragraph text.

Each paragraph is one line of ``Document.text`` (a soft line break, Shift+Enter,
ends a line too; a tab or a position tab is a tab); a table is one line per row with
tab-separated cells, except a row whose cells hold tables of their own, a layout row whose
cells are read as the page areas they are (paragraphs and tables in turn). A
paragraph set as a heading (a Heading N style, or an outline level on it or its
style) is written with its depth in Markdown marks (``## 第一节 …``), except the
document's first line, its title. Text boxes are read where they are anchored, and so is
an imported web page (``w:altChunk``, HTML or MIME HTML, as web systems export Word files);
headers and footers (page furniture) are not read, nor hidden text (set on a run or by its
character or paragraph style), a ruby's phonetic guide, or what tracked changes removed (deleted
or moved-away text, paragraphs and rows); a symbol inserted from Wingdings, Wingdings 2 or Symbol
(a form's check boxes, Greek letters) is read as its Unicode character. Strict Open XML
packages, macro-enabled documents and templates are read as .docx is. A column whose cells are
merged down over the rows they group (a lab's panel names) gives each group a
caption row above it; a copy of a marked header row inside the table (a
printout's page break) is dropped; a table that sets two panels side by side (its header row
names the same columns twice) is read half by half. Pages are known only from explicit breaks (page
breaks, page-break-before, next-page section breaks): when there are any, the
blocks and ``Document.pages`` carry page numbers counted from them, otherwise
no page numbers are given.
"""
from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from collections.abc import Callable
from typing import Any

import regex
from lxml import etree

from ..errors import ReadError
from ..models import Document
from .html import decoded, mime_html, write_html
from .layout import CellSpec, DocumentBuilder, Fragment, clean_cell, clean_line, group_captions, looks_like_header, side_by_side
from .limits import check_archive

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_NAMESPACES = {"w": _W, "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
               "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}


@cache
def qn(tag: str) -> str:
    """``w:b`` as lxml spells it, ``{namespace}b`` (cached: it is asked per element read)."""
    prefix, name = tag.split(":")
    return f"{{{_NAMESPACES[prefix]}}}{name}"


# Tags compared once per element of the body walk: spelled once here, not per comparison.
W_P, W_TBL, W_SDT, W_R, W_T, W_CR, W_BR = map(qn, ("w:p", "w:tbl", "w:sdt", "w:r", "w:t", "w:cr", "w:br"))
W_NO_BREAK_HYPHEN, W_VAL, W_TYPE, W_PPR, W_RPR = map(qn, ("w:noBreakHyphen", "w:val", "w:type", "w:pPr", "w:rPr"))
W_VANISH, W_DEL, W_MOVE_FROM, W_TRPR = qn("w:vanish"), qn("w:del"), qn("w:moveFrom"), qn("w:trPr")
# A paragraph mark or table row so marked is gone in tracked changes: deleted, or moved away.
_REMOVED = (W_DEL, W_MOVE_FROM)
_OFF = ("0", "false", "off")
W_TXBX, W_TR, W_TC, W_ALT_CHUNK, R_ID = map(qn, ("w:txbxContent", "w:tr", "w:tc", "w:altChunk", "r:id"))
# Tabs as Word shows them: a tab character, and an absolute position tab (Word 2007+, aligned to the
# margin or indent: a right-aligned last column of a typed table, a signature line's date).
_TABS = frozenset(map(qn, ("w:tab", "w:ptab")))
_WRAPPERS = frozenset(map(qn, ("w:sdt", "w:customXml")))
# Runs under these are not the paragraph's own text (text boxes, drawings, deleted revisions and
# the old place of moved text: Word shows both struck through; a ruby's phonetic guide, set small
# above its base text, which is read).
_OUTSIDE_TAGS = frozenset(map(qn, ("w:txbxContent", "w:drawing", "w:pict", "w:del", "w:moveFrom", "w:rt")))
# A run's children that may hold a text box: a drawing, a VML picture, or both as alternatives.
_MC_ALTERNATE, _MC_FALLBACK = map(qn, ("mc:AlternateContent", "mc:Fallback"))
_SHAPES = frozenset(map(qn, ("w:drawing", "w:pict"))) | {_MC_ALTERNATE}
W_SYM, W_FONT, W_CHAR, W_RSTYLE = map(qn, ("w:sym", "w:font", "w:char", "w:rStyle"))
W_FLD_CHAR, W_FLD_CHAR_TYPE, W_FF_DATA = map(qn, ("w:fldChar", "w:fldCharType", "w:ffData"))
# How Word draws a legacy check box form field (FORMCHECKBOX), checked and not: the field has no
# text of its own, only its state in ``w:ffData``.
_CHECK_BOX = {True: "☒", False: "☐"}
# A symbol inserted from a symbol font (Insert > Symbol: ``w:sym``) is a code in the font's own
# encoding (Word writes it F000 + the byte); the check boxes and marks forms are ticked with, and
# the Symbol font's Greek and signs (γ-GT, μmol/L, ±, ≥), as Unicode publishes those fonts'
# glyphs. A symbol of any other font is its Unicode code point; one of these fonts not listed
# here is left out, as before.
_SYMBOL_FONTS: dict[str, dict[int, str]] = {
    "wingdings": {0x6E: "\u25a0", 0x6F: "\u25a1", 0xA8: "\u25fb", 0xFB: "\u2717", 0xFC: "\u2713", 0xFD: "\u2612", 0xFE: "\u2611"},
    "wingdings 2": {0x4F: "\u2717", 0x50: "\u2713", 0x52: "\u2611", 0x53: "\u2612", 0x54: "\u2612", 0xA3: "\u25a1"},
    "symbol": {
        **dict(zip(range(0x41, 0x5B), "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ")),
        **dict(zip(range(0x61, 0x7B), "αβχδεφγηιϕκλμνοπθρστυϖωξψζ")),
        0xA3: "≤", 0xB0: "°", 0xB1: "±", 0xB3: "≥", 0xB4: "×", 0xB8: "÷", 0xB9: "≠", 0xBB: "≈", 0xAE: "→",
    },
}
SHORT_BOLD = 30  # a bold paragraph up to this many characters is a heading candidate
_NEUTRAL = "：:　 "  # characters that neither make nor break a bold line
_MARKS = regex.compile(r"^#+ ")
_HEADING_NAME = regex.compile(r"^(?:heading|标题)\s*([1-9])$", regex.IGNORECASE)
_TITLE_NAME = regex.compile(r"^(?:title|标题)$", regex.IGNORECASE)
# Word's table-of-contents styles: entries "toc 1" … "toc 9" (目录 1 in a Chinese Word) and the "TOC Heading" title.
_TOC_NAME = regex.compile(r"^(?:toc|目录)\s*(?:[1-9]|heading|标题)$", regex.IGNORECASE)
_SENTENCE_END = regex.compile(r"[。；！？;!?]$")
_HTML_TYPES = frozenset(("text/html", "application/xhtml+xml"))  # an imported chunk Word reads as a web page
_LEVEL_REF = regex.compile(r"%([1-9])")  # in w:lvlText, "%2" is the counter of level 2


def _child(element, tag: str):
    """The first child ``tag`` of ``element``, or ``None``: ``element.find(tag)`` without lxml
    parsing ``tag`` as a path on every call (asked several times per paragraph and cell). A plain
    loop, not ``iterchildren(tag)``: the child asked for (``w:pPr``, ``w:tcPr``, ``w:trPr``) comes
    first where present, and setting up lxml's tag matcher cost twice the loop."""
    for child in element:
        if child.tag == tag:
            return child
    return None


def _props(element) -> dict:
    """The children of a property element (``w:pPr``, ``w:tcPr``, a list level …) by tag, the
    first of each as ``_child`` finds it: one pass over them, where a look-up per property asked
    (five or more per paragraph) set up lxml's tag matcher each time."""
    found: dict = {}
    if element is not None:
        for child in element:
            found.setdefault(child.tag, child)
    return found


def _val(props: dict, tag: str) -> str | None:
    """The ``w:val`` of child ``tag`` in ``_props`` (``None`` when the child is absent)."""
    child = props.get(qn(tag))
    return None if child is None else child.get(W_VAL)


def _is_on(props: dict, tag: str) -> bool | None:
    """A toggle property such as ``w:b`` in ``_props``: ``None`` when not set here."""
    child = props.get(qn(tag))
    if child is None:
        return None
    return child.get(W_VAL, "true") not in _OFF


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


def _level(element) -> Level:
    level = Level()
    lvl = _props(element)
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

    def __init__(self, root, styles: _Styles) -> None:
        self._lists: dict[str, _List] = {}
        self._counters: dict[str, list[int | None]] = {}
        self._started: set[str] = set()
        if root is None:
            return
        abstract = {a.get(qn("w:abstractNumId")): a for a in root.iterchildren(qn("w:abstractNum"))}
        for num in root.iterchildren(qn("w:num")):
            num_id = num.get(qn("w:numId"))
            abstract_id = _val(_props(num), "w:abstractNumId")
            definition = self._resolve_link(abstract.get(abstract_id), abstract, root, styles)
            if definition is None:
                continue
            levels = {int(l.get(qn("w:ilvl"), "0")): _level(l) for l in definition.iterchildren(qn("w:lvl"))}
            overrides: dict[int, int] = {}
            for override in num.iterchildren(qn("w:lvlOverride")):
                ilvl = int(override.get(qn("w:ilvl"), "0"))
                if (lvl := _child(override, qn("w:lvl"))) is not None:
                    levels[ilvl] = _level(lvl)
                if (start := _val(_props(override), "w:startOverride")) is not None:
                    overrides[ilvl] = int(start)
            key = f"num:{num_id}" if _child(num, qn("w:lvlOverride")) is not None else f"abstract:{definition.get(qn('w:abstractNumId'))}"
            self._lists[num_id] = _List(levels, key, overrides)

    @staticmethod
    def _resolve_link(definition, abstract: dict, root, styles: _Styles) -> etree._Element | None:
        """An abstractNum with ``w:numStyleLink`` takes its levels from the list its style names."""
        if definition is None or (link := _val(_props(definition), "w:numStyleLink")) is None:
            return definition
        num_id = styles[link].num_id if link in styles else None
        for num in root.iterchildren(qn("w:num")):
            if num.get(qn("w:numId")) == num_id:
                return abstract.get(_val(_props(num), "w:abstractNumId"))
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

        label = _LEVEL_REF.sub(number, level.text)
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
    hidden: bool | None = None  # Font > Hidden (w:vanish) set on the style


class _Styles:
    """styles.xml's ``w:style`` elements by id, each read into a :class:`StyleInfo` when first asked.

    A Word document defines a hundred or more styles and uses a handful; reading only those
    keeps styles.xml from costing more than the body.
    """

    def __init__(self, root) -> None:
        self.elements = {style.get(qn("w:styleId")): style for style in root.iterchildren(qn("w:style"))}
        self._read: dict[str, StyleInfo] = {}
        # whether any style hides its text: only then is a run's or paragraph's style asked
        self.any_hidden = next(root.iter(W_VANISH), None) is not None
        self.inherited: dict[tuple[str | None, str], Any] = {}  # see _inherited

    def __contains__(self, style_id: object) -> bool:
        return style_id in self.elements

    def __getitem__(self, style_id: str) -> StyleInfo:
        info = self._read.get(style_id)
        if info is None:
            info = self._read[style_id] = _style_info(self.elements[style_id])
        return info

    def default_paragraph_style(self) -> str | None:
        return next((sid for sid, el in self.elements.items()
                     if el.get(qn("w:type")) == "paragraph" and el.get(qn("w:default")) in ("1", "true")), None)


def _style_info(element) -> StyleInfo:
    style = _props(element)
    ppr = _props(style.get(W_PPR))
    numpr = _props(ppr.get(qn("w:numPr")))
    outline = _val(ppr, "w:outlineLvl")
    ilvl = _val(numpr, "w:ilvl")
    return StyleInfo(
        name=(_val(style, "w:name") or "").strip(),
        based_on=_val(style, "w:basedOn"),
        outline=int(outline) if outline is not None else None,
        num_id=_val(numpr, "w:numId"),
        ilvl=int(ilvl) if ilvl is not None else None,
        bold=_is_on(rpr := _props(style.get(W_RPR)), "w:b"),
        hidden=_is_on(rpr, "w:vanish"),
    )


def _inherited(styles: _Styles, style_id: str | None, attribute: str):
    """The first value of ``attribute`` along the ``basedOn`` chain (cycles cut); asked per paragraph
    and per run, so each (style, attribute) is walked once."""
    key = (style_id, attribute)
    if key not in styles.inherited:
        styles.inherited[key] = _walk_based_on(styles, style_id, attribute)
    return styles.inherited[key]


def _walk_based_on(styles: _Styles, style_id: str | None, attribute: str):
    seen = set()
    while style_id and style_id in styles and style_id not in seen:
        seen.add(style_id)
        value = getattr(styles[style_id], attribute)
        if value is not None:
            return value
        style_id = styles[style_id].based_on
    return None


def _heading_level(styles: _Styles, style_id: str | None, ppr: dict) -> int | None:
    """Heading level from the paragraph's outline level (``ppr``: its ``_props``), its style's, or
    a Heading N / 标题 N name."""
    outline = _val(ppr, "w:outlineLvl")
    if outline is None:
        value = _inherited(styles, style_id, "outline")
        outline = str(value) if value is not None else None
    if outline is not None and outline.isdigit() and int(outline) < 9:  # 9 means body text
        return int(outline) + 1
    key = (style_id, "heading name")  # asked per paragraph: each style's chain is walked once
    if key not in styles.inherited:
        styles.inherited[key] = _named_heading_level(styles, style_id)
    return styles.inherited[key]


def _named_heading_level(styles: _Styles, style_id: str | None) -> int | None:
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
    """A paragraph's text as the lines its soft line breaks (Shift+Enter) make, each line split
    at explicit page breaks: lines[i][j] is printed j pages after lines[i][0]'s page; ``boxes``
    are the text boxes anchored in it."""

    lines: list[list[str]]
    # the properties (``w:rPr`` or None) of each run holding characters that make or break a
    # bold line, in order, and the paragraph style's bold: read by :meth:`_Reader._is_bold` only
    # for a line short enough to be a bold heading (issue 13: most lines and every cell are not)
    styled_runs: list
    paragraph_bold: bool
    boxes: list = field(default_factory=list)

    def flat(self) -> str:
        """The text on one line, breaks of either kind as spaces (a table cell's text)."""
        return " ".join(" ".join(pieces) for pieces in self.lines)


def _symbol(sym) -> str:
    """The character a ``w:sym`` shows (see ``_SYMBOL_FONTS``), or "" when it is not known."""
    try:
        code = int(sym.get(W_CHAR, ""), 16)
    except ValueError:
        return ""
    font = _SYMBOL_FONTS.get((sym.get(W_FONT) or "").strip().lower())
    if font is not None:
        return font.get(code & 0xFF if code >= 0xF000 else code, "")
    return "" if 0xE000 <= code <= 0xF8FF else chr(code)  # a private-use code means nothing without its font


class _Field:
    """One complex field (``w:fldChar`` begin … separate … end) a paragraph's runs are inside."""

    __slots__ = ("data", "result", "written")

    def __init__(self, data, written: int) -> None:
        self.data = data  # the begin mark's w:ffData (a legacy form field), or None
        self.result = False  # past its separate mark: in the result Word shows, not the instruction
        self.written = written  # characters of the paragraph read before it began


def _fields_hide(fields: list[_Field]) -> bool:
    """Whether text inside ``fields`` (outermost first) is not shown: it is a nested field's text
    inside an outer field's instruction (``{ IF { MERGEFIELD x } = … }``: the inner field's cached
    result is part of the code, Word shows only the IF's result). Text directly in the innermost
    field's instruction part is not hidden: only ``w:instrText`` belongs there, and an unclosed
    field (a converter's slip) must not swallow the rest of the paragraph."""
    return any(not f.result for f in fields[:-1])


def _form_field_text(data) -> str:
    """What Word draws for a legacy form field with no result runs: a check box (its state: w:checked,
    else w:default) or a drop-down's selected entry (w:result, else w:default, else the first)."""
    props = _props(data)
    box = props.get(qn("w:checkBox"))
    if box is not None:
        box_props = _props(box)
        state = _is_on(box_props, "w:checked")
        if state is None:
            state = _val(box_props, "w:default") not in (None, *_OFF)
        return _CHECK_BOX[state]
    listing = props.get(qn("w:ddList"))
    if listing is not None:
        entries = [e.get(W_VAL) or "" for e in listing.iterchildren(qn("w:listEntry"))]
        listing_props = _props(listing)
        chosen = _val(listing_props, "w:result") or _val(listing_props, "w:default") or "0"
        return entries[int(chosen)] if chosen.isdigit() and int(chosen) < len(entries) else ""
    return ""


def _box_contents(shape) -> list:
    """The text boxes' contents under a drawing, picture or alternate content, each once."""
    if shape.tag == _MC_ALTERNATE:
        # Word writes a box twice, as a drawing (the choice) and a VML fallback: it shows the first that holds one
        shape = next((option for option in shape if next(option.iter(W_TXBX), None) is not None), shape)
    return [box for box in shape.iter(W_TXBX) if not _under(box, shape, W_TXBX)]  # a nested box is read with its own


def _under(element, container, tag: str) -> bool:
    """An ancestor of ``element`` below ``container`` is a ``tag`` (a text box, a fallback)."""
    for ancestor in element.iterancestors():
        if ancestor is container:
            return False
        if ancestor.tag == tag:
            return True
    return False


class _Reader:
    def __init__(self, styles_root, numbering_root, imported: Callable[[str], tuple[str | None, bytes] | None] = lambda rid: None) -> None:
        self.imported = imported  # an imported chunk's (content type, bytes) by its relationship id
        self.styles = _Styles(styles_root)
        self.numbering = Numbering(numbering_root, self.styles)
        self.default_style = self.styles.default_paragraph_style()
        self.builder = DocumentBuilder()
        self.page = 1
        self.page_breaks = 0

    # -- paragraphs

    def _run_bold(self, rpr, paragraph_bold: bool) -> bool:
        """Whether a run with properties ``rpr`` (its ``w:rPr``, or ``None``) is set in bold."""
        if rpr is None:  # nothing set on the run, nor a character style
            return paragraph_bold
        props = _props(rpr)
        direct = _is_on(props, "w:b")
        if direct is not None:
            return direct
        styled = _inherited(self.styles, _val(props, "w:rStyle"), "bold")
        return styled if styled is not None else paragraph_bold

    def _hidden(self, rpr, paragraph_hidden: bool) -> bool:
        """Whether a run with properties ``rpr`` is hidden text: set on the run, else by its
        character style, else by the paragraph's style (``paragraph_hidden``)."""
        direct = _child(rpr, W_VANISH)
        if direct is not None:
            return direct.get(W_VAL, "true") not in _OFF
        if not self.styles.any_hidden:
            return False
        character = _child(rpr, W_RSTYLE)
        styled = _inherited(self.styles, character.get(W_VAL), "hidden") if character is not None else None
        return styled if styled is not None else paragraph_hidden

    def _paragraph_text(self, p, style_id: str | None) -> _Paragraph:
        paragraph_bold = bool(_inherited(self.styles, style_id, "bold"))
        paragraph_hidden = self.styles.any_hidden and bool(_inherited(self.styles, style_id, "hidden"))
        pieces = [""]
        lines = [pieces]
        boxes: list = []
        styled_runs: list = []
        fields: list[_Field] = []  # the complex fields open at this run (Word nests them)
        written = 0  # characters read so far
        for run in p.iter(W_R):
            if run.getparent() is not p and _outside_body_text(run, p):
                continue
            if paragraph_hidden and (not len(run) or run[0].tag != W_RPR):  # w:rPr comes first where present
                continue  # a hidden style's run with no properties of its own
            rpr = None  # the run's properties, met in the same pass as its text
            counted = 0  # characters that make or break a bold line
            for child in run:
                tag = child.tag
                if tag == W_FLD_CHAR:
                    kind = child.get(W_FLD_CHAR_TYPE)
                    if kind == "begin":
                        fields.append(_Field(_child(child, W_FF_DATA), written))
                    elif kind == "separate" and fields:
                        fields[-1].result = True
                    elif kind == "end" and fields:
                        ended = fields.pop()
                        # a check box or drop-down has no text of its own (Word writes no result,
                        # LibreOffice an empty one): what it shows is drawn from its data
                        if ended.data is not None and written == ended.written and not _fields_hide([*fields, ended]):
                            shown = _form_field_text(ended.data)
                            pieces[-1] += shown
                            written += len(shown)
                    continue
                if fields and _fields_hide(fields):
                    continue  # a nested field's cached result inside an outer field's code
                if tag == W_T:
                    text = child.text or ""
                elif tag == W_RPR:
                    if rpr is None:
                        rpr = child
                        if self._hidden(child, paragraph_hidden):
                            break  # hidden text (Font > Hidden: a template's prompts) is neither shown nor printed
                    continue
                elif tag in _TABS:
                    text = "\t"
                elif tag == W_CR or tag == W_BR:
                    if child.get(W_TYPE) == "page":
                        pieces.append("")
                    else:  # a soft line break ends the line on screen and in print: a line of its own
                        pieces = [""]
                        lines.append(pieces)
                    continue
                elif tag == W_NO_BREAK_HYPHEN:
                    text = "-"
                elif tag == W_SYM:
                    text = _symbol(child)
                elif tag in _SHAPES:
                    boxes += _box_contents(child)
                    continue
                else:
                    continue
                pieces[-1] += text
                written += len(text)
                # a colon typed after a bold name in a plain run of its own leaves the line bold
                counted += len(text.strip().strip(_NEUTRAL))
            if counted:
                styled_runs.append(rpr)
        return _Paragraph(lines, styled_runs, paragraph_bold, boxes)

    def _is_bold(self, content: _Paragraph) -> bool:
        """Every run that holds text is bold (once the paragraph has plain text it is not bold,
        whatever its later runs are)."""
        return bool(content.styled_runs) and all(self._run_bold(rpr, content.paragraph_bold) for rpr in content.styled_runs)

    def _numbering_label(self, ppr: dict, style_id: str | None) -> tuple[str, str] | None:
        numpr = _props(ppr.get(qn("w:numPr")))
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
        ppr = _props(_child(p, W_PPR))
        style_id = _val(ppr, "w:pStyle") or self.default_style
        mark = ppr.get(W_RPR)  # the paragraph mark's run properties
        if _removed(mark) and not self._paragraph_text(p, style_id).flat().strip():
            # deleted whole in tracked changes, or moved elsewhere (its text is at the new place),
            # its mark too: Word shows neither it, its number nor an empty line, nor counts it
            return
        if _is_on(ppr, "w:pageBreakBefore"):
            self._next_page()
        label = self._numbering_label(ppr, style_id)
        content = self._paragraph_text(p, style_id)
        for box in content.boxes:  # a text box's paragraphs are read where it is anchored, before the text
            self.walk(box)
        lines = [[clean_line(piece) for piece in pieces] for pieces in content.lines]
        if not (label or content.boxes or any(map(any, lines))):  # an empty paragraph: the blank line it shows
            self.builder.blank()
        if label:
            first = next(((i, j) for i, texts in enumerate(lines) for j, t in enumerate(texts) if t), None)
            if first is not None:
                i, j = first
                lines[i][j] = clean_line(label[0]) + label[1] + lines[i][j]
        for texts in lines:
            fragments = []
            for index, text in enumerate(texts):
                if index:
                    self._next_page()
                fragments.append(Fragment(text, self.page))
            self._write_paragraph(fragments, style_id, ppr, content)
        sect = ppr.get(qn("w:sectPr"))
        if sect is not None and _val(_props(sect), "w:type") != "continuous":
            self._next_page()

    def _write_paragraph(self, fragments: list[Fragment], style_id: str | None, ppr: dict, content: _Paragraph) -> None:
        text = "".join(f.text for f in fragments)
        if not text:
            return
        level = _heading_level(self.styles, style_id, ppr)
        name = self.styles[style_id].name if style_id is not None and style_id in self.styles else ""
        if _TOC_NAME.match(name):  # TOC entries repeat the headings: marked so the outline skips them
            self.builder.line(fragments, style="toc")
        elif level is not None:
            self.builder.heading(fragments, level)
        elif _TITLE_NAME.match(name):
            self.builder.line(fragments, kind="heading")
        else:
            short_bold = len(text) <= SHORT_BOLD and not _SENTENCE_END.search(text) and self._is_bold(content)
            self.builder.line(fragments, style="bold" if short_bold else None)

    def alt_chunk(self, element) -> None:
        """An imported chunk (w:altChunk): a web page or MIME HTML archive a web system's export
        wrapped in the DOCX, which Word converts in place when it opens the file. Other kinds
        (RTF, another DOCX) are not read."""
        found = self.imported(element.get(R_ID, ""))
        if found is None:
            return
        kind, data = found
        html = mime_html(data) if kind == "message/rfc822" else decoded(data) if kind in _HTML_TYPES else None
        if html:
            write_html(html, self.builder, self.page)

    def _next_page(self) -> None:
        self.page += 1
        self.page_breaks += 1

    # -- tables

    def table(self, tbl) -> None:
        """The table's rows, except that a row whose cells hold tables of their own is layout (a
        report's frame around its panels' tables): Word shows each of its cells as a page area,
        its paragraphs and tables in turn, so the reader reads them so, between the rows around it.
        So is a table of one row whose cells hold paragraphs of text (a page set in two columns
        by a table: the left column's paragraphs in one cell, the right's in the next)."""
        rows: list[list] = []
        trs = [tr for tr in _unwrapped(tbl, W_TR) if not _removed(_child(tr, W_TRPR))]  # not a row deleted (or moved away) in tracked changes
        for tr in trs:
            cells = list(_unwrapped(tr, W_TC))
            if any(next(tc.iter(W_TBL), None) is not None for tc in cells) or len(trs) == 1 and _page_areas(cells):
                self._rows(rows)
                rows = []
                for tc in cells:
                    self.walk(tc)
            else:
                rows.append([tr, cells])
        self._rows(rows)

    def _rows(self, table_rows: list[list]) -> None:
        """Table rows (each ``[w:tr, its w:tc cells]``) written as one table."""
        if not table_rows:
            return
        rows: list[list[CellSpec]] = []
        header_rows = 0
        grouped = False  # a first-column cell merged down over the rows below it
        for tr, cells in table_rows:
            trpr = _props(_child(tr, W_TRPR))
            # a row that starts some grid columns in (w:gridBefore) leaves them empty before its first cell
            skipped = _val(trpr, "w:gridBefore")
            row: list[CellSpec] = [CellSpec("", int(skipped))] if skipped and skipped.isdigit() and int(skipped) > 0 else []
            for tc in cells:
                tcpr = _props(_child(tc, qn("w:tcPr")))
                span = _val(tcpr, "w:gridSpan")
                merge = tcpr.get(qn("w:vMerge"))
                continuation = merge is not None and merge.get(qn("w:val"), "continue") == "continue"
                grouped = grouped or (continuation and not row and len(rows) > header_rows)
                text = "" if continuation else self._cell_text(tc)
                row.append(CellSpec(text, int(span) if span else 1))
            if _is_on(trpr, "w:tblHeader") and len(rows) == header_rows:
                header_rows += 1
            rows.append(row)
        if header_rows:  # Word repeats a header row on every page itself: a copy in the body is a printout's page break
            header = [[cell.text for cell in row] for row in rows[:header_rows]]
            rows = rows[:header_rows] + [row for row in rows[header_rows:] if [cell.text for cell in row] not in header]
        elif looks_like_header(rows):
            header_rows = 1
        if (groups := side_by_side(rows)) is not None:  # two panels side by side: each read as its own table
            for group in groups:
                self.builder.table(group, page=self.page, header_rows=min(header_rows, len(group)))
            return
        if grouped:
            rows = group_captions(rows, header_rows)
        self.builder.table(rows, page=self.page, header_rows=header_rows)

    def _cell_text(self, tc) -> str:
        """A cell's paragraphs (with their list labels) joined on one line."""
        parts = []
        for p in tc.iter(W_P):
            if p.getparent() is not tc and _under(p, tc, _MC_FALLBACK):  # the box's copy for old readers
                continue
            ppr = _props(_child(p, W_PPR))
            style_id = _val(ppr, "w:pStyle") or self.default_style
            label = self._numbering_label(ppr, style_id)
            text = clean_line(self._paragraph_text(p, style_id).flat())
            if text:
                parts.append(f"{label[0]}{label[1]}{text}" if label else text)
        return clean_cell("\n".join(parts))

    # -- body

    def walk(self, container) -> None:
        for child in container:
            tag = child.tag
            if tag == W_P:
                self.paragraph(child)
            elif tag == W_TBL:
                self.table(child)
            elif tag in _WRAPPERS:  # content controls and custom XML wrap ordinary paragraphs and tables
                self.walk(_wrapped(child))
            elif tag == W_ALT_CHUNK:
                self.alt_chunk(child)


PAGE_AREA_PARAGRAPHS = 4  # a one-row table whose cells hold this many paragraphs of text between them sets out a page


def _page_areas(cells: list) -> bool:
    """The cells of a table's only row hold paragraphs as a page does, not a value each: a
    table of one row is no table of data (nothing to line up under), and one holding several
    paragraphs is a frame for them."""
    paragraphs = sum(1 for tc in cells for p in _unwrapped(tc, W_P) if any((t.text or "").strip() for t in p.iter(W_T)))
    return paragraphs >= PAGE_AREA_PARAGRAPHS


def _removed(properties) -> bool:
    """A paragraph mark's or a row's properties (``None`` when absent) mark it deleted or moved
    away in tracked changes."""
    return properties is not None and any(child.tag in _REMOVED for child in properties)


def _wrapped(wrapper):
    """What a content control (its w:sdtContent) or a custom XML element holds."""
    if wrapper.tag == W_SDT:
        content = _child(wrapper, qn("w:sdtContent"))
        return () if content is None else content
    return wrapper


def _unwrapped(parent, tag: str):
    """The ``tag`` children of ``parent``, those inside content controls and custom XML too (a
    form's repeating section wraps table rows, a field control wraps a cell)."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag in _WRAPPERS:
            yield from _unwrapped(_wrapped(child), tag)


def _outside_body_text(run, paragraph) -> bool:
    """Runs inside text boxes or alternate-content fallbacks are not the paragraph's own text."""
    for ancestor in run.iterancestors():
        if ancestor is paragraph:
            return False
        if ancestor.tag in _OUTSIDE_TAGS:
            return True
        if etree.QName(ancestor).localname == "AlternateContent":
            return True
    return False


# The package's parts are found the way Word (and python-docx) find them: the package's
# relationships name the main document, the main document's name its styles and numbering.
_PARSER = etree.XMLParser(remove_blank_text=True, resolve_entities=False)  # python-docx's settings
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
# A main part Word opens as a document: a document, a template (.dotx), either with macros
# (.docm, .dotm); their body is the same WordprocessingML.
_WML_MAINS = frozenset((
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
))
# Strict Open XML (ISO/IEC 29500 Strict, Word's "Strict Open XML Document"): the same elements
# and relationships as the transitional files the reader walks, under other namespace names.
# Its parts are read with the names turned transitional (no other namespace the reader asks for
# differs), and its relationship types looked up under the strict name.
_STRICT_NAMES = (
    (b"http://purl.oclc.org/ooxml/wordprocessingml/main", _W.encode()),
    (b"http://purl.oclc.org/ooxml/officeDocument/relationships", _NAMESPACES["r"].encode()),
)
_STRICT_RT = "http://purl.oclc.org/ooxml/officeDocument/relationships/"
# An OpenDocument file (LibreOffice's .odt, .ott …) names its kind in a first member "mimetype".
_ODF_MIMETYPE = b"application/vnd.oasis.opendocument."


class _Package:
    """The three parts the reader needs, parsed straight from the zip (no other part is read)."""

    def __init__(self, archive: zipfile.ZipFile, source: str) -> None:
        self.archive, self.source = archive, source
        self.names = set(archive.namelist())
        self._relations: dict[str, dict[str, str]] = {}
        self.strict = False  # set when the package's relationships are Strict Open XML's

    def read_xml_bytes(self, partname: str) -> bytes:
        """A part's XML, a Strict part's namespace names turned transitional."""
        data = self.read(partname)
        if self.strict:
            for strict, transitional in _STRICT_NAMES:
                data = data.replace(strict, transitional)
        return data

    def read(self, partname: str) -> bytes:
        member = partname.lstrip("/")
        if member not in self.names:
            raise ReadError(self.source, f"corrupt DOCX: the package has no part {partname}")
        return self.archive.read(member)

    def xml(self, partname: str):
        return etree.fromstring(self.read_xml_bytes(partname), _PARSER)

    def related(self, partname: str, kind: str) -> str | None:
        """The part that ``partname`` ("/" for the package) relates to as ``kind``, if any."""
        if partname not in self._relations:
            base, name = posixpath.split(partname)
            rels = posixpath.join(base, "_rels", f"{name}.rels")
            found: dict[str, str] = {}
            if rels.lstrip("/") in self.names:
                for rel in etree.fromstring(self.read(rels), _PARSER).iterchildren(_REL):
                    if rel.get("TargetMode") != "External":  # the first of a type is the one used
                        target = posixpath.abspath(posixpath.join(base, rel.get("Target", "")))
                        found.setdefault(rel.get("Type", ""), target)
                        found.setdefault(rel.get("Id", ""), target)  # ids (rId3) never look like a type's URI
            self._relations[partname] = found
        relations = self._relations[partname]
        if kind and _RT + kind not in relations and _STRICT_RT + kind in relations:
            self.strict = True
            return relations[_STRICT_RT + kind]
        return relations.get(_RT + kind)

    def target(self, partname: str, rel_id: str) -> str | None:
        """The part ``partname``'s relationship ``rel_id`` points to, if any."""
        self.related(partname, "")
        return self._relations[partname].get(rel_id) if rel_id else None

    def imported(self, partname: str, rel_id: str) -> tuple[str | None, bytes] | None:
        """An imported chunk's content type and bytes (None when the package lacks it)."""
        target = self.target(partname, rel_id)
        if target is None or target.lstrip("/") not in self.names:
            return None
        return self.content_type(target), self.read(target)

    def content_type(self, partname: str) -> str | None:
        types = self.xml("/[Content_Types].xml")
        for override in types.iterchildren(_CT + "Override"):
            if override.get("PartName") == partname:
                return override.get("ContentType")
        extension = posixpath.splitext(partname)[1].lstrip(".")
        return next((d.get("ContentType") for d in types.iterchildren(_CT + "Default")
                     if d.get("Extension") == extension), None)


# Table styles: Word's default template (and every document python-docx writes) carries a
# hundred of them, nine tenths of styles.xml, and no paragraph or run reads one (a paragraph
# names a paragraph style, a run a character style). They are cut from the bytes before
# parsing, as Word serialises them; anything unexpected leaves the bytes whole.
_TABLE_STYLE, _STYLE_START, _STYLE_END = b'<w:style w:type="table"', b"<w:style ", b"</w:style>"


def _without_table_styles(xml: bytes) -> bytes:
    pieces, at = [], 0
    while (start := xml.find(_TABLE_STYLE, at)) != -1:
        tag_end = xml.find(b">", start)
        if tag_end == -1:
            return xml
        if xml[tag_end - 1 : tag_end] == b"/":  # <w:style … /> holds nothing
            end = tag_end + 1
        else:
            close = xml.find(_STYLE_END, tag_end)
            if close == -1 or xml.find(_STYLE_START, tag_end, close) != -1:  # not one flat element
                return xml
            end = close + len(_STYLE_END)
        pieces.append(xml[at:start])
        at = end
    return b"".join([*pieces, xml[at:]]) if pieces else xml


def _styles_xml(package: _Package, partname: str):
    data = package.read_xml_bytes(partname)
    trimmed = _without_table_styles(data)
    if trimmed is not data:
        try:
            return etree.fromstring(trimmed, _PARSER)
        except etree.XMLSyntaxError:  # the cut met a shape it did not expect: the whole part then
            pass
    return etree.fromstring(data, _PARSER)


def _default_styles():
    """The styles python-docx (and so Word's default template) gives a package without styles.xml."""
    import docx

    return etree.fromstring((Path(docx.__file__).parent / "templates" / "default-styles.xml").read_bytes(), _PARSER)


def _open_package(data: bytes, source: str):
    """The document body, styles and numbering (``None`` when absent) of a DOCX's bytes, and a
    function handing over an imported chunk by its relationship id."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise ReadError(source, "old binary Word (.doc) file, not DOCX: save it as .docx first")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ReadError(source, "not a DOCX file: corrupt or not a zip archive") from None
    check_archive(archive, source)
    names = archive.namelist()
    if "mimetype" in names and (mimetype := archive.read("mimetype")[:100].strip()).startswith(_ODF_MIMETYPE):
        raise ReadError(source, f"OpenDocument file ({mimetype.decode('ascii', 'replace')}), not DOCX: "
                                "save it as .docx first (LibreOffice: soffice --convert-to docx)")
    if "word/document.xml" not in names and not any(n.endswith("document.xml") and n.startswith("word/") for n in names):
        raise ReadError(source, "not a DOCX file: the zip has no word/document.xml")
    package = _Package(archive, source)
    try:
        main = package.related("/", "officeDocument")
        if main is None:
            raise ReadError(source, "corrupt DOCX: the package names no main document")
        if (kind := package.content_type(main)) not in _WML_MAINS:
            raise ReadError(source, f"not a Word document: its main part is {kind or 'of no declared type'}")
        body = _child(package.xml(main), qn("w:body"))
        styles_part = package.related(main, "styles")
        styles = _styles_xml(package, styles_part) if styles_part else _default_styles()
        numbering_part = package.related(main, "numbering")
        numbering = package.xml(numbering_part) if numbering_part else None
    except (zipfile.BadZipFile, etree.LxmlError, ValueError, OSError, EOFError) as exc:  # a cut or damaged member
        raise ReadError(source, f"corrupt DOCX: {type(exc).__name__}: {exc}") from None
    if body is None:
        raise ReadError(source, "corrupt DOCX: the main document has no body")
    return body, styles, numbering, lambda rel_id: package.imported(main, rel_id)


def read_docx(data: bytes, source: str) -> Document:
    body, styles, numbering, imported = _open_package(data, source)
    reader = _Reader(styles, numbering, imported)
    try:
        reader.walk(body)
    except (ValueError, etree.LxmlError, zipfile.BadZipFile, EOFError, OSError) as exc:  # an imported chunk's member too
        raise ReadError(source, f"corrupt DOCX: {exc}") from None
    built = reader.builder.build(source, metadata={"format": "docx", "explicit_page_breaks": reader.page_breaks})
    if not reader.page_breaks:  # no explicit breaks: the page of a paragraph is unknown
        built.pages = []
        for block in built.blocks:
            block.page = None
    title = next((b for b in built.blocks if b.kind == "heading"), None)
    if title is not None:
        built.title = _MARKS.sub("", built.text[title.start : title.end])
    if not built.text.strip():
        raise ReadError(source, "empty DOCX: no text in the document body")
    return built
