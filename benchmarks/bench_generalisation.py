"""Generalisation: every corpus under every re-layout, scored per document type, as a Markdown table.

Corpora: corpora/ (ours), ../shared/corpus (shared), ../shared/corpus-large in full
(large); variants: the document as it is, the text re-layouts of tests/relayout.py
(no spaces, hard-wrapped at 36 and at 30, no spaces and wrapped at 36 at once,
page furniture, glued page numbers, CRLF, full-width indentation, Markdown marks
removed, an extractor's spaces after full-width marks and around Latin runs, Markdown
headings at one depth or as bold lines …: every one of tests/relayout.py) and, for the
smallest text documents of each type, printed to PDF and saved to DOCX (heading styles,
none, tables, every printed line a paragraph as a PDF-to-Word converter writes it). Chunking runs in-process with ``max_chars=1000``; scores are those of
../shared/tools/score.py (tests/scoring.py). Cells below the issue's target
(recall, path and type at least 0.99, corpus-large 0.999; spurious at most 0.01)
are bold.

    python benchmarks/bench_generalisation.py [--corpus ours,shared,large] [--variants orig,nospace,...] [--per-doc]
    python benchmarks/bench_generalisation.py --update-floors   # rewrite tests/metamorphic_floors.yaml

``--update-floors`` measures what the suite asserts (ours, shared and the
corpus-large sample under every variant; corpus-large in full as it is) and
writes today's floors, keeping the entries of corpora that are absent here.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import generalisation as g  # noqa: E402


def _cell(metric: str, value: float | None, target: float) -> str:
    if value is None:
        return "–"
    text = f"{value:.3f}"
    below = value > target if metric in g.AT_MOST else value < target
    return f"**{text}**" if below else text


def markdown_table(corpus: str, table: dict[str, dict[str, dict]]) -> list[str]:
    targets = g.targets_for(corpus)
    lines = [
        f"| {corpus} variant | type | docs | recall | spurious | path | type acc | oversize | s |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for variant, by_type in table.items():
        for doc_type, s in by_type.items():
            cells = " | ".join(_cell(m, s[m], targets[m]) for m in ("recall", "spurious", "path_acc", "type_acc"))
            lines.append(f"| {variant} | {doc_type} | {s['docs']} | {cells} | {s['oversize']} | {s['seconds']:.1f} |")
    return lines


def per_doc_lines(corpus: str, variants: list[str]) -> list[str]:
    """The documents that lose something under each variant: where to look first."""
    lines = [f"| {corpus} variant | document | type (predicted) | units | found | path ok | chunks | spurious |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for variant in variants:
        for r in g.score_variant(corpus, variant):
            if r.found < r.units or r.path_ok < r.found or r.spurious or not r.type_ok:
                lines.append(f"| {variant} | {r.doc} | {r.gold_type} ({r.pred_type}) | {r.units} | {r.found} "
                             f"| {r.path_ok} | {r.chunks} | {r.spurious} |")
    return lines


def update_floors() -> None:
    measured = g.measure_floored()
    previous = g.load_floors() if g.FLOORS_FILE.is_file() else {}
    floors = {**previous, **g.floors_from(measured)}
    g.write_floors({corpus: floors[corpus] for corpus in g.FLOORED if corpus in floors})
    kept = sorted(set(previous) - set(measured))
    print(f"wrote {g.FLOORS_FILE.relative_to(ROOT)}: measured {', '.join(measured)}"
          + (f"; kept {', '.join(kept)} (absent here)" if kept else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default="ours,shared,large")
    ap.add_argument("--variants", default=",".join(g.VARIANTS))
    ap.add_argument("--update-floors", action="store_true", help="rewrite tests/metamorphic_floors.yaml")
    ap.add_argument("--per-doc", action="store_true", help="then list the documents that lose units, paths or type")
    args = ap.parse_args()
    if args.update_floors:
        update_floors()
        return 0
    variants = [v for v in args.variants.split(",") if v]
    unknown = set(variants) - set(g.VARIANTS)
    if unknown:
        ap.error(f"unknown variants {sorted(unknown)}; known: {', '.join(g.VARIANTS)}")
    started = time.perf_counter()
    for corpus in args.corpus.split(","):
        docs = g.corpus_documents(corpus)
        if not docs:
            print(f"{corpus}: absent, skipped\n")
            continue
        print("\n".join(markdown_table(corpus, g.measure(corpus, variants))) + "\n")
        if args.per_doc:
            print("\n".join(per_doc_lines(corpus, variants)) + "\n")
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
