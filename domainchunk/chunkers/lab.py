"""Lab-report hooks, and the one lab-result parser that medical records share.

A panel (血常规, 肝功能 …) is header lines and a table of items. Its rows are
lines of the document text (cells tab-separated from the PDF/DOCX readers, or
space-aligned in text exports), so the parser works on offsets into that text
and never needs the reader's table objects. Columns are recognised by their
header words, and where a row does not line up with a header, by the values
themselves (a number is a result, ``3.5-9.5`` a range, ``g/L`` a unit, ``↑`` a flag).

Three written forms of an item are read:
- a table row: ``1  白细胞计数  WBC  12.5  ↑  10^9/L  3.5-9.5``;
- a LIS export entry: ``白细胞:12.5×10^9/L,偏高;``;
- an inline mention after a bracketed panel name: ``【血常规】 WBC 12.5↑ 10^9/L``.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import regex

from ..models import Document
from ..outline import Outline, Section
from ..rulefile import RuleFile

@dataclass(frozen=True)
class Vocab:
    """A rule file's lab vocabulary (``terms.column``, ``terms.header_field``), ready to look up."""

    column_of: dict[str, str]  # header word -> item field (name, result, unit …)
    field_of: dict[str, str]  # header line label -> metadata key (标本 -> specimen)
    header_field: regex.Pattern  # a header line's label and its value


def _by_alias(group: dict[str, list[str]]) -> dict[str, str]:
    return {word: key for key, aliases in group.items() for word in (key, *aliases)}


_VOCABS: dict[int, tuple[RuleFile, Vocab]] = {}  # by id of the rule file, which it keeps alive


def vocab(rules: RuleFile) -> Vocab:
    """The lab vocabulary of ``rules`` (built once per rule file)."""
    cached = _VOCABS.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    field_of = _by_alias(rules.terms.get("header_field", {}))
    header_field = regex.compile(
        r"(?P<key>" + "|".join(map(regex.escape, sorted(field_of, key=len, reverse=True))) + r")[ \t\u3000]*[:：][ \t\u3000]*"
        r"(?P<value>\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ \t]+\d{1,2}:\d{2}(?::\d{2})?)?|[^\s:：]+)"
    )
    built = Vocab(_by_alias(rules.terms.get("column", {})), field_of, header_field)
    _VOCABS[id(rules)] = (rules, built)
    return built


_SPLIT_CELLS = regex.compile(r"[ \u3000]{2,}")
_NUMBER = regex.compile(r"^[<>≤≥＜＞]?=?[ ]?[-+]?\d+(?:\.\d+)?(?:[×xX*]10\^?[-]?\d+)?")
_QUALITATIVE = regex.compile(r"^(?:弱阳性|阳性|阴性|未检出|检出|少量|微量)(?:[（(][+\-±]+[)）])?|^[（(]?[+\-±]{1,4}[)）]?$")
_RANGE = regex.compile(r"^(?:[<>≤≥＜＞]=?[ ]?\d|\d+(?:\.\d+)?[ ]*[-~～–—]{1,2}[ ]*\d)")
_ARROWS = regex.compile(r"[↑↓]+")
_REF_WORD = regex.compile(r"^(?:阴性|阳性|未检出)$")  # a qualitative item's reference (尿蛋白 ++ ↑ 阴性)
_UNIT = regex.compile(r"[A-Za-zμ%％/^×·]|^(?:秒|次|个|倍|岁)")
_HIGH = regex.compile(r"↑|^(?:H|HH|高|偏高|升高)$")
_LOW = regex.compile(r"↓|^(?:L|LL|低|偏低|降低)$")
_ABNORMAL = regex.compile(r"阳性|^[（(]?\+|异常|^\*$")
_LIS_ENTRY = regex.compile(
    r"(?P<name>[^\t;；\n]+?)[:：](?P<value>[^,;；\t\n:：]*)(?:,(?P<flag>[^;；\t\n]*))?[;；]"
)
_BRACKET_PANEL = regex.compile(r"【(?P<name>[^】\n]{1,20})】")
_NOT_A_NAME = regex.compile(r"[:：]|^第$|^(?:共|页|Page)$|^[\d\-/. ]+$")
_INLINE_SEP = regex.compile(r"[ \u3000]{2,}|[，；;。\t\n]")


def normalise_flag(text: str | None) -> str | None:
    """high, low or abnormal from ↑ ↓ H L 偏高 偏低 阳性 (+); None for normal or unknown."""
    text = (text or "").strip()
    if not text:
        return None
    if _HIGH.search(text):
        return "high"
    if _LOW.search(text):
        return "low"
    if _ABNORMAL.search(text):
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


def header_columns(line: str, v: Vocab) -> list[str] | None:
    """The fields a column-header row names, in order; None when the line is not a header row.
    Empty cells after the last name pad the row to a wider table's columns."""
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


def _is_result(token: str) -> bool:
    return bool(_NUMBER.match(token) or _QUALITATIVE.match(token))


