"""The outline engine shared by every document type.

It reads a rule file's levels and a document's text and builds an
:class:`Outline`: the heading lines that were accepted as boundaries, and the
:class:`Section` spans that become chunks. Everything is offsets into the
document text; nothing is sliced here.

Steps:
1. one combined regex pass finds the lines (and, for ``anchor: sentence``
   levels, the sentence starts; for ``anchor: field`` levels, the places right
   after a field's short value) where some level could open; lines inside a
   table of contents are skipped;
2. each candidate goes to the first level whose pattern matches it and whose
   ordering conditions hold (``after``, ``before``, ``follows``);
3. per level and region (``restart_at``), numbered candidates keep only the
   longest increasing run of numbers, so a cross-reference such as
   ``第十条规定的…`` that lands at a line start, out of sequence, is not an
   article; levels that do not apply in a region (``only_without``,
   ``yields_to``) give their lines to the next level that matches them;
4. headings open path elements and go with the next unit (``lead`` lines
   above a boundary join its section); each unit is a section; inner levels
   are split points for sections over the limit.
"""
from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

import regex

from .errors import RuleError
from .models import Block, Document
from .normalize import squash_whitespace
from .numerals import parse_number
from .rulefile import PATTERN_TIMEOUT, Level, RuleFile, Under, Variant, compile_pattern, expand
from .regexcache import read_entry, write_entry
from .stdre import STORE_ENTRIES, compile_safe, crosses_lines, first_characters, store_folder, store_key, translate
from .view import View, view_of

# Markdown marks are tolerated with or without a space after them (``##第一章总则`` after extraction).
# A page number that extraction glued to the start of a line (``12第二十五条``) is passed over,
# but only when the level does not match the line as it is (the lazy ``??``): ``1.`` stays a clause.
_INDENT = r"[ \t\u3000]*"
_GLUED_NUMBER = r"\d{1,4}(?![\d.．、,，:：;；)）\]】%/\s-])"
_MARKS = r"(?:#{1,6}(?!#)[ \t]*)?"
LINE_PREFIX = f"{_INDENT}(?:{_GLUED_NUMBER})??{_MARKS}"
_GLUED_START = regex.compile(_INDENT + _GLUED_NUMBER)
# A pattern may look this far past the end of its line (a signature block's next lines). The
# end position also bounds the regex module, which otherwise scans to the end of the text.
LOOKAHEAD = 400
_PREFIX = regex.compile(LINE_PREFIX)
# (stdlib ``re``: a class of literal characters means the same there, at a third of the regex
# module's cost per call, and it is asked once per candidate line)
_SENTENCE_END = re.compile(r"[。；;！？!?]")
# A standard titles its table of contents 目次 (GB/T 1.1—2020 8.2), a law 目录; a standard numbers
# the pages of its 前言 in Roman numerals (前言 …… Ⅱ).
_TOC_TITLE = regex.compile(r"(?m)^[ \t\u3000#]*目[ \t\u3000]*[录次][ \t\u3000]*$")
_TOC_LEADER = regex.compile(r"(?:[.．…·]{3,}|…+|\s{2,}|\t)\s*(?:\d+|[\u2160-\u216b]+|[IVXivx]+)\s*$")
HEADING_MAX = 40


@dataclass(frozen=True, slots=True)
class Heading:
    """A line accepted as a boundary of some level."""

    level: Level
    start: int  # line start (indentation included)
    content: int  # first character of the line's content
    end: int  # end of the line, before its newline
    label: str
    num: tuple[int, int] | None = None
    # The name of the level's variant that matched the line, taken from the engine's own match;
    # ``variant_known`` is False where the line was matched on another text (the tolerant view)
    # and the variant is left for ``Level.variant_at`` to find on this one.
    variant: str | None = None
    variant_known: bool = False
    # Where the heading's own words end inside its line, when a copy ran the line on into what it
    # heads (四、劳动报酬第八条 …): a unit that reads sentences may open there.
    glued: int | None = None


@dataclass(slots=True)
class Section:
    """A span of the document that becomes one chunk unless it is over the limit."""

    start: int
    end: int
    path: list[str]
    kind: str
    rule: str
    unit: Heading | None = None
    headings: list[Heading] = field(default_factory=list)


def _same_offset(pos: int) -> int:
    return pos


@dataclass(slots=True)
class Outline:
    text: str
    rules: RuleFile
    headings: list[Heading]
    sections: list[Section]
    inner: dict[str, list[int]]  # document-scope inner level id -> sorted line starts
    view: View | None = None  # the tolerant view the rules were matched on, when it is not the text itself

    def as_read(self) -> tuple[str, Callable[[int], int]]:
        """The text the rules were matched on, and where a document offset is in it: the view's,
        where a hard-wrapped line is joined to the one it was cut from, when there is one. What
        is read there is the same whatever the layout (a citation cut at a line end, a wrapped
        paragraph that is still one 款)."""
        if self.view is None:
            return self.text, _same_offset
        return self.view.text, self.view.to_view

    def cuts_within(self, start: int, end: int) -> list[tuple[str, list[int]]]:
        """Inner split points inside ``(start, end)``, one list per inner level, coarsest first."""
        levels = []
        for level in self.rules.levels:
            if level.role != "inner":
                continue
            if level.scope == "unit":
                rx = _line_regex(level)
                view = self.view
                if view is None:
                    found = rx.finditer(self.text, start, end, timeout=PATTERN_TIMEOUT)
                    starts = [m.start() for m in found if m.start() > start]
                else:  # a wrapped line is no paragraph start: cut where the view's lines start
                    found = rx.finditer(view.text, view.to_view(start), view.to_view(end), timeout=PATTERN_TIMEOUT)
                    starts = [p for p in (view.to_text(m.start()) for m in found) if start < p < end]
            else:
                found = self.inner[level.id]
                starts = found[bisect_left(found, start + 1) : bisect_left(found, end)]
            if starts:
                levels.append((level.id, starts))
        return levels


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, (len(text) if end < 0 else end)


def _document_levels(rules: RuleFile) -> list[Level]:
    return [lv for lv in rules.levels if lv.scope == "document"]


# Where a level with ``anchor: sentence`` may also open: right after a sentence end inside a line.
_SENTENCE_END_CHARS = "。！？"
SENTENCE_START = rf"(?<=[{_SENTENCE_END_CHARS}])[ \t\u3000]*"
# The places a sentence-anchored level may open: right after each sentence end (stdlib ``re``,
# which finds these characters far faster than the regex module tries a lookbehind at each one).
_SENTENCE_ENDS = re.compile(f"[{_SENTENCE_END_CHARS}]")
# Where a level with ``anchor: field`` may also open inside a line: right after the value of a field
# of its own (既往史：体健过敏史：无), as an EMR export or a copy that drops the line breaks runs the fields
# together. A field ended here when what stands before is a label the level opens, its colon and a
# value with no space, no colon and no sentence or clause mark, and a short one:
# one word (体健, 无, 不详, 已婚), a date, a number, at most FIELD_VALUE_MAX characters of which at most
# FIELD_VALUE_HAN_MAX are CJK. Words of a sentence have no colon before them (…，患者否认既往史：), a value
# that says something has its marks (…，心率80次/分), and a longer unmarked run after a colon is the
# sentence the label opens (现病史：患者否认既往史：…, 病例汇报：住院医师某某某汇报病史：…). What opens there is
# a label and its colon. (A subject of one word before a name, 现病史：患者主诉：…, reads as a value.)
FIELD_VALUE_MAX = 30
FIELD_VALUE_HAN_MAX = 3
FIELD_LABEL_MAX = 16
_HAN = re.compile(r"[\u3400-\u9fff]")
_VALUE_STOP = r"\s:：，,。；;、！？!?"
FIELD_START = rf"(?<=\p{{Han}}[:：][^{_VALUE_STOP}]{{1,{FIELD_VALUE_MAX}}})(?=[^{_VALUE_STOP}]{{1,{FIELD_LABEL_MAX}}}[:：])"
# A label's colon, then a value and the next label up to its colon, none of them holding a mark (stdlib
# ``re``: the field starts are tried only inside such a stretch, which most colons are not followed by).
_GLUED_FIELDS = re.compile(
    rf"(?<=[\u3400-\u9fff])[:：]([^{_VALUE_STOP}]{{2,{FIELD_VALUE_MAX + FIELD_LABEL_MAX}}})(?=[:：])")


def _combined(levels: list[Level]) -> regex.Pattern | None:
    """All levels in one alternation; group ``_cI`` holds what level I matched."""
    if not levels:
        return None
    return _combined_of(tuple(_lookbehinds_last(lv) for lv in levels))


_LOOKBEHINDS_LAST: dict[str, str] = {}


def _lookbehinds_last(level: Level) -> str:
    """The level's pattern for the regex module: its variants as :func:`_variant_last` writes them."""
    pattern = level.pattern
    if pattern not in _LOOKBEHINDS_LAST:
        if len(_LOOKBEHINDS_LAST) >= 512:
            _LOOKBEHINDS_LAST.clear()
        _LOOKBEHINDS_LAST[pattern] = "|".join(
            f"(?P<_v{i}>{_variant_last(v)})" for i, v in enumerate(level.variants)) or pattern
    return _LOOKBEHINDS_LAST[pattern]


_VARIANT_LAST: dict[str, str] = {}


def _variant_last(variant: Variant) -> str:
    """The variant's pattern with its lookbehinds (its not_after lines and after_blank_line, which
    it is written to start with) asked only where what it matches without them matches:
    ``(?=BODY)LOOKBEHINDS BODY`` matches where ``LOOKBEHINDS BODY`` does, the same text and groups
    (all three are tried at one place, the first two zero-width), but a place the body cannot open
    is given up at once instead of after the lookbehinds, which read the line above with a
    vocabulary at each of its characters (most of a lab report's scan on the regex module, and of
    a record's glued-field search)."""
    written = variant.expanded
    if written not in _VARIANT_LAST:
        checks = variant.lookbehinds
        if len(_VARIANT_LAST) >= 4096:
            _VARIANT_LAST.clear()
        body = written[len(checks):] if checks and written.startswith(checks) else written
        ordered = f"(?={body}){written}" if body is not written else written
        _VARIANT_LAST[written] = _next_line_first(body) + ordered
    return _VARIANT_LAST[written]


