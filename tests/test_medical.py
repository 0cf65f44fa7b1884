"""Medical records: sections by vocabulary, records as outer path, metadata; shared-corpus score."""
from __future__ import annotations

import json
from pathlib import Path

from domainchunk import pipeline
from domainchunk.rulefile import load_rules

from conftest import load_scorer, score_files

ROOT = Path(__file__).resolve().parents[1]


def test_aliases_map_to_canonical_sections():
    rules = load_rules()["medical_record"]
    assert rules.term("section", "初步诊断") == "入院诊断"
    assert rules.term("section", "专科检查") == "专科情况"
    assert rules.term("section", "月经婚育史") == "月经史"
    assert rules.term("section", "体温") is None


def test_bundle_records_are_outer_path():
    result = pipeline.chunk(ROOT / "corpora" / "emr_bundle_示例.txt")
    assert result.detection.doc_type == "medical_record"
    by_path = {tuple(c.path): c for c in result.chunks}
    header = by_path[("入院记录",)]
    assert header.text.startswith("【入院记录】") and "主诉" not in header.text
    assert header.metadata["record_date"] == "2024-02-10"
    assert by_path[("入院记录", "初步诊断")].metadata["section"] == "入院诊断"
    exam = by_path[("入院记录", "辅助检查")].metadata
    assert exam["abnormal"] == ["白细胞", "中性粒细胞百分比"]
    assert not any(c.text.startswith(("耳:", "体温", "2、主诉")) for c in result.chunks)


def test_own_corpora_score(tmp_path):
    files = sorted((ROOT / "corpora").glob("emr_*.txt")) + sorted((ROOT / "corpora").glob("lab_*.txt"))
    files += sorted((ROOT / "corpora").glob("lab_*.csv"))
    out = tmp_path / "pred.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for f in files:
            for rec in pipeline.chunk(f, max_chars=1000).records():
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    scorer = load_scorer()
    preds = scorer.load_pred(out)
    for f in files:
        gold = json.loads((f.parent / (f.name + ".gold.json")).read_text(encoding="utf-8"))
        row = scorer.score_doc(gold, preds[f.name], 1000)
        assert row["type_ok"] and row["found"] == row["units"] == row["path_ok"] and not row["spurious"], (f.name, row)


def test_shared_medical_and_lab_scores(shared_corpus, tmp_path):
    docs = sorted((shared_corpus / "docs").glob("emr_*")) + sorted((shared_corpus / "docs").glob("lab_*"))
    types = score_files(docs, tmp_path)["types"]
    for doc_type in ("medical_record", "lab_report"):
        t = types[doc_type]
        assert t["type_acc"] == 1.0 and t["oversize"] == 0, (doc_type, t)
        assert t["recall"] >= 0.97 and t["spurious"] <= 0.03 and t["path_acc"] >= 0.97, (doc_type, t)
