"""Statutes end to end: structure, metadata, splitting. Scores against gold files are in test_corpora.py."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import domainchunk

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "corpora" / "statute_示范社区管理条例.md"


@pytest.fixture(scope="module")
def sample():
    return domainchunk.chunk(SAMPLE, max_chars=1000)


def test_detects_statute_with_reasons(sample):
    d = sample.detection
    assert d.doc_type == "statute"
    fired = {r.signal for r in d.reasons if r.doc_type == "statute"}
    assert {"statute.article-lines", "statute.chapter-lines", "statute.title"} <= fired
    assert d.score >= 4
    assert "statute.article-lines" in d.explain()


def test_paths_and_toc(sample):
    paths = [c.path for c in sample.chunks]
    assert paths[0] == []  # title, enactment note and table of contents
    assert "目录" in sample.chunks[0].text
    assert paths[1] == ["第一章 总则", "第一条"]
    assert ["第二章 社区服务", "第一节 一般服务", "第五条之一"] in paths
    assert paths[-1] == ["第三章 附则", "第七条"]
    # The table of contents is not read as chapters: each chapter heading opens one chunk only.
    assert sum(c.text.lstrip("# ").startswith("第一章 总则") for c in sample.chunks) == 1


def test_article_metadata(sample):
    by_label = {c.metadata.get("article_label"): c for c in sample.chunks if c.kind == "article"}
    fourth = by_label["第四条"]
    assert fourth.metadata["article"] == 4
    assert fourth.metadata["law"] == "示范社区管理条例"
    assert fourth.metadata["citations"] == [{"law": "示范市物业管理办法", "article": 12, "label": "第十二条"}]
    fifth = by_label["第五条"]
    assert fifth.metadata["citations"] == [{"law": "示范社区管理条例", "article": 4, "label": "第四条"}]
    assert by_label["第五条之一"].metadata["article_sub"] == 1
    assert by_label["第二条"].metadata["paragraphs"] == [1, 2]


def test_cross_reference_at_line_start_stays_inside_its_article(sample):
    fifth = next(c for c in sample.chunks if c.metadata.get("article_label") == "第五条")
    assert "第四条规定的" in fifth.text
    assert not any(c.text.startswith("第四条规定的") for c in sample.chunks)


def test_oversize_article_splits_between_paragraphs_and_keeps_path():
    result = domainchunk.chunk(SAMPLE, max_chars=400)
    pieces = [c for c in result.chunks if c.path[-1:] == ["第六条"]]
    assert len(pieces) >= 2
    assert all(c.kind == "part-of-unit" and c.metadata["unit_kind"] == "article" for c in pieces)
    assert [c.metadata["part"] for c in pieces] == list(range(1, len(pieces) + 1))
    assert pieces[0].text.startswith("### 第二节 特别服务")  # the heading stays with the first piece
    assert pieces[1].rule == "statute.paragraph"
    assert pieces[1].metadata["paragraphs"][0] == 2
    text = result.document.text
    assert all(text[c.start - 1] == "\n" for c in pieces[1:]), "pieces start at paragraph starts"


def test_context_text_has_breadcrumb(sample):
    c = sample.chunks[1]
    assert c.context_text.startswith(f"{sample.document.title}\n第一章 总则 > 第一条\n")  # title, then path
    assert c.context_text.endswith(c.text)


def test_law_without_articles_uses_top_items():
    result = domainchunk.chunk(ROOT / "corpora" / "statute_示范通知.txt")
    assert result.detection.doc_type == "statute"
    assert [c.path for c in result.chunks[1:]] == [["一、补贴标准的计算"], ["二、发放方式"], ["三、"]]


def test_jsonl_record_schema(sample):
    rec = sample.chunks[1].to_record()
    assert {"source", "index", "text", "start", "end", "path", "kind", "doc_type", "pages", "rule", "metadata"} <= rec.keys()


# ---------------------------------------------------------------- forms beyond the shared corpus (corpora/statute_示范*)

CODE = ROOT / "corpora" / "statute_示范数据资源法典.md"


def test_oversize_article_splits_at_paragraphs_then_items():
    result = domainchunk.chunk(CODE, max_chars=400)
    pieces = [c for c in result.chunks if c.path[-1:] == ["第九条"]]
    assert all(c.path == ["第二编 数据流通", "第二分编 数据交易", "第二章 交易规则", "第九条"] for c in pieces)
    assert pieces[0].text.startswith("### 第二分编 数据交易")  # the headings stay with the first piece
    assert all(len(c.text) <= 400 for c in pieces)
    rules = [c.rule for c in pieces]
    # the long first 款 has no items: sentences; the second 款 is cut at its 项; the third 款 is whole
    assert rules == ["statute.article", "fallback", "statute.paragraph", "statute.item", "statute.paragraph"]
    assert [c.metadata["paragraphs"] for c in pieces] == [[1, 1], [1, 1], [2, 2], [2, 2], [3, 3]]
    assert pieces[3].text.startswith("（七）")


def test_oversize_article_at_the_default_limit_splits_between_paragraphs_only():
    pieces = [c for c in domainchunk.chunk(CODE, max_chars=1000).chunks if c.path[-1:] == ["第九条"]]
    assert [c.rule for c in pieces] == ["statute.article", "statute.paragraph"]
    assert pieces[1].text.startswith("违反前款规定")


def test_inserted_articles_in_a_code_with_subparts():
    chunks = domainchunk.chunk(CODE).chunks
    labels = [c.metadata.get("article_label") for c in chunks if c.kind == "article"]
    assert labels[3:6] == ["第四条", "第四条之一", "第四条之二"]
    zhi_er = next(c for c in chunks if c.metadata.get("article_label") == "第四条之二")
    assert (zhi_er.metadata["article"], zhi_er.metadata["article_sub"]) == (4, 2)
    assert chunks[-1].path == ["附则", "第十一条"]


def test_amendment_quoted_articles_are_not_articles():
    result = domainchunk.chunk(ROOT / "corpora" / "statute_示范河湖保护条例修改决定.txt")
    assert result.detection.doc_type == "statute"
    assert [c.path[0][:2] for c in result.chunks[1:]] == ["一、", "二、", "三、", "四、", "五、"]
    assert not any(c.kind == "article" for c in result.chunks)
    second = result.chunks[2].text
    assert "“第十二条　" in second and "“第十二条之一　" in second  # quoted articles stay in their item


def test_interpretation_sections_head_their_articles():
    chunks = domainchunk.chunk(ROOT / "corpora" / "statute_示范纠纷司法解释.txt").chunks
    assert [c.path for c in chunks[1:4]] == [["一、一般规定", f"第{n}条"] for n in "一二三"]
    assert chunks[1].text.startswith("一、一般规定")  # not left at the end of the preamble
    assert not chunks[3].text.rstrip().endswith("二、合同的履行")  # nor at the end of the article above
    assert chunks[-1].path == ["三、附则", "第七条"]
    assert "(三)服务接受者" in chunks[2].text  # half-width (一) items stay inside their article


def test_notice_list_of_annexes_is_not_an_annex():
    chunks = domainchunk.chunk(ROOT / "corpora" / "statute_示范社区服务工作通知.txt").chunks
    assert [c.path for c in chunks[1:]] == [["一、明确工作目标"], ["二、落实重点任务"], ["三、强化组织保障"], ["附件"]]
    assert "附件：示范服务站点建设标准" in chunks[3].text
    assert chunks[4].kind == "annex" and chunks[4].text.startswith("附件\n")


def test_arabic_articles_and_letter_spaced_headings_in_hard_wrapped_text():
    chunks = domainchunk.chunk(ROOT / "corpora" / "statute_示范城市绿地管理条例.txt").chunks
    assert chunks[1].path == ["第一章 总 则", "第1条"] and chunks[1].metadata["article"] == 1
    assert ["第二章 规划与建设", "第二节 建 设", "第10条"] in [c.path for c in chunks]
    assert not any(c.text.startswith(("第9条规定", "第20条第1款")) for c in chunks)


MARKDOWN_CODE = """# 示范法典

