"""PDF reader: text in reading order, page furniture removed, soft wraps joined, tables found.

Everything is read through pypdfium2: chars with their boxes, and the vector paths
that rule a table. pdfplumber's table-finding steps turn those paths into cells
(its cell search and cell text are redone here on plain tuples, same results), but
the file is never opened in pdfplumber (its pdfminer parse of the whole page was
most of the time of a page with a table). The pipeline per document:

1. per page, chars → lines (with geometry, and bold read from a few of their
   chars) and ruled tables, in the coordinates of the page as shown (its crop box
   from (0, 0), a page stored turned by ``/Rotate`` upright, chars outside it
   dropped); the spaces pdfium makes up for gaps that are only a justified line's
   letter spacing are dropped; the columns of a table drawn without rules (words
   starting at one x after wide gaps, row after row) are separated by tabs;
2. margin line numbers (a bare number beside each line, counting up) set aside;
   running headers, footers and page numbers removed: lines in the top or
   bottom band that are page numbers or repeat across pages (in the same place,
   give or take less than a line's height; a footer also as a page's last line);
3. columns: a page whose lines leave a vertical gutter is read left column
   first, then right, in each run between lines set across the gutter;
4. tables of contents marked (``style="toc"``), headings told by size and, at
   about the body's size, by weight; their depth ranks size, then centring;
5. soft line breaks joined by geometry: a line that reaches the right margin
   (the x several lines end at together) and does not end a sentence continues
   on the next line, unless the next starts at a first-line indent; where
   paragraphs start at an indent, a line at the margin goes on with the one
   above even after a sentence end; white space of more than a line pitch
   between two lines (an empty paragraph) is a blank line;
6. everything written into one text by :class:`~.layout.DocumentBuilder`.

A table continued on the next page becomes a second table block with
``style="continued"``; when its first row repeats the header row of the table
it continues, that repeated row is **dropped** (from the text and the rows). A
row a page break cut in two is joined back, and a table's first row left alone
at the foot of a page is read as that table's row, not as a line of text. A table
setting two panels side by side (its header row names the same columns twice) is
written half by half, as the DOCX reader writes it.
"""
from __future__ import annotations

import bisect
import ctypes
import itertools
import math
import statistics
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import regex

from ..errors import DomainChunkWarning, ReadError
from ..models import BlockKind, Document
from ..view import is_form_line, opens_paragraph
from .layout import CellSpec, DocumentBuilder, Fragment, clean_cell, clean_line, cut_groups, group_captions, join_wrapped, looks_like_header, side_by_side_edges

BAND = 0.1  # top and bottom tenth of the page: where headers and footers live
REPEAT_SHARE = 0.3  # a band line on this share of pages (and at least 2) is furniture
# A page's first line this long inside a running header whose other text is no words (a browser's
# date and time beside the page's title) is the title that header repeats.
TITLE_IN_HEADER = 4
_HAN = regex.compile(r"\p{Han}")
# More than this share of a document's glyphs with no Unicode map: its text cannot be read.
UNMAPPED_SHARE = 0.5
# Below this code point a glyph may be one whose font has no Unicode map (read as its char code);
# a CJK one (above) was mapped. Such a glyph is read as UNKNOWN.
_MAPPED_FROM = "\u3000"
UNKNOWN = "\ufffd"
# A page's last lines set at most FOOTNOTE_SIZE of the body's size, in its lower FOOTNOTE_ZONE,
# the first opening with a note's number, are its footnotes (Word sets them in 小五 under a rule).
FOOTNOTE_SIZE = 0.85
FOOTNOTE_ZONE = 0.6
# A note's number: 1, ①, [1] or *, run into its text (1本条所称…), not a numbered item (1. 1、) or a value.
_NOTE_MARK = regex.compile(r"^(?:\d{1,2}(?![\d.．、,，)）:：%])|[\u2460-\u2473]|\[\d{1,2}\]|\*)\s*\p{Han}")
# A margin's line numbering: this many bare numbers beside the text of a page, counting up.
LINE_NUMBERS = 5
_LINE_NUMBER = regex.compile(r"^\d{1,3}$")
HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
# A bold line of about the body's size is a heading when it is short, ends no sentence and is
# no row of cells: Word sets chapter and section titles bold in the body's size, centred or
# not, and a deeper heading bold and smaller than the body, down to this share of its size.
SHORT_BOLD = 30
SMALL_HEADING = 0.8
HEADING_GAPS = 2  # spaces a heading holds at most (第一章 总则); a row of cells holds more
BODY_SAMPLE = 8  # of the other lines, every this many is read for boldness
# A line is centred when its middle is within CENTRE_TOLERANCE characters of the page's and it
# starts at least INDENT_MIN characters right of the text's left margin.
CENTRE_TOLERANCE = 2.0
# The first-line indent of a paragraph (首行缩进两字符) starts between INDENT_MIN and INDENT_MAX
# characters right of the column's left margin; a wrapped line never starts there.
INDENT_MIN = 1.5
INDENT_MAX = 2.6
# A gap pdfium takes for a space is one when it is wider than the line's letter spacing by
# this share of the line's size (an ASCII space is about a quarter of it).
SPACE_GAP = 0.15
# Word, WPS and LibreOffice widen the gap between a CJK char and a Latin letter or digit
# (自动调整中文与西文/数字的间距, on by default) by about a fifth of the size, with no space
# in the text: a guessed space no wider than AUTOSPACE_GAP of the size between such a pair is
# that spacing (第1.02条 is printed 第 1.02 条). A typed space is in the text and is kept.
AUTOSPACE_GAP = 0.3
LETTER_GAP_MATCH = 0.1  # two gaps of one letter spacing differ by less than this share of the size
# A gap wider than this many times the size, past a line's letter spacing, sets cells apart (a
# table without rules: columns aligned by the space between them); a line of two or more such
# gaps is a row, set out, not flowed text wrapped at the margin.
CELL_GAP = 1.5
ROW_GAPS = 2
COLUMN_ROWS = 3  # lines that start a word at one x after a wide gap make it a column's edge
COLUMN_SLACK = 0.3  # a column's words start within this share of the size either way
_AUTOSPACED = regex.compile(r"\p{Han}[A-Za-z0-9]|[A-Za-z0-9]\p{Han}")
# What marks a glyph bold: a font name naming a bold face (a CJK font without one is set in a
# bold family, 黑体, or stroked, below), a weight of at least BOLD_WEIGHT, or glyphs both
# filled and stroked, which is how Word and WPS embolden a font that has no bold face.
BOLD_WEIGHT = 600
_BOLD_FONT = regex.compile(r"bold|black|heavy|semibold|demi|hei|黑体", regex.IGNORECASE)
_STROKED = (pdfium_c.FPDF_TEXTRENDERMODE_FILL_STROKE, pdfium_c.FPDF_TEXTRENDERMODE_FILL_STROKE_CLIP)
# A space beside a CJK char: in an OCR engine's text layer, the boundary of a word it found.
_OCR_WORD_GAP = regex.compile(r"(?<=[\p{Han}\u3000-\u303f\uff00-\uffef]) | (?=[\p{Han}\u3000-\u303f\uff00-\uffef])")
# A right margin is where at least EDGE_LINES of the longest lines end within EDGE_TOLERANCE
# times a character's size of it (flowed text wraps at one x; the ends of rows scatter).
EDGE_LINES = 3
EDGE_TOLERANCE = 1.0
# A line passes a real margin by hanging punctuation or a wide letter at most; one passing a
# page's claimed margin by more than EDGE_PASS characters shows it is no margin but rows that
# happen to end together (a short last page, a run of same-length rows).
EDGE_PASS = 2.0
# Punctuation a CJK layout lets hang past the right margin, and how far past it (in characters).
_HANGING = regex.compile(r"[，。、；：！？,.][）)」』”’\"']*$")
HANG_MAX = 1.5

_PAGE_NUMBER = regex.compile(
    r"^[\s\-—–－_·•|]*(?:第\s*\d+\s*页(?:\s*[,，/]?\s*共\s*\d+\s*页)?|(?:page\s*)?\d+(?:\s*(?:/|of)\s*\d+)?|[ivxlc]+)[\s\-—–－_·•|]*$",
    regex.IGNORECASE,
)
# A sentence may end inside a closing bracket or quote: …作检验的依据。） or …施行。”
_SENTENCE_END = regex.compile(r"[。：；！？:;!?][）)」』”’\"']*\s*$")
# A line that is one bracketed phrase from end to end is a note of its own (a statute's
# （…通过） adoption note), not the start of a paragraph that wraps on.
_WHOLE_NOTE = regex.compile(r"^[（(][^（()）\n]+[）)]$")
# A run of Latin letters and digits a word processor keeps on one line, and the advance of
# one of its chars as a share of the size (digits and most letters are about half a CJK char).
_LATIN_RUN = regex.compile(r"[A-Za-z0-9][A-Za-z0-9.,%/-]*")
LATIN_ADVANCE = 0.6
# A semicolon parts the clauses of one long sentence (…第四款；对被告人…依照…), so a line
# ending in one at the margin wraps on, unless the next line opens an item or a field of its
# own, as a list's items ((一)…；/(二)…；) and a record's fields (既往史：…；/个人史：…) do.
_CLAUSE_END = regex.compile(r"[；;][）)」』”’\"']*\s*$")
_TOC_LEADER = regex.compile(r"(?:[.．·…_—-]{3,}|\s{2,})\s*\d+\s*$")
_TOC_TITLE = regex.compile(r"^目\s*录$|^contents$", regex.IGNORECASE)
_ARTICLE = regex.compile(r"^第[一二三四五六七八九十百千零〇两\d]+条")
# What a running header or footer loses from page to page: its numbers, spaces and rules.
_BAND_VARIABLE = regex.compile(r"[\d\s\-—–－_·•|/]+")
_DOT_LEADER = regex.compile(r"[.．·…_]{3,}")
_WHITESPACE = regex.compile(r"\s+")


