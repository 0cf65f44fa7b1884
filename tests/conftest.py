from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    if not (CORPUS / "docs").is_dir() or not (CORPUS / "gold").is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


def score_files(files: list[Path], tmp_path: Path, max_chars: int = 1000) -> dict:
    """Chunk ``files`` with the CLI and score them with ../shared/tools/score.py (as users would)."""
    out = tmp_path / "pred.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "domainchunk", "chunk", *map(str, files), "-o", str(out), "--max-chars", str(max_chars)],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    scorer = SHARED / "tools" / "score.py"
    res = subprocess.run(
        [sys.executable, str(scorer), "--gold", str(CORPUS / "gold"), "--pred", str(out),
         "--max-chars", str(max_chars), "--only-present", "--per-doc", "--json"],
        capture_output=True, text=True, check=True,
    )
    return json.loads(res.stdout)


def load_scorer():
    spec = importlib.util.spec_from_file_location("score", SHARED / "tools" / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
