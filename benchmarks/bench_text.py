"""MB/s of the text pipeline on statute text: domainchunk vs langchain's RecursiveCharacterTextSplitter, same run.

The text is the shared statutes (statute_*.md and *_plain.txt in
../shared/corpus/docs; corpora/statute_* when that is absent) concatenated and
repeated to ``--mb`` megabytes (UTF-8). Each side runs ``--repeat`` times, the
best time kept. Then the peak Python memory (tracemalloc) of domainchunk on 1 MB
and on the full size, to show it grows linearly. ``--profile`` prints where
domainchunk's time goes (cProfile, top functions by own time).

    python benchmarks/bench_text.py [--mb 10] [--repeat 3] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import domainchunk  # noqa: E402
from paired import on_fresh_texts  # noqa: E402

SHARED_DOCS = ROOT.parent / "shared" / "corpus" / "docs"


def statute_files() -> list[Path]:
    shared = sorted(SHARED_DOCS.glob("statute_*.md")) + sorted(SHARED_DOCS.glob("*_plain.txt"))
    return shared or sorted(p for p in (ROOT / "corpora").glob("statute_*") if p.suffix in (".md", ".txt"))


def build_text(files: list[Path], mb: float) -> str:
    base = "\n\n".join(p.read_text(encoding="utf-8") for p in files)
    copies = max(1, round(mb * 1e6 / len(base.encode("utf-8"))))
    return "\n\n".join([base] * copies)


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def peak_memory(fn) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()

    from langchain_text_splitters import RecursiveCharacterTextSplitter

    files = statute_files()
    text = build_text(files, args.mb)
    mb = len(text.encode("utf-8")) / 1e6
    print(f"text: {len(files)} statute files, concatenated and repeated: {mb:.1f} MB, {len(text):,} characters")
    splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0)
    lc_time, lc_chunks = best_time(lambda: splitter.split_text(text), args.repeat)
    print(f"langchain RecursiveCharacterTextSplitter: {mb / lc_time:8.2f} MB/s  ({lc_time:.2f} s, {len(lc_chunks):,} chunks)")
    for doc_type in ("statute", "auto"):
        dc_time, result = best_time(on_fresh_texts(lambda t: domainchunk.chunk(t, doc_type=doc_type, max_chars=1000),
                                                   text, args.repeat), args.repeat)
        print(f"domainchunk doc_type={doc_type:8}:          {mb / dc_time:8.2f} MB/s  ({dc_time:.2f} s, "
              f"{len(result.chunks):,} chunks)  ratio {lc_time / dc_time:.3f}x langchain")

    one_mb = build_text(files, 1.0)
    small, large = (peak_memory(lambda t=t: domainchunk.chunk(t, doc_type="statute", max_chars=1000)) for t in (one_mb, text))
    small_mb = len(one_mb.encode("utf-8")) / 1e6
    print(f"peak memory (tracemalloc): {small_mb:.1f} MB text → {small / 1e6:.1f} MB; {mb:.1f} MB text → "
          f"{large / 1e6:.1f} MB; ratio {large / small:.1f} for {mb / small_mb:.1f}x the text")

    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(domainchunk.chunk, text, doc_type="statute", max_chars=1000)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
