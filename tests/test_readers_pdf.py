"""PDF reader: furniture, soft wraps, tables, columns, TOC, errors — on our generated PDFs and the shared statute."""
from __future__ import annotations

import io
import json
import re
import unicodedata
from pathlib import Path

import pytest

from domainchunk.errors import ReadError
from domainchunk.readers import read_document
from domainchunk.readers.pdf import read_pdf

OFFICE = Path(__file__).parents[1] / "corpora" / "office"
SHARED_DOCS = Path(__file__).parents[2] / "shared" / "corpus" / "docs"
SHARED_GOLD = Path(__file__).parents[2] / "shared" / "corpus" / "gold"
REGULATION = OFFICE / "regulation_示例市公共数据开放管理办法.pdf"
LAB = OFFICE / "lab_示例血常规肝功能.pdf"
TWO_COLUMN = OFFICE / "two_column_示例社区居民公约.pdf"
ELEVATOR = OFFICE / "statute_示例省电梯安全管理条例.pdf"
ARTICLE_START = re.compile(r"^第[一二三四五六七八九十百零]+条")


@pytest.fixture(scope="module")
def regulation():
    return read_document(REGULATION)


@pytest.fixture(scope="module")
def lab():
    return read_document(LAB)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _block_at(doc, needle: str):
    offset = doc.text.index(needle)
    return next(b for b in doc.blocks if b.kind != "page_break" and b.start <= offset < b.end)


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _gold_anchors_start_lines(doc, gold_file: Path) -> list[str]:
    """Gold anchors (whitespace-free) that do not begin at a line start of ``doc.text``."""
    line_starts = {0} | {m.end() for m in re.finditer("\n", doc.text)}
    squeezed, positions = [], []
    for offset, char in enumerate(doc.text):
        for c in unicodedata.normalize("NFKC", char):
            if not c.isspace():
                squeezed.append(c)
                positions.append(offset)
    flat = "".join(squeezed)
    missing, cursor = [], 0
    for unit in json.loads(gold_file.read_text(encoding="utf-8"))["units"]:
        found = flat.find(_norm(unit["anchor"]), cursor)
        if found < 0 or positions[found] not in line_starts:
            missing.append(unit["anchor"])
        else:
            cursor = found + 1
    return missing


# ---------------------------------------------------------------- regulation: furniture, wraps, TOC


def test_offsets_are_exact(regulation):
    doc = regulation
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    assert all(a.end == b.start for a, b in zip(doc.pages, doc.pages[1:]))
    for block in doc.blocks:
        assert 0 <= block.start <= block.end <= len(doc.text)
        if block.kind != "page_break":
            assert "\n" not in doc.text[block.start : block.end] or block.kind == "table"


def test_page_numbers_and_running_header_removed(regulation):
    text = regulation.text
    assert "—" not in text, "footer page numbers like — 2 — must not be in the text"
    assert not any(re.fullmatch(r"[\d\s—-]+", line) for line in _lines(text))
    # the running header survives once, as the first line of page 1 (it names the document)
    assert text.count("示例市公共数据开放管理办法（试行）") <= 1
    assert not any("（试行）" in line for line in _lines(text)[1:])


def test_soft_wraps_joined_and_cross_reference_not_a_line_start(regulation):
    lines = _lines(regulation.text)
    assert not any(line.startswith("第十条规定的") for line in lines)
    articles = [line for line in lines if ARTICLE_START.match(line)]
    assert [re.match(r"第.+?条", a).group() for a in articles][:3] == ["第一条", "第二条", "第三条"]
    assert len(articles) == 15
    article12 = next(a for a in articles if a.startswith("第十二条"))
    assert "违反本办法第十条规定的数据利用协议约定" in article12
    assert article12.endswith("并记入信用档案。")


def test_article_wrapped_over_a_page_break_is_one_line(regulation):
    doc = regulation
    mid_line = [p for p in doc.pages[1:] if doc.text[p.start - 1] != "\n"]
    assert mid_line, "the generated regulation has a sentence running onto the next page"
    page = mid_line[0]
    line = next(l for l in _lines(doc.text) if doc.text.index(l) < page.start < doc.text.index(l) + len(l))
    assert ARTICLE_START.match(line) or line.startswith("（")
    assert doc.pages_of(doc.text.index(line), doc.text.index(line) + len(line)) == [page.number - 1, page.number]


def test_block_pages(regulation):
    assert _block_at(regulation, "第一条").page == 1
    assert _block_at(regulation, "第十五条").page == regulation.pages[-1].number
    breaks = [b for b in regulation.blocks if b.kind == "page_break"]
    assert [b.page for b in breaks] == [p.number for p in regulation.pages[1:]]


def test_toc_marked_and_body_headings_not(regulation):
    toc = [regulation.text[b.start : b.end] for b in regulation.blocks if b.style == "toc"]
    assert toc[0] == "目 录" and len(toc) == 6
    assert all(t.startswith("第") and t.rstrip().endswith(str(i)) for i, t in enumerate(toc[1:], start=1))
    chapter = [b for b in regulation.blocks if regulation.text[b.start : b.end] == "第一章 总则"]
    assert len(chapter) == 1 and chapter[0].kind == "heading" and chapter[0].style is None


def test_gold_anchors_start_lines():
    for name in (REGULATION, TWO_COLUMN, ELEVATOR):
        doc = read_document(name)
        assert _gold_anchors_start_lines(doc, name.with_name(name.name + ".gold.json")) == []


# ---------------------------------------------------------------- lab report: tables


def test_tables_are_tab_separated_rows(lab):
    tables = [b for b in lab.blocks if b.kind == "table"]
    assert len(tables) == 3
    for table in tables:
        assert lab.text[table.start : table.end] == "\n".join(lab.text[r.start : r.end] for r in table.rows)
        for row in table.rows:
            assert lab.text[row.start : row.end] == "\t".join(c.text for c in row.cells)
            assert all(lab.text[c.start : c.end] == c.text for c in row.cells)
    assert lab.text[tables[0].rows[1].start : tables[0].rows[1].end] == "白细胞计数\t6.8\t10^9/L\t3.5-9.5"


def test_table_continued_on_next_page_drops_repeated_header(lab):
    first, continued, liver = [b for b in lab.blocks if b.kind == "table"]
    assert first.rows[0].is_header and [c.text for c in first.rows[0].cells] == ["项目", "结果", "单位", "参考区间"]
    assert (first.page, continued.page, liver.page) == (1, 2, 2)
    assert continued.style == "continued"
    assert continued.rows[0].cells[0].text == "嗜酸性粒细胞百分比"
    assert not any(r.is_header for r in continued.rows)
    assert lab.text.count("项目\t结果\t单位\t参考区间") == 2  # 血常规 once (not repeated) and 肝功能


def test_table_cells_do_not_leak_into_running_text(lab):
    tables = [b for b in lab.blocks if b.kind == "table"]
    for block in lab.blocks:
        if block.kind in ("paragraph", "heading"):
            text = lab.text[block.start : block.end]
            assert "白细胞" not in text and "参考区间" not in text
    assert lab.text.count("白细胞计数") == 1
    assert sum(len(t.rows) for t in tables) == 1 + 20 + 1 + 6


def test_letterhead_kept_once_and_page_footer_removed(lab):
    assert lab.text.startswith("示例第一人民医院检验报告单\n")
    assert lab.text.count("示例第一人民医院检验报告单") == 1
    assert not re.search(r"第\s*\d+\s*页", lab.text)
    assert _block_at(lab, "肝功能").kind == "heading"


# ---------------------------------------------------------------- WPS-style export: TOC page, body-size centred chapters


@pytest.fixture(scope="module")
def elevator():
    return read_document(ELEVATOR)


