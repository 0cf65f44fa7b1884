"""The plain data the pipeline carries from chunker to API boundary (issue 13) builds the same
models the validated path builds: same fields, same order, same fields set."""
from __future__ import annotations

import domainchunk
from domainchunk.chunkers import statute
from domainchunk.models import Chunk, chunk_of_row, chunk_row, trusted
from domainchunk.outline import build_outline
from domainchunk.readers.text import text_document
from domainchunk.rulefile import load_rules

LAW = """示范城市绿化条例

第一章　总则

第一条　为了促进城市绿化，制定本条例。
本条例适用于本市。

第二条　城市绿化依照本条例第一条的规定进行。
（一）公园绿地；
（二）防护绿地。
市人民政府负责本条例第一条、第二条的实施。

第三条　本条例自公布之日起施行。
"""


def test_a_chunk_row_holds_every_field_of_a_chunk_in_its_order():
    row = chunk_row(0, "甲", 0, 1, ["第一条"], "article", "statute", [], "statute.article", "<t>", {})
    assert list(row) == list(Chunk.model_fields)


def test_a_row_becomes_the_model_trusted_and_validation_make():
    row = chunk_row(3, "甲乙", 4, 6, ["第一章", "第一条"], "article", "statute", [2], "statute.article", "<t>",
                    {"article": 1})
    row.update(id="a1", prev_id="a0", size=2)
    given = {k: v for k, v in row.items() if k in {"index", "text", "start", "end", "path", "kind", "doc_type",
                                                   "pages", "rule", "source", "metadata", "id", "prev_id", "size"}}
    expected = Chunk.model_validate(given)
    built = chunk_of_row(dict(row))
    assert built.model_dump() == expected.model_dump() == trusted(Chunk, given).model_dump()
    assert built.model_fields_set == expected.model_fields_set
    assert built.model_dump_json() == expected.model_dump_json()
    assert built.children == []


def test_every_chunk_of_a_call_is_its_own_model():
    chunks = domainchunk.chunk_text(LAW, doc_type="statute").chunks
    assert [c.path for c in chunks[1:]] == [["第一章 总则", f"第{n}条"] for n in "一二三"]
    assert "parent_id" not in chunks[0].model_fields_set and "prev_id" not in chunks[0].model_fields_set
    assert {"parent_id", "prev_id", "next_id"} <= chunks[1].model_fields_set
    assert "next_id" not in chunks[-1].model_fields_set
    chunks[1].children.append("x")
    chunks[1].pages.append(9)
    assert chunks[2].children == [] and chunks[2].pages == []


def _per_chunk_paragraphs(text: str, start: int, end: int) -> int:
    """What a chunk counted before the whole-text pass: paragraph starts searched on its span."""
    return sum(1 for m in statute._PARAGRAPH_START.finditer(text, start, min(len(text), end + 16)) if m.start() < end)


def test_the_whole_text_pass_counts_every_span_as_a_search_on_it_would():
    doc = text_document(LAW, "<law>")
    outline = build_outline(doc, load_rules()["statute"])
    read = statute._read(outline)
    # A chunk's span starts at a line's end (its article's first line) or at a character, and
    # ends after one.
    text = read.text
    line_ends = [i for i, ch in enumerate(text) if ch == "\n" and i and text[i - 1] != "\n"]
    chars = [i for i, ch in enumerate(text) if not ch.isspace()]
    for a in line_ends + chars:
        for b in (c + 1 for c in chars):
            if a < b:
                assert read.paragraph_starts(a, b) == _per_chunk_paragraphs(read.text, a, b), (a, b)


def test_articles_count_their_paragraphs_and_cite_only_where_an_article_is_named():
    chunks = domainchunk.chunk_text(LAW, doc_type="statute").chunks
    by_article = {c.metadata.get("article"): c.metadata for c in chunks}
    assert by_article[1]["paragraphs"] == [1, 2] and "citations" not in by_article[1]
    assert by_article[2]["paragraphs"] == [1, 2]  # the items （一）（二） open no 款
    assert [c["article"] for c in by_article[2]["citations"]] == [1, 2]
    assert "citations" not in by_article[3]


def test_header_fields_tried_where_a_label_begins_match_the_pattern_searched_everywhere():
    from domainchunk.chunkers import medical

    rules = load_rules()["medical_record"]
    texts = ["姓名：张三  性别：男  年龄：46岁  科室：心内科  床号：12",
             "性别：男年龄：46岁病床号：3床号：7",  # glued values; a label inside a longer word
             "入院科室：外科\n科 室 ：内科\n住院号：Z2\n406112\n门诊号：",
             "性别性别：女　年龄：：30　年龄：30"]
    for text in texts:
        expected = [m.span() for m in medical._header_regex(rules).finditer(text)]
        assert expected and [m.span() for m in medical._header_matches(rules, text)] == expected, text
