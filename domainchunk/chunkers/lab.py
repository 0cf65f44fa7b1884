"""Lab-report hooks, and the one lab-result parser that medical records share.

A panel (血常规, 肝功能 …) is header lines and a table of items. Its rows are
lines of the document text (cells tab-separated from the PDF/DOCX readers, or
space-aligned in text exports), so the parser works on offsets into that text
and never needs the reader's table objects. Columns are recognised by their
header words, and where a row does not line up with a header, by the values
themselves (a number is a result, ``3.5-9.5`` a range, ``g/L`` a unit, ``↑`` a flag).

Four written forms of an item are read:
- a table row: ``1  白细胞计数  WBC  12.5  ↑  10^9/L  3.5-9.5``;
- a LIS export entry: ``白细胞:12.5×10^9/L,偏高;``;
- a field with its range in brackets: ``R值：11.6 min ↑（5-10）``;
- an inline mention after a bracketed panel name: ``【血常规】 WBC 12.5↑ 10^9/L``.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

import regex

from ..models import Document
from ..outline import Outline, Section
from ..phi import field_labels
from ..rulefile import RuleFile, load_rules
from . import per_rule_file


@dataclass(frozen=True)
class Vocab:
    """A rule file's lab vocabulary (``terms.column``, ``terms.header_field``, the result and flag
    words), ready to look up."""

    column_of: dict[str, str]  # header word -> item field (name, result, unit …)
    field_of: dict[str, str]  # header line label -> metadata key (标本 -> specimen)
    header_field: regex.Pattern  # a header line's label and its value
    qualitative: regex.Pattern  # a result that is a word or a grade (阴性, 阳性(+), ++)
    reference_word: regex.Pattern  # a qualitative item's reference (尿蛋白 ++ ↑ 阴性)
    unit: regex.Pattern  # a token that is a unit
    high: regex.Pattern
    low: regex.Pattern
    abnormal: regex.Pattern
    arrows: regex.Pattern  # flag marks glued to a result (12.5↑)
    not_a_name: regex.Pattern  # a labelled field or a page footer where an item's name would stand
    lis_label: regex.Pattern  # the label of a LIS export's results (检验详情)
    lis_prefix: regex.Pattern  # that label opening an entry's name (检验详情:钾:3.1;), taken off it


def _by_alias(group: dict[str, list[str]]) -> dict[str, str]:
    return {word: key for key, aliases in group.items() for word in (key, *aliases)}


def _chars(rules: RuleFile, group: str) -> str:
    """A character class of the one-character terms of ``group`` (grade signs, unit signs)."""
    return "[" + "".join(regex.escape(w) for w in _by_alias(rules.terms.get(group, {}))) + "]"


@per_rule_file
def vocab(rules: RuleFile) -> Vocab:
    """The lab vocabulary of ``rules`` (built once per rule file)."""
    field_of = _by_alias(rules.terms.get("header_field", {}))
    keys = "|".join(map(regex.escape, sorted(field_of, key=len, reverse=True)))
    # A value ends where the next field's label and colon begin, for a header whose spaces were
    # lost (条码号：6026030901标本：血清): this file's fields and every field masking knows.
    label_colon = rf"(?:{keys}|{field_labels(rules)})[ \t\u3000]*[:：]"
    header_field = regex.compile(
        rf"(?P<key>{keys})[ \t\u3000]*[:：][ \t\u3000]*"
        rf"(?P<value>\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}(?:[ \t]*\d{{1,2}}:\d{{2}}(?::\d{{2}})?)?|(?:(?!{label_colon})[^\s:：])+)"
    )
    words = rules.vocabulary_pattern
    grade = _chars(rules, "grade_sign")
    arrows = f"(?:{words('terms.arrow_high')}|{words('terms.arrow_low')})"
    return Vocab(
        _by_alias(rules.terms.get("column", {})), field_of, header_field,
        qualitative=regex.compile(rf"^{words('terms.qualitative_result')}(?:[（(]{grade}+[)）])?|^[（(]?{grade}{{1,4}}[)）]?$"),
        reference_word=regex.compile(rf"^{words('terms.reference_word')}$"),
        unit=regex.compile(rf"[A-Za-z]|{_chars(rules, 'unit_sign')}|^{words('terms.unit_word')}"),
        high=regex.compile(rf"{words('terms.arrow_high')}|^{words('terms.flag_high')}$"),
        low=regex.compile(rf"{words('terms.arrow_low')}|^{words('terms.flag_low')}$"),
        abnormal=regex.compile(rf"{words('terms.abnormal_word')}|^[（(]?{words('terms.positive_sign')}"
                               rf"|^{words('terms.abnormal_mark')}$"),
        arrows=regex.compile(arrows + "+"),
        not_a_name=regex.compile(rf"[:：]|^{words('terms.page_word')}$|^[\d\-/. ]+$"),
        lis_label=regex.compile(words("terms.lis_label")),
        lis_prefix=regex.compile(rf"^{words('terms.lis_label')}[:：]"),
    )


@lru_cache(maxsize=1)
def builtin_vocab() -> Vocab:
    """The built-in lab_report file's vocabulary: what a medical record's lab results are read with."""
    return vocab(load_rules()["lab_report"])


_SPLIT_CELLS = regex.compile(r"[ \u3000]{2,}")
_NUMBER = regex.compile(r"^[<>≤≥＜＞]?=?[ ]?[-+]?\d+(?:\.\d+)?(?:[×xX*]10\^?[-]?\d+)?")
_RANGE = regex.compile(r"^(?:[<>≤≥＜＞]=?[ ]?\d|\d+(?:\.\d+)?[ ]*[-~～–—]{1,2}[ ]*\d)")
_LIS_ENTRY = regex.compile(
    r"(?P<name>[^\t;；\n]+?)[:：](?P<value>[^,;；\t\n:：]*)(?:,(?P<flag>[^;；\t\n]*))?[;；]"
)
# An entry lies inside one run of text between LIS separators that a ; ends (its name, value and
# flag hold no separator), so it is tried only where such a run starts: the lookbehind refuses
# every other position at once and the lookahead a run no ; ends, one linear pass instead of the
# entry pattern tried from every position of a long line. Fixed and literal-only, so on stdlib
# ``re``, which runs it three times as fast as the regex module.
_LIS_AT_RUN = re.compile(r"(?<![^\t\n;；])(?=[^\t\n;；]*[;；])" + _LIS_ENTRY.pattern)
_BRACKET_PANEL = regex.compile(r"【(?P<name>[^】\n]{1,20})】")
# An item written as a field, as a report without a table writes it (R值（凝血反应时间）：11.6 min ↑（5-10）):
# its name before the colon, its result a number after it, then its unit and flag, and its reference
# range in brackets closing the line. A word after the colon is a header field's value or a finding, no item;
# a name holds no column gap and a colon between digits is a titre (1:320) in a row of cells.
_FIELD_ITEM = regex.compile(
    r"[ \t\u3000]*(?P<name>(?:(?![ \u3000]{2})[^:：\t\n]){1,40}?)[ \t\u3000]*(?<!\d)[:：][ \t\u3000]*(?P<value>[<>≤≥＜＞]?[-+]?\d[^（(\n]*?)"
    r"[ \t\u3000]*[（(](?P<ref>[^）)\n]+)[）)][ \t\u3000]*$"
)
_INLINE_SEP = regex.compile(r"[ \u3000]{2,}|[，；;。\t\n]")


def normalise_flag(text: str | None, v: Vocab) -> str | None:
    """high, low or abnormal from ↑ ↓ H L 偏高 偏低 阳性 (+) (the rule file's flag words); None for
    normal or unknown."""
    text = (text or "").strip()
    if not text:
        return None
    if v.high.search(text):
        return "high"
    if v.low.search(text):
        return "low"
    if v.abnormal.search(text):
        return "abnormal"
    return None


def _item(name: str, result: str, unit: str | None = None, ref: str | None = None, flag: str | None = None) -> dict[str, Any]:
    return {"name": name.strip(), "result": result.strip(), "unit": unit or None, "ref": ref or None, "flag": flag}


def split_cells(line: str) -> list[str]:
    """A table row's cells: tab-separated (readers; empty cells kept, they hold a column's place),
    else space-aligned (two or more spaces)."""
    if "\t" in line:
        return [c.strip() for c in line.strip("\n").split("\t")]
    return [c for c in _SPLIT_CELLS.split(line.strip()) if c]


_ALIGNED_CELL = regex.compile(r"[^ \u3000]+(?:[ \u3000][^ \u3000]+)*")  # single spaces inside a cell


def _print_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced print: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _cell_starts(line: str) -> list[tuple[int, str]]:
    return [(_print_width(line[: m.start()]), m.group()) for m in _ALIGNED_CELL.finditer(line)]


def aligned_cells(line: str, header: str) -> list[str] | None:
    """A space-aligned row's cells under a header row's columns, by where each cell is printed,
    so an empty cell (no flag) keeps its column's place; None when cells do not line up one to one."""
    columns = _cell_starts(header)
    cells = [""] * len(columns)
    for start, text in _cell_starts(line):
        i = min(range(len(columns)), key=lambda k: abs(columns[k][0] - start))
        if cells[i]:
            return None
        cells[i] = text
    return cells