def test_toc_page_without_page_numbers_is_marked(elevator):
    toc = [elevator.text[b.start : b.end] for b in elevator.blocks if b.style == "toc"]
    assert toc[0] == "目 录" and toc[1:] == ["第一章 总 则", "第二章 使用管理", "第三章 维护保养", "第四章 法律责任", "第五章 附 则"]
    body = [b for b in elevator.blocks if elevator.text[b.start : b.end] == "第一章 总 则" and b.style is None]
    assert len(body) == 1 and body[0].page == 2


def test_body_size_centred_chapters_are_lines_of_their_own(elevator):
    lines = _lines(elevator.text)
    chapters = [l for l in lines if re.match(r"第.章 ", l)]
    assert chapters == ["第一章 总 则", "第二章 使用管理", "第三章 维护保养", "第四章 法律责任", "第五章 附 则"] * 2
    assert all(not re.search(r"第.章", l[1:]) for l in lines if ARTICLE_START.match(l))


def test_dash_footers_removed_and_wrapped_references_joined(elevator):
    assert not re.search(r"(?m)^- ?\d+ ?-$", elevator.text)
    lines = _lines(elevator.text)
    assert not any(l.startswith(("第十条规定的", "第二十条第一款")) for l in lines)
    assert any("本条例第十条规定的程序" in l and "第二十条第一款规定" in l for l in lines)
    labels = [re.match(r"第.+?条", l).group() for l in lines if ARTICLE_START.match(l)]
    assert len(labels) == 23 and len(set(labels)) == 23


def test_hanging_punctuation_keeps_a_line_in_its_column():
    """Word and WPS let 。， hang past the margin: such a line still belongs to the left column."""
    from domainchunk.readers.pdf import Line, _side

    gutter = (280.0, 311.0)
    assert _side(Line("理登记，", 70, 290, 0, 10, 10, 1), gutter) == -1
    assert _side(Line("第五条", 312, 521, 0, 10, 10, 1), gutter) == 1
    assert _side(Line("示例社区居民公约", 226, 370, 0, 10, 10, 1), gutter) == 0


# ---------------------------------------------------------------- two columns


def test_two_columns_read_left_then_right():
    doc = read_document(TWO_COLUMN)
    labels = [re.match(r"第.+?条", l).group() for l in _lines(doc.text) if ARTICLE_START.match(l)]
    assert labels == [f"第{n}条" for n in "一二三四五六七八"]
    assert _lines(doc.text)[0] == "示例社区居民公约"


# ---------------------------------------------------------------- errors


def _pdf(draw, **canvas_args) -> bytes:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, **canvas_args)
    draw(c)
    c.showPage()
    c.save()
    return buffer.getvalue()


def _text(c) -> None:
    c.setFont("STSong-Light", 12)
    c.drawString(72, 720, "第一条 为了测试，制定本办法。")


def test_encrypted_pdf():
    data = _pdf(_text, encrypt="secret")
    with pytest.raises(ReadError, match="encrypted.*password"):
        read_pdf(data, "locked.pdf")


def test_scanned_pdf_without_text_layer():
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    image = Image.new("RGB", (200, 100), "white")
    data = _pdf(lambda c: c.drawImage(ImageReader(image), 72, 600, 200, 100))
    with pytest.raises(ReadError, match="scanned.*OCR"):
        read_pdf(data, "scan.pdf")


@pytest.mark.parametrize("cut", [0.5, 0.9])
def test_truncated_pdf(cut):
    data = _pdf(_text)
    with pytest.raises(ReadError, match="truncated|corrupt"):
        read_pdf(data[: int(len(data) * cut)], "cut.pdf")


def test_garbage_after_pdf_magic():
    with pytest.raises(ReadError, match="corrupt"):
        read_document("x.pdf", b"%PDF-1.7\n" + b"\x00garbage" * 50 + b"\n%%EOF\n")


def test_small_pdf_reads():
    doc = read_pdf(_pdf(_text), "one.pdf")
    assert doc.text == "第一条 为了测试，制定本办法。"
    assert doc.pages[0].number == 1 and doc.blocks[0].page == 1


# ---------------------------------------------------------------- the shared real statute


@pytest.fixture(scope="module")
def statute():
    path = SHARED_DOCS / "statute_劳动合同法.pdf"
    if not path.exists():
        pytest.skip("shared corpus not present")
    return read_document(path)


def test_real_statute_every_article_starts_a_line(statute):
    gold = SHARED_GOLD / "statute_劳动合同法.pdf.gold.json"
    assert _gold_anchors_start_lines(statute, gold) == []
    articles = [l for l in _lines(statute.text) if ARTICLE_START.match(l)]
    assert len(articles) == len(json.loads(gold.read_text(encoding="utf-8"))["units"])


def test_real_statute_furniture_and_toc(statute):
    assert not re.search(r"—\s*\d+\s*—", statute.text)
    toc = [statute.text[b.start : b.end] for b in statute.blocks if b.style == "toc"]
    assert toc[0].replace(" ", "") == "目录" and "第八章 附则" in toc
    body = [b for b in statute.blocks if statute.text[b.start : b.end] == "第八章 附则" and b.style != "toc"]
    assert len(body) == 1
    assert statute.pages[-1].number == 27


# ---------------------------------------------------------------- wraps and bands in a PDF made here


def _pdf_with_lines(pages: list[list[tuple[float, str]]]) -> bytes:
    """A PDF whose pages hold lines drawn at (y from the top, text), in STSong-Light 11 pt."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    for lines in pages:
        c.setFont("STSong-Light", 11)
        for y, text in lines:
            c.drawString(60, 842 - y, text)
        c.showPage()
    c.save()
    return out.getvalue()


FULL = "示范条文的内容在这里写满一整行以便阅读器判断这一行到达右边界为止好的"  # 36 characters


def test_sentence_ending_inside_a_bracket_is_not_a_soft_wrap():
    lines = [(100 + 16 * i, FULL) for i in range(6)]
    lines += [(196, FULL[:34] + "。）"), (212, "第二条 示范条文从新的一行开始。")]
    doc = read_pdf(_pdf_with_lines([lines]), "wrap.pdf")
    assert "\n第二条 示范条文" in doc.text


def test_body_line_in_the_band_at_different_heights_is_kept():
    # 时间：… lines fall in the top band of several pages, each at another height: body text, not a header.
    pages = [[(40 + 12 * n, f"时间：2019-01-0{n} 08:00"), (150, FULL), (166, FULL), (182, "示范正文。")] for n in (1, 2, 3, 4)]
    doc = read_pdf(_pdf_with_lines(pages), "band.pdf")
    assert all(f"时间：2019-01-0{n}" in doc.text for n in (1, 2, 3, 4))


def test_a_browser_running_header_lower_on_page_one_and_its_footer_under_the_last_page_are_furniture():
    # A web page's running header and footer (a table's <thead> and <tfoot>): on page 1 the header
    # sits lower by the body's margin, on the last page the footer comes under the last line, mid-page.
    header, footer = "示范县人民法院民事判决书", "本文书由审判管理系统打印仅供当事人查阅"
    body = [(150 + 16 * i, FULL) for i in range(30)]
    pages = [[(46, header), *body, (812, footer)], [(40, header), *body[:10], (330, footer)]]
    doc = read_pdf(_pdf_with_lines(pages), "running.pdf")
    assert doc.text.count(header) == 1 and footer not in doc.text  # the header kept once, on page 1, as a title
    assert doc.text.count(FULL) == 40


def _pdf_with_cells(rows: list[tuple[float, list[tuple[float, str]]]]) -> bytes:
    """A one-page PDF whose rows are drawn cell by cell at (y from the top, [(x, text)]): a table without rules."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    c.setFont("STSong-Light", 10.5)
    for y, cells in rows:
        for x, text in cells:
            c.drawString(x, 842 - y, text)
    c.showPage()
    c.save()
    return out.getvalue()