def _next_line_first(body: str) -> str:
    r"""A guard that asks a variant's condition on the lines below first: for a body written as
    ``HEAD$(?=TAIL)`` whose HEAD consumes no line end, ``(?=[^\n]*$(?=TAIL))``, else nothing.
    Such a HEAD can reach ``$`` only at the end of the line it starts on, so TAIL is asked there
    in both, and the guard refuses exactly the lines whose next lines refuse the variant: a
    caption's opening lookaheads (``(?!.*(?:vocabulary…)…)``, read at each of the line's
    characters) are then read only above a line the caption's table could follow."""
    tail = _final_lookahead(body) if body.startswith(_READS_ITS_LINE) else None
    if tail is None:
        return ""
    head = body[: tail[0]]
    if not head.endswith("$") or head.endswith("\\$"):
        return ""
    source = translate(expand(head[:-1]), [])
    if source is None or crosses_lines(source) or _BACKREFERENCE.search(body):
        return ""  # (a back-reference in TAIL would read a group the guard has not set)
    return f"(?=[^\\n]*$(?={body[tail[1]:-1]}))"


# A body that opens so reads the rest of its line at each character before it can refuse one.
_READS_ITS_LINE = ("(?!.*", "(?=.*")
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=|\\g<")


def _final_lookahead(pattern: str) -> tuple[int, int] | None:
    """Where the pattern's last item is a lookahead ``(?=…)`` at its top level, with no top-level
    ``|`` before it: that lookahead's start and the start of its body; None otherwise."""
    depth, i, n, opened = 0, 0, len(pattern), -1
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if pattern.startswith("^", i + 1):
                i += 1
            if pattern.startswith("]", i + 1):  # a leading ] is a literal
                i += 1
        elif c == "(":
            if depth == 0:
                opened = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and i == n - 1 and pattern.startswith("(?=", opened):
                return opened, opened + 3
        elif c == "|" and depth == 0:
            return None
        i += 1
    return None


# The scan's patterns are compiled once per set of levels: writing one out (its placeholders
# expanded) and finding it in the regex module's cache cost milliseconds a document, the whole
# scan of a short one.
@lru_cache(maxsize=64)
def _combined_of(patterns: tuple[str, ...]) -> regex.Pattern:
    return regex.compile(f"^{LINE_PREFIX}(?:{_alternation(patterns)})", regex.MULTILINE | regex.VERSION0)


def _alternation(patterns: tuple[str, ...]) -> str:
    return "|".join(f"(?P<_c{i}>{expand(pattern)})" for i, pattern in enumerate(patterns))


def _glued_combined(levels: list[Level]) -> regex.Pattern:
    """The combined pattern with a glued page number passed over: what the levels match past it."""
    return _glued_of(tuple(lv.pattern for lv in levels))


@lru_cache(maxsize=64)
def _glued_of(patterns: tuple[str, ...]) -> regex.Pattern:
    return regex.compile(f"{_INDENT}{_GLUED_NUMBER}{_MARKS}(?:{_alternation(patterns)})", regex.VERSION0)


def _sentence_combined(levels: list[Level]) -> regex.Pattern | None:
    """Sentence starts inside a line where an ``anchor: sentence`` level could open (zero-width matches)."""
    return _sentence_of(tuple(lv.pattern for lv in levels if lv.anchor == "sentence"))


@lru_cache(maxsize=64)
def _sentence_of(patterns: tuple[str, ...]) -> regex.Pattern | None:
    body = "|".join(f"(?:{expand(pattern)})" for pattern in patterns)
    return regex.compile(f"(?<=[{_SENTENCE_END_CHARS}])(?={SENTENCE_START}(?:{body}))", regex.VERSION0) if body else None


@lru_cache(maxsize=64)
def _group_numbers(rx: regex.Pattern, count: int) -> tuple[int, ...]:
    """The numbers of groups ``_c0`` … in ``rx`` (its ``groupindex`` is a new dict at each look)."""
    return tuple(rx.groupindex[f"_c{i}"] for i in range(count))


def _line_regex(level: Level) -> regex.Pattern:
    return _compile_line(level.pattern, level.anchor)


def _variant_regexes(level: Level, anchor: str) -> list[regex.Pattern]:
    """Each of the level's variants compiled on its own (a legacy level: its one pattern)."""
    return [_compile_line(_variant_last(v), anchor) for v in level.variants] or [_compile_line(level.pattern, anchor)]


@lru_cache(maxsize=512)
def _compile_line(pattern: str, anchor: str = "line") -> regex.Pattern:
    """``anchor`` ``glued``: the pattern at the place it is tried, right after a heading's words."""
    start = {"sentence": f"(?:^{LINE_PREFIX}|{SENTENCE_START})", "field": f"(?:^{LINE_PREFIX}|{FIELD_START})",
             "glued": ""}.get(anchor, f"^{LINE_PREFIX}")
    return regex.compile(f"{start}(?P<_all>{expand(pattern)})", regex.MULTILINE | regex.VERSION0)


def _collapse(s: str) -> str:
    """One space between words; a letter-spaced heading (主  诉, 附　则) is written solid."""
    words = s.split()
    if len(words) > 1 and all(len(w) == 1 for w in words):
        return "".join(words)
    return " ".join(words)


# Whitespace around a label's number is a layout accident (第 一 条, 第一百二十八 条): that part
# of the label is written solid.
_NUMBER_TAIL = regex.compile(r"\s*\S?")


def _solid_number(m: regex.Match) -> str | None:
    """The label token with the whitespace before, inside and right after its ``num`` written solid
    (the caller knows the level's pattern has both groups)."""
    if m.start("num") < 0 or m.start("label") < 0:
        return None
    a, b = m.span("label")
    n = m.end("num")
    if not a <= n <= b:
        return None
    text = m.string
    tail = _NUMBER_TAIL.match(text, n, b).end()
    return squash_whitespace(text[a:tail]) + text[tail:b]


@dataclass(frozen=True, slots=True)
class _Groups:
    """Which of the named groups ``label``, ``num``, ``sub`` a level's own pattern defines: in the
    combined pattern every name exists once any level has it, so the level's own set decides."""

    label: bool
    num: bool
    sub: bool


@lru_cache(maxsize=512)
def _groups_of(pattern: str, anchor: str) -> _Groups:
    names = _compile_line(pattern, anchor).groupindex
    return _Groups("label" in names, "num" in names, "sub" in names)


def _variant_of(level: Level, m: regex.Match) -> str | None:
    """The first of the level's variants whose group ``_vI`` took part in ``m``, as ``Level.variant_at`` tells."""
    if type(m) is _Renamed and m.variant is not _PROBE:
        return m.variant  # the scan knows which alternative matched: no probes
    variants = level.variants
    # One probe per variant up to the one that matched (most often the first), not all of them.
    for i, name in enumerate(_variant_groups(len(variants))):
        if m.start(name) >= 0:
            return variants[i].name
    return None


_PROBE: Any = object()  # a stdlib match whose variant :func:`_variant_of` must find by its groups


@lru_cache(maxsize=64)
def _variant_groups(count: int) -> tuple[str, ...]:
    return tuple(f"_v{i}" for i in range(count))


def _label(level: Level, m: regex.Match, line: str, groups: _Groups, whole: str | int) -> str:
    """The heading's label; ``whole`` names the group holding all the level matched."""
    if level.label == "fixed":
        return level.fixed_label or ""
    if level.label == "line":
        return _collapse(line)
    if level.label == "heading" and reads_as_heading(line):
        return _collapse(line)
    label = m.group("label") if groups.label else None
    if label and _SPACE.search(label) is None:
        return label  # nothing to write solid or collapse: what _solid_number and _collapse give
    token = label or m.group(whole)
    solid = _solid_number(m) if groups.label and groups.num else None
    return _collapse(solid or token)


_SPACE = re.compile(r"\s")  # what squash_whitespace and str.split take as whitespace


def reads_as_heading(line: str) -> bool:
    """Short and without a sentence end: a line that heads text rather than saying something."""
    return len(line) <= HEADING_MAX and not _SENTENCE_END.search(line)


def _number(m: regex.Match, groups: _Groups) -> tuple[int, int] | None:
    raw = m.group("num") if groups.num else None
    num = _solid_value(raw) if raw else None
    if num is None:
        return None
    raw = m.group("sub") if groups.sub else None
    sub = _solid_value(raw) if raw else 0
    return num, sub or 0


@lru_cache(maxsize=4096)
def _solid_value(raw: str) -> int | None:
    """The number a ``num`` group wrote, whitespace inside it left out (the same few per document)."""
    return parse_number(squash_whitespace(raw))


def toc_spans(doc: Document) -> list[tuple[int, int]]:
    """Tables of contents: their lines look exactly like headings, so they are skipped.

    A 目录 title opens one; it ends where its first entry appears again as a
    real heading. Readers may also mark TOC blocks (``style="toc"``).
    """
    text = doc.text
    spans = [(b.start, b.end) for b in doc.blocks if b.style == "toc"]
    for m in _TOC_TITLE.finditer(text):
        first = None
        pos = m.end()
        while pos < len(text):
            ls, pos = _line_bounds(text, pos + 1)
            entry = _collapse(_TOC_LEADER.sub("", _PREFIX.sub("", text[ls:pos], count=1)))
            if entry:
                first = entry
                break
        if first is None:
            continue
        end = len(text)
        heading_again = r"(?m)^" + LINE_PREFIX + regex.escape(first).replace(r"\ ", r"\s*") + r"\s*$"
        for again in regex.finditer(heading_again, text, pos=pos):
            end = again.start()
            break
        else:
            # No repeated entry: the TOC is the run of lines with dot leaders and page numbers.
            end = pos
            for line in regex.finditer(r"(?m)^.*$", text, pos=pos + 1):
                if line.group().strip() and not _TOC_LEADER.search(line.group()):
                    break
                end = line.end()
        spans.append((m.start(), end))
    return sorted(spans)


# A table of contents without a 目录 title: at least this many heading lines in a row, with
# nothing but blank lines between them, and then the first of them again, where the body starts.
_TOC_RUN = 3


