"""The engine's tolerant view: page furniture out, hard wraps joined, offsets mapped back."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import domainchunk
from domainchunk.view import _open_bracket, build_view
from relayout import _printed_lines

ROOT = Path(__file__).resolve().parents[1]

WIDTH = 24


def _wrap(paragraphs: list[str], width: int = WIDTH) -> str:
    """Hard-wrap each paragraph at ``width`` characters, as PDF text extraction does."""
    lines = []
    for p in paragraphs:
        lines.extend(p[i : i + width] for i in range(0, max(len(p), 1), width))  # "" stays a blank line
    return "\n".join(lines) + "\n"


ARTICLES = [
    "示范管理条例",
    "第一条为了规范和加强示范区域的管理工作，依照本法第十条的规定，制定本条例。",
    "第二条本条例适用于本市行政区域内的示范区域管理活动，以及与示范区域有关的其他活动。",
    "第三条示范区域的管理机构应当履行职责，依照本条例第二条的规定接受社会各界的监督。",
    "第四条示范区域内的单位和个人应当遵守本条例，服从管理机构依照本条例作出的决定。",
    "第五条违反本条例规定的，由管理机构责令改正；情节严重的，依照有关法律的规定处理。",
    "第六条本条例自公布之日起施行，原有的有关规定与本条例不一致的，以本条例为准执行。",
]


def test_plain_text_is_its_own_view():
    text = "第一条 示范条文。\n\n第二条 示范条文二。\n"
    view = build_view(text)
    assert view.identity and view.text == text
    assert view.to_text(5) == 5 and view.to_view(5) == 5


def test_hard_wrapped_lines_are_joined_and_map_back():
    text = _wrap(ARTICLES)
    view = build_view(text)
    assert not view.identity
    assert "依照本法第十条的规定，制定本条例" in view.text and "依照本条例第二条的规定" in view.text
    assert view.text.count("\n") == len(ARTICLES)
    for pos, ch in enumerate(view.text):
        assert text[view.to_text(pos)] == ch
    # a position inside a joined line break maps to the next kept character
    nl = text.index("\n", text.index("第一条"))
    assert view.text[view.to_view(nl)] == text[nl + 1]


def test_cross_reference_at_a_wrapped_line_start_is_not_an_article():
    text = _wrap(ARTICLES)
    lines = text.splitlines()
    assert "第十条的规定，制定本条例。" in lines and any(line.startswith("第二条的规定") for line in lines), "the wrap puts references at line starts"
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [c.path for c in chunks[1:]] == [[f"第{n}条"] for n in "一二三四五六"]
    assert all(text[c.start : c.end] == c.text for c in chunks)


def test_a_line_after_a_finished_sentence_still_opens():
    text = _wrap(["第一条示范条文一的内容写在这里并在这一行结束。", "第二条示范条文二。"], width=23)
    view = build_view(text + "第三条示范条文三的内容也在这里写满了一整行。\n" * 4)
    assert "\n第二条" in view.text


def test_page_numbers_and_running_titles_are_set_aside():
    body = [f"第{n}条 示范条文{n}。" for n in "一二三四五六"]
    lines = []
    for i, line in enumerate(body):
        lines.append(line)
        if i % 2 == 1:
            lines += [f"— {i} —", "示范法规汇编"]
    text = "\n".join(lines) + "\n"
    view = build_view(text)
    assert "—" not in view.text and "汇编" not in view.text
    assert view.text.splitlines() == body
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [c.path for c in chunks] == [[f"第{n}条"] for n in "一二三四五六"]


def test_a_two_page_printout_repeats_its_title_beside_one_page_number():
    # The title is printed once at the top and once more as page 2's running header: beside
    # only one page number, it is still furniture there, and stays the document's first line.
    text = "示范医院\n出院记录\n一、入院情况\n示范。\n— 1 —\n示范医院\n二、出院诊断\n示范。\n"
    assert build_view(text).text == "示范医院\n出院记录\n一、入院情况\n示范。\n二、出院诊断\n示范。\n"
    # A short line beside one page number that the document does not open with stays.
    kept = "示范医院\n一、入院情况\n示范。\n— 1 —\n二、出院诊断\n示范。\n"
    assert "二、出院诊断" in build_view(kept).text


def test_a_double_spaced_wrapped_text_joins_across_its_single_blank_lines():
    # Every printed line its own paragraph: one blank line inside a paragraph, three between two.
    para = ["本院于二〇二四年三月一日受理了申请人关于确认调解协议的申请，依法指定审", "判人员审查此案，现已审理完毕。"]
    lines = para * 3 + ["申请人因医疗损害责任纠纷于二〇二四年二月二十日经人民调解委员会主持调解", "达成如下调解协议。"]
    text = "\n\n".join(lines) + "\n"
    view = build_view(text)
    assert "依法指定审判人员" in view.text and "\n\n判人员" not in view.text
    # the paragraphs stay apart
    assert build_view(text.replace("现已审理完毕。\n\n申请人", "现已审理完毕。\n\n\n\n申请人")).text.count("\n\n") >= 1
    # a text with lines that touch is not double-spaced: its blank lines end paragraphs
    touching = "\n".join(para) + "\n\n" + "\n".join(para) + "\n"
    assert "\n\n" in build_view(touching * 3).text


def test_page_number_forms():
    for furniture in ("- 3 -", "第3页 共10页", "共10页 第3页", "3/10", "Page 3 of 10"):
        text = f"第一条 示范。\n{furniture}\n第二条 示范。\n"
        assert build_view(text).text == "第一条 示范。\n第二条 示范。\n", furniture


def test_page_number_glued_to_a_line_start():
    text = "示范条例\n\n第一条 示范条文一。\n\n12第二条 示范条文二。\n\n第三条 示范条文三。\n"
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [c.path for c in chunks[1:]] == [["第一条"], ["第二条"], ["第三条"]]
    assert chunks[2].text.startswith("12第二条")


def test_glued_digits_do_not_hide_a_numbered_item():
    text = "第五条 本条例所称示范费用包括：\n1.示范费用甲的具体说明；\n2.示范费用乙的具体说明。\n"
    pieces = domainchunk.chunk(text, doc_type="statute", max_chars=40).chunks
    assert [c.rule for c in pieces] == ["statute.article", "statute.subitem"]


def test_table_rows_are_never_joined():
    rows = [f"项目{i:02d}    结果  {i}.{i}    参考范围  1.0-9.9   单位名称" for i in range(12)]
    text = "\n".join(rows) + "\n"
    assert build_view(text).identity


def test_an_oversize_wrapped_article_splits_at_its_paragraphs_not_at_its_wraps():
    paragraphs = ARTICLES[:3] + [
        "第三条示范区域的管理机构应当履行下列职责，并且按照规定的程序和期限向社会公开办理结果。",
        "管理机构应当建立健全示范区域的投诉处理制度，及时受理并且依法处理单位和个人的投诉。",
        "管理机构应当每年向本级人民政府报告示范区域的管理情况，并且接受人大代表的监督检查。",
    ] + ARTICLES[4:]
    text = _wrap(paragraphs)
    pieces = [c for c in domainchunk.chunk(text, doc_type="statute", max_chars=75).chunks if c.path == ["第三条"]]
    assert len(pieces) >= 2
    starts = {text.index(p[:8]) for p in paragraphs[4:6]}
    assert all(c.start in starts for c in pieces[1:]), [c.text[:10] for c in pieces]


def test_tab_separated_rows_of_one_length_are_not_a_hard_wrap():
    # A short report whose rows happen to share a length is a table, not prose cut at a width.
    rows = [f"项目{i}\t{i}.{i}\t1.0-9.9\tU{i}" for i in range(10, 22)]
    text = "示范检验报告单\n姓名：某甲　性别：女\n血常规\n项目\t结果\t参考范围\t代号\n" + "\n".join(rows) + "\n"
    assert len({len(r) for r in rows}) == 1
    assert build_view(text).identity


JUDGMENT = [
    "某某区人民法院", "民事判决书", "（2020）某0101民初100号", "原告甲某，男，住某市。", "被告乙公司，住所地某市。",
    "原告甲某与被告乙公司买卖合同纠纷一案，本院立案后依法适用简易程序公开开庭进行了审理。本案现已审理终结。",
    "原告甲某向本院提出诉讼请求：判令被告支付货款一万元。", "被告乙公司辩称，货款已经付清。",
    "本院经审理认定事实如下：双方签订买卖合同，原告交付了货物。", "本院认为，双方的买卖合同合法有效，被告应当支付货款。",
    "依照《中华人民共和国民法典》第五百七十九条的规定，判决如下：", "被告乙公司于本判决生效之日起十日内支付原告甲某货款一万元。",
    "2如不服本判决，可在判决书送达之日起十五日内向本院递交上诉状，上诉于某市中级人民法院。",
    "审判员丙某", "二〇二〇年五月一日", "书记员丁某",
]


def test_a_glued_page_number_does_not_give_the_line_to_a_catch_all_level():
    # A paragraph level matches ``2如不服…`` as written; the closing, an earlier level, matches
    # once the glued 2 is passed over, and it must still be tried.
    chunks = domainchunk.chunk("\n".join(JUDGMENT) + "\n", doc_type="judgment", max_chars=1000).chunks
    assert chunks[-1].rule == "judgment.closing"
    assert chunks[-1].text.startswith("2如不服本判决")


def _chunks(text: str, doc_type: str) -> list[tuple]:
    return [(c.path, c.rule, c.text.split()[0][:8]) for c in domainchunk.chunk(text, doc_type=doc_type).chunks]


RECORD = [
    "【首次病程记录】",
    "病例特点：患者男性，六十岁，因反复咳嗽咳痰十年，加重伴气促三天入院，既往吸烟二十余年，现已戒烟。",
    "诊断依据：1、老年男性，慢性病程急性加重；2、咳嗽咳痰伴气促；3、双肺可闻及湿啰音。",
    "诊疗计划：完善血常规、胸部影像等检查，予抗感染、化痰、平喘等对症治疗，密切观察病情。",
    "【日常病程记录】",
    "2024-03-01 08:30 主治医师查房",
    "观察记录：患者精神好，饮食睡眠均可，大小便正常。 查体：体温三十六度五，心肺听诊未闻及明显异常，腹软。",
    "2024-03-02 08:30 主任医师查房",
    "观察记录：患者精神好，饮食睡眠可，大小便正常。 查体：体温三十六度八，双肺呼吸音清，心律齐，腹软。",
    "诊疗计划：继续目前治疗方案，复查血常规及炎症指标，根据结果调整抗生素的使用。",
]


def test_a_cut_after_a_full_stop_continues_unless_the_next_line_opens():
    # Wrapped at the width, a cut falls right after a 。 (or the space after it) inside a note,
    # putting 查体： at a line start; and a paragraph ends exactly at the width before 诊断依据：.
    text = _wrap(RECORD)
    lines = text.splitlines()
    after_full_stop = [lines[i + 1] for i, line in enumerate(lines[:-1]) if len(line) == WIDTH and line.rstrip().endswith("。")]
    assert any(n.startswith("诊断依据") for n in after_full_stop), "a paragraph ends at the width"
    assert any(n.startswith(" 查体") for n in after_full_stop) and any(n.startswith("查体") for n in after_full_stop)
    assert _chunks(text, "medical_record") == _chunks("\n".join(RECORD) + "\n", "medical_record")
    assert not any(path[-1] == "查体" for path, _, _ in _chunks(text, "medical_record"))


def test_a_numbered_label_after_a_line_that_fills_the_width_opens():
    # 第三条's text ends exactly at the width: the next article still opens on its own line.
    articles = ARTICLES[:3] + ["第三条示范区域的管理机构应当履行职责并接受监督。"] + ARTICLES[4:]
    assert len(articles[3]) == WIDTH
    text = _wrap(articles)
    assert "\n第四条" in build_view(text).text
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [c.path for c in chunks[1:]] == [[f"第{n}条"] for n in "一二三四五六"]


SHORT_RULING = [
    "某某区人民法院", "民事裁定书", "（2024）某0101民初200号", "",
    "原告：甲某，男，住某市某区。", "被告：乙公司，住所地某市某区某路一号。", "",
    "原告甲某与被告乙公司买卖合同纠纷一案，本院于2024年3月1日立案。原告甲某于2024年4月2日向本院提出撤诉申请。", "",
    "本院认为，原告甲某在本案审理期间提出撤诉申请，系其真实意思表示，且不违反法律规定，应予准许。依照《中华人民共和国民事诉讼法》第一百四十八条的规定，裁定如下：", "",
    "准许原告甲某撤诉。", "", "案件受理费减半收取计五十元，由原告甲某负担。", "",
    "审判员　丙某", "", "二〇二四年四月三日", "", "书记员　丁某",
]


def test_a_short_ruling_with_few_full_lines_is_read_as_wrapped():
    # Three lines reach the width of 36 among a dozen short ones (names, dates, signatures).
    text = _wrap(SHORT_RULING, width=36)
    assert sum(len(line) == 36 for line in text.splitlines()) == 3
    view = build_view(text)
    assert not view.identity and "依照《中华人民共和国民事诉讼法》第一百四十八条的规定，裁定如下" in view.text
    assert _chunks(text, "judgment") == _chunks("\n".join(SHORT_RULING) + "\n", "judgment")


def test_lines_whose_longest_share_a_length_but_end_their_sentences_are_not_wrapped():
    # A form whose longest lines happen to share a length, each a sentence of its own.
    lines = ["示范登记表", "第一项：申请人应当如实填写本表的全部内容。", "第二项：申请人应当在规定的期限内提交本表。",
             "第三项：受理机关应当在五日内作出书面决定。", "备注：无", "签名：", "日期："]
    assert len({len(line) for line in lines[1:4]}) == 1
    assert build_view("\n".join(lines) + "\n").identity
    prose = ["示范条例", *ARTICLES[1:], "附则：本条例由某机关负责解释。"]
    assert build_view("\n".join(prose) + "\n").identity


LAB = [
    "示范医院检验报告单",
    "姓名：某甲　性别：女　年龄：40岁　病历号：0012345　科别：内分泌科　床号：8",
    "标本种类：全血　样本号：20240301-001　临床诊断：糖尿病",
    "检验项目：血常规",
    "No  项目                      结果      提示  单位        参考区间",
    "1   白细胞计数 WBC            11.3      ↑     10^9/L      3.5-9.5",
    "2   血红蛋白 HGB              120             g/L         115-150",
    "检验者：某乙　审核者：某丙　本报告仅对所检标本负责",
    "",
    "示范医院检验报告单",
    "姓名：某甲　性别：女　年龄：40岁　病历号：0012345　科别：内分泌科　床号：8",
    "标本种类：血清　样本号：20240301-002　临床诊断：糖尿病",
    "检验项目：肝功能",
    "No  项目                      结果      提示  单位        参考区间",
    "1   谷丙转氨酶 ALT            85        ↑     U/L         7-40",
    "2   谷草转氨酶 AST            30              U/L         13-35",
    "检验者：某乙　审核者：某丙　本报告仅对所检标本负责",
    "",
    "示范医院检验报告单",
    "姓名：某甲　性别：女　年龄：40岁　病历号：0012345　科别：内分泌科　床号：8",
    "标本种类：血清　样本号：20240301-003　临床诊断：糖尿病",
    "检验项目：血脂",
    "No  项目                      结果      提示  单位        参考区间",
    "1   总胆固醇 TC               4.2             mmol/L      0-5.2",
    "2   甘油三酯 TG               2.9       ↑     mmol/L      0-1.7",
    "检验者：某乙　审核者：某丙　本报告仅对所检标本负责",
]


def test_a_printed_lab_report_wrapped_at_36_keeps_its_panels():
    # The padded header and result rows are cut inside their column gaps, and a patient line is
    # cut inside its department's name: each panel still opens at its report's title, as unwrapped.
    text = _wrap(LAB, width=36)
    assert "No  项目                      结果      \n" in text
    expected = [(["血常规"], "示范医院"), (["肝功能"], "示范医院"), (["血脂"], "示范医院")]
    chunks = domainchunk.chunk(text, doc_type="lab_report").chunks
    assert [(c.path, c.text[:4]) for c in chunks] == expected
    unwrapped = domainchunk.chunk("\n".join(LAB) + "\n", doc_type="lab_report").chunks
    assert [(c.path, c.text[:4]) for c in unwrapped] == expected


@pytest.mark.parametrize("signers", [" 检验者：甲某 审核者：乙某某", ""])
def test_sign_off_lines_of_one_length_are_not_a_hard_wrap(signers):
    # A report repeats its sign-off line under every panel with values of one length: the lines
    # share a length without being cut there, and the caption after each one stays a line of its own.
    # Two fields alone (采样时间：… 报告时间：…) are a form line too.
    panels = ["降钙素原", "动脉血气分析", "铁代谢", "乙肝两对半", "同型半胱氨酸", "G试验"]
    blocks = []
    for i, name in enumerate(panels):
        blocks += [name, "项目\t结果\t单位\t参考区间", f"项目{i}\t1.{i}\tU/L\t0-9",
                   f"采样时间：2025-03-04 06:1{i} 报告时间：2025-03-04 10:3{i}{signers}"]
    text = "\n".join(blocks) + "\n"
    assert len({len(b) for b in blocks if b.startswith("采样")}) == 1
    assert build_view(text).identity
    chunks = domainchunk.chunk_text(text, doc_type="lab_report").chunks
    assert [c.path[-1] for c in chunks] == panels


def test_wrapped_prose_with_fields_in_it_is_still_joined():
    # Lines of sentences that hold a field or two (…。 查体：…) are prose cut at a width, not form lines.
    paragraph = "患者三天前受凉后出现咳嗽，咳白色黏痰，伴发热，最高体温三十八度五。 查体：神志清楚，双肺呼吸音粗，可闻及湿啰音。" * 3
    text = _wrap(["现病史", paragraph, "既往史", paragraph])
    view = build_view(text)
    assert not view.identity and paragraph in view.text


def _wrapped_note(header: list[str], width: int = 24) -> str:
    # a note long enough to read as hard-wrapped at ``width``, under the header lines given
    body = "患者今日诉头痛较前明显好转，无恶心呕吐，夜间睡眠可，饮食尚可，二便正常，继续目前治疗方案观察。" * 3
    return "\n".join(header) + "\n" + _wrap([body], width)


def test_a_one_field_line_that_fills_the_width_does_not_swallow_the_next_field():
    # 参加人员：… runs exactly to the width by chance; 汇报病史： under it is the next field, not its tail.
    field = "参加人员：甲某某主任医师、乙某某主治医师、丙某某"
    assert len(field) == 24
    view = build_view(_wrapped_note(["死亡病例讨论记录", field, "汇报病史：丁某某汇报病史。"]))
    assert not view.identity
    assert "\n汇报病史：" in view.text


def test_a_form_line_cut_after_a_label_goes_on_with_its_value():
    # the cut falls right after 检验项目：, the panel's name on the next line
    line = "标本种类：中段尿　送检医师：甲某某某　检验项目："
    assert len(line) == 24
    view = build_view(_wrapped_note([line, "尿液分析", "姓名：乙某　性别：女"]))
    assert "检验项目：尿液分析" in view.text
    # a sentence ending its line with 如下： at the width still ends it: the item under it opens
    holding = "依照《中华人民共和国民法典》相关规定，判决如下："
    assert len(holding) == 24
    text = _wrap([holding, "一、被告支付货款。"]) + _wrap(["被告未按约定期限付款，已构成违约，应当承担违约责任。" * 3])
    assert "\n一、被告" in build_view(text).text


# ---------------------------------------------------------------- converters' marks and letter-spacing


def _mapped(text: str):
    view = build_view(text)
    written = dict(zip(view.folds, view.written))  # what a character read otherwise was
    for pos, ch in enumerate(view.text):
        ch = written.get(pos, ch)
        assert text[view.to_text(pos)] == ch or pos in view.vstarts, (pos, ch)
        assert text[view.end_to_text(pos + 1) - 1] == ch
    return view


def test_markdown_marks_are_read_past_and_a_chunk_keeps_its_line_whole():
    text = "- 1、服务内容\n**第一章 总则**\n## **第二章 附则**\n- **第一条** 为了示范。<br>\n正文\n"
    view = _mapped(text)
    assert view.text == "1、服务内容\n第一章 总则\n## 第二章 附则\n第一条 为了示范。\n正文\n"
    # a start just past the marks at a line start maps to the marks, so the chunk holds its line whole
    assert view.to_text(view.text.index("1、")) == 0
    assert view.to_text(view.text.index("第一条")) == text.index("- **第一条")
    assert view.end_to_text(view.text.index("。") + 1) == text.index("。") + 1


def test_a_bullet_before_a_blocks_name_is_read_past_and_a_tick_box_stays():
    text = "■ 24小时尿蛋白定量\n◆肝功能\n●\u3000诊疗经过\n□有 ☑无\n尿量 ■ 2350 mL\n"
    view = _mapped(text)
    assert view.text == "24小时尿蛋白定量\n肝功能\n诊疗经过\n□有 ☑无\n尿量 ■ 2350 mL\n"
    assert view.to_text(view.text.index("肝功能")) == text.index("◆")  # the chunk keeps its line whole


def test_a_markdown_table_reads_as_a_text_table_and_pipes_without_a_rule_stay():
    table = "| 项目 | 结果 | 单位 |\n| --- | --- | --- |\n| 钾 | 3.3 | mmol/L |\n"
    assert _mapped(table).text == "项目\t结果\t单位\n钾\t3.3\tmmol/L\n"  # the rows a reader writes
    assert _mapped("| 项目 | 结果 |\n|---|---|\n| 钾 |  |\n").text == "项目\t结果\n钾\t\n"  # an empty cell
    signature = "| 甲方（盖章）：某甲 | 乙方（盖章）：某乙 |\n| 日期：2024年3月15日 | 日期：2024年3月15日 |\n"
    assert build_view(signature).identity  # no rule under it: text some rules read as written


def test_letter_spaced_heads_and_labels_read_solid_but_a_spaced_title_after_its_label_stays():
    text = "第 一 章　总 则\n## 第 二 节 审 判\n【入 院 记 录】\n主 诉：发热三天。\n审　判　长　　张三\n第一节 申 请 人\n"
    view = _mapped(text)
    assert view.text == "第一章总则\n## 第二节审判\n【入院记录】\n主诉：发热三天。\n审判长　　张三\n第一节 申 请 人\n"


def test_letter_spaced_heading_chunks_like_its_solid_twin():
    solid = "示范条例\n第一章 总则\n第一条 为了示范，制定本条例。\n第二章 附则\n第二条 本条例自公布之日起施行。\n"
    spaced = solid.replace("第一章 总则", "第 一 章 总 则").replace("第二章 附则", "第 二 章 附 则")
    chunks = domainchunk.chunk_text(spaced, doc_type="statute").chunks
    twins = domainchunk.chunk_text(solid, doc_type="statute").chunks
    assert [[p.replace(" ", "") for p in c.path] for c in twins] == [c.path for c in chunks]
    assert chunks[1].path == ["第一章总则", "第一条"] and chunks[1].text.startswith("第 一 章 总 则\n第一条")


def test_letter_spaced_form_lines_of_one_length_are_no_hard_wrap():
    # each 采 样 时 间： line is longer than its solid twin by its gaps, and all share one length:
    # the width is measured on the lines as read, so they are not taken for lines cut at a width
    report = "\n".join(["检验报告单", "采 样 时 间：2025-06-11 07:21\u3000报告时间：2025-06-11 11:01",
                        "检 验 项 目：肝功能", "项目\t结果\t单位"] * 4) + "\n"
    assert "11:01\n" in build_view(report).text


def test_full_width_punctuation_inside_numbers_reads_as_ascii_and_nowhere_else():
    text = "报告时间：2024－03－02 08：10：00\n钾：3．1mmol／L（3．5－5．5）\n1．服务内容：某某\n"
    view = build_view(text)
    assert view.text == "报告时间：2024-03-02 08:10:00\n钾：3.1mmol／L（3.5-5.5）\n1．服务内容：某某\n"
    assert all(view.to_text(p) == p for p in range(len(text)))  # one for one: no offset moves
    line = view.text.index("2024")
    assert view.as_written("2024-03-02 08:10:00", line, line + 19) == "2024－03－02 08：10：00"
    assert view.as_written("钾", line, line + 19) == "钾"  # not the line's characters: left be


def test_full_width_pipes_read_as_a_table_and_a_ruled_one_drops_them():
    signature = "｜ 甲方（盖章）：某甲 ｜ 乙方（盖章）：某乙 ｜\n"
    assert build_view(signature).text == signature.replace("｜", "|")
    ruled = "｜ 项目 ｜ 结果 ｜\n｜ --- ｜ --- ｜\n｜ 钾 ｜ 3.3 ｜\n"
    view = build_view(ruled)
    assert view.text == "项目\t结果\n钾\t3.3\n"
    assert view.written == "｜｜"  # the inner pipes read as tabs; the outer ones, left out, fold nothing


def test_a_lab_report_in_full_width_chunks_like_its_half_width_twin_with_labels_as_written():
    half = ("示范医院检验明细\n姓名：某甲\t性别：男\n"
            "报告时间:2024-03-02 08:10:00\t检验详情:钾:3.1mmol/L,偏低;\t钠:140mmol/L,正常;\n"
            "报告时间:2024-03-02 09:20:00\t检验详情:白细胞计数:5.30×10^9/L,正常;\n")
    full = half.translate(str.maketrans(":-./,;", "：－．／，；"))
    twins = domainchunk.chunk_text(half).chunks
    chunks = domainchunk.chunk_text(full).chunks
    assert [(c.start, c.end, c.rule) for c in chunks] == [(c.start, c.end, c.rule) for c in twins]
    assert len(chunks) == 3 and chunks[1].path == ["2024－03－02 08：10：00"]


def test_a_field_label_with_a_bracketed_word_opens_a_paragraph_after_a_line_cut_at_the_width():
    paras = ["入院记录", "现病史：患者于三天前无明显诱因出现发热，最高体温三十九度，伴咳嗽咳痰，无胸痛感。",
             "门（急）诊诊断：社区获得性肺炎，高血压病。",
             "既往史：既往体健，否认高血压、糖尿病病史，否认肝炎结核等传染病史，无手术外伤史。",
             "门(急)诊诊断:社区获得性肺炎，高血压病二级。",
             "体格检查：体温三十八度，脉搏九十次每分，呼吸二十次每分，血压一百二十八十毫米汞柱。"]
    assert build_view(_wrap(paras, 20)).text == "\n".join(paras) + "\n"


def test_an_extractors_spaces_after_marks_and_around_latin_runs_are_read_past():
    solid = ("第1条　为了规范管理，根据《示范法》第3条的规定，制定本条例。\n"
             "2024-12-03 08:40 主治医师查房记录\n查体：体温36.8℃，胸部CT示：白细胞计数WBC 5.2，降钙素原+C反应蛋白。\n")
    spaced = ("第 1 条　为了规范管理， 根据《 示范法》 第 3 条的规定， 制定本条例。\n"
              "2024-12-03 08:40 主治医师查房记录\n查体： 体温 36.8℃， 胸部 CT 示： 白细胞计数 WBC 5.2 ， 降钙素原+C 反应蛋白。\n")
    # the spaces beside more Latin text (08:40 主治, WBC 5.2) may be the writer's: they stay
    assert _mapped(spaced).text == solid.replace("计数WBC 5.2", "计数 WBC 5.2 ")
    assert build_view(solid).identity  # no writer spaces a text so: a text as written is left be
    assert build_view(spaced + "附件 1 \u3000岗位说明书\n").text.endswith("\n附件1\u3000岗位说明书\n")
    written = "原告某甲， 被告某乙。第1条 示范。\n"  # one spaced mark of two is no habit
    assert build_view(written).identity


def _printed(paras: list[str]) -> list[str]:
    """``paras`` as a PDF-to-Word converter writes them: every printed line its own (38 cells, a
    digit or Latin letter half a cell)."""
    return [line for p in paras for line in _printed_lines(p)]


_PRINTED_ARTICLES = [
    "第一条为了规范示范区域的管理工作，根据2024年第3号文件和第12号决定的规定，结合本市实际情况，制定本条例。",
    "第二条本条例适用于本市行政区域内面积在100平方米以上的示范区域的管理活动，以及与之有关的其他各项活动。",
    "第三条示范区域的管理机构应当依照本条例第2条的规定履行职责，并在每年3月31日前向社会公布上一年度的工作情况。",
    "第四条示范区域内的单位和个人应当遵守本条例，服从管理机构依照本条例作出的决定，不得妨碍管理机构依法执行公务。",
]


def test_lines_cut_at_a_printed_width_join_though_digits_take_half_a_cell():
    # every printed line its own paragraph: 38 cells, so a line holding digits holds more characters
    printed = _printed(_PRINTED_ARTICLES)
    assert len({len(line) for line in printed if len(line) > 30}) > 1  # no one width in characters
    assert build_view("\n".join(printed) + "\n").text == "\n".join(_PRINTED_ARTICLES) + "\n"


def test_a_line_that_fills_a_printed_width_by_chance_ends_its_paragraph():
    # a bracketed note of exactly 38 cells (the width), then a heading and an article with no blank line between
    note = "（2024年3月1日示范市第十五届人民代表大会常务委员会第十二次会议通过并予公布）"
    paras = ["示范市示范区域管理条例", note, "第一章　总则", *_PRINTED_ARTICLES]
    printed = _printed(paras)
    assert note in printed  # the note is one printed line, as wide as the cut ones
    view = build_view("\n".join(printed) + "\n").text
    assert view == "\n".join(paras) + "\n"


def test_printed_width_takes_half_a_cell_for_every_printable_ascii_character_only() -> None:
    from domainchunk.view import _printed_width

    half = "".join(map(chr, range(0x21, 0x7F)))  # printable ASCII, space excluded
    whole = "".join(map(chr, range(0x21))) + "\x7f\u3000\u00a0中１ａ"  # controls, space, DEL, wide and non-ASCII
    assert _printed_width(half) == len(half) - len(half) // 2
    assert _printed_width(whole) == len(whole)
    assert _printed_width("第12条 ab") == 7 - 2  # four half-width characters, the space a whole cell


def test_an_article_cited_on_at_a_line_start_opens_no_paragraph():
    # a printed line the wrap starts inside a citation goes on with the sentence citing it
    from domainchunk.view import opens_paragraph

    assert not opens_paragraph("第一百零七条之规定，判决如下：")
    assert not opens_paragraph("第二百九十八条第一款、第二款的规定，裁定如下：")
    assert not opens_paragraph("第十条、第十二条和第十五条的规定")
    for heading in ("第一条　为了规范示范管理，制定本条例。", "第二十条之一　示范条文。", "第三章　法律责任", "第二款"):
        assert opens_paragraph(heading), heading


def test_a_form_feed_opening_a_page_is_read_past():
    # pdftotext and pdfminer open every page with a form feed, and end the last with one
    text = "示范条例\n第一条 为了规范管理，制定本条例。\n第二条 本条例适用于本市。\n\f第 2 页\n\f第三条 本条例自公布之日起施行。\n\f"
    view = build_view(text)
    assert "\f" not in view.text and "第 2 页" not in view.text
    assert view.text.count("\n第三条 本条例") == 1
    chunks = domainchunk.chunk(text.encode(), name="示范.txt", max_chars=1000).records()
    assert [c["path"][-1] for c in chunks if c["path"]] == ["第一条", "第二条", "第三条"]


_SPREAD_PARAGRAPH = ("第一条为了规范示范区域的管理工作，根据2024年第3号文件和第12号决定的规定，结合本市实际情况，"
                     "制定本条例。示范区域的管理机构应当依照本条例的规定履行职责，并接受社会各界的监督。")


def test_a_justified_lines_character_spacing_goes_and_its_wrap_joins():
    # pdfminer and pypdf write a space between the glyphs of a line the justification spread; a digit
    # run stays whole, and a few glyphs set closer stay together (位依)
    lines = [_SPREAD_PARAGRAPH[i : i + WIDTH] for i in range(0, len(_SPREAD_PARAGRAPH), WIDTH)]
    # every other full line spread (a paragraph's last line is not justified), the first with 位依-style pairs
    spread = [" ".join(lines[0][:4]) + " " + lines[0][4:6] + " " + " ".join(lines[0][6:]),
              *(" ".join(re.findall(r"[0-9]+|\S", line)) if n % 2 == 0 and len(line) == WIDTH else line
                for n, line in enumerate(lines[1:]))]
    assert spread[1] != lines[1] and spread[2] == lines[2]
    text = "示范条例\n" + "\n".join(spread * 2) + "\n"
    assert build_view(text).text == "示范条例\n" + "".join(lines) + "\n" + "".join(lines) + "\n"


def test_spaced_words_numbers_and_table_rules_are_no_justified_line():
    for line in ("WBC 5.2 RBC 4.1 HGB 135 PLT 210 HCT 0.41", "10 20 30 40 50 60 70 80 90",
                 "│ │ │ │ │ │ │ │ │ │", "甲方 乙方 丙方 丁方 戊方 己方 庚方 辛方"):
        assert build_view(line + "\n").text == line + "\n", line


def test_pdftotexts_blocks_of_a_heading_line_join_and_an_opener_stays_apart():
    # pdftotext's default mode writes a printed line's gap-separated words as blocks, a blank line after each
    text = ("示范条例\n\n第一章\n\n总\n\n则\n\n第一条\n\n为了规范管理，制定本条例。\n\n"
            "第二章\n\n第二条　本条例适用于本市。\n\n第三章\n\n附则第三条\n\n本条例自公布之日起施行。\n")
    view = build_view(text).text
    assert view == ("示范条例\n\n第一章总则\n第一条为了规范管理，制定本条例。\n第二章\n\n第二条　本条例适用于本市。\n\n"
                    "第三章附则第三条本条例自公布之日起施行。\n")
    chunks = domainchunk.chunk(text.encode(), name="示范.txt", max_chars=1000).records()
    assert [c["path"] for c in chunks if c["path"]][:2] == [["第一章总则", "第一条"], ["第二章", "第二条"]]


def test_pdftotexts_letter_spaced_signature_joins_its_title_and_name():
    # 审　判　长　　某甲 comes out of pdftotext's default mode as 审 / 判 / 长 / 某甲, a blank line after each block
    # (the date is a line of its own: no blank line after it, so it is no block of the name's line)
    text = "本判决为终审判决。\n\n审\n\n判\n\n长\n\n示范甲\n\n审判员\n\n示\n\n乙\n\n二〇二四年九月十九日\n书记员　示丙\n"
    assert build_view(text).text == "本判决为终审判决。\n\n审判长示范甲\n审判员示乙\n二〇二四年九月十九日\n书记员　示丙\n"
    chunks = domainchunk.chunk(("示范区人民法院\n民事判决书\n（2024）示0101民初1号\n原告：示某，男。\n"
                                "本院认为，原告的请求成立。判决如下：\n驳回原告的诉讼请求。\n\n" + text).encode(),
                               name="判决.txt", max_chars=1000).records()
    assert [c["path"] for c in chunks][-1] == ["尾部"]
    assert chunks[-1]["text"].startswith("审\n\n判\n\n长")


def test_a_spaced_word_takes_no_field_label_or_line_after_it():
    # a date's 年 / 月 / 日 fill the label before them; the signature line after them, a field label of its
    # own, and a line with no blank line after it (a line of its own, not a block) stay apart
    text = "签订日期：\n\n年\n\n月\n\n日\n\n乙方（签字）：\n\n年\n\n月\n\n日\n\n附件一 明细\n类型\t数量\n"
    view = build_view(text).text
    assert view.startswith("签订日期：年月日\n乙方（签字）：")
    assert "\n附件一 明细\n" in view
    # two single characters under a chapter label are its title, and what follows them is no part of it
    assert build_view("第一章\n\n总\n\n则\n\n1.1\n\n合同文件。\n").text.startswith("第一章总则\n1.1")


def test_a_sentence_ending_in_a_cited_article_goes_on_past_no_blank_line():
    # only a short line with no sentence mark may be a heading that ends in a label
    text = "第一条　违反规定的，依照本条例第十条\n\n处罚。\n"
    assert build_view(text).identity


def test_layout_indentation_takes_half_a_cell_a_space():
    from domainchunk.view import _printed_width

    assert _printed_width("   第12条") == 7 - (2 + 3) // 2  # pdftotext -layout's three spaces for a two-character indent
    assert _printed_width("第12条 ab") == 7 - 2  # a space inside the line is still a whole cell


_NUMBERED = ["示范市示范区域管理条例", "第一章　总则", *_PRINTED_ARTICLES[:2], "第二章　管理", *_PRINTED_ARTICLES[2:],
             *ARTICLES[5:], "第三章　附则", "第七条本条例自公布之日起施行。"]


def test_a_browsers_bullets_are_read_past_as_list_marks():
    # a web page's list copied from a browser: a bullet before each item, a space or none after it
    text = "第三条：租赁期限\n• 1、租赁期限为五年。\n●2、免租期60天。\n第四条：租金\n"
    view = _mapped(text)
    assert view.text == "第三条：租赁期限\n1、租赁期限为五年。\n2、免租期60天。\n第四条：租金\n"
    assert view.to_text(view.text.index("2、")) == text.index("●2、")
    # a middle dot or a bullet inside a line is text
    assert build_view("阿卜杜·某甲 • 某乙\n").text == "阿卜杜·某甲 • 某乙\n"


def test_a_margins_line_numbers_go_beside_their_lines_and_alone():
    # pdftotext -layout writes a line-numbered printout's numbers right-aligned before each line,
    # or on a line of their own where the number's baseline differs from the text's
    beside = "\n".join(f"{n:>2}   {line}" for n, line in enumerate(_NUMBERED, 1)) + "\n"
    alone = "\n".join(f"{n:>2}\n  {line}" for n, line in enumerate(_NUMBERED, 1)) + "\n"
    for text in (beside, alone):
        view = build_view(text).text
        assert [line.strip() for line in view.splitlines()] == _NUMBERED
    chunks = domainchunk.chunk(beside.encode(), name="示范.txt", max_chars=1000).records()
    assert [c["path"] for c in chunks if c["path"]][:2] == [["第一章 总则", "第一条"], ["第一章 总则", "第二条"]]


def test_numbered_rows_of_a_table_are_no_margin():
    # a text whose first line is no 1, or whose numbers are few or out of order, keeps them
    rows = "\n".join(f"{n}  项目{n}\t{n * 3}" for n in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144)) + "\n"
    assert build_view(rows).text == rows
    report = "检验报告\n" + "\n".join(f"{n}  项目{n}\t{n * 3}" for n in range(1, 12)) + "\n"
    assert build_view(report).text == report


def test_a_pipe_table_hard_wrapped_or_full_width_is_still_read_as_its_rows():
    """A Markdown table whose long cells a hard wrap cut over several lines, or whose pipes and
    rule a 半角转全角 pass turned full-width (｜ －－－ ｜), or indented: each row reads as one
    tab-separated row, not as text that ends the table and keeps its pipes."""
    rows = ["| 项目 | 内容 |", "| --- | --- |", "| 主诉 | 反复咳嗽、咳痰10年，加重伴气促3天 |",
            "| 现病史 | 患者10年前开始每逢冬春季节出现咳嗽、咳白色泡沫痰，每年持续3个月以上。 |"]
    want = "项目\t内容\n主诉\t反复咳嗽、咳痰10年，加重伴气促3天\n现病史\t患者10年前开始每逢冬春季节出现咳嗽、咳白色泡沫痰，每年持续3个月以上。"
    cut = "\n".join(rows[:3] + ["| 现病史 | 患者10年前开始每逢冬春季节出现咳", "嗽、咳白色泡沫痰，每年持续3个月以上。", "|"])
    full = "\n".join(r.replace("|", "｜").replace("-", "－") for r in rows)
    indented = "\n".join("\u3000\u3000" + r for r in rows)
    for text in (cut, full, indented):
        view = build_view(text)
        assert "|" not in view.text and "｜" not in view.text, text
        assert view.text.replace("咳\n嗽", "咳嗽").strip() == want, view.text


def test_an_indented_line_after_a_full_line_that_ended_a_sentence_opens_a_paragraph():
    """A 款 that ended with 。 right at the wrap width, and the next 款 indented two ideographic
    spaces (首行缩进): the view ran them into one paragraph, and the article counted one 款 less."""
    from relayout import wrapped

    text = (ROOT / "corpora" / "statute_江临市共享单车停放管理办法_政府令.txt").read_text(encoding="utf-8")

    def paragraphs(t: str) -> list:
        return [c.metadata.get("paragraphs") for c in domainchunk.chunk(t, max_chars=1000).chunks]

    relaid = wrapped(text)
    assert "监督管理工作。\n\u3000\u3000城市管理" in relaid  # the case: a full line, then an indented one
    assert paragraphs(relaid) == paragraphs(text)


def test_short_paragraphs_whose_first_lines_lost_their_indent_still_read_as_wrapped():
    """A court's print: each paragraph's first line indented two ideographic spaces, cut at 34, and
    every space lost in extraction. Most paragraphs run two lines, so the commonest full line is a
    first line at 32, and the few lines at 34 read as longer than the width: the text was not read as
    wrapped at all, and a ruling's history opened on its second line (一案，于…)."""
    width = 34
    paragraphs = [
        "被申请人：示范物业服务有限公司，住所地示范市某区和平路12号。",
        "申请人蔡某甲因与被申请人示范物业服务有限公司物业服务合同纠纷一案，于2024年9月10日向本院申请诉前财产保全，"
        "请求冻结被申请人银行存款人民币十二万元或查封、扣押其等值财产，并以其名下房产一套提供担保。",
        "本院经审查认为，申请人的申请符合法律规定，依照《中华人民共和国民事诉讼法》第一百零四条之规定，裁定如下：",
        "冻结被申请人示范物业服务有限公司银行存款人民币十二万元或查封其等值的其他财产。",
        "案件申请费人民币一千一百二十元，由申请人蔡某甲负担，于本裁定送达之日起七日内交纳。",
        "申请人应当在人民法院采取保全措施后三十日内依法提起诉讼，逾期不起诉的，本院将依法解除保全。",
        "如不服本裁定，可以自收到裁定书之日起五日内向本院申请复议一次，复议期间不停止裁定的执行。",
    ]
    lines = []
    for p in paragraphs:
        indented = "\u3000\u3000" + p
        lines += [indented[i : i + width].replace("\u3000", "") for i in range(0, len(indented), width)] + [""]
    text = "\n".join(lines)
    assert 0 < sum(len(line) == width for line in lines) < sum(len(line) == width - 2 for line in lines)  # the case
    assert build_view(text).text.rstrip("\n").split("\n\n") == paragraphs


