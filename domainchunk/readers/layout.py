"""Shared by the PDF and DOCX readers: writing lines and tables into one text.

Both readers hand their content, in reading order, to a :class:`DocumentBuilder`:
every paragraph or heading is one line, every table row is one line with its
cells separated by tabs, and lines are separated by a single ``\\n``. The
builder records the offsets of blocks, rows, cells and pages as it writes, so
they are exact slices of ``Document.text`` by construction.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import regex

from ..models import Block, BlockKind, Document, Page, TableCell, TableRow
from ..normalize import _repairable, normalize_text

# Box-drawing characters (U+2500–U+257F) are set full-width among CJK text: a printed box line
# wrapped at the margin (┌──┬── / ┐) joins without a space, like the ideographs around it.
_CJK = regex.compile(r"[\p{Han}\p{Bopomofo}\p{Hiragana}\p{Katakana}\u2500-\u257f\u3000-\u303f\uff00-\uffef]")
_SPACES = regex.compile(r"\s+")
MARKDOWN_DEPTHS = 6  # Markdown has six heading depths; Word's outline levels 7-9 are written as the sixth


def is_cjk(char: str) -> bool:
    """CJK ideographs, full-width punctuation and box drawing: text that is written without spaces."""
    return bool(char) and _CJK.match(char) is not None


def join_wrapped(left: str, right: str) -> str:
    """Join two pieces of one wrapped line: no space where either side is CJK, else one space."""
    left, right = left.rstrip(), right.lstrip()
    if not left or not right:
        return left + right
    if is_cjk(left[-1]) or is_cjk(right[0]):
        return left + right
    return f"{left} {right}"


# What clean_line and clean_cell change in a text: whitespace other than one inner space (stdlib
# ``\s`` is ``str.isspace``, a superset of the regex module's, so what ``strip`` removes is here
# too), or a character normalize_text repairs. Most lines and cells hold none of it, and one scan
# tells them (issue 13: cleaning was a fifth of the DOCX reader; a table's cells are cleaned twice).
@lru_cache(maxsize=1)
def _unclean() -> re.Pattern:
    return re.compile(r"^ | $|  |[^\S ]|" + _repairable().pattern)


def _is_clean(text: str) -> bool:
    return _unclean().search(text) is None


def clean_line(text: str) -> str:
    """One line of document text: normalised, whitespace runs as one space, except that a run
    holding a tab is one tab (tab-aligned columns typed in a paragraph stay columns)."""
    if _is_clean(text):
        return text
    text = _SPACES.sub(lambda m: "\t" if "\t" in m.group() else " ", normalize_text(text))
    return text.strip()


def clean_cell(text: str) -> str:
    """A table cell's text on one line: its internal line breaks are soft wraps. Tabs separate
    cells in the document text, so inside a cell they are spaces."""
    if _is_clean(text):
        return text
    pieces = [p for p in (clean_line(part).replace("\t", " ") for part in normalize_text(text).split("\n")) if p]
    joined = ""
    for piece in pieces:
        joined = join_wrapped(joined, piece)
    return joined


@dataclass
class CellSpec:
    """A table cell as a reader found it; ``colspan`` counts grid columns it covers."""

    text: str
    colspan: int = 1


def looks_like_header(rows: list[list[CellSpec]]) -> bool:
    """Whether the first row labels the columns: every cell filled, no digits (values have
    digits, labels rarely), and rows below it to label (a two-row table may be key/value)."""
    return len(rows) > 2 and all(c.text and not regex.search(r"\d", c.text) for c in rows[0])


def group_captions(rows: list[list[CellSpec]], header_rows: int) -> list[list[CellSpec]]:
    """Rows of a table whose first column groups them (a cell merged down over its group's rows,
    as a lab puts a panel's name beside its items): each group's name becomes a row of its own
    spanning the table, as a caption above the rows, and its cell is left empty like those below
    it, so the rows read as the plain-text report does (the name on its line, then the items).
    Rows spanning the table already caption the groups: a merged column is then data (a specimen)."""
    body = rows[header_rows:]
    if any(len(row) == 1 and row[0].colspan > 1 for row in body):
        return rows
    out: list[list[CellSpec]] = rows[:header_rows]
    for row in body:
        if len(row) > 1 and row[0].colspan == 1 and row[0].text:
            out.append([CellSpec(row[0].text, sum(cell.colspan for cell in row))])
            row = [CellSpec("", 1), *row[1:]]
        out.append(row)
    return out


_HEADER_SEARCH = 3  # the column names' row is among a table's first rows (under its captions)


def _grid_starts(row: list[CellSpec]) -> list[int]:
    """The grid column each cell of ``row`` starts at."""
    starts, at = [], 0
    for cell in row:
        starts.append(at)
        at += cell.colspan
    return starts


def side_by_side(rows: list[list[CellSpec]]) -> list[list[list[CellSpec]]] | None:
    """A table that sets two (or more) tables side by side, as a report prints two lab panels in
    one table (each row: the left panel's item, result, unit, range, then the right panel's), cut
    into its column groups, left to right; ``None`` for any other table."""
    edges = side_by_side_edges(rows)
    return None if edges is None else cut_groups(rows, edges)


def side_by_side_edges(rows: list[list[CellSpec]]) -> list[int] | None:
    """The grid columns where the side-by-side tables of :func:`side_by_side` begin, and the
    table's width; ``None`` when the table is one table.

    The sign is a row among the first ones whose cells name the same columns twice or more, in
    the same order and over the same grid widths (项目 结果 单位 参考区间 | 项目 结果 单位 参考区间):
    each repeat opens a group. A row is cut at the groups' edges; a row with a cell across an edge
    (a note spanning the table) belongs to no one group and is kept whole, after the groups
    written so far, and the rows below it are cut again. Read row by row, such a table interleaves
    its groups; read group by group, each reads as the table it is."""
    for index, row in enumerate(rows[:_HEADER_SEARCH]):
        names = [cell.text for cell in row]
        if not all(names) or any(regex.search(r"\d", name) for name in names):
            continue
        for count in (2, 3, 4):
            width = len(row) // count
            if width < 2 or width * count != len(row):
                continue
            shape = [(c.text, c.colspan) for c in row[:width]]
            if all([(c.text, c.colspan) for c in row[k * width:(k + 1) * width]] == shape for k in range(count)):
                return [_grid_starts(row)[k * width] for k in range(count)] + [sum(c.colspan for c in row)]
    return None


def cut_groups(rows: list[list[CellSpec]], edges: list[int]) -> list[list[list[CellSpec]]]:
    """``rows`` cut at the grid columns ``edges`` (each group's first column, then the table's
    width); see :func:`side_by_side`. The result is tables in reading order."""
    out: list[list[list[CellSpec]]] = []
    groups: list[list[list[CellSpec]]] = [[] for _ in edges[:-1]]
    for row in rows:
        pieces: list[list[CellSpec]] = [[] for _ in edges[:-1]]
        whole = False
        for cell, start in zip(row, _grid_starts(row)):
            group = max(k for k, edge in enumerate(edges[:-1]) if edge <= start)
            if start + cell.colspan > edges[group + 1]:
                whole = True
                break
            pieces[group].append(cell)
        if whole:
            out.extend(g for g in groups if g)
            out.append([row])
            groups = [[] for _ in edges[:-1]]
            continue
        for table, piece in zip(groups, pieces):
            table.append(piece)
    out.extend(g for g in groups if g)
    return out


@dataclass
class Fragment:
    """A piece of a line and the page it was printed on (a wrapped line may cross pages)."""

    text: str
    page: int | None = None


class DocumentBuilder:
    """Accumulates lines and tables into one text with blocks and pages."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._blocks: list[Block] = []
        self._page_starts: list[tuple[int, int]] = []  # (page number, offset)
        self._blank = False  # a blank line goes before the next line written

    @property
    def blocks(self) -> list[Block]:
        return self._blocks

    def _write(self, text: str) -> None:
        self._parts.append(text)
        self._length += len(text)

    def _open_line(self) -> int:
        if self._length:
            self._write("\n\n" if self._blank else "\n")
        self._blank = False
        return self._length

    def blank(self) -> None:
        """A blank line before the next line (an empty paragraph in Word: the rules read a blank
        line as a break); several make one, and none opens or closes the text."""
        self._blank = bool(self._length)

    def page(self, number: int) -> None:
        """Start page ``number`` here; a page break block marks every page after the first."""
        if self._page_starts and self._page_starts[-1][0] == number:
            return
        if self._page_starts:
            self._blocks.append(Block(kind="page_break", start=self._length, end=self._length, page=number))
        self._page_starts.append((number, self._length))

    def line(
        self,
        fragments: list[Fragment] | str,
        *,
        kind: BlockKind = "paragraph",
        page: int | None = None,
        level: int | None = None,
        style: str | None = None,
    ) -> Block | None:
        """Write one line (skipped when empty); fragments on a later page open that page mid-line."""
        if isinstance(fragments, str):
            fragments = [Fragment(fragments, page)]
        fragments = [f for f in fragments if f.text]
        if not fragments:
            return None
        start = self._open_line()
        for fragment in fragments:
            if fragment.page is not None:
                self.page(fragment.page)
            self._write(fragment.text)
        block = Block(kind=kind, start=start, end=self._length, page=fragments[0].page, level=level, style=style)
        self._blocks.append(block)
        return block

    def heading(self, fragments: list[Fragment], level: int) -> Block | None:
        """A heading written as Markdown writes one of that depth: the rules read the marks as the
        heading they are, and a document's Markdown twin reads the same. The first line names the
        document, whatever its style: a title, which takes no depth."""
        if self._blocks:
            first = next(f for f in fragments if f.text)
            first.text = "#" * min(level, MARKDOWN_DEPTHS) + " " + first.text
        return self.line(fragments, kind="heading", level=level)

    def table(
        self,
        rows: list[list[CellSpec]],
        *,
        page: int | None = None,
        header_rows: int = 0,
        style: str | None = None,
    ) -> Block | None:
        """Write a table as one line per row, cells separated by tabs (rows without text skipped)."""
        if page is not None:
            self.page(page)
        table_rows: list[TableRow] = []
        start: int | None = None
        for index, row in enumerate(rows):
            texts = [clean_cell(cell.text) for cell in row]
            if not any(texts):
                continue
            row_start = self._open_line()
            start = row_start if start is None else start
            cells = []
            for i, (cell, text) in enumerate(zip(row, texts)):
                if i:
                    self._write("\t")
                cell_start = self._length
                self._write(text)
                cells.append(TableCell(text=text, start=cell_start, end=self._length, colspan=cell.colspan))
            table_rows.append(TableRow(cells=cells, start=row_start, end=self._length, is_header=index < header_rows))
        if start is None:
            return None
        block = Block(kind="table", start=start, end=self._length, page=page, rows=table_rows, style=style)
        self._blocks.append(block)
        return block

    def build(self, source: str, **fields) -> Document:
        text = "".join(self._parts)
        pages = [
            Page(number=number, start=start, end=self._page_starts[i + 1][1] if i + 1 < len(self._page_starts) else len(text))
            for i, (number, start) in enumerate(self._page_starts)
        ]
        return Document(source=source, text=text, blocks=self._blocks, pages=pages, **fields)
