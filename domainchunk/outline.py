"""The outline engine shared by every document type.

It reads a rule file's levels and a document's text and builds an
:class:`Outline`: the heading lines that were accepted as boundaries, and the
:class:`Section` spans that become chunks. Everything is offsets into the
document text; nothing is sliced here.

Steps:
1. one combined regex pass finds the lines that could open any level;
2. each candidate line is given to the first level whose pattern matches it;
   lines inside a table of contents are skipped;
3. per level, numbered candidates keep only the longest increasing run of
   numbers (so a cross-reference such as ``第十条规定的…`` that lands at a line
   start, out of sequence, is not an article), and levels that apply only to
   documents without some other level are dropped when that level occurs;
4. headings open path elements and go with the next unit; each unit is a
   section; inner levels are recorded as split points for oversize sections.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from .errors import RuleError
from .models import Document
from .numerals import parse_number
from .rulefile import PATTERN_TIMEOUT, Level, RuleFile, expand

LINE_PREFIX = r"[ \t\u3000]*(?:#{1,6}[ \t]+)?"
_PREFIX = regex.compile(LINE_PREFIX)
_WS = regex.compile(r"\s+")
_SENTENCE_END = regex.compile(r"[。；;！？!?]")
_TOC_TITLE = regex.compile(r"^目\s*录$")
_TOC_LEADER = regex.compile(r"(?:[.．…·]{3,}|…+|\s{2,})\s*\d+\s*$")
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


@dataclass(slots=True)
class Outline:
    text: str
    rules: RuleFile
    headings: list[Heading]
    sections: list[Section]
    inner: dict[str, list[int]]  # document-scope inner level id -> sorted line starts

    def cuts_within(self, start: int, end: int) -> list[tuple[str, list[int]]]:
        """Inner split points inside ``(start, end)``, one list per inner level, coarsest first."""
        levels = []
        for level in self.rules.levels:
            if level.role != "inner":
                continue
            if level.scope == "unit":
                rx = _line_regex(level)
                starts = [
                    m.start()
                    for m in rx.finditer(self.text, start, end, timeout=PATTERN_TIMEOUT)
                    if m.start() > start
                ]
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


def _combined(levels: list[Level]) -> regex.Pattern | None:
    if not levels:
        return None
    body = "|".join(f"(?:{expand(lv.pattern)})" for lv in levels)
    return regex.compile(f"^{LINE_PREFIX}(?:{body})", regex.MULTILINE | regex.VERSION0)


def _line_regex(level: Level) -> regex.Pattern:
    return _compile_line(level.pattern)


@lru_cache(maxsize=512)
def _compile_line(pattern: str) -> regex.Pattern:
    return regex.compile(f"^{LINE_PREFIX}(?P<_all>{expand(pattern)})", regex.MULTILINE | regex.VERSION0)


def _collapse(s: str) -> str:
    return _WS.sub(" ", s).strip()


def _label(level: Level, m: regex.Match, line: str) -> str:
    if level.label == "fixed":
        return level.fixed_label or ""
    token = m.group("label") if "label" in m.groupdict() and m.group("label") else m.group("_all")
    if level.label == "line":
        return _collapse(line)
    if level.label == "heading" and len(line) <= HEADING_MAX and not _SENTENCE_END.search(line):
        return _collapse(line)
    return _collapse(token)


def _number(m: regex.Match) -> tuple[int, int] | None:
    groups = m.groupdict()
    num = parse_number(groups["num"]) if groups.get("num") else None
    if num is None:
        return None
    sub = parse_number(groups["sub"]) if groups.get("sub") else 0
    return num, sub or 0


def toc_spans(doc: Document) -> list[tuple[int, int]]:
    """Tables of contents: their lines look exactly like headings, so they are skipped.

    A 目录 title opens one; it ends where its first entry appears again as a
    real heading. Readers may also mark TOC blocks (``style="toc"``).
    """
    text = doc.text
    spans = [(b.start, b.end) for b in doc.blocks if b.style == "toc"]
    for m in regex.finditer(r"(?m)^[ \t\u3000#]*目[ \t\u3000]*录[ \t\u3000]*$", text):
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


def _in_spans(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def _longest_increasing(heads: list[Heading]) -> list[Heading]:
    """Longest strictly increasing run of numbers; unnumbered headings are kept as they are."""
    numbered = [h for h in heads if h.num is not None]
    if len(numbered) < 2:
        return heads
    tails: list[tuple[int, int]] = []
    tail_idx: list[int] = []
    prev = [-1] * len(numbered)
    for i, h in enumerate(numbered):
        k = bisect_left(tails, h.num)
        if k == len(tails):
            tails.append(h.num)
            tail_idx.append(i)
        else:
            tails[k] = h.num
            tail_idx[k] = i
        prev[i] = tail_idx[k - 1] if k else -1
    keep = set()
    i = tail_idx[-1]
    while i >= 0:
        keep.add(id(numbered[i]))
        i = prev[i]
    return [h for h in heads if h.num is None or id(h) in keep]


def find_headings(doc: Document, rules: RuleFile) -> list[Heading]:
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


def _find_headings(doc: Document, rules: RuleFile) -> list[Heading]:
    text = doc.text
    levels = _document_levels(rules)
    combined = _combined(levels)
    if combined is None:
        return []
    per_line = [(lv, _line_regex(lv)) for lv in levels]
    toc = toc_spans(doc)
    by_level: dict[str, list[Heading]] = {lv.id: [] for lv in levels}
    for cand in combined.finditer(text, timeout=PATTERN_TIMEOUT):
        start = cand.start()
        if toc and _in_spans(start, toc):
            continue
        _, end = _line_bounds(text, start)
        for level, rx in per_line:
            m = rx.match(text, start, timeout=PATTERN_TIMEOUT)
            if m is None:
                continue
            content = m.start("_all")
            line = text[content:end]
            if level.max_line is not None and len(line.strip()) > level.max_line:
                continue
            by_level[level.id].append(Heading(level, start, content, end, _label(level, m, line), _number(m)))
            break
    for level in levels:
        if level.order == "increasing":
            by_level[level.id] = _longest_increasing(by_level[level.id])
    for level in levels:
        if any(by_level.get(other) for other in level.only_without):
            by_level[level.id] = []
    heads = [h for hs in by_level.values() for h in hs]
    heads.sort(key=lambda h: h.start)
    return heads


def build_outline(doc: Document, rules: RuleFile) -> Outline:
    """Headings and sections of ``doc`` under ``rules``; sections cover every non-blank character."""
    text = doc.text
    ranks = rules.ranks()
    heads = find_headings(doc, rules)
    inner: dict[str, list[int]] = {lv.id: [] for lv in _document_levels(rules) if lv.role == "inner"}
    structural: list[Heading] = []
    for h in heads:
        if h.level.role == "inner":
            inner[h.level.id].append(h.start)
        else:
            structural.append(h)

    sections: list[Section] = []
    stack: list[tuple[int, Heading]] = []  # open path elements, outermost first

    def only_headings_open(pos: int) -> bool:
        """The last section holds nothing but heading lines before ``pos``."""
        if not sections or sections[-1].unit is not None:
            return False
        return not text[sections[-1].headings[-1].end : pos].strip()

    for h in structural:
        rank = ranks[h.level.id]
        if h.level.merge_repeats and stack and stack[-1][1].level.id == h.level.id and stack[-1][1].label == h.label:
            continue
        # Units are leaves: a unit never encloses what follows it (序言 does not hold 第一章).
        while stack and (stack[-1][0] >= rank or stack[-1][1].level.role == "unit"):
            stack.pop()
        stack.append((rank, h))
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
        if sections:
            sections[-1].end = h.start
        if h.level.role == "heading":
            sections.append(Section(h.start, len(text), path, "section", h.level.id, None, [h]))
        else:
            sections.append(Section(h.start, len(text), path, h.level.kind, h.level.id, h, []))

    first = sections[0].start if sections else len(text)
    if text[:first].strip():
        # Text before the first boundary: a title and enactment notes, or, with no structure at all, the body.
        kind = "preamble" if sections else "text"
        sections.insert(0, Section(0, first, [], kind, f"{rules.id}.{kind}"))
    # A trailing heading with nothing after it is not a chunk of its own.
    if len(sections) > 1 and sections[-1].unit is None and sections[-1].headings:
        last = sections[-1]
        if not text[last.headings[-1].end : last.end].strip():
            sections.pop()
            sections[-1].end = last.end
    return Outline(text, rules, structural, sections, inner)