@dataclass
class Line:
    """A printed line: text and its box in top-down page coordinates."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # the height of its chars' boxes: the unit of its geometry (indents, wrap slack)
    page: int
    samples: tuple[int, ...] = ()  # pdfium's indexes of its first and last char, its style read from them
    bold: bool | None = None  # None: not read (see _mark_bold)
    toc: bool = False
    heading_level: int | None = None
    centred: bool = False  # a heading set centred (see _mark_headings)
    font_size: float = 0.0  # the size its font is set in (see _set_font_sizes); 0 until read
    pieces: tuple[tuple[float, bool, str], ...] = ()  # its words as spaces part them (see _pieces); () with no space

    def __post_init__(self) -> None:
        self.font_size = self.font_size or self.size


@dataclass
class Table:
    rows: list[list[CellSpec]]
    x0: float
    x1: float
    top: float
    bottom: float
    page: int
    header_rows: int = 0
    continued: bool = False


Item = Line | Table


@dataclass
class PageContent:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    # One-row ruled tables: a table's first row left alone at the foot of a page by a page
    # break, if the next page goes on with the table; else a box around a line of text.
    lone_rows: list[Table] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # body in reading order, after furniture removal


# ---------------------------------------------------------------- opening


# A page tree counting no pages, and a page object (as written uncompressed: a page tree packed in
# an object stream is not seen, and its file is then called corrupt, as pdfium calls it).
_NO_PAGES = regex.compile(rb"/Count\s*0(?![0-9.])")
_A_PAGE = regex.compile(rb"/Type\s*/Page(?![A-Za-z])")


def _open(data: bytes, source: str) -> pdfium.PdfDocument:
    if b"%%EOF" not in data[-2048:]:
        raise ReadError(source, "truncated or corrupt PDF: no end-of-file marker (%%EOF)")
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        message = str(exc).lower()
        if "password" in message or "security" in message:
            raise ReadError(source, "encrypted PDF: password protected, decrypt it first") from None
        if _NO_PAGES.search(data) and not _A_PAGE.search(data):  # pdfium refuses a document with no pages
            raise ReadError(source, "PDF with no pages: its page tree is empty") from None
        raise ReadError(source, f"corrupt PDF: {exc}") from None


# ---------------------------------------------------------------- chars → lines


@dataclass(slots=True)
class _LineAcc:
    chars: list[str]
    x0: float
    x1: float
    top: float
    bottom: float
    heights: list[float]
    first: int  # pdfium's index of the line's first and last char
    last: int
    ink: float  # the glyphs' widths summed: the line's width less this is its gaps
    guessed: list[tuple[int, float]]  # (position in chars, gap) of each space only pdfium put there
    spaces: list[tuple[int, float, float]] = field(default_factory=list)  # (position, next glyph's x, gap) of every space
    members: list[Char] = field(default_factory=list)  # the line's glyphs and typed spaces, as read
    gap: float | None = None  # between its last two glyphs, when nothing took it for a space
    # (position of a guessed space → the gap before the glyph ahead of it, where no space was seen)
    before: dict[int, float] = field(default_factory=dict)


def _inside(x: float, y: float, boxes: list[tuple[float, float, float, float]]) -> bool:
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


# A char as pdfium reports it: (text, generated, left, top, right, bottom, index) in top-down
# page coordinates; pdfium's generated whitespace carries no box (only its presence is used).
Char = tuple[str, bool, float, float, float, float, int]
# An affine map (a, b, c, d, e, f) in PDF's row-vector convention: x' = a·x + c·y + e, y' = b·x + d·y + f.
Matrix = tuple[float, float, float, float, float, float]


def _unconverted(function, restype=None):
    """The same C function without its declared argument types: ctypes then passes the
    text page pointer, an int and a ``byref`` box as they are instead of converting and
    checking each argument, which halves the cost of the three calls made per char. Every
    result fits the default ``int`` (a code point, a flag, a boolean) unless ``restype`` says
    otherwise (a pointer)."""
    unchecked = type(function)(ctypes.cast(function, ctypes.c_void_p).value)
    if restype is not None:
        unchecked.restype = restype
    return unchecked


_UNICODE_OF = _unconverted(pdfium_c.FPDFText_GetUnicode)
_GENERATED = _unconverted(pdfium_c.FPDFText_IsGenerated)
_LOOSE_BOX = _unconverted(pdfium_c.FPDFText_GetLooseCharBox)
_FONT_WEIGHT = _unconverted(pdfium_c.FPDFText_GetFontWeight)
_TEXT_OF = _unconverted(pdfium_c.FPDFText_GetText)
_UNMAPPED = _unconverted(pdfium_c.FPDFText_HasUnicodeMapError)
_ANGLE = _unconverted(pdfium_c.FPDFText_GetCharAngle, ctypes.c_float)
# A char set at a slant, not along an axis, is no text of the body: a watermark drawn across the
# page (内部资料, 样本, 仅供参考), a seal's name round its rim. Text along an axis is read, turned
# a quarter or not (a landscape table set sideways on a portrait page); a slant of less than
# SLANT_TOLERANCE (radians, about three degrees) is a scan's skew, read too.
SLANT_TOLERANCE = 0.05
_QUARTER = math.pi / 2


def _page_view(page: pdfium.PdfPage) -> Matrix:
    """The matrix from the page's user space to the page as it is shown, top-down: its visible box
    (the crop box) starts at (0, 0), and a page stored turned (``/Rotate``) is turned upright, as a
    viewer shows it and a person reads it. pdfium reports chars and paths in user space, which a
    producer may offset (a crop box inside a larger media box) or store sideways (a landscape page)."""
    box = pdfium_c.FS_RECTF()
    pdfium_c.FPDF_GetPageBoundingBox(page.raw, ctypes.byref(box))
    x0, y0, x1, y1 = box.left, box.bottom, box.right, box.top
    # x' = a·x + c·y + e, y' = b·x + d·y + f, y' measured down from the shown page's top
    return {
        0: (1.0, 0.0, 0.0, -1.0, -x0, y1),
        1: (0.0, 1.0, 1.0, 0.0, -y0, -x0),  # 90° clockwise: the stored left edge is the top
        2: (-1.0, 0.0, 0.0, 1.0, x1, -y0),
        3: (0.0, -1.0, -1.0, 0.0, y1, x1),  # 270°: the stored right edge is the top
    }[pdfium_c.FPDFPage_GetRotation(page.raw) % 4]


# Chars of a page sampled for the way its text runs (every n-th, at most this many).
TURN_SAMPLE = 400


def _turned_upright(textpage: pdfium.PdfTextPage, view: Matrix, width: float, height: float) -> tuple[Matrix, float, float]:
    """The view, width and height of the page as its text reads: turned a quarter when most of
    its text runs up or down the page as shown (a landscape table or page a producer set sideways
    on a portrait page by its content, not by ``/Rotate``), so that its lines run across."""
    raw = textpage.raw
    count = textpage.count_chars()
    a, b, c, d, _, _ = view
    up = down = sampled = 0
    for i in range(0, count, max(1, count // TURN_SAMPLE)):
        angle = _ANGLE(raw, i)
        if angle < 0.0 or _GENERATED(raw, i) or chr(_UNICODE_OF(raw, i)).isspace():
            continue
        ux, uy = math.cos(angle), -math.sin(angle)  # the text's direction in user space (pdfium's angle turns clockwise)
        shown_x, shown_y = a * ux + c * uy, b * ux + d * uy  # and on the page as shown, y down
        sampled += 1
        if abs(shown_y) > abs(shown_x):
            up += shown_y < 0
            down += shown_y > 0
    if 2 * up > sampled:  # text running up the page: its left edge is the top
        return _compose(view, (0.0, 1.0, -1.0, 0.0, height, 0.0)), height, width
    if 2 * down > sampled:  # running down: its right edge is the top
        return _compose(view, (0.0, -1.0, 1.0, 0.0, 0.0, width)), height, width
    return view, width, height


def _page_text(raw, count: int) -> str | None:
    """The page's chars in one call (FPDFText_GetText, UTF-16), one per index, instead of one
    FPDFText_GetUnicode call per char; None where the text holds a char beyond the BMP, whose two
    UTF-16 units would shift the indexes. GetText writes U+FFFE for a control char: those few
    are read one by one."""
    buffer = ctypes.create_string_buffer(2 * (count + 1))
    _TEXT_OF(raw, 0, count, buffer)
    text = buffer.raw[: 2 * count].decode("utf-16-le", errors="surrogatepass")
    if len(text) != count or any("\ud800" <= char <= "\udfff" for char in text):
        return None
    if "\ufffe" in text:
        text = "".join(chr(_UNICODE_OF(raw, i)) if char == "\ufffe" else char for i, char in enumerate(text))
    return text


def _page_chars(textpage: pdfium.PdfTextPage, view: Matrix, width: float, height: float) -> list[Char]:
    """Every char of the page in content order, in the coordinates of the page as shown (``view``),
    without the glyphs pdfium made up (it adds a hyphen or letters at line ends; whitespace it adds
    is kept, boxless, as a word gap), without those set at a slant (see SLANT_TOLERANCE) and without
    those outside the visible page, which no one sees.
    A glyph whose font maps it to no Unicode is UNKNOWN (see _check_unicode_map)."""
    # pdfium's raw calls with one reused box: ``textpage.get_charbox`` builds a new ctypes
    # struct and tuple per char, which was most of the reader's time on a text page.
    raw = textpage.raw
    unicode_of, generated, loose_box, unmapped, angle_of = _UNICODE_OF, _GENERATED, _LOOSE_BOX, _UNMAPPED, _ANGLE
    rect = pdfium_c.FS_RECTF()
    box = ctypes.byref(rect)
    a, b, c, d, e, f = view
    turned = b != 0.0  # a quarter turn swaps the axes
    upright = (a, b, c, d) == (1.0, 0.0, 0.0, -1.0)
    chars: list[Char] = []
    count = textpage.count_chars()
    text = _page_text(raw, count) if count > 0 else ""
    for i in range(count):
        char = text[i] if text is not None else chr(unicode_of(raw, i))
        if char == "\x00":
            continue
        made_up = bool(generated(raw, i))
        if made_up:
            if char.isspace():
                chars.append((char, True, 0.0, 0.0, 0.0, 0.0, i))
            continue
        angle = angle_of(raw, i)  # radians from the x axis, clockwise; -1 when pdfium cannot tell
        if angle > 0.0 and SLANT_TOLERANCE < angle % _QUARTER < _QUARTER - SLANT_TOLERANCE:
            continue  # a watermark's or a seal's char, at a slant
        if char < _MAPPED_FROM and unmapped(raw, i):
            char = UNKNOWN  # its char code, no text: said so, not passed on as a letter or a control char
        if not loose_box(raw, i, box):
            raise pdfium.PdfiumError("Failed to get charbox.")
        if upright:  # most pages: only the origin moves and the y axis turns down
            left, right, top, bottom = rect.left + e, rect.right + e, f - rect.top, f - rect.bottom
        else:
            if turned:
                xs, ys = (c * rect.bottom + e, c * rect.top + e), (b * rect.left + f, b * rect.right + f)
            else:
                xs, ys = (a * rect.left + e, a * rect.right + e), (d * rect.top + f, d * rect.bottom + f)
            left, right = min(xs), max(xs)
            top, bottom = min(ys), max(ys)
        if right < 0.0 or left > width or bottom < 0.0 or top > height:
            continue
        chars.append((char, False, left, top, right, bottom, i))
    return chars


_FONT_NAME = ctypes.create_string_buffer(128)


def _is_bold(raw, index: int) -> bool:
    """Whether char ``index`` of the text page is set bold (see _BOLD_FONT, BOLD_WEIGHT, _STROKED)."""
    text_object = pdfium_c.FPDFText_GetTextObject(raw, index)
    if text_object and pdfium_c.FPDFTextObj_GetTextRenderMode(text_object) in _STROKED:
        return True
    if _FONT_WEIGHT(raw, index) >= BOLD_WEIGHT:
        return True
    length = pdfium_c.FPDFText_GetFontInfo(raw, index, _FONT_NAME, len(_FONT_NAME), None)
    return 0 < length <= len(_FONT_NAME) and _BOLD_FONT.search(_FONT_NAME.value.decode("latin-1")) is not None


def _mark_bold(lines: list[Line], textpage: pdfium.PdfTextPage) -> None:
    """A line is bold when its first, middle and last chars are: a bold lead-in (第一条 set
    bold before its plain text) leaves the line plain. Read for the lines shaped like a
    heading, and for every BODY_SAMPLE-th other line, which tells whether the body is bold.
    The middle char is the first glyph at or after the middle of the line's index range."""
    raw = textpage.raw
    for number, line in enumerate(lines):
        if not (_heading_shaped(line.text) or number % BODY_SAMPLE == 0):
            continue
        first, last = line.samples
        middle = _middle_glyph(raw, first, last)
        line.bold = _is_bold(raw, first) and _is_bold(raw, last) and _is_bold(raw, middle)


