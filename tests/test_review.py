"""The review page in a real headless browser: every chunk marked, a click shows its rule, no network."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import domainchunk
from conftest import CORPUS, ROOT
from domainchunk.review import PAGE_SIZE, review_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# CI installs Debian's chromium (.ci/run); there the browser tests must run, never skip.
if CHROMIUM is None and os.environ.get("CI"):
    raise RuntimeError("CI must install Debian's chromium for the review page tests (see .ci/run)")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
SHOTS = ROOT / "test-output"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _open(browser, path: Path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_selector(".chunk")
    return page, requests


def _marked(page) -> int:
    """Chunks marked on every page of the current document, paging through as a reader would."""
    total = page.evaluate("window.domainchunkReview.pages()")
    count = 0
    for k in range(total):
        page.evaluate(f"window.domainchunkReview.setPage({k})")
        count += page.locator(".chunk").count()
    return count


def _sample() -> Path:
    real = CORPUS / "docs" / "statute_劳动合同法.pdf"
    return real if real.exists() else ROOT / "corpora" / "office" / "statute_示例省电梯安全管理条例.pdf"


@needs_browser
def test_review_page_marks_every_chunk_and_shows_a_clicked_chunks_rule(browser, tmp_path: Path) -> None:
    source = _sample()
    jsonl, html = tmp_path / "out.jsonl", tmp_path / "review.html"
    run = lambda *a: subprocess.run([sys.executable, "-m", "domainchunk", *a], capture_output=True, text=True)  # noqa: E731
    assert run("chunk", str(source), "-o", str(jsonl), "--max-chars", "500").returncode == 0
    assert run("view", str(source), "-o", str(html), "--max-chars", "500").returncode == 0
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert "http://" not in html.read_text(encoding="utf-8") and "https://" not in html.read_text(encoding="utf-8")

    page, requests = _open(browser, html)
    assert int(page.locator("#summary").get_attribute("data-chunks")) == len(records)
    assert _marked(page) == len(records)
    page.evaluate("window.domainchunkReview.setPage(0)")
    target = page.locator(".chunk").nth(3)
    target.click()
    assert page.locator("#detail-rule").inner_text() == records[3]["rule"]
    assert page.locator(".chunk.selected").get_attribute("data-index") == "3"
    assert page.locator("#detection").inner_text().startswith(records[0]["doc_type"])
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / "review_page.png"
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 10_000
    assert all(u.startswith("file://") for u in requests), requests  # self-contained: no network


@needs_browser
def test_review_page_stays_paged_on_a_two_thousand_article_code(browser, tmp_path: Path) -> None:
    body = "示范法典\n\n" + "\n".join(
        (f"第{k // 50 + 1}章 示范章\n" if k % 50 == 0 else "") + f"第{k + 1}条 本条规定示范事项第{k + 1}项。" for k in range(2000))
    result = domainchunk.chunk_text(body)
    assert len(result.chunks) >= 2000
    html = tmp_path / "code.html"
    html.write_text(review_html([result]), encoding="utf-8")
    page, _ = _open(browser, html)
    assert page.locator(".chunk").count() == PAGE_SIZE  # one page drawn, not 2,000 articles
    page.locator("#tree li > span:nth-child(2)").nth(39).click()  # jump to the 40th chapter
    first = page.locator(".chunk").first.get_attribute("data-index")
    assert page.locator(".chunk.selected").count() == 1
    assert "第40章" in page.locator(".chunk.selected").inner_text()
    assert int(first) > 0


def test_review_html_escapes_document_text() -> None:
    result = domainchunk.chunk_text("第一条 </script><script>alert(1)</script>")
    html = review_html([result])
    assert "</script><script>alert(1)" not in html
    assert html.count("<script") == 2  # the data and the page script, nothing from the text

