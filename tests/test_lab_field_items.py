"""Lab items written as fields (``R值：11.6 min ↑（5-10）``), as a report without a table writes them."""
from __future__ import annotations

import domainchunk
from domainchunk.chunkers.lab import builtin_vocab, parse_field_item


def test_a_field_gives_its_result_unit_flag_and_range():
    v = builtin_vocab()
    assert parse_field_item("　　R值（凝血反应时间）：11.6 min ↑（5-10）", v) == {
        "name": "R值（凝血反应时间）", "result": "11.6", "unit": "min", "ref": "5-10", "flag": "high"}
    assert parse_field_item("CI（凝血综合指数）：-4.6 ↓（-3～3）", v) == {
        "name": "CI（凝血综合指数）", "result": "-4.6", "unit": None, "ref": "-3～3", "flag": "low"}


def test_a_header_field_a_finding_or_a_titre_is_no_field_item():
    v = builtin_vocab()
    assert parse_field_item("标本：枸橼酸钠全血　采样时间：2027-12-03 05:40", v) is None
    assert parse_field_item("超广谱β-内酰胺酶(ESBL)：阳性(+)", v) is None
    assert parse_field_item("1     抗核抗体ANA（间接免疫荧光）     阳性(+)  1:320（<1:100）", v) is None


def test_a_panel_of_field_items_reports_its_abnormal_items():
    text = ("示范医院输血科\n检验结果单\n姓名：某甲　住院号：T0001\n\n一、凝血四项\n　　标本：枸橼酸钠血浆\n"
            "　　凝血酶原时间（PT）：14.9 秒 ↑（9.8-12.1）\n　　凝血酶时间（TT）：18.3 秒（14.0-21.0）\n")
    panel = [c for c in domainchunk.chunk(text, doc_type="lab_report", max_chars=1000).chunks if c.path][0]
    assert panel.metadata["abnormal"] == ["凝血酶原时间（PT）"]
    assert [it["ref"] for it in panel.metadata["items"]] == ["9.8-12.1", "14.0-21.0"]