def test_full_width_markdown_bold_reads_as_bold():
    """After a 半角转全角 pass, **1. 定义** reads ＊＊1. 定义＊＊: an online agreement whose clause
    headings open with bold found 0 of 10 clauses (legal10b)."""
    text = "示范平台用户服务协议\n\n＊＊1. 定义＊＊\n本协议中的平台是指示范公司运营的网站。\n\n＊＊2. 账号注册＊＊\n用户应当提供真实信息。\n"
    view = build_view(text)
    assert "＊" not in view.text
    assert [c.path for c in domainchunk.chunk(text, doc_type="contract", max_chars=1000).chunks] == [[], ["1."], ["2."]]


def test_a_word_lists_tab_after_its_number_sets_no_column_and_its_wraps_join():
    # Word saves a numbered list as text with a tab after each number; cut at the width, each item
    # goes on into the next line as prose does (the tab is no table cell).
    items = [f"{n}.{k}\t" + "乙方应按照约定的范围和计划提供示范咨询服务并对交付成果的专业性负责。" for n in (1, 2, 3) for k in (1, 2, 3)]
    view = build_view(_wrap(["示范咨询服务协议", *items], width=30))
    for item in items:
        assert item in view.text


def test_a_page_number_glued_after_a_full_stop_ends_the_paragraph_there():
    # the page's last line reaches the wrap width only by the page number glued to it (…处理。17)
    last = "第五条违反本条例规定的，由示范区域的管理机构责令其改正；情节严重的，依照有关法律的规定处理。"
    assert len(last) + 2 == 2 * WIDTH
    paragraphs = [*ARTICLES[:5] * 3, last + "17", *ARTICLES[6:] * 3]
    view = build_view(_wrap(paragraphs))
    assert "的规定处理。17\n第六条本条例自公布之日起施行" in view.text