def _join_ocr_words(lines: list[Line], textpage: pdfium.PdfTextPage) -> None:
    """An OCR'd scan's text is an invisible layer over the page's image (render mode 3, as
    tesseract and ocrmypdf write it), each word the engine found set apart by a space: Chinese
    writes none between its words, nor between them and a number (于 2023 年 reads 于2023年)."""
    raw = textpage.raw
    for line in lines:
        text_object = pdfium_c.FPDFText_GetTextObject(raw, line.samples[0])
        if text_object and pdfium_c.FPDFTextObj_GetTextRenderMode(text_object) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
            line.text = _OCR_WORD_GAP.sub("", line.text)


def _middle_glyph(raw, first: int, last: int) -> int:
    """The first glyph at or after the middle of a line's index range (not a made-up or space char)."""
    middle = (first + last) // 2
    while middle < last and (_GENERATED(raw, middle) or chr(_UNICODE_OF(raw, middle)).isspace()):
        middle += 1
    return middle


def _set_font_sizes(lines: list[Line], textpage: pdfium.PdfTextPage) -> None:
    """Whether lines are set in one size or another is told by the font size their first, middle
    and last glyphs are set in (the median), not by the height of their boxes: a box is the
    font's ascent to descent, and a Latin font's (Times, Liberation Serif: the digits and letters
    of a CJK text) is a third taller than a CJK font's at one size, so a line of dates and codes
    (记录时间：2024-05-06 14:20) measured by its boxes read as a heading set larger, and a wrapped
    line ending in them as set apart from the next. A producer that scales its text by the text
    matrix (a 1-point font drawn twelve times larger) reports sizes far from the boxes: the
    boxes then."""
    raw = textpage.raw
    for line in lines:
        first, last = line.samples
        size = sorted(pdfium_c.FPDFText_GetFontSize(raw, i) for i in (first, _middle_glyph(raw, first, last), last))[1]
        if 0.5 * line.size <= size <= 2.0 * line.size:
            line.font_size = size


def _heading_shaped(text: str) -> bool:
    return len(text) <= SHORT_BOLD and text.count(" ") <= HEADING_GAPS and not _SENTENCE_END.search(text)


def _drop_tracking_spaces(acc: _LineAcc) -> float:
    """Drop the spaces pdfium made up for gaps that are only the line's letter spacing; return
    that spacing.

    A justified line of CJK text (or one spread out, 分散对齐) is set with its slack between
    every two glyphs, often glyph by glyph with no space in the gaps; pdfium takes each
    wide gap for a word space (第 一 条). A space is a gap wider than the line's letter
    spacing (the mean of its other gaps; the narrowest guessed one where all are guessed)
    by SPACE_GAP of its size, and is not the gap of letter spacing running on: a run of glyphs
    spread apart (a form's label set letter-spaced, 姓  名：) whose last gap pdfium alone took for a
    space, as wide as the one before it, which it did not (within LETTER_GAP_MATCH of the size)."""
    others = len(acc.heights) - 1 - len(acc.guessed)  # gaps between glyphs with no space guessed
    guessed = sum(gap for _, gap in acc.guessed)
    if others > 0:
        tracking = max(0.0, (acc.x1 - acc.x0 - acc.ink - guessed) / others)
    else:
        tracking = min(gap for _, gap in acc.guessed)
    size = statistics.median(acc.heights)
    for position, gap in acc.guessed:
        autospaced = gap <= AUTOSPACE_GAP * size and _AUTOSPACED.fullmatch(acc.chars[position - 1] + acc.chars[position + 1])
        previous = acc.before.get(position)
        spread = previous is not None and previous > SPACE_GAP * size and abs(gap - previous) <= LETTER_GAP_MATCH * size
        if gap - tracking <= SPACE_GAP * size or autospaced or spread:
            acc.chars[position] = ""
    return tracking


def _pieces(acc: _LineAcc, tracking: float) -> tuple[tuple[float, bool, str], ...]:
    """The line's words as its spaces part them: (x where each starts, whether the gap before it
    is wider than CELL_GAP of the size past the letter spacing, its text)."""
    size = statistics.median(acc.heights)
    pieces, at, x, wide = [], 0, acc.x0, False
    for position, start, gap in acc.spaces:
        if acc.chars[position] != " ":
            continue  # dropped: letter spacing
        pieces.append((x, wide, "".join(acc.chars[at:position])))
        at, x, wide = position + 1, start, gap - tracking > CELL_GAP * size
    pieces.append((x, wide, "".join(acc.chars[at:])))
    return tuple(pieces)


def _tab_columns(lines: list[Line]) -> None:
    """Columns of a table drawn without rules, separated by tabs as a ruled table's cells are.

    An x where COLUMN_ROWS lines of the page or more start a word after a wide gap (see
    CELL_GAP) is a column's left edge. In a line with such a gap there, or with ROW_GAPS words
    starting at edges, every space before a word starting at an edge, wide or not (a value may
    run close to the next column, as a tab stop lets it), is a tab; a space inside a cell
    (mg/L FEU) starts no column and stays. Prose parts its words by no wide gap, and is left
    as it is."""
    starts = sorted((x, id(line)) for line in lines for x, wide, _ in line.pieces[1:] if wide)
    if len(starts) < COLUMN_ROWS:
        return
    slack = COLUMN_SLACK * statistics.median(line.size for line in lines if line.pieces)
    xs = [x for x, _ in starts]
    columns = [x for x in xs  # the starts within slack of x, found by bisection in the sorted starts
               if len({owner for _, owner in starts[bisect.bisect_left(xs, x - slack):bisect.bisect_right(xs, x + slack)]}) >= COLUMN_ROWS]
    if not columns:
        return
    for line in lines:
        if len(line.pieces) < 2:
            continue
        at_column = [(at := bisect.bisect_left(columns, x - slack)) < len(columns) and columns[at] <= x + slack
                     for x, _, _ in line.pieces[1:]]
        if not any(wide and edge for (_, wide, _), edge in zip(line.pieces[1:], at_column)) and sum(at_column) < ROW_GAPS:
            continue
        text = line.pieces[0][2]
        for (_, _, word), edge in zip(line.pieces[1:], at_column):
            text += ("\t" if edge else " ") + word
        line.text = clean_line(text)


def _text_lines(chars: list[Char], page: int, exclude: list[tuple[float, float, float, float]]) -> list[Line]:
    """Group the page's chars into lines, skipping chars inside ``exclude`` boxes (tables).

    Spaces in the text are kept as one space, and so are the spaces pdfium makes up for a
    gap between glyphs, unless the gap is no wider than the line's own spacing allows (see
    :func:`_spaced`); its generated line breaks are trusted only when the next char is not
    on the same row further right.
    """
    lines = _group_lines(chars, exclude)
    merged = _merge_row_fragments(lines)
    result = []
    for acc in merged:
        tracking = _drop_tracking_spaces(acc) if acc.guessed else 0.0
        text = "".join(acc.chars)
        if text.strip():
            pieces = _pieces(acc, tracking) if acc.spaces else ()
            result.append(Line(clean_line(text), acc.x0, acc.x1, acc.top, acc.bottom, statistics.median(acc.heights), page,
                               samples=(acc.first, acc.last), pieces=pieces))
    _tab_columns(result)
    return result


# Two pieces of one row drawn apart in the content stream (a report engine's labels drawn first and
# its field values after them, a form field's value flattened into the page) are one line when
# they interleave, or when the gap between them is at most ROW_JOIN_GAP of their size and at
# least ROW_JOIN_CROSSINGS other lines of the page run across it: a column gutter is a gap no
# line but a heading set across the page crosses.
ROW_JOIN_GAP = 0.5
ROW_JOIN_CROSSINGS = 3


