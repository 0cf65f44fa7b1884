"""Run the ``examples:`` of rule files, as sqlfluff runs its rule test cases, and the
match / no_match examples of every variant and signal.

Used by the test suite (one test per example) and by ``domainchunk rules test``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from .chunker import chunk_with_rules
from .models import Chunk
from .normalize import squash_whitespace
from .outline import LINE_PREFIX
from .readers.text import text_document
from .rulefile import PATTERN_TIMEOUT, Example, Examples, RuleFile, expand

@dataclass(frozen=True)
class ExampleResult:
    rule_file: str
    example: Example
    failures: list[str]

    @property
    def id(self) -> str:
        return f"{self.example.rule}::{self.example.name}"


def check_example(rules: RuleFile, example: Example) -> list[str]:
    """What is wrong with the chunks of ``example.text`` (empty when the example holds)."""
    doc = text_document(example.text, f"<example {example.name}>", markdown=example.text.lstrip().startswith("#"))
    _, chunks = chunk_with_rules(doc, rules, example.max_chars)
    failures: list[str] = []
    failures += _check_expected(example, chunks)
    for bad in example.not_starts:
        for c in chunks:
            if squash_whitespace(c.text).startswith(squash_whitespace(bad)):
                failures.append(f"chunk {c.index} starts with {bad!r}, which is not a boundary")
    return failures


def _check_expected(example: Example, chunks: list[Chunk]) -> list[str]:
    failures = []
    pos = 0
    for exp in example.chunks:
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
    if example.chunks and len(chunks) != len(example.chunks):
        failures.append(f"{len(chunks)} chunks, expected {len(example.chunks)}")
    return failures


def run_examples(registry: dict[str, RuleFile]) -> list[ExampleResult]:
    return [
        ExampleResult(rules.path or rules.id, ex, check_example(rules, ex))
        for _, rules in sorted(registry.items())
        for ex in rules.examples
    ]


def rules_without_examples(rules: RuleFile) -> list[str]:
    """Level ids that no example is about (a meta-test fails on any)."""
    covered = {ex.rule for ex in rules.examples}
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
            out.append(PatternCheck(where, f"{level.id}/{v.name}",
                                    _check(v.examples, lambda t: rx.match(t, timeout=PATTERN_TIMEOUT))))
    for sig in rules.detect.signals:
        if sig.examples is not None:
            out.append(PatternCheck(where, sig.id,
                                    _check(sig.examples, lambda t: sig.regex.search(t, timeout=PATTERN_TIMEOUT))))
    return out
