"""Where a text's time goes, per document type: CPU milliseconds per call, stage by stage.

Each type's documents (as ``run_all.py`` takes them: the shared corpus where present, else
corpora/) are chunked as one text, warm (``--warm`` calls first, so compiled patterns and the
stdlib scans a process buys are in place), then ``--calls`` times with every stage below
timed in process CPU time, which other load on a shared machine disturbs far less than the
wall clock. Stages nest (``find_headings`` holds ``candidates`` and ``assign``; ``chunk_rows``
holds ``chunk_metadata``, ``split_section`` and ``variant``), so a row does not sum to its total.
LangChain's splitter on the same text is the last column, for the ratio the issue's table reads.

``--fresh`` asks what the scan-rent policy (``outline._scan_when_it_pays``) saves a new process:
per type, new processes alternately follow the policy and buy at once (the stdlib scan forced),
each timing its first ``--calls`` chunk calls in CPU time after loading the rules; once with
an empty store (the scan compiled) and once with the scans an earlier process stored (read).

``--against ROOT`` compares this tree with another checkout of domainchunk (``main``'s, for a
change's before and after): per type, new processes of the two alternate round by round (which
goes first alternates too), each timing ``--calls`` chunk calls after ``--warm`` in CPU time,
uninstrumented (the stage timers cost a microsecond or two a call, which per chunk is much of
what is measured); the table gives each side's median CPU ms a call (min–max) and the median of
the rounds' ratios, theirs over ours (> 1: this tree is the faster).

    python benchmarks/text_stages.py [--types lab_report,medical_record] [--calls 10] [--warm 3]
    python benchmarks/text_stages.py --fresh [--rounds 3] [--calls 3] [--chars 2000]
    python benchmarks/text_stages.py --against /work/main [--python /work/main/.venv/bin/python] [--rounds 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
# A --timed child of --against imports the domainchunk of the tree it is timing, not this one's.
_TREE = Path(sys.argv[sys.argv.index("--root") + 1]) if "--root" in sys.argv[:-1] else HERE.parent
sys.path[:0] = [str(_TREE), str(HERE)]

import domainchunk  # noqa: E402
from domainchunk import chunker, outline, pipeline  # noqa: E402
from domainchunk.chunkers import contract, judgment, lab, medical, statute  # noqa: E402
from paired import fresh_texts  # noqa: E402
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


def _first_calls(doc_type: str, policy: str, calls: int, chars: int | None) -> None:
    """(In a new process) print the CPU milliseconds of its first ``calls`` chunk calls, the rules
    loaded beforehand; ``policy`` is ``buy`` (the stdlib scan built at the first call, as if it
    paid) or ``policy`` (left to the policy, which buys at once where the store holds the scan)."""
    if policy == "buy":
        outline._scan_when_it_pays = lambda key, levels, size: outline._stdlib_scan(levels)  # type: ignore[assignment]
    from domainchunk.rulefile import load_rules

    load_rules(None, False)
    texts = fresh_texts(typed_texts()[doc_type][:chars], calls)
    began = time.process_time()
    for text in texts:
        domainchunk.chunk_text(text, doc_type=doc_type, max_chars=1000)
    print((time.process_time() - began) * 1e3)


def _fresh(doc_type: str, policy: str, calls: int, chars: int | None, store: str) -> float:
    env = {**os.environ, "DOMAINCHUNK_CACHE_DIR": store}
    cut = [] if chars is None else ["--chars", str(chars)]
    out = subprocess.run([sys.executable, __file__, "--child", doc_type, policy, "--calls", str(calls), *cut],
                         env=env, capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def fresh_table(types: list[str], rounds: int, calls: int, chars: int | None) -> None:
    """Per type and store state, the median CPU ms (min–max) of a new process's first calls under
    the policy and buying at once, alternately, and what buying costs over the policy (> 1: the
    policy saves that much; 1: the policy bought at once too)."""
    print(f"| type | store | policy ms (first {calls} calls) | buy ms | buy / policy |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        stored = os.path.join(tmp, "stored")
        for doc_type in types:
            _fresh(doc_type, "buy", 1, chars, stored)  # an earlier process stores the type's scans
            for state in ("empty", "stored"):
                chose, buy = [], []
                for k in range(rounds):
                    for policy, into in (("policy", chose), ("buy", buy)):
                        store = stored if state == "stored" else os.path.join(tmp, f"empty-{doc_type}-{policy}-{k}")
                        into.append(_fresh(doc_type, policy, calls, chars, store))
                ratios = [b / r for r, b in zip(chose, buy)]
                print(f"| {doc_type} | {state} | {statistics.median(chose):.0f} ({min(chose):.0f}–{max(chose):.0f}) | "
                      f"{statistics.median(buy):.0f} ({min(buy):.0f}–{max(buy):.0f}) | "
                      f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) |", flush=True)


def _timed_calls(doc_type: str, calls: int, warm: int) -> None:
    """(In a new process, on the domainchunk its ``sys.path`` finds first) print the CPU ms a
    call of ``chunk_text`` on the type's text takes, uninstrumented, after ``warm`` calls."""
    text = typed_texts()[doc_type]
    for warm_text in fresh_texts(text, warm):
        domainchunk.chunk_text(warm_text, doc_type=doc_type, max_chars=1000)
    texts = fresh_texts(text, calls)
    began = time.process_time()
    for timed_text in texts:
        domainchunk.chunk_text(timed_text, doc_type=doc_type, max_chars=1000)
    print((time.process_time() - began) / calls * 1e3)