# 总则

## 第一章 基本规定

第一条 示范条文一。

## 法律责任

第二条 示范条文二。

# 物权编

## 第一章 一般规定

第三条 示范条文三。
"""


def test_markdown_headings_without_numbers_open_levels_by_depth():
    result = domainchunk.chunk(MARKDOWN_CODE, doc_type="statute")
    paths = [c.path for c in result.chunks if c.kind == "article"]
    assert paths == [
        ["总则", "第一章 基本规定", "第一条"],
        ["总则", "法律责任", "第二条"],  # 法律责任 closes 第一章: no stale chapter
        ["物权编", "第一章 一般规定", "第三条"],
    ]
    assert result.document.title == "示范法典"
    assert {c.metadata["law"] for c in result.chunks if c.kind == "article"} == {"示范法典"}


def test_law_title_is_never_a_chapter_heading():
    result = domainchunk.chunk("第一章 总则\n\n第一条 为了示范管理，制定本法。\n\n第二条 本法适用于示范区域。\n", doc_type="statute")
    assert result.chunks[0].path == ["第一章 总则", "第一条"]
    assert result.chunks[0].metadata["law"] is None
    assert result.document.title is None


def test_long_heading_wrapped_onto_a_second_line_stays_with_its_article():
    text = "示范条例\n\n第一章 示范管理机构和地方示范委员会\n\n在示范工作中的职责\n\n第一条 示范条文。\n\n第二条 示范条文二。\n"
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [c.path for c in chunks[1:]] == [["第一章 示范管理机构和地方示范委员会", "第一条"], ["第一章 示范管理机构和地方示范委员会", "第二条"]]
    assert chunks[1].text.startswith("第一章") and "在示范工作中的职责" in chunks[1].text


def test_table_of_contents_without_a_title_is_preamble():
    text = (
        "# 示范条例\n\n## 第一章 总则\n\n## 第二章 管理\n\n## 第三章 附则\n\n"
        "## 第一章 总则\n\n第一条 示范条文一。\n\n## 第二章 管理\n\n第二条 示范条文二。\n\n## 第三章 附则\n\n第三条 示范条文三。\n"
    )
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert chunks[0].path == [] and "## 第三章 附则" in chunks[0].text
    assert [c.path for c in chunks[1:]] == [["第一章 总则", "第一条"], ["第二章 管理", "第二条"], ["第三章 附则", "第三条"]]


RESOLUTION = """示范市人民代表大会常务委员会关于加强示范工作的决议

