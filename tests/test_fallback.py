"""Tests for domainchunk.fallback: coverage, budget, determinism, cut preferences."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domainchunk.fallback import pack_segments, split_span

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

CJK = "法律条款患者医院合同当事人应当按照约定履行义务规定治疗诊断"


def cjk2(s: str) -> int:
    """A custom size: 2 per CJK character, 1 for anything else."""
    return sum(2 if "\u4e00" <= ch <= "\u9fff" else 1 for ch in s)


def check_cover(spans, start, end):
    """Spans are non-empty, consecutive and cover [start, end) exactly."""
    bounds = [start] + [b for _, b in spans]
    assert spans == list(zip(bounds, bounds[1:]))
    assert bounds[-1] == end and all(a < b for a, b in spans)


# --- generated text -------------------------------------------------------------

words = st.text(alphabet=CJK, min_size=1, max_size=8)
numbers = st.sampled_from(["3.5", "1,000", "12:30", "2019-01-03", "42", "０.５"])
titles = words.map(lambda w: f"《{w}》")
parens = st.lists(st.one_of(words, st.sampled_from("，。")), min_size=1, max_size=4).map(
    lambda p: "（" + "".join(p) + "）")
punct = st.sampled_from(["。", "，", "、", "；", "：", "！", "？", "。”", "\n", "\n\n", " ",
                         "\n \n", "!", "?", ",", ":"])
stray = st.sampled_from(list("《》（）()“”‘’【】[]「」\""))
token = st.one_of(words, words, numbers, titles, parens, punct, stray,
                  st.text(max_size=3))  # a little arbitrary unicode too
docs = st.lists(token, max_size=60).map("".join)


@SETTINGS
@given(docs, st.integers(1, 40), st.data())
def test_cover_budget_deterministic(text, max_chars, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    spans = split_span(text, start, end, max_chars)
    check_cover(spans, start, end)
    assert all(b - a <= max_chars for a, b in spans)
    assert split_span(text, start, end, max_chars) == spans


@SETTINGS
@given(docs, st.integers(2, 60))
def test_custom_size(text, max_chars):
    spans = split_span(text, 0, len(text), max_chars, size=cjk2)
    check_cover(spans, 0, len(text))
    assert all(cjk2(text[a:b]) <= max_chars for a, b in spans)


@SETTINGS
@given(docs, st.integers(1, 30), st.lists(st.integers(-5, 300), max_size=8),
       st.lists(st.integers(-5, 300), max_size=8))
def test_caller_cuts_any_offsets(text, max_chars, coarse, fine):
    # Out-of-range, duplicate and unsorted caller cuts are tolerated.
    spans = split_span(text, 0, len(text), max_chars, cuts=[coarse, fine])
    check_cover(spans, 0, len(text))
    assert all(b - a <= max_chars for a, b in spans)


# Protected units recorded with their offsets; filler cannot merge with them.
unit = st.one_of(numbers, titles, parens,
                 st.sampled_from(["“" + "当事人应当，按照约定。" + "”", "（甲）"]))
filler = st.lists(st.one_of(words, st.sampled_from(["。", "，", "、", "\n", "；"])),
                  min_size=1, max_size=4).map("".join)


@SETTINGS
@given(st.lists(st.tuples(filler, unit), max_size=15), filler, st.integers(4, 40),
       st.booleans())
def test_protected_units_not_cut(pairs, tail, max_chars, custom):
    parts, units = [], []
    pos = 0
    for f, u in pairs:
        parts += [f, u]
        pos += len(f)
        units.append((pos, pos + len(u)))
        pos += len(u)
    text = "".join(parts) + tail
    size = cjk2 if custom else len
    spans = split_span(text, 0, len(text), max_chars, size=cjk2 if custom else None)
    check_cover(spans, 0, len(text))
    cut_points = {a for a, _ in spans[1:]}
    for p, q in units:
        if size(text[p:q]) <= max_chars:
            assert not any(p < c < q for c in cut_points), (text[p:q], spans)


# --- handwritten ----------------------------------------------------------------

def test_prefers_sentence_end_over_comma():
    sentence = "甲" * 19 + "，" + "乙" * 19 + "。"  # 40 chars
    text = sentence * 3
    spans = split_span(text, 0, len(text), 90)
    assert spans == [(0, 80), (80, 120)]
    assert text[79] == "。"


def test_sentence_end_includes_closing_quote():
    text = "他说：“合同无效。”" + "丙" * 20 + "。"
    spans = split_span(text, 0, len(text), 12)
    assert spans[0] == (0, 10) and text[:10].endswith("。”")


def test_prefers_blank_line_then_line():
    text = "第一段第一句。第一段第二句。\n\n第二段。\n第二段续。"
    spans = split_span(text, 0, len(text), 20)
    assert [text[a:b] for a, b in spans] == ["第一段第一句。第一段第二句。\n\n", "第二段。\n第二段续。"]
    spans = split_span(text, 16, len(text), 6)
    assert [text[a:b] for a, b in spans] == ["第二段。\n", "第二段续。"]


def test_caller_cuts_preferred_and_nested():
    kuan = "一二三四五六七八九。" * 5  # 50 chars, sentence ends every 10
    text = kuan * 3
    spans = split_span(text, 0, len(text), 60, cuts=[[50, 100]])
    assert spans == [(0, 50), (50, 100), (100, 150)]
    # A 款 that is too big is cut at its 项 (finer caller level) before sentences.
    spans = split_span(text, 0, 100, 40, cuts=[[50], [20, 70]])
    assert spans == [(0, 20), (20, 50), (50, 70), (70, 100)]


def test_numbers_and_titles_kept_whole():
    text = "违约金为3.5万元，合计1,000元，时间12:30，日期2019-01-03，依据《中华人民共和国民法典》。"
    for max_chars in range(14, 30):
        spans = split_span(text, 0, len(text), max_chars)
        for unit in ("3.5", "1,000", "12:30", "2019-01-03", "《中华人民共和国民法典》"):
            p = text.index(unit)
            assert not any(p < a < p + len(unit) for a, _ in spans), (max_chars, unit, spans)


def test_oversized_title_and_unbalanced_brackets_still_cut():
    title = "《" + "中华人民共和国民法典" * 3 + "》"
    text = "依据" + title + "执行。"
    spans = split_span(text, 0, len(text), 10)
    check_cover(spans, 0, len(text))
    assert all(b - a <= 10 for a, b in spans)
    # An unclosed opener must not protect the rest of the document.
    text = "（未闭合括号，" + "后面的句子。" * 10
    spans = split_span(text, 0, len(text), 12)
    assert all(text[b - 1] in "。，" for _, b in spans)


def test_word_level_for_unpunctuated_text():
    text = "中华人民共和国" * 6
    spans = split_span(text, 0, len(text), 10)
    assert all(b - a <= 10 for a, b in spans)
    assert all(b % 7 == 0 for _, b in spans)  # jieba keeps 中华人民共和国 whole


# Text that only words can cut: runs of CJK and Latin, digits, single spaces, a CR LF, marks,
# brackets (protected units) and no punctuation the coarser levels cut at.
word_runs = st.lists(st.one_of(words, words, st.sampled_from(["WBC", "6.5", "10^9/L", "a+b", "e\u0301", "\r\n",
                                                              "（白细胞）", "《合同》", " ", "\u3000", "↑"])),
                     max_size=80).map("".join)


@SETTINGS
@given(word_runs, st.integers(1, 40))
def test_word_level_tested_per_offset_cuts_as_listing_every_word(text, max_chars):
    # Measured in characters the word level tests offsets near the budget's reach; a size
    # function (here len itself) lists every word of the piece. Both must cut alike.
    assert split_span(text, 0, len(text), max_chars) == split_span(text, 0, len(text), max_chars, size=len)


def test_graphemes_not_split():
    text = "e\u0301" * 10
    spans = split_span(text, 0, len(text), 3)
    check_cover(spans, 0, len(text))
    assert all(b % 2 == 0 for _, b in spans)
    # A grapheme larger than the budget falls back to code points.
    assert split_span("e\u0301\u0302", 0, 3, 1) == [(0, 1), (1, 2), (2, 3)]


def test_errors_and_edges():
    with pytest.raises(ValueError):
        split_span("abc", 0, 3, 0)
    with pytest.raises(ValueError):
        split_span("abc", 2, 1, 5)
    with pytest.raises(ValueError):
        split_span("abc", 0, 4, 5)
    with pytest.raises(ValueError):  # one CJK char measures 2 > 1
        split_span("法", 0, 1, 1, size=cjk2)
    assert split_span("abc", 1, 1, 5) == []
    assert split_span("abc", 0, 3, 5) == [(0, 3)]
    assert split_span("  \n\n  ", 0, 6, 2) == [(0, 2), (2, 3), (3, 4), (4, 6)]


def test_pack_segments():
    assert pack_segments([0, 3, 5, 9, 10], 5) == [(0, 5), (5, 10)]
    assert pack_segments([0, 7, 8], 5) == [(0, 7), (7, 8)]  # lone oversized segment
    assert pack_segments([0], 5) == []
    text = "法法a法aaaa"
    bounds = [0, 1, 2, 3, 4, 8]
    assert pack_segments(bounds, 4, cjk2, text) == [(0, 2), (2, 4), (4, 8)]
    with pytest.raises(ValueError):
        pack_segments(bounds, 4, cjk2)


def test_import_does_not_load_jieba():
    code = "import sys, domainchunk.fallback; assert 'jieba' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])