def _merge_row_fragments(lines: list[_LineAcc]) -> list[_LineAcc]:
    """``lines`` with the pieces of a row drawn apart joined, their glyphs in left-to-right order
    (see ROW_JOIN_GAP), each joined line where its first piece was."""
    if len(lines) < 2:
        return lines
    order = sorted(range(len(lines)), key=lambda i: lines[i].top)
    partner: dict[int, int] = {}

    def root(i: int) -> int:
        while partner.get(i, i) != i:
            i = partner[i]
        return i

    for k, i in enumerate(order):
        a = lines[i]
        middle_a, height_a = (a.top + a.bottom) / 2, a.bottom - a.top
        for j in order[k + 1:]:
            b = lines[j]
            if b.top > middle_a:
                break  # sorted by top: no later line reaches this row
            middle_b, height_b = (b.top + b.bottom) / 2, b.bottom - b.top
            if not (a.top <= middle_b <= a.bottom and b.top <= middle_a <= b.bottom) or max(height_a, height_b) > 1.3 * min(height_a, height_b):
                continue  # another row, or another size (a superscript, a heading beside a note)
            left, right = (a, b) if a.x0 <= b.x0 else (b, a)
            if right.x0 < left.x1:  # interleaved: one piece sits in the other's gaps
                if not _has_room(left, right):
                    continue  # overprinted (a bold drawn twice, a line struck through): not two pieces
            elif right.x0 - left.x1 > ROW_JOIN_GAP * min(height_a, height_b) or _crossings(lines, left.x1, right.x0, a, b) < ROW_JOIN_CROSSINGS:
                continue
            partner[root(j)] = root(i)
    if not partner:
        return lines
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(lines)):
        groups[root(i)].append(i)
    out = []
    for i, acc in enumerate(lines):
        members = groups.get(i)
        if members is None:
            continue  # joined into an earlier line
        if len(members) == 1:
            out.append(acc)
            continue
        glyphs = sorted((c for m in members for c in lines[m].members), key=lambda c: c[2])
        out += _group_lines(_spaced_by_gaps(glyphs), [])
    return out


def _has_room(left: _LineAcc, right: _LineAcc) -> bool:
    """Whether the glyphs of ``right`` fall in gaps between those of ``left`` (no glyph of one over
    a glyph of the other)."""
    boxes = sorted((c[2], c[4]) for c in left.members if not c[0].isspace())
    for _, _, x0, _, x1, _, _ in right.members:
        at = bisect.bisect_right(boxes, (x0, x1)) - 1
        for k in (at, at + 1):
            if 0 <= k < len(boxes) and boxes[k][0] < x1 - 0.1 and x0 + 0.1 < boxes[k][1]:
                return False
    return True


def _crossings(lines: list[_LineAcc], x0: float, x1: float, a: _LineAcc, b: _LineAcc) -> int:
    """Lines of the page other than ``a`` and ``b`` that run across the gap from ``x0`` to ``x1``."""
    return sum(1 for line in lines if line is not a and line is not b and line.x0 < x0 and line.x1 > x1)


def _spaced_by_gaps(glyphs: list[Char]) -> list[Char]:
    """Glyphs put in left-to-right order, with a made-up space wherever one is further from the
    one before than SPACE_GAP of its size (as pdfium guesses spaces in content order; typed
    spaces are among the glyphs)."""
    out: list[Char] = []
    previous = None
    for glyph in glyphs:
        if previous is not None and glyph[2] - previous[4] > SPACE_GAP * (glyph[5] - glyph[3]):
            out.append((" ", True, 0.0, 0.0, 0.0, 0.0, glyph[6]))
        out.append(glyph)
        previous = glyph
    return out


def _group_lines(chars: list[Char], exclude: list[tuple[float, float, float, float]]) -> list[_LineAcc]:
    """The chars grouped into lines in the order they come."""
    lines: list[_LineAcc] = []
    current: _LineAcc | None = None
    space = written = False  # a space before the next glyph; one the text itself holds
    for glyph in chars:
        char, generated, left, top, right, bottom, index = glyph
        if char.isspace():
            space = True
            written = written or not generated
            if not generated and current is not None:
                current.members.append(glyph)
            continue
        if exclude and _inside((left + right) / 2, (top + bottom) / 2, exclude):
            space = written = False
            continue
        # A char joins the line when its vertical middle falls within the line's extent and
        # it does not start back left of the line's end (by more than its own size).
        if current is None or not current.top <= (top + bottom) / 2 <= current.bottom or left < current.x1 - (bottom - top):
            current = _LineAcc([char], left, right, top, bottom, [bottom - top], index, index, right - left, [], members=[glyph])
            lines.append(current)
        else:
            current.members.append(glyph)
            gap = left - current.x1
            if space:
                if not written:
                    current.guessed.append((len(current.chars), gap))
                    if current.gap is not None:
                        current.before[len(current.chars)] = current.gap
                current.spaces.append((len(current.chars), left, gap))
                current.chars.append(" ")
            current.gap = None if space else gap
            current.chars.append(char)
            current.ink += right - left
            if right > current.x1:
                current.x1 = right
            if top < current.top:
                current.top = top
            if bottom > current.bottom:
                current.bottom = bottom
            current.heights.append(bottom - top)
            current.last = index
        space = written = False
    return lines


# ---------------------------------------------------------------- tables


# How deep form XObjects are searched for paths (pypdfium2's ``get_objects`` default).
FORM_DEPTH = 15



