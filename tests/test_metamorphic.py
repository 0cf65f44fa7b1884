"""Metamorphic suite: a document re-laid the ways extraction damages it keeps its score.

Every document of corpora/, ../shared/corpus and a fixed sample of corpus-large is
re-laid every way of relayout.py and scored per (corpus, variant, doc_type)
against the floors in metamorphic_floors.yaml (issue 9, section 4). Floors record
today's scores, never above the issue's targets; they rise with
``python benchmarks/bench_generalisation.py --update-floors``.
"""
from __future__ import annotations

import re

import pytest

import generalisation as g
from relayout import (
    COURT_WRAP,
    FALLBACK_RUNNING_TITLE,
    PAGE_LINES,
    RENDERINGS,
    TEXT_VARIANTS,
    NARROW_WRAP,
    WRAP,
    crlf,
    double_blank,
    full_width_chars,
    fullwidth_indent,
    glued_page_numbers,
    half_width,
    indented_print_no_spaces,
    invisible_chars,
    markdown_emphasis,
    no_blank_lines,
    one_line_paragraphs,
    spaced_headings,
    tab_runs,
    narrow_wrapped,
    no_markdown,
    no_spaces,
    no_spaces_wrapped,
    page_furniture,
    flat_headings,
    form_feeds,
    furniture_no_spaces_crlf,
    no_markdown_form_feeds,
    justified_spaces,
    pdftotext_blocks,
    punct_spaces,
    relaid_name,
    running_title,
    wrapped,
)
from scoring import load_gold, squash

import domainchunk
from domainchunk.normalize import normalize_text
from domainchunk.view import view_of

FLOORS = g.load_floors()
SAMPLE = "# 示范市绿化条例\n\n## 第一章 总则\n\n第一条　为了规范 管理，\t制定本条例。\n" + "本条为示范文字，说明一个较长的段落如何被硬换行切成多行文本，直到超过宽度。\n" * 130


# ---------------------------------------------------------------- the transforms themselves


def test_no_spaces_removes_every_inline_space_and_keeps_line_breaks():
    out = no_spaces("第一条　为了 规范\t管理\u00a0。\n第二条")
    assert out == "第一条为了规范管理。\n第二条"


def test_wrapped_cuts_long_lines_and_keeps_the_text():
    out = wrapped(SAMPLE)
    assert max(map(len, out.split("\n"))) == WRAP
    assert squash(out) == squash(SAMPLE)


def test_narrow_and_spaceless_wraps_cut_at_their_width_and_keep_the_text():
    narrow, spaceless = narrow_wrapped(SAMPLE), no_spaces_wrapped(SAMPLE)
    assert max(map(len, narrow.split("\n"))) == NARROW_WRAP
    assert max(map(len, spaceless.split("\n"))) == WRAP and not re.search(r"[ \t\u3000]", spaceless)
    assert squash(narrow) == squash(spaceless) == squash(SAMPLE)


def test_crlf_fullwidth_and_no_markdown():
    assert crlf("a\nb\r\nc") == "a\r\nb\r\nc"
    assert fullwidth_indent("# 题\n\n第一条\n") == "# 题\n\n\u3000\u3000第一条\n"
    assert no_markdown("## 第一章 总则\n#标题\n正文 # 不是标题") == "第一章 总则\n标题\n正文 # 不是标题"
    assert relaid_name("法.md", "nomd") == "法.txt" and relaid_name("法.md", "crlf") == "法.md"


def test_page_furniture_goes_at_sentence_ends_about_every_page():
    out = page_furniture(SAMPLE).split("\n")
    numbers = [i for i, line in enumerate(out) if re.fullmatch(r"— \d+ —|- \d+ -|第\d+页 共\d+页", line)]
    assert len(numbers) == (len(SAMPLE.split("\n")) - 1) // PAGE_LINES
    for i in numbers:
        assert out[i - 1].endswith("。") and out[i + 1] == "示范市绿化条例"  # the running title follows
    assert {out[i][0] for i in numbers} == {"—", "-", "第"}  # every numbering style
    assert running_title("【入院记录】\n姓名：某") == FALLBACK_RUNNING_TITLE  # a record label is no title


def test_glued_page_numbers_stick_to_the_end_and_to_the_start_of_lines():
    out = glued_page_numbers(SAMPLE)
    assert "。1\n" in out and "\n2本条" in out
    assert len(out.split("\n")) == len(SAMPLE.split("\n"))


def test_blank_line_variants_double_and_remove_the_gaps():
    assert double_blank("甲\n乙\n\n丙") == "甲\n\n乙\n\n\n\n丙"
    assert no_blank_lines("甲\n\n乙\n \n丙\n") == "甲\n乙\n丙"


