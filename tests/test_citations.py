"""The citation parser finds what a scan of every character would find, and reads spans in place."""
from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domainchunk.citations import _builtin_self_names, _citation_matches, _citation_regex, find_citations

# Citations and their near misses: laws named in 《》 (up to and past the 80 characters a name
# may have), a law naming itself (本法, 本 条 例 spaced out), separators, suffixes, line breaks.
atoms = st.sampled_from([
    "第", "条", "款", "项", "之", "一", "十", "二", "3", "《", "》", "本", "法", "条例", "决 定", "、", "，", "和",
    "以及", "或者", "\n", " ", "\u3000", "（", "）", "刑法", "第五条", "第十条之一第二款第（三）项", "本法第三条",
    "《" + "法" * 79 + "》", "《" + "法" * 81 + "》", "本" + " " * 120 + "法", "本 条 例", "甲乙丙丁" * 8,
])
texts = st.lists(atoms, max_size=40).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.data())
@example("前文《" + "法" * 79 + "》、第五条", None)  # a law's name as long as it may be, before a separator
@example("依照本" + " " * 120 + "法第三条", None)  # 本法 spaced out far before its article
@example("《刑法》\n第十条与《民法典》第五条", None)  # a law on the line before names nothing
@example("见甲，第五条或者第六条", None)  # a separator begins a match
def test_matches_are_those_of_a_scan_of_every_character(text, data):
    start = data.draw(st.integers(0, len(text))) if data else 0
    end = data.draw(st.integers(start, len(text))) if data else len(text)
    rx = _citation_regex(_builtin_self_names())
    expected = [(m.span(), m.groups()) for m in rx.finditer(text, start, end)]
    assert [(m.span(), m.groups()) for m in _citation_matches(rx, text, start, end)] == expected


def test_a_span_is_read_as_its_slice_would_be():
    text = "前文《刑法》第十条。\n依照《中华人民共和国民法典》第五百七十七条、第五百八十四条之规定，本法第三条。"
    start = text.index("依照")
    assert find_citations(text, "示范法", start=start) == find_citations(text[start:], "示范法")
    assert [c["article"] for c in find_citations(text, "示范法", start=start)] == [577, 584, 3]