def test_a_table_without_rules_reads_its_columns_tab_separated_and_its_rows_unjoined():
    # Cells at fixed x (a LIS's print without rules): a value running close to the next column
    # (a long result beside its flag) still ends its cell; a space inside a cell (mg/L FEU) stays.
    columns = (60, 200, 290, 340, 400, 480)
    items = [("白细胞计数", "WBC", "14.6", "↑", "10^9/L", "3.5-9.5"), ("D-二聚体", "D-D", "1.84", "↑", "mg/L FEU", "<0.5"),
             ("颜色", "", "黄色", "", "", ""), ("纤维蛋白原降解产物", "FDP", "<2.5", "", "μg/mL", "<5.0"),
             ("国际标准化比值", "INR", "1.21", "↑", "", "0.8-1.2")]
    rows = [(100, [(60, "凝血功能（枸橼酸钠抗凝血浆）")])]
    rows += [(120 + 16 * i, [(x, v) for x, v in zip(columns, item) if v]) for i, item in enumerate(items)]
    rows.append((230, [(60, "备注：本报告中 mg/L FEU 为纤维蛋白原当量单位，请结合临床。")]))
    lines = _lines(read_pdf(_pdf_with_cells(rows), "rows.pdf").text)
    assert lines[1:6] == ["\t".join(v for v in item if v) for item in items]
    assert lines[-1] == "备注：本报告中 mg/L FEU 为纤维蛋白原当量单位，请结合临床。"  # prose: its spaces stay


def test_longest_line_of_a_page_of_rows_is_not_a_soft_wrap():
    # A printed lab report: a key：value header line longer than every row, a panel name under
    # it, rows ending wherever their last value ends. No margin is shown, so nothing is joined.
    rows = ["白细胞计数 WBC 6.1 10^9/L 3.5-9.5", "红细胞计数 RBC 4.52 10^12/L 3.8-5.1",
            "血红蛋白 HGB 135 g/L 115-150", "血小板计数 PLT 210 10^9/L 125-350",
            "丙氨酸氨基转移酶 ALT 62 ↑ U/L 7-40", "总胆红素 TBIL 14.6 μmol/L 0-21"]
    header = "姓名：示例甲  性别：女  年龄：45岁  科室：内分泌科  门诊号：MZ0001"
    lines = [(100, "示范医院检验报告单"), (117, header), (134, "血常规")]
    lines += [(151 + 17 * i, row) for i, row in enumerate(rows)]
    doc = read_pdf(_pdf_with_lines([lines]), "rows.pdf")
    assert _lines(doc.text)[1:4] == [re.sub(" +", " ", header), "血常规", rows[0]]
    assert len(_lines(doc.text)) == len(lines)


def test_two_lines_ending_together_show_the_margin_of_a_short_document():
    # One wrapped paragraph among short lines: its two full lines end at one x, which is the
    # margin; the line that reaches it continues on the next.
    lines = [(100, "手术记录"), (117, "姓名：示例乙 性别：男"), (134, FULL), (151, FULL), (168, "示范正文到此为止。"),
             (185, "术者：示例丙"), (202, "助手：示例丁")]
    doc = read_pdf(_pdf_with_lines([lines]), "short.pdf")
    assert FULL + FULL + "示范正文到此为止。" in doc.text


