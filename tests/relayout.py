"""Re-layouts: the ways extraction and re-saving damage a document's layout, as pure functions.

Each text variant maps a document's text to the same document laid out
differently; gold files stay valid because the scorer ignores whitespace and
allows unpunctuated heading text (page furniture, a running title) before an
anchor. Furniture goes only at *safe* line boundaries (after a line that ends a
sentence and is longer than an anchor, or after a Markdown heading), so it never
lands inside a unit's anchor, which is the unit's first characters and may run
over a line break.

The renderings (``RENDERINGS``) turn a text into the bytes of another format:
printed to PDF (plainly, or as Word, WPS and court systems print: justified,
indented, bold headings of the body's size, ruled tables, running header and
``第 X 页 共 Y 页`` footer), saved to DOCX with or without heading styles, with
tab-separated rows as Word tables.
"""
from __future__ import annotations

import io
import itertools
import re
from datetime import datetime
from typing import Callable

PAGE_LINES = 40  # lines per simulated page
WRAP = 36  # hard-wrap width of PDF text lines
NARROW_WRAP = 30  # the narrow end of the widths (30-40) PDF text comes in
ANCHOR_CHARS = 16  # gold anchors are a unit's first 16 characters, whitespace left out
# Running header used when the document's first line is a structure label (a record
# type, a field) whose repetition would really change the document's structure.
FALLBACK_RUNNING_TITLE = "示范市人民政府公报　2024年第3期"

_MARKDOWN_HEADING = re.compile(r"^(#{1,6})[ \t]*(.*)$")
_INLINE_SPACE = re.compile(r"[^\S\r\n]+")  # spaces, tabs, U+3000, NBSP …, not line breaks
_SENTENCE_END = re.compile(r"[。！？；!?;]\s*$")


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").split("\n")


def no_spaces(text: str) -> str:
    """Every space, tab, ideographic space and NBSP removed (text extraction that drops them)."""
    return _INLINE_SPACE.sub("", text)


def wrapped(text: str, width: int = WRAP) -> str:
    """Every line longer than ``width`` characters cut into ``width``-character lines (PDF-style hard wrap)."""
    out = []
    for line in _lines(text):
        if len(line) > width:
            out.extend(line[i : i + width] for i in range(0, len(line), width))
        else:
            out.append(line)
    return "\n".join(out)


def narrow_wrapped(text: str) -> str:
    """Hard-wrapped at NARROW_WRAP: a cut every 30 characters falls inside more labels and fields."""
    return wrapped(text, NARROW_WRAP)


def no_spaces_wrapped(text: str) -> str:
    """Spaces lost and lines hard-wrapped at once, as one extraction does both: with no gap
    left between a value and the next field, a cut line gives no sign of where fields begin."""
    return wrapped(no_spaces(text))


def crlf(text: str) -> str:
    return "\r\n".join(_lines(text))


def fullwidth_indent(text: str) -> str:
    """Two ideographic spaces before every non-blank line, as Chinese word processors indent.

    Markdown heading lines stay unindented: an indented ``#`` is no heading to any
    Markdown reader, so indenting it would remove structure, not re-lay it."""
    return "\n".join(
        line if not line.strip() or line.startswith("#") else "\u3000\u3000" + line for line in _lines(text)
    )


def no_markdown(text: str) -> str:
    """Markdown heading marks removed: ``## 第一章 总则`` becomes ``第一章 总则``."""
    return "\n".join(_MARKDOWN_HEADING.sub(r"\2", line) for line in _lines(text))


def _safe_boundaries(lines: list[str]) -> list[int]:
    """Indexes ``i`` where furniture may go between ``lines[i]`` and ``lines[i + 1]``, about
    every PAGE_LINES lines: the first boundary at or after each page end where ``lines[i]``
    ends a sentence and is long enough to hold a whole anchor, so no anchor runs over it
    (after a short ``第二条 房屋用途。`` the anchor goes on into the next line), or is a
    Markdown heading, which belongs to no anchor: furniture then falls between a heading
    and its first article, as a page break after a chapter title puts it."""
    picked, due = [], PAGE_LINES - 1
    for i in range(len(lines) - 1):
        line = lines[i]
        ends_sentence = _SENTENCE_END.search(line) and len(_INLINE_SPACE.sub("", line)) >= ANCHOR_CHARS
        safe = ends_sentence or _MARKDOWN_HEADING.match(line)
        if i >= due and safe and lines[i + 1].strip():
            picked.append(i)
            due = i + PAGE_LINES
    return picked


def running_title(text: str) -> str:
    """The line a printer repeats at every page top: the document's first line, if it names the
    document rather than a structure label (short, bracketed or a ``field：``)."""
    first = next((line for line in _lines(text) if line.strip()), "")
    first = _MARKDOWN_HEADING.sub(r"\2", first).strip()
    if len(first) < 5 or len(first) > 40 or re.search(r"[:：【】\[\]]", first):
        return FALLBACK_RUNNING_TITLE
    return first


def _page_number(page: int, pages: int) -> str:
    styles = (f"— {page} —", f"- {page} -", f"第{page}页 共{pages}页")
    return styles[page % len(styles)]


def page_furniture(text: str) -> str:
    """A page-number line (``— 12 —``, ``- 3 -``, ``第3页 共10页`` in turn) and the running title
    inserted about every PAGE_LINES lines, as a PDF's footer and the next page's header."""
    lines = _lines(text)
    cuts = set(_safe_boundaries(lines))
    title, pages = running_title(text), len(cuts) + 1
    out, page = [], 1
    for i, line in enumerate(lines):
        out.append(line)
        if i in cuts:
            out += [_page_number(page, pages), title]
            page += 1
    return "\n".join(out)


