"""The detector: a signal whose vocabulary a text lacks is not compiled, and the result is the same."""
from __future__ import annotations

import pytest

from domainchunk.detect import detect
from domainchunk.rulefile import SKIPS_BEFORE_COMPILING, _needed_refs, builtin_rules_dir, load_rule_file

STATUTE_TEXT = "中华人民共和国示例法\n\n第一条 为了规范示例活动，制定本法。\n第二条 本法自公布之日起施行。\n"
# a heading letter-spaced, as forms print them: the words are found with the spaces removed
RECORD_TEXT = "入院记录\n姓名：某某  床号：3\n主  诉：咳嗽三天。\n现病史：患者三天前受凉。\n"


def fresh_registry() -> dict:
    """The built-in rule files loaded anew: their signals not yet compiled by another test."""
    rules = (load_rule_file(p) for p in sorted(builtin_rules_dir().glob("*.yaml")))
    return {r.doc_type: r for r in rules}


def compiled(registry: dict) -> dict:
    for rules in registry.values():
        for sig in rules.detect.signals:
            sig.regex  # noqa: B018 - compiled: searched whatever the text
    return registry


@pytest.mark.parametrize(("pattern", "needed"), [
    ("(?:{terms.a})x", [{"{terms.a}"}]),
    ("{SP}*(?:{terms.a}){2,}{SP}*{terms.b}+", [{"{terms.a}"}, {"{terms.b}"}]),
    ("(?:{terms.a}|{fields.b})：", [{"{terms.a}", "{fields.b}"}]),
    # optional, counted from zero, one branch only, in a lookaround or a class: not needed
    ("x{terms.a}?", []),
    ("x{terms.a}*", []),
    ("(?:{terms.a}){0,2}y", []),
    ("(?:{terms.a}|x)", []),
    ("(?=.{terms.a})", []),
    ("(?<!{terms.a})x", []),
    ("[{terms.a}]", []),
    (r"\{terms.a}", []),
    ("(?:(?:{terms.a}[ ]*){0,2}{terms.b})", [{"{terms.b}"}]),
])
def test_needed_vocabularies(pattern, needed):
    assert [set(n) for n in _needed_refs(pattern)] == needed


@pytest.mark.parametrize("text", [STATUTE_TEXT, RECORD_TEXT])
def test_detection_is_the_same_with_signals_left_uncompiled(text):
    lazy, eager = fresh_registry(), compiled(fresh_registry())
    assert detect(text, lazy).model_dump() == detect(text, eager).model_dump()


def test_a_signal_is_compiled_only_when_the_text_holds_its_words():
    registry = fresh_registry()
    party = next(s for s in registry["contract"].detect.signals if s.id == "contract.party-lines")
    sections = next(s for s in registry["medical_record"].detect.signals if s.id == "medical.section-headings")
    assert party._needs and sections._needs
    detect(STATUTE_TEXT, registry)
    assert "regex" not in party.__dict__ and "regex" not in sections.__dict__
    result = detect(RECORD_TEXT, registry)
    assert "regex" in sections.__dict__
    assert any(r.signal == "medical.section-headings" for r in result.reasons)


def test_a_signal_checked_for_a_few_texts_in_vain_is_compiled():
    # the check costs about a search: a process that keeps checking pays for the compiling
    registry = fresh_registry()
    party = next(s for s in registry["contract"].detect.signals if s.id == "contract.party-lines")
    for _ in range(SKIPS_BEFORE_COMPILING):
        assert party.checked_first()
        detect(STATUTE_TEXT, registry)
    assert not party.checked_first()
    detect(STATUTE_TEXT, registry)
    assert "regex" in party.__dict__


# ---------------------------------------------------------------- the forms a type takes at its least typical
# Each text is the form's skeleton, written for the test (invented names); the signals that read the
# form are named in the comment, and the test fails if another type's signals outweigh them.

IOU = "借　条\n\n今借到出借人某甲人民币贰万元整，借期六个月，到期一次还清。\n\n借款人（签名）：某乙\n2026年3月1日\n"
RECEIPT = ("收　据\n\n今收到付款人示范经营部交来定金人民币壹万元整。\n\n"
           "本收据一式两份，收付双方各执一份。\n\n收款人（盖章）：示范公司\n2026年5月6日\n")
ORDER_LETTER = ("订货确认函\n\n致：示范乙公司\n\n贵司报价单已收悉，现确认如下：\n1. 货物：输液器50000套。\n2. 交货：5月10日前。\n\n"
                "采购方（盖章）：示范医院\n2026年4月19日\n")
COMPANY_MINUTES_TITLE = "示范公司关于办公区搬迁有关事项的会议纪要\n\n"
COMPANY_MINUTES_HEADER = "会议时间：2026年9月18日\n会议地点：三楼会议室\n主持人：某甲\n参会人员：某乙、某丙\n记录人：某丁\n\n"
COMPANY_MINUTES_BODY = ("会议研究了搬迁有关事项。现纪要如下：\n\n一、搬迁定于11月上旬。\n\n二、行政部负责装修验收。\n\n"
                        "三、信息部负责服务器迁移。\n\n四、人力资源部制定交通补贴办法。\n")