# A column-header row names a few columns; a line longer than this is a row of data or prose.
HEADER_ROW_MAX = 400


def header_columns(line: str, v: Vocab) -> list[str] | None:
    """The fields a column-header row names, in order; None when the line is not a header row.
    Empty cells after the last name pad the row to a wider table's columns."""
    if len(line) > HEADER_ROW_MAX:  # not split at all: a long line is asked once per piece cut from it
        return None
    cells = split_cells(line)
    if len(cells) < 2:
        cells = line.split()
    while cells and not cells[-1]:
        cells.pop()
    fields = [v.column_of.get(c.replace(" ", "")) for c in cells]
    named = [f for f in fields if f]
    if len(named) >= 3 and len(named) == len(fields) and "result" in named:
        return fields  # type: ignore[return-value]
    return None


def _is_result(token: str, v: Vocab) -> bool:
    return bool(_NUMBER.match(token) or v.qualitative.match(token))


def parse_row(cells: list[str], v: Vocab, columns: list[str] | None = None) -> dict[str, Any] | None:
    """One item from a row's cells: by the header's columns when they line up, else by the values."""
    if columns and len(cells) > len(columns) and not any(cells[len(columns):]):
        cells = cells[: len(columns)]  # a narrower panel's row in a wider table: padding cells
    if columns and len(cells) == len(columns):
        by = dict(zip(columns, cells))
        if not by.get("result"):
            return None
        result = by["result"]
        arrows = v.arrows.search(result)
        name = " ".join(c for c in (by.get("name"), by.get("code")) if c)
        flag = normalise_flag(by.get("flag"), v) or normalise_flag(arrows.group() if arrows else None, v)
        if flag is None and v.qualitative.match(result):
            flag = normalise_flag(result, v)
        return _item(name, v.arrows.sub("", result), by.get("unit"), by.get("ref"), flag) if name else None
    tokens = [c for c in cells if c.strip()]
    if columns and len(tokens) < len(columns):
        # A misaligned row (a long name one space from its result): read it word by word.
        tokens = [t for c in tokens for t in c.split()]
    if len(tokens) > 2 and tokens[0].isdigit():
        tokens = tokens[1:]  # 序号
    at = next((i for i in range(1, len(tokens)) if _is_result(tokens[i], v)), None)
    if at is None:
        return None
    name = " ".join(tokens[:at])
    if v.not_a_name.search(name):
        return None  # a labelled field (时间:2024-…) or a page footer (第 1 页), not an item
    first = tokens[at]
    number = _NUMBER.match(first) or v.qualitative.match(first)
    result = number.group()
    tail = first[len(result):]
    arrows = v.arrows.search(tail)
    flag = normalise_flag(arrows.group(), v) if arrows else None
    unit = v.arrows.sub("", tail).strip() or None
    ref = None
    for token in tokens[at + 1 :]:
        if normalise_flag(token, v) and len(token) <= 3 and not _RANGE.match(token):
            flag = flag or normalise_flag(token, v)
        elif (_RANGE.match(token) or v.reference_word.match(token)) and ref is None:
            ref = token
        elif unit is None and v.unit.search(token):
            unit = token
    if flag is None and v.qualitative.match(result):
        flag = normalise_flag(result, v)
    return _item(name, result, unit, ref, flag)