def parse_row(cells: list[str], columns: list[str] | None = None) -> dict[str, Any] | None:
    """One item from a row's cells: by the header's columns when they line up, else by the values."""
    if columns and len(cells) > len(columns) and not any(cells[len(columns):]):
        cells = cells[: len(columns)]  # a narrower panel's row in a wider table: padding cells
    if columns and len(cells) == len(columns):
        by = dict(zip(columns, cells))
        if not by.get("result"):
            return None
        result = by["result"]
        arrows = _ARROWS.search(result)
        name = " ".join(c for c in (by.get("name"), by.get("code")) if c)
        flag = normalise_flag(by.get("flag")) or normalise_flag(arrows.group() if arrows else None)
        if flag is None and _QUALITATIVE.match(result):
            flag = normalise_flag(result)
        return _item(name, _ARROWS.sub("", result), by.get("unit"), by.get("ref"), flag) if name else None
    tokens = [c for c in cells if c.strip()]
    if columns and len(tokens) < len(columns):
        # A misaligned row (a long name one space from its result): read it word by word.
        tokens = [t for c in tokens for t in c.split()]
    if len(tokens) > 2 and tokens[0].isdigit():
        tokens = tokens[1:]  # 序号
    at = next((i for i in range(1, len(tokens)) if _is_result(tokens[i])), None)
    if at is None:
        return None
    name = " ".join(tokens[:at])
    if _NOT_A_NAME.search(name):
        return None  # a labelled field (时间:2024-…) or a page footer (第 1 页), not an item
    first = tokens[at]
    number = _NUMBER.match(first) or _QUALITATIVE.match(first)
    result = number.group()
    tail = first[len(result):]
    arrows = _ARROWS.search(tail)
    flag = normalise_flag(arrows.group()) if arrows else None
    unit = _ARROWS.sub("", tail).strip() or None
    ref = None
    for token in tokens[at + 1 :]:
        if normalise_flag(token) and len(token) <= 3 and not _RANGE.match(token):
            flag = flag or normalise_flag(token)
        elif (_RANGE.match(token) or _REF_WORD.match(token)) and ref is None:
            ref = token
        elif unit is None and _UNIT.search(token):
            unit = token
    if flag is None and _QUALITATIVE.match(result):
        flag = normalise_flag(result)
    return _item(name, result, unit, ref, flag)


def parse_lis(text: str) -> list[dict[str, Any]]:
    """LIS export entries ``name:value unit,flag;`` (the flag word is the lab's own judgement)."""
    items = []
    for m in _LIS_ENTRY.finditer(text):
        name = regex.sub(r"^检验详情[:：]", "", m.group("name").strip())
        if not m.group("value").strip():
            continue
        value = m.group("value").strip()
        number = _NUMBER.match(value) or _QUALITATIVE.match(value)
        result = number.group() if number else value
        unit = value[len(result):].strip() if number else None
        items.append(_item(name, result, unit, None, normalise_flag(m.group("flag"))))
    return items


def parse_inline(text: str) -> list[dict[str, Any]]:
    """Items written one after another in running text: ``WBC 12.5↑ 10^9/L，CRP 30↑ mg/L``."""
    items = []
    for piece in _INLINE_SEP.split(text):
        tokens = piece.split()
        if len(tokens) < 2:
            continue
        item = parse_row(tokens)
        if item and item["name"]:
            items.append(item)
    return items


def bracketed_panels(text: str) -> list[dict[str, Any]]:
    """Lab panels mentioned in running text after a bracketed name (``【血常规】 …``), with their items."""
    marks = list(_BRACKET_PANEL.finditer(text))
    panels = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        line_end = text.find("\n", m.end())
        if line_end >= 0 and not text[m.end() : line_end].strip():
            line_end = text.find("\n\n", m.end())  # the panel's rows are on the lines below its name
        end = min(end, line_end) if line_end >= 0 else end
        items = parse_inline(text[m.end() : end]) or [
            it for line in text[m.end() : end].splitlines() if (it := parse_row(split_cells(line) or line.split()))
        ]
        if items:
            panels.append({"panel": m.group("name"), "items": items})
    return panels


def results_metadata(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The metadata both hooks give: the items and the names of the abnormal ones."""
    if not items:
        return {}
    return {"items": items, "abnormal": [it["name"] for it in items if it["flag"]]}


def text_results(text: str) -> dict[str, Any]:
    """Lab results found in a medical record's section: LIS entries and bracketed panels."""
    panels = bracketed_panels(text)
    items = parse_lis(text) + [it for p in panels for it in p["items"]]
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
        if "检验详情" in line or _LIS_ENTRY.search(line):
            items += parse_lis(line)
            continue
        cells = split_cells(line) or line.split()
        if columns and "\t" in line and len(cells) < len(columns):
            cells += [""] * (len(columns) - len(cells))  # empty last cells, their tabs stripped with the line's end
        elif header and columns and len(cells) < len(columns):
            cells = aligned_cells(line, header) or cells
        item = parse_row(cells, columns)
        if item is None and columns:
            item = parse_row(line.split())
        if item:
            items.append(item)
    return items


_PANEL_LEVELS = ("lab.panel", "lab.caption", "lab.row_caption", "lab.group")  # levels whose label names the panel


HEADER_REACH = 30_000  # how far above a panel its export's column-header row is looked for


def header_above(text: str, end: int, v: Vocab) -> tuple[int, int, list[str]] | None:
    """The last column-header row before ``end`` (within HEADER_REACH): the one an export's panels share."""
    for a, b in reversed(_lines(text, max(0, end - HEADER_REACH), end)):
        columns = header_columns(text[a:b], v)
        if columns:
            return a, b, columns
    return None


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    text = doc.text
    meta: dict[str, Any] = {}
    if sec.unit is not None and sec.unit.level.id in _PANEL_LEVELS:
        meta["panel"] = sec.unit.label
    v = vocab(outline.rules)
    for m in v.header_field.finditer(text, sec.start, sec.end):
        meta.setdefault(v.field_of[m.group("key")], m.group("value"))
    # An export heads all its panels with one column-header row, above the first of them.
    head = header_row(text, sec.start, sec.end, v) or header_above(text, sec.start, v)
    body_from = max(start, head[1]) if head and head[0] >= start else start
    meta.update(results_metadata(table_items(text, body_from, end, head, v)))
    if head and not start <= head[0] < end:
        meta["context_prefix"] = text[head[0] : head[1]]  # a piece of a split panel repeats the column header
    return meta
