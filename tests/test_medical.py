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


def _paths(text: str) -> list[list[str]]:
    return [c.path for c in pipeline.chunk(text, doc_type="medical_record").chunks]


def test_teaching_case_headings_own_their_label_lines():
    # CMB-Clin form: headings alone after a blank line; 胃镜： right under 辅助检查 is a sub-label.
    text = "示例 案例分析-示例病\n\n现病史\n（1）病史摘要\n病人咳嗽3天。\n\n辅助检查\n胃镜：\n所见：黏膜充血。\n\n鉴别诊断\n（1）示例病甲。\n"
    assert _paths(text) == [[], ["现病史"], ["辅助检查"], ["鉴别诊断"]]


def test_template_key_needs_a_blank_line_and_a_text_below():
    text = "出院诊断：示例病\n\n随访计划：\n一月后复查。\n住院费用说明：\n见附页。\n\n辅助检查：\n\n血常规\nWBC 12.5↑ 10^9/L\n"
    paths = _paths(text)
    assert ["随访计划"] in paths
    assert ["住院费用说明"] not in paths  # no blank line above: a label inside 随访计划
    assert ["血常规"] not in paths  # a lab panel name is never a template key


def test_bare_time_under_a_record_title_is_the_records_time():
    text = "首次病程记录\n2024-05-06 16:00\n病例特点：老年女性。\n\n日常病程记录\n2024-05-08 09:10 主治医师查房\n患者好转。\n"
    chunks = pipeline.chunk(text, doc_type="medical_record").chunks
    assert [c.path for c in chunks] == [["首次病程记录"], ["首次病程记录", "病例特点"],
                                        ["日常病程记录", "2024-05-08 09:10 主治医师查房"]]
    assert chunks[1].metadata["record_date"] == "2024-05-06"


def test_new_record_forms_keep_their_type():
    for name in ("emr_cmbclin_示范_社区获得性肺炎.txt", "emr_ccks_示范_胆囊结石.txt", "emr_出院小结_示范_胃肠外科.txt",
                 "emr_bundle_示范_心内科.txt", "emr_手术记录_示范.txt", "emr_门诊病历_示范.txt"):
        assert pipeline.chunk(ROOT / "corpora" / name).detection.doc_type == "medical_record", name


_RECORD = (
    "示范医院\n出院记录\n\n"
    "姓名：周示例　性别：女　年龄：58岁　科室：心血管内科　床号：12　住院号：ZY20240611\n"
    "入院日期：2024-06-01　出院日期：2024-06-11\n\n"
    "入院情况：患者因反复胸闷、胸痛三年，加重伴活动后气促一周入院，胸痛多于劳累后发作，"
    "持续数分钟，休息后可缓解，无放射痛，无晕厥。\n\n"
    "入院诊断：冠状动脉粥样硬化性心脏病，不稳定型心绞痛，高血压病二级（很高危）。\n\n"
    "诊疗经过：入院后完善血常规、生化、心肌酶谱及心脏彩超等检查，予抗血小板、调脂稳定斑块、"
    "扩张冠脉及控制血压等治疗，行冠状动脉造影提示前降支中段狭窄约百分之八十，"
    "于前降支植入支架一枚，术后患者胸闷症状明显缓解，复查心电图未见新发缺血改变。\n\n"
    "出院医嘱：低盐低脂饮食，规律服用阿司匹林、氯吡格雷及他汀类药物，监测血压，"
    "一个月后心内科门诊随访，如有胸痛加重及时就诊。\n"
)
_HEADER = {"性别": "女", "年龄": "58岁", "科室": "心血管内科", "床号": "12", "住院号": "ZY20240611"}


def test_header_fields_read_the_same_with_no_spaces_and_hard_wrapped():
    """A value ends where the next field's label begins, and a value a wrap cut is read whole:
    with the spaces between fields lost, 性别 read 女年龄 and 年龄 went missing; wrapped at 36,
    住院号 read its first line only."""
    import relayout

    for layout in (str, relayout.no_spaces, relayout.wrapped, relayout.no_spaces_wrapped):
        result = pipeline.chunk(layout(_RECORD), max_chars=1000)
        assert result.detection.doc_type == "medical_record", layout
        assert result.document.metadata["header"] == _HEADER, layout
        assert result.document.metadata["department"] == "心血管内科", layout
        assert all(c.metadata.get("住院号") == "ZY20240611" for c in result.chunks), layout


def test_a_blank_header_field_takes_no_label_for_its_value():
    result = pipeline.chunk("出院记录\n\n科室：内科　床号：　住院号：ZY1\n\n主诉：胸痛。\n", max_chars=1000)
    assert result.document.metadata["header"] == {"科室": "内科", "住院号": "ZY1"}