def glued_page_numbers(text: str) -> str:
    """Page numbers glued to the text by extraction, about every PAGE_LINES lines: to the end of
    a page's last line (``…应当遵守。7``) and to the start of the next page's first line
    (``12第二十五条…``), in turn."""
    lines = _lines(text)
    for page, i in enumerate(_safe_boundaries(lines), start=1):
        if page % 2:
            lines[i] = lines[i].rstrip() + str(page)
        else:
            lines[i + 1] = str(page) + lines[i + 1].lstrip()
    return "\n".join(lines)


def double_blank(text: str) -> str:
    """A blank line between every two lines, as web copies and some converters write a text
    (every line its own ``<p>``, read back with a blank line after each)."""
    return "\n\n".join(_lines(text))


def no_blank_lines(text: str) -> str:
    """Every blank line removed, as an extraction that keeps no paragraph gaps."""
    return "\n".join(line for line in _lines(text) if line.strip())


# Full-width forms U+FF01..U+FF5E are ASCII 0x21..0x7E shifted by this much.
_FULLWIDTH_SHIFT = 0xFEE0
_TO_HALFWIDTH = {cp: cp - _FULLWIDTH_SHIFT for cp in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_TO_FULLWIDTH = {cp: cp + _FULLWIDTH_SHIFT for cp in range(0x21, 0x7F)}


def half_width(text: str) -> str:
    """Full-width punctuation, digits and letters to ASCII (：（）；，１Ａ → :();,1A) and the
    ideographic space to a space, as a 全角转半角 pass or an English-locale converter does."""
    return text.translate(_TO_HALFWIDTH)


def full_width_chars(text: str) -> str:
    """The reverse: ASCII punctuation, digits and letters to full-width (1.2 → １．２), as a
    Chinese input method or a 半角转全角 pass writes them. A Markdown heading's marks stay: they
    are markup, not text."""
    out = []
    for line in _lines(text):
        heading = _MARKDOWN_HEADING.match(line)
        if heading:
            marks = line[: len(line) - len(line.lstrip("#"))]
            out.append(marks + line[len(marks):].translate(_TO_FULLWIDTH))
        else:
            out.append(line.translate(_TO_FULLWIDTH))
    return "\n".join(out)


_SPACE_RUN = re.compile(r"[ \u3000]{2,}")


def tab_runs(text: str) -> str:
    """Every run of two or more spaces (ASCII or ideographic) written as one tab, as a converter
    that turns layout spacing into tab stops does."""
    return _SPACE_RUN.sub("\t", text)


# A heading line: short, no sentence or clause punctuation (第一章 总则, 审判长 某某, 诊断).
HEADING_MAX = 20
_CLAUSE_MARK = re.compile(r"[，,。；;！？!?、：:（）()《》“”\"]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# A field label at a line start (诊断：, 主诉:): letter-spaced as a form prints it.
_LINE_LABEL = re.compile(r"^([ \t\u3000]*)([\u4e00-\u9fff]{2,4})(?=[:：])")


_CJK_PAIR = re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])")


def _letter_spaced(s: str) -> str:
    """A space between every two adjacent CJK characters (digits, brackets and gaps as written)."""
    return _CJK_PAIR.sub(" ", s)


def spaced_headings(text: str) -> str:
    """Headings and line-start labels letter-spaced (第 一 章 总 则, 审 判 长 某 某, 诊 断：), as a
    word processor's distributed alignment or a typist's spaces print them and extraction reads
    them. A table row (tabs, runs of spaces between cells) is no heading and stays as written."""
    out = []
    for line in _lines(text):
        heading = _MARKDOWN_HEADING.match(line)
        marks = line[: len(line) - len(line.lstrip("#"))] if heading else ""
        body = line[len(marks):]
        if "\t" in body or _SPACE_RUN.search(body.strip()):
            out.append(line)
        elif (len(_INLINE_SPACE.sub("", body)) <= HEADING_MAX and not _CLAUSE_MARK.search(body)
                and _CJK.search(body)):
            out.append(marks + _letter_spaced(body))
        else:
            out.append(marks + _LINE_LABEL.sub(lambda m: m.group(1) + _letter_spaced(m.group(2)), body))
    return "\n".join(out)


# A structural heading (第一编 / 第一章 / 第一节 and its title) that converters set in bold.
_PART_HEADING = re.compile(r"^[ \t\u3000]*第[一二三四五六七八九十百零〇0-9]+[编章节](?:[ \t\u3000]|$)")
_LIST_ITEM = re.compile(r"^[ \t\u3000]*(?:[（(][一二三四五六七八九十0-9]+[)）]|[0-9]+[.．、](?![0-9])|[\u2460-\u2473])")


_DIGIT = re.compile(r"[0-9]")


def _pipe_row(line: str) -> str:
    return "| " + " | ".join(cell.strip() for cell in line.split("\t")) + " |"


