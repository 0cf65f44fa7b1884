"""Start-up and per-call overhead (issue 13): `import domainchunk`, the `chunk` command on one
tiny file, and what one `chunk()` call costs before any work.

The commands run as a user's would: from an installed package's byte-compiled modules (here
written once into a temporary ``PYTHONPYCACHEPREFIX``, as pip does at install time, even where
``PYTHONDONTWRITEBYTECODE`` is set) and with the rule cache warm (a temporary
``DOMAINCHUNK_CACHE_DIR``, filled by the first run); one row gives the first run with an empty
rule cache. Each figure is the median of ``--rounds`` runs (min–max), the bare interpreter's
time subtracted, measured alternately with it so load on a shared machine hits both alike; in
CPU time (user + system, the command's worker processes included) and in wall-clock time,
which on a loaded machine also counts the time other processes held the cores.

The per-call row times ``chunk_document`` on a two-line statute with its work (outline and
chunks, ids and links) replaced by that work's results, over ``--calls`` calls a round: what
remains is argument checks, the rules look-up, the type, the document copy and the result.

    python benchmarks/bench_startup.py [--rounds 7] [--calls 2000]
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from paired import installed_env, row, seconds  # noqa: E402

TINY = "第一条 为了规范。\n第二条 本法适用。\n"


def _env(tmp: Path, cache: Path) -> dict[str, str]:
    return {**installed_env(tmp / "pycache"), "DOMAINCHUNK_CACHE_DIR": str(cache)}


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one command (with the processes it waited for)."""
    cpu = _child_cpu()
    wall = seconds(lambda: subprocess.run([sys.executable, *argv], check=True, capture_output=True, env=env))
    return wall, _child_cpu() - cpu


def _over_bare(argv: list[str], env: Callable[[], dict[str, str]], rounds: int) -> tuple[list[float], list[float]]:
    """Milliseconds of CPU and of wall-clock time a command takes over a bare interpreter, per
    round (the two run back to back)."""
    _run(argv, env())  # byte-compile the modules, fill the rule cache
    cpu, wall = [], []
    for _ in range(rounds):
        ours, bare = _run(argv, env()), _run(["-c", "pass"], env())
        wall.append((ours[0] - bare[0]) * 1000)
        cpu.append((ours[1] - bare[1]) * 1000)
    return cpu, wall


def _rows(what: str, figures: tuple[list[float], list[float]], target: str) -> None:
    cpu, wall = figures
    row(f"{what}, CPU ms over a bare interpreter", cpu, target, " ms")
    row(f"{what}, wall-clock ms over a bare interpreter", wall, target, " ms")


def startup_rows(rounds: int, tmp: Path) -> None:
    tiny = tmp / "tiny.txt"
    tiny.write_text(TINY, encoding="utf-8")
    warm = tmp / "rule-cache"
    chunk = ["-m", "domainchunk", "chunk", str(tiny), "-o", str(tmp / "tiny.jsonl"), "-q"]
    _rows("`import domainchunk`", _over_bare(["-c", "import domainchunk"], lambda: _env(tmp, warm), rounds),
          "≤ 120 ms")
    _rows("`domainchunk chunk` one tiny file", _over_bare(chunk, lambda: _env(tmp, warm), rounds), "≤ 300 ms")

    def cold() -> dict[str, str]:  # a fresh, empty rule cache for every run
        return _env(tmp, Path(tempfile.mkdtemp(dir=tmp, prefix="cold-")))

    _rows("the same, first run (an empty rule cache: every pattern compiled to validate)",
          _over_bare(chunk, cold, rounds), "(a cost)")


def per_call_overhead(rounds: int, calls: int) -> tuple[list[float], list[float]]:
    """CPU microseconds of one ``chunk_document`` call on a tiny text with its work (outline and
    chunks, ids and links) replaced by that work's results, per round; and of the whole call."""
    from domainchunk import pipeline
    from domainchunk.readers.text import text_document
    from domainchunk.rulefile import load_rules

    doc = text_document(TINY, "<text>", markdown=False)
    rules = load_rules()["statute"]
    whole = lambda: [pipeline.chunk_document(doc, doc_type="statute") for _ in range(calls)]  # noqa: E731
    whole()  # warm: compiled patterns, imports
    outline, rows = pipeline.rows_with_rules(doc.model_copy(), rules, rules.max_chars)
    done = pipeline.finish(doc, [dict(r) for r in rows], fingerprint="", max_chars=rules.max_chars, size=None, pack=False, parents=False)
    real = pipeline.rows_with_rules, pipeline.finish
    overhead, total = [], []
    try:
        for _ in range(rounds):
            pipeline.rows_with_rules, pipeline.finish = real
            total.append(cpu_seconds(whole) / calls * 1e6)
            pipeline.rows_with_rules = lambda *args, **kw: (outline, rows)
            pipeline.finish = lambda *args, **kw: done
            overhead.append(cpu_seconds(whole) / calls * 1e6)
    finally:
        pipeline.rows_with_rules, pipeline.finish = real
    return overhead, total


def cpu_seconds(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def per_call_rows(rounds: int, calls: int) -> None:
    overhead, total = per_call_overhead(rounds, calls)
    row(f"per chunk() call before any work (CPU µs; a two-line statute, its work stubbed, {calls} calls a round)",
        overhead, "≤ 50 µs", " µs")
    row("the whole call on that text, work included (CPU µs; for scale)", total, "", " µs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    print(f"median of {args.rounds} rounds (min–max)\n\n| what | figure | target |\n|---|---|---|")
    with tempfile.TemporaryDirectory() as name:
        startup_rows(args.rounds, Path(name))
    per_call_rows(args.rounds, args.calls)


if __name__ == "__main__":
    main()
