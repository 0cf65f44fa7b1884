"""Statute hooks: what the rule file's patterns cannot say.

- the law's title (a line naming a law above the first boundary);
- per article: its number, 之X suffix, the 款 (paragraphs) a chunk covers, and
  the articles it cites, normalised (本法第十条 → this law's title).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import regex

from ..citations import find_citations
from ..models import Document
from ..outline import Outline, Section



@lru_cache(maxsize=8)
def _title_regex(suffixes: str) -> regex.Pattern:
    """A line naming a law: it ends with one of the rule file's ``terms.title_suffix`` (…法, …条例)."""
    return regex.compile(
        rf"^[ \t\u3000#]*(?P<t>(?:中华人民共和国)?[^\n。；，]{{2,60}}?(?:{suffixes})(?:（[^）\n]{{1,20}}）)?)[ \t\u3000]*$",
        regex.MULTILINE,
    )

# The standard re module: this runs once or twice per article, where regex's per-call cost shows.
_PARAGRAPH_START = re.compile(r"\n[ \t\u3000]*\n?[ \t\u3000]*(?![（(][一二三四五六七八九十]+[）)]|\d+[.．、]|\s)")
_PEEK = 16  # how far the item test of a paragraph start looks past its newline


def _paragraph_starts(text: str, start: int, end: int) -> int:
    """Paragraph starts (款) whose newline lies in ``[start, end)``.

    The item test looks past the newline, so the search may not stop at ``end``:
    a piece that opens with （七） would otherwise count as a new paragraph.
    """
    # Every paragraph start is a newline in the span: nearly half of a law's pieces hold none.
    if text.find("\n", start, end) < 0:
        return 0
    return sum(1 for m in _PARAGRAPH_START.finditer(text, start, min(len(text), end + _PEEK)) if m.start() < end)


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
    text, at = outline.as_read()
    first = 1 if start <= unit.end else 1 + _paragraph_starts(text, at(unit.end), at(start))
    last = first + _paragraph_starts(text, at(max(start, unit.end)), at(end))
    meta["paragraphs"] = [first, last]
    body_from = max(start, unit.content + len(unit.label))
    cites = find_citations(text, doc.metadata.get("title"), outline.rules.vocabulary_pattern("terms.self_name"),
                           start=at(body_from), end=at(end))
    if cites:
        meta["citations"] = cites
    return meta
