"""Metadata read where the rules read: a hard-wrapped copy of a document gives its chunks the same
metadata as the document as written (parties, amounts, dates, cause, citations, the rule variant),
whatever the process has compiled so far."""
from __future__ import annotations

from pathlib import Path

import pytest

import relayout
from domainchunk import outline, pipeline

ROOT = Path(__file__).resolve().parents[1]
LEGAL = sorted(p for p in (ROOT / "corpora").glob("*.txt") if p.name.startswith(("judgment_", "contract_")))


def _metadata(text: str) -> tuple[list[list[str]], list[dict]]:
    result = pipeline.chunk(text, max_chars=1000)
    return [c.path for c in result.chunks], [c.metadata for c in result.chunks]


def test_wrapped_judgments_and_contracts_keep_their_chunks_metadata():
    """Before metadata was read on the view, wrapped at 36: a judgment's cause read the tail of a
    party's name (路示范民间借贷纠纷), a contract's amounts and dates were cut at the line end
    (¥328,000,000.00元 → 00元), and 177 of 895 judgment chunks lost the name of their variant."""
    assert len(LEGAL) > 100
    compared = 0
    for path in LEGAL:
        text = path.read_text(encoding="utf-8")
        paths, written = _metadata(text)
        wrapped_paths, wrapped = _metadata(relayout.wrapped(text))
        if wrapped_paths != paths:
            continue  # the outline itself moved: scored by the metamorphic tests, not here
        compared += 1
        for a, b in zip(written, wrapped):
            assert a == b, path.name
    assert compared > 0.9 * len(LEGAL)


def test_the_variant_of_a_view_heading_does_not_depend_on_the_stdlib_scan(monkeypatch):
    """A heading found on the view is named by the variant it matched there: before, a process
    that had bought the levels' stdlib scan read the variant on the text as written, where a
    heading a wrap cut matches none, and one that had not read it on the view."""
    written = (ROOT / "corpora" / "judgment_专利侵权民事判决书_技术特征比对.txt").read_text(encoding="utf-8")

    def variants(text: str) -> list[str | None]:
        return [c.metadata.get("rule_variant") for c in pipeline.chunk(text, max_chars=1000).chunks]

    monkeypatch.setattr(outline, "_scan_when_it_pays", lambda key, levels, size: None)
    on_regex = variants(relayout.wrapped(written))
    monkeypatch.setattr(outline, "_scan_when_it_pays", lambda key, levels, size: outline._stdlib_scan(levels))
    on_scan = variants(relayout.wrapped(written))
    assert on_regex == on_scan == variants(written)
    assert on_scan.count(None) == 1  # the preamble's


@pytest.mark.parametrize("layout", [relayout.wrapped, relayout.no_spaces_wrapped])
def test_a_records_date_survives_a_full_header_line_run_on(layout):
    """A header line that fills the wrap width by chance is joined to the next on the view; the
    record's date label that opened the next line is read on the text as written."""
    record = ("示范精神卫生中心\n入院记录\n\n"
              "姓名：伍某某　　性别：女　　年龄：29岁　　婚姻：未婚　　职业：公司职员\n"
              "入院时间：2025-05-14 16:00　　入院方式：自愿入院（家属陪同）\n\n"
              "主诉：情绪低落、兴趣减退4月，凭空闻声、消极言行2周。\n\n"
              "现病史：患者4月前因工作调动后出现情绪低落，觉得做什么都没意思，不愿与同事交流，"
              "下班后独处卧室。睡眠差，入睡困难、早醒，食欲减退，体重下降约5kg。\n\n"
              "体格检查：体温36.5℃，脉搏78次/分，呼吸18次/分，血压112/70mmHg，神志清楚，查体合作。\n")
    assert pipeline.chunk(record, max_chars=1000).document.metadata["record_date"] == "2025-05-14"
    result = pipeline.chunk(layout(record), max_chars=1000)
    assert result.document.metadata["record_date"] == "2025-05-14"
    assert {c.metadata.get("record_date") for c in result.chunks} == {"2025-05-14"}
