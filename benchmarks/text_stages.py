"""Where a text's time goes, per document type: CPU milliseconds per call, stage by stage.

Each type's documents (as ``run_all.py`` takes them: the shared corpus where present, else
corpora/) are chunked as one text, warm (``--warm`` calls first, so compiled patterns and the
stdlib scans a process buys are in place), then ``--calls`` times with every stage below
timed in process CPU time, which other load on a shared machine disturbs far less than the
wall clock. Stages nest (``find_headings`` holds ``candidates`` and ``assign``; ``chunk_rows``
holds ``chunk_metadata``, ``split_section`` and ``variant``), so a row does not sum to its total.
LangChain's splitter on the same text is the last column, for the ratio the issue's table reads.

    python benchmarks/text_stages.py [--types lab_report,medical_record] [--calls 10] [--warm 3]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import domainchunk  # noqa: E402
from domainchunk import chunker, outline, pipeline  # noqa: E402
from domainchunk.chunkers import contract, judgment, lab, medical, statute  # noqa: E402
from run_all import langchain_splitter, typed_texts  # noqa: E402

_spent: Counter[str] = Counter()


def _timed(module: Any, name: str, stage: str) -> None:
    """Count the CPU time of ``module.name`` (as the caller looks it up there) under ``stage``."""
    fn: Callable[..., Any] = getattr(module, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _spent[stage] += time.process_time() - began

    setattr(module, name, timed)


STAGES = [
    (pipeline, "text_document", "reader"), (outline, "view_of", "view"),
    (chunker, "build_outline", "outline"), (outline, "find_headings", "find_headings"),
    (outline, "_candidates", "candidates"), (outline, "_assign", "assign"),
    (chunker, "chunk_rows", "chunk_rows"), (chunker, "split_section", "split_section"),
    (chunker, "_variant", "variant"), (pipeline, "finish", "finish"),
    *((m, "chunk_metadata", "chunk_metadata") for m in (contract, judgment, lab, medical, statute)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--types", default="statute,contract,judgment,lab_report,medical_record")
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--warm", type=int, default=3)
    args = ap.parse_args()
    for module, name, stage in STAGES:
        _timed(module, name, stage)
    texts = typed_texts()
    splitter = langchain_splitter()
    names = list(dict.fromkeys(stage for _, _, stage in STAGES))
    print("| type | chars | ms/call | " + " | ".join(names) + " | LangChain ms |")
    print("|---" * (len(names) + 4) + "|")
    for doc_type in args.types.split(","):
        text = texts[doc_type]
        for _ in range(args.warm):
            domainchunk.chunk_text(text, doc_type=doc_type, max_chars=1000)
            splitter.split_text(text)
        _spent.clear()
        began = time.process_time()
        for _ in range(args.calls):
            domainchunk.chunk_text(text, doc_type=doc_type, max_chars=1000)
        total = (time.process_time() - began) / args.calls
        began = time.process_time()
        for _ in range(args.calls):
            splitter.split_text(text)
        peer = (time.process_time() - began) / args.calls
        cells = " | ".join(f"{_spent[s] / args.calls * 1e3:.1f}" for s in names)
        print(f"| {doc_type} | {len(text):,} | {total * 1e3:.1f} | {cells} | {peer * 1e3:.2f} |", flush=True)


if __name__ == "__main__":
    main()
