"""Invariants of the whole pipeline, over generated and real text.

- every chunk is an exact slice: ``doc.text[c.start:c.end] == c.text``;
- chunks are in order, do not overlap, are never empty;
- every non-whitespace character lies in exactly one chunk;
- no chunk is longer than ``max_chars``; same input, same output.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domainchunk
from domainchunk.numerals import to_chinese

ROOT = Path(__file__).resolve().parents[1]


def check_invariants(result, max_chars: int) -> None:
    text = result.document.text
    covered = bytearray(len(text))
    last_end = 0
    for i, c in enumerate(result.chunks):
        assert c.index == i
        assert text[c.start : c.end] == c.text
        assert c.text.strip(), "empty chunk"
        assert c.start >= last_end, "chunks overlap or are out of order"
        assert len(c.text) <= max_chars, f"chunk {i} has {len(c.text)} > {max_chars} chars"
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
        last_end = c.end
    lost = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert not lost, f"{len(lost)} non-whitespace characters in no chunk, first at {lost[0]}"


_pieces = st.sampled_from(
    ["第一章 总则\n", "第二节 示范\n", "第一编 总则\n", "序言\n", "附则\n", "附件一\n", "一、", "（一）", "1.",
     "本法", "规定的", "3.5", "1,000", "《示范法》", "（括号内容）", "“引号”", "。", "，", "；", "\n", "\n\n", " ",
     "\u3000", "甲方", "乙方", "判决如下：", "主诉：", "检验项目", "\t", "abc", "12:30"]
)


@st.composite
def legalish_text(draw) -> str:
    parts = []
    article = 0
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            article += draw(st.integers(0, 2))
            parts.append(f"\n第{to_chinese(max(article, 1))}条 ")
        elif kind == 1:
            parts.append(draw(_pieces))
        else:
            parts.append(draw(st.text(alphabet="的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质", min_size=1, max_size=60)))
    return "".join(parts)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=legalish_text(), max_chars=st.integers(8, 300), doc_type=st.sampled_from(["auto", "statute", "contract", "judgment", "medical_record", "lab_report", "generic"]))
def test_invariants_on_generated_text(text, max_chars, doc_type):
    if not text.strip():
        return
    result = domainchunk.chunk(text, doc_type=doc_type, max_chars=max_chars)
    check_invariants(result, max_chars)
    again = domainchunk.chunk(text, doc_type=doc_type, max_chars=max_chars)
    assert [c.to_record() for c in again.chunks] == [c.to_record() for c in result.chunks]


SUFFIXES = {".txt", ".md", ".csv", ".pdf", ".docx"}


def _real_documents() -> list[Path]:
    docs = sorted(p for p in (ROOT / "corpora").rglob("*") if p.suffix in SUFFIXES)
    shared = ROOT.parent / "shared" / "corpus" / "docs"
    if shared.is_dir():
        docs += sorted(p for p in shared.iterdir() if p.suffix in SUFFIXES)
    return docs


@pytest.mark.parametrize("path", _real_documents(), ids=lambda p: p.name)
@pytest.mark.parametrize("max_chars", [200, 1000])
def test_invariants_on_real_documents(path, max_chars):
    result = domainchunk.chunk(path, max_chars=max_chars)
    check_invariants(result, max_chars)


def test_token_counter_limits_size():
    """With a size function (tokens), the limit is in its units, not characters."""
    text = "第一条 " + "这是一个很长的示范句子，" * 60 + "结束。"

    def cjk_tokens(s: str) -> int:
        return sum(2 if "\u4e00" <= ch <= "\u9fff" else 1 for ch in s)

    result = domainchunk.chunk(text, doc_type="statute", max_chars=100, size=cjk_tokens)
    assert len(result.chunks) > 1
    assert all(cjk_tokens(c.text) <= 100 for c in result.chunks)
    check_invariants(result, 100)
