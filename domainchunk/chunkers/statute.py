"""Statute hooks: what the rule file's patterns cannot say.

- the law's title (a line naming a law above the first boundary);
- per article: its number, 之X suffix, the 款 (paragraphs) a chunk covers, and
  the articles it cites, normalised (本法第十条 → this law's title).
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import Any

import regex

from ..citations import ARTICLE_CITED, find_citations  # ARTICLE_CITED: what every citation holds, where one may be
from ..models import Document
from ..outline import Outline, Section



@lru_cache(maxsize=8)
def _title_regex(suffixes: str) -> regex.Pattern:
    """A line naming a law: it ends with one of the rule file's ``terms.title_suffix`` (…法, …条例)."""
    return regex.compile(
        rf"^[ \t\u3000#]*(?P<t>(?:中华人民共和国)?[^\n。；，]{{2,60}}?(?:{suffixes})(?:（[^）\n]{{1,20}}）)?)[ \t\u3000]*$",
        regex.MULTILINE,
    )

# The standard re module: one pass over a document's whole text (see _Read).
_PARAGRAPH_START = re.compile(r"\n[ \t\u3000]*\n?[ \t\u3000]*(?![（(][一二三四五六七八九十]+[）)]|\d+[.．、]|\s)")


class _Read:
    """What every article's metadata reads, found once per outline by whole-text passes and
    bucketed by offset: the text as the rules read it, the paragraph starts (款) in it, and where
    an article is cited (第…条, which every citation holds). Per chunk these were two searches
    for paragraph starts and a citation search on its span, most finding nothing (seven articles
    in eight of the shared statutes cite none); now a chunk counts its 款 and learns whether it
    can cite anything by binary search. (A per-span search also stopped 16 characters past the
    span, where a paragraph opening with a longer item number than that could count as a 款; the
    whole text has no such edge.)"""

    __slots__ = ("outline", "text", "at", "paragraphs", "core_starts", "core_ends", "self_names")

    def __init__(self, outline: Outline) -> None:
        self.outline = outline
        self.text, self.at = outline.as_read()
        # A paragraph start is a newline and the blank space after it, so no two overlap and the
        # pass from the text's start finds the ones a pass from any line end would.
        self.paragraphs = [m.start() for m in _PARAGRAPH_START.finditer(self.text)]
        # 第…条 cannot overlap itself (第 is no numeral), so these are all its occurrences.
        cores = [m.span() for m in ARTICLE_CITED.finditer(self.text)]
        self.core_starts = [a for a, _ in cores]
        self.core_ends = [b for _, b in cores]
        self.self_names = outline.rules.vocabulary_pattern("terms.self_name")

    def paragraph_starts(self, start: int, end: int) -> int:
        """Paragraph starts whose newline lies in ``[start, end)`` of the read text."""
        return bisect_left(self.paragraphs, end) - bisect_left(self.paragraphs, start)

    def may_cite(self, start: int, end: int) -> bool:
        """Some 第…条 lies wholly in ``[start, end)``."""
        k = bisect_left(self.core_starts, start)
        return k < len(self.core_starts) and self.core_ends[k] <= end


# The last outline read: each chunk of it asks. Read into a local and replaced whole, so a thread
# chunking another document never hands this one the other's offsets.
_LAST: list[_Read | None] = [None]


def _read(outline: Outline) -> _Read:
    known = _LAST[0]
    if known is None or known.outline is not outline:
        known = _LAST[0] = _Read(outline)
    return known


def document_metadata(doc: Document, outline: Outline) -> dict[str, Any]:
    """The law's title: a line naming a law above the first boundary, never a heading of the outline.

    Read on the view the outline was matched on: a title longer than a hard-wrapped text's width
    is one line there, where the text holds its last part alone on a line of its own."""
    head_end = outline.headings[0].start if outline.headings else min(len(doc.text), 2000)
    text, at = outline.as_read()
    m = _title_regex(outline.rules.vocabulary_pattern("terms.title_suffix")).search(text, 0, at(head_end))
    if m is None:
        return {}
    view = outline.view
    return {"title": m.group("t") if view is None else view.as_written(m.group("t"), *m.span("t"))}


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    unit = sec.unit
    if unit is None or unit.level.id != "statute.article":
        return {}
    meta: dict[str, Any] = {"law": doc.metadata.get("title"), "article_label": unit.label}
    if unit.num:
        meta["article"] = unit.num[0]
        if unit.num[1]:
            meta["article_sub"] = unit.num[1]
    # 款 are the article's paragraphs: count paragraph starts from the article's first line, on
    # the text as the rules read it (a hard-wrapped paragraph's line breaks start no 款 there).
    read = _read(outline)
    at = read.at
    first = 1 if start <= unit.end else 1 + read.paragraph_starts(at(unit.end), at(start))
    last = first + read.paragraph_starts(at(max(start, unit.end)), at(end))
    meta["paragraphs"] = [first, last]
    body_from, body_to = at(max(start, unit.content + len(unit.label))), at(end)
    if read.may_cite(body_from, body_to):
        cites = find_citations(read.text, doc.metadata.get("title"), read.self_names, start=body_from, end=body_to)
        if cites:
            meta["citations"] = cites
    return meta
