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


# ---------------------------------------------------------------- round twelve: forms that read as another type
# Skeletons written for the test (invented names); the comment names the signals that decide.

LAW_ARTICLES = ("第十一条　养犬人应当为犬只办理登记。\n\n第十二条　携犬出户的，应当束犬链。\n\n"
                "第十三条　违反本规定第十二条规定的，由公安机关责令改正，处二百元以上一千元以下的罚款。\n")
LETTER_QUOTING_THEM = "律师函\n\n致：示范公司\n\n本所受托致函如下。相关规定如下：\n\n" + LAW_ARTICLES + "\n特此函告。\n"
HOSPITAL_RULES = ("示范医院病历书写管理制度\n\n第一条　为规范本院病历书写，制定本制度。\n\n第二条　入院记录按下列格式书写：\n"
                  "主诉：\n现病史：\n既往史：\n体格检查：\n初步诊断：\n\n第三条　病历归档后，任何人不得涂改。\n\n"
                  "第四条　本制度由医务科负责解释，自印发之日起施行。\n")
MEETING_NOTICE = ("示范市卫生健康委员会关于召开示范工作会议的通知\n\n各有关单位：\n\n经研究，决定召开示范工作会议。现将有关事项通知如下：\n\n"
                  "一、会议时间\n\n2026年3月26日下午。\n\n二、会议地点\n\n三楼会议室。\n\n三、参会人员\n\n各单位分管负责人。\n")
JUDGMENT_EXTRACT = ("本院认为，被告未按约支付货款，应承担违约责任。依照《中华人民共和国民法典》第五百七十七条规定，判决如下：\n\n"
                    "被告示范公司于本判决生效之日起十日内支付原告货款100000元。\n\n案件受理费2300元，由被告示范公司负担。\n")
DIAGNOSES_AND_ORDERS = ("出院诊断：\n1. 社区获得性肺炎\n2. 2型糖尿病\n\n出院医嘱：\n1. 继续口服盐酸二甲双胍片0.5g 每日三次。\n"
                        "2. 苯磺酸氨氯地平片5mg 每日一次。\n")
IMAGING_REPORT = ("示范医院放射科\n医学影像检查报告单\n姓名：某甲　性别：女　年龄：58岁　科别：骨科\n检查项目：腰椎正侧位片\n"
                  "检查所见：\n腰椎生理曲度变直。\n诊断意见：\n腰椎退行性变。\n")
LAB_UNNAMED_ITEMS = ("示范医院检验科\n姓名：某甲　性别：男　年龄：61岁\n标本类型：静脉血　采样时间：2026-07-02 07:48\n\n"
                     "糖化血红蛋白（HbA1c）　　8.4　↑　%　　4.0-6.0\n空腹血糖（GLU）　　9.12　↑　mmol/L　　3.90-6.10\n"
                     "C肽（空腹）　　0.92　ng/mL　　0.78-5.19\n\n检验者：某乙　审核者：某丙\n")
BLOOD_GAS = ("示范医院　重症医学科\n血气分析报告（床旁）\n姓名：某甲　床号：7\n样本：动脉血　采样时间：2026-09-15 06:12\n\n"
             "pH　7.31　↓　　7.35-7.45\nPCO2　52.6　↑　mmHg　35-45\nPO2　68　↓　mmHg　80-100\n乳酸(Lac)　2.8　↑　mmol/L　0.5-1.6\n")


@pytest.mark.parametrize(("text", "doc_type"), [
    (LAW_ARTICLES, "statute"),  # statute.opens-with-article + statute.penalty-formula
    (LETTER_QUOTING_THEM, "generic"),  # the same articles under the letter's own title
    (HOSPITAL_RULES, "statute"),  # statute.title (制度) + statute.effective; medical.article-lines
    (MEETING_NOTICE, "generic"),  # statute.meeting-notice-points
    (JUDGMENT_EXTRACT, "judgment"),  # judgment.costs
    (DIAGNOSES_AND_ORDERS, "medical_record"),  # medical.diagnosis-list + medical.dosing
    (IMAGING_REPORT, "medical_record"),  # medical.form-title: 医学影像检查报告单
    (LAB_UNNAMED_ITEMS, "lab_report"),  # lab.department-title; lab.flagged-rows across full-width spaces
    (LAB_UNNAMED_ITEMS.replace("　", "").replace(" ", ""), "lab_report"),  # lab.value-unit-range, cells glued
    (BLOOD_GAS, "lab_report"),  # lab.title: 血气分析报告
], ids=["law-articles", "letter-quoting-them", "hospital-rules", "meeting-notice", "judgment-extract",
        "diagnoses-and-orders", "imaging-report", "lab-unnamed-items", "lab-unnamed-items-no-spaces", "blood-gas"])
def test_a_form_that_reads_as_another_type_is_detected(text, doc_type):
    assert detect(text, fresh_registry()).doc_type == doc_type


def test_an_excerpt_is_told_from_a_quotation_by_its_opening_line():
    # the same three articles: alone they open the text, quoted they follow the letter's title
    registry = fresh_registry()
    alone, quoted = detect(LAW_ARTICLES, registry), detect(LETTER_QUOTING_THEM, registry)
    assert any(r.signal == "statute.opens-with-article" for r in alone.reasons)
    assert not any(r.signal == "statute.opens-with-article" for r in quoted.reasons)
    assert alone.scores["statute"] == pytest.approx(quoted.scores["statute"] + 2.0)


def test_article_lines_count_against_a_record_that_a_rule_quotes():
    registry = fresh_registry()
    result = detect(HOSPITAL_RULES, registry)
    against = next(r for r in result.reasons if r.signal == "medical.article-lines")
    assert against.count == 4 and against.weight < 0
    assert result.scores["medical_record"] < result.scores["statute"]


def test_a_line_cut_by_a_signal_window_is_not_read_as_ending_at_the_cut():
    # a list of laws under its own title: the title signal (window 300) must not read 《…规定 as a title line
    # ending in 规定 where the window happens to cut 《…规定》（…） short
    registry = fresh_registry()
    window = next(s for s in registry["statute"].detect.signals if s.id == "statute.title").window
    head = "示范执业常用文件目录\n\n" + "说明：本目录收录现行有效的文件，供学习参考。\n" * 5
    head += "注" * (window - len(head) - len("。\n1.《示范病历管理规定")) + "。\n"  # whole lines up to the listed one
    text = head + "1.《示范病历管理规定》（示卫发〔2013〕31号）\n"
    assert text.index("》") == window  # the window cuts the line right after 规定
    result = detect(text, registry)
    assert not any(r.signal == "statute.title" for r in result.reasons)
    cut = detect(text[:window], registry)  # the same line where it does end there is a title line
    assert any(r.signal == "statute.title" for r in cut.reasons)
