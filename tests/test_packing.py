"""Packing, ids and links (domainchunk.packing), over generated statutes.

- every unit lies in exactly one packed chunk, whole; a pack holds each heading below its
  path whole or not at all, and its path is its units' common heading plus their range;
- packs are within max_chars unless they hold a single larger unit;
- ids are the same in every run and unique; prev/next form one chain; parent ids resolve;
- overlapping pieces stay inside their unit and within the limit.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domainchunk
from domainchunk.errors import UsageError
from domainchunk.numerals import to_chinese
from domainchunk.packing import best_units, context_text, rank_packs, size_function

_WORDS = st.sampled_from(["劳动者", "用人单位", "应当", "依法", "订立", "书面", "合同", "的", "权利", "义务",
                          "。", "，", "；", "本法", "规定", "（一）", "工资", "\n"])


@st.composite
def statute(draw) -> str:
    """A statute of chapters, optional sections and articles of varied length (some oversize)."""
    lines = ["示范劳动法\n"]
    article = 0
    for ch in range(1, draw(st.integers(1, 3)) + 1):
        lines.append(f"第{to_chinese(ch)}章 第{ch}章名\n")
        for sec in range(1, draw(st.integers(0, 2)) + 1):
            lines.append(f"第{to_chinese(sec)}节 节名{sec}\n")
            for _ in range(draw(st.integers(1, 6))):
                article += 1
                body = "".join(draw(st.lists(_WORDS, min_size=1, max_size=draw(st.sampled_from([8, 30, 120]))))).strip()
                lines.append(f"第{to_chinese(article)}条 {body or '规定'}。\n")
        if article == 0 or draw(st.booleans()):
            article += 1
            lines.append(f"第{to_chinese(article)}条 本章规定。\n")
    return "".join(lines)


def _check_packing(plain, packed, max_chars: int) -> None:
    text = packed.document.text
    units = plain.chunks
    for c in packed.chunks:
        assert text[c.start : c.end] == c.text
        inside = [u for u in units if c.start <= u.start and u.end <= c.end]
        assert inside, f"chunk {c.index} holds no unit"
        assert c.start == inside[0].start and c.end == inside[-1].end
        if c.rule == "pack":
            assert len(inside) > 1 and c.children == [u.id for u in inside]
            assert [u["id"] for u in c.metadata["units"]] == c.children
            assert c.size <= max_chars, f"a pack of {len(inside)} units over the limit"
            common = c.path[:-1]
            assert all(u.path[: len(common)] == common for u in inside), "a pack crossed its heading"
            assert len({u.path[len(common)] for u in inside}) > 1, "the path is not the longest common heading"
            for u in inside:  # every heading below the common one is in this pack whole
                for k in range(len(common) + 1, len(u.path)):
                    assert all(v in inside for v in units if v.path[:k] == u.path[:k]), "a pack split a heading"
            assert c.path[-1] == f"{inside[0].path[-1]}至{inside[-1].path[-1]}"
        else:
            assert [u.id for u in inside] == [c.id]
    for u in units:  # no unit cut: each lies wholly in exactly one chunk and meets no other
        holders = [c for c in packed.chunks if c.start <= u.start and u.end <= c.end]
        assert len(holders) == 1
        touching = [c for c in packed.chunks if c.start < u.end and u.start < c.end]
        assert touching == holders, "a unit was cut"


def _check_links(result) -> None:
    chunks, parents = result.chunks, result.parents
    ids = [c.id for c in (*chunks, *parents)]
    assert all(ids) and len(set(ids)) == len(ids), "ids missing or not unique"
    by_id = {c.id: c for c in (*chunks, *parents)}
    # prev/next: one chain from the first chunk to the last, in document order
    assert chunks[0].prev_id is None and chunks[-1].next_id is None
    walk, cur = [], chunks[0]
    while cur is not None:
        walk.append(cur.id)
        cur = by_id.get(cur.next_id) if cur.next_id else None
    assert walk == [c.id for c in chunks]
    for c in (*chunks, *parents):
        if c.parent_id is not None:
            parent = by_id[c.parent_id]
            assert c.id in parent.children and parent.start <= c.start and c.end <= parent.end
            assert parent.path == c.path[:-1]
    for p in parents:
        assert p.kind == "parent" and result.document.text[p.start : p.end] == p.text
        assert all(child in by_id for child in p.children)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), max_chars=st.integers(60, 600))
def test_packing_keeps_units_whole(text, max_chars):
    plain = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars)
    packed = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, pack=True, parents=True)
    _check_packing(plain, packed, max_chars)
    _check_links(packed)
    again = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, pack=True, parents=True)
    assert again.records() == packed.records(), "ids or records differ between runs"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), max_chars=st.integers(40, 400))
def test_unpacked_links(text, max_chars):
    result = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, parents=True)
    _check_links(result)
    plain = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars)
    assert [c.id for c in plain.chunks] == [c.id for c in result.chunks] and not plain.parents
    # the ids of one-unit chunks are the units a pack lists as children
    packed = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, pack=True)
    kids = {k for c in packed.chunks for k in (c.children or [c.id])}
    assert kids == {c.id for c in plain.chunks}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(_WORDS, min_size=60, max_size=300), max_chars=st.integers(40, 200),
       overlap=st.integers(1, 20))
def test_overlap_stays_inside_the_unit(words, max_chars, overlap):
    text = "示范法\n第一条 " + "".join(words) + "。\n第二条 " + "".join(reversed(words)) + "。\n"
    result = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, overlap=overlap)
    plain = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars)
    spans = {}
    for c in plain.chunks:
        spans.setdefault(tuple(c.path), []).append((c.start, c.end))
    for c in result.chunks:
        assert result.document.text[c.start : c.end] == c.text and len(c.text) <= max_chars
        lo, hi = min(a for a, _ in spans[tuple(c.path)]), max(b for _, b in spans[tuple(c.path)])
        assert lo <= c.start and c.end <= hi, "an overlap crossed the unit boundary"
    for prev, nxt in zip(result.chunks, result.chunks[1:]):
        if prev.path == nxt.path:
            assert prev.start < nxt.start and prev.end - nxt.start <= overlap
            gap = result.document.text[prev.end : nxt.start]
            assert not gap.strip(), "overlap left text out"
        else:
            assert nxt.start >= prev.end


def test_pack_path_metadata_and_rule():
    long = "规定" * 90
    text = ("示范法\n第一章 总则\n第一节 甲\n第一条 甲。\n第二条 乙，依照本法第一条。\n第二节 乙\n第三条 丙。\n"
            f"第二章 分则\n第四条 {long}。\n第五条 {long}。\n")
    result = domainchunk.chunk(text, doc_type="statute", max_chars=300, pack=True)
    first, fourth, fifth = result.chunks[-3:]
    # the small 节 of one 章 go together, under the 章
    assert first.path == ["第一章 总则", "第一条至第三条"] and first.rule == "pack" and first.kind == "pack"
    assert [u["label"] for u in first.metadata["units"]] == ["第一条", "第二条", "第三条"]
    assert [u["number"] for u in first.metadata["units"]] == [1, 2, 3]
    assert first.metadata["citations"][0]["article"] == 1
    # a 章 too big for one pack is packed inside itself; here each article stays itself
    assert fourth.path == ["第二章 分则", "第四条"] and fourth.rule == "statute.article"
    assert fifth.path == ["第二章 分则", "第五条"]


def test_small_chapters_pack_together_under_the_document():
    text = "示范法\n第一章 总则\n第一条 甲。\n第二章 分则\n第二条 乙。\n第三条 丙。\n"
    pack = domainchunk.chunk(text, doc_type="statute", max_chars=1000, pack=True, parents=True).chunks[-1]
    assert pack.path == ["第一条至第三条"] and len(pack.children) == 3 and pack.parent_id is None


def test_title_lines_are_no_unit_of_a_pack():
    result = domainchunk.chunk("示范法\n第一条 甲。\n第二条 乙。\n", doc_type="statute", pack=True)
    assert [(c.path, c.rule) for c in result.chunks] == [([], result.chunks[0].rule), (["第一条至第二条"], "pack")]


def test_context_text_capped_to_the_size_function():
    result = domainchunk.chunk("示范法\n第一章 总则\n第一条 " + "规定" * 50 + "。\n", doc_type="statute")
    c = result.chunks[-1]
    full = context_text(c, title="示范法")
    assert full.startswith("示范法\n第一章 总则 > 第一条\n") and full.endswith(c.text)
    capped = context_text(c, title="示范法", max_size=40)
    assert len(capped) == 40 and capped == full[:40]
    words = size_function("jieba")
    assert words(context_text(c, title="示范法", max_size=20, size=words)) <= 20
    result.document.title = "示范法"
    assert result.contexts()[-1] == full and result.contexts(40)[-1] == capped


def test_jieba_size_counts_words():
    words = size_function("jieba")
    assert words("劳动者 应当") == 2 and words("") == 0


def test_tokenizers_file_measures_tokens(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")  # in the test extra
    from tokenizers import models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(["劳动者 应当 订立 合同"], trainers.WordLevelTrainer(special_tokens=["[UNK]"]))
    path = tmp_path / "tok.json"
    tok.save(str(path))
    size = size_function(str(path))
    assert size("劳动者 应当 订立") == 3
    text = "示范法\n第一条 " + " ".join(["劳动者 应当 订立 合同。"] * 30) + "\n"
    result = domainchunk.chunk(text, doc_type="statute", max_chars=25, size=size)
    assert len(result.chunks) > 2 and all(c.size == size(c.text) <= 25 for c in result.chunks)


def test_bad_tokenizer_names_the_cause(tmp_path):
    with pytest.raises(UsageError, match="no tokenizer file"):
        size_function(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(UsageError, match="not a tokenizers JSON file"):
        size_function(str(bad))


def test_overlap_over_half_the_limit_is_a_usage_error():
    with pytest.raises(UsageError, match="overlap"):
        domainchunk.chunk("示范法\n第一条 甲。\n", doc_type="statute", max_chars=10, overlap=6)


def test_cli_pack_parents_tokenizer(tmp_path):
    src = tmp_path / "law.txt"
    src.write_text("示范法\n第一章 总则\n第一条 甲。\n第二条 乙。\n第二章 分则\n第三条 丙。\n第四条 丁。\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(src), "-o", str(out), "-q",
                           "--pack", "--parents", "--tokenizer", "jieba", "--max-chars", "10"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    packs = [r for r in recs if r["kind"] == "pack"]
    parents = {r["id"]: r for r in recs if r["kind"] == "parent"}
    assert [p["path"] for p in packs] == [["第一章 总则", "第一条至第二条"], ["第二章 分则", "第三条至第四条"]]
    assert all(parents[p["parent_id"]]["path"] == p["path"][:-1] for p in packs)
    assert all(isinstance(r["size"], int) for r in recs)
    bad = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(src), "-o", str(tmp_path / "x.jsonl"),
                          "--tokenizer", str(tmp_path / "none.json")], capture_output=True, text=True)
    assert bad.returncode == 2 and "none.json" in bad.stderr
    wide = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(src), "-o", str(tmp_path / "y.jsonl"),
                           "--max-chars", "100", "--overlap", "60"], capture_output=True, text=True)
    assert wide.returncode == 2 and "--overlap" in wide.stderr


def test_best_units_hands_back_the_best_matching_units():
    text = "示范法\n第一章 总则\n" + "".join(f"第{to_chinese(n)}条 规定{n}。\n" for n in range(1, 7))
    units = {c.id: c for c in domainchunk.chunk(text, doc_type="statute", max_chars=1000).chunks}
    pack = domainchunk.chunk(text, doc_type="statute", max_chars=1000, pack=True).chunks[-1]
    assert len(pack.children) == 6
    number = {c.id: c.metadata["article"] for c in units.values() if "article" in c.metadata}
    score = {1: 0.5, 2: 3.0, 3: 0.0, 4: 2.0, 5: 0.5, 6: 1.0}
    got = best_units(pack, units, lambda c: score[number[c.id]], 3)
    assert [number[c.id] for c in got] == [2, 4, 6]
    assert [number[c.id] for c in best_units(pack, units, lambda c: score[number[c.id]], 5)] == [2, 4, 6, 1, 5]
    single = next(c for c in units.values() if c.kind == "preamble")
    assert best_units(single, units, lambda c: 0.0) == [single]  # a unit is its own result


def test_best_units_within_a_budget():
    text = "示范法\n第一章 总则\n" + "".join(f"第{to_chinese(n)}条 {'规定' * (5 * n)}。\n" for n in range(1, 6))
    units = {c.id: c for c in domainchunk.chunk(text, doc_type="statute", max_chars=1000).chunks}
    pack = domainchunk.chunk(text, doc_type="statute", max_chars=1000, pack=True).chunks[-1]
    number = {c.id: c.metadata["article"] for c in units.values() if "article" in c.metadata}
    size = {number[k]: units[k].size for k in pack.children}
    score = {1: 1.0, 2: 0.0, 3: 2.0, 4: 3.0, 5: 0.5}  # best first: 4, 3, 1, 5, 2

    def got(budget):
        return [number[c.id] for c in best_units(pack, units, lambda c: score[number[c.id]], budget=budget)]

    assert got(size[4] + size[3]) == [4, 3]
    assert got(size[4] + size[1]) == [4, 1]  # the 3rd is passed over for a smaller one that fits
    assert got(1) == [4]  # the best one even when it alone is over
    assert got(10_000) == [4, 3, 1, 5, 2]
    weak = best_units(pack, units, lambda c: score[number[c.id]], budget=10_000, ratio=0.5)
    assert [number[c.id] for c in weak] == [4, 3]  # 1.0 and under are below half the best's 3.0


def test_rank_packs_weighs_a_pack_by_its_best_unit_too():
    text = "示范法\n" + "".join(f"第{to_chinese(c)}章 章名\n" + "".join(
        f"第{to_chinese(3 * c + n - 3)}条 规定。\n" for n in (1, 2, 3)) for c in (1, 2, 3))
    units = {c.id: c for c in domainchunk.chunk(text, doc_type="statute", max_chars=30).chunks}
    packs = [c for c in domainchunk.chunk(text, doc_type="statute", max_chars=30, pack=True).chunks if c.children]
    assert len(packs) == 3
    number = {c.id: c.metadata["article"] for c in units.values() if "article" in c.metadata}
    # The first pack matches a little in every article, the second strongly in one, the third not at all.
    unit = {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 4.0, 6: 0.0, 7: 0.0, 8: 0.0, 9: 0.0}
    own = {packs[0].id: 3.0, packs[1].id: 2.0, packs[2].id: 0.0}

    def ranked(weight):
        got = rank_packs(packs, lambda c: own[c.id], units, lambda c: unit[number[c.id]], weight)
        return [packs.index(c) for c in got]

    assert ranked(0.0) == [0, 1]  # the packs' own ranking; a pack scoring nothing is left out
    assert ranked(0.5) == [1, 0]  # 0.5 * 2/3 + 0.5 * 4/4 against 0.5 * 3/3 + 0.5 * 1/4
    assert ranked(1.0) == [1, 0]
    lone = next(c for c in units.values() if c.kind == "preamble")  # no children: its own unit
    assert rank_packs([lone, packs[2]], lambda c: 0.0, units, lambda c: 1.0 if c.id == lone.id else 0.0) == [lone]
    assert rank_packs([], lambda c: 1.0, units, lambda c: 1.0) == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), seed=st.integers(0, 10_000), weight=st.sampled_from([0.0, 0.5, 1.0]))
def test_rank_packs_orders_the_packs_by_their_fused_score(text, seed, weight):
    units = {c.id: c for c in domainchunk.chunk(text, doc_type="statute", max_chars=600).chunks}
    packs = domainchunk.chunk(text, doc_type="statute", max_chars=600, pack=True).chunks
    unit = {k: float(hash((k, seed)) % 7) for k in units}
    own = {c.id: float(hash((c.id, seed, 1)) % 5) for c in packs}
    got = rank_packs(packs, lambda c: own[c.id], units, lambda c: unit[c.id], weight)
    assert len({c.id for c in got}) == len(got) and {c.id for c in got} <= {c.id for c in packs}
    best = {c.id: max(unit[k] for k in (c.children or [c.id])) for c in packs}
    top_own, top_best = max(own.values()) or 1.0, max(best.values()) or 1.0
    fused = {c.id: (1 - weight) * own[c.id] / top_own + weight * best[c.id] / top_best for c in packs}
    assert [fused[c.id] for c in got] == sorted((fused[c.id] for c in got), reverse=True)
    assert {c.id for c in got} == {k for k, f in fused.items() if f > 0}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), budget=st.integers(1, 600), seed=st.integers(0, 10_000), ratio=st.sampled_from([0.0, 0.4, 0.9]))
def test_small_to_big_hands_back_the_best_units_that_fit(text, budget, seed, ratio):
    units = {c.id: c for c in domainchunk.chunk(text, doc_type="statute", max_chars=600).chunks}
    packs = domainchunk.chunk(text, doc_type="statute", max_chars=600, pack=True).chunks
    score = {k: float(hash((k, seed)) % 97) for k in units}
    for pack in packs:
        got = best_units(pack, units, lambda c: score[c.id], budget=budget, ratio=ratio)
        members = pack.children or [pack.id]
        assert got and all(c.id in members for c in got) and len({c.id for c in got}) == len(got)
        assert [score[c.id] for c in got] == sorted((score[c.id] for c in got), reverse=True)
        assert score[got[0].id] == max(score[k] for k in members)  # the best unit always comes back
        floor = ratio * score[got[0].id]
        assert all(score[c.id] >= floor for c in got), "a unit under the ratio came back"
        used = sum(c.size for c in got)
        assert used <= budget or len(got) == 1
        left = budget - used
        missing = [k for k in members if k not in {c.id for c in got} and score[k] >= floor]
        assert all(units[k].size > left for k in missing), "a unit that fit was left"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), max_chars=st.integers(80, 400), pack=st.booleans())
def test_context_text_leads_with_title_and_path_and_fits(text, max_chars, pack):
    result = domainchunk.chunk(text, doc_type="statute", max_chars=max_chars, context_fit=True, pack=pack)
    title = result.document.title
    assert title == "示范劳动法"
    assert result.contexts() == [c.context_text for c in result.chunks]
    for c in result.chunks:
        assert len(c.context_text) <= max_chars and c.context_text.endswith(c.text)
        head = "\n".join(p for p in (title, " > ".join(c.path)) if p)
        assert c.context_text.startswith(head + "\n")
