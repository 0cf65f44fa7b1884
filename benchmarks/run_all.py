"""The issue-13 table in one command: every figure a ratio against its peer measured in the same run.

Each row runs ours and its peer alternately (ours, peer, ours, peer, …) for
``--rounds`` rounds, so a change of load on the shared machine hits both alike,
and prints the median ratio of the rounds with their min–max. A ratio above 1 is
faster than the peer, except where the row says it is a cost (memory, seconds).
Documents: the shared corpus (../shared/corpus/docs) where present, else the
invented ones in corpora/; nothing is written outside a temporary folder.

    python benchmarks/run_all.py [--rounds 5] [--mb 8] [--files 1000] [--line-kb 32] [--quick]

``--quick`` shrinks every size (1 MB text, 200 files, 3 rounds) for a look in a minute or two.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import bench_batch  # noqa: E402
import bench_docx  # noqa: E402
import bench_pdf_reader  # noqa: E402
import bench_startup  # noqa: E402
import bench_text  # noqa: E402
from paired import on_fresh_texts, paired, row, seconds  # noqa: E402

SHARED_DOCS = ROOT.parent / "shared" / "corpus" / "docs"
# Which file-name prefix holds each type's documents (shared corpus and corpora/ alike).
TYPE_PREFIXES = {"statute": ("statute_",), "contract": ("contract_",), "judgment": ("judgment_",),
                 "lab_report": ("lab_",), "medical_record": ("emr_",)}
LANGCHAIN_SEPARATORS = ["\n\n", "\n", "。", "；", "，", " ", ""]


def typed_texts() -> dict[str, str]:
    """Each type's text documents concatenated (shared corpus if present, else corpora/)."""
    texts = {}
    for doc_type, prefixes in TYPE_PREFIXES.items():
        for folder in (SHARED_DOCS, ROOT / "corpora"):
            files = sorted(p for p in folder.glob("*") if p.name.startswith(prefixes) and p.suffix in (".txt", ".md"))
            if files:
                texts[doc_type] = "\n\n".join(p.read_text(encoding="utf-8") for p in files)
                break
    return texts


def langchain_splitter():
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=0, separators=LANGCHAIN_SEPARATORS,
                                          keep_separator="end")