def _heading_runs(text: str, starts: list[int]) -> list[tuple[int, int]]:
    """Untitled tables of contents: in a run of short candidate lines with no text between them,
    from the run's first line to where that line appears again in the same run (the body's
    first heading, right after the last entry). A later copy of the same headings with text
    between them (a second law in the file) is not a table of contents."""
    spans = []
    size = len(text)
    ends = [size if (end := text.find("\n", pos)) < 0 else end for pos in starts]
    short = [reads_as_heading(text[pos:end].strip()) for pos, end in zip(starts, ends)]
    i = 0
    while i < len(starts):
        j = i
        while j + 1 < len(starts) and short[j] and short[j + 1] and not text[ends[j] : starts[j + 1]].strip():
            j += 1
        if j - i + 1 > _TOC_RUN:
            keys = [squash_whitespace(_PREFIX.sub("", text[starts[k] : ends[k]], count=1)) for k in range(i, j + 1)]
            again = next((k for k in range(_TOC_RUN, len(keys)) if keys[k] == keys[0]), None)
            if again is not None:
                spans.append((starts[i], starts[i + again]))
        i = j + 1
    return spans


class _BlockStarts:
    """A document's reader blocks ordered by start, sorted at the first line a level with
    ``blocks:`` asks about: each such line looks up the blocks starting on it by binary search,
    where walking every block of a long document per line was quadratic (issue 13)."""

    __slots__ = ("_blocks", "_starts")

    def __init__(self, blocks: list[Block]) -> None:
        self._blocks = blocks
        self._starts: list[int] | None = None

    def opens(self, kinds: list[str], start: int, content: int) -> bool:
        """The line opens a block of one of ``kinds`` (a block kind such as heading, or a style
        such as bold): some block starts between the line's start and its content."""
        if self._starts is None:
            self._blocks = sorted(self._blocks, key=lambda b: b.start)
            self._starts = [b.start for b in self._blocks]
        first, last = bisect_left(self._starts, start), bisect_right(self._starts, content)
        return any(b.kind in kinds or b.style in kinds for b in self._blocks[first:last])


def _outside_spans(positions: Iterable[tuple[int, Any]], spans: list[tuple[int, int]]) -> list[Any]:
    """The items of ``positions`` ``(pos, item)`` (in increasing ``pos``) that no span holds:
    one walk along both, the spans sorted by start (they may overlap)."""
    spans = sorted(spans)
    out, k, reach = [], 0, -1  # reach: the furthest end of the spans starting at or before pos
    for pos, item in positions:
        while k < len(spans) and spans[k][0] <= pos:
            reach = max(reach, spans[k][1])
            k += 1
        if pos >= reach:
            out.append(item)
    return out


_ENDS_PARAGRAPH = regex.compile(r"(?:[。；;！？!?：:”」』]|\n[ \t\u3000]*)[ \t\u3000]*\n[ \t\u3000]*$")


def _longest_increasing(heads: list[Heading], text: str) -> list[Heading]:
    """Per numbering run, the longest strictly increasing sequence; unnumbered headings are kept.

    A candidate numbered 1 that opens a paragraph (after a blank line or a finished
    sentence) starts a new run (a second law in the same file, an annex that numbers
    again), so one run's numbers never veto another's; a wrapped ``…参照\n第一条``
    does not.
    """
    runs: list[list[Heading]] = [[]]
    for h in heads:
        if h.num == (1, 0) and runs[-1] and _ENDS_PARAGRAPH.search(text, max(0, h.start - 200), h.start):
            runs.append([])
        runs[-1].append(h)
    if len(runs) == 1:
        return _increasing_run(heads)
    return [h for run in runs for h in _increasing_run(run)]


def _increasing_run(heads: list[Heading]) -> list[Heading]:
    numbered = [h for h in heads if h.num is not None]
    if len(numbered) < 2:
        return heads
    tails: list[tuple[int, int]] = []
    tail_idx: list[int] = []
    prev = [-1] * len(numbered)
    for i, h in enumerate(numbered):
        num = h.num
        assert num is not None  # numbered holds only these
        k = bisect_left(tails, num)
        if k == len(tails):
            tails.append(num)
            tail_idx.append(i)
        else:
            tails[k] = num
            tail_idx[k] = i
        prev[i] = tail_idx[k - 1] if k else -1
    keep = set()
    i = tail_idx[-1]
    while i >= 0:
        keep.add(id(numbered[i]))
        i = prev[i]
    return [h for h in heads if h.num is None or id(h) in keep]


def find_headings(doc: Document, rules: RuleFile) -> tuple[list[Heading], list[tuple[int, int]]]:
    """The accepted boundary lines, and the tables of contents they were not looked for in."""
    try:
        return _find_headings(doc, rules)
    except TimeoutError:
        raise RuleError(doc.source, f"{_slow_level(doc.text, rules)} timed out: its pattern backtracks too much") from None


def _slow_level(text: str, rules: RuleFile) -> str:
    """Name the rule whose pattern times out, for the error message."""
    for level in _document_levels(rules):
        try:
            for _ in _line_regex(level).finditer(text, timeout=PATTERN_TIMEOUT):
                pass
        except TimeoutError:
            return f"rule {level.id} in {rules.path or rules.id}"
    return f"a pattern in {rules.path or rules.id}"


# A place some level could open: (position, is a line start, first level to try, the combined
# pass's match there and the index of the level it matched, or None and -1 at a sentence start).
Candidate = tuple[int, bool, int, "regex.Match | None", int]


def _candidates(doc: Document, levels: list[Level], clean: dict[int, bool] | None = None
                ) -> tuple[list[Candidate], list[tuple[int, int]]]:
    """Positions where some level could open, in order, and the tables of contents (titled or not)
    that were left out.

    At a line start the levels before the one the combined pass matched cannot
    match (one regex pass instead of one per level and line), except levels whose
    own pattern begins with ``#``, which the Markdown prefix may have hidden. A line
    that starts with digits is also matched past them: a catch-all level may take
    ``2如不服…`` as written, while an earlier level matches once the glued page
    number is passed over, and each level tries both.

    The level the combined pass matched keeps that match: its group ``_cI`` is what the
    level's own line pattern would match there, so the line is not matched again for it.
    (``clean``: see :func:`_derived_match`.)
    """
    text = doc.text
    clean = {} if clean is None else clean
    toc = toc_spans(doc)
    hashed = any(lv.pattern.startswith(("#", "\\#")) for lv in levels)
    key = tuple(lv.pattern for lv in levels)
    found: dict[int, Candidate] = {}
    if not levels:  # nothing can open
        return [], toc
    for m, matched in _line_matches(text, levels):
        first = 0 if hashed else matched
        pos = m.start()
        # A line that opens with a letter (第, 一 …) opens with neither indentation nor a digit in
        # any Unicode version: no glued page number, and no regex call to say so.
        if first and not text[pos].isalpha() and _GLUED_START.match(text, pos):
            # the levels past the page number: on the stdlib scan's, once the process has it
            scan = _SCANS.get(key)
            past = _UNDECIDED if scan is None else _derived_match(
                _derived(scan, levels, ("glued",)), text, pos, len(text), clean)
            if past is _UNDECIDED:
                glued = _glued_combined(levels)  # compiled at the first line that starts with digits
                exact = glued.match(text, pos, timeout=PATTERN_TIMEOUT)
                past = None if exact is None else (exact, _which(exact, _group_numbers(glued, len(levels))))
            if past is not None:
                first = min(first, past[1])
        found[pos] = (pos, True, first, m, matched)
    toc = sorted(toc + _heading_runs(text, list(found)))
    sentence = _sentence_combined(levels)
    if sentence is not None:
        # The pattern is zero-width right after a sentence end, so it is tried only there (what
        # ``finditer`` finds, without trying the lookbehind and the levels at every character).
        # Where the levels' line scan runs on stdlib ``re``, so does this (bought with it).
        scan = _SCANS.get(tuple(lv.pattern for lv in levels))
        fast = scan.sentence if scan is not None else None
        if fast is not None and fast.long_run is not None and fast.long_run.search(text):
            fast = None
        for end in _SENTENCE_ENDS.finditer(text):
            pos = end.end()
            first = 0
            if fast is None:
                opens = sentence.match(text, pos, timeout=PATTERN_TIMEOUT) is not None
            else:
                m = fast.rx.match(text, pos)
                if m is None:
                    continue
                k = next(k for k, g in enumerate(fast.groups) if m.start(g) >= 0)
                opens = (fast.groups[k] not in fast.on_regex
                         or sentence.match(text, pos, timeout=PATTERN_TIMEOUT) is not None)
                # The alternatives before the one that matched failed here, each as wide as its
                # variant or wider: with no space after the sentence end to start them elsewhere,
                # the levels they belong to cannot open here, and are not tried again.
                if text[pos] not in " \t\u3000":
                    first = fast.levels[k]
            if opens:
                found.setdefault(pos, (pos, False, first, None, -1))
    fields = [i for i, lv in enumerate(levels) if lv.anchor == "field"]
    if fields:
        # Tried variant by variant: whether a level opens at a place is whether one of its variants
        # does, and each variant alone is matched several times faster than their alternation. At the
        # places _field_starts tries, the field anchor's own condition holds by construction, so the
        # variants are matched in place there too.
        for pos in _field_starts(text, [rx for i in fields for rx in _variant_regexes(levels[i], "glued")]):
            found.setdefault(pos, (pos, False, fields[0], None, -1))
    cands = [found[pos] for pos in sorted(found)]
    if toc:
        cands = _outside_spans(((c[0], c) for c in cands), toc)
    return cands, toc


_LABEL_BOUNDARY = set(" \t\u3000\n:：，,。；;、！？!?")


def _field_starts(text: str, variants: list[regex.Pattern]) -> list[int]:
    """The places inside a line, right after a field's value, where one of the field-anchored
    levels' ``variants`` (each matched in place) opens, the field before being one that one of
    them opens too."""
    found: list[int] = []
    opens = _first_of(tuple(rx.pattern for rx in variants)).match
    for stretch in _GLUED_FIELDS.finditer(text):
        value, label_end = stretch.start(1), stretch.end(1)
        # The field before is one of these levels' own (a section that held one value: 既往史：体健): a
        # header's or a form's field (就诊日期：…, 血压：…mmHg) is followed by the next one on its line, a gap
        # between them or none (a text without spaces), and no level opens there after a gap either.
        # Its label starts at the mark, gap or line start before it, or where a glued label was found.
        k = value - 1
        while k > 0 and text[k - 1] not in _LABEL_BOUNDARY and (not found or found[-1] < k):
            k -= 1
        if not opens(text, k) or not any(rx.match(text, k, label_end, timeout=PATTERN_TIMEOUT) for rx in variants):
            continue
        end = min(len(text), label_end + LOOKAHEAD)
        # the longest label first: the value is at least one character, and at most FIELD_VALUE_MAX
        for pos in range(max(value + 1, label_end - FIELD_LABEL_MAX), min(label_end, value + FIELD_VALUE_MAX + 1)):
            if len(_HAN.findall(text, value, pos)) > FIELD_VALUE_HAN_MAX:
                break
            if opens(text, pos) and any(rx.match(text, pos, end, timeout=PATTERN_TIMEOUT) for rx in variants):
                found.append(pos)
                break
    return found