INTERPRETATION = ("全国人民代表大会常务委员会关于《中华人民共和国示范法》第十条的解释\n\n"
                  "（2026年8月30日第十四届全国人民代表大会常务委员会第二十四次会议通过）\n\n"
                  "全国人民代表大会常务委员会讨论了示范法第十条规定的“示范物”的含义问题，解释如下：\n\n"
                  "示范法第十条规定的“示范物”，包括已经加工的示范物。\n\n现予公告。\n")
# a letter-spaced title as pdftotext's blocks give it: each character a block, joined with the number below
MEDIATION_BLOCKS = ("示范市劳动人事争议仲裁委员会\n调\n\n解\n\n书\n\n示劳人仲案字〔2026〕第1号\n\n申请人：某甲，男。\n\n"
                    "被申请人：示范公司。\n\n申请人某甲与被申请人示范公司劳动争议一案，本委依法组成仲裁庭进行了审理。\n\n"
                    "本案在审理过程中，经仲裁庭主持调解，双方当事人自愿达成如下协议：\n\n一、被申请人支付申请人30000元。\n\n"
                    "上述协议不违反法律规定，本委予以确认。\n")
RECORD_RUN_ON = ("示范市人民医院出院记录姓名：某甲　性别：男　年龄：72岁　科别：心内科　住院号：01入院情况患者因胸闷入院。"
                 "入院诊断1.慢性心力衰竭出院医嘱规律服药。\n")
LAB_CELL_BLOCKS = ("示范医院 检验结果\n姓名：某甲\n\n甲状腺功能\n游离三碘甲状腺原氨酸 FT3\n\n9.86\n\n↑\n\npmol/L\n\n3.1-6.8\n\n"
                   "游离甲状腺素 FT4\n\n38.2\n\n↑\n\npmol/L\n\n12-22\n\n促甲状腺激素 TSH\n\n0.005\n\n↓\n\nmIU/L\n\n0.27-4.2\n\n"
                   "血常规\n白细胞计数 WBC\n\n3.2\n\n↓\n\n10^9/L\n\n3.5-9.5\n\n中性粒细胞计数 NEUT#\n\n1.4\n\n↓\n\n10^9/L\n\n1.8-6.3\n\n"
                   "肝功能\n丙氨酸氨基转移酶 ALT\n\n62\n\n↑\n\nU/L\n\n7-40\n\n天门冬氨酸氨基转移酶 AST\n\n48\n\n↑\n\nU/L\n\n13-35\n")


@pytest.mark.parametrize(("text", "doc_type"), [
    (IOU, "contract"),  # contract.instrument-title + contract.debt-receipt-opener
    (RECEIPT, "contract"),
    (ORDER_LETTER, "contract"),  # contract.instrument-title: a 确认函 names no 合同
    (COMPANY_MINUTES_TITLE + COMPANY_MINUTES_HEADER + COMPANY_MINUTES_BODY, "generic"),  # statute.minutes-header
    (INTERPRETATION, "statute"),  # statute.decision-formula: 解释如下
    (MEDIATION_BLOCKS, "judgment"),  # judgment.kind run on into the number, judgment.mediation
    (RECORD_RUN_ON, "medical_record"),  # medical.title-run-on
    (LAB_CELL_BLOCKS, "lab_report"),  # lab.flag-cells
], ids=["iou", "receipt", "order-letter", "company-minutes", "interpretation", "mediation-blocks",
        "record-run-on", "lab-cell-blocks"])
def test_a_type_in_its_least_typical_form_is_detected(text, doc_type):
    assert detect(text, fresh_registry()).doc_type == doc_type


def test_the_minutes_header_is_what_keeps_company_minutes_from_being_a_statute():
    # without its header the same minutes add up to a statute (a title ending in 纪要 under ISSUER关于…的,
    # 一、 points): the header's weight, not the wording, makes the difference
    registry = fresh_registry()
    bare = detect(COMPANY_MINUTES_TITLE + COMPANY_MINUTES_BODY, registry)
    with_header = detect(COMPANY_MINUTES_TITLE + COMPANY_MINUTES_HEADER + COMPANY_MINUTES_BODY, registry)
    assert bare.doc_type == "statute"
    assert with_header.scores["statute"] == pytest.approx(bare.scores["statute"] - 3.0)  # capped at 3 lines


def test_explain_gives_a_signal_against_the_type_its_sign():
    text = ("示范省高级人民法院关于审理示范纠纷案件若干问题的会议纪要\n\n时间：2026年4月\n\n为统一裁判尺度，制定本纪要。\n\n"
            "一、关于示范合同的效力\n\n二、关于示范责任\n\n本纪要自印发之日起施行。\n")
    result = detect(text, fresh_registry())
    assert result.doc_type == "statute"
    assert "  -1.0 statute.minutes-header ×1:" in result.explain()
    assert "  +2.0 statute.title ×1:" in result.explain()
