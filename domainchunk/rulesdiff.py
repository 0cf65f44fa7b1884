"""What a rule change does to a corpus: boundaries added, removed and moved, paths and types that changed.

``domainchunk rules diff OLD_RULES NEW_RULES CORPUS...`` chunks every document with both
rule sets and compares the chunks by their start offsets, naming the rule ids on each
side. This is how a reviewer approves a rule change: the report lists every boundary the
change touches, and nothing else.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import DomainChunkError
from .models import Chunk, ChunkedDocument
from .phi import failed_input_name


@dataclass(frozen=True)
class Boundary:
    """Where a chunk starts, and what made it."""

    start: int
    rule: str
    path: tuple[str, ...]
    kind: str
    excerpt: str

    @classmethod
    def of(cls, c: Chunk) -> Boundary:
        return cls(c.start, c.rule or "", tuple(c.path), c.kind, c.text[:30].replace("\n", " "))

    def record(self) -> dict[str, Any]:
        return {"start": self.start, "rule": self.rule, "path": list(self.path), "kind": self.kind, "text": self.excerpt}


@dataclass
class DocumentDiff:
    source: str
    old_type: str
    new_type: str
    added: list[Boundary] = field(default_factory=list)
    removed: list[Boundary] = field(default_factory=list)
    moved: list[tuple[Boundary, Boundary]] = field(default_factory=list)
    path_changed: list[tuple[Boundary, Boundary]] = field(default_factory=list)
    rule_changed: list[tuple[Boundary, Boundary]] = field(default_factory=list)
    error: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.error or self.old_type != self.new_type or self.added or self.removed or self.moved
                    or self.path_changed or self.rule_changed)

    def rules(self) -> list[str]:
        """The rule ids on either side of every change: the rules responsible."""
        ids = {b.rule for b in (*self.added, *self.removed)}
        ids |= {b.rule for pair in (*self.moved, *self.path_changed, *self.rule_changed) for b in pair}
        return sorted(ids)

    def record(self) -> dict[str, Any]:
        pairs = lambda xs: [{"old": a.record(), "new": b.record()} for a, b in xs]  # noqa: E731
        return {
            "source": self.source, "old_type": self.old_type, "new_type": self.new_type,
            "added": [b.record() for b in self.added], "removed": [b.record() for b in self.removed],
            "moved": pairs(self.moved), "path_changed": pairs(self.path_changed),
            "rule_changed": pairs(self.rule_changed), "rules": self.rules(), "error": self.error,
        }


def diff_documents(source: str, old: ChunkedDocument, new: ChunkedDocument) -> DocumentDiff:
    """Compare two chunkings of the same document by where their chunks start."""
    before = {c.start: Boundary.of(c) for c in old.chunks}
    after = {c.start: Boundary.of(c) for c in new.chunks}
    out = DocumentDiff(source, old.detection.doc_type, new.detection.doc_type)
    for start in sorted(before.keys() & after.keys()):
        a, b = before[start], after[start]
        if a.path != b.path:
            out.path_changed.append((a, b))
        elif a.rule != b.rule:
            out.rule_changed.append((a, b))
    removed = [before[s] for s in sorted(before.keys() - after.keys())]
    added = [after[s] for s in sorted(after.keys() - before.keys())]
    # A boundary that left one place and arrived at another with the same path and kind moved.
    arrivals: dict[tuple, list[Boundary]] = {}
    for b in added:
        arrivals.setdefault((b.path, b.kind), []).append(b)
    for a in removed:
        candidates = arrivals.get((a.path, a.kind))
        if a.path and candidates:
            b = min(candidates, key=lambda x: abs(x.start - a.start))
            candidates.remove(b)
            out.moved.append((a, b))
        else:
            out.removed.append(a)
    out.added = sorted((b for bs in arrivals.values() for b in bs), key=lambda b: b.start)
    return out


def diff_corpus(paths: Iterable[Path], chunk_old: Callable[[Path], ChunkedDocument],
                chunk_new: Callable[[Path], ChunkedDocument], masked: bool = False) -> list[DocumentDiff]:
    """Every document chunked both ways; a document that fails on one side is a change too.

    ``masked``: the chunkers mask identifying values, and a document is named as its chunks name
    it (a pseudonym), or where it failed by its place among the inputs: a file's name may be its
    patient's."""
    out = []
    for n, path in enumerate(paths, start=1):
        try:
            old, new = chunk_old(path), chunk_new(path)
        except DomainChunkError as exc:  # unreadable, or a rule set that fails on this document
            shown = (failed_input_name(n, path), exc.cause) if masked else (str(path), str(exc))
            out.append(DocumentDiff(shown[0], "?", "?", error=shown[1]))
            continue
        out.append(diff_documents(new.document.source if masked else str(path), old, new))
    return out