_ANY_START = re.compile("(?s:.)")


@lru_cache(maxsize=64)
def _first_of(patterns: tuple[str, ...]) -> re.Pattern:
    """The characters some of ``patterns`` (regex module, placeholders expanded) can start with,
    as a stdlib class matched at a place: a place the class refuses, none of them opens at, so
    they are not tried there one by one. Any character where one of them does not tell."""
    classes: list[str] = []
    for pattern in patterns:
        source = translate(pattern, [])
        first = None if source is None else first_characters(source)
        if first is None:
            return _ANY_START
        classes.append(first)
    return re.compile("|".join(classes)) if classes else _ANY_START


def _line_matches(text: str, levels: list[Level]) -> Iterable[tuple[regex.Match | _Renamed, int]]:
    """What the levels' combined pattern finds in ``text``, each match with the index of its level:
    on the stdlib scan where the levels compile to one, on the regex module where they do not (the
    regex pattern is compiled only then, or at the first line whose lookbehinds refuse a variant)."""
    key = tuple(lv.pattern for lv in levels)
    scan = _scan_when_it_pays(key, levels, len(text))
    if scan is None or scan.long_run is not None and scan.long_run.search(text):
        combined = _combined(levels)
        assert combined is not None  # _candidates returns before this when there are no levels
        # One call for all ``_cI`` groups: probing them one by one by name cost more than the scan.
        # (The regex module's ``lastindex`` can name a group inside a lookahead, so it cannot tell.)
        groups = _group_numbers(combined, len(levels))
        # All matches at once: the regex module's timeout runs from the scan's start, so what the
        # caller does between matches (building a pattern it meets first) must not count to it.
        began = _clock()
        found = list(combined.finditer(text, timeout=PATTERN_TIMEOUT))
        _paid(key, _clock() - began, len(text))
        for m in found:
            yield m, _which(m, groups)
        return
    search = scan.rx.search
    pos, size = 0, len(text)
    while pos <= size:
        m = search(text, pos)
        if m is None:
            return
        read = _dispatched(scan, m)
        # Where the variant's lookbehinds (left out of the scan) refuse it, the regex pattern
        # decides the line (a later variant or level may take it).
        if read is _UNDECIDED:
            combined = _combined(levels)
            assert combined is not None
            exact = combined.match(text, m.start(), timeout=PATTERN_TIMEOUT)
            if exact is None:
                pos = m.start() + 1
                continue
            yield exact, _which(exact, _group_numbers(combined, len(levels)))
            pos = exact.end()
            continue
        yield read
        pos = m.end()


_UNDECIDED: Any = object()  # the scan matched through an alternative whose left-out lookbehinds refuse it


def _dispatched(scan: _Scan, m: re.Match) -> tuple[_Renamed, int] | Any:
    """A match of ``scan`` read as the level and variant it went through (``lastindex`` names the
    level's group), or _UNDECIDED where that variant's lookbehinds, which the scan leaves out,
    refuse it there: the pattern as written decides such a place."""
    i = scan.level_at.get(m.lastindex or 0)  # group 0 is no level's
    if i is None:  # a level's last group need not close last on every path: probe them in order
        i = next(i for g, i in scan.level_at.items() if m.start(g) >= 0)
    alts = scan.alts[i]
    for k, (group, names, checks) in enumerate(alts):
        if m.start(group) >= 0:
            break
    if checks is not None and checks.match(m.string, m.start(group), timeout=PATTERN_TIMEOUT) is None:
        return _UNDECIDED
    return _Renamed(m, names, scan.variants[i][k]), i


class _Renamed:
    """A stdlib match read by the group names of the variant it matched (``label``, ``num``,
    ``_v0`` …, ``_cI``), which the stdlib pattern gives each alternative under a name of its own."""

    __slots__ = ("_m", "_names", "string", "variant")

    def __init__(self, m: re.Match, names: dict[str, int], variant: Any = None) -> None:
        # ``variant``: the name of the variant the scan matched through (None: the level has
        # none), known where the scan was built, or _PROBE
        self._m, self._names, self.string, self.variant = m, names, m.string, variant

    def start(self, name: str | int = 0) -> int:
        g = name if isinstance(name, int) else self._names.get(name)
        return -1 if g is None else self._m.start(g)

    def end(self, name: str | int = 0) -> int:
        g = name if isinstance(name, int) else self._names.get(name)
        return -1 if g is None else self._m.end(g)

    def span(self, name: str | int = 0) -> tuple[int, int]:
        g = name if isinstance(name, int) else self._names.get(name)
        return (-1, -1) if g is None else self._m.span(g)

    def group(self, name: str | int = 0) -> str | None:
        g = name if isinstance(name, int) else self._names.get(name)
        return None if g is None else self._m.group(g)


class _Check:
    """A variant's lookbehinds (its ``not_after`` lines and ``after_blank_line``), which the scan
    leaves out, checked where it matched: on the lines above, each ``not_after`` pattern on
    stdlib ``re`` where it translates, stays inside its line and passes the safety check; else
    on the regex module, compiled at the first line that needs them (a type's levels hold a few
    long ones, and compiling them all was most of building a scan whose stdlib pattern is stored)."""

    __slots__ = ("source", "_rx", "_lines", "_above", "_after_blank")

    def __init__(self, source: str, variant: Variant | None = None) -> None:
        self.source = source
        self._rx: regex.Pattern | None = None
        # each not_after's pattern and whether blank lines may stand between, compiled at the
        # first line asked about (parsing them is most of what a check costs to build)
        self._lines = None if variant is None else tuple((na.expanded, na.blank_lines) for na in variant.not_after)
        self._above: tuple[tuple[re.Pattern, re.Pattern | None, bool], ...] | None = None
        self._after_blank = variant is not None and variant.after_blank_line

    def match(self, text: str, pos: int, timeout: float) -> object | None:
        """Something (not None) where the lookbehinds hold at ``pos``, None where they refuse."""
        if self._above is None and self._lines is not None:
            self._above = _lines_above(self._lines)
            if self._above is None:
                self._lines = None  # on the regex module
        told = None if self._above is None else self._holds(text, pos)
        if told is None:
            rx = self._rx
            if rx is None:
                rx = self._rx = compile_pattern(self.source, regex.MULTILINE)
            return rx.match(text, pos, timeout=timeout)
        return True if told else None

    def _holds(self, text: str, pos: int) -> bool | None:
        """What the lookbehinds ``_ABOVE`` and ``_AFTER_BLANK`` (rulefile) say, line by line: the
        text before ``pos`` on its line is spacing, the line above is blank (after_blank_line), and
        no line above (the one right above, or past blank lines where allowed) is a ``not_after``
        line: spacing and # marks, the pattern, spacing, and nothing else. None: a line above holds
        a long run two runs of a pattern share, which the regex module decides."""
        ls = text.rfind("\n", 0, pos) + 1
        spacing = not text[ls:pos].strip(_SPACING)
        if self._after_blank:
            if not spacing or ls == 0:
                return False
            above = text.rfind("\n", 0, ls - 1) + 1
            if above == 0 or text[above : ls - 1].strip(_SPACING):
                return False
        if not spacing:
            return True  # no not_after lookbehind can match across what stands before pos
        for rx, long_run, blank_lines in self._above or ():
            end = ls - 1
            while end >= 0:
                start = text.rfind("\n", 0, end) + 1
                if long_run is not None and long_run.search(text, start, end):
                    return None
                if rx.fullmatch(text, start, end):
                    return False
                if not blank_lines or text[start:end].strip(_SPACING):
                    break
                end = start - 1
        return True


_SPACING = " \t\u3000"  # the class [ \t\u3000] the lookbehinds allow around a line's words


@lru_cache(maxsize=512)
def _lines_above(lines: tuple[tuple[str, bool], ...]) -> tuple[tuple[re.Pattern, re.Pattern | None, bool], ...] | None:
    """Per ``not_after`` of a variant (``lines``: its pattern, blank lines allowed): its whole line
    on stdlib ``re`` (as ``_ABOVE`` writes it, up to the line end), the long run that sends a line
    to the regex module, and whether blank lines may stand between. None where one of them must
    stay on the regex module: it does not translate, may cross a line end or look past it (the
    line is matched alone: a lookahead that reads no line end sees the line's end there as it saw
    the line break, ``(?![0-9.])`` after a clause number), or does not pass the safety check."""
    out = []
    for pattern, blank_lines in lines:
        body = translate(expand(pattern), [])
        if body is None or crosses_lines(body, lookaheads=True):
            return None
        compiled = compile_safe(f"^[ \t\u3000#]*(?:{body})[ \t\u3000]*", re.MULTILINE)
        if compiled is None:
            return None
        out.append((compiled[0], compiled[1], blank_lines))
    return tuple(out)


# One alternative of a level in the scan: the group that took part when it matched, its group
# names -> their numbers in the scan, and the lookbehinds left out of it (None: none).
_Alternative = tuple[int, dict[str, int], "_Check | regex.Pattern | None"]
# The check of an alternative whose pattern holds lookbehinds of variable width: the scan left
# them out, and no check at the alternative's start can stand for them, so the regex pattern
# decides every line the alternative matches (a never-matching check sends it there).
_DECIDED_ON_REGEX = regex.compile("(?!)")


@dataclass(frozen=True, slots=True)
class _Scan:
    """The levels' combined line pattern on stdlib ``re``."""

    rx: re.Pattern
    level_at: dict[int, int]  # the number of group _cI -> I (a match's ``lastindex``: _cI closes last)
    alts: tuple[tuple[_Alternative, ...], ...]  # per level: its variants (or its one legacy pattern), in order
    # per level and alternative: what :func:`_variant_of` answers for a match through it, or _PROBE
    # where a group of the variant's own is named like the variant groups (it must look)
    variants: tuple[tuple[object, ...], ...]
    long_run: re.Pattern | None  # a run of characters two runs of the pattern share: a text with one stays on regex
    sentence: _SentenceScan | None  # the sentence-anchored levels' pattern, where they have one on re
    # The scans made of the same alternatives for the engine's other questions, built at the first
    # one asked (see :func:`_derived`): one level's line pattern, the levels past a glued page
    # number, one level's variants at a boundary's content. None: that one does not compile.
    derived: dict[tuple[Any, ...], _Scan | None] = field(default_factory=dict)