def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner`` and then ``outer`` (PDF row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


# pdfium's page-object and path calls, unchecked as the per-char ones are (see _unconverted):
# a page of ruled tables holds thousands of path segments, four calls each.
class _Handle(ctypes.c_void_p):
    """A pointer result kept as a ctypes object (a c_void_p subclass is not turned into an int),
    so an unchecked call passes it back as a pointer, not truncated to a C int."""


_PAGE_COUNT = _unconverted(pdfium_c.FPDFPage_CountObjects)
_PAGE_OBJECT = _unconverted(pdfium_c.FPDFPage_GetObject, _Handle)
_FORM_COUNT = _unconverted(pdfium_c.FPDFFormObj_CountObjects)
_FORM_OBJECT = _unconverted(pdfium_c.FPDFFormObj_GetObject, _Handle)
_OBJECT_TYPE = _unconverted(pdfium_c.FPDFPageObj_GetType)
_OBJECT_MATRIX = _unconverted(pdfium_c.FPDFPageObj_GetMatrix)
_SEGMENT_COUNT = _unconverted(pdfium_c.FPDFPath_CountSegments)
_SEGMENT = _unconverted(pdfium_c.FPDFPath_GetPathSegment, _Handle)
_SEGMENT_POINT = _unconverted(pdfium_c.FPDFPathSegment_GetPoint)
_SEGMENT_TYPE = _unconverted(pdfium_c.FPDFPathSegment_GetType)
_SEGMENT_CLOSE = _unconverted(pdfium_c.FPDFPathSegment_GetClose)


def _ruling_edges(page: pdfium.PdfPage, view: Matrix) -> list[dict]:
    """The page's vector paths as the edges pdfplumber's table finder reads (``page.edges``).

    Read from pdfium's raw path segments (forms included) instead of opening the file again
    in pdfminer, which interprets the whole content stream in Python and was most of the
    time of a page with a table. Each subpath becomes what pdfminer would make of it: two
    points are a line, a closed axis-aligned four-cornered path a rectangle (four edges),
    anything else a curve through its points (edges between neighbouring points). Points are
    read in the page as shown (``view``, see :func:`_page_view`).
    """
    edges: list[dict] = []
    matrix = pdfium_c.FS_MATRIX()
    x, y = ctypes.c_float(), ctypes.c_float()
    matrix_ref, x_ref, y_ref = ctypes.byref(matrix), ctypes.byref(x), ctypes.byref(y)
    object_type, path, form = _OBJECT_TYPE, pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_FORM
    moveto = pdfium_c.FPDF_SEGMENT_MOVETO

    def walk(parent, count_objects, get_object, outer: Matrix, level: int) -> None:
        for i in range(count_objects(parent)):
            obj = get_object(parent, i)
            kind = object_type(obj)
            if kind != path and kind != form:
                continue
            _OBJECT_MATRIX(obj, matrix_ref)
            own = _compose((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f), outer)
            if kind == form:
                if level < FORM_DEPTH - 1:
                    walk(obj, _FORM_COUNT, _FORM_OBJECT, own, level + 1)
                continue
            subpath: list[tuple[float, float]] = []
            a, b, c, d, e, f = own
            for k in range(_SEGMENT_COUNT(obj)):
                segment = _SEGMENT(obj, k)
                _SEGMENT_POINT(segment, x_ref, y_ref)
                px, py = x.value, y.value
                point = (a * px + c * py + e, b * px + d * py + f)
                if _SEGMENT_TYPE(segment) == moveto:
                    _subpath_edges(subpath, False, edges)
                    subpath = []
                subpath.append(point)
                if _SEGMENT_CLOSE(segment):
                    _subpath_edges(subpath, True, edges)
                    subpath = []
            _subpath_edges(subpath, False, edges)

    walk(page.raw, _PAGE_COUNT, _PAGE_OBJECT, view, 0)
    return edges


def _subpath_edges(points: list[tuple[float, float]], closed: bool, edges: list[dict]) -> None:
    if len(points) < 2:
        return
    if closed and len(points) == 4 and _axis_aligned([*points, points[0]]):
        points = [*points, points[0]]  # a rectangle whose closing side is implied (``h``)
    if len(points) == 2:
        (x0, top0), (x1, top1) = points
        edges.append(_edge("line", x0, top0, x1, top1, "h" if top0 == top1 else "v"))
        return
    kind = "rect_edge" if len(points) == 5 and points[-1] == points[0] and _axis_aligned(points) else "curve_edge"
    for (x0, top0), (x1, top1) in zip(points, points[1:]):
        edges.append(_edge(kind, x0, top0, x1, top1, "v" if x0 == x1 else ("h" if top0 == top1 else None)))


def _axis_aligned(points: list[tuple[float, float]]) -> bool:
    return all(p[0] == q[0] or p[1] == q[1] for p, q in zip(points, points[1:]))


def _edge(kind: str, x0: float, top0: float, x1: float, top1: float, orientation: str | None) -> dict:
    top, bottom = min(top0, top1), max(top0, top1)
    return {"object_type": kind, "x0": min(x0, x1), "x1": max(x0, x1), "top": top, "bottom": bottom, "doctop": top,
            "width": abs(x1 - x0), "height": bottom - top, "orientation": orientation}


def _table_rows(raw_rows: list[list[str | None]]) -> list[list[CellSpec]]:
    """pdfplumber gives ``None`` for grid cells covered by a merged cell: widen the cell before."""
    rows = []
    for raw_row in raw_rows:
        row: list[CellSpec] = []
        for cell in raw_row:
            if cell is None and row:
                row[-1].colspan += 1
            else:
                row.append(CellSpec(clean_cell(cell or "")))
        rows.append(row)
    return rows


def _find_tables(page: pdfium.PdfPage, chars: list[Char], view: Matrix, number: int) -> tuple[list[Table], list[Table]]:
    """Ruled tables, and ruled single rows: pdfplumber's table finder on the page's paths and pdfium's chars."""
    edges = _ruling_edges(page, view)
    if not any(edge["orientation"] == "h" for edge in edges) or not any(edge["orientation"] == "v" for edge in edges):
        return [], []  # a table needs rulings both ways: most pages draw none, or only a rule
    tables, lone = [], []
    glyphs = [(char, left, top, right, bottom) for char, made_up, left, top, right, bottom, _ in chars if not made_up]
    for found in _ruled_tables(edges):
        texts = _cell_texts(found.rows, glyphs)
        rows = _table_rows(texts)
        if max(len(r) for r in rows) < 2:
            continue  # a box around a paragraph, not a table
        x0, top, x1, bottom = found.bbox
        if len(rows) < 2:
            lone.append(Table(rows, x0, x1, top, bottom, number))
            continue
        header = 1 if looks_like_header(rows) else 0
        # A row's first cell covered (None) is a first-column cell merged down from a row above:
        # Word/LibreOffice draw a lab's panel name so, read as the DOCX reader reads the merge.
        if any(len(raw) > 1 and raw[0] is None for raw in texts[header + 1 :]):
            rows = group_captions(rows, header)
        tables.append(Table(rows, x0, x1, top, bottom, number, header_rows=header))
    return tables, lone


def _ruled_tables(page_edges: list[dict]) -> list:
    """pdfplumber's ``TableFinder`` with its default settings, step by step, with its cell
    search (``intersections_to_cells``) replaced by :func:`_grid_cells`."""
    from pdfplumber import table as plumber  # only for pages with rulings
    from pdfplumber.utils import filter_edges

    settings = plumber.TableSettings.resolve(None)
    # pdfplumber before 0.11.8 has no such setting: it kept edges of filter_edges' default length, 1.
    prefilter = getattr(settings, "edge_min_length_prefilter", 1)
    edges = [*filter_edges(page_edges, "v", min_length=prefilter), *filter_edges(page_edges, "h", min_length=prefilter)]
    edges = plumber.merge_edges(edges, settings.snap_x_tolerance, settings.snap_y_tolerance,
                                settings.join_x_tolerance, settings.join_y_tolerance)
    edges = filter_edges(edges, min_length=settings.edge_min_length)
    intersections = plumber.edges_to_intersections(edges, settings.intersection_x_tolerance,
                                                   settings.intersection_y_tolerance)
    # A table's rows and bbox are read from its cells alone: it is given no page.
    return [plumber.Table(None, cells) for cells in plumber.cells_to_tables(_grid_cells(intersections))]  # type: ignore[arg-type]


Point = tuple[float, float]


def _grid_cells(intersections: dict[Point, dict[str, list[dict]]]) -> list[tuple[float, float, float, float]]:
    """pdfplumber's ``intersections_to_cells``, same cells in the same order: from each
    intersection, the smallest cell whose four corners are joined by edges.

    pdfplumber scans every later point for those below and right of each point and builds
    the edge sets of both points anew for every test, quadratic in the points of a page;
    here each point's edges are a set once and its column and row are looked up."""
    points = sorted(intersections)
    vertical = {p: {_bbox(e) for e in intersections[p]["v"]} for p in points}
    horizontal = {p: {_bbox(e) for e in intersections[p]["h"]} for p in points}
    columns: dict[float, list[Point]] = {}
    rows: dict[float, list[Point]] = {}
    for point in points:  # sorted by x, then y: a column top down, a row left to right
        columns.setdefault(point[0], []).append(point)
        rows.setdefault(point[1], []).append(point)
    cells = []
    for point in points:
        x, y = point
        below = [p for p in columns[x] if p[1] > y and not vertical[point].isdisjoint(vertical[p])]
        right = [p for p in rows[y] if p[0] > x and not horizontal[point].isdisjoint(horizontal[p])]
        cell = next(((x, y, r[0], b[1]) for b in below for r in right
                     if (r[0], b[1]) in intersections
                     and not vertical[(r[0], b[1])].isdisjoint(vertical[r])
                     and not horizontal[(r[0], b[1])].isdisjoint(horizontal[b])), None)
        if cell is not None:
            cells.append(cell)
    return cells


def _bbox(edge: dict) -> tuple[float, float, float, float]:
    return edge["x0"], edge["top"], edge["x1"], edge["bottom"]


# A glyph for table cells: (text, left, top, right, bottom).
Glyph = tuple[str, float, float, float, float]


def _cell_texts(rows, glyphs: list[Glyph]) -> list[list[str | None]]:
    """pdfplumber's ``Table.extract``: a char belongs to the cell holding its middle, cell
    text is pdfplumber's ``extract_text`` of its chars (:func:`_cell_text`), ``None`` marks
    a cell covered by a merged one. Each row's chars are found by bisection on their
    vertical middles, not by testing every char of the page against every row."""
    placed = sorted(((g[2] + g[4]) / 2, index, (g[1] + g[3]) / 2) for index, g in enumerate(glyphs))
    middles = [middle for middle, _, _ in placed]
    texts = []
    for row in rows:
        x0, top, x1, bottom = row.bbox
        in_row = sorted(
            (index, v, h)
            for v, index, h in placed[bisect.bisect_left(middles, top) : bisect.bisect_left(middles, bottom)]
            if x0 <= h < x1
        )
        line: list[str | None] = []
        for cell in row.cells:
            if cell is None:
                line.append(None)
                continue
            cx0, ctop, cx1, cbottom = cell
            line.append(_cell_text([glyphs[index] for index, v, h in in_row if cx0 <= h < cx1 and ctop <= v < cbottom]))
        texts.append(line)
    return texts


# pdfplumber's ``extract_text`` defaults: chars whose tops are within Y_TOLERANCE are one
# line, a gap wider than X_TOLERANCE starts a new word.
X_TOLERANCE = 3
Y_TOLERANCE = 3


def _cell_text(glyphs: list[Glyph]) -> str:
    """pdfplumber's ``extract_text(chars)`` with its defaults, on tuples instead of dicts:
    chars clustered into lines by their tops, each line sorted by x and cut into words at
    whitespace, a gap or a step back or up; words clustered into lines again by their tops,
    joined by a space within a line and a newline between lines."""
    from pdfplumber.utils.text import LIGATURES  # what pdfplumber expands in a word's text

    # Most cells hold one line: tops that all lie within the tolerance make one cluster of
    # chars and one of words, in their order, so neither clustering need be run.
    tops = [g[2] for g in glyphs]
    one_line = not tops or max(tops) - min(tops) <= Y_TOLERANCE
    words: list[tuple[float, str]] = []  # (top, text)
    for line in [glyphs] if one_line else _clusters(glyphs, lambda g: g[2]):
        word: list[Glyph] = []
        for glyph in sorted(line, key=lambda g: g[1]):
            if glyph[0].isspace():
                _flush(word, words, LIGATURES)
                word = []
            elif word and (glyph[1] < word[-1][1] or glyph[1] > word[-1][3] + X_TOLERANCE
                           or abs(glyph[2] - word[-1][2]) > Y_TOLERANCE):
                _flush(word, words, LIGATURES)
                word = [glyph]
            else:
                word.append(glyph)
        _flush(word, words, LIGATURES)
    if one_line:
        return " ".join(text for _, text in words)
    return "\n".join(" ".join(text for _, text in line) for line in _clusters(words, lambda w: w[0]))


def _flush(word: list[Glyph], words: list[tuple[float, str]], ligatures: dict[str, str]) -> None:
    if word:
        words.append((min(g[2] for g in word), "".join(ligatures.get(g[0], g[0]) for g in word)))


def _clusters(items: list, top) -> list[list]:
    """pdfplumber's ``cluster_objects`` by ``top`` with Y_TOLERANCE: the distinct values,
    sorted, chained while each is within the tolerance of the one before; items keep their
    order within a cluster."""
    index: dict[float, int] = {}
    cluster, last = -1, -math.inf
    for value in sorted({top(item) for item in items}):
        if value > last + Y_TOLERANCE:
            cluster += 1
        index[value], last = cluster, value
    grouped: dict[int, list] = {}
    for item in items:
        grouped.setdefault(index[top(item)], []).append(item)
    return [grouped[k] for k in sorted(grouped)]


# ---------------------------------------------------------------- furniture


def _band_text(line: Line) -> str:
    """What a running header or footer keeps from page to page: its text without numbers and spaces."""
    return _BAND_VARIABLE.sub("", line.text)


def _band_lines(page: PageContent) -> list[Line]:
    top = [line for line in page.lines if line.bottom <= page.height * BAND]
    bottom = [line for line in page.lines if line.top >= page.height * (1 - BAND)]
    return top + bottom


def _band_places(pages: list[PageContent]) -> dict[str, list[tuple[int, Line | None]]]:
    """Where each band text is printed: (page index, its line in the band), and (page index,
    ``None``) where it is the page's last line outside the band. A browser prints a table's
    footer row (``<tfoot>``, a web page's running footer) under the last row on the last page,
    mid-page: the same footer, out of its band."""
    places: dict[str, list[tuple[int, Line | None]]] = defaultdict(list)
    for index, page in enumerate(pages):
        band = _band_lines(page)
        for line in band:
            if text := _band_text(line):
                places[text].append((index, line))
        last = max(page.lines, key=lambda line: line.bottom, default=None)
        if last is not None and last not in band and (text := _band_text(last)):
            places[text].append((index, None))
    return places


def _repeats(line: Line, index: int, places: dict[str, list[tuple[int, Line | None]]], *, footer: bool = False) -> int:
    """On how many pages ``line`` (in the band of page ``index``) is printed in the same place:
    the same text in the same band, less than a line's height higher or lower (a browser prints
    page 1's running header lower by the body's margin; body text in the band moves by whole
    lines), or, a ``footer``, as a page's last line out of the band."""
    same = {index}
    for page, other in places.get(_band_text(line), []):
        if other is None:
            if footer:
                same.add(page)
        elif abs(other.top - line.top) < max(other.size, line.size):
            same.add(page)
    return len(same)


def _footer_elsewhere(line: Line, index: int, pages: list[PageContent], places: dict[str, list[tuple[int, Line | None]]]) -> int:
    """On how many pages besides ``index`` the text of ``line`` (a page's last line) is a line of
    the bottom band, at any height."""
    return len({page for page, other in places.get(_band_text(line), [])
                if other is not None and page != index and other.top >= pages[page].height * (1 - BAND)})


def _body_texts(lines: list[Line]) -> set[str]:
    """The texts of a page's body lines, and of every two consecutive lines joined: a title
    broken over two lines (see _centre_full_lines) names the document as a header does on one."""
    ordered = sorted(lines, key=lambda line: line.top)
    return {line.text for line in ordered} | {join_wrapped(a.text, b.text) for a, b in zip(ordered, ordered[1:])}


def _remove_furniture(pages: list[PageContent]) -> None:
    """Drop page numbers and lines repeated in the top/bottom band of many pages.

    A repeated top-band line (a letterhead, a running title) is kept once, on
    page 1, where it names the document, unless page 1 names it below as well (a
    running header that repeats the title, or holds it among the date and time a
    browser prints beside the page's title); footers are dropped everywhere.
    """
    places = _band_places(pages)
    needed = max(2, math.ceil(REPEAT_SHARE * len(pages)))
    for index, page in enumerate(pages):
        furniture = set()
        band = _band_lines(page)
        body = _body_texts([line for line in page.lines if line not in band]) if index == 0 else set()
        # the first line of page 1 that repeats on no other page (a title may sit in the band too)
        own = [line for line in page.lines if _repeats(line, index, places) < needed] if index == 0 else []
        title = min(own, key=lambda line: line.top).text if own else ""
        last = max(page.lines, key=lambda line: line.bottom, default=None)
        for line in band:
            named_below = line.text in body or (len(title) >= TITLE_IN_HEADER and title in line.text
                                                and not _HAN.search(line.text.replace(title, "")))
            if _PAGE_NUMBER.match(line.text) or not _band_text(line):
                furniture.add(id(line))
            elif _repeats(line, index, places, footer=line.top >= page.height * (1 - BAND)) >= needed and not (index == 0 and line.bottom <= page.height * BAND and not named_below):
                furniture.add(id(line))
        # a footer the browser printed under the last page's body, higher than on the other pages
        if last is not None and _footer_elsewhere(last, index, pages, places) + 1 >= needed:
            furniture.add(id(last))
        page.lines = [line for line in page.lines if id(line) not in furniture]


def _remove_line_numbers(pages: list[PageContent]) -> None:
    """Set aside the numbers a court's or a word processor's line numbering prints down the margin
    (LibreOffice's and Word's 行号, a web system's numbered gutter): on a page, at least
    LINE_NUMBERS lines that are each a bare number, all beside the text (ending left of every
    other line's start, or starting right of every end), counting up from top to bottom. A person
    reads past them; read as lines, they fall between the lines they number and part them."""
    for page in pages:
        numbers = [line for line in page.lines if _LINE_NUMBER.match(line.text)]
        if len(numbers) < LINE_NUMBERS:
            continue
        text = [line for line in page.lines if not _LINE_NUMBER.match(line.text)]
        if not text:
            continue
        left, right = min(line.x0 for line in text), max(line.x1 for line in text)
        for beside in ([n for n in numbers if n.x1 < left], [n for n in numbers if n.x0 > right]):
            values = [int(n.text) for n in sorted(beside, key=lambda n: n.top)]
            if len(values) >= LINE_NUMBERS and all(a < b for a, b in zip(values, values[1:])):
                dropped = {id(n) for n in beside}
                page.lines = [line for line in page.lines if id(line) not in dropped]


def _remove_footnotes(pages: list[PageContent]) -> None:
    """Set aside each page's footnotes: a person reads a page's text on into the next page past
    them, and the DOCX reader, which reads no footnotes part, reads the same text. They are the
    page's last lines, set clearly smaller than the body, the first opening with a note's number."""
    body = _body_size([line for page in pages for line in page.lines])
    for page in pages:
        lines = sorted(page.lines, key=lambda line: line.top)
        start = len(lines)
        while start and lines[start - 1].font_size <= FOOTNOTE_SIZE * body and lines[start - 1].top >= FOOTNOTE_ZONE * page.height:
            start -= 1
        if start < len(lines) and _NOTE_MARK.match(lines[start].text):
            dropped = {id(line) for line in lines[start:]}
            page.lines = [line for line in page.lines if id(line) not in dropped]


# ---------------------------------------------------------------- reading order


def _gutter(items: Sequence[Item], width: float) -> tuple[float, float] | None:
    """A vertical strip in the middle of the page that (almost) no line crosses: two columns.
    A short line centred on the page (a title, a chapter heading set across both columns, as a
    gazette sets one between runs of two columns) crosses any gutter and says nothing of one:
    it is left out, and the reading order takes it as the end of the run above it."""
    lines = [i for i in items if isinstance(i, Line) and not _centred_on_page(i, width)]
    if len(lines) < 6:
        return None
    # How many lines cover each x: +1 where a line starts, -1 past its end, summed left to right
    # (one pass per line, not one step per point of its width).
    steps = [0] * (int(width) + 2)
    for line in lines:
        start, stop = max(int(line.x0), 0), min(int(line.x1) + 1, len(steps) - 1)
        if start < stop:
            steps[start] += 1
            steps[stop] -= 1
    coverage = list(itertools.accumulate(steps[:-1]))
    allowed = max(1, len(lines) // 10)
    best: tuple[float, float] | None = None
    run_start = None
    for x in range(int(width * 0.3), int(width * 0.7) + 1):
        if coverage[x] <= allowed:
            run_start = x if run_start is None else run_start
            if best is None or x - run_start > best[1] - best[0]:
                best = (run_start, x)
        else:
            run_start = None
    if best is None or best[1] - best[0] < 8:
        return None
    left = sum(1 for line in lines if line.x1 <= best[0])
    right = sum(1 for line in lines if line.x0 >= best[1])
    return best if left >= 3 and right >= 3 else None


CENTRED_SLACK = 0.04  # a line whose middle is within this share of the page's width of the page's middle is centred
CENTRED_WIDTH = 0.7  # a centred line narrower than this share of the page is a heading or title line, not body text


def _centred_on_page(line: Line, width: float) -> bool:
    return line.x1 - line.x0 < CENTRED_WIDTH * width and abs((line.x0 + line.x1) / 2 - width / 2) < CENTRED_SLACK * width


def _side(item: Item, gutter: tuple[float, float]) -> int:
    """Which column an item sits in: -1 left, 1 right, 0 both (it crosses the whole gutter).

    A line may reach into the gutter without leaving its column: punctuation hangs
    past the margin (标点溢出) in Word and WPS, so only crossing to the far side counts.
    """
    if item.x1 < gutter[1] - 1:
        return -1
    if item.x0 > gutter[0] + 1:
        return 1
    return 0


def _reading_order(items: list[Item], width: float) -> list[Item]:
    """Top to bottom; with two columns, each run between full-width items is left column then right."""
    items = sorted(items, key=lambda i: (round(i.top), i.x0))
    gutter = _gutter(items, width)
    if gutter is None:
        return items
    ordered: list[Item] = []
    left: list[Item] = []
    right: list[Item] = []
    for item in items:
        side = _side(item, gutter)
        if side < 0:
            left.append(item)
        elif side > 0:
            right.append(item)
        else:  # spans both columns: closes the run above it
            ordered += left + right + [item]
            left, right = [], []
    return ordered + left + right


# ---------------------------------------------------------------- marking


def _mark_toc(lines: list[Line]) -> None:
    """Mark table-of-contents lines: dot leaders with a page number, or short entries after 目录.

    The entries after a 目录 title end at the first line that is long, ends a
    sentence, is an article, or repeats the first entry (the body has begun).
    """
    first_entry: str | None = None
    in_toc = False
    for line in lines:
        key = _WHITESPACE.sub("", _TOC_LEADER.sub("", line.text))
        if _TOC_TITLE.match(line.text):
            line.toc, in_toc, first_entry = True, True, None
            continue
        if in_toc:
            ended = (
                len(key) > 40
                or _SENTENCE_END.search(line.text)
                or _ARTICLE.match(key)
                or key == first_entry
            )
            if ended:
                in_toc = False
            else:
                first_entry = first_entry or key
                line.toc = True
                continue
        if _TOC_LEADER.search(line.text) and _DOT_LEADER.search(line.text):
            line.toc = True


def _body_size(lines: list[Line]) -> float:
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.font_size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _mark_headings(pages: list[PageContent]) -> None:
    """Headings: short lines clearly larger than the body text, and short bold lines of about
    its size that end no sentence (unless the whole text is bold). Their depth is their rank:
    larger first, and of one size a centred heading above one at the margin."""
    lines = [item for page in pages for item in page.items if isinstance(item, Line)]
    body = _body_size(lines)
    if not body:
        return
    body_sample = [line for line in lines if line.bold is not None and not _heading_shaped(line.text)]
    bold_body = sum(1 for line in body_sample if line.bold) > len(body_sample) / 2
    keys: dict[int, tuple[int, bool]] = {}
    for page in pages:
        page_lines = [item for item in page.items if isinstance(item, Line)]
        left = min((line.x0 for line in page_lines), default=0.0)
        for line in page_lines:
            if line.toc:
                continue
            big = line.font_size >= body * HEADING_RATIO and len(line.text) <= 60
            emphasised = not bold_body and line.bold and line.font_size >= body * SMALL_HEADING and _heading_shaped(line.text)
            if big or emphasised:
                keys[id(line)] = (round(line.font_size), _centred(line, page.width, left))
        _centre_full_lines(page_lines, keys, page.width)
    levels = {key: rank + 1 for rank, key in enumerate(sorted(set(keys.values()), reverse=True))}
    for line in lines:
        if id(line) in keys:
            line.heading_level = levels[keys[id(line)]]
            line.centred = keys[id(line)][1]


def _centre_full_lines(lines: list[Line], keys: dict[int, tuple[int, bool]], width: float) -> None:
    """A centred heading a word processor broke because it was full (a long title, a court's or
    hospital's name over two lines): its full lines span the text width from margin to margin,
    where _centred cannot tell centring, and the line they go on into is centred. Such a line,
    its middle at the page's, of the size of the centred heading line right under it, is centred
    too: one heading, one depth, and its lines one paragraph (see _continues)."""
    for line, following in reversed(list(zip(lines, lines[1:]))):
        key, below = keys.get(id(line)), keys.get(id(following))
        if (key is not None and below is not None and below[1] and not key[1] and key[0] == below[0]
                and following.top > line.top and following.top - line.bottom < line.size
                and abs((line.x0 + line.x1) / 2 - width / 2) <= CENTRE_TOLERANCE * line.size):
            keys[id(line)] = below


def _centred(line: Line, width: float, left: float) -> bool:
    """Set in the middle of the page, clearly off the left margin (a short line at the margin
    of a narrow page is not centred)."""
    middle = (line.x0 + line.x1) / 2
    return abs(middle - width / 2) <= CENTRE_TOLERANCE * line.size and line.x0 - left >= INDENT_MIN * line.size


# ---------------------------------------------------------------- soft wraps


def _right_edge(lines: list[Line]) -> float | None:
    """The right margin of the text: the x that several of the longest lines reach together.

    Flowed text is wrapped at one margin, so its wrapped lines end within a
    character of each other (the longest tenth may pass it: hanging punctuation,
    wide Latin letters). Rows and key：value header lines end wherever their last
    value ends; when the longest lines do not end together no margin is claimed,
    as the longest line of a page of rows did not reach a margin and wrap.
    """
    ends = _ends(lines)
    if len(ends) < 6:
        return None
    edge = ends[max(2, len(ends) // 10) - 1]
    tolerance = _tolerance(lines)
    if ends[0] > edge + EDGE_PASS * tolerance:
        return None
    return _unhung_edge(lines, edge, tolerance) if _together(ends, edge, tolerance) >= EDGE_LINES else None


def _ends(lines: list[Line]) -> list[float]:
    # A heading is set larger, often centred or indented, and may run past the body's margin
    # (a long title at 14 pt): the body's lines alone say where the text wraps.
    return sorted((line.x1 for line in _body_lines(lines)), reverse=True)


def _body_lines(lines: list[Line]) -> list[Line]:
    return [line for line in lines if len(line.text) >= 4 and line.heading_level is None]


def _unhung_edge(lines: list[Line], edge: float, tolerance: float) -> float:
    """The margin under punctuation hung past it. Word's and LibreOffice's Asian typography let a
    line's closing punctuation hang past the right margin; where such lines are more than a tenth
    of a page, they set the edge a character too far right. When the lines at the edge end so
    and at least EDGE_LINES others, ending in no punctuation, end together up to HANG_MAX
    characters left of it, those mark the margin the text wraps at."""
    body = _body_lines(lines)
    at_edge = [line for line in body if abs(line.x1 - edge) <= tolerance]
    if not at_edge or sum(1 for line in at_edge if _HANGING.search(line.text)) * 2 <= len(at_edge):
        return edge
    short = sorted((line.x1 for line in body if not _HANGING.search(line.text)
                    and edge - HANG_MAX * line.size <= line.x1 < edge - tolerance / 2), reverse=True)
    if len(short) >= EDGE_LINES and _together(short, short[0], tolerance / 2) >= EDGE_LINES:
        return short[0]
    return edge


def _tolerance(lines: list[Line]) -> float:
    return EDGE_TOLERANCE * statistics.median(line.size for line in lines) if lines else 0.0


def _together(ends: list[float], edge: float, tolerance: float) -> int:
    return sum(1 for end in ends if abs(end - edge) <= tolerance)


def _document_edge(lines: list[Line], width: float, tables: list[Table]) -> float:
    """The margin of a document no page of which shows one (a short one: a wrapped paragraph
    or two among rows): where its two longest lines end together, else the right margin that
    mirrors its left one, which no line of a page of rows reaches. A table starts at the left
    margin too, where every line may start at a first-line indent."""
    ends = _ends(lines)
    if len(ends) >= 2 and _together(ends, ends[0], _tolerance(lines)) >= 2:
        return ends[0]
    return width - min([*(line.x0 for line in lines), *(table.x0 for table in tables)], default=0.0)


# A page's gutter (None with one column) and its lines column by column.
Columns = tuple[tuple[float, float] | None, list[list[Line]]]


def _columns(page: PageContent) -> Columns:
    """The page's gutter, if it has two columns, and its lines by column."""
    lines = [item for item in page.items if isinstance(item, Line)]
    gutter = _gutter(lines, page.width)
    if gutter is None:
        return None, [lines]
    return gutter, [[l for l in lines if _side(l, gutter) < 0], [l for l in lines if _side(l, gutter) >= 0]]


def _column_edges(pages: list[PageContent], columns_of: list[Columns]) -> dict[int, float]:
    """Right edge for every line (by id): per page and column (``columns_of``, by page), else the document's."""
    all_lines = [item for page in pages for item in page.items if isinstance(item, Line)]
    tables = [item for page in pages for item in page.items if isinstance(item, Table)]
    fallback = _right_edge(all_lines) or _document_edge(all_lines, max((page.width for page in pages), default=0.0), tables)
    edges: dict[int, float] = {}
    for gutter, columns in columns_of:
        for column in columns:
            edge = _right_edge(column)
            if gutter is None and edge is not None and edge < fallback - EDGE_PASS * _tolerance(column):
                # A full-width page wraps at the document's margin; an "edge" well inside it is a
                # page of rows of one form and length, which no wrap ends.
                edge = None
            edge = edge or (fallback if gutter is None else max((l.x1 for l in column), default=0.0))
            edges.update((id(line), edge) for line in column)
    return edges


def _continues(line: Line, following: Line, edge: float, margin: Margin, head: Line) -> bool:
    """A soft wrap: the line fills the text width, ends mid-sentence, and the next has its size
    and does not start at a paragraph's first-line indent. ``head`` is the first line of the
    paragraph ``line`` ends so far."""
    if line.toc or following.toc or line.heading_level != following.heading_level:
        return False
    left = margin.left
    if (left is not None and not following.centred and _indented(following, left)
            and not (not _indented(line, left) and opens_paragraph(line.text))):
        # A wrapped line starts at the margin. One at the first-line indent opens a paragraph,
        # unless the line above opens a list item at the margin: its hanging indent may sit there.
        # A centred heading's line starts where centring puts it, at an indent or not.
        return False
    if (margin.indents and left is not None and _indented(head, left) and following.x0 - left < INDENT_MIN * following.size / 2
            and abs(line.font_size - following.font_size) <= 0.15 * line.font_size
            and (margin.labels_indented or not opens_paragraph(following.text))):
        # A paragraph begun at the indent goes on at the margin, whatever its line there ends
        # with (a sentence ends at the margin as often as anywhere), unless the next line opens
        # an article, item or field of its own, which some paragraphs start at the margin; not
        # where such paragraphs start at the indent as the others do (a field named mid-paragraph).
        return edge - _wrap_slack(line, following) <= line.x1 <= edge + EDGE_PASS * line.size
    if abs(line.font_size - following.font_size) > 0.15 * line.font_size:
        return False
    if _WHOLE_NOTE.match(line.text):
        return False
    if sum(wide for _, wide, _ in line.pieces) >= ROW_GAPS:  # a row of cells set apart (a table without rules) ends where its last cell ends
        return False
    if _SENTENCE_END.search(line.text) and (not _CLAUSE_END.search(line.text) or opens_paragraph(following.text)):
        return False
    if is_form_line(line.text) and opens_paragraph(following.text):
        # a header's fields side by side (科室：… 床号：… 年龄：71岁) end their line where the next
        # opens a field or item of its own (主诉：…), however near the margin their last value ends
        return False
    # It reaches the margin; one running far past it was never wrapped there (a long title set
    # on one line, past the page's edge).
    return edge - _wrap_slack(line, following) <= line.x1 <= edge + EDGE_PASS * line.size


def _wrap_slack(line: Line, following: Line) -> float:
    """How far short of the margin a wrapped line may end: a char and a bit, and more when the
    next line starts with a run of Latin letters or digits, which a word processor moves down
    whole (…澄刑终 / 29号…): the run did not fit, so the line ends short by up to its width; and
    by the CJK-Latin spacing too where the break falls between such a pair (…2024年8 / 月2日…)."""
    run = _LATIN_RUN.match(following.text)
    slack = 1.2 + (LATIN_ADVANCE * len(run.group()) if run else 0.0)
    if line.text and following.text and _AUTOSPACED.fullmatch(line.text[-1] + following.text[0]):
        slack += AUTOSPACE_GAP
    return slack * line.size


def _indented(line: Line, left: float) -> bool:
    return INDENT_MIN * line.size <= line.x0 - left <= INDENT_MAX * line.size


@dataclass(frozen=True)
class Margin:
    """A column's left margin (None where no EDGE_LINES lines agree on one), whether its
    paragraphs start at a first-line indent (at least EDGE_LINES lines start there), and whether
    those that open with an article, item or field label do too (at least EDGE_LINES of them
    at the indent and more than at the margin): then a label at the margin is a wrapped line's."""

    left: float | None
    indents: bool
    labels_indented: bool = False


def _left_edges(columns_of: list[Columns]) -> dict[int, Margin]:
    """The left margin of every line (by id), per page and column: of the two x most of its
    lines of body text start at, the leftmost (wrapped lines start at the margin, first lines
    at the indent)."""
    edges: dict[int, Margin] = {}
    for _, columns in columns_of:
        for column in columns:
            starts = Counter(round(l.x0) for l in column if len(l.text) >= 4 and l.heading_level is None)
            common = [x for x, n in starts.most_common(2) if n >= EDGE_LINES]
            edge = float(min(common)) if common else None
            indents = edge is not None and sum(1 for l in column if len(l.text) >= 4 and _indented(l, edge)) >= EDGE_LINES
            labels_indented = False
            if indents:
                assert edge is not None
                labelled = [l for l in column if l.heading_level is None and opens_paragraph(l.text)]
                at_indent = sum(1 for l in labelled if _indented(l, edge))
                labels_indented = at_indent >= EDGE_LINES and at_indent > len(labelled) - at_indent
            margin = Margin(edge, indents, labels_indented)
            edges.update((id(line), margin) for line in column)
    return edges


def _line_pitch(pages: list[PageContent]) -> float | None:
    """The distance from one line of body text to the next: the commonest step between the
    bottoms of consecutive lines of one size on a page (in half points)."""
    steps: Counter[float] = Counter()
    for page in pages:
        lines = [item for item in page.items if isinstance(item, Line)]
        for line, following in zip(lines, lines[1:]):
            step = following.bottom - line.bottom
            if abs(line.size - following.size) <= 0.1 * line.size and 0 < step <= 4 * line.size:
                steps[round(step * 2) / 2] += 1
    return steps.most_common(1)[0][0] if steps else None


def _gap_between(item: Item, following: Item, pitch: float | None) -> bool:
    """A paragraph gap: the white space between two items on a page, one below the other, is
    more than a line pitch (an empty paragraph, space before a heading of a line or more).
    Across a page or to the top of the next column there is none to see."""
    if pitch is None or following.page != item.page:
        return False
    return following.top - item.bottom > pitch


# ---------------------------------------------------------------- assembling


def _place_lone_rows(pages: list[PageContent]) -> None:
    """A ruled row last on its page, before a page that opens with a table of as many columns,
    is that table's first row: it takes the place of its cells' lines, and is a header row
    when it labels the rows that follow. One first on its page, after a table, is that table's
    last row going on."""
    for page, after in zip(pages, pages[1:]):
        following = after.items[0] if after.items else None
        if not isinstance(following, Table):
            continue
        for row in page.lone_rows:
            if len(row.rows[0]) != len(following.rows[0]):
                continue
            inside = [item for item in page.items
                      if isinstance(item, Line) and row.top <= (item.top + item.bottom) / 2 <= row.bottom]
            if not inside or any(item.top > row.bottom for item in page.items if item not in inside):
                continue  # not the foot of the page: a ruled box around a line
            at = page.items.index(inside[0])
            page.items = [item for item in page.items if item not in inside]
            page.items.insert(at, row)
            row.header_rows = 1 if looks_like_header(row.rows + following.rows) else 0
    # A ruled row first on its page, after a page that ends in a table of as many columns, is the
    # rest of that table's last row, which the page break cut (Word and LibreOffice let a row
    # break across pages): a table there, which the continued table's join puts back in the row.
    for before, page in zip(pages, pages[1:]):
        previous = before.items[-1] if before.items else None
        if not isinstance(previous, Table):
            continue
        for row in page.lone_rows:
            if len(row.rows[0]) != len(previous.rows[-1]):
                continue
            inside = [item for item in page.items
                      if isinstance(item, Line) and row.top <= (item.top + item.bottom) / 2 <= row.bottom]
            if not inside or any(item.bottom < row.top for item in page.items if item not in inside):
                continue  # not the head of the page
            page.items = [row, *(item for item in page.items if item not in inside)]


def _join_split_row(table: Table, continued: Table) -> None:
    """A row a page break cut in two (Word lets a row break across pages): the continuation's
    first row has no label in its first cell where the row it goes on with has one. Where the
    first column groups the rows (a panel's name merged down it, its cells empty under the
    caption row), the label is in the next cell: a continuation then holds the rest of one cell
    the row above filled (a long name wrapped in its cell) and nothing else, as a row of its own
    never does. Its cells' text goes on in the cells above."""
    last, first = table.rows[-1], continued.rows[0]
    if len(last) != len(first) or first[0].text or not any(c.text for c in first):
        return
    if not last[0].text:
        filled = [i for i, cell in enumerate(first) if cell.text]
        if len(filled) != 1 or not last[filled[0]].text:
            return
    for above, below in zip(last, first):
        above.text = join_wrapped(above.text, below.text)
    continued.rows = continued.rows[1:]


def _mark_continued_tables(pages: list[PageContent]) -> None:
    """A table first on a page after a page ending in a table with as many columns continues it."""
    previous: Item | None = None
    header: list[str] | None = None  # header row of the table being continued
    for page in pages:
        if not page.items:
            continue
        first = page.items[0]
        # as many columns: the widest rows compared (a caption row, spanning the table, may come first)
        if (isinstance(first, Table) and isinstance(previous, Table) and first.rows and previous.rows
                and max(map(len, first.rows)) == max(map(len, previous.rows))):
            first.continued = True
            first.header_rows = 0
            if header and [c.text for c in first.rows[0]] == header:  # the header row repeated on the new page
                first.rows = first.rows[1:]
            if first.rows:  # under it, the rest of a row the page break cut
                _join_split_row(previous, first)
        for item in page.items:
            if isinstance(item, Table) and not item.continued:
                header = [c.text for c in item.rows[0]] if item.header_rows else None
        previous = page.items[-1]


def _write(pages: list[PageContent], builder: DocumentBuilder) -> None:
    columns_of = [_columns(page) for page in pages]
    edges = _column_edges(pages, columns_of)
    lefts = _left_edges(columns_of)
    pitch = _line_pitch(pages)
    items = [item for page in pages for item in page.items]
    fragments: list[Fragment] = []
    head: Line | None = None
    sides: list[int] | None = None  # the edges of the side-by-side table last written
    for index, item in enumerate(items):
        if index and not fragments and _gap_between(items[index - 1], item, pitch):
            builder.blank()
        if isinstance(item, Table):
            # two tables side by side (two lab panels in one ruled table) are read one after the
            # other, as the DOCX reader reads them; a continuation on the next page is cut where its table was
            sides = sides if item.continued else side_by_side_edges(item.rows)
            for rows in cut_groups(item.rows, sides) if sides else [item.rows]:
                builder.table(rows, page=item.page, header_rows=min(item.header_rows, len(rows)), style="continued" if item.continued else None)
            continue
        if not fragments:
            head = item
            fragments = [Fragment(item.text, item.page)]
        else:
            joined = join_wrapped(fragments[-1].text, item.text)
            fragments.append(Fragment(joined[len(fragments[-1].text) :], item.page))
        assert head is not None  # set with the first fragment
        following = items[index + 1] if index + 1 < len(items) else None
        if (isinstance(following, Line) and not _gap_between(item, following, pitch)
                and _continues(item, following, edges[id(item)], lefts[id(following)], head)):
            continue
        kind: BlockKind = "heading" if head.heading_level else "paragraph"
        builder.line(fragments, kind=kind, level=head.heading_level, style="toc" if head.toc else None)
        fragments = []


def read_pdf(data: bytes, source: str) -> Document:
    document = _open(data, source)
    try:
        pages = _extract_pages(document, source)
    finally:
        document.close()
    if not any(page.lines or page.tables for page in pages):
        raise ReadError(source, "no text layer on any page: a scanned PDF, or text drawn as glyph outlines "
                                "(as paps and some printer drivers write it); run OCR on it first")
    _remove_line_numbers(pages)
    _remove_furniture(pages)
    _remove_footnotes(pages)
    for page in pages:
        page.items = _reading_order([*page.lines, *page.tables], page.width)
    lines = [item for page in pages for item in page.items if isinstance(item, Line)]
    _mark_toc(lines)
    _mark_headings(pages)
    _place_lone_rows(pages)
    _mark_continued_tables(pages)
    builder = DocumentBuilder()
    _write(pages, builder)
    title = next((b for b in builder.blocks if b.kind == "heading"), None)
    doc = builder.build(source, metadata={"format": "pdf", "page_count": len(pages)})
    if title is not None:
        doc.title = doc.text[title.start : title.end]
    return doc


def _extract_pages(document: pdfium.PdfDocument, source: str) -> list[PageContent]:
    """Lines and tables of every page."""
    pages: list[PageContent] = []
    glyphs = unmapped = 0  # glyphs, and those with no map to Unicode (see _check_unicode_map)
    try:
        for index in range(len(document)):
            page = document[index]
            if _flatten_form_fields(page):  # pdfium shows the merged content only on a page loaded again
                page.close()
                page = document[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            view, width, height = _turned_upright(textpage, _page_view(page), width, height)
            content = PageContent(index + 1, width, height)
            chars = _page_chars(textpage, view, width, height)
            content.tables, content.lone_rows = _find_tables(page, chars, view, index + 1)
            exclude = [(t.x0, t.top, t.x1, t.bottom) for t in content.tables]
            content.lines = _text_lines(chars, index + 1, exclude)
            _set_font_sizes(content.lines, textpage)
            _mark_bold(content.lines, textpage)
            _join_ocr_words(content.lines, textpage)
            glyphs += len(chars)
            unmapped += sum(1 for char in chars if char[0] == UNKNOWN)
            textpage.close()
            page.close()
            pages.append(content)
    except pdfium.PdfiumError as exc:
        raise ReadError(source, f"corrupt PDF: {exc}") from None
    _check_unicode_map(unmapped, glyphs, source)
    return pages


def _flatten_form_fields(page: pdfium.PdfPage) -> bool:
    """Merge the page's filled-in form fields (AcroForm widgets: a contract's party names and sums,
    a form's ticked boxes) into its content, as printing does, and say whether any were: pdfium's
    text page reads the content only, and a field's value is in its widget's appearance. The
    page's other annotations (sticky notes, reviewers' typed comments, stamps, links) are no
    text of the document and are removed first, so that flattening leaves them out; the file
    is not changed, only the page as loaded."""
    raw = page.raw
    count = pdfium_c.FPDFPage_GetAnnotCount(raw)
    if count <= 0:
        return False
    subtypes = []
    for i in range(count):
        annot = pdfium_c.FPDFPage_GetAnnot(raw, i)
        subtypes.append(pdfium_c.FPDFAnnot_GetSubtype(annot))
        pdfium_c.FPDFPage_CloseAnnot(annot)
    if pdfium_c.FPDF_ANNOT_WIDGET not in subtypes:
        return False
    for i in reversed(range(count)):
        if subtypes[i] != pdfium_c.FPDF_ANNOT_WIDGET:
            pdfium_c.FPDFPage_RemoveAnnot(raw, i)
    return pdfium_c.FPDFPage_Flatten(raw, pdfium_c.FLAT_PRINT) == pdfium_c.FLATTEN_SUCCESS


def _check_unicode_map(unmapped: int, glyphs: int, source: str) -> None:
    """Refuse a PDF most of whose glyphs have no map from their fonts' char codes to Unicode, and
    warn of one where some have none. A font re-encoded without a ToUnicode map (a PDF printed to
    PostScript and distilled again: ghostscript's ps2write, pdf2ps) names its glyphs by number
    only; what pdfium reads from it is its char codes as Latin letters and marks, which no
    step after can tell from text, and whose chunks would be nonsense indexed as text. A whole
    text so is no text (OCR or the source file is the remedy, as for a scan); a few such glyphs
    (a symbol font, digits a producer left out of its map) are read as U+FFFD, with a warning."""
    if not unmapped:
        return
    if unmapped > UNMAPPED_SHARE * glyphs:
        raise ReadError(source, f"{unmapped} of {glyphs} glyphs have no Unicode map (fonts re-encoded without "
                                "ToUnicode, as re-distilling writes them): the text cannot be read; use the original "
                                "PDF or run OCR on it")
    warnings.warn(f"{source}: {unmapped} of {glyphs} glyphs have no Unicode map: read as U+FFFD",
                  DomainChunkWarning, stacklevel=4)
