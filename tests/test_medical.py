"""Medical records: sections by vocabulary, records as outer path, metadata (scores: test_corpora.py)."""
from __future__ import annotations

from pathlib import Path

from domainchunk import pipeline
from domainchunk.rulefile import load_rules


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