def _side(root: Path, python: str, doc_type: str, calls: int, warm: int) -> float:
    """The CPU ms a call in a new process whose domainchunk is ``root``'s."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([python, __file__, "--timed", doc_type, "--calls", str(calls), "--warm", str(warm),
                          "--root", str(root)], env=env, capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def against_table(types: list[str], root: Path, python: str, rounds: int, calls: int, warm: int) -> None:
    ours_root = HERE.parent
    print(f"| type | this tree ms/call | {root} ms/call | theirs / ours |")
    print("|---|---|---|---|")
    for doc_type in types:
        ours: list[float] = []
        theirs: list[float] = []
        for k in range(rounds):
            order = [(ours_root, sys.executable, ours), (root, python, theirs)]
            for tree, exe, into in (order if k % 2 == 0 else order[::-1]):
                into.append(_side(tree, exe, doc_type, calls, warm))
        ratios = [t / o for o, t in zip(ours, theirs)]
        print(f"| {doc_type} | {statistics.median(ours):.1f} ({min(ours):.1f}–{max(ours):.1f}) | "
              f"{statistics.median(theirs):.1f} ({min(theirs):.1f}–{max(theirs):.1f}) | "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--types", default="statute,contract,judgment,lab_report,medical_record")
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--fresh", action="store_true", help="what a new process pays, renting or buying the scan")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chars", type=int, help="with --fresh: each type's text cut to its first CHARS characters")
    ap.add_argument("--against", type=Path, help="another checkout of domainchunk: its ms a call beside this tree's")
    ap.add_argument("--python", default=sys.executable, help="with --against: the interpreter to run it with")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--timed", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return _first_calls(*args.child, args.calls, args.chars)
    if args.timed:
        return _timed_calls(args.timed, args.calls, args.warm)
    if args.against:
        return against_table(args.types.split(","), args.against.resolve(), args.python, args.rounds, args.calls,
                             args.warm)
    if args.fresh:
        return fresh_table(args.types.split(","), args.rounds, args.calls, args.chars)
    for module, name, stage in STAGES:
        _timed(module, name, stage)
    texts = typed_texts()
    splitter = langchain_splitter()
    names = list(dict.fromkeys(stage for _, _, stage in STAGES))
    print("| type | chars | ms/call | " + " | ".join(names) + " | LangChain ms |")
    print("|---" * (len(names) + 4) + "|")
    for doc_type in args.types.split(","):
        text = texts[doc_type]
        for warm_text in fresh_texts(text, args.warm):
            domainchunk.chunk_text(warm_text, doc_type=doc_type, max_chars=1000)
            splitter.split_text(warm_text)
        ours, theirs = fresh_texts(text, args.calls), fresh_texts(text, args.calls)
        _spent.clear()
        began = time.process_time()
        for timed_text in ours:
            domainchunk.chunk_text(timed_text, doc_type=doc_type, max_chars=1000)
        total = (time.process_time() - began) / args.calls
        began = time.process_time()
        for timed_text in theirs:
            splitter.split_text(timed_text)
        peer = (time.process_time() - began) / args.calls
        cells = " | ".join(f"{_spent[s] / args.calls * 1e3:.1f}" for s in names)
        print(f"| {doc_type} | {len(text):,} | {total * 1e3:.1f} | {cells} | {peer * 1e3:.2f} |", flush=True)


if __name__ == "__main__":
    main()