def _ruled_pdf() -> bytes:
    """Two ruled tables in STSong-Light: one of rectangles with a merged header cell, one of
    lines drawn inside a form XObject placed with a translation (its own coordinates)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    c.setFont("STSong-Light", 11)
    c.drawString(60, 800, "示范检验报告")
    rows = [["项目", "结果", "单位"], ["白细胞计数", "6.1", "10^9/L"], ["血红蛋白", "135", "g/L"]]
    for r, row in enumerate(rows):
        y = 760 - 20 * r
        if r == 0:  # one rectangle over the first two columns: a merged cell
            c.rect(60, y - 5, 240, 20)
            c.rect(300, y - 5, 120, 20)
            c.drawString(64, y, "检验项目与结果")
            c.drawString(304, y, row[2])
            continue
        for k, cell in enumerate(row):
            c.rect(60 + 120 * k, y - 5, 120, 20)
            c.drawString(64 + 120 * k, y, cell)
    c.beginForm("grid")
    for k in range(4):
        c.line(0, 20 * k, 360, 20 * k)
    for k in range(4):
        c.line(120 * k, 0, 120 * k, 60)
    c.endForm()
    c.saveState()
    c.translate(60, 500)
    c.doForm("grid")
    c.restoreState()
    for r, row in enumerate([["谷丙转氨酶", "62", "U/L"], ["总胆红素", "14.6", "μmol/L"], ["白蛋白", "42.1", "g/L"]]):
        for k, cell in enumerate(row):
            c.drawString(64 + 120 * k, 545 - 20 * r, cell)
    c.showPage()
    c.save()
    return out.getvalue()


def test_ruled_tables_from_pdfium_paths_match_pdfplumber():
    import pdfplumber

    from domainchunk.readers.layout import clean_cell

    data = _ruled_pdf()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        expected = [[[clean_cell(cell) if cell is not None else None for cell in row] for row in table.extract()]
                    for table in pdf.pages[0].find_tables()]
    doc = read_pdf(data, "ruled.pdf")
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(expected) == len(tables) == 2
    for rows, block in zip(expected, tables):
        widened = [[cell for cell in row if cell is not None] for row in rows]
        assert [[cell.text for cell in row.cells] for row in block.rows] == widened
    assert tables[0].rows[0].cells[0].colspan == 2
    assert "谷丙转氨酶\t62\tU/L" in doc.text and "示范检验报告" in doc.text


def test_box_line_wrapped_at_the_margin_joins_without_a_space():
    # A box-drawn border longer than the text width wraps its last corner onto the next line;
    # box drawing is set full-width like the ideographs, so the wrap joins without a space.
    border = "┌" + "─" * 16 + "┬" + "─" * 16  # as wide as FULL
    lines = [(100 + 16 * i, FULL) for i in range(6)] + [(196, "示范条文到此为止。"), (212, border), (228, "┐")]
    doc = read_pdf(_pdf_with_lines([lines]), "box.pdf")
    assert border + "┐" in _lines(doc.text)


def test_short_last_page_claims_no_margin_a_longer_line_passes():
    # The last page holds a few short lines, three of which end together (signatures set side by
    # side) left of a longer line: that is no margin, so the longer line does not wrap into the next.
    page1 = [(100 + 16 * i, FULL) for i in range(8)] + [(228, "示范条文到此为止。")]
    signs = ["示范甲方（签字）：示范乙方（盖章）：", "示范丙方（签字）：示范丁方（盖章）：", "示范戊方（签字）：示范己方（盖章）："]
    page2 = [(100, "示范条文的内容写满了"), (116, "示范条文的内容又写满"), *[(132 + 16 * i, sign) for i, sign in enumerate(signs)],
             (180, "签订日期：＿＿年＿＿月＿＿日 签订日期：＿＿年＿＿月＿＿日"), (196, "附件：")]
    doc = read_pdf(_pdf_with_lines([page1, page2]), "short-last-page.pdf")
    assert "附件：" in _lines(doc.text)


def test_page_of_rows_of_one_length_is_not_a_margin():
    # A page of rows that all end near one x well inside the document's margin: the rows do not
    # wrap, so a bracketed heading under them stays a line of its own.
    row = "示范时间:2019-01-07 示范类型:示范诊断 示范名称:示范诊断名称"
    page1 = [(100 + 16 * i, FULL) for i in range(8)] + [(228, "示范条文到此为止。")]
    page2 = [(100 + 16 * i, row) for i in range(8)] + [(228, "【示范医嘱】"), (244, "示范时间:2019-01-07")]
    doc = read_pdf(_pdf_with_lines([page1, page2]), "rows-page.pdf")
    assert "【示范医嘱】" in _lines(doc.text)


def test_line_that_is_one_bracketed_note_is_not_a_soft_wrap():
    # A statute's adoption note fills the line to the margin and ends in ）: the chapter heading
    # under it is a line of its own.
    note = "（" + FULL[:34] + "）"
    lines = [(100, "示范条例"), (116, note), (132, "第一章 总 则")] + [(148 + 16 * i, FULL) for i in range(6)]
    doc = read_pdf(_pdf_with_lines([lines]), "note.pdf")
    assert _lines(doc.text)[1:3] == [note, "第一章 总 则"]


def _random_glyphs(rng) -> list[tuple[str, float, float, float, float]]:
    """Chars of a few lines of a cell: tops jittered across the line tolerance, gaps around the
    word tolerance, some steps back, spaces and a ligature; sometimes out of content order."""
    pool = "示范检验结果单位ab1.%- ﬁ"
    glyphs = []
    for line in range(rng.randint(1, 4)):
        x, top = rng.uniform(0, 20), 12.0 * line + rng.choice([0.0, 0.5, 2.9, 3.1])
        for _ in range(rng.randint(0, 8)):
            width = rng.choice([5.5, 11.0])
            char_top = top + rng.choice([0.0, 0.0, 1.5, 3.2, -3.2])
            glyphs.append((rng.choice(pool), x, char_top, x + width, char_top + 11.0))
            x += width + rng.choice([0.0, 0.0, 1.0, 2.9, 3.1, 6.0, -8.0])
    if rng.random() < 0.3:
        rng.shuffle(glyphs)
    return glyphs


def test_cell_text_is_pdfplumbers_extract_text():
    import random

    from pdfplumber.utils import extract_text

    from domainchunk.readers.pdf import _cell_text

    rng = random.Random(13)
    texts = set()
    for _ in range(3000):
        glyphs = _random_glyphs(rng)
        chars = [{"text": t, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "doctop": top, "upright": True,
                  "width": x1 - x0, "height": bottom - top} for t, x0, top, x1, bottom in glyphs]
        expected = extract_text(chars)
        assert _cell_text(glyphs) == expected, glyphs
        texts.add(expected)
    assert any("\n" in t for t in texts) and any(" " in t for t in texts) and any("fi" in t for t in texts)


def _random_rulings(rng) -> list[dict]:
    """Edges of a ruled grid as a page draws them: lines jittered within the snap tolerance,
    some missing or cut short (merged cells, open sides), rectangles drawn over lines."""
    from domainchunk.readers.pdf import _edge

    xs = sorted(rng.sample(range(0, 400, 20), rng.randint(2, 6)))
    ys = sorted(rng.sample(range(0, 300, 15), rng.randint(2, 6)))
    edges = []
    for y in ys:
        for a, b in zip(xs, xs[1:]):
            if rng.random() < 0.85:
                jitter = rng.choice([0.0, 0.0, 0.4, 2.5, -1.0])
                edges.append(_edge("line", a - rng.choice([0, 0, 2]), y + jitter, b + rng.choice([0, 0, 2, -5]), y + jitter, "h"))
    for x in xs:
        for a, b in zip(ys, ys[1:]):
            if rng.random() < 0.85:
                jitter = rng.choice([0.0, 0.0, 0.4, 2.5, -1.0])
                edges.append(_edge("line", x + jitter, a, x + jitter, b + rng.choice([0, 0, 3, -4]), "v"))
    for _ in range(rng.randint(0, 2)):  # a rectangle over a span of the grid
        x0, x1 = sorted(rng.sample(xs, 2))
        y0, y1 = sorted(rng.sample(ys, 2))
        edges += [_edge("rect_edge", x0, y0, x1, y0, "h"), _edge("rect_edge", x1, y0, x1, y1, "v"),
                  _edge("rect_edge", x0, y1, x1, y1, "h"), _edge("rect_edge", x0, y0, x0, y1, "v")]
    return edges


def test_grid_cells_are_pdfplumbers_intersections_to_cells():
    import random

    from pdfplumber import table as plumber

    from domainchunk.readers.pdf import _grid_cells

    rng = random.Random(13)
    found = 0
    for _ in range(400):
        edges = plumber.merge_edges(_random_rulings(rng), 3, 3, 3, 3)
        intersections = plumber.edges_to_intersections(edges, 3, 3)
        expected = plumber.intersections_to_cells(intersections)
        assert _grid_cells(intersections) == expected
        found += len(expected)
    assert found > 1000


def test_line_ending_in_a_semicolon_at_the_margin_wraps_on_unless_an_item_follows():
    # A long sentence's clauses are parted by ；: at the margin one wraps into the next line. A
    # list item or a field under it ((二)…, 个人史：…) opens a line of its own.
    clause = FULL[:35] + "；"
    lines = [(100 + 16 * i, FULL[:35] + "。") for i in range(6)]
    lines += [(196, clause), (212, "对被告人示范乙依照上述规定判决如下："),
              (228, clause), (244, "（二）示范条文的第二项。"),
              (260, clause), (276, "个人史：生于原籍。")]
    doc = read_pdf(_pdf_with_lines([lines]), "clauses.pdf")
    text = _lines(doc.text)
    assert clause + "对被告人示范乙依照上述规定判决如下：" in text
    assert "（二）示范条文的第二项。" in text and "个人史：生于原籍。" in text


def _pdf_with_sized_lines(lines: list[tuple[float, float, str]], centred: bool = False) -> bytes:
    """One page of lines drawn at (y from the top, font size, text), in STSong-Light, from x = 60
    or ``centred`` on the page."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    for y, size, text in lines:
        c.setFont("STSong-Light", size)
        if centred:
            c.drawCentredString(595 / 2, 842 - y, text)
        else:
            c.drawString(60, 842 - y, text)
    c.showPage()
    c.save()
    return out.getvalue()


def test_title_past_the_margin_neither_hides_it_nor_wraps_into_the_next_line():
    # A long title set at 14 pt on one line runs past the body's margin: the body's own lines
    # still show where they wrap, and the title does not flow into the heading under it.
    title = "示范人民法院关于审理示范纠纷案件适用法律若干问题的解释及其示范附录说明"  # 36 characters at 14 pt
    body = [(150 + 16 * i, 11, FULL[:35] + ("，" if i % 2 == 0 else "。")) for i in range(6)]
    doc = read_pdf(_pdf_with_sized_lines([(100, 14, title), (124, 14, "一、一般规定"), *body]), "title.pdf")
    lines = _lines(doc.text)
    assert lines[:2] == [title, "一、一般规定"]
    assert lines[2] == FULL[:35] + "，" + FULL[:35] + "。"


# ---------------------------------------------------------------- a word processor's export (relayout.to_pdf_word)


def test_word_headings_take_their_depth_from_size_then_centring():
    from relayout import to_pdf_word

    text = "# 示范条例\n\n## 第一章 总则\n\n### 第一节 一般规定\n\n#### 一、适用范围\n\n第一条 为了规范管理，制定本条例。\n"
    doc = read_pdf(to_pdf_word(text), "word.pdf")
    headings = [(doc.text[b.start : b.end], b.level) for b in doc.blocks if b.kind == "heading"]
    # 18 pt centred, body size centred, body size at the margin, smaller than the body: all bold
    assert headings == [("示范条例", 1), ("第一章 总则", 2), ("第一节 一般规定", 3), ("一、适用范围", 4)]
    assert _block_at(doc, "第一条").kind == "paragraph"


def test_bold_lead_in_and_bold_sentence_are_no_headings():
    runs = [(72, 720, "第一条", True), (110, 720, "为了测试，制定本办法。", False),  # a bold label, then plain text
            (72, 700, "示范条文的第二行，写到这里为止。", True), (72, 680, "第三行正文。", False),
            (72, 660, "第二章 附则", True)]

    def draw(c):
        for x, y, text, bold in runs:
            c.saveState()  # the render mode outlives a text object: each run sets its own
            t = c.beginText(x, y)
            t.setFont("STSong-Light", 12)
            if bold:  # filled and stroked, as Word emboldens a font without a bold face
                t.setTextRenderMode(2)
            t.textOut(text)
            c.drawText(t)
            c.restoreState()

    doc = read_pdf(_pdf(draw), "bold.pdf")
    assert [doc.text[b.start : b.end] for b in doc.blocks if b.kind == "heading"] == ["第二章 附则"]


