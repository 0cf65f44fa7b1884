"""The stdlib ``re`` scan: it finds what the regex module finds, and it never runs a pattern
that could backtrack without bound."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import regex
from domainchunk.outline import (
    _DECIDED_ON_REGEX,
    _UNDECIDED,
    LOOKAHEAD,
    _combined,
    _derived,
    _derived_match,
    _document_levels,
    _glued_combined,
    _group_numbers,
    _line_matches,
    _line_regex,
    _Renamed,
    _stdlib_scan,
    _which,
)
from domainchunk.rulefile import load_rules
from domainchunk.stdre import SHARED_RUN, Unsafe, _code_points, _compiler, _sre, compile_safe, safe, translate

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


def test_a_variable_width_lookbehind_is_left_out_only_when_asked_and_named():
    source = r"(?P<a>x(?<![ab]|cd)y)|(?P<b>z)"
    assert compile_safe(source) is None  # re cannot run it
    relaxed: list[str] = []
    rx, _ = compile_safe(source, relaxed=relaxed)
    assert relaxed == ["a"]
    assert rx.match("xy").group("a") == "xy" and rx.match("z").group("b") == "z"


@pytest.mark.parametrize("source", [
    r"(?!x(?<=a|bc))y",  # leaving it out of a negative lookahead would let less match
    r"x(?<=(a)|bc)y",  # a group inside: where it would take part is lost
])
def test_a_lookbehind_that_leaving_out_would_not_only_widen_is_refused(source):
    assert compile_safe(source, relaxed=[]) is None


def test_the_compiler_is_as_found_after_a_build():
    original = _compiler._optimize_charset
    assert compile_safe("[ \t\u3000]*a[ \t\u3000]*b") is not None
    assert compile_safe("(a+)+") is None
    assert _compiler._optimize_charset is original


def test_judgment_lines_its_lookbehinds_refuse_are_decided_on_the_regex_module():
    # judgment patterns hold variable-width lookbehinds: the scan leaves them out, and the lines
    # their alternatives match are decided by the regex pattern as written.
    rules = load_rules()["judgment"]
    scan = _stdlib_scan(_document_levels(rules))
    assert scan is not None
    assert any(checks is _DECIDED_ON_REGEX for alternatives in scan.alts for _, _, checks in alternatives)
    text = "\n".join(["原告张某诉称，被告欠款。", "被告李某辩称，已经还款。", "被告申请称，要求延期。",
                      "辩护人提出，量刑过重。", "经审查，本院认为，原告的请求成立。", "本院认为，事实清楚。",
                      "证据显示本院认为可以采信。", "判决如下：", "驳回原告的诉讼请求。"]) + "\n"
    assert _scan_agrees(rules, text) >= 4
    assert any(not isinstance(m, _Renamed) for m, _ in _line_matches(text, _document_levels(rules)))


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


@pytest.fixture
def unstored(monkeypatch):
    """No stored compiles: building costs what compiling does (the rent's full price)."""
    from domainchunk import outline

    monkeypatch.setenv("DOMAINCHUNK_CACHE_DIR", "")
    monkeypatch.setattr(outline, "_STORED", {})


def test_a_level_set_switches_to_stdlib_re_once_its_scanning_pays_for_the_build(monkeypatch, unstored):
    from domainchunk import outline

    ticks = iter(range(10**6))  # a clock on which each look is a second later: each scan costs one
    monkeypatch.setattr(outline, "_clock", lambda: next(ticks))
    monkeypatch.setattr(outline, "_SCANS", {})
    monkeypatch.setattr(outline, "_RENT", {})
    levels = _document_levels(load_rules()["statute"])
    text = "第一章 总则\n第一条 示范。\n"  # one scan (all its matches at once): one second
    monkeypatch.setattr(outline, "STDLIB_SECONDS_PER_CHAR", 4 / sum(len(lv.pattern) for lv in levels))
    # a first text is expected to cost what the rate for a set of levels without one says: nothing here
    monkeypatch.setattr(outline, "REGEX_SECONDS_PER_CHAR", 0.0)
    for _ in range(3):  # 1, 2, 3 seconds: renting, the regex module scans and nothing is built
        assert not any(isinstance(m, _Renamed) for m, _ in _line_matches(text, levels))
    assert not outline._SCANS
    # 3 seconds spent, and this text is expected to take 1 more: building (4) pays now
    assert all(isinstance(m, _Renamed) for m, _ in _line_matches(text, levels))
    assert list(outline._SCANS) == [tuple(lv.pattern for lv in levels)]


def test_a_big_first_text_builds_the_stdlib_scan_at_once(monkeypatch, unstored):
    from domainchunk import outline

    monkeypatch.setattr(outline, "_SCANS", {})
    monkeypatch.setattr(outline, "_RENT", {})
    levels = _document_levels(load_rules()["statute"])
    small = "第一条 示范。\n"
    budget_chars = outline.STDLIB_SECONDS_PER_CHAR * sum(len(lv.pattern) for lv in levels) / outline.REGEX_SECONDS_PER_CHAR
    assert not any(isinstance(m, _Renamed) for m, _ in _line_matches(small, levels))
    outline._RENT.clear()  # what the small text measured would stand in for the default rate
    big = small * int(budget_chars / len(small) + 1)
    assert all(isinstance(m, _Renamed) for m, _ in _line_matches(big, levels))


def test_sentence_starts_on_stdlib_re_are_those_the_regex_module_finds(monkeypatch, unstored):
    from domainchunk import outline
    from domainchunk.models import Document

    checked = 0
    for rules in load_rules().values():
        levels = _document_levels(rules)
        if not any(lv.anchor == "sentence" for lv in levels) or _stdlib_scan(levels) is None:
            continue
        assert _stdlib_scan(levels).sentence is not None
        built = dict(outline._SCANS)
        texts = [p.read_text(encoding="utf-8") for p in TEXTS] + [case.text for case in rules.cases]
        for text in texts:
            doc = Document(source="t", text=text)
            monkeypatch.setattr(outline, "_SCANS", built)
            fast = [c[:3] for c in outline._candidates(doc, levels)[0]]
            monkeypatch.setattr(outline, "_SCANS", {})
            monkeypatch.setattr(outline, "_RENT", {})
            monkeypatch.setattr(outline, "STDLIB_SECONDS_PER_CHAR", float("inf"))  # never bought
            slow = [c[:3] for c in outline._candidates(doc, levels)[0]]
            # the same places; at a sentence start the stdlib scan may also say which levels
            # cannot open there, and none of those it passes over matches there
            assert [c if c[1] else c[:2] for c in fast] == [c if c[1] else c[:2] for c in slow]
            for pos, at_line, first in fast:
                if not at_line:
                    passed = [lv for lv in levels[:first] if lv.anchor == "sentence"]
                    assert not any(outline._line_regex(lv).match(text, pos) for lv in passed), (rules.id, pos)
            checked += sum(1 for c in fast if not c[1])
    assert checked > 20  # sentence starts were found, not only lines


def test_a_stored_compile_is_the_same_pattern_and_a_damaged_one_is_compiled_anew(tmp_path, monkeypatch):
    import json

    from domainchunk import stdre

    monkeypatch.setenv("DOMAINCHUNK_CACHE_DIR", str(tmp_path))
    source = "(?<=[。；])(?P<a>第[一二三]+条)[ \t]*(?P<b>[^\n]+)|x[ \t]*:?[ \t]*$"
    first_relaxed: list[str] = []
    first = compile_safe(source, re.MULTILINE, nonempty=["a"], relaxed=first_relaxed)
    entries = sorted((tmp_path / stdre.STORE).glob("*.json"))
    assert first is not None and entries
    texts = ["。第二条 示范\nx :", "；第一条\tx", "x", "第三条 无"]
    for damage in (None, "scrambled", "cut"):
        if damage:
            for entry in entries:
                stored = json.loads(entry.read_text(encoding="utf-8"))
                if isinstance(stored["entry"], list) and len(stored["entry"]) == 3:
                    stored["entry"][0][1] = stored["entry"][0][1][::-1]  # the checksum no longer holds
                    entry.write_text(json.dumps(stored) if damage == "scrambled" else "{", encoding="utf-8")
        relaxed: list[str] = []
        again = compile_safe(source, re.MULTILINE, nonempty=["a"], relaxed=relaxed)
        assert again is not None and again[0] is not first[0] and relaxed == first_relaxed
        assert again[0].groupindex == first[0].groupindex and again[0].flags == first[0].flags
        assert [m.groupdict() for t in texts for m in again[0].finditer(t)] == \
            [m.groupdict() for t in texts for m in first[0].finditer(t)]
        assert (again[1] is None) == (first[1] is None) and (again[1] is None or again[1].pattern == first[1].pattern)
    assert compile_safe("(a+)+") is None and compile_safe("(a+)+") is None  # a refusal is stored as one


def test_a_stored_scan_is_bought_at_the_first_text_however_small(tmp_path, monkeypatch):
    from domainchunk import outline

    monkeypatch.setenv("DOMAINCHUNK_CACHE_DIR", str(tmp_path))
    for table in ("_SCANS", "_RENT", "_STORED"):
        monkeypatch.setattr(outline, table, {})
    levels = _document_levels(load_rules()["statute"])
    key = tuple(lv.pattern for lv in levels)
    text = "第一章 总则\n第一条 示范。\n第二条 又一条。\n"
    assert outline._scan_when_it_pays(key, levels, len(text)) is None  # nobody stored it: a small text rents
    assert not outline._stored(key)
    built = _stdlib_scan(levels)  # built here, so stored
    for table in ("_SCANS", "_RENT", "_STORED"):
        monkeypatch.setattr(outline, table, {})
    assert outline._stored(key)
    loaded = outline._scan_when_it_pays(key, levels, len(text))
    assert loaded is not None and loaded is not built and loaded.rx.groupindex == built.rx.groupindex
    assert [m.span() for m in loaded.rx.finditer(text)] == [m.span() for m in built.rx.finditer(text)]


def _derived_scans_agree(rules, text: str) -> int:
    """Each level's own line pattern, its variants at a line's content, and the levels past a
    glued page number give on their stdlib scans what they give on the regex module, at every
    line start of ``text``; the count of places compared."""
    levels = _document_levels(rules)
    scan = _stdlib_scan(levels)
    glued = _glued_combined(levels)
    clean: dict[int, bool] = {}
    compared = 0
    starts = [m.start() for m in re.finditer(r"(?m)^", text)]
    for ls in starts:
        end = min(len(text), (text.find("\n", ls) % (len(text) + 1)) + LOOKAHEAD)
        ours = _derived_match(_derived(scan, levels, ("glued",)), text, ls, len(text), clean)
        if ours is not _UNDECIDED:
            theirs = glued.match(text, ls)
            assert (ours and ours[1]) == (theirs and _which(theirs, _group_numbers(glued, len(levels))))
            compared += 1
        for i, level in enumerate(levels):
            ours = _derived_match(_derived(scan, levels, ("line", i)), text, ls, end, clean)
            if ours is not _UNDECIDED:
                theirs = _line_regex(level).match(text, ls, end)
                assert (ours is None) == (theirs is None), (level.id, text[ls : ls + 40])
                if theirs is not None:
                    m = ours[0]
                    assert (m.start("_c0"), m.end("_c0")) == theirs.span("_all")
                    for name in ("label", "num", "sub"):
                        if name in theirs.re.groupindex:
                            assert m.group(name) == theirs.group(name), (level.id, name)
                compared += 1
            for pos in {ls, ls + len(text[ls:end]) - len(text[ls:end].lstrip())}:
                ours = _derived_match(_derived(scan, levels, ("variants", i)), text, pos, end, clean)
                if ours is not _UNDECIDED:
                    assert (None if ours is None else ours[0].variant) == level.variant_at(text, pos, end), level.id
                    compared += 1
    return compared


def test_every_level_compiles_into_the_derived_scans():
    for rules in load_rules().values():
        levels = _document_levels(rules)
        scan = _stdlib_scan(levels) if levels else None
        if scan is None:
            continue
        for what in [("glued",), *((kind, i) for i in range(len(levels)) for kind in ("line", "variants"))]:
            assert _derived(scan, levels, what) is not None, (rules.id, what)


def test_derived_scans_agree_with_the_regex_module_on_every_case():
    compared = 0
    for rules in load_rules().values():
        if not _document_levels(rules) or _stdlib_scan(_document_levels(rules)) is None:
            continue
        for case in rules.cases:
            compared += _derived_scans_agree(rules, case.text)
    assert compared > 1000


@pytest.mark.parametrize("path", TEXTS[::4], ids=lambda p: p.name)
def test_derived_scans_agree_with_the_regex_module_on_the_corpora(path):
    text = path.read_text(encoding="utf-8")
    for rules in load_rules().values():
        if _document_levels(rules) and _stdlib_scan(_document_levels(rules)) is not None:
            _derived_scans_agree(rules, text)


def test_lookbehind_checks_on_stdlib_say_what_the_regex_module_says():
    """A variant's not_after and after_blank_line, told line by line on stdlib ``re``, hold
    exactly where its lookbehinds match on the regex module, at every line start and past its
    indentation, on every case and corpus text."""
    from domainchunk.outline import _Check, _lines_above
    texts = [case.text for rules in load_rules().values() for case in rules.cases]
    texts += [p.read_text(encoding="utf-8") for p in TEXTS]
    told = 0
    for rules in load_rules().values():
        for level in _document_levels(rules):
            for variant in level.variants:
                if not variant.lookbehinds:
                    continue
                ours, theirs = _Check(variant.lookbehinds, variant), _Check(variant.lookbehinds)
                if _lines_above(tuple((na.expanded, na.blank_lines) for na in variant.not_after)) is None:
                    continue  # on the regex module, as theirs
                for text in texts:
                    for m in re.finditer(r"(?m)^[ \t\u3000#]*", text):
                        for pos in {m.start(), m.end()}:
                            assert (ours.match(text, pos, 2.0) is None) == (theirs.match(text, pos, 2.0) is None), (
                                level.id, variant.name, text[max(0, pos - 30) : pos + 10])
                            told += 1
    assert told > 10000


def _recorded_scans(monkeypatch, rules) -> list[tuple]:
    """The arguments of every compile the levels' scans (line and sentence) ask for."""
    from domainchunk import outline

    asked: list[tuple] = []

    def record(source, flags=0, nonempty=(), relaxed=None, guard=False):
        asked.append((source, flags, tuple(nonempty), relaxed is not None, guard))
        return compile_safe(source, flags, nonempty, relaxed, guard)

    monkeypatch.setattr(outline, "compile_safe", record)
    outline._build_scan(_document_levels(rules))
    return asked


def test_a_guard_changes_no_match_of_the_scans(monkeypatch):
    """The guarded scans find, at every line start and sentence end of the corpora and the cases,
    what the same patterns unguarded find: the same spans, groups and last group."""
    from domainchunk.stdre import check_and_compile

    monkeypatch.setenv("DOMAINCHUNK_CACHE_DIR", "")
    compared = 0
    for rules in load_rules().values():
        texts = [p.read_text(encoding="utf-8") for p in TEXTS] + [case.text for case in rules.cases]
        for source, flags, nonempty, relaxes, guard in _recorded_scans(monkeypatch, rules):
            assert guard
            built = check_and_compile(source, flags, nonempty, [] if relaxes else None, guard=True)
            plain = check_and_compile(source, flags, nonempty, [] if relaxes else None)
            assert (built is None) == (plain is None)
            if built is None:
                continue
            for text in texts:
                places = {0} | {m.end() for m in re.finditer(r"[\n。！？]", text)}
                for pos in sorted(places):
                    a, b = built[0].match(text, pos), plain[0].match(text, pos)
                    assert (a is None) == (b is None), (rules.id, pos)
                    if a is not None:
                        assert (a.span(), a.lastindex, a.groups()) == (b.span(), b.lastindex, b.groups())
                        compared += 1
                assert [m.span() for m in built[0].finditer(text)] == [m.span() for m in plain[0].finditer(text)]
    assert compared > 500


def test_a_guard_stands_before_each_alternative_that_must_consume():
    from domainchunk.stdre import _C, _guard

    parsed = _sre.parse(r"^[ \t]*(?:(?P<a>第\d+条)|(?P<b>[一二]、)|(?P<c>x?))", re.MULTILINE)
    _guard(parsed)
    assert parsed.data[-2][0] is not _C.ASSERT  # the alternation may match nothing (c): no guard before it
    branches = parsed.data[-1][1][1]
    assert [b.data[0][0] is _C.ASSERT for b in branches] == [True, True, False]
    rx = _compiler.compile(parsed, re.MULTILINE)
    assert [m.lastgroup for m in rx.finditer("第1条\n二、\n\n  x\n")] == ["a", "b", "c", "c", "c"]
    for source, flags in ((r"(?:ab|cd)", re.IGNORECASE), (r"(?:a(?i:b)|cd)", 0), (r"(?:a.|cd)", re.DOTALL)):
        parsed = _sre.parse(source, flags)
        before = repr(parsed.data)
        _guard(parsed)
        assert repr(parsed.data) == before  # case or a line-taking dot: the characters as written may not be all
    parsed = _sre.parse(r"(?:ab|cd)")
    _guard(parsed)
    assert parsed.data[0][0] is _C.ASSERT and all(b.data[0][0] is _C.ASSERT for b in parsed.data[1][1][1])


def test_first_characters_are_what_a_match_can_start_with_and_none_where_it_may_be_empty() -> None:
    import re

    from domainchunk.stdre import first_characters

    cls = first_characters(r"(?=[^x])(?:既往史|过敏史|(?P<n>[0-9]+)、)")
    assert cls is not None
    assert [c for c in "既过0912史x、" if re.match(cls, c)] == list("既过0912")
    assert first_characters(r"(?:既往史)?") is None  # may match the empty string
    assert first_characters(r"(?i:a)b") is None  # case ignored


def test_a_lookahead_that_reads_no_line_end_keeps_a_not_after_line_on_stdlib() -> None:
    from domainchunk.outline import _lines_above
    from domainchunk.stdre import crosses_lines

    assert not crosses_lines(r"Article[0-9]{1,3}(?![0-9.])[^\n。]{0,60}", lookaheads=True)
    assert crosses_lines(r"Article(?=\s*第)", lookaheads=True)  # \s reads the line break
    assert crosses_lines(r"Article(?=[^x]*第)", lookaheads=True)
    assert crosses_lines(r"Article\Z", lookaheads=True)
    assert not crosses_lines(r"Article(?=\s*第)")  # without: lookarounds consume nothing
    above = _lines_above(((r"(?:Article|Clause){SP}*[0-9A-Z]{1,3}(?![\d.．])[^\n。；]{0,60}", False),))
    assert above is not None
    rx = above[0][0]
    text = "Article 1 Definitions\nArticle 1.2 x\n"
    assert rx.fullmatch(text, 0, text.index("\n")) is not None
    assert rx.fullmatch(text, text.index("\n") + 1, len(text) - 1) is None