def _piped_rows(lines: list[str]) -> dict[int, bool]:
    """Line index -> whether it is a header row, for the tab-separated rows a converter writes
    as a pipe table: a run of rows is one table, and a row with no digit after its first row
    (the next panel's header) opens another. A table is piped only where no anchor runs into
    it or across its cells: it opens with a column header row right under a line that holds no
    tabs and is a whole anchor long (a unit opening on a table row after another table's rows
    stays as written)."""
    piped: dict[int, bool] = {}
    i = 0
    while i < len(lines):
        if "\t" not in lines[i] or not lines[i].strip():
            i += 1
            continue
        j = i + 1
        while j < len(lines) and "\t" in lines[j] and lines[j].strip() and _DIGIT.search(lines[j]):
            j += 1
        before = next((b for b in reversed(lines[:i]) if b.strip()), "")
        # a first row of fields (甲方（盖章）：…) or the document's first line may open a unit
        # (a signature block, a report's title): only a column header row opens a piped table
        header = not _DIGIT.search(lines[i]) and not re.search(r"[:：]", lines[i])
        # a header row set apart by a blank line may open a unit itself (a 病案首页 section named
        # in its first cell), and an anchor from it would run across the pipes
        set_apart = i > 0 and not lines[i - 1].strip()
        if header and not set_apart and "\t" not in before and len(_INLINE_SPACE.sub("", before)) >= ANCHOR_CHARS:
            piped.update({k: k == i and not _DIGIT.search(lines[i]) for k in range(i, j)})
        i = j
    return piped


def markdown_emphasis(text: str) -> str:
    """Markdown as a PDF-to-Markdown converter (MinerU, marker) writes it: part, chapter and
    section headings in **bold**, numbered items as ``- `` list items, tab-separated rows as a
    ``| a | b |`` pipe table (a ``| --- |`` rule under its header row), and a ``<br>`` where a
    long sentence's line breaks inside a paragraph. Marks go only where no gold anchor can
    straddle them: a chapter heading opens no unit of its own, a ``- `` or a table's pipes are
    unpunctuated text the scorer lets stand before an anchor, and a ``<br>`` follows a line
    long enough to hold every anchor that runs into it."""
    lines = _lines(text)
    piped = _piped_rows(lines)
    out = []
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        # a mark at a line start is safe when no anchor runs into the line: the last non-blank
        # line before it (an anchor runs over blank lines) is long enough to hold a whole anchor
        before = next((b for b in reversed(lines[:i]) if b.strip()), "")
        open_start = not before or len(_INLINE_SPACE.sub("", before)) >= ANCHOR_CHARS
        heading = _MARKDOWN_HEADING.match(line)
        if i in piped:
            out.append(_pipe_row(line))
            if piped[i]:
                out.append("| " + " | ".join("---" for _ in line.split("\t")) + " |")
        elif "\t" in line:
            out.append(line)
        elif heading and _PART_HEADING.match(heading.group(2)):
            out.append(line[: heading.start(2)] + "**" + heading.group(2).strip() + "**")
        elif not heading and _PART_HEADING.match(line) and len(line.strip()) <= HEADING_MAX \
                and not _CLAUSE_MARK.search(line):
            out.append("**" + line.strip() + "**")
        elif _LIST_ITEM.match(line) and open_start:
            out.append("- " + line.lstrip())
        elif (following.strip() and len(_INLINE_SPACE.sub("", line)) >= ANCHOR_CHARS and _SENTENCE_END.search(line)
              and not _MARKDOWN_HEADING.match(following)):
            out.append(line + "<br>")
        else:
            out.append(line)
    return "\n".join(out)


_NUMBERED_ITEM = re.compile(r"^[ \t\u3000]*(?:第[一二三四五六七八九十百千零〇0-9]+条|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十]+[)）])")


def one_line_paragraphs(text: str) -> str:
    """Each paragraph on one line, its hard wraps re-joined, and numbered items glued onto the
    paragraph before them (…制定本法。第二条 本法适用于…), as web copies of statutes run
    articles together. Markdown headings and blank-line-separated unnumbered paragraphs keep
    their own lines."""
    blocks: list[str] = []
    for block in re.split(r"\n[ \t\u3000]*\n", text.replace("\r\n", "\n")):
        block = block.strip("\n")
        if not block.strip():
            continue
        parts = block.split("\n")
        # a Markdown heading stays a line of its own, and so do the lines of a table
        if any(_MARKDOWN_HEADING.match(part) or "\t" in part for part in parts):
            blocks.append(block)
            continue
        joined = parts[0] + "".join(part.strip() for part in parts[1:])
        previous = blocks[-1] if blocks else ""
        last = previous.split("\n")[-1]
        if (_NUMBERED_ITEM.match(joined) and previous and not _MARKDOWN_HEADING.match(last)
                and "\t" not in last and _SENTENCE_END.search(last)):
            blocks[-1] = previous + joined.strip()
        else:
            blocks.append(joined)
    return "\n\n".join(blocks) + "\n"


# Characters web pages and editors leave in a text: a no-break space for a space, zero-width
# spaces between characters, a byte-order mark where files were concatenated.
NBSP_EVERY = 7  # a zero-width space after every 7th CJK character of a line
BOM_EVERY = 25  # a BOM opening every 25th line


def invisible_chars(text: str) -> str:
    """Spaces as NBSP, zero-width spaces scattered between CJK characters, BOMs at line starts,
    as text copied from a web page carries them."""
    out = []
    for n, line in enumerate(_lines(text)):
        line = line.replace(" ", "\u00a0")
        pieces, cjk = [], 0
        for char in line:
            pieces.append(char)
            if _CJK.match(char):
                cjk += 1
                if cjk % NBSP_EVERY == 0:
                    pieces.append("\u200b")
        line = "".join(pieces)
        out.append(("\ufeff" + line) if n % BOM_EVERY == 0 else line)
    return "\n".join(out)