def text_rows(mb: float, rounds: int, line_kb: int) -> None:
    import domainchunk

    splitter = langchain_splitter()
    text = bench_text.build_text(bench_text.statute_files(), mb)
    size = len(text.encode("utf-8")) / 1e6
    # each call on a new string, as a caller's every document is (paired's warm call takes one more)
    row(f"statute text {size:.1f} MB vs LangChain", paired(
        on_fresh_texts(lambda t: domainchunk.chunk_text(t, doc_type="statute", max_chars=1000), text, rounds + 1),
        on_fresh_texts(splitter.split_text, text, rounds + 1), rounds), "≥ 0.3x")
    for doc_type, body in typed_texts().items():
        row(f"{doc_type} ({len(body):,} chars) vs LangChain", paired(
            on_fresh_texts(lambda t: domainchunk.chunk_text(t, doc_type=doc_type, max_chars=1000), body, rounds + 1),
            on_fresh_texts(splitter.split_text, body, rounds + 1), rounds), "≥ 0.1x")
    # One long line that ends in "；" and holds no colon: a pattern that, from every start, scans
    # to the line's end is quadratic in its length (issue 13: the lab entry pattern). The row is
    # the time per character of a line 4x longer over a short one: 1.0 is linear, 4.0 quadratic.
    # ``--line-kb 1000`` makes it the 1 MB record (minutes while the pattern is quadratic).
    def line_of(chars: int) -> str:
        return ("白细胞计数 6.5 参考 3.5-9.5 " * (chars // 20 + 1))[:chars] + "；"

    short, long = line_of(line_kb * 250), line_of(line_kb * 1000)
    for doc_type in ("lab_report", "medical_record"):
        growth = [(seconds(lambda: domainchunk.chunk_text(long, doc_type=doc_type, max_chars=1000)) / len(long))
                  / (seconds(lambda: domainchunk.chunk_text(short, doc_type=doc_type, max_chars=1000)) / len(short))
                  for _ in range(rounds)]
        row(f"{doc_type}, one {len(long) // 1000} k-char line: time per char over a 4x shorter line (a cost)",
            growth, "1.0 (linear)")
    # A run of word characters with no punctuation or space at all (a garbled extraction) reaches
    # the fallback's word level, where each cut asks which jieba token ends there: finding the
    # run around an offset by walking back to its start was quadratic in the run's length.
    run_short, run_long = "字" * (line_kb * 250), "字" * (line_kb * 1000)
    growth = [(seconds(lambda: domainchunk.chunk_text(run_long, max_chars=1000)) / len(run_long))
              / (seconds(lambda: domainchunk.chunk_text(run_short, max_chars=1000)) / len(run_short))
              for _ in range(rounds)]
    row(f"one {len(run_long) // 1000} k-char run of words without punctuation: time per char over a 4x shorter run (a cost)",
        growth, "1.0 (linear)")


def pdf_rows(rounds: int) -> None:
    files = bench_pdf_reader.default_files()
    groups = {"real (shared) PDFs": [f for f in files if f.parent == SHARED_DOCS],
              "corpora/office PDFs (tables, columns)": [f for f in files if f.parent != SHARED_DOCS]}
    for what, group in groups.items():
        if not group:
            continue
        blobs = [f.read_bytes() for f in group]
        row(f"PDF chunk() vs pdfplumber extract_text loop, {what}", paired(
            lambda: bench_pdf_reader.pipeline_pass(blobs), lambda: bench_pdf_reader.plumber_pass(blobs), rounds),
            "≥ 6x real, ≥ 4x tables")
        row(f"  pdfium's own page and text-page load alone vs pdfplumber, {what} (the reader's ceiling)", paired(
            lambda: bench_pdf_reader.pdfium_pass(blobs), lambda: bench_pdf_reader.plumber_pass(blobs), rounds), "—")


def batch_rows(files: int, small: int, large: int, rounds: int, tmp: Path) -> None:
    sources = bench_batch.corpus_files()
    mixed = bench_batch.make_folder(tmp / "mixed", files, sources)
    out = tmp / "out"
    # Seconds and CPU of each run, --jobs 2 and --jobs 1 alternating; the machine's own two-process
    # speed-up on a pure-Python loop, measured between them, says what the seconds could show now.
    runs: dict[int, list[tuple[float, int, float]]] = {1: [], 2: []}
    ceilings = []
    bench_batch.run(mixed, out, 1, sample=False)  # warm: byte-compiled modules, file cache
    for _ in range(rounds):
        for jobs in (2, 1):
            runs[jobs].append(bench_batch.run_with_cpu(mixed, out, jobs, sample=False))
        ceilings.append(bench_batch.machine_ceiling())
    row(f"--jobs 2 vs --jobs 1, {files} mixed files", [one[0] / two[0] for one, two in zip(runs[1], runs[2])], "≥ 1.8x")
    row("  the machine now: a pure-Python loop in 2 processes vs 1 (what any batch could show)", ceilings, "2.0x idle")
    row("  --jobs 2 on two idle cores, at most: 2 x CPU of --jobs 1 over CPU of --jobs 2",
        [2 * one[2] / two[2] for one, two in zip(runs[1], runs[2])], "≥ 1.8x")
    few, many = (bench_batch.make_folder(tmp / f"n{n}", n, sources) for n in (small, large))
    peaks = [bench_batch.run(many, out, 2, sample=True)[1] / bench_batch.run(few, out, 2, sample=True)[1]
             for _ in range(max(1, rounds // 2))]
    row(f"peak PSS of the process tree, {large} vs {small} files (a cost)", peaks, "≤ 1.3x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mb", type=float, default=8.0, help="size of the statute text")
    ap.add_argument("--files", type=int, default=1000, help="files for --jobs 2 vs --jobs 1")
    ap.add_argument("--small", type=int, default=20)
    ap.add_argument("--large", type=int, default=2000)
    ap.add_argument("--line-kb", type=int, default=32, help="thousands of characters of the one-line record")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=("text", "pdf", "docx", "startup", "batch"), action="append")
    args = ap.parse_args()
    if args.quick:
        args.rounds, args.mb, args.files, args.large = 3, 1.0, 200, 400
    print(f"median of {args.rounds} alternating rounds (min–max)\n\n| what | ratio | target |\n|---|---|---|")
    only = set(args.only or ("text", "pdf", "docx", "startup", "batch"))
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if "text" in only:
            text_rows(args.mb, args.rounds, args.line_kb)
        if "pdf" in only:
            pdf_rows(args.rounds)
        if "docx" in only:
            bench_docx.docx_rows(args.rounds)
        if "startup" in only:
            bench_startup.startup_rows(args.rounds, tmp)
            bench_startup.per_call_rows(args.rounds, 2000)
        if "batch" in only:
            batch_rows(args.files, args.small, args.large, args.rounds, tmp)


if __name__ == "__main__":
    main()
