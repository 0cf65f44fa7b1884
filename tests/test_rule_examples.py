"""Every case of every rule file is a test (ids like statute.article::cross-reference-is-not-a-heading),
and so is every variant's and signal's match / no_match list (ids like generic.h1/atx-heading)."""
from __future__ import annotations

from pathlib import Path

import pytest

from domainchunk.examples import check_case, check_patterns, rules_without_cases
from domainchunk.rulefile import PATTERN_MAX, load_rules

REGISTRY = load_rules()
CASES = [(rules, case) for _, rules in sorted(REGISTRY.items()) for case in rules.cases]
PATTERNS = [check for _, rules in sorted(REGISTRY.items()) for check in check_patterns(rules)]
UNCONVERTED = Path(__file__).resolve().parent / "unconverted"


@pytest.mark.parametrize("rules,case", CASES, ids=[f"{case.rule}::{case.name}" for _, case in CASES])
def test_rule_case(rules, case):
    failures = check_case(rules, case, REGISTRY)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_every_rule_has_cases(doc_type):
    assert rules_without_cases(REGISTRY[doc_type]) == []


@pytest.mark.parametrize("doc_type", sorted(REGISTRY))
def test_every_rule_explains_itself(doc_type):
    rules = REGISTRY[doc_type]
    assert rules.description.strip()
    for level in rules.levels:
        assert level.rationale.strip(), level.id
        assert level.id.startswith(rules.id + "."), f"{level.id} should be namespaced by {rules.id}"
    for sig in rules.detect.signals:
        assert sig.why.strip(), sig.id


def test_cases_are_not_vacuous():
    """A case must expect something: chunks, chunk starts that must not exist, or a detected type."""
    for _, case in CASES:
        assert case.chunks or case.not_starts or case.doc_type, case.name


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


def test_generated_rule_docs_are_current():
    """docs/rules/<type>.md is generated from the rule files: run `domainchunk rules docs docs/rules`."""
    from domainchunk.ruledocs import builtin_pages

    docs = Path(__file__).resolve().parents[1] / "docs" / "rules"
    pages = builtin_pages()
    assert sorted(p.name for p in docs.glob("*.md")) == sorted(pages)
    stale = [name for name, page in pages.items() if (docs / name).read_text(encoding="utf-8") != page]
    assert not stale, f"stale: {stale}; run `domainchunk rules docs docs/rules`"


def test_rule_docs_show_every_level_variant_why_and_example():
    from domainchunk.ruledocs import render

    for rules in REGISTRY.values():
        page = render(rules)
        for level in rules.levels:
            assert f"### `{level.id}`" in page
            for v in level.variants:
                assert f"#### Variant `{v.name}`" in page and " ".join(v.why.split()) in page
                assert all(f"`{text}`" in page for text in v.examples.match + v.examples.no_match if "\n" not in text)
        for case in rules.cases:
            assert f"### {case.name}\n" in page


def test_case_files_are_not_loaded_as_rule_files():
    folder = REGISTRY["generic"].path and Path(REGISTRY["generic"].path).parent
    assert (folder / "cases" / "generic.yaml").is_file()
    assert all(Path(r.path).parent == folder for r in REGISTRY.values())