# Full-width punctuation a PDF extractor (pdftotext, pdfminer) may follow with a space: the glyph
# leaves half its cell blank, and a gap that wide reads as one.
_SPACED_PUNCT = re.compile(r"([，。；：、（）《》“”！？])(?=[^\s])")
# A run of digits and Latin letters (with the ASCII marks inside it: 3.5-5.5, 10^9/L) set in the
# Latin font among CJK text: the change of font leaves a gap on each side.
_LATIN_RUN = re.compile(r"[0-9A-Za-z](?:[0-9A-Za-z.,:/%^+\-]*[0-9A-Za-z%])?")


def _gapped(m: re.Match, line: str) -> str:
    """The Latin run ``m`` with a space on each side where a CJK character or mark (set in the other
    font) touches it: 1. keeps its point, 第1条 becomes 第 1 条."""
    before = " " if m.start() and line[m.start() - 1] >= "\u2e80" else ""
    after = " " if m.end() < len(line) and line[m.end()] >= "\u2e80" else ""
    return before + m.group() + after


def punct_spaces(text: str) -> str:
    """A space after every full-width punctuation mark and on both sides of every run of digits
    and Latin letters (第 1 条, 2024 年 3 月, 钾 3.5 mmol/L), as some PDF extractors write CJK text:
    a full-width mark's glyph leaves half its cell blank, and digits and letters are set in
    another font with a gap around them. A Markdown heading's marks and a line's end stay."""
    out = []
    for line in _lines(text):
        heading = _MARKDOWN_HEADING.match(line)
        marks = line[: len(line) - len(line.lstrip("#"))] if heading else ""
        body = _SPACED_PUNCT.sub(r"\1 ", line[len(marks):])
        body = _LATIN_RUN.sub(lambda m: _gapped(m, body), body)
        out.append(marks + body)
    return "\n".join(out)


def double_blank_wrapped(text: str) -> str:
    """Hard-wrapped, then every printed line its own paragraph read back with a blank line after
    it, as a PDF-to-HTML converter writes a page: a blank line falls inside every paragraph."""
    return double_blank(wrapped(text))


def punct_spaces_wrapped(text: str) -> str:
    """Hard-wrapped, then the extractor's spaces after full-width marks and around digit runs:
    the text of a printed PDF as a CJK-unaware extractor gives it, cut where the page cut it."""
    return punct_spaces(wrapped(text))


def flat_headings(text: str) -> str:
    """Every Markdown heading at one depth (``#``), as a PDF-to-Markdown converter that cannot
    tell heading sizes apart writes them: the depth no longer nests 章 under 编."""
    return "\n".join(_MARKDOWN_HEADING.sub(lambda m: "# " + m.group(2), line) for line in _lines(text))


def form_feeds(text: str) -> str:
    """Hard-wrapped, with a form feed opening the first line of every PAGE_LINES-line page and one
    after the last, as poppler's pdftotext (every mode) and pdfminer mark a page break: the break
    falls wherever the page ends, inside a paragraph as often as between two (a form feed is white
    space to the scorer, so no anchor is lost)."""
    lines = _lines(wrapped(text))
    return "\n".join(("\f" + line) if n and n % PAGE_LINES == 0 else line for n, line in enumerate(lines)) + "\n\f"


JUSTIFY_EVERY = 4  # of the cut lines without digits or Latin letters, every fourth is spread
_SPREAD_PIECE = re.compile(r"[!-~]+|\S")  # a run of ASCII stays whole: it is set tight in its own font
_HALF_WIDTH_CHAR = re.compile(r"[0-9A-Za-z]")


def justified_spaces(text: str) -> str:
    """Hard-wrapped, and some cut lines written with a space between every two characters, as
    pdfminer, pypdf and pdftotext -raw read a line the justification spread (截 至 本 裁 定 …): its
    glyphs stand apart by more than the extractor's word gap. A run of digits or Latin letters stays
    whole. Justification spreads a line most when it holds half-width characters (it holds fewer
    characters), so every cut line that holds one is spread, and every JUSTIFY_EVERY-th other one.
    A paragraph's last line is not justified, so a line shorter than the width stays, and neither
    is a line with gaps of its own (fields side by side, a table row, a heading): it is no run of
    prose."""
    out, plain = [], 0  # plain: the cut lines without half-width characters so far
    for line in _lines(wrapped(text)):
        if len(line) == WRAP and not line.startswith("#") and not _INLINE_SPACE.search(line):
            half_width = bool(_HALF_WIDTH_CHAR.search(line))
            if half_width or plain % JUSTIFY_EVERY == 0:
                line = " ".join(_SPREAD_PIECE.findall(line))
            plain += not half_width
        out.append(line)
    return "\n".join(out)


# The gap pdftotext's default mode cuts a printed line at: an ideographic space or two spaces and more.
_WIDE_GAP = re.compile(r"\u3000+| {2,}")


