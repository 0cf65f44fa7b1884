"""Statutes end to end: structure, metadata, splitting. Scores against gold files are in test_corpora.py."""
from __future__ import annotations

from pathlib import Path

import pytest

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
    assert c.context_text.startswith("第一章 总则 > 第一条\n")
    assert c.context_text.endswith(c.text)


def test_law_without_articles_uses_top_items():
    result = domainchunk.chunk(ROOT / "corpora" / "statute_示范通知.txt")
    assert result.detection.doc_type == "statute"
    assert [c.path for c in result.chunks[1:]] == [["一、补贴标准的计算"], ["二、发放方式"], ["三、"]]


def test_jsonl_record_schema(sample):
    rec = sample.chunks[1].to_record()
    assert {"source", "index", "text", "start", "end", "path", "kind", "doc_type", "pages", "rule", "metadata"} <= rec.keys()
