"""Our documents printed by producers the readers had not met before (round nine).

``make_office_docs.py`` prints with reportlab and ``make_office_docs_word.py`` with LibreOffice
from DOCX. Here the same texts of ``corpora/`` go through three more ways a PDF is made:

* **Chromium's print-to-PDF** of an HTML page (``chromium --headless --print-to-pdf``), as a
  court's or a hospital's web system prints: Skia writes text runs and spacing its own way.
  The pages are set as such systems set them: headings in ``<h1>``/``<h2>``; CSS two columns;
  ``text-align: justify`` with ``letter-spacing``; a long lab table whose ``<thead>`` the browser
  repeats on every printed page; a running header and footer in ``@page`` margin boxes; the
  browser's own header and footer (date, title, address, page x/y); a court document with line
  numbers down the left margin;
* **LibreOffice from ODT** (a flat ``.fodt`` written here), its articles numbered by
  LibreOffice's own list numbering (``第一条`` is the list's label, not text);
* a PDF re-written with **rotated pages** (``/Rotate 90`` over content drawn turned, as a
  landscape page is stored) and one with a **crop box offset** from the media box.

Every text is ours (``corpora/``), so their gold applies as it is; the lab table is the panels
of ``make_office_docs.LAB_PANELS``. The PDFs are committed: the suite never runs chromium or
soffice. Run: ``python corpora/make_office_prints_browser.py`` (both must be on PATH).
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_office_docs import LAB_COLUMNS, LAB_PANELS, LAB_PATIENT, Unit, write_gold  # noqa: E402

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
_HEADING = re.compile(r"^第[一二三四五六七八九十百零]+[编章节]")
_CN_FONT = '"Noto Serif CJK SC", "Noto Sans CJK SC", "WenQuanYi Zen Hei", serif'


def _lines(name: str) -> list[str]:
    """The document's lines, each blank line kept as a mark on the line after it (``GAP``)."""
    lines: list[str] = []
    gap = False
    for line in (CORPORA / name).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            gap = bool(lines)
            continue
        lines.append(GAP + line if gap else line)
        gap = False
    return lines


# A blank line of the text is the space of an empty line above the next paragraph on the page.
GAP = "\x00"


def _paragraph(tag: str, line: str, cls: str = "") -> str:
    classes = " ".join(c for c in (cls, "gap" if line.startswith(GAP) else "") if c)
    attribute = f' class="{classes}"' if classes else ""
    return f"<{tag}{attribute}>{html.escape(line.removeprefix(GAP))}</{tag}>"