_SCANS: dict[tuple[str, ...], _Scan | None] = {}
_SCANS_MAX = 64
# sre compiles in Python, about 8–16 µs per character of the levels' patterns (0.15 s for the
# contract or medical levels, 0.02 s for statutes); the scan then takes half to a quarter of the
# regex module's time. So a process rents before it buys: a set of levels stays on the regex
# module until what its scans there took, with what this text is expected to take, reaches what
# building is expected to cost (never more than twice the better choice). The rate of a set of
# levels is its own, measured; before it has one, the cheapest measured (statutes', ~130 ns a
# character) stands in, so a big document builds at once and a one-off small one never does.
# Once some process has built a set of levels' scan, its stdlib patterns are on disk (see
# stdre.STORE) and building is mostly reading them (20-27 ms for the contract levels, where
# compiling took 300-450 ms), which costs a new process less than renting does: renting also
# compiles the levels' combined pattern on the regex module, which the stdlib scan leaves to the
# few lines it cannot decide. So a stored scan is bought at once (a new process's first call,
# measured by ``benchmarks/text_stages.py --fresh``: 9-15 % less CPU for contracts, judgments and
# medical records, the same for statutes and lab reports; renting a scan nobody stored still
# saves 1.6-1.8x on the first call of those three).
STDLIB_SECONDS_PER_CHAR = 10e-6  # building, per character of the levels' patterns
REGEX_SECONDS_PER_CHAR = 100e-9  # scanning on the regex module, per character of text
_RENT: dict[tuple[str, ...], tuple[float, int]] = {}  # seconds the regex scans took, characters they scanned
_STORED: dict[tuple[str, ...], bool] = {}  # whether a process has stored the levels' scan, looked up once
_clock = time.perf_counter


def _scan_when_it_pays(key: tuple[str, ...], levels: list[Level], size: int) -> _Scan | None:
    """The stdlib scan of ``levels`` (their patterns ``key``) once built, stored by an earlier
    process, or once scanning ``size`` more characters on the regex module would cost what
    building does; None until then (and where the levels have none)."""
    if key not in _SCANS and not _stored(key):
        spent, chars = _RENT.get(key, (0.0, 0))
        rate = spent / chars if chars else REGEX_SECONDS_PER_CHAR
        if spent + size * rate < STDLIB_SECONDS_PER_CHAR * sum(map(len, key)):
            return None
    return _stdlib_scan(levels)


def _scan_mark(key: tuple[str, ...]) -> tuple[Any, str] | None:
    """Where the mark that a process stored the scan of ``key`` goes (None: no store)."""
    folder = store_folder()
    return None if folder is None else (folder, store_key("scan", *key))


def _stored(key: tuple[str, ...]) -> bool:
    if key not in _STORED:
        if len(_STORED) >= _SCANS_MAX:
            _STORED.clear()
        mark = _scan_mark(key)
        _STORED[key] = mark is not None and read_entry(*mark) is True
    return _STORED[key]


def _paid(key: tuple[str, ...], seconds: float, chars: int) -> None:
    """Count a scan on the regex module towards building the stdlib one."""
    if key in _SCANS:
        return
    if len(_RENT) >= _SCANS_MAX:
        _RENT.clear()
    spent, scanned = _RENT.get(key, (0.0, 0))
    _RENT[key] = (spent + seconds, scanned + chars)


def _stdlib_scan(levels: list[Level]) -> _Scan | None:
    """The combined pattern on stdlib ``re``, compiled once per set of levels; None where some
    level does not translate exactly or the static check cannot rule out runaway backtracking."""
    key = tuple(lv.pattern for lv in levels)
    if key not in _SCANS:
        if len(_SCANS) >= _SCANS_MAX:
            _SCANS.clear()
        _SCANS[key] = _build_scan(levels)
        if _SCANS[key] is not None and not _stored(key) and (mark := _scan_mark(key)) is not None:
            write_entry(*mark, True, STORE_ENTRIES)
            _STORED[key] = True
    return _SCANS[key]


_LINE_START = f"^{LINE_PREFIX}"


def _build_scan(levels: list[Level], start: str = _LINE_START, flags: int = re.MULTILINE,
                sentence: bool = True) -> _Scan | None:
    """The levels' alternatives in one stdlib pattern, each after ``start`` (the line prefix, by
    default), compiled with ``flags``; the sentence-anchored levels' scan too, if ``sentence``."""
    prefix = translate(expand(start), [])
    if prefix is None:
        return None
    parts: list[str] = []
    # per level, per alternative: (its group's name, its groups' old names by new name, lookbehinds)
    layout: list[list[tuple[str, dict[str, str], _Check | None]]] = []
    for i, lv in enumerate(levels):
        alternatives = [(v.expanded, v.lookbehinds) for v in lv.variants] or [(lv.pattern, "")]
        bodies = []
        layout.append([])
        for k, (pattern, checks) in enumerate(alternatives):
            old: list[str] = []
            # Variable-width lookbehinds stay out of the scan; the engine checks them where the variant matched.
            body = translate(expand(pattern[len(checks):]), old, f"_c{i}_{k}_g")
            if body is None or len(set(old)) < len(old):
                return None  # not the same on re, or a name twice in one variant
            group = f"_c{i}_v{k}" if lv.variants else f"_c{i}"
            names = {f"_c{i}_{k}_g{n}": name for n, name in enumerate(old)} | ({group: f"_v{k}"} if lv.variants else {})
            check = _Check(checks, lv.variants[k] if lv.variants else None) if checks else None
            layout[i].append((group, names, check))
            body = _refused_first(body)
            bodies.append(f"(?P<{group}>{body})" if lv.variants else body)
        parts.append(f"(?P<_c{i}>{'|'.join(bodies)})")
    # every alternative must consume something: a scan then never has to step past an empty match
    relaxed: list[str] = []
    # guarded (see stdre._guard): a line that none of the levels can open, blank or not, is given
    # up at its first character instead of in each level (a third of a statute's scan)
    compiled = compile_safe(f"{prefix}(?:{'|'.join(parts)})", flags,
                            nonempty=[group for alternatives in layout for group, _, _ in alternatives], relaxed=relaxed,
                            guard=True)
    if compiled is None:
        return None
    rx, long_run = compiled
    index = rx.groupindex
    alts = tuple(
        tuple((index[group], {old: index[new] for new, old in names.items()} | {f"_c{i}": index[f"_c{i}"]},
               _DECIDED_ON_REGEX if group in relaxed else checks)
              for group, names, checks in layout[i])
        for i in range(len(levels))
    )
    variants = tuple(
        tuple(_PROBE if any(old.startswith("_v") for new, old in names.items() if new != group) else lv.variants[k].name
              for k, (group, names, _) in enumerate(layout[i])) if lv.variants else tuple(None for _ in layout[i])
        for i, lv in enumerate(levels)
    )
    return _Scan(rx, {index[f"_c{i}"]: i for i in range(len(levels))}, alts, variants, long_run,
                 _build_sentence_scan(levels) if sentence else None)


# A stdlib body that opens with a negative lookahead reading a run of the line (``(?![^。\n]*(?:原判|…))``)
_READS_A_RUN = ("(?!.", "(?![^")
_STDLIB_GROUP = re.compile(r"\(\?P<\w+>")