def test_a_statutes_bracketed_enactment_note_takes_no_heading_under_it():
    # the note fills the wrap width and ends in no sentence mark: only its closed bracket ends it
    note = "（2026年3月27日示范省人大常委会会议通过）"
    assert len(note) == WIDTH
    paragraphs = [ARTICLES[0], note, "第一章　总则", *ARTICLES[1:] * 8]
    view = build_view(_wrap(paragraphs))
    assert "\n第一章　总则\n" in view.text


def _his_print(rule: int) -> str:
    """A space-aligned HIS print of two requests over two pages: each page repeats its header, a
    ==== rule ``rule`` characters wide under the patient line, and ---- rules of the same width
    around each request's line."""
    header = ["            示范县人民医院  检验结果报告          打印：2027-09-14 16:20   第{}页/共2页",
              "姓名：某甲   性别：男   年龄：63岁   病区：内科一病区   床号：22   住院号：2709110045", "=" * rule]
    request = ["申请单号：{}   组合：{}      标本：血清   采样：2027-09-14 06:10", "-" * rule,
               "代码   项目名称              结果    标志 单位      参考值"]
    rows = [f"X{i}     示范项目{i}              {i}.{i}     H   U/L       1-9" for i in range(6)]
    lines = [header[0].format(1), *header[1:], request[0].format("270914003", "肝功能"), *request[1:], *rows,
             "检验：某乙   审核：某丙", "-" * rule, request[0].format("270914004", "凝血功能"), *request[1:], *rows,
             header[0].format(2), *header[1:]]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("rule", [60, 64, 66, 70])
