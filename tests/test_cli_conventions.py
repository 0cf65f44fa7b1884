"""Command-line conventions: --version, folders wherever files are taken."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import domainchunk
from conftest import ROOT


def test_cli_version_and_detect_over_a_folder(tmp_path: Path) -> None:
    run = lambda *a: subprocess.run([sys.executable, "-m", "domainchunk", *a], capture_output=True, text=True)  # noqa: E731
    assert run("--version").stdout.strip() == f"domainchunk {domainchunk.__version__}"
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(ROOT / "corpora" / "statute_示范社区管理条例.md", folder / "a.md")
    shutil.copy(ROOT / "corpora" / "judgment_示范民事判决书_二审.txt", folder / "b.txt")
    out = run("detect", str(folder)).stdout
    assert f"{folder / 'a.md'}\tstatute" in out and f"{folder / 'b.txt'}\tjudgment" in out
