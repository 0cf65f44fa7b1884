"""Every example of every rule file is a test case (ids like statute.article::cross-reference-is-not-a-heading),
and so is every variant's and signal's match / no_match list (ids like generic.h1/atx-heading)."""
from __future__ import annotations

from pathlib import Path

import pytest

from domainchunk.examples import check_example, check_patterns, rules_without_examples
from domainchunk.rulefile import PATTERN_MAX, load_rules

REGISTRY = load_rules()
CASES = [(rules, ex) for _, rules in sorted(REGISTRY.items()) for ex in rules.examples]
PATTERNS = [check for _, rules in sorted(REGISTRY.items()) for check in check_patterns(rules)]
UNCONVERTED = Path(__file__).resolve().parent / "unconverted"


@pytest.mark.parametrize("rules,example", CASES, ids=[f"{ex.rule}::{ex.name}" for _, ex in CASES])
def test_rule_example(rules, example):
    failures = check_example(rules, example)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_every_rule_has_examples(doc_type):
    assert rules_without_examples(REGISTRY[doc_type]) == []


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_every_rule_explains_itself(doc_type):
    rules = REGISTRY[doc_type]
    assert rules.description.strip()
    for level in rules.levels:
        assert level.rationale.strip(), level.id
        assert level.id.startswith(rules.id + "."), f"{level.id} should be namespaced by {rules.id}"
    for sig in rules.detect.signals:
        assert sig.why.strip(), sig.id


def test_examples_are_not_vacuous():
    """An example must expect something: chunks or chunk starts that must not exist."""
    for _, ex in CASES:
        assert ex.chunks or ex.not_starts, ex.name


@pytest.mark.parametrize("check", PATTERNS, ids=[c.id for c in PATTERNS])
def test_variant_and_signal_examples(check):
    assert not check.failures, "\n".join(check.failures)


def _listed(stem: str) -> set[str]:
    path = UNCONVERTED / f"{stem}.txt"
    if not path.exists():
        return set()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {line for line in lines if line and not line.startswith("#")}


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_unconverted_rules_are_exactly_the_listed_ones(doc_type):
    """tests/unconverted/<file>.txt lists the levels still on one `pattern:` and the signals
    without examples: converting one means deleting its line, so the lead sees what is left."""
    rules = REGISTRY[doc_type]
    stem = Path(rules.path).stem
    left = set(rules.unconverted())
    listed = _listed(stem)
    assert not (left - listed), f"rules/{stem}.yaml: not converted and not listed: {sorted(left - listed)}"
    assert not (listed - left), f"tests/unconverted/{stem}.txt: converted, delete these lines: {sorted(listed - left)}"


def test_unconverted_lists_name_only_builtin_files():
    stems = {Path(r.path).stem for r in REGISTRY.values()}
    assert {p.stem for p in UNCONVERTED.glob("*.txt")} <= stems
    assert all(_listed(p.stem) for p in UNCONVERTED.glob("*.txt")), "delete an empty list"


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_converted_patterns_are_short(doc_type):
    """The schema caps variants and leads; signals once they have examples."""
    rules = REGISTRY[doc_type]
    for level in rules.levels:
        assert all(len(v.pattern) <= PATTERN_MAX for v in level.variants), level.id
        assert level.lead_pattern is None or len(level.lead_pattern) <= PATTERN_MAX, level.id
    for sig in rules.detect.signals:
        assert sig.examples is None or len(sig.pattern) <= PATTERN_MAX, sig.id