def _refused_first(body: str) -> str:
    """``(?!A)B`` (stdlib source) as ``(?=B)(?!A)B``, where A reads a run of the line: the same
    matches and groups (the copy of B in the lookahead holds no groups), but a line B cannot open
    is given up after B alone, and A, which tries its words at each character of the run, is read
    only where B matched (the judgment's holding variants: each read the line for a lower court's
    name first: their 13 alternatives' own scans of the shared judgments 5.5 → 3.4 ms)."""
    if not body.startswith(_READS_A_RUN) or "(?P=" in body:
        return body
    depth, i = 0, 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 1
        elif c == "[":  # on to the class's closing ]: a ] right after [ or [^ is a member
            i += 1 + body.startswith("^", i + 1)
            i += body.startswith("]", i)
            while i < len(body) and body[i] != "]":
                i += 2 if body[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    rest = body[i + 1 :]
    if depth or not rest:
        return body
    return f"(?={_STDLIB_GROUP.sub('(?:', rest)}){body}"


# What a derived scan answers, and how it is built from the levels (see ``_Scan.derived``).
_GLUED_PREFIX = f"{_INDENT}{_GLUED_NUMBER}{_MARKS}"


def _derived(scan: _Scan, levels: list[Level], what: tuple[Any, ...]) -> _Scan | None:
    """``what`` of the levels (``scan``'s), on stdlib ``re``: ("line", I) level I's line pattern
    (``_line_regex``); ("glued",) the levels past a glued page number (``_glued_combined``, which
    is not MULTILINE); ("variants", I) level I's variants at a boundary's content (``Level.regex``)."""
    if what not in scan.derived:
        if what[0] == "glued":
            built = _build_scan(levels, _GLUED_PREFIX, 0, sentence=False)
        else:
            built = _build_scan([levels[what[1]]], _LINE_START if what[0] == "line" else "", sentence=False)
        scan.derived[what] = built
    return scan.derived[what]


def _derived_match(scan: _Scan | None, text: str, pos: int, endpos: int,
                   clean: dict[int, bool]) -> tuple[_Renamed, int] | None | Any:
    """The match of a derived ``scan`` at ``pos`` (None: none), as :func:`_dispatched` reads it;
    _UNDECIDED where only the regex pattern can tell (no scan, a text with a long shared run, a
    variant's lookbehinds). ``clean`` keeps, per scan, whether ``text`` is free of its long run:
    asked once a text, not once a line."""
    if scan is None:
        return _UNDECIDED
    if id(scan) not in clean:
        clean[id(scan)] = scan.long_run is None or scan.long_run.search(text) is None
    if not clean[id(scan)]:
        return _UNDECIDED
    m = scan.rx.match(text, pos, endpos)
    return None if m is None else _dispatched(scan, m)


@dataclass(frozen=True, slots=True)
class _SentenceScan:
    """The sentence-anchored levels' pattern on stdlib ``re``, matched right after a sentence end.
    A match says some level opens there, unless it went through an alternative whose lookbehinds
    the scan left out (``on_regex``): there the regex pattern decides, as in the line scan."""

    rx: re.Pattern
    groups: tuple[int, ...]  # each alternative's group, in order
    levels: tuple[int, ...]  # the index of each alternative's level among the levels
    on_regex: frozenset[int]
    long_run: re.Pattern | None



def _build_sentence_scan(levels: list[Level]) -> _SentenceScan | None:
    parts: list[str] = []
    names: list[str] = []  # each alternative's group, in order
    level_of: list[int] = []  # each alternative's level
    checked: set[str] = set()
    for i, lv in enumerate(levels):
        if lv.anchor != "sentence":
            continue
        for k, (pattern, checks) in enumerate([(v.expanded, v.lookbehinds) for v in lv.variants] or [(lv.pattern, "")]):
            body = translate(expand(pattern[len(checks):]), [], f"_s{i}_{k}_g")
            if body is None:
                return None
            parts.append(f"(?P<_s{i}_{k}>{body})")
            names.append(f"_s{i}_{k}")
            level_of.append(i)
            if checks:
                checked.add(f"_s{i}_{k}")
    if not parts:
        return None
    relaxed: list[str] = []
    # as _sentence_of, without the lookbehind the caller's position already stands behind, and
    # without MULTILINE, as there
    compiled = compile_safe(f"[ \t\u3000]*(?:{'|'.join(parts)})", relaxed=relaxed, guard=True)
    if compiled is None:
        return None
    rx, long_run = compiled
    return _SentenceScan(rx, tuple(rx.groupindex[n] for n in names), tuple(level_of),
                         frozenset(rx.groupindex[n] for n in names if n in checked or n in relaxed), long_run)


def _which(m: regex.Match, groups: tuple[int, ...]) -> int:
    """The index of the first of ``groups`` that took part in the match."""
    return next(i for i, g in enumerate(m.group(*groups)) if g is not None)


def _placed(level: Level, accepted: list[Heading], seen: set[str], text: str, start: int) -> bool:
    """The level's ordering constraints (after, before, follows, within) hold for a line at ``start``."""
    if level.after and not seen.intersection(level.after):
        return False
    if level.before and seen.intersection(level.before):
        return False
    if level.follows:
        prev = accepted[-1] if accepted else None
        if prev is None or prev.level.id not in level.follows or text[prev.end : start].strip():
            return False
    if level.within and not _inside(level.within, accepted):
        return False
    return True


def _inside(within: list[str], accepted: list[Heading]) -> bool:
    """The nearest accepted heading of the level ``within`` names was opened by one of its
    variants (``level-id/variant-name``): an examination report's 结论 opens a section inside the
    report, not under 胃镜： in another record's 辅助检查. The headings ``_assign`` accepts were
    matched on the text itself, so each knows its variant."""
    levels = {entry.partition("/")[0] for entry in within}
    for head in reversed(accepted):
        if head.level.id in levels:
            return f"{head.level.id}/{head.variant}" in within
    return False


def _is_under(level: Level, under: Under, text: str, start: int, lines: dict) -> bool:
    """The line at ``start`` stands where the level's ``under`` lets it: what the lines above hold.
    ``lines`` keeps, per document, what each line gave: the walks up from every candidate of a
    run read the same lines again, one line pattern match each."""
    return _holds(under, text, start, lines) or under.run and _continues_run(level, under, text, start, lines)


def _holds(under: Under, text: str, pos: int, lines: dict) -> bool:
    key = (id(under), text.rfind("\n", 0, pos) + 1)
    if key not in lines:
        lines[key] = under.holds(text, pos)
    return lines[key]


_UNMATCHED: Any = object()  # the level's line pattern does not match the line


def _line_number(level: Level, text: str, ls: int, le: int, lines: dict) -> Any:
    """The number the level's line pattern reads on the line ``[ls, le)``; _UNMATCHED where it does not match."""
    key = (level.id, ls)
    if key not in lines:
        m = _line_regex(level).match(text, ls, le, timeout=PATTERN_TIMEOUT)
        lines[key] = _UNMATCHED if m is None else _number(m, _groups_of(level.pattern, level.anchor))
    return lines[key]


def _continues_run(level: Level, under: Under, text: str, start: int, lines: dict) -> bool:
    """The line at ``start`` goes on with a run of ``level`` opened under its ``under`` line: the
    nearest line above that the level matches numbers one less, and opened the run or goes on
    with it (一、 right below a clause's title, then 二、 and 三、 further down)."""
    ls, le = _line_bounds(text, start)
    num = _line_number(level, text, ls, le, lines)
    if num is _UNMATCHED:
        num = None
    while num is not None and num[0] > 1 and ls > 0:
        ls, le = text.rfind("\n", 0, ls - 1) + 1, ls - 1
        above = _line_number(level, text, ls, le, lines)
        if above is _UNMATCHED:
            continue
        if above is None or above[0] != num[0] - 1:
            return False
        if _holds(under, text, ls, lines):
            return True
        num = above
    return False


def _heading_at(doc: Document, blocks: _BlockStarts, level: Level, rx: regex.Pattern, groups: _Groups, start: int,
                end: int, m: regex.Match | None, whole: str) -> Heading | None:
    """The heading ``level`` (its line pattern ``rx``) makes of the line at ``start`` (``m``: its
    match there, if known), or None where its pattern, ``max_line`` or ``blocks`` refuse the
    line; what the lines before it hold does not enter."""
    text = doc.text
    if m is None:
        m = rx.match(text, start, min(len(text), end + LOOKAHEAD), timeout=PATTERN_TIMEOUT)
        if m is None:
            return None
    content = m.start(whole)
    line = text[content:end]
    if level.max_line is not None and len(line.strip()) > level.max_line:
        return None
    if level.blocks and not blocks.opens(level.blocks, start, content):
        return None
    stop = m.end(whole)
    glued = stop if level.role == "heading" and text[stop:end].strip() else None
    return Heading(level, start, content, end, _label(level, m, line, groups, whole), _number(m, groups),
                   _variant_of(level, m), True, glued)


def _assign(doc: Document, levels: list[Level], cands: list[Candidate], skip: set[tuple[str, int]],
            regions: dict[str, list[int]], made: dict[tuple[int, int], Heading | None],
            under: dict[tuple[int, int], bool], lines: dict,
            clean: dict[int, bool] | None = None) -> dict[str, list[Heading]]:
    """Give each candidate line to the first level that matches it and may open there.

    ``made`` keeps, across the passes over the same candidates, what each (line, level)
    pair gave, ``under`` whether the level's ``under`` lets it open there (``lines``: what the
    lines above gave it, see :func:`_is_under`): only the
    ordering conditions and ``skip`` change between passes. Each condition is pure, so the
    cheapest are asked first: a heading the combined match already made, then the order.
    A line the combined match gave another level is matched for this one on the level's own
    stdlib scan, where the process has the levels' (``clean``: see :func:`_derived_match`).
    """
    text = doc.text
    size = len(text)
    scan = _SCANS.get(tuple(lv.pattern for lv in levels))
    clean = {} if clean is None else clean
    skipped = {lv for lv, _ in skip}
    # Per level, looked up once per pass, not per candidate: its line pattern and the groups it
    # defines, the region bounds when ``skip`` holds some region of it, and whether it has any
    # ordering condition to ask.
    per_line = [(lv, _line_regex(lv), _groups_of(lv.pattern, lv.anchor), lv.anchor in ("sentence", "field"),
                 regions.get(lv.id, []) if lv.id in skipped else None, bool(lv.after or lv.before or lv.follows or lv.within))
                for lv in levels]
    blocks = _BlockStarts(doc.blocks)
    by_level: dict[str, list[Heading]] = {lv.id: [] for lv in levels}
    accepted: list[Heading] = []  # structural lines so far, for after/before/follows
    seen: set[str] = set()
    pending = iter(cands)
    glued: list[Candidate] = []  # the place right after a heading that runs on into its line, tried next
    while (cand := glued.pop() if glued else next(pending, None)) is not None:
        start, at_line, first, combined, matched = cand
        after_heading = not at_line and matched == _AFTER_HEADING
        end = text.find("\n", start)
        if end < 0:
            end = size
        for i in range(first, len(levels)):
            level, rx, groups, sentence, bounds, ordered = per_line[i]
            if not at_line and not sentence:
                continue
            if after_heading:
                rx = _compile_line(level.pattern, "glued")
            if bounds is not None and (level.id, _region(bounds, start)) in skip:
                continue
            key = (start, i)
            head = made.get(key, _UNMADE)
            if head is _UNMADE and i == matched:  # no second match: the combined pass's is at hand
                head = made[key] = _heading_at(doc, blocks, level, rx, groups, start, end, combined, f"_c{i}")
            if head is None or ordered and not _placed(level, accepted, seen, text, start):
                continue
            if level.under is not None:
                if key not in under:
                    under[key] = _is_under(level, level.under, text, start, lines)
                if not under[key]:
                    continue
            if head is _UNMADE:
                own = (_UNDECIDED if scan is None or not at_line or after_heading else
                       _derived_match(_derived(scan, levels, ("line", i)), text, start, min(size, end + LOOKAHEAD), clean))
                if own is _UNDECIDED:
                    head = _heading_at(doc, blocks, level, rx, groups, start, end, None, "_all")
                else:
                    head = None if own is None else _heading_at(doc, blocks, level, rx, groups, start, end, own[0], "_c0")
                made[key] = head
                if head is None:
                    continue
            by_level[level.id].append(head)
            if level.role != "inner":
                accepted.append(head)
                seen.add(level.id)
            if head.glued is not None:
                glued.append((head.glued, False, 0, None, _AFTER_HEADING))
            break
    return by_level


_UNMADE: Any = object()  # ``made`` holds nothing yet for the (line, level) pair
_AFTER_HEADING = -2  # a candidate's ``matched`` where it is the place right after a glued heading


def _blocked_by_others(levels: list[Level], by_level: dict[str, list[Heading]], regions: dict[str, list[int]],
                       yielded: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """(level, region) pairs that ``only_without`` takes away: the regions of a level where one of the
    levels it names has a heading that did not yield. A level not cut into regions has one, so the
    first such heading settles it (a statute's thousands of articles are not each looked up)."""
    blocked: set[tuple[str, int]] = set()
    for lv in levels:
        bounds = regions.get(lv.id, [])
        for other in lv.only_without:
            other_bounds = regions.get(other, [])
            standing = (h for h in by_level[other] if (other, _region(other_bounds, h.start)) not in yielded)
            if bounds:
                blocked.update((lv.id, _region(bounds, h.start)) for h in standing)
            elif next(standing, None) is not None:
                blocked.add((lv.id, 0))
    return blocked


def _region(bounds: list[int], pos: int) -> int:
    """The start of the region (cut at ``bounds``) that holds ``pos``; 0 for the first."""
    k = bisect_left(bounds, pos + 1)
    return bounds[k - 1] if k else 0


def _sequenced(levels: list[Level]) -> bool:
    """Some level's acceptance depends on the boundaries before it (after, before, follows, within)."""
    return any(lv.after or lv.before or lv.follows or lv.within for lv in levels)


def _claimable(text: str, lost: list[Heading], levels: list[Level], skip: set[tuple[str, int]],
               regions: dict[str, list[int]]) -> bool:
    """Another level that still applies matches one of the lines a blocked level gives up."""
    for h in lost:
        _, end = _line_bounds(text, h.start)
        for level in levels:
            if level is h.level or (level.id, _region(regions.get(level.id, []), h.start)) in skip:
                continue
            if _line_regex(level).match(text, h.start, end, timeout=PATTERN_TIMEOUT):
                return True
    return False


def _yielded(levels: list[Level], by_level: dict[str, list[Heading]],
             regions: dict[str, list[int]]) -> set[tuple[str, int]]:
    """(level, region) pairs where a level named in its ``yields_to`` numbers straight on
    across this level's boundaries: those boundaries are headings over it, not its parents."""
    out: set[tuple[str, int]] = set()
    for lv in levels:
        bounds = regions.get(lv.id, [])
        for other in lv.yields_to:
            by_region: dict[int, list[Heading]] = {}
            for h in by_level[lv.id]:
                by_region.setdefault(_region(bounds, h.start), []).append(h)
            for region, heads in by_region.items():
                inner = [h for h in by_level[other] if _region(bounds, h.start) == region]
                if _numbers_across(heads, inner):
                    out.add((lv.id, region))
    return out


def _numbers_across(outer: list[Heading], inner: list[Heading]) -> bool:
    """Under each outer boundary after the first, the inner numbering goes on (> 1) instead of restarting."""
    firsts = []
    for a, b in zip(outer, outer[1:] + [None]):
        first = next((h for h in inner if h.start > a.start and (b is None or h.start < b.start)), None)
        if first is not None and first.num is not None:
            firsts.append(first.num[0])
    return len(firsts) >= 2 and all(n > 1 for n in firsts[1:])


def _find_headings(doc: Document, rules: RuleFile) -> tuple[list[Heading], list[tuple[int, int]]]:
    levels = _document_levels(rules)
    if not levels:
        return [], toc_spans(doc)
    clean: dict[int, bool] = {}  # per stdlib scan, whether the text is free of its long run
    cands, toc = _candidates(doc, levels, clean)
    # A level that does not apply in a region (only_without) gives its lines to the next level
    # that matches them: 一、 is a contract's clause, or the heading above its 第X条 clauses.
    skip: set[tuple[str, int]] = set()
    regions: dict[str, list[int]] = {}
    made: dict[tuple[int, int], Heading | None] = {}
    under: dict[tuple[int, int], bool] = {}
    lines: dict = {}
    while True:
        by_level = _assign(doc, levels, cands, skip, regions, made, under, lines, clean)
        regions = {
            lv.id: sorted(h.start for other in lv.restart_at for h in by_level[other]) for lv in levels if lv.restart_at
        }
        for level in levels:
            if level.order == "increasing":
                bounds = regions.get(level.id, [])
                by_region: dict[int, list[Heading]] = {}
                for h in by_level[level.id]:
                    by_region.setdefault(_region(bounds, h.start), []).append(h)
                by_level[level.id] = [h for hs in by_region.values() for h in _longest_increasing(hs, doc.text)]
        yielded = _yielded(levels, by_level, regions)
        blocked = yielded | _blocked_by_others(levels, by_level, regions, yielded)
        new = blocked - skip
        skip |= blocked
        lost = [h for lv, region in new for h in by_level[lv] if _region(regions.get(lv, []), h.start) == region]
        # Another pass only when a level now blocked had claimed lines that others may take.
        if not lost or (not _sequenced(levels) and not _claimable(doc.text, lost, levels, skip, regions)):
            break
    for level in levels:
        bounds = regions.get(level.id, [])
        by_level[level.id] = [h for h in by_level[level.id] if (level.id, _region(bounds, h.start)) not in skip]
    heads = [h for hs in by_level.values() for h in hs]
    heads.sort(key=lambda h: h.start)
    return heads, toc


# Two lines with words that touch, no blank line between them, whatever their indentation (the text
# reader's test for double spacing reads an indented line as apart; a lead is read by its words).
_TOUCHING_LINES = re.compile(r"\S[ \t\u3000]*\n[ \t\u3000]*\S")
# Two rows of a table one blank line apart: cells set apart by a tab or a gap of two spaces or more,
# and no field's colon (fields side by side, 姓名：某甲　　性别：男, are a form line, not a row).
_ROW = r"[^\n:：]*(?:\t|\S(?: {2,}|\u3000+)\S)[^\n:：]*"
_ROWS_APART = re.compile(rf"(?m)^{_ROW}\n[ \t\u3000]*\n{_ROW}$")


def _lines_apart(text: str) -> bool:
    """Whether every line of ``text`` stands a blank line from the next, its table's rows too: a
    converter's or a web copy's double spacing (every printed line a paragraph), which the reader
    cannot tell from paragraph gaps where the gaps are all one blank line. A writer who sets paragraphs
    apart never sets the rows of one table apart, nor does a text of one-line paragraphs, whose table
    is one paragraph."""
    return _TOUCHING_LINES.search(text) is None and _ROWS_APART.search(text) is not None


def _lead_start(text: str, level: Level, start: int, floor: int, apart: bool = False) -> int:
    """Where the section of a heading of ``level`` at ``start`` starts: its line, or earlier when
    the lines right above it (no blank line between, none before ``floor``) match the level's
    ``lead`` pattern, as a report's title and patient lines belong to the panel named below them.
    ``apart``: no two lines of the document as written touch, and one blank line parts no lead."""
    # ``lead_pattern`` first: ``lead`` reads a pydantic private attribute, slow once per heading.
    if level.lead_pattern is None or not level.lead:
        return start
    lead = _compile_line(level.lead)
    while start > floor:
        ls, le = _line_bounds(text, start - 1)
        if ls > floor and not text[ls:le].strip():
            # Where no two lines of the text touch (every line its own paragraph, a blank line after
            # each, spacing the reader cannot tell from paragraph gaps), one blank line is all that
            # parts any two lines: it parts no lead from its heading. Two blank lines still do.
            if apart and ls - 1 > floor:
                ls, le = _line_bounds(text, ls - 1)
        if ls < floor or not text[ls:le].strip() or not lead.match(text, ls, le, timeout=PATTERN_TIMEOUT):
            break
        start = ls
    return start


# A Markdown heading line: its marks (with or without a space after them) and its text.
_MD_LINE = regex.compile(r"(?m)^[ \t\u3000]*(#{1,6})(?!#)[ \t]*(?=\S)")


_MARKED_FORMATS = ("markdown", "docx")


def _markdown_depths(doc: Document) -> dict[int, int]:
    """Line start -> number of ``#`` marks, for every heading line of a Markdown document, or of a
    Word file, whose reader writes a heading style's depth as those marks."""
    if doc.metadata.get("format") not in _MARKED_FORMATS:
        return {}
    return {m.start(): len(m.group(1)) for m in _MD_LINE.finditer(doc.text)}


@lru_cache(maxsize=64)
def _markdown_level(rules_id: str) -> Level:
    """The level of a Markdown heading that no rule claims (# 物权编, ## 法律责任): it opens by its depth."""
    return Level.model_validate(
        {
            "id": f"{rules_id}.markdown",
            "name": "Markdown heading",
            "kind": "section",
            "role": "heading",
            "label": "line",
            "pattern": "#",
            "rationale": "a Markdown heading is structure even without a legal number; its depth nests it.",
        }
    )


def _markdown_headings(doc: Document, rules: RuleFile, depths: dict[int, int], claimed: set[int],
                       toc: list[tuple[int, int]]) -> list[Heading]:
    """Headings for the Markdown heading lines no level claimed, except the document's title
    (its first line) and the lines of a table of contents."""
    text = doc.text
    first = len(text) - len(text.lstrip())
    level = _markdown_level(rules.id)
    out = []
    for start in _outside_spans(((start, start) for start in depths), toc):
        if start in claimed:
            continue
        ls, end = _line_bounds(text, start)
        content = _MD_LINE.match(text, ls).end()
        if text.rfind("\n", 0, first) + 1 == ls:
            continue  # the title line
        label = _collapse(text[content:end].rstrip(" \t#"))
        if label:
            out.append(Heading(level, ls, content, end, label))
    return out


def _closes(top: tuple[int | None, Heading, int | None], rank: int | None, depth: int | None) -> bool:
    """An open path element closes when a heading of ``rank`` (None: an unnamed Markdown
    heading) and Markdown ``depth`` opens.

    An unnamed Markdown heading closes every open heading at its depth or deeper and the
    plain-line headings below it, so no stale 分编/章 stays in later paths; a rule's
    heading closes an unnamed one only from the same depth or above (``# 物权编`` holds
    ``第一章``), and between rule headings the rule file's ranks decide.
    """
    top_rank, top_head, top_depth = top
    if top_head.level.role == "unit":
        return True
    if rank is None:
        return top_depth is None or (depth is not None and top_depth >= depth)
    if top_rank is None:
        return depth is not None and top_depth is not None and top_depth >= depth
    return top_rank >= rank


# A heading wraps onto a second line only when it is long; a short heading followed by a
# line is a heading and its first line of text.
_WRAPPING_HEADING = 12


def _seen_between(text: str, view: View, start: int, end: int) -> str:
    """What the rules saw of ``text[start:end]``: the view's text there, page furniture left out."""
    if view.identity:
        return text[start:end]
    return view.text[view.to_view(start) : view.to_view(end)]


# The heading's English translation on the one line under it, as a statute printed with its official
# translation sets it (第二章 投诉的提出与受理 / Chapter II Filing and Acceptance of Complaints): Latin
# words of a title, no sentence mark, however long, since Latin letters run twice as many as characters.
# Its spaces may be lost with the rest (ChapterIIFilingand…).
_TRANSLATED_HEADING = re.compile(r"(?:Chapter|Section|Part|Title|Annex|Appendix|Schedule)[ \t]*[IVXLC0-9]+[A-Za-z0-9 ,'’()&\-]{0,120}")


def _continues_heading(text: str, view: View, head: Heading, pos: int) -> bool:
    """The one line between ``head`` and ``pos`` finishes that heading
    (``第五章 卷烟纸、滤嘴棒、烟用丝束、`` / ``烟草专用机械的生产和销售``): the heading is long,
    the line is short, unpunctuated and names no field (no colon); or the line is the heading's
    English translation (``_TRANSLATED_HEADING``)."""
    between = _seen_between(text, view, head.end, pos).strip()
    if between and _TRANSLATED_HEADING.fullmatch(between):
        return True
    if not between or "\n" in between or len(text[head.content : head.end].strip()) < _WRAPPING_HEADING:
        return False
    return reads_as_heading(between) and not any(c in between for c in "：:")


_NUMBER_ONLY = 8  # characters of a heading line that can hold its number and nothing else (第一百二十章)


def _titles_below(text: str, view: View, heads: list[Heading]) -> list[Heading]:
    """A heading whose line holds its number alone, with its title on the one line below it and the
    next boundary right under that (``第一章`` / ``总则`` / ``第一条``, as a PDF sets a chapter's number
    and title on two centred lines), is one heading of both lines: ``第一章 总则``. The title line
    may be one a level takes on its own (``附则``): a heading without a number, then, is the title."""
    out: list[Heading] = []
    i = 0
    while i < len(heads):
        h, step = heads[i], 1
        if h.level.role == "heading" and h.num is not None:
            line = _seen_between(text, view, h.content, h.end).strip()  # as the rules read it: **第一章** is 第一章
            nxt = heads[i + 1] if i + 1 < len(heads) else None
            title_heading = (nxt is not None and nxt.num is None and nxt.level.role == "heading"
                             and not _seen_between(text, view, h.end, nxt.start).strip())
            below = (heads[i + 2] if i + 2 < len(heads) else None) if title_heading else nxt
            if len(line) <= _NUMBER_ONLY and h.label == _collapse(line) and below is not None and below.start > h.end:
                title = _seen_between(text, view, h.end, below.start).strip()
                if (title and "\n" not in title and len(title) <= HEADING_MAX and reads_as_heading(title)
                        and not any(c in title for c in "：:")):
                    end = h.end + len(text[h.end : below.start].rstrip())
                    h = Heading(h.level, h.start, h.content, end, f"{h.label} {_collapse(title)}", h.num,
                                h.variant, h.variant_known, h.glued)
                    step = 2 if title_heading else 1
        out.append(h)
        i += step
    return out


def warm_patterns(registry: Iterable[RuleFile]) -> None:
    """Compile every level's line and combined patterns now (a fork server does it once for all
    workers). The stdlib scans are left to be built where they pay (:func:`_scan_when_it_pays`)."""
    for rules in registry:
        levels = _document_levels(rules)
        if levels:
            _combined(levels)
            _glued_combined(levels)
            _sentence_combined(levels)
        for level in rules.levels:
            _line_regex(level)


def _find_on_view(doc: Document, rules: RuleFile, view: View) -> tuple[list[Heading], list[tuple[int, int]]]:
    """Headings found on the tolerant view, mapped back to offsets of the text."""
    # Of the blocks, the outline reads the TOC ones (toc_spans) and, where a level asks what block
    # a line opens (``blocks:``), all: only those are moved onto the view (moving every block was
    # a tenth of a contract's time).
    read = doc.blocks if any(lv.blocks for lv in _document_levels(rules)) else [b for b in doc.blocks if b.style == "toc"]
    blocks = [b.model_copy(update={"start": view.to_view(b.start), "end": view.to_view(b.end)}) for b in read]
    shadow = Document(source=doc.source, text=view.text, blocks=blocks, metadata=doc.metadata)
    # The variant is read on the view, where the heading was matched: on the text as written a
    # heading a hard wrap cut matches no variant (and the answer must not depend on whether the
    # process has bought its stdlib scan yet).
    heads, toc = find_headings(shadow, rules)
    heads = _variants_on_text(view.text, rules, heads)
    to_text, end_to_text, as_written = view.to_text, view.end_to_text, view.as_written
    mapped = [Heading(h.level, to_text(h.start), to_text(h.content), end_to_text(h.end),
                      as_written(h.label, h.start, h.end), h.num, h.variant, h.variant_known) for h in heads]
    return mapped, [(to_text(a), to_text(b)) for a, b in toc]


def _variants_on_text(text: str, rules: RuleFile, heads: list[Heading]) -> list[Heading]:
    """``heads`` with the variant ``Level.variant_at`` finds on ``text`` at each one's content
    where the match did not say, read off the level's variants on the stdlib scan where the
    process has the levels' (the regex module took a third of a medical record's time to say it);
    a heading that only the regex pattern can tell about keeps ``variant_known`` False, for the caller."""
    levels = _document_levels(rules)
    scan = _SCANS.get(tuple(lv.pattern for lv in levels))
    if scan is None or not heads:
        return heads
    index = {lv.id: i for i, lv in enumerate(levels)}
    clean: dict[int, bool] = {}
    out = []
    for h in heads:
        if h.variant_known:
            out.append(h)
            continue
        found = _derived_match(_derived(scan, levels, ("variants", index[h.level.id])), text, h.content,
                               min(len(text), h.end + LOOKAHEAD), clean)
        if found is not _UNDECIDED and (found is None or found[0].variant is not _PROBE):
            # built anew, not ``dataclasses.replace``d: that walks the fields, at several times the cost
            h = Heading(h.level, h.start, h.content, h.end, h.label, h.num,
                        None if found is None else found[0].variant, True, h.glued)
        out.append(h)
    return out


def build_outline(doc: Document, rules: RuleFile) -> Outline:
    """Headings and sections of ``doc`` under ``rules``; sections cover every non-blank character."""
    text = doc.text
    ranks = rules.ranks()
    view = view_of(text)
    if view.identity:
        heads, toc = find_headings(doc, rules)
    else:
        heads, toc = _find_on_view(doc, rules, view)
    inner: dict[str, list[int]] = {lv.id: [] for lv in _document_levels(rules) if lv.role == "inner"}
    structural: list[Heading] = []
    for h in heads:
        if h.level.role == "inner":
            inner[h.level.id].append(h.start)
        else:
            structural.append(h)

    structural = _titles_below(text, view, structural)
    depths = _markdown_depths(doc)
    if depths:
        claimed = {h.start for h in heads}
        structural += _markdown_headings(doc, rules, depths, claimed, toc)
        structural.sort(key=lambda h: h.start)

    sections: list[Section] = []
    stack: list[tuple[int | None, Heading, int | None]] = []  # open path elements (rank, heading, depth), outermost first

    def only_headings_open(pos: int) -> bool:
        """The last section holds nothing but heading lines (and a heading's continuation line) before ``pos``."""
        if not sections or sections[-1].unit is not None:
            return False
        last = sections[-1].headings[-1]
        return not _seen_between(text, view, last.end, pos).strip() or _continues_heading(text, view, last, pos)

    # asked of the text as written, once, when a level with a lead first needs it: the view joins lines,
    # and pdftotext's blocks of one printed line, which no other line touches, are set apart by blank
    # lines that do part them
    apart: bool | None = None
    for h in structural:
        rank = ranks.get(h.level.id)
        depth = depths.get(h.start)
        # The same section found by another of its levels (a judgment's 答辩 at a line start, then
        # again inside the line by the level that reads sentences) continues it too.
        if (h.level.merge_repeats and stack and stack[-1][1].level.merge_repeats
                and stack[-1][1].level.kind == h.level.kind and stack[-1][1].label == h.label):
            continue
        # Units are leaves: a unit never encloses what follows it (序言 does not hold 第一章).
        while stack and _closes(stack[-1], rank, depth):
            stack.pop()
        stack.append((rank, h, depth))
        path = [s[1].label for s in stack]
        if only_headings_open(h.start):
            # Headings go with what follows them: 编, 章, 节 lines open the first article's chunk.
            sec = sections[-1]
            sec.path = path
            if h.level.role == "heading":
                sec.headings.append(h)
            else:
                sec.kind, sec.rule, sec.unit = h.level.kind, h.level.id, h
            continue
        floor = sections[-1].start + 1 if sections else 0
        if apart is None and h.level.lead_pattern is not None:
            apart = _lines_apart(text)
        if view.identity:
            start = _lead_start(text, h.level, h.start, floor, bool(apart))
        else:
            # the lines above read as the heading was, on the view (marks and letter-spacing out),
            # and as written, where the view has set a repeated title aside as furniture: on from where
            # the view's lead stops, too (a report's fields, each a pdftotext block, read as one lead
            # on the view, and its title right above them, set aside there, goes with them)
            lead = max(floor, view.to_text(_lead_start(view.text, h.level, view.to_view(h.start), view.to_view(floor),
                                                       bool(apart))))
            start = min(_lead_start(text, h.level, h.start, floor, bool(apart)),
                        _lead_start(text, h.level, lead, floor, bool(apart)))
        if sections:
            sections[-1].end = start
        if h.level.role == "heading":
            sections.append(Section(start, len(text), path, "section", h.level.id, None, [h]))
        else:
            sections.append(Section(start, len(text), path, h.level.kind, h.level.id, h, []))

    first = sections[0].start if sections else len(text)
    if text[:first].strip():
        # Text before the first boundary: a title and enactment notes, or, with no structure at all, the body.
        kind = "preamble" if sections else "text"
        sections.insert(0, Section(0, first, [], kind, f"{rules.id}.{kind}"))
    # A trailing heading with nothing after it is not a chunk of its own.
    if len(sections) > 1 and sections[-1].unit is None and sections[-1].headings:
        last = sections[-1]
        if not _seen_between(text, view, last.headings[-1].end, last.end).strip():
            sections.pop()
            sections[-1].end = last.end
    return Outline(text, rules, structural, sections, inner, None if view.identity else view)

