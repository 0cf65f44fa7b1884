"""Our documents through producers the readers had not met before (round ten).

``make_office_prints_browser.py`` printed with Chromium and LibreOffice. Here the texts of
``corpora/`` go through the tools a user converting a folder reaches for on Linux:

* **pandoc** Markdown → DOCX, with pandoc's own styles (``First Paragraph``, ``Body Text``,
  ``Heading N``; a ``1. `` line would be a ``Compact`` list item under Word's list numbering, but
  our texts write ``1.`` with no space, which Markdown leaves text), rows of tab-separated cells
  as a pipe table and so as a Word table;
* pandoc Markdown → HTML → **wkhtmltopdf** (Qt WebKit, not Chromium), with pandoc's default
  HTML styles, Noto Sans CJK SC and a ``page/pages`` footer. Qt writes the font's ToUnicode map
  back from its cmap, so a glyph shared by a radical and an ideograph reads as the radical
  (⼈⺠ for 人民), and leaves a few digits with no entry at all;
* **ghostscript** ``pdfwrite`` re-distilling one of our LibreOffice PDFs (fonts re-encoded and
  re-subset, each CJK font a Type 1 with a ``/Differences`` encoding and a ToUnicode map).

Two more producers give no readable text and so no corpus document: ``paps`` (0.6, Pango) draws
every glyph as an outline, no text at all (the reader says so, as for a scan), and ghostscript's
``ps2write`` then ``ps2pdf`` (a PDF printed to PostScript and distilled again) drops the ToUnicode
maps, leaving char codes no reader can map to text (the reader refuses such a PDF; see
``tests/test_readers_pdf.py``, which makes one from the ``pdfwrite`` file here).

The sample: for each document type, our text documents of that type (by their gold) sorted by
name, those at the start, a third and two thirds of the way along; chosen by position, not by
how they chunk. Every text is ours, and a rendering keeps its text, so the source's gold applies
as it is. The outputs are committed: the suite never runs pandoc, wkhtmltopdf or ghostscript.
Run: ``python corpora/make_office_prints_more.py`` (all three on PATH, and a CJK font for
wkhtmltopdf: Debian's ``fonts-noto-cjk``). Mind what fonts the machine has: pdfium reads a PDF
whose CJK font is not embedded (reportlab's STSong-Light: ``tests/relayout.py``'s prints) with
a system font's glyph boxes, and ``fonts-droid-fallback``, which ghostscript recommends, as the
only CJK font made it lose the glyph-by-glyph justified lines of those prints.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CORPORA = Path(__file__).parent
OUT = CORPORA / "office"
PER_TYPE = 3
# The one PDF of ours that ghostscript re-distils: a LibreOffice print (CID fonts, a ToUnicode map).
REDISTILLED = "contract_示范建设工程施工合同_LibreOffice.pdf"
_TEXT = (".txt", ".md")
# Renderings made but not kept: what each shows that the readers do not (yet) read right; a
# corpus document must match its gold (tests/test_corpora.py).
LEFT_OUT = {
    # every line its own paragraph (Markdown keeps no blank line): 手术日期： over its date on the
    # next line opens no section, as in the text without blank lines (a rule matter)
    "emr_出院小结_示范_胃肠外科_pandoc.docx": "section label over its value, no blank line",
    "emr_出院小结_示范_胃肠外科_pandoc_wkhtmltopdf.pdf": "section label over its value, no blank line",
    # a table ruled only above and below its header and at its foot, its cells wrapped in narrow
    # columns: read line by line; and the digits of 10^9/L have no Unicode map
    "lab_累积报告_日期为列_pandoc_wkhtmltopdf.pdf": "unruled table, cells wrapped in their columns",
    # pdfium reads a few line ends as \r\n glyphs and the next line's first chars at the end of
    # the line above (poppler reads the same file right)
    "judgment_专利侵权民事判决书_技术特征比对_pandoc_wkhtmltopdf.pdf": "chars placed on the line above",
    # Qt wrote no ToUnicode entries for some digits: 附件一's items 1. 2. read as control chars
    "contract_商铺租赁补充协议_条款修改_pandoc_wkhtmltopdf.pdf": "digits without a Unicode map",
}
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s")
# What Markdown reads as inline marks; escaped so the text reads as written (a list mark at a
# line's start is left alone: a user's "1." line is a list to Markdown, and so to Word).
_INLINE = re.compile(r"([\\`*_\[\]<>|~^$])")
_CSS = ("<style>body { font-family: 'Noto Sans CJK SC', 'WenQuanYi Zen Hei', 'Droid Sans Fallback', sans-serif; }"
        "</style>")


def sample() -> list[Path]:
    """PER_TYPE text documents of each type, spread over the type's documents sorted by name."""
    by_type: dict[str, list[Path]] = {}
    for gold in sorted(CORPORA.glob("*.gold.json")):
        doc = CORPORA / gold.name[: -len(".gold.json")]
        if doc.suffix in _TEXT and doc.is_file():
            by_type.setdefault(json.loads(gold.read_text(encoding="utf-8"))["doc_type"], []).append(doc)
    return [docs[i * len(docs) // PER_TYPE] for _, docs in sorted(by_type.items()) for i in range(PER_TYPE)]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.split("\t")]


def markdown(text: str) -> str:
    """The text as Markdown, as a user converting it writes it: every line a paragraph of its
    own, its Markdown headings kept, and a run of two or more lines of tab-separated cells (as
    many on each) a pipe table whose first row is the header."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "\t" in line.strip():
            width = len(_cells(line))
            j = i
            while j < len(lines) and "\t" in lines[j].strip() and len(_cells(lines[j])) == width:
                j += 1
            if j - i >= 2:
                rows = [[_INLINE.sub(r"\\\1", cell) for cell in _cells(row)] for row in lines[i:j]]
                table = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
                table += ["| " + " | ".join(row) + " |" for row in rows[1:]]
                out.append("\n".join(table))
                i = j
                continue
        if _MARKDOWN_HEADING.match(line):
            out.append(line)
        else:
            out.append(_INLINE.sub(r"\\\1", line.strip().replace("\t", " ")))
        i += 1
    return "\n\n".join(out) + "\n"


def _keep(made: Path, source: Path) -> None:
    """Move a rendering into corpora/office with its source's gold, unless it is LEFT_OUT."""
    if made.name in LEFT_OUT:
        return
    shutil.move(made, OUT / made.name)
    (OUT / f"{made.name}.gold.json").write_text((source.parent / f"{source.name}.gold.json").read_text(encoding="utf-8"),
                                                encoding="utf-8")


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True)


def main() -> None:
    for tool in ("pandoc", "wkhtmltopdf", "gs"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for doc in sample():
            source = work / "source.md"
            source.write_text(markdown(doc.read_text(encoding="utf-8")), encoding="utf-8")
            docx = f"{doc.stem}_pandoc.docx"
            _run("pandoc", "-f", "markdown", "-t", "docx", str(source), "-o", str(work / docx))
            _keep(work / docx, doc)
            page, head = work / "page.html", work / "head.html"
            head.write_text(_CSS, encoding="utf-8")
            _run("pandoc", "-f", "markdown", "-t", "html5", "-s", "--metadata", f"pagetitle={doc.stem}",
                 "-H", str(head), str(source), "-o", str(page))
            pdf = f"{doc.stem}_pandoc_wkhtmltopdf.pdf"
            _run("wkhtmltopdf", "-q", "-s", "A4", "--encoding", "utf-8", "--footer-center", "[page]/[topage]",
                 "--footer-font-size", "9", str(page), str(work / pdf))
            _keep(work / pdf, doc)
        target = REDISTILLED.removesuffix(".pdf") + "_ghostscript.pdf"
        _run("gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite", "-o", str(work / target), str(OUT / REDISTILLED))
        _keep(work / target, OUT / REDISTILLED)


if __name__ == "__main__":
    main()