def test_empty_paragraph_is_a_blank_line_and_line_pitch_is_none():
    from relayout import to_pdf_word

    text = "示范医院检验报告\n姓名：某甲　性别：男\n临床诊断：示范诊断\n\n血常规\n项目名称\t结果\t单位\n白细胞计数\t6.1\t10^9/L\n血红蛋白\t135\tg/L\n"
    doc = read_pdf(to_pdf_word(text), "gap.pdf")
    assert "性别：男\n临床诊断：示范诊断\n\n血常规\n项目名称\t结果\t单位\n" in doc.text


def test_letter_spacing_is_no_word_space():
    """A justified or spread-out line set glyph by glyph: pdfium takes wide gaps for spaces."""
    from reportlab.pdfbase import pdfmetrics

    def draw(c):
        c.setFont("STSong-Light", 12)
        for row, gap in enumerate((2.5, 5.0, 8.0)):
            x = 72.0
            for char in "第一条为了规范管理制定本条例":
                c.drawString(x, 720 - 20 * row, char)
                x += pdfmetrics.stringWidth(char, "STSong-Light", 12) + gap
        x = 72.0
        for word in ("姓名：某甲", "性别：男"):  # a real gap between fields, in a line set tight
            c.drawString(x, 660, word)
            x += pdfmetrics.stringWidth(word, "STSong-Light", 12) + 24

    lines = _lines(read_pdf(_pdf(draw), "spaced.pdf").text)
    assert lines == ["第一条为了规范管理制定本条例"] * 3 + ["姓名：某甲 性别：男"]


def test_running_header_repeating_the_title_and_page_x_of_y_footers_removed():
    from relayout import to_pdf_word

    body = "\n".join(f"第{n}条　" + "示范条文的内容在这里写满若干行以便分页，" * 4 + "到此为止。" for n in range(1, 40))
    doc = read_pdf(to_pdf_word("# 示范市绿化条例\n\n" + body), "pages.pdf")
    assert len(doc.pages) >= 3
    assert doc.text.startswith("示范市绿化条例\n") and doc.text.count("示范市绿化条例") == 1
    assert not re.search(r"第\s*\d+\s*页", doc.text)
    lines = _lines(doc.text)
    assert sum(1 for l in lines if re.match(r"第\d+条", l)) == 39  # wrapped and page-broken articles whole


def _indented_pdf(lines: list[tuple[float, str]]) -> bytes:
    """One page of 11 pt lines drawn at (x, text), one line pitch apart."""
    def draw(c):
        c.setFont("STSong-Light", 11)
        for i, (x, text) in enumerate(lines):
            c.drawString(x, 760 - 17 * i, text)

    return _pdf(draw, pagesize=(595, 842))


def test_first_line_indent_opens_a_paragraph_and_margin_lines_go_on():
    # 11 pt lines that reach the margin and end a sentence: 36 characters from the margin, 34
    # from the first-line indent two characters (22 pt) right of it.
    full, first = FULL[:35] + "。", FULL[:33] + "。"
    lines = [(82, first), (60, full), (60, FULL[:10] + "。"),  # a paragraph of three lines
             (82, FULL[:33] + "，"), (82, "另起一段，首行缩进两个字。"),  # a full line, then a new paragraph
             (82, first), (60, "一、列项从边界开始。")]  # an item of its own, at the margin
    doc = read_pdf(_indented_pdf(lines), "indent.pdf")
    assert _lines(doc.text) == [first + full + FULL[:10] + "。", FULL[:33] + "，", "另起一段，首行缩进两个字。",
                                first, "一、列项从边界开始。"]


def _ruled_rows(c, top: float, rows: list[list[str]], widths=(120.0, 120.0, 120.0)) -> None:
    """Rows of cells with every border drawn, from ``top`` down (reportlab's y), 20 pt each."""
    for r, row in enumerate(rows):
        y = top - 20 * (r + 1)
        x = 60.0
        for width, cell in zip(widths, row):
            c.rect(x, y, width, 20)
            c.drawString(x + 4, y + 6, cell)
            x += width


def test_header_row_left_at_a_page_foot_and_a_row_split_by_the_break_join_their_table():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    c.setFont("STSong-Light", 11)
    c.drawString(60, 780, "血常规")
    _ruled_rows(c, 120, [["项目名称", "结果", "单位"]])  # the header row alone at the foot of page 1
    c.showPage()
    c.setFont("STSong-Light", 11)
    _ruled_rows(c, 800, [["白细胞计数", "6.1", "10^9/L"], ["血红蛋白", "135", "g/L"], ["备注", "标本轻度", ""]])
    c.showPage()
    c.setFont("STSong-Light", 11)
    _ruled_rows(c, 800, [["", "溶血", ""], ["血小板计数", "210", "10^9/L"]])  # the rest of the 备注 row
    c.showPage()
    c.save()
    doc = read_pdf(out.getvalue(), "split.pdf")
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert [[cell.text for cell in row.cells] for table in tables for row in table.rows] == [
        ["项目名称", "结果", "单位"], ["白细胞计数", "6.1", "10^9/L"], ["血红蛋白", "135", "g/L"],
        ["备注", "标本轻度溶血", ""], ["血小板计数", "210", "10^9/L"]]
    assert tables[0].rows[0].is_header and [t.style for t in tables[1:]] == ["continued", "continued"]
    assert "项目名称\t结果\t单位" in doc.text and "\n项目名称 " not in doc.text


def test_one_ruled_row_in_the_middle_of_a_page_stays_text():
    def draw(c):
        c.setFont("STSong-Light", 11)
        _ruled_rows(c, 700, [["姓名：某甲", "性别：男", "年龄：40岁"]])
        c.drawString(60, 600, "以下为正文。")

    doc = read_pdf(_pdf(draw, pagesize=(595, 842)), "box.pdf")
    assert not [b for b in doc.blocks if b.kind == "table"]
    assert "姓名：某甲" in doc.text


def test_libreoffice_cjk_latin_autospacing_is_no_word_space():
    # Writer (like Word and WPS) widens the gap between a CJK char and a digit without a space
    # in the text; pdfium guesses one there, which broke 第 2.01 条 as a clause number.
    lines = _lines(read_document(OFFICE / "contract_示范建设工程施工合同_LibreOffice.pdf").text)
    assert "第2.01条 发包人义务" in lines
    assert not any(re.search(r"第 \d|\d 条|\d 年", line) for line in lines)


def test_first_column_cell_merged_down_captions_its_rows_as_in_docx():
    # A Writer table whose panel names are merged down the first column (vMerge, printed as one tall cell):
    # each name becomes a caption row above its items, as the DOCX reader reads the merge.
    lines = _lines(read_document(OFFICE / "lab_示范检验报告单_组合列合并_LibreOffice.pdf").text)
    for panel in ("血常规", "肝功能", "肾功能", "电解质"):
        at = lines.index(panel)
        assert lines[at + 1].startswith("\t") and lines[at + 1].split("\t")[1], lines[at : at + 2]


def test_line_short_by_a_digit_run_moved_down_whole_wraps_on():
    # Writer moves 18日 down whole when it does not fit: the line above ends short of the margin
    # by the run's width and is still a soft wrap, not a paragraph's end.
    text = read_document(OFFICE / "judgment_刑事二审判决书_改判量刑_LibreOffice.pdf").text
    assert "4月18日作出" in text.replace("\n", "|")