def pdftotext_blocks(text: str) -> str:
    """Every line with a wide gap in it (after its indentation) written as the blocks the gap sets
    apart, each with a blank line after it, as poppler's pdftotext in its default mode (neither
    -layout nor -raw) reads a printed line: ``第一章　总　则`` comes out as ``第一章`` / ``总`` / ``则``,
    ``第一条　为了…`` as ``第一条`` / ``为了…``, ``姓名：某甲　　性别：男`` as its two fields. Table rows (tabs)
    and Markdown headings stay: a table is ruled cells, not gaps, and a heading's marks are no print."""
    out: list[str] = []
    blank_due = False  # the last line was cut into blocks: a blank line follows it
    for line in _lines(text):
        if blank_due and line.strip():
            out.append("")
        body = line.lstrip(" \t\u3000")
        blocks = [b for b in _WIDE_GAP.split(body) if b]
        blank_due = not ("\t" in line or line.startswith("#") or len(blocks) < 2)
        out.append("\n\n".join(blocks) if blank_due else line)
    return "\n".join(out)


# ---------------------------------------------------------------- habits combined
# One extraction shows several habits at once; each transform runs on the output of the one before,
# in the order the damage happens (printed, then extracted, then saved).


def furniture_no_spaces_crlf(text: str) -> str:
    """Printed with page numbers and a running title, extracted by a tool that drops every space
    (the furniture's own too: ``第3页共10页``), and saved on Windows with CRLF line ends."""
    return crlf(no_spaces(page_furniture(text)))


def no_markdown_form_feeds(text: str) -> str:
    """A Markdown file's marks removed, then printed and read back by pdftotext or pdfminer:
    hard-wrapped, a form feed opening every page (:func:`form_feeds`)."""
    return form_feeds(no_markdown(text))


COURT_WRAP = 34  # a court print's line, in characters (the known form: a judgment PDF cut at 34)


def _first_line_indents(text: str) -> str:
    """Two ideographic spaces before every paragraph's first line, as a court's or an office's word
    processor indents a paragraph (首行缩进): a line of prose (longer than a heading, or with a clause
    mark); a heading, a table row, a line of fields set apart by runs of spaces and a Markdown heading stay."""
    out = []
    for line in _lines(text):
        body = line.strip()
        if (body and not _MARKDOWN_HEADING.match(line) and "\t" not in line and not _SPACE_RUN.search(body)
                and (len(body) > HEADING_MAX or _CLAUSE_MARK.search(body))):
            line = "\u3000\u3000" + line.lstrip(" \t\u3000")
        out.append(line)
    return "\n".join(out)


def indented_print_no_spaces(text: str) -> str:
    """A court's print read back by pdftotext -raw or pdfminer: every paragraph's first line indented
    two characters, lines cut at COURT_WRAP (the indent counts), a page number and the running title
    between pages, and every space lost, the indent's too, so each first line is two short of the width.
    (The furniture goes in before the cut, at boundaries between paragraphs: between two cut lines it
    could fall inside a gold anchor.)"""
    return no_spaces(wrapped(page_furniture(_first_line_indents(text)), COURT_WRAP))


# name -> (transform, the file suffixes it applies to). CSV is a data format, not a layout.
_TEXT = (".txt", ".md")
TEXT_VARIANTS: dict[str, tuple[Callable[[str], str], tuple[str, ...]]] = {
    "nospace": (no_spaces, _TEXT),
    "wrap36": (wrapped, _TEXT),
    "wrap30": (narrow_wrapped, _TEXT),
    "nospace_wrap36": (no_spaces_wrapped, _TEXT),
    "pagenum": (page_furniture, _TEXT),
    "glued": (glued_page_numbers, _TEXT),
    "crlf": (crlf, (*_TEXT, ".csv")),
    "fullwidth": (fullwidth_indent, _TEXT),
    "nomd": (no_markdown, (".md",)),
    "dblank": (double_blank, _TEXT),
    "noblank": (no_blank_lines, _TEXT),
    "halfwidth": (half_width, _TEXT),
    "fullwidth_chars": (full_width_chars, _TEXT),
    "tabs": (tab_runs, _TEXT),
    "spaced_heads": (spaced_headings, _TEXT),
    "md_emph": (markdown_emphasis, _TEXT),
    "oneline_paras": (one_line_paragraphs, _TEXT),
    "nbsp": (invisible_chars, _TEXT),
    "punct_spaces": (punct_spaces, _TEXT),
    "md_flat_heads": (flat_headings, (".md",)),
    "dblank_wrap36": (double_blank_wrapped, _TEXT),
    "punct_wrap36": (punct_spaces_wrapped, _TEXT),
    "formfeed_wrap36": (form_feeds, _TEXT),
    "justified_wrap36": (justified_spaces, _TEXT),
    "pdftotext_blocks": (pdftotext_blocks, _TEXT),
    "pagenum_nospace_crlf": (furniture_no_spaces_crlf, _TEXT),
    "nomd_formfeed_wrap36": (no_markdown_form_feeds, (".md",)),
    "indented_print_nospace": (indented_print_no_spaces, _TEXT),
}


def relaid_name(name: str, variant: str) -> str:
    """The file name a re-laid document is read under: without its marks Markdown is plain text,
    and a converter's Markdown is a ``.md`` file whatever the document was."""
    if variant in ("nomd", "nomd_formfeed_wrap36"):
        return re.sub(r"\.md$", ".txt", name)
    if variant == "md_emph":
        return re.sub(r"\.txt$", ".md", name)
    return name


# ---------------------------------------------------------------- renderings


