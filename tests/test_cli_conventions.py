"""Command-line conventions: --version, folders wherever files are taken."""
from __future__ import annotations

import json
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


def _chunk(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "domainchunk", "chunk", *args], input=stdin, capture_output=True)


def test_dash_reads_one_document_from_standard_input(tmp_path: Path) -> None:
    text = (ROOT / "corpora" / "statute_示范社区管理条例.md").read_bytes()
    piped = _chunk("-", stdin=text)
    assert piped.returncode == 0, piped.stderr
    records = [json.loads(line) for line in piped.stdout.decode().splitlines()]
    expected = domainchunk.chunk_text(text.decode("utf-8"))
    assert [r["text"] for r in records] == [c.text for c in expected.chunks]
    assert {r["source"] for r in records} == {"-"}
    pdf = (ROOT / "corpora" / "office" / "statute_示例省电梯安全管理条例.pdf").read_bytes()
    out = tmp_path / "pdf.jsonl"
    assert _chunk("-", "-o", str(out), stdin=pdf).returncode == 0  # bytes are sniffed: a PDF is read as a PDF
    assert [json.loads(line)["pages"] for line in out.read_text(encoding="utf-8").splitlines()][-1] != []


def test_dash_is_read_alone() -> None:
    proc = _chunk("-", str(ROOT / "corpora" / "statute_示范通知.txt"), stdin=b"x")
    assert proc.returncode == 2 and b"only path" in proc.stderr


def test_a_summary_line_even_when_stderr_is_not_a_terminal_unless_quiet(tmp_path: Path) -> None:
    source = str(ROOT / "corpora" / "statute_示范通知.txt")
    loud = _chunk(source, "-o", str(tmp_path / "a.jsonl"))
    assert loud.returncode == 0 and loud.stderr.decode().strip().startswith("1 files: 1 converted")
    assert b"\x1b[" not in loud.stderr  # no terminal control codes into a log
    quiet = _chunk(source, "-o", str(tmp_path / "b.jsonl"), "-q")
    assert quiet.returncode == 0 and quiet.stderr == b""