def summary_lines(diffs: list[DocumentDiff]) -> list[str]:
    """The plain-text report: one block per changed document, then a total."""
    lines: list[str] = []
    for d in diffs:
        if not d.changed:
            continue
        lines.append(f"{d.source}:")
        if d.error:
            lines.append(f"  error: {d.error}")
        if d.old_type != d.new_type:
            lines.append(f"  type: {d.old_type} -> {d.new_type}")
        for b in d.added:
            lines.append(f"  + @{b.start} {b.rule} {' / '.join(b.path) or '-'}  「{b.excerpt}」")
        for b in d.removed:
            lines.append(f"  - @{b.start} {b.rule} {' / '.join(b.path) or '-'}  「{b.excerpt}」")
        for a, b in d.moved:
            lines.append(f"  ~ @{a.start} -> @{b.start} {a.rule} -> {b.rule} {' / '.join(b.path)}")
        for a, b in d.path_changed:
            lines.append(f"  path @{a.start} {' / '.join(a.path) or '-'} -> {' / '.join(b.path) or '-'} ({a.rule} -> {b.rule})")
        for a, b in d.rule_changed:
            lines.append(f"  rule @{a.start} {a.rule} -> {b.rule}")
    changed = [d for d in diffs if d.changed]
    total = lambda attr: sum(len(getattr(d, attr)) for d in diffs)  # noqa: E731
    lines.append(
        f"{len(changed)} of {len(diffs)} documents changed: {total('added')} boundaries added, "
        f"{total('removed')} removed, {total('moved')} moved, {total('path_changed')} paths changed, "
        f"{sum(d.old_type != d.new_type for d in diffs)} types flipped"
    )
    return lines


def diff_html(diffs: list[DocumentDiff], old_name: str, new_name: str) -> str:
    """The same report as a self-contained HTML page."""
    esc = html.escape
    rows = []
    for d in diffs:
        if not d.changed:
            continue
        items = []
        if d.error:
            items.append(f"<li class=err>error: {esc(d.error)}</li>")
        if d.old_type != d.new_type:
            items.append(f"<li class=type>type {esc(d.old_type)} → {esc(d.new_type)}</li>")
        for sign, cls, bs in (("+", "add", d.added), ("−", "del", d.removed)):
            items += [f"<li class={cls}>{sign} @{b.start} <code>{esc(b.rule)}</code> {esc(' / '.join(b.path))} "
                      f"<q>{esc(b.excerpt)}</q></li>" for b in bs]
        items += [f"<li class=mov>~ @{a.start} → @{b.start} <code>{esc(a.rule)}</code> → <code>{esc(b.rule)}</code> "
                  f"{esc(' / '.join(b.path))}</li>" for a, b in d.moved]
        items += [f"<li class=path>path @{a.start} {esc(' / '.join(a.path))} → {esc(' / '.join(b.path))}</li>"
                  for a, b in d.path_changed]
        items += [f"<li class=rule>rule @{a.start} <code>{esc(a.rule)}</code> → <code>{esc(b.rule)}</code></li>"
                  for a, b in d.rule_changed]
        rows.append(f"<section><h2>{esc(d.source)}</h2><p>rules: {esc(', '.join(d.rules()))}</p><ul>{''.join(items)}</ul></section>")
    body = "".join(rows) or "<p>No change.</p>"
    summary = esc(summary_lines(diffs)[-1])
    return (
        "<!doctype html><html lang=zh-CN><head><meta charset=utf-8><title>rules diff</title><style>"
        "body{font-family:'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;line-height:1.7;margin:24px;max-width:1100px}"
        "li{list-style:none}.add{color:#1a7f37}.del{color:#cf222e}.mov{color:#9a6700}.type,.err{color:#8250df;font-weight:600}"
        "code{background:#f6f8fa;padding:0 4px}q{color:#656d76}</style></head><body>"
        f"<h1>rules diff</h1><p><code>{esc(old_name)}</code> → <code>{esc(new_name)}</code></p><p>{summary}</p>{body}</body></html>"
    )
