"""From an outline to chunks: one chunk per section, oversize sections split.

A section over the limit is cut first at its inner levels (款, then 项 …),
then by the fallback splitter; each piece keeps the section's path and names
the rule that made its first boundary.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from .fallback import split_span
from .models import Chunk, Document, Row, chunk_of_row, chunk_row, page_lookup
from .errors import RuleError
from .outline import LOOKAHEAD, Outline, Section, build_outline, reads_as_heading
from .packing import overlap_pieces
from .rulefile import RuleFile

SizeFn = Callable[[str], int]


def _hooks(rules: RuleFile) -> ModuleType | None:
    """The rule file's hooks: only modules its loading checked (built-in, or an enabled entry point)."""
    return rules.hook_module()


def _variant(outline: Outline, sec: Section) -> str | None:
    """The name of the variant that made the section's first boundary (its unit, else its first
    heading), matched where the rules matched it: a heading a hard wrap cut is whole on the view."""
    head = sec.unit or (sec.headings[0] if sec.headings else None)
    if head is None:
        return None
    if head.variant_known:
        return head.variant
    read, at = outline.as_read()
    return head.level.variant_at(read, at(head.content), min(len(read), at(head.end) + LOOKAHEAD))


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _measure(text: str, start: int, end: int, size: SizeFn | None) -> int:
    return end - start if size is None else size(text[start:end])


def split_section(outline: Outline, sec: Section, max_chars: int, size: SizeFn | None) -> list[tuple[int, int, str]]:
    """Pieces ``(start, end, rule)`` of a section, each within ``max_chars``, whitespace trimmed."""
    text = outline.text
    start, end = _trim(text, sec.start, sec.end)
    if start >= end:
        return []
    if _measure(text, start, end, size) <= max_chars:
        return [(start, end, sec.rule)]
    # The heading lines stay with the first piece: split the body, leaving them room.
    if sec.unit is not None:
        # A unit whose line is only its heading (病史特点： alone) keeps that line with its first piece.
        line = text[sec.unit.content : sec.unit.end].strip()
        alone = reads_as_heading(line)
        body = _trim(text, sec.unit.end, end)[0] if alone else sec.unit.start
    else:
        # past the blank lines after the headings, or the first piece would be the headings alone
        body = _trim(text, sec.headings[-1].end, end)[0] if sec.headings else start
    body = max(body, start)
    head = _measure(text, start, body, size)
    if head >= max_chars // 2:  # headings too long to carry: they go alone rather than break the limit
        body, head = start, 0
    cuts = outline.cuts_within(body, end)
    spans = split_span(text, body, end, max_chars - head, size=size, cuts=[c for _, c in cuts])
    pieces: list[tuple[int, int, str]] = []
    cut_rule = {pos: level_id for level_id, starts in reversed(cuts) for pos in starts}
    for i, (a, b) in enumerate(spans):
        a = start if i == 0 else a
        rule = sec.rule if i == 0 else cut_rule.get(a, "fallback")
        a, b = _trim(text, a, b)
        if a < b:
            pieces.append((a, b, rule))
    return pieces


def chunk_rows(doc: Document, outline: Outline, rules: RuleFile, max_chars: int, size: SizeFn | None = None,
               overlap: int = 0) -> list[Row]:
    """One row per chunk, in document order: its fields as plain data, no links yet."""
    hooks = _hooks(rules)
    doc_meta: dict[str, Any] = {}
    if hooks and hasattr(hooks, "document_metadata"):
        doc_meta = hooks.document_metadata(doc, outline) or {}
        doc.metadata.update(doc_meta)
        doc.title = doc.title or doc_meta.get("title")
    chunk_meta = getattr(hooks, "chunk_metadata", None) if hooks else None
    text, doc_type, source = doc.text, rules.doc_type, doc.source
    pages_of = page_lookup(doc.pages)
    rows: list[Row] = []
    for sec in outline.sections:
        pieces = split_section(outline, sec, max_chars, size)
        if overlap and len(pieces) > 1:  # cut with room left for the overlap, which stays inside the unit
            pieces = overlap_pieces(text, split_section(outline, sec, max_chars - overlap, size), overlap, size)
        variant = _variant(outline, sec)
        for part, (a, b, rule) in enumerate(pieces, 1):
            meta: dict[str, Any] = {}
            if variant and rule == sec.rule:
                meta["rule_variant"] = variant
            if sec.unit is not None and sec.unit.num is not None:
                meta["number"] = sec.unit.num[0]
            if len(pieces) > 1:
                meta.update(part=part, parts=len(pieces), unit_kind=sec.kind)
            if chunk_meta:
                meta.update(chunk_meta(doc, outline, sec, a, b) or {})
            rows.append(chunk_row(len(rows), text[a:b], a, b, list(sec.path),
                                  sec.kind if len(pieces) == 1 else ("part-of-unit" if sec.unit else sec.kind),
                                  doc_type, pages_of(a, b), rule, source, meta))
    return rows


def rows_with_rules(doc: Document, rules: RuleFile, max_chars: int | None = None, size: SizeFn | None = None,
                    overlap: int = 0) -> tuple[Outline, list[Row]]:
    """The outline and the chunks' rows (see :func:`chunk_rows`); a pattern that times out is a RuleError."""
    try:
        outline = build_outline(doc, rules)
        return outline, chunk_rows(doc, outline, rules, max_chars or rules.max_chars, size, overlap)
    except TimeoutError:  # a lead, an inner level, a variant or a hook's pattern: name the document and the rule
        slow = rules.slow_rule(doc.text) or "a pattern"
        raise RuleError(doc.source, f"{slow} in {rules.path or rules.id} timed out: it backtracks too much") from None


def chunk_with_rules(doc: Document, rules: RuleFile, max_chars: int | None = None, size: SizeFn | None = None,
                     overlap: int = 0) -> tuple[Outline, list[Chunk]]:
    """The outline and its chunks as models, without ids or links (the pipeline links rows instead)."""
    outline, rows = rows_with_rules(doc, rules, max_chars, size, overlap)
    return outline, [chunk_of_row(row) for row in rows]
