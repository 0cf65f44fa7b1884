"""The suite's scorer: its rules on hand-made cases, and exact agreement with ../shared/tools/score.py."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from generalisation import LARGE_SAMPLE_STEP, SHARED
from scoring import (
    opens_with_unit,
    path_ends_with,
    records_by_document,
    score_directory,
    score_document,
    squash,
    summarise,
)

SCORE_PY = SHARED / "tools" / "score.py"
GOLD = {
    "doc_type": "statute",
    "units": [
        {"path": ["第一章 总则", "第一条"], "anchor": "第一条　为了规范", "norm_len": 20},
        {"path": ["第一章 总则", "第二条"], "anchor": "第二条 本条例适用", "norm_len": 2000},
        {"path": ["第二章 管理", "第三条"], "anchor": "第三条 应当", "norm_len": 30},
    ],
}


def _chunk(text, path=(), doc_type="statute"):
    return {"text": text, "path": list(path), "doc_type": doc_type}


def test_squash_applies_nfkc_radicals_and_drops_whitespace():
    assert squash("第⼀条 \u3000人⺠\n法院") == "第一条人民法院"


def test_a_unit_may_follow_unpunctuated_heading_text_within_the_room():
    assert opens_with_unit("第一章总则第一条为了", "第一条为了")
    assert not opens_with_unit("前文。第一条为了", "第一条为了")  # a sentence ended before it
    assert not opens_with_unit("章" * 81 + "第一条为了", "第一条为了")  # past the 80-character room
    assert opens_with_unit("章" * 80 + "第一条为了", "第一条为了")


def test_gold_path_elements_are_prefixes_of_the_innermost_predicted_ones():
    assert path_ends_with(["法", "第一章 总则", "第一条 【目的】"], ["第一章总则", "第一条"])
    assert not path_ends_with(["第一条"], ["第一章 总则", "第一条"])
    assert not path_ends_with(["第二章 管理", "第一条"], ["第一章", "第一条"])
    assert path_ends_with(["anything"], [])


def test_document_score_counts_recall_path_spurious_oversize_and_type():
    chunks = [
        _chunk("示范条例"),  # preamble before the first unit: not judged
        _chunk("第一章 总则\n第一条　为了规范。", ["第一章 总则", "第一条"]),
        _chunk("还是第一条。"),  # a split inside a short unit: spurious
        _chunk("第二条 本条例适用" + "甲" * 995, ["第一章 总则", "第二条"]),  # oversize
        _chunk("第二条的后半。"),  # inside a long unit: needed, not spurious
        _chunk("第三条 应当", ["第三条"], doc_type="generic"),  # path misses its 章
    ]
    row = score_document(GOLD, chunks, max_chars=1000)
    assert (row.units, row.found, row.path_ok, row.chunks) == (3, 3, 2, 6)
    assert (row.spurious, row.oversize) == (1, 1)
    assert row.pred_type == "statute" and row.type_ok == 1
    assert row.gold_chars == 2050
    table = summarise([row])["statute"]
    assert table["recall"] == 1.0 and table["path_acc"] == 0.667 and table["spurious"] == 0.167


def test_units_match_in_order_and_a_missing_document_scores_nothing():
    # the only chunk starting 第一条 comes after 第二条's: 第一条 matches it, 第二条 is then lost
    chunks = [_chunk("第二条本条例适用"), _chunk("第一条为了规范"), _chunk("第三条应当")]
    assert score_document(GOLD, chunks).found == 2
    empty = score_document(GOLD, [])
    assert (empty.found, empty.pred_type, empty.type_ok) == (0, None, 0)
    assert summarise([empty])["statute"]["missing"] == 1


# ---------------------------------------------------------------- agreement with the shared tool


def _shared_tool():
    if not SCORE_PY.is_file():
        pytest.skip("../shared/tools/score.py is not present")
    spec = importlib.util.spec_from_file_location("shared_score", SCORE_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _agree(files: list[Path], gold_dir: Path, tmp_path: Path) -> None:
    pred = tmp_path / "pred.jsonl"
    subprocess.run([sys.executable, "-m", "domainchunk", "chunk", *map(str, files), "-o", str(pred),
                    "--max-chars", "1000", "-q"], check=True, capture_output=True)
    theirs = json.loads(subprocess.run(
        [sys.executable, str(SCORE_PY), "--gold", str(gold_dir), "--pred", str(pred), "--max-chars", "1000",
         "--only-present", "--per-doc", "--json"], check=True, capture_output=True, text=True).stdout)
    rows = score_directory(gold_dir, records_by_document(pred), 1000, only_present=True)
    assert len(rows) == len(files)
    ours_by_doc = {row.doc: row.as_dict() for row in rows}
    for their_row in theirs["docs"]:
        mine = ours_by_doc[their_row["doc"]]
        assert {k: mine[k] for k in their_row} == their_row
    assert summarise(rows) == theirs["types"]


def test_agrees_with_the_shared_scorer_on_the_shared_corpus(shared_corpus, tmp_path):
    _shared_tool()
    gold = shared_corpus / "gold"
    files = sorted(shared_corpus / "docs" / g.name[: -len(".gold.json")] for g in gold.glob("*.gold.json"))
    _agree(files, gold, tmp_path)


def test_agrees_with_the_shared_scorer_on_a_corpus_large_sample(tmp_path):
    _shared_tool()
    base = SHARED / "corpus-large" / "statutes"
    if not (base / "gold").is_dir():
        pytest.skip("../shared/corpus-large is not present")
    golds = sorted((base / "gold").glob("*.gold.json"))[:: LARGE_SAMPLE_STEP * 2]
    files = [base / "docs" / g.name[: -len(".gold.json")] for g in golds]
    _agree(files, base / "gold", tmp_path)