def _blocks(text: str) -> list[tuple[str, object]]:
    """The text as ("heading", (level, text)), ("table", rows), ("para", line) and ("blank", None)
    blocks; a run of consecutive tab-separated lines is one table, a run of blank lines one blank."""
    blocks: list[tuple[str, object]] = []
    for line in _lines(text):
        if not line.strip():
            if blocks and blocks[-1][0] != "blank":
                blocks.append(("blank", None))
            continue
        heading = _MARKDOWN_HEADING.match(line)
        if heading:
            blocks.append(("heading", (len(heading.group(1)), heading.group(2).strip())))
        elif "\t" in line:
            if blocks and blocks[-1][0] == "table":
                blocks[-1][1].append(line.split("\t"))
            else:
                blocks.append(("table", [line.split("\t")]))
        else:
            blocks.append(("para", line))
    return blocks


def to_docx(text: str, heading_styles: bool = True, tables: bool = False) -> bytes:
    """Saved to DOCX from Word: Markdown headings as Heading N paragraphs (or, without heading
    styles, as plain paragraphs of their text); tab-separated rows as one Word table per run
    (or, without tables, as paragraphs keeping their tabs); blank lines as one empty paragraph,
    as a typist presses Enter twice."""
    import docx

    document = docx.Document()
    for kind, value in _blocks(text):
        if kind == "heading":
            level, heading = value
            if heading_styles:
                document.add_heading(heading, level=level)
            else:
                document.add_paragraph(heading)
        elif kind == "table" and tables:
            width = max(map(len, value))
            table = document.add_table(rows=0, cols=width)
            for row in value:  # add_row().cells, not table.cell(r, c), which re-reads the grid each call
                for target, cell in zip(table.add_row().cells, row):
                    target.text = cell
        elif kind == "table":
            for row in value:
                document.add_paragraph("\t".join(row))
        elif kind == "blank":
            document.add_paragraph()
        else:
            document.add_paragraph(value)
    buffer = io.BytesIO()
    document.core_properties.created = datetime(2024, 1, 1)  # same bytes on every run
    document.save(buffer)
    return buffer.getvalue()


def to_docx_lines(text: str) -> bytes:
    """Saved to DOCX by a PDF-to-Word converter: every printed line its own paragraph (a
    paragraph broken where the PDF's lines broke, at _PDF_CHARS_PER_LINE), headings as plain
    paragraphs of their text, tab-separated rows as paragraphs with their tabs, and no empty
    paragraph for a blank line: the page showed none."""
    import docx

    document = docx.Document()
    for kind, value in _blocks(text):
        if kind == "heading":
            document.add_paragraph(value[1])
        elif kind == "table":
            for row in value:
                document.add_paragraph("\t".join(row))
        elif kind == "para":
            for printed in _printed_lines(value):
                document.add_paragraph(printed)
    buffer = io.BytesIO()
    document.core_properties.created = datetime(2024, 1, 1)  # same bytes on every run
    document.save(buffer)
    return buffer.getvalue()


_PDF_FONT = "STSong-Light"
_PDF_CHARS_PER_LINE = 38  # A4 at 11 pt between 2.2 cm margins, full-width characters


def _printed_lines(line: str) -> list[str]:
    """A paragraph broken into printed lines of at most _PDF_CHARS_PER_LINE full-width cells
    (ASCII counts half), the way a word processor flows it."""
    out, current, width = [], "", 0.0
    for char in line:
        cell = 0.5 if ord(char) < 128 else 1.0
        if width + cell > _PDF_CHARS_PER_LINE:
            out.append(current)
            current, width = "", 0.0
        current += char
        width += cell
    return out + [current]


