"""Run the cases of rule files (``cases/<file>.yaml``), as sqlfluff runs its std_rule_cases,
and the match / no_match examples of every variant and signal.

A case is chunked from its text, and from a DOCX and a PDF made of that text when it asks
(``readers: [text, docx, pdf]``), so a rule is shown to hold whatever the reader. Used by the
test suite (one test per case) and by ``domainchunk rules test``.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

import regex

from .chunker import chunk_with_rules
from .detect import detect
from .errors import DomainChunkError
from .models import Chunk, Document
from .normalize import squash_whitespace
from .outline import LINE_PREFIX
from .readers import read_document
from .readers.text import text_document
from .rulefile import BLANK_LINE_CONTEXT, PATTERN_TIMEOUT, Case, Examples, RuleFile, expand


@dataclass(frozen=True)
class CaseResult:
    rule_file: str
    case: Case
    failures: list[str]

    @property
    def id(self) -> str:
        return f"{self.case.rule}::{self.case.name}"


_HEADING = regex.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
FONT = "STSong-Light"  # reportlab's built-in CID font for Chinese: no font file needed


def _docx_bytes(text: str) -> bytes:
    """The text as Word would hold it: one paragraph a line, Markdown headings as Heading styles."""
    from docx import Document as Docx

    document = Docx()
    for line in text.splitlines():
        if m := _HEADING.match(line):
            document.add_heading(m.group(2), level=len(m.group(1)))
        elif line.strip():
            document.add_paragraph(line.strip())
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _pdf_bytes(text: str) -> bytes:
    """The text printed on A4 pages, long lines wrapped at the margin as a PDF holds them."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    left, width, top, bottom = 72.0, A4[0] - 144.0, A4[1] - 72.0, 72.0
    y = top

    def draw(line: str, size: float) -> None:
        nonlocal y
        if y < bottom:
            c.showPage()
            y = top
        c.setFont(FONT, size)
        c.drawString(left, y, line)
        y -= size * 1.8

    for raw in text.splitlines():
        heading = _HEADING.match(raw)
        line, size = (heading.group(2), 15.0) if heading else (raw.strip(), 11.0)
        if not line:
            y -= size
            continue
        current = ""
        for char in line:
            if current and pdfmetrics.stringWidth(current + char, FONT, size) > width:
                draw(current, size)
                current = ""
            current += char
        draw(current, size)
    c.save()
    return buffer.getvalue()


def case_document(case: Case, reader: str) -> Document:
    """The case's text as ``reader`` reads it: the text itself, or a DOCX / PDF made of it."""
    name = f"<case {case.name}>"
    if reader == "text":
        return text_document(case.text, name, markdown=case.text.lstrip().startswith("#"))
    data = _docx_bytes(case.text) if reader == "docx" else _pdf_bytes(case.text)
    return read_document(f"{name}.{reader}", data=data)


def check_case(rules: RuleFile, case: Case, registry: dict[str, RuleFile] | None = None) -> list[str]:
    """What is wrong with the chunks of the case, through each of its readers (empty when it holds)."""
    failures: list[str] = []
    for reader in case.readers:
        tag = "" if case.readers == ["text"] else f"[{reader}] "
        try:
            doc = case_document(case, reader)
        except (ImportError, DomainChunkError) as exc:
            failures.append(f"{tag}cannot make or read the {reader} document: {exc}")
            continue
        if case.doc_type is not None:
            found = detect(doc.text, registry if registry is not None else {rules.doc_type: rules}).doc_type
            if found != case.doc_type:
                failures.append(f"{tag}detected as {found}, expected {case.doc_type}")
        _, chunks = chunk_with_rules(doc, rules, case.max_chars)
        failures += [tag + f for f in _check_expected(case, chunks)]
        for bad in case.not_starts:
            for c in chunks:
                if squash_whitespace(c.text).startswith(squash_whitespace(bad)):
                    failures.append(f"{tag}chunk {c.index} starts with {bad!r}, which is not a boundary")
    return failures


