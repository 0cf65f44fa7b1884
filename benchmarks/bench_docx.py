"""DOCX ``chunk()`` vs a bare python-docx paragraph loop, same files, alternating rounds.

The peer opens each file with python-docx and joins its paragraphs' text: the
least any DOCX reader does. Ours reads paragraphs, tables, numbering and styles,
then detects and chunks. Files: corpora/office/*.docx (invented documents).

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


def paragraph_loop(blobs: list[bytes]) -> None:
    import docx

    for data in blobs:
        "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)


def chunk_all(blobs: list[bytes]) -> None:
    for data in blobs:
        domainchunk.chunk(data, name="bench.docx")


def docx_rows(rounds: int) -> None:
    blobs = [p.read_bytes() for p in FILES]
    row(f"DOCX chunk() vs python-docx paragraph loop ({len(blobs)} files)",
        paired(lambda: chunk_all(blobs), lambda: paragraph_loop(blobs), rounds), "≥ 0.8x")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    docx_rows(ap.parse_args().rounds)