def to_pdf(text: str) -> bytes:
    """Printed to PDF: A4, STSong-Light, paragraphs flowed into lines, headings in a larger
    size, tab-separated cells spaced out on a line, ``- N -`` page numbers in the footer."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(_PDF_FONT))
    buffer = io.BytesIO()
    width, height = 595, 842
    pdf = canvas.Canvas(buffer, pagesize=(width, height), invariant=1)
    top, bottom, left = height - 62, 70, 62
    y, page = top, 1

    def new_page():
        nonlocal y, page
        pdf.setFont(_PDF_FONT, 9)
        pdf.drawCentredString(width / 2, 40, f"- {page} -")
        pdf.showPage()
        y, page = top, page + 1

    def draw(line: str, size: float, x: float = left):
        nonlocal y
        if y < bottom:
            new_page()
        pdf.setFont(_PDF_FONT, size)
        pdf.drawString(x, y, line)

    for kind, value in _blocks(text):
        if kind == "blank":  # the printed page shows no gap a text extraction keeps
            continue
        if kind == "heading":
            draw(value[1], 14, left + 40)
            y -= 24
        elif kind == "table":  # a printed table: cells spaced out on one line
            for row in value:
                for printed in _printed_lines("    ".join(row)):
                    draw(printed, 10)
                    y -= 16
        else:
            for printed in _printed_lines(value):
                draw(printed, 11)
                y -= 17
    new_page()
    pdf.save()
    return buffer.getvalue()


# ---------------------------------------------------------------- a word processor's PDF

# A4 as Word and WPS lay it out by default: 3.17 cm side margins, 2.54 cm top and bottom,
# body in 小四 (12 pt) with single spacing, a header and a footer in 小五 (9 pt).
_WORD_PAGE = (595.0, 842.0)
_WORD_MARGINS = (90.0, 72.0)  # side, top and bottom
_WORD_BODY = 12.0
_WORD_PITCH = 20.0  # single spacing of a CJK font: about 1.6 times its size
_WORD_TABLE = 10.5  # 五号, the size tables are set in
_WORD_FURNITURE = 9.0
_WORD_INDENT = 2  # first-line indent, in characters
# Heading styles: (size, centred). The title is larger; chapters are body-size and centred;
# sections body-size at the margin; deeper headings smaller than the body, all bold.
_WORD_HEADINGS = {1: (18.0, True), 2: (_WORD_BODY, True), 3: (_WORD_BODY, False)}
_WORD_DEEP_HEADING = (_WORD_TABLE, False)
_WORD_HEADING_SPACE = 6.0  # space before and after a heading paragraph
# 避头尾: punctuation a line may not start with; the character before it goes down with it.
_NO_LINE_START = set("，。、；：？！）》」』”’%,.;:?!)]}·…—")
_LATIN_WORD = re.compile(r"[!-~]+|.", re.S)  # an ASCII run (a word, a number) is never split
_NUMBER_CELL = re.compile(r"^[<>≤≥＜＞]?[-+]?\d[\d.,:/\-^*]*\s*[↑↓HL]?$")
_CELL_PAD = 4.0
# Rows of one length and at most this many cells are a Word table; wider or ragged ones were
# typed as paragraphs with tabs (a table of twenty columns does not fit a portrait page).
_WORD_TABLE_COLUMNS = 8


def _width(text: str, size: float) -> float:
    from reportlab.pdfbase import pdfmetrics

    return pdfmetrics.stringWidth(text, _PDF_FONT, size)


def _justified_lines(text: str, size: float, first_width: float, width: float) -> list[str]:
    """A paragraph broken the way Word breaks it: at any CJK character, never inside an ASCII
    word or number that fits on a line, and never before closing punctuation (its character
    goes down with it)."""
    tokens = [piece for token in _LATIN_WORD.findall(text)
              for piece in (list(token) if _width(token, size) > width else [token])]
    lines: list[str] = []
    current: list[str] = []
    for token in tokens:
        limit = first_width if not lines else width
        if current and _width("".join(current) + token, size) > limit and not token.isspace():
            carried = []
            if token[0] in _NO_LINE_START and len(current) > 1 and _width(current[-1] + token, size) <= width:
                carried = [current.pop()]
            lines.append("".join(current).rstrip())
            current = carried
        if token.isspace() and not current:
            continue
        current.append(token)
    if current:
        lines.append("".join(current).rstrip())
    return lines


class _WordLayout:
    """Page by page, what a word processor prints: ops, drawn once the page count is known."""

    def __init__(self) -> None:
        self.width, self.height = _WORD_PAGE
        self.side, self.margin = _WORD_MARGINS
        self.text_width = self.width - 2 * self.side
        self.pages: list[list[tuple]] = [[]]
        self.y = self.height - self.margin

    def room(self, needed: float) -> None:
        if self.y - needed < self.margin:
            self.pages.append([])
            self.y = self.height - self.margin

    def text(self, x: float, line: str, size: float, bold: bool = False, spacing: float = 0.0) -> None:
        self.pages[-1].append(("text", x, self.y - size, line, size, bold, spacing))

    def paragraph(self, text: str, size: float, indent: float, justify: bool, bold: bool = False,
                  centred: bool = False) -> None:
        lines = _justified_lines(text, size, self.text_width - indent, self.text_width)
        for i, line in enumerate(lines):
            self.room(_WORD_PITCH)
            x = self.side + (indent if i == 0 else 0.0)
            avail = self.text_width - (x - self.side)
            natural = _width(line, size)
            spacing = 0.0
            if centred:
                x += max(0.0, (avail - natural) / 2)
            elif justify and i < len(lines) - 1 and len(line) > 1:
                spacing = (avail - natural) / (len(line) - 1)  # justified: the slack between characters
            self.text(x, line, size, bold, spacing)
            self.y -= _WORD_PITCH

    def tabbed(self, cells: list[str]) -> None:
        """A paragraph of tab-separated cells: each tab moves on to Word's next default tab stop
        (every two characters), and the text wraps at the margin, cells and all."""
        stop = _WORD_INDENT * _WORD_BODY
        runs: list[tuple[float, str]] = []  # (x, text) of one printed line
        x = 0.0
        for i, cell in enumerate(cells):
            if i:
                x = (x // stop + 1) * stop
                if x >= self.text_width:
                    self._print_runs(runs)
                    runs, x = [], 0.0
                runs.append((x, ""))
            for char in cell:
                w = _width(char, _WORD_BODY)
                if x + w > self.text_width:
                    self._print_runs(runs)
                    runs, x = [(0.0, "")], 0.0
                if not runs:
                    runs.append((x, ""))
                runs[-1] = (runs[-1][0], runs[-1][1] + char)
                x += w
        self._print_runs(runs)

    def _print_runs(self, runs: list[tuple[float, str]]) -> None:
        self.room(_WORD_PITCH)
        for x, run in runs:
            if run.strip():
                self.text(self.side + x, run, _WORD_BODY)
        self.y -= _WORD_PITCH

    def table(self, rows: list[list[str]]) -> None:
        """A Word table: every cell ruled, numbers right-aligned, the label row bold; a row
        taller than what is left of the page breaks across it (Word's default)."""
        columns = max(map(len, rows))
        rows = [row + [""] * (columns - len(row)) for row in rows]
        natural = [max(_width(row[c], _WORD_TABLE) for row in rows) + 2 * _CELL_PAD for c in range(columns)]
        scale = min(1.0, self.text_width / sum(natural))
        widths = [w * scale for w in natural]
        pitch = _WORD_TABLE * 1.5
        header = not any(re.search(r"\d", cell) for cell in rows[0])
        for r, row in enumerate(rows):
            cells = [_justified_lines(cell, _WORD_TABLE, w - 2 * _CELL_PAD, w - 2 * _CELL_PAD) or [""]
                     for cell, w in zip(row, widths)]
            height = max(map(len, cells))
            done = 0
            while done < height:
                self.room(pitch + 2 * _CELL_PAD if done == 0 else pitch)
                fits = max(1, int((self.y - self.margin - 2 * _CELL_PAD) // pitch))
                part = range(done, min(height, done + fits))
                top = self.y
                self.y -= _CELL_PAD
                for k in part:
                    x = self.side
                    for raw, cell, w in zip(row, cells, widths):
                        if k < len(cell) and cell[k]:
                            line = cell[k]
                            right = _NUMBER_CELL.match(raw.strip())
                            at = x + w - _CELL_PAD - _width(line, _WORD_TABLE) if right else x + _CELL_PAD
                            self.text(at, line, _WORD_TABLE, r == 0 and header)
                        x += w
                    self.y -= pitch
                self.y -= _CELL_PAD
                self.rule_box(top, self.y, widths)
                done = part.stop

    def rule_box(self, top: float, bottom: float, widths: list[float]) -> None:
        """One row's borders as Word draws them: thin filled rectangles, not stroked lines."""
        page, x = self.pages[-1], self.side
        page.append(("rect", x, top, sum(widths), 0.5))
        page.append(("rect", x, bottom, sum(widths), 0.5))
        for w in [0.0, *itertools.accumulate(widths)]:
            page.append(("rect", x + w, bottom, 0.5, top - bottom))


def to_pdf_word(text: str) -> bytes:
    """Printed from Word or WPS (or a court system's template): justified body text with a
    first-line indent, bold headings centred or at the margin and mostly the body's size, an
    empty paragraph for a blank line, tab-separated rows as ruled tables with right-aligned
    numbers, the running title and a rule in the header and ``第 X 页 共 Y 页`` in the footer."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(_PDF_FONT))
    layout = _WordLayout()
    for kind, value in _blocks(text):
        if kind == "blank":
            layout.room(_WORD_PITCH)
            layout.y -= _WORD_PITCH  # an empty paragraph
        elif kind == "heading":
            level, heading = value
            size, centred = _WORD_HEADINGS.get(level, _WORD_DEEP_HEADING)
            layout.y -= _WORD_HEADING_SPACE
            layout.paragraph(heading, size, 0.0 if centred else _WORD_INDENT * size, False, True, centred)
            layout.y -= _WORD_HEADING_SPACE
        elif kind == "table" and len({len(row) for row in value}) == 1 and len(value[0]) <= _WORD_TABLE_COLUMNS:
            layout.table(value)
        elif kind == "table":  # ragged or too wide for a page: typed as paragraphs with tabs
            for row in value:
                layout.tabbed(row)
        else:
            aligned = re.search(r"\S {2,}\S", value)  # columns aligned with spaces: typed flush left
            indent = 0.0 if aligned else _WORD_INDENT * _WORD_BODY
            layout.paragraph(value.strip(), _WORD_BODY, indent, not aligned)
    buffer = io.BytesIO()
    width, height = _WORD_PAGE
    pdf = canvas.Canvas(buffer, pagesize=_WORD_PAGE, invariant=1)
    title, total = running_title(text), len(layout.pages)
    for number, ops in enumerate(layout.pages, start=1):
        pdf.setFont(_PDF_FONT, _WORD_FURNITURE)
        pdf.drawCentredString(width / 2, height - 50, title)
        pdf.rect(layout.side, height - 55, layout.text_width, 0.75, stroke=0, fill=1)
        pdf.drawCentredString(width / 2, 40, f"第 {number} 页 共 {total} 页")
        for op in ops:
            if op[0] == "rect":
                pdf.rect(*op[1:], stroke=0, fill=1)
                continue
            _, x, y, line, size, bold, spacing = op
            pdf.saveState()  # text state outlives BT/ET: the render mode ends with each line
            out = pdf.beginText(x, y)
            out.setFont(_PDF_FONT, size)
            if bold:  # Word's bold for a CJK font without a bold face: each glyph filled and stroked
                pdf.setLineWidth(size / 30)
                out.setTextRenderMode(2)
            if spacing:
                # A justified line is set glyph by glyph, each placed with the line's slack after
                # it, as word processors and court systems write it: no space glyph in the gaps.
                for char in line:
                    out.textOut(char)
                    out.moveCursor(_width(char, size) + spacing, 0)
            else:
                out.textOut(line)
            pdf.drawText(out)
            pdf.restoreState()
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


RENDERINGS: dict[str, tuple[Callable[[str], bytes], str]] = {  # name -> (render, suffix)
    "pdf": (to_pdf, ".pdf"),
    "pdf_word": (to_pdf_word, ".pdf"),
    "docx_styled": (lambda text: to_docx(text, heading_styles=True), ".docx"),
    "docx_plain": (lambda text: to_docx(text, heading_styles=False), ".docx"),
    "docx_tables": (lambda text: to_docx(text, heading_styles=True, tables=True), ".docx"),
    "docx_lines": (to_docx_lines, ".docx"),
}