def _check_expected(case: Case, chunks: list[Chunk]) -> list[str]:
    failures = []
    pos = 0
    for exp in case.chunks:
        want = squash_whitespace(exp.starts)
        j = next((k for k in range(pos, len(chunks)) if squash_whitespace(chunks[k].text).startswith(want)), None)
        if j is None:
            got = [c.text[:12] for c in chunks]
            failures.append(f"no chunk starts with {exp.starts!r} (chunks start: {got})")
            continue
        c = chunks[j]
        if exp.path is not None and c.path != exp.path:
            failures.append(f"chunk {exp.starts!r}: path {c.path}, expected {exp.path}")
        if exp.rule is not None and c.rule != exp.rule:
            failures.append(f"chunk {exp.starts!r}: rule {c.rule}, expected {exp.rule}")
        if exp.kind is not None and c.kind != exp.kind:
            failures.append(f"chunk {exp.starts!r}: kind {c.kind}, expected {exp.kind}")
        for key, value in exp.metadata.items():
            if c.metadata.get(key) != value:
                failures.append(f"chunk {exp.starts!r}: metadata {key}={c.metadata.get(key)!r}, expected {value!r}")
        pos = j + 1
    if case.chunks and len(chunks) != len(case.chunks):
        failures.append(f"{len(chunks)} chunks, expected {len(case.chunks)}")
    return failures


def run_cases(registry: dict[str, RuleFile]) -> list[CaseResult]:
    return [
        CaseResult(rules.path or rules.id, case, check_case(rules, case, registry))
        for _, rules in sorted(registry.items())
        for case in rules.cases
    ]


def rules_without_cases(rules: RuleFile) -> list[str]:
    """Level ids that no case is about (a meta-test fails on any)."""
    covered = {case.rule for case in rules.cases}
    return [lv.id for lv in rules.levels if lv.id not in covered]


@dataclass(frozen=True)
class PatternCheck:
    """The match / no_match examples of one variant (``level/variant``) or signal, and what failed."""

    rule_file: str
    id: str
    failures: list[str]


@lru_cache(maxsize=1024)
def _as_line(pattern: str) -> regex.Pattern:
    """A variant as the engine tries it: at a line start, past indentation and Markdown marks."""
    return regex.compile(f"^{LINE_PREFIX}(?:{expand(pattern)})", regex.MULTILINE | regex.VERSION0)


def _check(examples: Examples, found) -> list[str]:
    failures = [f"does not match {text!r}" for text in examples.match if not found(text)]
    failures += [f"matches {text!r}, which it must not" for text in examples.no_match if found(text)]
    return failures


def check_patterns(rules: RuleFile) -> list[PatternCheck]:
    """Every variant's and every signal's examples, one result each (legacy rules have none)."""
    where = rules.path or rules.id
    out = []
    for level in rules.levels:
        for v in level.variants:
            rx = _as_line(v.expanded)
            pos = len(BLANK_LINE_CONTEXT) if v.after_blank_line else 0
            context = BLANK_LINE_CONTEXT if v.after_blank_line else ""
            out.append(PatternCheck(where, f"{level.id}/{v.name}", _check(
                v.examples, lambda t: rx.match(context + t, pos, timeout=PATTERN_TIMEOUT))))
            for na in v.not_after:
                whole = _as_line(f"(?:{na.expanded})[ \t\u3000]*$")
                out.append(PatternCheck(where, f"{level.id}/{v.name}/not-after-{na.name}",
                                        _check(na.examples, lambda t: whole.fullmatch(t, timeout=PATTERN_TIMEOUT))))
        if level.under is not None:
            # A line above a boundary: the engine reads it whole, as here.
            under = level.under
            out.append(PatternCheck(where, f"{level.id}/under-{under.name}",
                                    _check(under.examples, lambda t: under.holds(f"{t}\nX", len(t) + 1))))
    for sig in rules.detect.signals:
        if sig.examples is not None:
            out.append(PatternCheck(where, sig.id,
                                    _check(sig.examples, lambda t: sig.regex.search(t, timeout=PATTERN_TIMEOUT))))
    return out
