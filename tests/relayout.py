"""Re-layouts: the ways extraction and re-saving damage a document's layout, as pure functions.

Each text variant maps a document's text to the same document laid out
differently; gold files stay valid because the scorer ignores whitespace and
allows unpunctuated heading text (page furniture, a running title) before an
anchor. Furniture goes only at *safe* line boundaries (after a line that ends a
sentence and is longer than an anchor, or after a Markdown heading), so it never
lands inside a unit's anchor, which is the unit's first characters and may run
over a line break.

The renderings (``RENDERINGS``) turn a text into the bytes of another format:
printed to PDF, saved to DOCX with or without heading styles, with
tab-separated rows as Word tables.
"""
from __future__ import annotations

import io
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
    it or across its cells: it opens with a column header row, and the line above it holds no
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
        if header and "\t" not in before and len(_INLINE_SPACE.sub("", before)) >= ANCHOR_CHARS:
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


# name -> (transform, the file suffixes it applies to). CSV is a data format, not a layout.
TEXT_VARIANTS: dict[str, tuple[Callable[[str], str], tuple[str, ...]]] = {
    "nospace": (no_spaces, (".txt", ".md")),
    "wrap36": (wrapped, (".txt", ".md")),
    "wrap30": (narrow_wrapped, (".txt", ".md")),
    "nospace_wrap36": (no_spaces_wrapped, (".txt", ".md")),
    "pagenum": (page_furniture, (".txt", ".md")),
    "glued": (glued_page_numbers, (".txt", ".md")),
    "crlf": (crlf, (".txt", ".md", ".csv")),
    "fullwidth": (fullwidth_indent, (".txt", ".md")),
    "nomd": (no_markdown, (".md",)),
    "dblank": (double_blank, (".txt", ".md")),
    "noblank": (no_blank_lines, (".txt", ".md")),
    "halfwidth": (half_width, (".txt", ".md")),
    "fullwidth_chars": (full_width_chars, (".txt", ".md")),
    "tabs": (tab_runs, (".txt", ".md")),
    "spaced_heads": (spaced_headings, (".txt", ".md")),
    "md_emph": (markdown_emphasis, (".txt", ".md")),
    "oneline_paras": (one_line_paragraphs, (".txt", ".md")),
    "nbsp": (invisible_chars, (".txt", ".md")),
}


def relaid_name(name: str, variant: str) -> str:
    """The file name a re-laid document is read under: without its marks Markdown is plain text,
    and a converter's Markdown is a ``.md`` file whatever the document was."""
    if variant == "nomd":
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


RENDERINGS: dict[str, tuple[Callable[[str], bytes], str]] = {  # name -> (render, suffix)
    "pdf": (to_pdf, ".pdf"),
    "docx_styled": (lambda text: to_docx(text, heading_styles=True), ".docx"),
    "docx_plain": (lambda text: to_docx(text, heading_styles=False), ".docx"),
    "docx_tables": (lambda text: to_docx(text, heading_styles=True, tables=True), ".docx"),
}
