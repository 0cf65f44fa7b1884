"""``anchor: field``: a section whose known label and colon run on right after a field's short value
(既往史：体健过敏史：无) opens there; a name inside a sentence does not."""
from __future__ import annotations

import domainchunk
from domainchunk.rulefile import Level

HEAD = "示例镇卫生院门诊病历\n姓名：某乙　性别：男　年龄：52岁\n"


def _starts(body: str) -> list[str]:
    records = domainchunk.chunk((HEAD + body).encode(), name="门诊.txt", max_chars=1000).records()
    assert records[0]["doc_type"] == "medical_record"
    return [r["text"][:4] for r in records[1:]]


def test_a_label_glued_after_a_short_value_opens_its_section():
    assert _starts("主诉：腹痛1天。\n既往史：体健过敏史：无\n诊断：急性胃炎\n") == ["主诉：腹", "既往史：", "过敏史：", "诊断：急"]
    # a chain of them: each glued label found opens the field the next one ends
    assert _starts("主诉：腹痛1天。\n既往史：体健过敏史：无个人史：无吸烟史\n诊断：急性胃炎\n") == [
        "主诉：腹", "既往史：", "过敏史：", "个人史：", "诊断：急"]


def test_a_header_or_form_fields_value_opens_nothing():
    # the field before is a header's or a form's, not a section: its line goes on with the next field, a
    # gap between them or none (a text without spaces), and no section opens there after a gap either
    assert _starts("就诊日期：2026-01-02主诉：腹痛1天。\n现病史：腹痛1天，无发热。\n诊断：急性胃炎\n") == [
        "现病史：", "诊断：急"]
    assert _starts("主诉：腹痛1天。\n体格检查：体温：36.5℃血压：120/80mmHg一般情况：良好。\n诊断：急性胃炎\n") == [
        "主诉：腹", "体格检查", "诊断：急"]


def test_no_section_opens_where_no_field_ended():
    for body in (
        "主诉：腹痛1天。\n现病史：患者否认既往史：无特殊。\n诊断：急性胃炎\n",  # a sentence's words after the colon
        "主诉：腹痛1天。\n现病史：腹痛，否认既往史：无特殊。\n诊断：急性胃炎\n",  # a clause mark: no value
        "主诉：腹痛1天。\n现病史：腹痛伴呕吐既往史：无特殊。\n诊断：急性胃炎\n",  # a run longer than a word
        "主诉：腹痛1天。\n既往史：体健过敏史\n诊断：急性胃炎\n",  # no colon after the name
    ):
        assert _starts(body) == ["主诉：腹", body.split("\n")[1][:4], "诊断：急"], body


def test_the_anchor_is_a_key_of_the_schema_and_described():
    assert "field" in Level.model_fields["anchor"].description
    assert Level.model_validate({"id": "x.y", "name": "n", "kind": "section", "role": "unit", "anchor": "field",
                                 "rationale": "r", "pattern": "主诉[:：]"}).anchor == "field"

