"""The stdlib ``re`` scan: it finds what the regex module finds, and it never runs a pattern
that could backtrack without bound."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import regex
from domainchunk.outline import _combined, _document_levels, _group_numbers, _line_matches, _Renamed, _stdlib_scan
from domainchunk.rulefile import load_rules
from domainchunk.stdre import SHARED_RUN, Unsafe, _code_points, _sre, compile_safe, safe, translate

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
TEXTS = sorted(p for p in CORPORA.iterdir() if p.suffix in (".txt", ".md"))


@pytest.mark.parametrize("escape", [r"\p{Han}", r"\d", r"\s", r"\D", r"\S"])
def test_translated_classes_match_what_the_regex_module_matches(escape):
    text = _code_points()
    ours = re.compile(translate(escape, []) + "+")
    theirs = regex.compile(escape + "+", regex.VERSION0)
    assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)]
    inside = re.compile(translate(f"[{escape}]", []) + "+") if escape[1].islower() else None
    if inside is not None:
        assert [m.span() for m in inside.finditer(text)] == [m.span() for m in theirs.finditer(text)]


@pytest.mark.parametrize("pattern", [r"\w+", r"\bx", r"\p{Lu}", r"(?P<a>x)(?P=a)", r"(?i)x", r"(?<name>x)", r"[\S]"])
def test_what_the_engines_read_differently_is_not_translated(pattern):
    assert translate(pattern, []) is None


def test_shared_group_names_get_names_of_their_own():
    names: list[str] = []
    source = translate(r"(?P<label>a)(?P<num>\d)|(?P<label>b)", names)
    assert names == ["label", "num", "label"]
    assert re.compile(source).match("b").group("_g2") == "b"


@pytest.mark.parametrize("pattern", [r"(a+)+b", r"(?:a|a)+b", r"(?:ab|ab?)+c", r"(a|aa)*c", r"(a?a)+b", r"(?:x*)*y", r"(?:ab|a[b-c]c)+d", r"(?:a\d?\d)+x"])
def test_patterns_that_can_backtrack_without_bound_are_refused(pattern):
    with pytest.raises(Unsafe):
        safe(_sre.parse(pattern), [])
    assert compile_safe(pattern) is None


def test_a_number_with_spaced_digits_repeats_safely():
    # 第 一 百 条: a repeat of (spaces, digits) whose runs cannot hand characters to each other.
    shared: list = []
    safe(_sre.parse("第[ \t]*[一二三]+(?:[ \t]+[一二三]+)*[ \t]*条"), shared)
    assert shared == []


def test_two_runs_of_spaces_with_an_optional_colon_between_share_the_spaces():
    rx, long_run = compile_safe("x[ \t]*:?[ \t]*$")
    assert rx.match("x  : ") and long_run.search(" " * SHARED_RUN) and not long_run.search(" " * (SHARED_RUN - 1))


def _scan_agrees(rules, text: str) -> int:
    levels = _document_levels(rules)
    combined = _combined(levels)
    groups = _group_numbers(combined, len(levels))
    theirs = [(m, next(i for i, g in enumerate(m.group(*groups)) if g is not None)) for m in combined.finditer(text)]
    ours = list(_line_matches(text, levels))
    assert [(m.start(), m.end(), i) for m, i in ours] == [(m.start(), m.end(), i) for m, i in theirs]
    for (m, i), (e, _) in zip(ours, theirs):
        for name in ("label", "num", "sub", *(f"_v{k}" for k in range(len(levels[i].variants))), f"_c{i}"):
            if name in e.re.groupindex:
                assert m.span(name) == e.span(name), (levels[i].id, name)
                assert m.group(name) == e.group(name)
    return len(ours)


def test_scan_finds_what_the_regex_module_finds_on_the_corpora():
    registry = load_rules()
    scanned = 0
    for path in TEXTS:
        text = path.read_text(encoding="utf-8")
        for rules in registry.values():
            if _stdlib_scan(_document_levels(rules)) is not None:
                scanned += _scan_agrees(rules, text)
    assert scanned > 1000


def test_scan_finds_what_the_regex_module_finds_on_every_case():
    registry = load_rules()
    for rules in registry.values():
        if _stdlib_scan(_document_levels(rules)) is None:
            continue
        for case in rules.cases:
            _scan_agrees(rules, case.text)


def test_the_built_in_statute_scan_runs_on_stdlib_re():
    scan = _stdlib_scan(_document_levels(load_rules()["statute"]))
    assert scan is not None
    # statute.division has a not_after: its lines are matched again on the regex pattern
    assert any(checks is not None for alternatives in scan.alts for _, _, checks in alternatives)


def test_a_long_run_of_shared_characters_keeps_the_text_on_the_regex_module():
    rules = load_rules()["medical_record"]
    levels = _document_levels(rules)
    assert _stdlib_scan(levels).long_run is not None
    short = "主诉：\n  头痛三天。\n"
    padded = "主诉：" + " " * SHARED_RUN + "\n头痛三天。\n"
    assert all(isinstance(m, _Renamed) for m, _ in _line_matches(short, levels))
    assert not any(isinstance(m, _Renamed) for m, _ in _line_matches(padded, levels))
    assert _scan_agrees(rules, padded) == _scan_agrees(rules, padded.replace(" " * SHARED_RUN, ""))


def test_a_level_set_switches_to_stdlib_re_once_its_scanning_pays_for_the_build(monkeypatch):
    from domainchunk import outline

    monkeypatch.setattr(outline, "_SCANS", {})
    monkeypatch.setattr(outline, "_SCANNED", {})
    levels = _document_levels(load_rules()["statute"])
    text = "第一章 总则\n第一条 示范。\n"
    budget = outline.STDLIB_AFTER * sum(len(lv.pattern) for lv in levels)
    runs = -(-budget // len(text))  # the first call that brings the count to the budget builds it
    for _ in range(runs - 1):  # renting: the regex module scans, nothing is built
        assert not any(isinstance(m, _Renamed) for m, _ in _line_matches(text, levels))
    assert not outline._SCANS
    assert all(isinstance(m, _Renamed) for m, _ in _line_matches(text, levels))  # built: it pays now
    assert list(outline._SCANS) == [tuple(lv.pattern for lv in levels)]
