from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generalisation import ROOT, SHARED
from scoring import records_by_document, score_directory, summarise

CORPUS = SHARED / "corpus"


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    if not (CORPUS / "docs").is_dir() or not (CORPUS / "gold").is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


def score_files(files: list[Path], tmp_path: Path, max_chars: int = 1000) -> dict:
    """Chunk ``files`` with the CLI (as users would) and score them against ../shared/corpus/gold
    with the suite's scorer: ``{"types": per-type metrics, "docs": per-document rows}``."""
    out = tmp_path / "pred.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "domainchunk", "chunk", *map(str, files), "-o", str(out), "--max-chars", str(max_chars)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    rows = score_directory(CORPUS / "gold", records_by_document(out), max_chars, only_present=True)
    return {"types": summarise(rows), "docs": [row.as_dict() for row in rows]}


_SUMMARY = re.compile(r"^\d+ files?: ")


def messages(stderr: str) -> list[str]:
    """The command's stderr lines without its closing summary line (``12 files: 11 converted, …``)."""
    lines = stderr.splitlines()
    assert lines and _SUMMARY.match(lines[-1]), f"no summary line closes the run: {stderr!r}"
    return lines[:-1]
