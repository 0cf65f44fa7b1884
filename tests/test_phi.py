"""PHI masking: typed placeholders, offsets valid against the masked text."""
from __future__ import annotations

from domainchunk import pipeline
from domainchunk.phi import apply_edits, mask_document
from domainchunk.readers.text import text_document

RECORD = (
    "入院记录\n姓名：钱示例　性别：女　年龄：40岁　住院号：Z0001\n"
    "联系电话：13800001111 住址：示例省示例市示例路2号\n身份证号：110101198001010022\n"
    "主诉：头晕2天。\n现病史：患者2天前无诱因出现头晕，电话13900002222随访。\n"
)


def test_values_become_typed_placeholders():
    masked = mask_document(text_document(RECORD, "<t>"))
    for value in ("钱示例", "Z0001", "13800001111", "示例省示例市示例路2号", "110101198001010022", "13900002222"):
        assert value not in masked.text
    for placeholder in ("[姓名]", "[住院号]", "[电话]", "[住址]", "[身份证号]"):
        assert placeholder in masked.text
    assert "性别：女" in masked.text


def test_offsets_hold_for_chunks_and_blocks():
    result = pipeline.chunk(RECORD, doc_type="medical_record", mask_phi=True)
    text = result.document.text
    for c in result.chunks:
        assert text[c.start : c.end] == c.text
        assert "钱示例" not in str(c.metadata) and "Z0001" not in str(c.metadata)
    assert result.chunks[-1].metadata["住院号"] == "[住院号]"
    blocks = result.document.blocks
    assert blocks[0].start == 0 and blocks[-1].end == len(text.rstrip("\n"))


def test_offset_inside_a_replaced_value_moves_to_its_placeholder():
    text, move = apply_edits("ab12345cd", [(2, 7, "[X]")])
    assert text == "ab[X]cd"
    assert [move(i) for i in (0, 2, 4, 7, 9)] == [0, 2, 2, 5, 7]


def test_blank_form_fields_are_left_alone():
    masked = mask_document(text_document("姓名：＿＿＿＿　性别：男\n", "<t>"))
    assert masked.text.startswith("姓名：＿＿＿＿")


def test_record_numbers_of_lab_reports_and_outpatient_notes_are_masked():
    text = "检验报告单\n姓名：甲示例　病历号：0098123　ID号：P55201　科别：肾内科\n就诊卡号：C0012\n"
    masked = mask_document(text_document(text, "<t>"))
    for value in ("甲示例", "0098123", "P55201", "C0012"):
        assert value not in masked.text
    assert "科别：肾内科" in masked.text