def test_width_variants_swap_ascii_and_full_width_forms_but_keep_markdown_marks():
    assert half_width("第一条（定义）：１．２，Ａ；\u3000甲") == "第一条(定义):1.2,A; 甲"
    assert full_width_chars("## 第1条 (定义): 1.2, A;\n# 标题") == "## 第１条 （定义）： １．２， Ａ；\n# 标题"
    assert half_width(full_width_chars("第1条 (定义): 1.2")) == "第1条 (定义): 1.2"


def test_tab_runs_write_two_or_more_spaces_as_one_tab():
    assert tab_runs("项目  结果   单位\n\u3000\u3000第一条 示范") == "项目\t结果\t单位\n\t第一条 示范"


def test_spaced_headings_letter_space_heads_and_labels_not_sentences_or_rows():
    out = spaced_headings("第一章　总则\n## 第二节 审判\n主诉：发热三天。\n第一条 为了示范，制定本条例。\n姓名\t张三\n")
    assert out == "第 一 章　总 则\n## 第 二 节 审 判\n主 诉：发热三天。\n第一条 为了示范，制定本条例。\n姓名\t张三\n"


def test_markdown_emphasis_bolds_chapters_lists_items_pipes_tables_and_breaks_sentences():
    text = ("# 示范条例\n\n第一章 总则\n\n第一条 为了规范示范区域的管理工作，制定本条例。\n下列事项由管理机构负责办理和监督：\n"
            "（一）日常管理；\n\n这是一个足够长的段落用来放置表格前的说明文字。\n项目\t结果\t单位\n钾\t3.3\tmmol/L\n")
    out = markdown_emphasis(text).split("\n")
    assert "**第一章 总则**" in out
    assert "第一条 为了规范示范区域的管理工作，制定本条例。<br>" in out
    assert "- （一）日常管理；" in out
    assert out[-4:] == ["| 项目 | 结果 | 单位 |", "| --- | --- | --- |", "| 钾 | 3.3 | mmol/L |", ""]
    assert relaid_name("判决书.txt", "md_emph") == "判决书.md"


def test_one_line_paragraphs_join_wraps_and_glue_numbered_items():
    text = "## 第一章 总则\n\n第一条 为了示范，\n制定本条例。\n\n第二条 本条例适用于示范。\n\n附：说明\n"
    assert one_line_paragraphs(text) == "## 第一章 总则\n\n第一条 为了示范，制定本条例。第二条 本条例适用于示范。\n\n附：说明\n"


def test_punct_spaces_space_full_width_marks_and_latin_runs_among_cjk():
    text = "## 第1章 总则\n第3条　为了管理，依照《某法》制定。2024年3月\n1.甲方\t10^9/L\n胸部CT示：钾3.5mmol/L。\n"
    assert punct_spaces(text) == ("## 第 1 章 总则\n第 3 条　为了管理， 依照《 某法》 制定。 2024 年 3 月\n1.甲方\t10^9/L\n"
                                  "胸部 CT 示： 钾 3.5mmol/L 。\n")


def test_flat_headings_put_every_markdown_heading_at_one_depth():
    text = "# 示范条例\n## 第一章 总则\n### 第一节 一般规定\n第一条 示范。\n"
    assert flat_headings(text) == "# 示范条例\n# 第一章 总则\n# 第一节 一般规定\n第一条 示范。\n"


def test_form_feeds_open_every_page_of_the_wrapped_text_and_end_the_last():
    out = form_feeds(SAMPLE)
    lines = out.split("\n")
    assert lines[-1] == "\f" and "\f" not in lines[0]
    assert [n for n, line in enumerate(lines[:-1]) if "\f" in line] == list(range(PAGE_LINES, len(lines) - 1, PAGE_LINES))
    assert out.replace("\f", "")[:-1] == wrapped(SAMPLE)


def test_justified_spaces_spread_full_lines_of_prose_digit_runs_whole():
    text = "第一条　为了规范管理，制定本条例。\n" + "甲" * 35 + "1234" + "乙" * 40 + "\n项目\t结果\t" + "丙" * 40 + "\n"
    out = justified_spaces(text).split("\n")
    assert out[0] == "第一条　为了规范管理，制定本条例。"  # short of the width: a paragraph's last line
    assert out[1] == " ".join("甲" * 35) + " 1"  # holds a digit: spread, the cut digit run whole
    assert out[2].startswith("234 乙 乙") and len(out[2].split()) == 34
    assert "\t" in out[4] and " " not in out[4]  # a table row is no prose
    assert squash(justified_spaces(text)) == squash(text)