def lis_entries(text: str) -> Iterator[re.Match]:
    """The LIS export entries ``name:value unit,flag;`` of ``text``, as ``_LIS_ENTRY.finditer`` finds
    them, in linear time: an entry is a whole run ended by ; whose name is followed by a colon (a
    run that no ; ends, or with no colon past its first character, holds none)."""
    return _LIS_AT_RUN.finditer(text)


def parse_lis(text: str, v: Vocab) -> list[dict[str, Any]]:
    """LIS export entries ``name:value unit,flag;`` (the flag word is the lab's own judgement)."""
    items = []
    for m in lis_entries(text):
        name = v.lis_prefix.sub("", m.group("name").strip())
        if not m.group("value").strip():
            continue
        value = m.group("value").strip()
        number = _NUMBER.match(value) or v.qualitative.match(value)
        result = number.group() if number else value
        unit = value[len(result):].strip() if number else None
        items.append(_item(name, result, unit, None, normalise_flag(m.group("flag"), v)))
    return items


def parse_field_item(line: str, v: Vocab) -> dict[str, Any] | None:
    """An item written as a field, ``name：result unit flag（range）``; None for any other line."""
    m = _FIELD_ITEM.match(line)
    number = _NUMBER.match(m.group("value")) if m else None
    if m is None or number is None:
        return None
    rest = m.group("value")[number.end():]
    return _item(m.group("name"), number.group(), v.arrows.sub("", rest).strip(), m.group("ref").strip(),
                 normalise_flag(rest, v))


