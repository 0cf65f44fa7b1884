"""The one-scan outline engine agrees with matching each level on its own.

The engine keeps the combined pass's match for the level it names (no second match per
line) and reads the variant from it; these tests re-derive every heading from the
level's own line pattern and ``Level.variant_at`` on the corpora and the rule files'
cases, so a change to the combined pattern that let the two drift apart fails here.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from domainchunk import chunk, chunk_text
from domainchunk.models import Document
from domainchunk.outline import (
    LOOKAHEAD,
    _candidates,
    _collapse,
    _compile_line,
    _document_levels,
    _groups_of,
    _label,
    _line_regex,
    _number,
    _sentence_combined,
    _solid_number,
    build_outline,
)
from domainchunk.rulefile import _alternation, _canonical_of, load_rules

CORPORA = Path(__file__).resolve().parents[1] / "corpora"
TEXTS = sorted(p for p in CORPORA.iterdir() if p.suffix in (".txt", ".md"))


def _case_texts():
    for rules in load_rules().values():
        for case in rules.cases:
            yield pytest.param(case.text, case.doc_type or rules.doc_type, id=f"{rules.id}:{case.name}")


def _check(result) -> int:
    doc = result.document
    rules = load_rules()[doc.doc_type]
    outline = build_outline(doc, rules)
    text = doc.text
    checked = 0
    # a unit that opens right after a heading run on into its line is matched where it stands
    after_glued = {g.glued for g in outline.headings if g.glued is not None}
    for h in outline.headings:
        if not h.variant_known:
            continue
        # found on the view, a heading's label, number and variant are the view's, where it matched
        read, at = outline.as_read()
        assert h.variant == h.level.variant_at(read, at(h.content), min(len(read), at(h.end) + LOOKAHEAD))
        if outline.view is not None:
            checked += 1
            continue
        rx = _compile_line(h.level.pattern, "glued") if h.start in after_glued else _line_regex(h.level)
        m = rx.match(text, h.start, min(len(text), h.end + LOOKAHEAD))
        assert m is not None, (h.level.id, text[h.start : h.end])
        groups = _groups_of(h.level.pattern, h.level.anchor)
        assert m.start("_all") == h.content
        assert _label(h.level, m, text[h.content : h.end], groups, "_all") == h.label
        assert _number(m, groups) == h.num
        assert h.variant == h.level.variant_at(text, h.content, min(len(text), h.end + LOOKAHEAD))
        checked += 1
    return checked


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_headings_are_what_each_level_matches_on_its_own(path: Path) -> None:
    _check(chunk(path, max_chars=1000))


@pytest.mark.parametrize(("text", "doc_type"), list(_case_texts()))
def test_rule_cases_agree_with_each_level_on_its_own(text: str, doc_type: str) -> None:
    _check(chunk_text(text, doc_type=doc_type))


def test_the_corpora_exercise_the_shortcut() -> None:
    # Without headings taken from the combined match the tests above would check nothing.
    assert sum(_check(chunk(p, max_chars=1000)) for p in TEXTS[:10]) > 50


def test_vocabulary_patterns_are_kept_and_unchanged() -> None:
    rules = load_rules()["statute"]
    first = rules.vocabulary_pattern("terms.self_name")
    assert first == _alternation(rules.terms["self_name"])
    assert rules.vocabulary_pattern("terms.self_name") is first


def test_a_term_is_the_first_canonical_naming_it_spaces_ignored() -> None:
    vocab = {"主诉": ["主 诉"], "现病史": ["主诉"]}
    assert _canonical_of(vocab, "主　　诉") == "主诉"
    assert _canonical_of(vocab, "现 病 史") == "现病史"
    assert _canonical_of(vocab, "体温") is None
    assert _canonical_of({**vocab, "体温": []}, "体温") == "体温"  # another vocabulary, another answer


def _sentence_starts(text: str, rules) -> tuple[list[int], list[int]]:
    """Sentence-start candidates as the engine finds them, and as ``finditer`` over every character does."""
    levels = _document_levels(rules)
    cands, toc = _candidates(Document(source="t", text=text), levels)
    found = [pos for pos, at_line, *_ in cands if not at_line]
    everywhere = [m.start() for m in _sentence_combined(levels).finditer(text)]
    return found, [p for p in everywhere if not any(a <= p < b for a, b in toc)]


@pytest.mark.parametrize("path", [p for p in TEXTS if p.name.startswith(("judgment_", "contract_"))], ids=lambda p: p.name)
def test_sentence_starts_tried_after_sentence_ends_are_every_one(path: Path) -> None:
    rules = load_rules()["judgment" if path.name.startswith("judgment_") else "contract"]
    if _sentence_combined(_document_levels(rules)) is None:
        pytest.fail(f"{rules.id} has no sentence-anchored level: the test checks nothing")
    found, everywhere = _sentence_starts(path.read_text(encoding="utf-8"), rules)
    assert found == everywhere


def test_sentence_starts_after_every_kind_of_sentence_end() -> None:
    rules = load_rules()["judgment"]
    text = "原告诉称被告欠款。本院认为，被告应当还款！本院认为，？？本院认为，。。　本院认为，理由如下。"
    found, everywhere = _sentence_starts(text, rules)
    assert found == everywhere
    # after 。, after ！, after the second of two ？ (not the first), after two 。 and indentation
    assert [text[p:].lstrip("　")[:4] for p in found] == ["本院认为"] * 4


def test_a_label_without_whitespace_is_the_token_as_the_slow_path_writes_it() -> None:
    checked = 0
    for path in TEXTS[:20]:
        result = chunk(path, max_chars=1000)
        doc = result.document
        rules = load_rules()[doc.doc_type]
        for h in build_outline(doc, rules).headings:
            groups = _groups_of(h.level.pattern, h.level.anchor)
            if h.level.label != "token" or not (groups.label and groups.num) or not h.variant_known:
                continue
            m = _line_regex(h.level).match(doc.text, h.start, min(len(doc.text), h.end + LOOKAHEAD))
            slow = _collapse(_solid_number(m) or m.group("label") or m.group("_all"))
            assert _label(h.level, m, doc.text[h.content : h.end], groups, "_all") == slow
            checked += 1
    assert checked > 20


def test_no_letter_is_indentation_or_a_digit_to_the_regex_module() -> None:
    """A candidate line that opens with a letter is not matched for a glued page number (the
    outline's shortcut): that holds only while no letter of Python's tables is one of those."""
    import sys

    import regex

    letters = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isalpha())
    assert regex.search(r"[ \t\u3000]|\d", letters) is None


def test_a_variant_that_reads_its_line_asks_the_next_line_first_and_matches_the_same() -> None:
    from domainchunk.outline import _next_line_first

    reads = r"(?!.*(?:报告单|检验科){SP}*$)(?P<label>[^\t\n:：。，；]{1,30}?){SP}*$(?=\n{SP}*(?:项目|结果){SP}*结果)"
    guard = _next_line_first(reads)
    assert guard.startswith("(?=[^\\n]*$(?=\\n")
    text = "血常规\n项目 结果\n检验科\n项目 结果\n尿常规\n说明\n肝功能\n结果 结果\n"
    plain, guarded = _compile_line(reads), _compile_line(guard + reads)
    assert [m.span("label") for m in guarded.finditer(text)] == [m.span("label") for m in plain.finditer(text)]
    assert [m.group("label") for m in guarded.finditer(text)] == ["血常规", "肝功能"]
    # a head that may cross a line end reaches $ on a later line: no guard; nor where it opens otherwise
    assert _next_line_first(r"(?!.*报告单)(?P<label>.+\n.+)$(?=\n项目)") == ""
    assert _next_line_first(r"(?P<label>[^\n]{1,30})$(?=\n项目)") == ""
    assert _next_line_first(r"(?!.*报告单)(?P<label>\S+)$(?=\n(?P=label))") == ""


def test_a_scan_alternative_that_reads_a_run_first_is_tried_on_its_body_first_with_the_same_matches() -> None:
    import re

    from domainchunk.outline import _refused_first

    body = r"(?![^。！？\n]*(?:原审|原判[\]）]))[^。！？\n]{0,30}?(?P<g0>判决|裁定)[:：]$"
    first = _refused_first(body)
    assert first.startswith(r"(?=[^。！？\n]{0,30}?(?:判决|裁定)[:：]$)(?!")  # the copy holds no group
    text = "本院判决：\n原审法院判决：\n经审理，判决：\n原判）后判决：\n判决如下\n"
    plain, reordered = re.compile(f"^(?:{body})", re.M), re.compile(f"^(?:{first})", re.M)
    assert [(m.span(), m.span("g0")) for m in reordered.finditer(text)] == \
        [(m.span(), m.span("g0")) for m in plain.finditer(text)]
    assert [m.group("g0") for m in reordered.finditer(text)] == ["判决", "判决"]
    # a body that opens otherwise, or refers back to a group, is left as written
    assert _refused_first(r"[^。]{0,9}?判决") == r"[^。]{0,9}?判决"
    assert _refused_first(r"(?!.*x)(?P<a>y)(?P=a)") == r"(?!.*x)(?P<a>y)(?P=a)"