def test_rule_lines_of_one_width_are_no_hard_wrap(rule):
    # A print draws its ==== and ---- rules to one width: lines of one length without any cut, so
    # the width is not taken from them, and the request line under a rule stays a line of its own.
    text = _his_print(rule)
    assert build_view(text).identity
    paths = [c.path for c in domainchunk.chunk(text, doc_type="lab_report").chunks]
    assert ["肝功能"] in paths and ["凝血功能"] in paths, paths



@pytest.mark.parametrize("cut_at", ["| --- | --- \n|", "| --- | -\n-- |", "| --\n- | --- |"])
def test_a_pipe_tables_rule_a_hard_wrap_cut_is_still_its_rule(cut_at):
    # A wrap may cut the rule row too (before its closing pipe, inside its dashes): it is still the
    # table's rule, left out whole, and the rows read as tab-separated rows.
    text = "\n".join(["| 项目 | 结果 |", cut_at, "| 血清铁 | 4.6 |", "| 铁蛋白 | 3.8 |"])
    view = build_view(text)
    assert view.text == "项目\t结果\n血清铁\t4.6\n铁蛋白\t3.8", view.text


def test_a_repeated_report_title_over_fields_each_a_block_leads_its_panel():
    """pdftotext writes a report header's fields each as a block, a blank line after every one; the
    view reads them as one lead, and sets the title repeated on every page aside as furniture. The
    title right above the fields belongs to the panel too: the second page's panel opened at 姓名."""
    def page(n: int, panel: str, rows: list[str]) -> str:
        head = "示范市人民医院检验报告单\n姓名：某甲\n\n性别：男\n\n年龄：39岁\n\n科室：内科\n\n"
        body = f"检验项目：{panel}\n项目\t结果\t单位\t参考范围\n" + "\n".join(rows) + "\n\n检验者：某乙\n\n审核者：某丙\n\n"
        return head + body + f"第{n}页 共2页\n\n"

    text = (page(1, "血常规", ["白细胞\t5.2\t10^9/L\t3.5-9.5", "血红蛋白\t135\tg/L\t130-175"])
            + page(2, "肝功能", ["丙氨酸氨基转移酶\t62\tU/L\t9-50", "总胆红素\t12.1\tμmol/L\t0-21"]))
    chunks = domainchunk.chunk(text, name="示范.txt", max_chars=1000).chunks
    assert [c.path for c in chunks] == [["血常规"], ["肝功能"]]
    assert all(c.text.startswith("示范市人民医院检验报告单\n姓名：某甲") for c in chunks)


