"""The command line: usage errors (exit 2, one line), progress output, light start-up."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from domainchunk.batch import FileEvent, Input, Summary
from domainchunk.cli import Progress, main

LAW = "示范法\n\n第一条 为了示范，制定本法。\n\n第二条 本法自2020年1月1日起施行。\n"
HEAVY = ("jieba", "pdfplumber", "docx")


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "domainchunk", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def law(tmp_path: Path) -> Path:
    path = tmp_path / "law.txt"
    path.write_text(LAW, encoding="utf-8")
    return path


def test_import_loads_no_heavy_library():
    code = ("import domainchunk, sys; "
            "assert 'jieba' not in sys.modules and 'pdfplumber' not in sys.modules and 'docx' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_help_loads_no_heavy_library():
    code = ("import sys, contextlib, io\nfrom domainchunk.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    for argv in (['--help'], ['chunk', '--help']):\n"
            "        try:\n            main(argv)\n        except SystemExit:\n            pass\n"
            f"assert not [m for m in {HEAVY!r} if m in sys.modules], sys.modules.keys()")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_version_loads_no_rules():
    """--version and argument errors end before the rules (and pydantic with them) are imported."""
    code = ("import sys, contextlib, io\nfrom domainchunk.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    for argv in (['--version'], ['chunk']):\n"
            "        try:\n            main(argv)\n        except SystemExit:\n            pass\n"
            "assert not [m for m in ('pydantic', 'domainchunk.rulefile') if m in sys.modules], sys.modules.keys()")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("args", [["-j", "1", "--no-timeout"], ["-j", "2"]])
def test_documents_are_converted_with_the_collector_on(law: Path, tmp_path: Path, args: list[str], monkeypatch):
    """main() pauses the cyclic collector while the command starts; it runs again before the first
    document, in this process and in the workers forked from it, and is left as main() found it."""
    import gc

    import domainchunk.cli as cli_module
    from domainchunk import batch

    seen = tmp_path / "seen"
    seen.mkdir()
    convert_file = batch.convert_file

    def recording(path, options):
        (seen / f"{Path(path).name}.{gc.isenabled()}").touch()  # a file: a forked worker writes it too
        return convert_file(path, options)

    monkeypatch.setattr(batch, "convert_file", recording)
    # The workers are forked, so that they run the patched function: a thread another test left
    # running would send them to the fork server instead, where this process's patch never reaches.
    monkeypatch.setattr(cli_module.threading, "active_count", lambda: 1)
    other = tmp_path / "other.txt"
    other.write_text(LAW, encoding="utf-8")
    assert main(["chunk", str(law), str(other), "-o", str(tmp_path / "out.jsonl"), "-q", *args]) == 0
    assert sorted(p.name for p in seen.iterdir()) == ["law.txt.True", "other.txt.True"]
    assert gc.isenabled()
    gc.disable()
    try:
        assert main(["chunk", str(law), "-o", str(tmp_path / "out.jsonl"), "-q", *args]) == 0
        assert not gc.isenabled()  # a caller that had turned it off keeps it off
    finally:
        gc.enable()


def test_unknown_doc_type_is_a_usage_error_in_one_line(law: Path):
    proc = cli("chunk", str(law), "--doc-type", "recipe")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "unknown doc_type 'recipe'" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("args", [["--jobs", "0"], ["--timeout", "0"], ["--max-chars", "0"], ["--rules", "/nonexistent"]])
def test_bad_options_are_usage_errors(law: Path, args: list[str], capsys):
    assert main(["chunk", str(law), *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_no_inputs_and_missing_list_are_usage_errors(tmp_path: Path, capsys):
    assert main(["chunk", str(tmp_path)]) == 2
    assert "no input files" in capsys.readouterr().err
    assert main(["chunk", f"@{tmp_path / 'missing.txt'}"]) == 2
    assert "cannot read list file" in capsys.readouterr().err


def test_missing_file_fails_the_batch_not_the_command(law: Path, tmp_path: Path, capsys):
    code = main(["chunk", str(tmp_path / "gone.txt"), str(law), "-j", "1"])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 1 and lines[0] == f"domainchunk: {tmp_path / 'gone.txt'}: file not found"
    assert lines[1:] and lines[-1].startswith("2 files: 1 converted, 1 failed")  # the closing summary
    sources = [json.loads(line)["source"] for line in out.splitlines()]
    assert len(sources) >= 2 and set(sources) == {str(law)}


def test_one_summary_line_when_not_a_terminal_and_verbose_logs_each_file(law: Path, tmp_path: Path):
    plain = cli("chunk", str(law), "-o", str(tmp_path / "o.jsonl"))
    assert plain.returncode == 0 and plain.stderr.startswith("1 files: 1 converted;") and plain.stderr.count("\n") == 1
    assert cli("chunk", str(law), "-o", str(tmp_path / "o.jsonl"), "-q").stderr == ""
    loud = cli("chunk", str(law), "-o", str(tmp_path / "o.jsonl"), "-v")
    assert loud.stderr.startswith("done    ") and str(law) in loud.stderr and " chunks " in loud.stderr


def test_progress_line_and_summary():
    stream = io.StringIO()
    progress = Progress(2, stream, enabled=True)
    progress.update(FileEvent(Input(Path("a.txt"), Path("a.txt")), "done", chunks=5))
    progress.update(FileEvent(Input(Path("b.txt"), Path("b.txt")), "failed"))
    line = stream.getvalue().split("\r")[-1]
    assert "2/2 files" in line and "5 chunks" in line and "1 errors" in line and "files/s" in line and "ETA" in line
    progress.finish(Summary(total=2, done=1, failed=1, chunks=5, seconds=0.5, errors_file=Path("errors.jsonl")))
    summary = stream.getvalue().split("\r\x1b[K")[-1]
    assert summary == "2 files: 1 converted, 1 failed (see errors.jsonl); 5 chunks in 0.5s (4.0 files/s)\n"


def test_progress_without_a_terminal_is_the_summary_alone_and_quiet_is_silent():
    for summary, expected in ((True, "1 files: 1 converted; 1 chunks in 0.1s (10.0 files/s)\n"), (False, "")):
        stream = io.StringIO()
        progress = Progress(1, stream, enabled=False, summary=summary)
        progress.update(FileEvent(Input(Path("a.txt"), Path("a.txt")), "done", chunks=1))
        progress.finish(Summary(total=1, done=1, chunks=1, seconds=0.1))
        assert stream.getvalue() == expected


def test_other_subcommands_still_work(law: Path):
    assert cli("rules", "list").returncode in (0, 1)  # 1 only while a rule file being written is invalid
    detect = cli("detect", str(law))
    assert detect.stdout.startswith(f"{law}\t")


@pytest.mark.parametrize("suffixes, loaded, absent", [
    ({".txt", ".md"}, [], ["domainchunk.readers.docx", "domainchunk.readers.pdf", "pdfplumber", "jieba"]),
    ({".docx", ".pdf"}, ["domainchunk.readers.docx", "domainchunk.readers.pdf", "pdfplumber"], ["jieba"]),
])
def test_workers_fork_from_a_parent_that_loaded_only_what_the_files_need(suffixes, loaded, absent):
    """Warming for several workers imports the readers of the batch's kinds of file once, before the
    fork, and compiles the detector's signals; jieba waits for a worker that needs it."""
    code = ("import sys\nfrom domainchunk.cli import worker_context\nfrom domainchunk.rulefile import load_rules\n"
            f"worker_context(warm=True, suffixes={sorted(suffixes)!r})\n"
            "signals = [s for r in load_rules().values() for s in r.detect.signals]\n"
            "assert all('regex' in s.__dict__ for s in signals), 'signals not compiled'\n"
            f"assert all(m in sys.modules for m in {loaded!r}), 'not loaded'\n"
            f"assert not [m for m in {absent!r} if m in sys.modules], 'loaded'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