def test_line_short_by_a_char_and_the_cjk_latin_spacing_wraps_on():
    # …2024年8 / 月2日…: 月 and the spacing before it did not fit, a little more than one char.
    text = read_document(OFFICE / "judgment_刑事判决书_起诉书指控_经审理认定_LibreOffice.pdf").text
    assert "8月2日向本院提起公诉" in text.replace("\n", "|")


EMR_WORD_PDF = OFFICE / "emr_病历合集_标题样式软回车内容控件_Word_LibreOffice.pdf"


def test_a_line_of_digits_in_a_latin_font_is_sized_by_its_font_not_its_boxes():
    # Writer sets the digits and letters of a CJK text in a Latin font whose char boxes (ascent to
    # descent) are a third taller than the CJK font's at one size: measured by its boxes, a line of
    # dates and codes read as a heading set larger, and a short wrapped line (3级) as another.
    doc = read_document(EMR_WORD_PDF)
    headings = [doc.text[b.start : b.end] for b in doc.blocks if b.kind == "heading"]
    assert headings == ["入院记录", "首次病程记录", "日常病程记录", "出院记录"]
    assert "3.高血压病3级" in doc.text.replace("\n", "")
    assert "3.高血压病\n3级" not in doc.text.replace("3.高血压病3级", "")


def test_a_header_form_line_ends_where_the_next_line_opens_a_field():
    # 科室：… 床号：… 年龄：71岁 ends within a char of the margin; the line below opens 主诉：, a
    # field of its own, so the header line is no wrap into it.
    lines = _lines(read_document(EMR_WORD_PDF).text)
    assert any(line.startswith("主诉：") for line in lines)
    assert any(line.startswith("科室：") and line.endswith("71岁") for line in lines)


def _noted_pages(note: str, note_size: float = 9.0) -> bytes:
    """Two A4 pages of 12-point text, an article running from the first onto the second, and a
    line ``note`` at the first page's foot, under a short rule as Word sets its footnotes."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(595, 842))
    c.setFont("STSong-Light", 12)
    for i in range(1, 29):
        c.drawString(90, 800 - i * 24, f"第{chinese_numeral(i)}条　本条规定示范事项，有关单位应当遵守。")
    c.drawString(90, 800 - 29 * 24, "第二十九条　本条的前半句写在第一页的末行，")
    c.line(90, 80, 234, 80)
    c.setFont("STSong-Light", note_size)
    c.drawString(90, 66, note)
    c.showPage()
    c.setFont("STSong-Light", 12)
    c.drawString(90, 780, "后半句接续在第二页。")
    c.drawString(90, 756, "第三十条　本办法自发布之日起施行。")
    c.showPage()
    c.save()
    return buffer.getvalue()


def chinese_numeral(n: int) -> str:
    digits = "零一二三四五六七八九"
    return digits[n] if n < 10 else ("" if n < 20 else digits[n // 10]) + "十" + (digits[n % 10] if n % 10 else "")


def test_a_footnote_at_the_page_foot_is_set_aside():
    # Word sets a footnote in 小五 at the page's foot: a reader goes on from the page's last line to
    # the next page past it (the DOCX reader reads no footnotes either)
    text = read_pdf(_noted_pages("1本条所称示范事项，是指本办法附件所列事项。"), "noted.pdf").text
    assert "所列事项" not in text
    assert "第二十九条 本条的前半句写在第一页的末行，后半句接续在第二页。" in text.replace("\n", "")


def test_a_small_closing_line_that_is_no_note_stays():
    # a report's small-print remark at the foot opens with no note number: it is text of the page
    for line in ("注：本报告仅对所检标本负责。", "1.本报告仅对所检标本负责。"):
        assert "所检标本" in read_pdf(_noted_pages(line), "remark.pdf").text
    # nor is a line at the body's size a footnote
    assert "所列事项" in read_pdf(_noted_pages("1本条所称示范事项，是指本办法附件所列事项。", note_size=12.0), "big.pdf").text


def _grouped_rows(c, top: float, groups: list[tuple[str, list[list[str]]]], header: list[str] | None) -> None:
    """A ruled table whose first column's cell spans each group's rows (a panel's name merged down
    them), under ``header``; 20 pt a row, from ``top`` down (reportlab's y)."""
    widths = (90.0, 130.0, 70.0, 70.0)
    y = top
    if header:
        _ruled_rows(c, y, [header], widths)
        y -= 20
    for name, rows in groups:
        c.rect(60, y - 20 * len(rows), widths[0], 20 * len(rows))
        c.drawString(64, y - 14, name)
        for r, row in enumerate(rows):
            x = 60 + widths[0]
            for width, cell in zip(widths[1:], row):
                c.rect(x, y - 20 * (r + 1), width, 20)
                c.drawString(x + 4, y - 20 * (r + 1) + 6, cell)
                x += width
        y -= 20 * len(rows)


def test_a_row_split_by_the_break_in_a_table_grouped_by_its_first_column_joins_its_row():
    # a panel's name merged down the first column: under the header row repeated on the next page,
    # the rest of an item's name that wrapped in its cell (病毒抗体) goes on in that cell, and the
    # next item, a row of its own with its values, stays one
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    header = ["检验组合", "项目名称", "结果", "单位"]
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842))
    c.setFont("STSong-Light", 11)
    c.drawString(60, 780, "检验结果汇总")
    _grouped_rows(c, 160, [("血常规", [["白细胞计数", "6.1", "10^9/L"], ["血红蛋白", "135", "g/L"]]),
                           ("术前四项", [["乙肝表面抗原", "阴性", "IU/mL"], ["丙型肝炎", "阴性", "S/CO"]])], header)
    c.showPage()
    c.setFont("STSong-Light", 11)
    _grouped_rows(c, 800, [("", [["病毒抗体", "", ""], ["梅毒抗体", "阴性", "S/CO"]]),
                           ("肾功能", [["肌酐", "96", "μmol/L"], ["尿素", "8.9", "mmol/L"]])], header)
    c.showPage()
    c.save()
    lines = _lines(read_pdf(out.getvalue(), "grouped.pdf").text)
    at = lines.index("术前四项")
    assert lines[at + 1 : at + 4] == ["\t乙肝表面抗原\t阴性\tIU/mL", "\t丙型肝炎病毒抗体\t阴性\tS/CO", "\t梅毒抗体\t阴性\tS/CO"]
    assert lines.count("检验组合\t项目名称\t结果\t单位") == 1


# ---------------------------------------------------------------- the page as shown (round nine)

_ARTICLES = ["第一条　为了示范页面的读法，制定本办法。", "第二条　本办法自公布之日起施行。", "第三条　本办法由示范机关负责解释。"]