def test_pdftotext_blocks_cut_a_line_at_its_wide_gaps_a_blank_line_after_it():
    text = "# 示范条例\n第一章　总　则\n第一条　为了规范管理。\n第二条 本条例适用于本市。\n项目\t结果\n姓名：某甲  性别：男\n"
    assert pdftotext_blocks(text) == ("# 示范条例\n第一章\n\n总\n\n则\n\n第一条\n\n为了规范管理。\n\n"
                                      "第二条 本条例适用于本市。\n项目\t结果\n姓名：某甲\n\n性别：男\n")


def test_indented_print_indents_each_paragraphs_first_line_and_loses_every_space():
    text = "第一章　总则\n第一条为了规范管理示范区域的公共服务活动，保障公众的合法权益，制定本条例。\n姓名：某甲　　性别：男\n"
    out = indented_print_no_spaces(text)
    lines = out.rstrip("\n").split("\n")
    # the heading and the fields stay as they were but for their spaces; the article's first line
    # held the indent when it was cut, so it is two short of the width, and its second line is not
    assert lines[0] == "第一章总则" and lines[-1] == "姓名：某甲性别：男"
    assert len(lines[1]) == COURT_WRAP - 2 and len(lines[2]) < COURT_WRAP
    assert "".join(lines[1:-1]) == "第一条为了规范管理示范区域的公共服务活动，保障公众的合法权益，制定本条例。"


def test_invisible_chars_are_what_the_reader_takes_out_again():
    text = "第一条 为了规范管理示范区域，制定本条例。\n第二条 示范。"
    out = invisible_chars(text)
    assert "\u00a0" in out and "\u200b" in out and out.startswith("\ufeff")
    assert normalize_text(out) == text.replace(" ", " ")


@pytest.mark.parametrize("variant", sorted(TEXT_VARIANTS))
def test_every_gold_anchor_survives_the_relayout_in_order(variant):
    """Transforms only add furniture at safe boundaries, so the gold of every document stays valid.
    (A CSV's gold anchors are in the text its reader builds, not in the file's bytes; the text is
    compared as the reader reads it, with the zero-width characters of ``nbsp`` out.)"""
    docs = [d for corpus in ("ours", "shared", "large_sample") for d in g.corpus_documents(corpus)]
    for doc in docs:
        if not g.applies(variant, doc) or doc.path.suffix == ".csv":
            continue
        text = squash(normalize_text(TEXT_VARIANTS[variant][0](doc.path.read_text(encoding="utf-8"))))
        at = 0
        for unit in load_gold(doc.gold)["units"]:
            at = text.find(squash(unit["anchor"]), at)
            assert at >= 0, (doc.path.name, unit["anchor"][:4])
            at += 1


@pytest.mark.parametrize("rendering", sorted(RENDERINGS))
def test_renderings_are_read_back_as_their_format(rendering, tmp_path):
    import domainchunk

    render, suffix = RENDERINGS[rendering]
    data = render("# 示范条例\n\n## 第一章 总则\n\n第一条　为了规范管理，制定本条例。\n项目\t结果\t单位\n血红蛋白\t135\tg/L\n")
    doc = domainchunk.load_source(data, name="示范" + suffix)
    assert "第一条" in doc.text and "血红蛋白" in doc.text
    kinds = {block.kind for block in doc.blocks}
    if rendering == "docx_tables":
        assert "table" in kinds  # the tab-separated rows became a Word table
    if rendering in ("docx_styled", "docx_tables"):
        assert any(b.kind == "heading" and b.level for b in doc.blocks)  # Heading N styles read as levels
    if rendering == "docx_plain":
        assert "table" not in kinds and not any(b.kind == "heading" and b.level for b in doc.blocks)


def test_combined_habits_apply_each_transform_to_the_output_of_the_one_before():
    out = furniture_no_spaces_crlf(SAMPLE)
    assert "\r\n" in out and "\n" not in out.replace("\r\n", "")
    assert " " not in out and "\u3000" not in out and "\t" not in out  # the furniture's spaces go too
    assert re.search(r"第\d+页共\d+页|—\d+—|-\d+-", out)
    fed = no_markdown_form_feeds(SAMPLE)
    assert "#" not in fed and fed.count("\f") >= 2
    assert fed == form_feeds(no_markdown(SAMPLE))
    assert relaid_name("a.md", "nomd_formfeed_wrap36") == "a.txt"


# ---------------------------------------------------------------- what real extractors write