def parse_inline(text: str, v: Vocab) -> list[dict[str, Any]]:
    """Items written one after another in running text: ``WBC 12.5↑ 10^9/L，CRP 30↑ mg/L``."""
    items = []
    for piece in _INLINE_SEP.split(text):
        tokens = piece.split()
        if len(tokens) < 2:
            continue
        item = parse_row(tokens, v)
        if item and item["name"]:
            items.append(item)
    return items


def bracketed_panels(text: str, v: Vocab) -> list[dict[str, Any]]:
    """Lab panels mentioned in running text after a bracketed name (``【血常规】 …``), with their items."""
    marks = list(_BRACKET_PANEL.finditer(text))
    panels = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        line_end = text.find("\n", m.end())
        if line_end >= 0 and not text[m.end() : line_end].strip():
            line_end = text.find("\n\n", m.end())  # the panel's rows are on the lines below its name
        end = min(end, line_end) if line_end >= 0 else end
        items = parse_inline(text[m.end() : end], v) or [
            it for line in text[m.end() : end].splitlines() if (it := parse_row(split_cells(line) or line.split(), v))
        ]
        if items:
            panels.append({"panel": m.group("name"), "items": items})
    return panels


def results_metadata(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The metadata both hooks give: the items and the names of the abnormal ones."""
    if not items:
        return {}
    return {"items": items, "abnormal": [it["name"] for it in items if it["flag"]]}


def text_results(text: str, v: Vocab | None = None) -> dict[str, Any]:
    """Lab results found in a medical record's section: LIS entries and bracketed panels (read with
    the built-in lab_report file's vocabulary unless ``v`` is given)."""
    # A panel's name is bracketed and a LIS entry ends in a semicolon: half of a record's sections hold neither.
    if "【" not in text and ";" not in text and "；" not in text:
        return {}
    v = v or builtin_vocab()
    panels = bracketed_panels(text, v)
    items = parse_lis(text, v) + [it for p in panels for it in p["items"]]
    meta = results_metadata(items)
    if panels:
        meta["panels"] = [p["panel"] for p in panels]
    return meta


# ------------------------------------------------------------------ hooks


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        if text[pos:stop].strip():
            spans.append((pos, stop))
        pos = stop + 1
    return spans


def header_row(text: str, start: int, end: int, v: Vocab) -> tuple[int, int, list[str]] | None:
    """The first column-header row inside ``[start, end)``: its span and its columns."""
    for a, b in _lines(text, start, end):
        columns = header_columns(text[a:b], v)
        if columns:
            return a, b, columns
    return None


def table_items(text: str, start: int, end: int, head: tuple[int, int, list[str]] | None, v: Vocab) -> list[dict[str, Any]]:
    """Items of the table rows inside ``[start, end)`` under column-header row ``head``
    (header rows, repeated on a new page, skipped)."""
    columns = head[2] if head else None
    header = text[head[0] : head[1]] if head and "\t" not in text[head[0] : head[1]] else None
    items = []
    for a, b in _lines(text, start, end):
        line = text[a:b]
        if header_columns(line, v) or v.header_field.search(line) and "\t" not in line:
            continue
        if v.lis_label.search(line) or next(lis_entries(line), None):
            items += parse_lis(line, v)
            continue
        if "\t" not in line and (field_item := parse_field_item(line, v)):
            items.append(field_item)
            continue
        cells = split_cells(line) or line.split()
        if columns and "\t" in line and len(cells) < len(columns):
            cells += [""] * (len(columns) - len(cells))  # empty last cells, their tabs stripped with the line's end
        elif header and columns and len(cells) < len(columns):
            cells = aligned_cells(line, header) or cells
        item = parse_row(cells, v, columns)
        if item is None and columns:
            item = parse_row(line.split(), v)
        if item:
            items.append(item)
    return items


_PANEL_LEVELS = ("lab.panel", "lab.field_panel", "lab.caption", "lab.row_caption", "lab.group")  # levels whose label names the panel


HEADER_REACH = 30_000  # how far above a panel its export's column-header row is looked for


# The column-header rows of the last text asked about, every line read once: each chunk asks for
# the row above it, and reading the lines above every chunk again was most of a report's time.
_HEADER_LINES: list = [None, None, [], []]  # text, vocab, header rows (a, b, columns), their ends


def _header_lines(text: str, v: Vocab) -> tuple[list[tuple[int, int, list[str]]], list[int]]:
    if _HEADER_LINES[0] is not text or _HEADER_LINES[1] is not v:
        rows = [(a, b, cols) for a, b in _lines(text, 0, len(text)) if (cols := header_columns(text[a:b], v))]
        _HEADER_LINES[:] = [text, v, rows, [b for _, b, _ in rows]]
    return _HEADER_LINES[2], _HEADER_LINES[3]


def header_above(text: str, end: int, v: Vocab) -> tuple[int, int, list[str]] | None:
    """The last column-header row before ``end`` (within HEADER_REACH): the one an export's panels share.

    A line that ``end`` or the reach cuts counts as its part inside; the whole lines between are
    looked up in the document's header rows, read once."""
    start = max(0, end - HEADER_REACH)

    def cut(a: int, b: int) -> tuple[int, int, list[str]] | None:
        columns = header_columns(text[a:b], v) if text[a:b].strip() else None
        return (a, b, columns) if columns else None

    tail = text.rfind("\n", start, end) + 1 or start  # where the line ``end`` falls in begins (in reach)
    whole_tail = end == len(text) or text[end] == "\n"
    if not whole_tail and tail < end and (found := cut(tail, end)):
        return found
    rows, ends = _header_lines(text, v)
    k = bisect_right(ends, end if whole_tail else tail - 1) - 1
    if k >= 0 and rows[k][0] >= start:
        return rows[k]
    if start > 0 and text[start - 1] != "\n":  # the line the reach begins in, from there
        first_end = text.find("\n", start, end)
        if first_end >= 0 or whole_tail:  # else it is the tail, read above
            return cut(start, first_end if first_end >= 0 else end)
    return None


# The last section's header fields and column-header row: the pieces of an oversize panel ask
# for them in turn, and reading the whole section again for each piece is quadratic in its size.
_SECTION_HEADS: list[Any] = [None, None, -1, -1, {}, None]


def _section_head(text: str, start: int, end: int, v: Vocab) -> tuple[dict[str, Any], tuple[int, int, list[str]] | None]:
    """The header fields (first value of each) and the column-header row of the section ``[start, end)``."""
    known = _SECTION_HEADS
    if known[0] is not text or known[1] is not v or known[2] != start or known[3] != end:
        fields: dict[str, Any] = {}
        for m in v.header_field.finditer(text, start, end):
            fields.setdefault(v.field_of[m.group("key")], m.group("value"))
        # An export heads all its panels with one column-header row, above the first of them.
        head = header_row(text, start, end, v) or header_above(text, start, v)
        known[:] = [text, v, start, end, fields, head]
    return known[4], known[5]


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    # Read where the rules read: a row or a header value that a hard wrap cut is whole there.
    text, at = outline.as_read()
    start, end = at(start), at(end)
    meta: dict[str, Any] = {}
    if sec.unit is not None and sec.unit.level.id in _PANEL_LEVELS:
        meta["panel"] = sec.unit.label
    v = vocab(outline.rules)
    fields, head = _section_head(text, at(sec.start), at(sec.end), v)
    meta.update(fields)
    body_from = max(start, head[1]) if head and head[0] >= start else start
    meta.update(results_metadata(table_items(text, body_from, end, head, v)))
    if head and not start <= head[0] < end:
        meta["context_prefix"] = text[head[0] : head[1]]  # a piece of a split panel repeats the column header
    return meta
