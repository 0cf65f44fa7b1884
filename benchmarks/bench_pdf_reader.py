"""Pages per second: our PDF reader and the whole pipeline vs a bare pdfplumber loop.

The peer is ``page.extract_text()`` over every page, same files, same run. The
files are the shared PDFs (../shared/corpus/docs, when present) and our own
generated ones in corpora/office/ (running headers, a table across a page
break, two columns). Each side is run ``--repeat`` times and the best time is
kept (the least disturbed by the rest of the machine).

    python benchmarks/bench_pdf_reader.py [--repeat 5] [FILE.pdf ...]
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import domainchunk  # noqa: E402
from domainchunk.readers.pdf import read_pdf  # noqa: E402

SHARED_PDF = ROOT.parent / "shared" / "corpus" / "docs" / "statute_劳动合同法.pdf"


def default_files() -> list[Path]:
    shared = sorted(SHARED_PDF.parent.glob("*.pdf")) if SHARED_PDF.parent.is_dir() else []
    return shared + sorted((ROOT / "corpora" / "office").glob("*.pdf"))


def plumber_pass(blobs: list[bytes]) -> int:
    import logging

    import pdfplumber

    # pdfminer warns once per glyph of a font without a FontBBox (Chromium's prints): the peer is
    # timed reading text, not writing thousands of warnings to the terminal.
    logging.getLogger("pdfminer").setLevel(logging.ERROR)

    pages = 0
    for data in blobs:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages:
                page.extract_text()
                pages += 1
    return pages


def pdfium_pass(blobs: list[bytes]) -> int:
    """What pdfium alone costs before the reader runs a line of its own: each page and its
    text page loaded and closed (fonts, glyph boxes, char list), no char read out. The
    reader cannot be faster than this; its ratio to pdfplumber bounds ours."""
    import pypdfium2 as pdfium

    pages = 0
    for data in blobs:
        document = pdfium.PdfDocument(data)
        for index in range(len(document)):
            page = document[index]
            page.get_textpage().close()
            page.close()
            pages += 1
        document.close()
    return pages


def reader_pass(blobs: list[bytes]) -> int:
    return sum(read_pdf(data, "bench.pdf").metadata["page_count"] for data in blobs)


def pipeline_pass(blobs: list[bytes]) -> int:
    """Read, detect and chunk: what a user of ``domainchunk.chunk`` waits for."""
    pages = 0
    for data in blobs:
        result = domainchunk.chunk(data, name="bench.pdf")
        pages += result.document.metadata["page_count"]
    return pages


def best_rate(run, blobs: list[bytes], repeat: int) -> float:
    best = float("inf")
    pages = 0
    for _ in range(repeat):
        start = time.perf_counter()
        pages = run(blobs)
        best = min(best, time.perf_counter() - start)
    return pages / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    files = args.files or default_files()
    blobs = [f.read_bytes() for f in files]
    print("files:", ", ".join(f.name for f in files))
    plumber = best_rate(plumber_pass, blobs, args.repeat)
    floor = best_rate(pdfium_pass, blobs, args.repeat)
    ours = best_rate(reader_pass, blobs, args.repeat)
    pipeline = best_rate(pipeline_pass, blobs, args.repeat)
    print(f"pdfplumber extract_text loop: {plumber:8.1f} pages/s")
    print(f"pdfium page + text page only: {floor:8.1f} pages/s   ratio {floor / plumber:5.2f}x   (our ceiling)")
    print(f"domainchunk read_pdf:         {ours:8.1f} pages/s   ratio {ours / plumber:5.2f}x")
    print(f"domainchunk.chunk (pipeline): {pipeline:8.1f} pages/s   ratio {pipeline / plumber:5.2f}x")


if __name__ == "__main__":
    main()