def _pages(draw_page, count: int, **canvas_args) -> bytes:
    """A PDF of ``count`` pages, each drawn by ``draw_page(canvas, number)``."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, **canvas_args)
    for number in range(1, count + 1):
        draw_page(c, number)
        c.showPage()
    c.save()
    return buffer.getvalue()


def test_a_page_stored_turned_reads_upright():
    """A landscape-stored page shown portrait through /Rotate 90, its content drawn turned the
    other way: pdfium reports its chars sideways; read as the page is shown, the lines are lines."""
    def draw(c, number):
        c.setPageRotation(90)
        c.transform(0, 1, -1, 0, 842, 0)  # (x, y) of the portrait page -> stored landscape
        c.setFont("STSong-Light", 12)
        for row, line in enumerate(_ARTICLES):
            c.drawString(72, 760 - 24 * row, line)

    doc = read_pdf(_pages(draw, 1, pagesize=(842, 595)), "turned.pdf")
    assert _lines(doc.text) == [line.replace("　", " ") for line in _ARTICLES]


def test_a_crop_box_offset_from_the_media_box_keeps_the_bands_and_hides_what_is_outside():
    """A crop box inside a larger media box: page numbers at the foot of the page as shown are
    furniture, and a mark printed in the media box outside the crop box is not on the page."""
    def draw(c, number):
        c.setCropBox((90, 140, 90 + 595, 140 + 842))
        c.setFont("STSong-Light", 12)
        c.drawString(10, 40, "裁切标记　示范印刷厂")  # outside the crop box
        c.translate(90, 140)
        for row, line in enumerate(_ARTICLES):
            c.drawString(72, 760 - 24 * row, line.replace("第", f"第{'一二'[number - 1]}部分第") if row == 0 else line)
        c.drawCentredString(297, 30, f"- {number} -")

    doc = read_pdf(_pages(draw, 2, pagesize=(595 + 180, 842 + 280)), "cropped.pdf")
    assert "裁切标记" not in doc.text
    assert not re.search(r"-\s*\d\s*-", doc.text), doc.text


def test_margin_line_numbers_are_set_aside():
    """A court document printed with line numbering: a bare number beside every line, counting
    from 1 on each page. Read as lines they part a wrapped paragraph; a person reads past them."""
    from reportlab.pdfbase import pdfmetrics

    body = "本院认为，" + "被告人的行为已构成示范罪名，依法应予惩处，" * 6 + "判决如下。"
    width = pdfmetrics.stringWidth("字", "STSong-Light", 12)
    per_line = int((523 - 72) // width)
    printed = [body[i : i + per_line] for i in range(0, len(body), per_line)]

    def draw(c, number):
        c.setFont("STSong-Light", 9)
        for row in range(len(printed) + 1):
            c.drawRightString(60, 760 - 24 * row, str(row + 1))
        c.setFont("STSong-Light", 12)
        c.drawString(72, 760, "示范市人民法院刑事判决书")
        for row, line in enumerate(printed, start=1):
            c.drawString(72, 760 - 24 * row, line)

    lines = _lines(read_pdf(_pages(draw, 2), "numbered.pdf").text)
    assert not any(re.fullmatch(r"\d+", line) for line in lines), lines
    assert lines.count(body) == 2


def test_a_browser_header_holding_the_title_beside_the_date_is_furniture_on_page_one_too():
    """A browser prints the date and time beside the page's title at the top of every page."""
    def draw(c, number):
        c.setFont("STSong-Light", 9)
        c.drawString(30, 820, "2024/3/5 10:20")
        c.drawCentredString(297, 820, "示范市绿化条例")
        c.setFont("STSong-Light", 12)
        if number == 1:
            c.drawCentredString(297, 760, "示范市绿化条例")
        for row, line in enumerate(_ARTICLES):
            c.drawString(72, 720 - 24 * row, line)

    doc = read_pdf(_pages(draw, 3), "browser.pdf")
    assert doc.text.startswith("示范市绿化条例\n"), doc.text[:60]
    assert "10:20" not in doc.text


def test_a_field_label_wrapped_to_the_margin_goes_on_where_labelled_paragraphs_start_at_the_indent():
    """A word processor's print indents every paragraph, those opening with a field label
    (诊疗意见：) too; a label at the margin after a full line is a field named mid-paragraph
    that the wrap brought to the line start (…无发热。/查体：…), not a paragraph of its own."""
    from relayout import to_pdf_word

    text = (Path(__file__).parents[1] / "corpora" / "emr_日常病程记录_上级医师查房.txt").read_text(encoding="utf-8")
    doc = read_pdf(to_pdf_word(text), "ward.pdf")
    lines = _lines(doc.text)
    assert any("无发热。" in line and "查体：体温" in line for line in lines), lines
    assert sum(line.startswith("诊疗意见：") for line in lines) == 2


# ---------------------------------------------------------------- a title broken over centred lines


def test_a_long_centred_title_broken_over_lines_is_one_heading_and_the_header_repeating_it_goes():
    # A word processor centres a long title and breaks it where its line is full: the full lines
    # span the text width (no off-centre indent to see), the last is centred; a centred line may
    # start where a first-line indent would. One title, and the running header repeating it on
    # every page (page 1 too) is furniture.
    from relayout import to_pdf_word

    two = "示范省人民代表大会常务委员会关于示范区域协同发展若干问题的决定"  # 31 characters at 18 pt: 23 + 8
    three = "示范省高级人民法院、示范省人民检察院关于办理示范类刑事案件适用法律若干问题的解释（试行）及其附录"  # 47: 23 + 23 + 1
    body = "\n".join(f"第{n}条　" + "示范条文的内容在这里写满若干行以便分页，" * 4 + "到此为止。" for n in range(1, 25))
    for title in (two, three, two[:19] + "决定"):
        doc = read_pdf(to_pdf_word(f"# {title}\n\n## 第一章 总则\n\n" + body), "title.pdf")
        assert len(doc.pages) >= 2
        headings = [(doc.text[b.start : b.end], b.level) for b in doc.blocks if b.kind == "heading"]
        assert headings == [(title, 1), ("第一章 总则", 2)], title
        assert doc.title == title and doc.text.count(title) == 1
        # the header repeats a title of at most 40 characters, else it is the bulletin's name
        assert doc.text.startswith(title + "\n") == (len(title) <= 40)


def test_a_court_or_hospital_name_centred_over_two_lines_is_one_line_and_a_subtitle_stays_apart():
    # The body's lines span 420 pt, which hold 18 characters at 22 pt: a name of 24 is broken after 18.
    name = "青岚省澄江市第一人民医院暨澄江医科大学附属第一医院"
    body = [(200 + 20 * i, 12, FULL[:34] + "。") for i in range(6)]
    doc = read_pdf(_pdf_with_sized_lines([(100, 22, name[:18]), (128, 22, name[18:]), (160, 16, "出院记录"), *body], centred=True), "record.pdf")
    assert _lines(doc.text)[:2] == [name, "出院记录"]
    # a first line that is not full was ended by its author: a title and its subtitle stay two
    doc = read_pdf(_pdf_with_sized_lines([(100, 22, "青岚省澄江市中级人民法院"), (128, 22, "民事判决书"), *body], centred=True), "court.pdf")
    assert _lines(doc.text)[:2] == ["青岚省澄江市中级人民法院", "民事判决书"]


# ---------------------------------------------------------------- fonts without a Unicode map

REDISTILLED = OFFICE / "contract_示范建设工程施工合同_LibreOffice_ghostscript.pdf"


def test_a_pdf_redistilled_by_ghostscript_reads_as_its_source():
    assert read_pdf(REDISTILLED.read_bytes(), "gs.pdf").text == read_document(OFFICE / "contract_示范建设工程施工合同_LibreOffice.pdf").text


def test_a_pdf_whose_fonts_have_no_unicode_map_is_refused_not_read_as_its_char_codes():
    # As ps2write / pdf2ps re-distil a PDF: the same fonts, their ToUnicode maps gone (the key
    # renamed at the same length, so the file's offsets hold). pdfium reads such a font's char
    # codes as Latin letters and marks: nonsense that would be chunked as text.
    data = REDISTILLED.read_bytes()
    assert data.count(b"/ToUnicode") >= 1
    with pytest.raises(ReadError, match=r"no Unicode map.*OCR"):
        read_pdf(data.replace(b"/ToUnicode", b"/ToUnicodX"), "redistilled.pdf")


def test_a_few_glyphs_without_a_unicode_map_read_as_unknown_with_a_warning():
    from domainchunk.errors import DomainChunkWarning
    from domainchunk.readers.pdf import _check_unicode_map

    # wkhtmltopdf (Qt) left some digits of its Latin font out of the ToUnicode map: pdfium reads
    # their char codes, control chars; they are U+FFFD, and the reader says how many.
    with pytest.warns(DomainChunkWarning, match=r"wk.pdf: \d+ of \d+ glyphs have no Unicode map"):
        doc = read_pdf((OFFICE / "lab_LIS导出_组合标题行_制表对齐_药物浓度_pandoc_wkhtmltopdf.pdf").read_bytes(), "wk.pdf")
    assert "\ufffd" in doc.text and not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", doc.text)

    with pytest.warns(DomainChunkWarning, match="symbols.pdf: 7 of 900 glyphs"):
        _check_unicode_map(7, 900, "symbols.pdf")
    with pytest.raises(ReadError, match="451 of 900 glyphs"):
        _check_unicode_map(451, 900, "codes.pdf")


