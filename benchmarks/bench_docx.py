"""DOCX ``chunk()`` vs a bare python-docx paragraph loop, same files, alternating rounds.

The peer opens each file with python-docx and joins its paragraphs' text: the
least any DOCX reader does. Ours reads paragraphs, tables, numbering and styles,
then detects and chunks; a second row times our reader alone (what is left past
it is detection and chunking). Files: corpora/office/*.docx (invented documents,
written by python-docx: a 350 kB styles.xml around a few kB of text) and, when
present, the shared corpus's real Word files (../shared/corpus/docs).

    python benchmarks/bench_docx.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import domainchunk  # noqa: E402
from paired import paired, row  # noqa: E402

FILES = sorted((HERE.parent / "corpora" / "office").glob("*.docx"))
SHARED = sorted((HERE.parent.parent / "shared" / "corpus" / "docs").glob("*.docx"))


def paragraph_loop(blobs: list[bytes]) -> None:
    import docx

    for data in blobs:
        "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)


def chunk_all(blobs: list[bytes]) -> None:
    for data in blobs:
        domainchunk.chunk(data, name="bench.docx")


def read_all(blobs: list[bytes]) -> None:
    from domainchunk.readers.docx import read_docx

    for data in blobs:
        read_docx(data, "bench.docx")


def docx_rows(rounds: int) -> None:
    for what, files in (("corpora/office", FILES), ("real (shared)", SHARED)):
        if not files:
            continue
        blobs = [p.read_bytes() for p in files]
        row(f"DOCX chunk() vs python-docx paragraph loop, {what} ({len(blobs)} files)",
            paired(lambda: chunk_all(blobs), lambda: paragraph_loop(blobs), rounds), "≥ 0.8x")
        row(f"DOCX reader alone vs python-docx paragraph loop, {what}",
            paired(lambda: read_all(blobs), lambda: paragraph_loop(blobs), rounds), "(for scale)")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    docx_rows(ap.parse_args().rounds)
