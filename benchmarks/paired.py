"""Ours against a peer in the same run, alternating, so load on a shared machine hits both alike."""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Callable


def seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def fresh_texts(text: str, n: int) -> list[str]:
    """``n`` equal strings, each its own object, to be made before any timer starts: the engine keeps
    a text's view by the string's identity, and a document a caller reads is a new string each
    time, so timing one object over and over would leave the view out of every call but the first."""
    return [text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass") for _ in range(n)]


def on_fresh_texts(fn: Callable[[str], object], text: str, calls: int) -> Callable[[], object]:
    """A call of ``fn`` on the next of ``calls`` fresh copies of ``text`` (see :func:`fresh_texts`)."""
    copies = iter(fresh_texts(text, calls))
    return lambda: fn(next(copies))


def paired(ours: Callable[[], object], peer: Callable[[], object], rounds: int) -> list[float]:
    """Per round, the peer's seconds over ours (> 1: ours is faster), the two run back to back."""
    ours(), peer()  # warm: imports, compiled rules, file cache
    return [seconds(peer) / seconds(ours) for _ in range(rounds)]


def row(what: str, ratios: list[float], target: str, unit: str = "x") -> None:
    print(f"| {what} | {statistics.median(ratios):.3f}{unit} ({min(ratios):.3f}–{max(ratios):.3f}) | {target} |",
          flush=True)


def installed_env(pycache: Path) -> dict[str, str]:
    """The environment of a command run as from an installed package: its modules byte-compiled
    once into ``pycache`` (as pip does at install time), even where ``PYTHONDONTWRITEBYTECODE``
    is set, so that a run does not compile the package's sources again (~0.1 s of its start-up)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(pycache)}