# ---------------------------------------------------------------- radicals for ideographs (Qt, wkhtmltopdf)


def test_radicals_a_producer_mapped_shared_glyphs_to_read_as_the_ideographs_typed():
    # wkhtmltopdf (Qt) writes Noto Sans CJK's ToUnicode back from its cmap: the glyph 人 shares
    # with ⼈ (KANGXI RADICAL MAN) and 民 with ⺠ went out as the radicals (normalize.py maps them).
    doc = read_pdf((OFFICE / "judgment_支付令_pandoc_wkhtmltopdf.pdf").read_bytes(), "wk.pdf")
    assert doc.text.startswith("江临市宁川区人民法院\n")
    assert not re.search(r"[\u2e80-\u2eff\u2f00-\u2fdf]", doc.text)


# ---------------------------------------------------------------- an OCR'd scan's invisible text layer


def test_an_ocr_text_layer_reads_without_the_spaces_between_the_words_it_found():
    # tesseract / ocrmypdf write what they read as invisible text (render mode 3) over the scan,
    # a space after every word found; Chinese writes none. Visible text keeps its spaces.
    def draw(c):
        c.setFont("STSong-Light", 12)
        for y, words, mode in ((700, "江临市 中级 人民法院", 3), (680, "于 2023 年 10 月 12 日 被 刑事 拘留 。", 3),
                               (660, "QM S7 型号", 3), (640, "第 一 章 总 则", 0)):
            c.saveState()  # the render mode outlives BT/ET
            text = c.beginText(72, y)
            text.setTextRenderMode(mode)
            text.textOut(words)
            c.drawText(text)
            c.restoreState()

    lines = _lines(read_pdf(_pdf(draw), "ocr.pdf").text)
    assert lines == ["江临市中级人民法院", "于2023年10月12日被刑事拘留。", "QM S7型号", "第 一 章 总 则"]


def test_a_pdf_with_no_pages_is_named_as_such():
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    pdfium.PdfDocument.new().save(buffer)
    with pytest.raises(ReadError, match="no pages"):
        read_pdf(buffer.getvalue(), "empty.pdf")


_ARTICLES = ["第一条 为了规范农村供水工程管理，制定本条例。", "第二条 本条例适用于本行政区域。", "第三条 供水价格由县级人民政府核定。"]


def test_a_diagonal_watermark_is_not_read_and_text_turned_a_quarter_is_kept():
    def draw(c):
        c.setFont("STSong-Light", 12)
        for k, text in enumerate(_ARTICLES):
            c.drawString(72, 720 - 40 * k, text)
        c.saveState()
        c.translate(300, 690)
        c.rotate(35)
        c.setFont("STSong-Light", 40)
        c.drawCentredString(0, 0, "内部资料注意保存")
        c.restoreState()
        c.saveState()
        c.translate(560, 400)
        c.rotate(90)  # a sideways line along the margin: text along an axis is read
        c.setFont("STSong-Light", 12)
        c.drawString(0, 0, "附表一 供水工程名录")
        c.restoreState()

    text = read_pdf(_pdf(draw), "watermark.pdf").text
    assert not set("内部资料注意保存") & set(text)
    assert [line for line in _lines(text) if line][:3] == _ARTICLES
    assert set("附表一供水工程名录") <= set(text)  # kept (a char a line: one sideways line on an upright page)


def test_filled_form_fields_are_read_in_their_places_and_comments_are_not():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    label = "借款期限为"

    def draw(c):
        c.setFont("STSong-Light", 12)
        c.drawString(72, 720, label)
        x = 72 + stringWidth(label, "STSong-Light", 12)
        c.acroForm.textfield(name="term", value="12", x=x, y=717, width=16, height=16, fontName="Helvetica",
                             fontSize=12, borderWidth=0, borderColor=None, fillColor=None, forceBorder=False)
        c.drawString(x + 16, 720, "个月。")
        c.drawString(72, 690, "第二条 本合同自签字之日起生效。")
        c.textAnnotation("审核意见：期限待核。", Rect=(72, 600, 92, 620), relative=0)

    lines = _lines(read_pdf(_pdf(draw), "form.pdf").text)
    assert lines == ["借款期限为12个月。", "第二条 本合同自签字之日起生效。"]


def test_a_rows_label_and_value_drawn_apart_in_the_content_stream_are_one_line():
    # a report engine draws a page's static labels first, then each field's value after its label
    rows = [("姓名：", "邝某某", "性别：", "男"), ("主诉：", "发热、咳嗽4天，气促1天。", None, None)]
    body = "现病史：患儿4天前受凉后出现发热，体温最高39.4℃，口服布洛芬后可降至正常，伴咳嗽。"

    def draw(c):
        from reportlab.pdfbase.pdfmetrics import stringWidth

        c.setFont("STSong-Light", 12)
        width = lambda s: stringWidth(s, "STSong-Light", 12)  # noqa: E731
        c.drawString(72, 620, body)  # a line across the page, as a record's paragraphs run
        c.drawString(72, 600, body)
        c.drawString(72, 580, body)
        for k, (label, _, second, _) in enumerate(rows):
            c.drawString(72, 720 - 24 * k, label)
            if second:
                c.drawString(200, 720 - 24 * k, second)
        for k, (label, value, second, other) in enumerate(rows):
            c.drawString(72 + width(label), 720 - 24 * k, value)
            if second:
                c.drawString(200 + width(second), 720 - 24 * k, other)

    lines = _lines(read_pdf(_pdf(draw), "report.pdf").text)
    assert lines[:2] == ["姓名：邝某某 性别：男", "主诉：发热、咳嗽4天，气促1天。"]


def test_a_pdf_locked_by_an_owner_password_only_is_read():
    # no password to open it, only permissions (no copying): every viewer shows the text, and
    # pdftotext reads it; refusing it would leave out what its holder can read on screen
    from reportlab.lib import pdfencrypt

    data = _pdf(_text, encrypt=pdfencrypt.StandardEncryption("", ownerPassword="owner", canCopy=0))
    assert read_pdf(data, "restricted.pdf").text == "第一条 为了测试，制定本办法。"


@pytest.mark.parametrize("turn", [90, -90])
def test_a_page_whose_text_runs_up_or_down_is_read_turned_upright(turn):
    # a landscape page a print driver turned onto a portrait sheet by the content's matrix
    def draw(c):
        c.saveState()
        if turn == 90:
            c.translate(560, 60)
        else:
            c.translate(35, 780)
        c.rotate(turn)
        c.setFont("STSong-Light", 12)
        for k, text in enumerate(_ARTICLES):
            c.drawString(20, -20 * k, text)
        c.restoreState()

    assert _lines(read_pdf(_pdf(draw), "sideways.pdf").text) == _ARTICLES


def test_a_letter_spaced_label_takes_no_space_before_its_colon():
    # an HIS print sets a label's characters apart by character spacing (Tc) and its value at the
    # normal spacing in another text operation: pdfium takes the label's last gap for a space
    def draw(c):
        for k, (label, value) in enumerate((("年龄", "：47岁"), ("婚姻", "：已婚"), ("主诉", "：右腰部绞痛伴血尿6小时。"))):
            out = c.beginText(72, 720 - 24 * k)
            out.setFont("STSong-Light", 12)
            out.setCharSpace(9.6)
            out.textOut(label)
            out.setCharSpace(0)
            out.textOut(value)
            c.drawText(out)

    assert _lines(read_pdf(_pdf(draw), "spaced.pdf").text) == ["年龄：47岁", "婚姻：已婚", "主诉：右腰部绞痛伴血尿6小时。"]
