"""Every example of every rule file is a test case (ids like statute.article::cross-reference-is-not-a-heading)."""
from __future__ import annotations

import pytest

from domainchunk.examples import check_example, rules_without_examples
from domainchunk.rulefile import load_rules

REGISTRY = load_rules()
CASES = [(rules, ex) for _, rules in sorted(REGISTRY.items()) for ex in rules.examples]


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
