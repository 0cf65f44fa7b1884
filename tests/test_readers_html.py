"""Web pages and MIME HTML archives read as a browser lays them out, chunked as their text twins."""
from __future__ import annotations

from email.message import EmailMessage

from domainchunk import pipeline

_PAGE = """<!DOCTYPE html>
<html><head><meta charset="{charset}"><title>页面标题不是正文</title><style>p {{ text-indent: 2em }}</style>
<script>var x = "第九条 不是条文";</script></head>
<body>
<h1>示范市物业管理条例</h1>
<p>（2024年3月1日示范市人民代表大会常务委员会通过）</p>
<h2>第一章　总则</h2>
<p>第一条　为了规范物业管理活动，维护业主和物业服务人的合法权益，
根据有关法律、行政法规，结合本市实际，制定本条例。</p>
<p>第二条　本市行政区域内的物业管理活动，适用本条例。</p>
<h2>第二章　业主大会</h2>
<p>第三条　业主大会由物业管理区域内全体业主组成。<br>业主大会应当代表和维护全体业主的合法权益。</p>
<table><tr><th>事项</th><th>表决比例</th></tr><tr><td>制定管理规约</td><td>过半数</td></tr></table>
<p>第四条　业主大会会议分为定期会议和临时会议。</p>
</body></html>
"""
_TWIN = """示范市物业管理条例

（2024年3月1日示范市人民代表大会常务委员会通过）

## 第一章 总则

第一条 为了规范物业管理活动，维护业主和物业服务人的合法权益，根据有关法律、行政法规，结合本市实际，制定本条例。

第二条 本市行政区域内的物业管理活动，适用本条例。

## 第二章 业主大会

第三条 业主大会由物业管理区域内全体业主组成。
业主大会应当代表和维护全体业主的合法权益。
事项\t表决比例
制定管理规约\t过半数

第四条 业主大会会议分为定期会议和临时会议。
"""


def _shape(result) -> list[tuple[list[str], str, str]]:
    return [(c.path, c.rule, c.text.replace("\n", "").replace(" ", "")) for c in result.chunks]


def test_a_saved_law_page_chunks_as_its_text(tmp_path):
    page = tmp_path / "条例.html"
    page.write_text(_PAGE.format(charset="utf-8"), encoding="utf-8")
    result = pipeline.chunk(page, max_chars=1000)
    assert result.document.metadata["format"] == "html"
    assert result.detection.doc_type == "statute"
    assert _shape(result) == _shape(pipeline.chunk(_TWIN, max_chars=1000))
    assert "页面标题" not in result.document.text and "var x" not in result.document.text
    assert result.chunks[1].metadata["law"] == "示范市物业管理条例"


def test_a_gbk_page_and_a_mime_html_archive_read_the_same(tmp_path):
    want = _shape(pipeline.chunk(_TWIN, max_chars=1000))
    gbk = tmp_path / "条例.htm"
    gbk.write_bytes(_PAGE.format(charset="gbk").encode("gbk"))
    assert _shape(pipeline.chunk(gbk, max_chars=1000)) == want
    undeclared = tmp_path / "条例2.htm"  # a Chinese system's page that declares no charset
    undeclared.write_bytes(_PAGE.replace('<meta charset="{charset}">', "").format().encode("gb18030"))
    assert _shape(pipeline.chunk(undeclared, max_chars=1000)) == want
    archive = EmailMessage()
    archive["Subject"] = "saved page"
    archive.set_content(_PAGE.format(charset="utf-8"), subtype="html", charset="utf-8")
    mht = tmp_path / "条例.mht"
    mht.write_bytes(b"From: <Saved by a browser>\n" + archive.as_bytes())
    assert _shape(pipeline.chunk(mht, max_chars=1000)) == want