# pdftotext -raw and pdfminer on a word processor's PDF: a digit run is set in the Latin font and the
# font change reads as a space (第 2.01 条, 2024 年 3 月), while the full-width marks get none.
_LATIN_SPACED_CONTRACT = (
    "示范建设工程施工合同\n第二部分 通用合同条款\n第 1.01 条 词语定义\n“工程”系指永久工程和临时工程，本合同于 2024 年 3 月 20 日生效。\n"
    "第 1.02 条 合同文件的优先顺序\n组成合同的各项文件应互相解释，解释合同文件的优先顺序如下：\n（1）合同协议书；\n（2）专用合同条款；\n"
    "（3）通用合同条款。\n第 2.01 条 发包人义务\n发包人应按第 1 项约定移交施工现场，并提供 3 类施工条件。\n"
    "第 2.02 条 承包人义务\n承包人应按约定完成工程。\n")


def test_digit_runs_spaced_without_spaced_marks_still_read_as_labels():
    paths = [c.path for c in domainchunk.chunk_text(_LATIN_SPACED_CONTRACT, doc_type="contract").chunks]
    assert paths[1:] == [["第二部分 通用合同条款", f"第{n}条"] for n in ("1.01", "1.02", "2.01", "2.02")]


def test_a_paragraphs_first_line_short_by_its_dropped_indent_is_still_a_cut_line():
    # Cut at 30 characters; each paragraph's first line is 28 (pdftotext -raw drops the indent).
    body = ["乙" * 29 + "，"] * 2
    text = "\n".join(["示范市示范区人民法院", "民事判决书", "甲" * 20 + "。"]
                     + ["丙" * 27 + "，", *body, "丁" * 10 + "。"]
                     + ["戊" * 27 + "，", *body, "己" * 10 + "。"]
                     + ["项目名称结果单位参考范围代号提示" + "庚" * 12, "白细胞计数\t6.5"]) + "\n"
    lines = view_of(text).text.split("\n")
    assert "丙" * 27 + "，" + "乙" * 29 in lines[3] and lines[3].endswith("丁" * 10 + "。")
    assert lines[4].startswith("戊") and lines[4].endswith("己" * 10 + "。")
    assert lines[5] == "项目名称结果单位参考范围代号提示" + "庚" * 12  # after a sentence, but a row follows: no cut


_BLOCK_REPORT = "".join(
    f"示范市第一人民医院检验报告单\n姓名：某甲　性别：女　年龄：64岁　科别：肾内科\n"
    f"标本种类：{specimen}　临床诊断：慢性肾脏病　检验项目：{panel}\n"
    f"No\t项目名称\t结果\t参考值\n1\t{item}\n报告时间：2024-04-11 09:15\n\n"
    for specimen, panel, item in (("尿液", "尿液分析", "隐血(BLD)\t++\t阴性"), ("动脉血", "血气分析", "乳酸(Lac)\t1.2\t0.5-1.6")))


def test_pdftotext_field_blocks_are_the_lead_of_the_panel_they_head():
    text = pdftotext_blocks(_BLOCK_REPORT)
    assert "姓名：某甲\n\n性别：女\n\n" in text  # each field a block, a blank line after it
    chunks = domainchunk.chunk_text(text, doc_type="lab_report").chunks
    assert [c.path for c in chunks] == [["尿液分析"], ["血气分析"]]
    assert all(c.text.startswith("示范市第一人民医院检验报告单\n姓名：某甲") for c in chunks)


# ---------------------------------------------------------------- floors


def test_every_floor_is_at_most_its_target():
    for corpus, table in FLOORS.items():
        targets = g.targets_for(corpus)
        for variant, by_type in table.items():
            for doc_type, entries in by_type.items():
                assert set(entries) == set(g.METRICS), (corpus, variant, doc_type)
                for metric, entry in entries.items():
                    where = (corpus, variant, doc_type, metric)
                    assert entry["target"] == targets[metric], where
                    if metric in g.AT_MOST:
                        assert entry["ceiling"] >= entry["target"], where
                    else:
                        assert entry["floor"] <= entry["target"], where


METAMORPHIC = [(corpus, variant) for corpus in ("ours", "shared", "large_sample") for variant in g.FLOORED[corpus]]


@pytest.mark.parametrize("corpus,variant", METAMORPHIC, ids=[f"{c}-{v}" for c, v in METAMORPHIC])
def test_relaid_corpus_keeps_its_floors(corpus, variant):
    if not g.corpus_documents(corpus):
        pytest.skip(f"corpus {corpus} is not present")
    misses = g.floor_misses(corpus, variant, g.measure(corpus, (variant,)).get(variant, {}))
    assert not misses, "\n".join(misses)