def _copy_gold(source: str, target: str) -> None:
    (OUT / f"{target}.gold.json").write_text((CORPORA / f"{source}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


def _page(title: str, css: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>@page {{ size: A4; }} body {{ font-family: {_CN_FONT}; font-size: 12pt; line-height: 1.6; }} {css}"
            " .gap { margin-top: 1.6em; }</style></head>"
            f"<body>{body}</body></html>")


def _statute_body(lines: list[str]) -> str:
    """A law below its title as a government site publishes it: 章/节 h2 centred, articles paragraphs."""
    return "".join(_paragraph("h2" if _HEADING.match(line.removeprefix(GAP)) and len(line) <= 21 else "p", line) for line in lines)


def _document_body(lines: list[str], head: int) -> str:
    """A court document or a record: its first ``head`` lines centred (court, kind, case number), then paragraphs."""
    return "".join(_paragraph("p", line, "head" if index < head else "") for index, line in enumerate(lines))


def _lab_body() -> tuple[str, list[Unit]]:
    """One long results table, each panel opened by a row spanning it, the column header a <thead>."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in LAB_COLUMNS)
    rows: list[str] = []
    units: list[Unit] = []
    for panel, specimen, items in LAB_PANELS:
        caption = f"{panel}（{specimen}）"
        rows.append(f'<tr><td class="panel" colspan="{len(LAB_COLUMNS)}">{html.escape(caption)}</td></tr>')
        rows += ["<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in item) + "</tr>" for item in items]
        units.append(Unit([panel], [caption, *("\t".join(item) for item in items)]))
    patient = "".join(f"<p>{html.escape(line)}</p>" for line in LAB_PATIENT)
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    return patient + table, units


def _line_numbers(count: int = 30) -> str:
    """Line numbers down the left margin, one a body line of the page (a fixed element prints on
    every page); the court document under them is set without blank lines, line for line."""
    return '<div class="numbers">' + "".join(f"<div>{n}</div>" for n in range(1, count + 1)) + "</div>"


_STATUTE_CSS = "h1 { font-size: 18pt; text-align: center; } h2 { font-size: 14pt; text-align: center; } p { margin: 0.3em 0; text-indent: 2em; }"
_HEAD_CSS = "p.head { text-align: center; font-size: 15pt; font-weight: bold; text-indent: 0; margin: 0.2em 0; }"

# name -> (source in corpora/, html maker, chromium options)
PAGES = {
    "statute_江临市古村落保护条例_网页_Chromium.pdf": (
        "statute_江临市古村落保护条例.txt",
        lambda lines: _page(lines[0], _STATUTE_CSS, _paragraph("h1", lines[0]) + _statute_body(lines[1:])),
        ["--no-pdf-header-footer"]),
    "statute_股份有限公司章程_两栏_Chromium.pdf": (
        "statute_股份有限公司章程_章节条_附则.txt",
        lambda lines: _page(lines[0], _STATUTE_CSS + " .cols { column-count: 2; column-gap: 2em; }",
                            _paragraph("h1", lines[0]) + f'<div class="cols">{_statute_body(lines[1:])}</div>'),
        ["--no-pdf-header-footer"]),
    "judgment_民事判决书_劳动争议_两端对齐字距_Chromium.pdf": (
        "judgment_民事判决书_劳动争议.txt",
        lambda lines: _page(lines[1].removeprefix(GAP), _HEAD_CSS + " p { text-align: justify; letter-spacing: 0.08em; text-indent: 2em; margin: 0; }",
                            _document_body(lines, 3)), ["--no-pdf-header-footer"]),
    "judgment_刑事判决书_单位犯罪_合议庭_行号_Chromium.pdf": (
        "judgment_刑事判决书_单位犯罪_合议庭.txt",
        lambda lines: _page(lines[1].removeprefix(GAP), _HEAD_CSS + " @page { margin: 2cm 2cm 2cm 1.5cm; }"
                            " body { line-height: 24pt; padding-left: 1.5cm; } p { margin: 0; text-indent: 2em; text-align: justify; }"
                            " p.head { line-height: 24pt; font-size: 12pt; }"
                            " .numbers { position: fixed; top: 0; left: 0; width: 0.9cm; text-align: right;"
                            " font-size: 9pt; line-height: 24pt; color: #666; }",
                            _line_numbers() + _document_body([line.removeprefix(GAP) for line in lines], 3)), ["--no-pdf-header-footer"]),
    "emr_出院小结_示范_胃肠外科_页眉页脚_Chromium.pdf": (
        "emr_出院小结_示范_胃肠外科.txt",
        lambda lines: _page(lines[0], _HEAD_CSS + " p { margin: 0.2em 0; }"
                            ' @page { margin: 2.5cm 2cm; @top-center { content: "江临市示范医院　电子病历打印"; font-size: 9pt; }'
                            ' @bottom-right { content: "第 " counter(page) " 页 共 " counter(pages) " 页"; font-size: 9pt; } }',
                            _document_body(lines, 1)), ["--no-pdf-header-footer"]),
    "contract_技术服务合同_浏览器页眉页脚_Chromium.pdf": (
        "contract_技术服务合同.txt",
        lambda lines: _page(lines[0], _HEAD_CSS + " p { margin: 0.3em 0; }", _document_body(lines, 1)), []),
}
LAB_PAGE = "lab_住院检验汇总_表头逐页重复_Chromium.pdf"
_LAB_CSS = ("table { border-collapse: collapse; width: 100%; } th, td { border: 0.6pt solid #000; padding: 2pt 4pt; font-size: 10.5pt; }"
            " td.panel { font-weight: bold; } thead { display: table-header-group; } tr { break-inside: avoid; }"
            " p { margin: 0.2em 0; }")


def _chromium(name: str, page: str, options: list[str], tmp: Path) -> None:
    source = tmp / "page.html"
    source.write_text(page, encoding="utf-8")
    target = OUT / name
    subprocess.run([shutil.which("chromium") or "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    f"--user-data-dir={tmp}/profile", *options, f"--print-to-pdf={target}", source.as_uri()],
                   check=True, capture_output=True, timeout=300)


# ---------------------------------------------------------------- LibreOffice from ODT

_ODT_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
           'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"')
_ARTICLE = re.compile(r"^第[一二三四五六七八九十百零]+条[　 ]*")
_ITEM = re.compile(r"^（[一二三四五六七八九十]+）")


def _fodt(lines: list[str], line_numbers: bool = False) -> str:
    """A flat ODT whose articles are items of a list numbered 第一条, 第二条 … by LibreOffice
    (``style:num-format`` Chinese numerals between a prefix and a suffix), their 款 plain
    paragraphs, the (一)(二) items a second list; the numbering runs on across chapters. With
    ``line_numbers``, LibreOffice's line numbering counts the printed lines in the left margin,
    from 1 on every page, as courts print their documents."""
    lines = [line.removeprefix(GAP) for line in lines]
    body: list[str] = [f'<text:p text:style-name="Title">{html.escape(lines[0])}</text:p>']
    in_toc = False
    articles = 0
    for line in lines[1:]:
        if line.replace("　", "") == "目录":
            in_toc = True
        if _HEADING.match(line) and len(line) <= 20:
            body.append(f'<text:p text:style-name="{"Toc" if in_toc else "Chapter"}">{html.escape(line)}</text:p>')
            continue
        in_toc = False
        if article := _ARTICLE.match(line):
            text = html.escape(line[article.end():])
            # one list across the document: each later article's list continues the first one's numbers
            link = 'text:continue-list="articles"' if articles else 'xml:id="articles"'
            articles += 1
            body.append(f'<text:list {link} text:style-name="Articles"><text:list-item>'
                        f'<text:p text:style-name="Body">{text}</text:p></text:list-item></text:list>')
        elif item := _ITEM.match(line):
            item_text = f'<text:list-item><text:p text:style-name="Body">{html.escape(line[item.end():])}</text:p></text:list-item>'
            if body[-1].endswith("</text:list><!--items-->"):  # the next item of the list above
                body[-1] = body[-1][: -len("</text:list><!--items-->")] + item_text + "</text:list><!--items-->"
            else:
                body.append(f'<text:list text:style-name="Items">{item_text}</text:list><!--items-->')
        else:
            body.append(f'<text:p text:style-name="Body">{html.escape(line)}</text:p>')
    cn = "一, 二, 三, ..."
    styles = (
        '<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:text-indent="0.85cm" fo:text-align="justify"/>'
        '<style:text-properties style:font-name-asian="Noto Serif CJK SC" fo:font-size="12pt" style:font-size-asian="12pt"/></style:style>'
        '<style:style style:name="Title" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-bottom="0.4cm"/>'
        '<style:text-properties fo:font-size="18pt" style:font-size-asian="18pt" fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>'
        '<style:style style:name="Chapter" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-top="0.3cm" fo:margin-bottom="0.3cm"/>'
        '<style:text-properties fo:font-size="12pt" style:font-size-asian="12pt" fo:font-weight="bold" style:font-weight-asian="bold"/></style:style>'
        '<style:style style:name="Toc" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/>'
        '<style:text-properties fo:font-size="12pt" style:font-size-asian="12pt"/></style:style>'
        '<text:list-style style:name="Articles"><text:list-level-style-number text:level="1" style:num-prefix="第" style:num-suffix="条"'
        f' style:num-format="{cn}"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment">'
        '<style:list-level-label-alignment text:label-followed-by="space" fo:text-indent="0cm" fo:margin-left="0cm"/>'
        '</style:list-level-properties></text:list-level-style-number></text:list-style>'
        '<text:list-style style:name="Items"><text:list-level-style-number text:level="1" style:num-prefix="（" style:num-suffix="）"'
        f' style:num-format="{cn}"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment">'
        '<style:list-level-label-alignment text:label-followed-by="nothing" fo:text-indent="0cm" fo:margin-left="0.85cm"/>'
        '</style:list-level-properties></text:list-level-style-number></text:list-style>'
    )
    if line_numbers:
        styles += ('<text:linenumbering-configuration text:number-lines="true" text:increment="1" style:num-format="1"'
                   ' text:number-position="left" text:offset="0.5cm" text:restart-on-page="true" text:count-empty-lines="false"/>')
    return (f'<?xml version="1.0" encoding="UTF-8"?><office:document {_ODT_NS} office:version="1.3" '
            f'office:mimetype="application/vnd.oasis.opendocument.text"><office:styles>{styles}</office:styles>'
            f"<office:body><office:text>{''.join(body)}</office:text></office:body></office:document>")


ODT_PRINTS = {  # name -> (source, line numbers)
    "statute_江临市古村落保护条例_列表编号_ODT_LibreOffice.pdf": ("statute_江临市古村落保护条例.txt", False),
    "statute_江临市古村落保护条例_列表编号_行号_ODT_LibreOffice.pdf": ("statute_江临市古村落保护条例.txt", True),
}


def _libreoffice(source: str, target: str, line_numbers: bool, tmp: Path) -> None:
    fodt = tmp / "statute.fodt"
    fodt.write_text(_fodt(_lines(source), line_numbers), encoding="utf-8")
    subprocess.run([shutil.which("soffice") or "soffice", "--headless", f"-env:UserInstallation=file://{tmp}/lo",
                    "--convert-to", "pdf", "--outdir", str(tmp), str(fodt)], check=True, capture_output=True, timeout=300)
    (OUT / target).write_bytes((tmp / "statute.pdf").read_bytes())


# ---------------------------------------------------------------- rotated pages, offset crop box


def _rewritten(source: str, target: str, *, rotate: bool) -> None:
    """``source`` with every page's content moved as a PDF editor moves it (each object's matrix):
    turned a quarter and shown through ``/Rotate 90`` (the page reads upright, its content stored
    sideways, as a landscape page is), or shifted inside a larger media box and shown through a
    crop box at that offset (the text's coordinates no longer start at the page's corner)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(OUT / source)
    for index in range(len(document)):
        page = document[index]
        width, height = page.get_size()
        if rotate:
            # turned anticlockwise by 90°: (x, y) -> (height - y, x); /Rotate 90 turns it back
            matrix, media = pdfium.PdfMatrix(0, 1, -1, 0, height, 0), (0, 0, height, width)
        else:
            dx, dy = 90.0, 140.0
            matrix, media = pdfium.PdfMatrix().translate(dx, dy), (0, 0, width + 2 * dx, height + 2 * dy)
        # the content stream wrapped in ``q <matrix> cm … Q`` (pdfium's FPDFPage_TransFormWithClip)
        raw_matrix = pdfium_c.FS_MATRIX(*matrix.get())
        pdfium_c.FPDFPage_TransFormWithClip(page.raw, ctypes.byref(raw_matrix), None)
        page.set_mediabox(*media)
        if rotate:
            page.set_cropbox(*media)
            page.set_rotation(90)
        else:
            page.set_cropbox(dx, dy, dx + width, dy + height)
        page.close()
    document.save(OUT / target)
    (OUT / f"{target}.gold.json").write_text((OUT / f"{source}.gold.json").read_text(encoding="utf-8"), encoding="utf-8")


def main() -> None:
    if shutil.which("chromium") is None or shutil.which("soffice") is None:
        sys.exit("chromium and soffice are needed: the committed PDFs are kept")
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for target, (source, page, options) in PAGES.items():
            _chromium(target, page(_lines(source)), options, tmp)
            _copy_gold(source, target)
        body, units = _lab_body()
        _chromium(LAB_PAGE, _page(LAB_PATIENT[0], _LAB_CSS, body), ["--no-pdf-header-footer"], tmp)
        write_gold(LAB_PAGE, "lab_report", units)
        for target, (source, line_numbers) in ODT_PRINTS.items():
            _libreoffice(source, target, line_numbers, tmp)
            _copy_gold(source, target)
    _rewritten("judgment_民事判决书_劳动争议_两端对齐字距_Chromium.pdf", "judgment_民事判决书_劳动争议_页面旋转.pdf", rotate=True)
    _rewritten("contract_技术服务合同_浏览器页眉页脚_Chromium.pdf", "contract_技术服务合同_裁剪框偏移.pdf", rotate=False)


if __name__ == "__main__":
    main()