def test_a_line_that_closes_a_bracket_cut_above_goes_on_with_it():
    """A court's print cut at 28 characters a line (GB/T 9704's 每行28字), its paragraphs' first lines
    indented, every space lost: a cut inside a case number (…作出（20 / 20）临0125刑初266号…) left the line
    below opening with what reads as a numbered item's label (20）), and the history ran on to the
    next paragraph as its own unit. It closes the bracket the line above left open."""
    from relayout import no_spaces, wrapped

    path = ROOT / "corpora" / "judgment_刑事裁定书_减刑.txt"
    text = path.read_text(encoding="utf-8")
    indented = "\n".join("\u3000\u3000" + line if "，" in line else line for line in text.split("\n"))
    relaid = no_spaces(wrapped(indented, 28))
    assert "作出（20\n20）" in relaid  # the case
    def paths(t: str) -> list:
        return [c.path for c in domainchunk.chunk(t, name=path.name, max_chars=1000).chunks]
    assert paths(relaid) == paths(text)
    # an item's label after a line whose brackets all closed still opens
    assert not _open_bracket("依照有关法律（刑法）之规定，判决如下：") and _open_bracket("于2020年9月14日作出（20")


def test_a_first_line_after_a_blank_line_that_lost_its_indent_was_cut():
    """A court's 问题解答 printed with first-line indents, cut at 34, every space lost: the note of its
    adoption under the title (a blank line above it, cut inside its bracket) and the preamble's first
    line are two short of the width; read as ended there, the title never met its note and the
    document was typed generic."""
    from relayout import no_spaces, wrapped

    path = ROOT / "corpora" / "statute_解答_数字序号问答.txt"
    text = path.read_text(encoding="utf-8")
    indented = "\n".join("\u3000\u3000" + line if re.search("[，（]", line) else line for line in text.split("\n"))
    relaid = no_spaces(wrapped(indented, 34))
    assert "会议讨论\n通过）" in relaid  # the case
    result = domainchunk.chunk(relaid, name=path.name, max_chars=1000)
    assert result.document.doc_type == "statute"
    assert [c.path for c in result.chunks] == [c.path for c in domainchunk.chunk(text, name=path.name, max_chars=1000).chunks]