（2025年1月1日示范市第一届人民代表大会常务委员会第一次会议通过）

示范市人民代表大会常务委员会听取了关于示范工作的报告。为加强示范工作，特作如下决议：

一、示范工作要坚持依法进行。

二、示范机关要加强监督。

三、本决议自公布之日起施行。
"""

REPLY = """示范最高机关关于示范问题的批复

示范高级机关：

你院《关于示范问题的请示》收悉。经研究，批复如下：

一、示范问题适用示范规定。

二、本批复自2025年1月1日起施行。
"""


@pytest.mark.parametrize("text, points", [(RESOLUTION, 3), (REPLY, 2)])
def test_resolutions_and_replies_are_statutes_with_one_unit_per_point(text, points):
    result = domainchunk.chunk(text)
    assert result.detection.doc_type == "statute"
    assert [c.path for c in result.chunks if c.kind == "item"] == [[f"{n}、"] for n in "一二三"[:points]]


def test_annex_lines_after_the_last_article_are_units():
    text = "示范条例\n\n第一条 示范条文一。\n\n第二条 示范条文二。\n\n附：示范收费标准\n\n示范内容。\n\n附表1：示范目录\n\n示范目录内容。\n"
    chunks = domainchunk.chunk(text, doc_type="statute").chunks
    assert [(c.path, c.kind) for c in chunks[-2:]] == [(["附"], "annex"), (["附表1"], "annex")]


def test_title_and_self_citation_words_are_the_rule_files(tmp_path):
    """The hooks read the words a title ends with and a law cites itself by from the rule file's
    terms: extending statute with 守则 makes a 守则 a law with a title and self-citations."""
    (tmp_path / "statute.yaml").write_text(yaml.safe_dump(
        {"extends": "statute", "terms": {"title_suffix": {"守则": []}, "self_name": {"守则": []}}}, allow_unicode=True),
        encoding="utf-8")
    text = "示范行业守则\n\n第一条 为了规范示范行业，制定本守则。\n\n第二条 违反本守则第一条的，予以批评。\n"
    default = domainchunk.chunk(text, doc_type="statute").chunks[-1].metadata
    ours = domainchunk.chunk(text, doc_type="statute", rules_dir=tmp_path).chunks[-1].metadata
    assert default["law"] is None and default["citations"][0]["law"] is None
    assert ours["law"] == "示范行业守则"
    assert ours["citations"] == [{"law": "示范行业守则", "article": 1, "label": "第一条"}]


def test_a_title_longer_than_the_wrap_width_is_the_whole_title():
    # hard-wrapped at 36 characters, as PDF text comes: the title's last part is a line of its
    # own in the text, and only the view the outline reads joins it to the first.
    from relayout import wrapped

    title = "示范市人民代表大会常务委员会关于促进和保障示范区域生态环境保护工作若干问题的决定"
    body = "\n\n".join(f"第{n}条　" + "示范机关应当依法履行示范职责，做好示范区域内的示范管理工作。" * 2 for n in "一二三四五六")
    result = domainchunk.chunk(wrapped(f"{title}\n\n{body}\n"), doc_type="statute")
    assert result.document.title == title
    assert {c.metadata["law"] for c in result.chunks if c.metadata.get("article_label")} == {title}


def test_paragraphs_and_citations_of_a_hard_wrapped_article_are_those_as_written():
    # A hard-wrapped article's line breaks start no 款, and a citation cut at a line end is
    # still one: both are read on the view the outline matched, not on the wrapped text.
    from relayout import wrapped

    text = "示范条例\n\n" + "\n\n".join(
        f"第{n}条　示范机关应当依照《中华人民共和国示范管理法》第二十三条的规定，做好示范区域内的示范管理工作。\n\n"
        "有关单位和个人应当配合示范机关依法开展的示范管理工作，不得拒绝或者阻碍本条规定的示范管理活动。"
        for n in "一二三四五六") + "\n"

    def read(source: str) -> list[tuple]:
        chunks = domainchunk.chunk(source, doc_type="statute").chunks
        return [(c.metadata["article_label"], c.metadata["paragraphs"], c.metadata.get("citations")) for c in chunks
                if c.metadata.get("article_label")]

    as_written = read(text)
    assert as_written[0][1] == [1, 2] and as_written[0][2][0]["article"] == 23
    assert len(wrapped(text).splitlines()) == len(text.splitlines()) + 12, "the wrap cuts every paragraph"
    assert read(wrapped(text)) == as_written


def test_a_chapter_number_alone_takes_its_title_from_the_line_below():
    """第一章 / 总则 on two lines (a PDF's two centred lines), 附则 too, which a level takes on its
    own: the chapter is one heading, 第一章 总则, not a lone chunk with path 第一章."""
    text = ("示范停车设施管理条例\n\n第一章\n总则\n\n第一条\n为了加强停车设施管理，制定本条例。\n\n"
            "第二条\n本条例适用于本市。\n\n第二章\n附则\n\n第三条\n本条例自公布之日起施行。\n")
    result = domainchunk.chunk(text, max_chars=1000)
    assert [c.path for c in result.chunks] == [[], ["第一章 总则", "第一条"], ["第一章 总则", "第二条"], ["第二章 附则", "第三条"]]
    assert result.chunks[1].text.startswith("第一章\n总则\n\n第一条")


def test_a_chapter_heading_with_its_english_translation_below_opens_the_first_article():
    """A statute printed with its official translation sets the English heading under the Chinese one;
    a long English line (past HEADING_MAX) is still the heading's, not a chunk of its own."""
    text = ("示范投诉处理办法\n\n第一章　总则\nChapter I General Provisions\n\n第一条　为了规范投诉处理，制定本办法。\n"
            "Article 1 These Measures are formulated to regulate the handling of complaints.\n\n"
            "第二章　投诉的提出与受理\nChapter II Filing and Acceptance of Complaints and Their Review\n\n"
            "第二条　投诉人应当提交书面材料。\nArticle 2 A complainant shall submit written materials.\n")
    result = domainchunk.chunk(text, max_chars=1000)
    assert [c.path[-1:] for c in result.chunks] == [[], ["第一条"], ["第二条"]]
    second = result.chunks[2]
    assert second.text.startswith("第二章　投诉的提出与受理\nChapter II")
    assert second.path[0].startswith("第二章 投诉的提出与受理")


def test_margin_line_numbers_glued_to_their_lines_are_no_text():
    """A draft printed with line numbers in its margin, extracted without spaces (``3第一条…``):
    the numbers count up line by line, so they are the margin's, and 第一条 still opens at the line start."""
    lines = ["示范养老服务条例（草案）", "第一章总则", "第一条为了规范示范养老服务，根据有关法律，结合本",
             "市实际，制定本条例。", "第二条本条例适用于本市行政区域内的养老服务。", "第三条市人民政府应当将养老服务纳入规划。",
             "第二章服务", "第四条社区养老服务设施可以委托专业机构运营，提", "供助餐、助浴等服务。",
             "第五条养老机构应当与老年人签订服务协议。", "第六条养老机构不得虐待老年人。", "第三章附则",
             "第七条本条例自公布之日起施行。"]
    text = "\n".join(f"{i}{line}" for i, line in enumerate(lines, 1)) + "\n"
    result = domainchunk.chunk(text, max_chars=1000)
    assert [c.path for c in result.chunks][1:] == [
        ["第一章总则", "第一条"], ["第一章总则", "第二条"], ["第一章总则", "第三条"], ["第二章服务", "第四条"],
        ["第二章服务", "第五条"], ["第二章服务", "第六条"], ["第三章附则", "第七条"]]
