"""Batch conversion: inputs, mirroring, order, errors, resume, atomic writes, time limit, workers."""
from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import sys
from pathlib import Path

import pytest

from conftest import messages

from bad_inputs import docx_bomb, encrypted_office_file
from domainchunk import batch
from domainchunk.batch import AtomicFile, Batch, Options, WorkerFailure, collect_inputs, run_batch, run_ordered
from domainchunk.cli import main
from domainchunk.rulefile import builtin_rules_dir


def statute_text(title: str, articles: int, filler: str = "应当依照本法的规定履行相应的义务和职责。") -> str:
    """An invented statute: a title, two chapters, numbered articles."""
    lines = [title, "", "第一章 总则", ""]
    for n in range(1, articles + 1):
        if n == articles // 2 + 1:
            lines += ["第二章 附则", ""]
        lines += [f"第{n}条 {title}第{n}条的内容，{filler}", ""]
    return "\n".join(lines) + "\n本法自2020年1月1日起施行。\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A folder of good and bad inputs, bad ones in the middle of the order."""
    root = tmp_path / "docs"
    (root / "a").mkdir(parents=True)
    (root / "b" / "deep").mkdir(parents=True)
    (root / "a" / "01_law.txt").write_text(statute_text("甲法", 6), encoding="utf-8")
    (root / "a" / "02_empty.txt").write_bytes(b"")
    (root / "a" / "03_junk.txt").write_bytes(bytes(range(256)) * 8)
    (root / "b" / "04_not_zip.docx").write_bytes(b"this is not a zip archive at all")
    (root / "b" / "05_notes.md").write_text("# 乙条例\n\n" + statute_text("乙条例", 4), encoding="utf-8")
    (root / "b" / "deep" / "06_law.txt").write_text(statute_text("丙法", 3), encoding="utf-8")
    (root / "b" / "ignored.json").write_text("{}", encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.txt").write_text(statute_text("丁法", 2), encoding="utf-8")
    return root


GOOD = ["a/01_law.txt", "b/05_notes.md", "b/deep/06_law.txt"]
EMPTY = ["a/02_empty.txt"]  # a warning and an empty output, not a failure
BAD = ["a/03_junk.txt", "b/04_not_zip.docx"]
SIDE = "_domainchunk"  # the sidecar folder: manifest and errors


def rels(inputs) -> list[str]:
    return [i.rel.as_posix() for i in inputs]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(["chunk", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------ inputs

def test_folder_is_recursive_sorted_and_takes_readable_files(docs: Path):
    assert rels(collect_inputs([str(docs)])) == sorted(GOOD + EMPTY + BAD)


def test_glob_selects_by_name_or_relative_path(docs: Path):
    assert rels(collect_inputs([str(docs)], ["*.md", "*.json"])) == ["b/05_notes.md", "b/ignored.json"]
    assert rels(collect_inputs([str(docs)], ["b/deep/*"])) == ["b/deep/06_law.txt"]


def test_list_file_and_mirror_base(docs: Path, tmp_path: Path):
    listing = tmp_path / "paths.txt"
    listing.write_text(f"# a comment\n{docs / 'b' / 'deep' / '06_law.txt'}\n\n{docs / 'a'}\n", encoding="utf-8")
    inputs = collect_inputs([f"@{listing}", str(docs / "a" / "01_law.txt")])  # the duplicate is taken once
    assert rels(inputs) == ["b/deep/06_law.txt", "a/01_law.txt", "a/02_empty.txt", "a/03_junk.txt"]


def test_inputs_keep_the_file_their_path_leads_to(docs: Path, tmp_path: Path):
    """An input's key (the manifest's name for it) is the real path found when the inputs were
    collected, a link's target included; an Input made by hand resolves its path when asked."""
    link = tmp_path / "linked.txt"
    link.symlink_to(docs / "a" / "01_law.txt")
    inputs = collect_inputs([str(docs / "b"), str(link)])
    assert [i.key for i in inputs] == [os.path.realpath(i.path) for i in inputs]
    assert inputs[-1].key == str((docs / "a" / "01_law.txt").resolve())
    assert all(i.real_path for i in inputs)
    assert batch.Input(link, Path("linked.txt")).key == inputs[-1].key


def test_outputs_are_not_taken_as_inputs(docs: Path):
    assert rels(collect_inputs([str(docs)], skip=[docs / "b"])) == ["a/01_law.txt", "a/02_empty.txt", "a/03_junk.txt"]


# ------------------------------------------------------------ output, order, errors

def test_output_folder_mirrors_the_tree_and_records_errors(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    code, stdout, err = run([str(docs), "-o", f"{out}/", "-j", "2", "-q"], capsys)
    assert code == 1 and stdout == ""
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert made == sorted([f"{g}.jsonl" for g in GOOD + EMPTY] + [f"{SIDE}/errors.jsonl", f"{SIDE}/manifest.jsonl"])
    law = records(out / "a" / "01_law.txt.jsonl")
    assert law[0]["source"] == str(docs / "a" / "01_law.txt") and law[0]["doc_type"] == "statute"
    assert (out / "a" / "02_empty.txt.jsonl").read_text(encoding="utf-8") == ""
    errors = records(out / SIDE / "errors.jsonl")
    assert [(Path(e["file"]).name, e["stage"], e["kind"]) for e in errors] == [
        ("03_junk.txt", "read", "ReadError"), ("04_not_zip.docx", "read", "ReadError")]
    assert all(e["message"] for e in errors)
    lines = err.strip().splitlines()  # one line per bad file and per warning, naming it; no traceback
    assert len(lines) == 3 and all(line.startswith("domainchunk: ") for line in lines)
    assert "Traceback" not in err and "warning: " in lines[0] and "02_empty.txt: empty file" in lines[0]


def test_output_is_identical_whatever_the_number_of_jobs(docs: Path, tmp_path: Path, capsys):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run([str(docs), "-o", str(one), "-j", "1"], capsys)[0] == 1
    assert run([str(docs), "-o", str(two), "-j", "2"], capsys)[0] == 1
    assert one.read_bytes() == two.read_bytes()
    assert [r["source"] for r in records(one)] == sorted([r["source"] for r in records(one)])  # input order
    assert (tmp_path / SIDE / "one.jsonl.errors.jsonl").is_file()  # beside the output file, named after it


def test_standard_output_without_o(docs: Path, capsys):
    code, stdout, _ = run([str(docs / "a" / "01_law.txt"), "-j", "1"], capsys)
    assert code == 0 and [json.loads(line)["index"] for line in stdout.splitlines()] == list(range(7))


def test_a_clean_rerun_removes_the_stale_errors_file(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    run([str(docs), "-o", f"{out}/", "-q"], capsys)
    for rel in BAD:
        (docs / rel).unlink()
    assert run([str(docs), "-o", f"{out}/", "-q"], capsys)[0] == 0
    assert not (out / SIDE / "errors.jsonl").exists()


def test_unexpected_exception_in_a_document_becomes_a_record(docs: Path, tmp_path: Path, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("domainchunk.pipeline.chunk_document", broken)
    code, _, err = run([str(docs / "a" / "01_law.txt"), "-o", str(tmp_path / "x.jsonl"), "-j", "1"], capsys)
    assert code == 1
    assert records(tmp_path / SIDE / "x.jsonl.errors.jsonl") == [{"file": str(docs / "a" / "01_law.txt"), "stage": "chunk",
                                                   "kind": "ZeroDivisionError", "message": "division by zero"}]
    assert messages(err) == [f"domainchunk: {docs / 'a' / '01_law.txt'}: ZeroDivisionError: division by zero"]


# ------------------------------------------------------------ resume

def events(inputs, out: Path, to_dir: bool, **kw) -> dict[str, str]:
    seen: dict[str, str] = {}
    run_batch(Batch(inputs, output=out, to_dir=to_dir, resume=True, **kw),
              lambda e: seen.__setitem__(e.input.rel.as_posix(), e.status))
    return seen


@pytest.mark.parametrize("to_dir", [True, False])
def test_resume_skips_unchanged_and_redoes_edited_and_rule_changes(docs: Path, tmp_path: Path, to_dir: bool):
    rules = tmp_path / "rules"
    rules.mkdir()
    shutil.copy(builtin_rules_dir() / "statute.yaml", rules / "statute.yaml")
    options = Options(rules_dir=str(rules))
    out = tmp_path / ("out" if to_dir else "out.jsonl")
    inputs = collect_inputs([str(docs)])
    first = events(inputs, out, to_dir, options=options)
    assert [k for k, v in first.items() if v == "done"] == sorted(GOOD + EMPTY)
    fresh = out.read_bytes() if not to_dir else None

    again = events(inputs, out, to_dir, options=options)
    assert {k: v for k, v in again.items() if v != "failed"} == {g: "skipped" for g in GOOD + EMPTY}  # failures are retried
    if not to_dir:
        assert out.read_bytes() == fresh  # reused byte for byte

    (docs / "b" / "05_notes.md").write_text("# 乙条例\n\n" + statute_text("乙条例", 5), encoding="utf-8")
    edited = events(inputs, out, to_dir, options=options)
    assert {k: v for k, v in edited.items() if v != "failed"} == {
        "a/01_law.txt": "skipped", "a/02_empty.txt": "skipped", "b/05_notes.md": "done", "b/deep/06_law.txt": "skipped"}
    target = out / "b" / "05_notes.md.jsonl" if to_dir else out
    assert "第5条" in target.read_text(encoding="utf-8")

    text = (rules / "statute.yaml").read_text(encoding="utf-8")
    (rules / "statute.yaml").write_text(text.replace('version: "1"', 'version: "1-changed"', 1), encoding="utf-8")
    assert 'version: "1-changed"' in (rules / "statute.yaml").read_text(encoding="utf-8")
    after_rules = events(inputs, out, to_dir, options=options)
    # only the statutes depend on statute.yaml (the empty file was chunked as generic)
    assert {k: v for k, v in after_rules.items() if v != "failed"} == {**{g: "done" for g in GOOD}, **{e: "skipped" for e in EMPTY}}

    other_size = events(inputs, out, to_dir, options=Options(rules_dir=str(rules), max_chars=50))
    assert {k: v for k, v in other_size.items() if v != "failed"} == {g: "done" for g in GOOD + EMPTY}


def test_resume_redoes_an_output_that_was_tampered_with(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    run([str(docs / "a"), "-o", f"{out}/", "-q"], capsys)
    (out / "01_law.txt.jsonl").write_text("", encoding="utf-8")
    code, _, err = run([str(docs / "a"), "-o", f"{out}/", "--resume", "-v"], capsys)
    assert "done    " in err and str(docs / "a" / "01_law.txt") in err
    assert len(records(out / "01_law.txt.jsonl")) == 7


def test_resume_without_output_is_a_usage_error(docs: Path, capsys):
    code, _, err = run([str(docs), "--resume"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------ atomic writes

def test_atomic_file_leaves_nothing_when_aborted(tmp_path: Path):
    f = AtomicFile(tmp_path / "x.jsonl")
    f.file.write("half a line")
    f.abort()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("to_dir", [True, False])
def test_a_run_that_dies_leaves_no_partial_output(docs: Path, tmp_path: Path, monkeypatch, to_dir: bool):
    real = batch.convert_file
    calls = []

    def dies_on_third(path, options):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt  # as if the run were stopped here
        return real(path, options)

    monkeypatch.setattr(batch, "convert_file", dies_on_third)
    out = tmp_path / ("out" if to_dir else "out.jsonl")
    inputs = collect_inputs([str(docs / "a"), str(docs / "b" / "05_notes.md")])
    with pytest.raises(KeyboardInterrupt):
        run_batch(Batch(inputs, output=out, to_dir=to_dir))
    leftovers = [p for p in tmp_path.rglob("*") if p.is_file() and p.name.endswith(".tmp")]
    assert leftovers == []
    if to_dir:  # what finished is complete and in the manifest; nothing else is there
        made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        assert made == ["_domainchunk/manifest.jsonl", "a/01_law.txt.jsonl", "a/02_empty.txt.jsonl"]
        assert len(records(out / "a" / "01_law.txt.jsonl")) == 7
    else:
        assert not out.exists()
    monkeypatch.setattr(batch, "convert_file", real)
    resumed: dict[str, str] = {}
    run_batch(Batch(inputs, output=out, to_dir=to_dir, resume=True),
              lambda e: resumed.__setitem__(e.input.path.name, e.status))
    assert resumed["01_law.txt"] == ("skipped" if to_dir else "done")
    assert resumed["05_notes.md"] == "done"


# ------------------------------------------------------------ time limit and workers

def test_timeout_stops_a_slow_document_and_the_batch_goes_on(tmp_path: Path, capsys):
    slow = tmp_path / "slow.txt"
    slow.write_text(statute_text("慢法", 60000, filler="本条。"), encoding="utf-8")  # 60,000 articles: seconds of work
    quick = tmp_path / "quick.txt"
    quick.write_text(statute_text("快法", 3), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run([str(slow), str(quick), "-o", str(out), "--timeout", "0.2", "-j", "1"], capsys)
    assert code == 1
    assert records(tmp_path / SIDE / "out.jsonl.errors.jsonl") == [{"file": str(slow), "stage": "worker", "kind": "Timeout",
                                                   "message": "took longer than 0.2 s (--timeout)"}]
    assert {r["source"] for r in records(out)} == {str(quick)}
    assert len(messages(err)) == 1 and "slow.txt" in messages(err)[0]


def _square_or_die(n: int) -> int:
    if n < 0:
        os._exit(3)  # a worker that crashes (as a C library might)
    return n * n


def test_run_ordered_keeps_order_and_survives_a_crashed_worker():
    results = list(run_ordered(_square_or_die, [1, 2, -1, 3, 4, 5, 6, 7], jobs=2, window=3))
    assert results[:2] == [1, 4] and results[3:] == [9, 16, 25, 36, 49]
    assert isinstance(results[2], WorkerFailure) and results[2].kind == "WorkerCrashed"


def test_a_task_waiting_in_a_crashed_workers_pipe_is_run_by_its_replacement():
    # One worker, so the task after the crash was already sent to the process that died.
    results = list(run_ordered(_square_or_die, [1, -1, 2, 3], jobs=1))
    assert results[0] == 1 and results[2:] == [4, 9]
    assert isinstance(results[1], WorkerFailure) and results[1].kind == "WorkerCrashed"


_BALLAST: list[bytes] = []


def _pid_and_grow(n: int) -> tuple[int, int]:
    if n == 100:  # the worker keeps 64 MB it has written to (so resident, not just reserved)
        _BALLAST.append(b"x" * (64 * 1024 * 1024))
    return n, os.getpid()


def test_workers_are_recycled_after_n_tasks_in_order():
    results = list(run_ordered(_pid_and_grow, list(range(9)), jobs=2, recycle_files=2))
    assert [n for n, _ in results] == list(range(9))
    assert len({pid for _, pid in results}) >= 5  # 9 tasks, at most 2 per worker process
    assert os.getpid() not in {pid for _, pid in results}


def test_a_worker_whose_memory_grows_is_recycled():
    results = list(run_ordered(_pid_and_grow, [1, 100, 2, 3, 4], jobs=1, recycle_mb=32))
    pids = [pid for _, pid in results]
    # Replaced after it grew by 64 MB, once it has done task 2, which was waiting in its pipe.
    assert pids[0] == pids[1] == pids[2] and pids[2] != pids[3] and pids[3] == pids[4]


def test_worker_crash_becomes_an_error_record(docs: Path, tmp_path: Path, monkeypatch):
    seen = []
    monkeypatch.setattr(batch, "_convert", _crash_on_law)
    summary = run_batch(Batch(collect_inputs([str(docs / "a")]), output=tmp_path / "o.jsonl", jobs=2),
                        seen.append)
    assert (summary.failed, summary.done) == (2, 1) and seen[0].error["kind"] == "WorkerCrashed"  # 02_empty is done


def _crash_on_law(task):
    if task[0].endswith("01_law.txt"):
        os._exit(9)
    return batch.convert_file(*task)


# ------------------------------------------------------------ parquet

def test_parquet_rows_match_jsonl_records(docs: Path, tmp_path: Path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    run([str(docs), "-o", str(tmp_path / "x.jsonl"), "-q"], capsys)
    run([str(docs), "-o", str(tmp_path / "x.parquet"), "--format", "parquet", "-q"], capsys)
    run([str(docs), "-o", str(tmp_path / "pq") + "/", "--format", "parquet", "-q"], capsys)
    expected = [batch.to_row(r) for r in records(tmp_path / "x.jsonl")]
    assert pq.read_table(tmp_path / "x.parquet").to_pylist() == expected
    law = pq.read_table(tmp_path / "pq" / "a" / "01_law.txt.parquet").to_pylist()
    assert law == [r for r in expected if r["source"].endswith("01_law.txt")]
    again = events(collect_inputs([str(docs)]), tmp_path / "x.parquet", False, options=Options(fmt="parquet"))
    assert {k: v for k, v in again.items() if v != "failed"} == {g: "skipped" for g in GOOD + EMPTY}
    assert pq.read_table(tmp_path / "x.parquet").to_pylist() == expected


# ------------------------------------------------------------ links, special files, time limit

def test_symlinks_are_followed_reported_or_refused_never_a_crash(tmp_path: Path, capsys):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "target.txt").write_text(statute_text("外法", 3), encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01_law.txt").write_text(statute_text("甲法", 3), encoding="utf-8")
    (docs / "02_outside.txt").symlink_to(outside / "target.txt")  # a valid link out of the folder
    (docs / "03_dangling.txt").symlink_to(tmp_path / "gone.txt")
    (docs / "04_loop.txt").symlink_to(docs / "04_loop.txt")
    (docs / "sub").symlink_to(docs)  # a folder cycle: never walked into
    # git-annex / DVC: the named file is a link into a content-addressed cache (no suffix there)
    cache = tmp_path / ".dvc" / "cache" / "ab"
    cache.mkdir(parents=True)
    (cache / "cdef0123").write_text(statute_text("缓存法", 2), encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "law.txt").symlink_to(cache / "cdef0123")
    out = tmp_path / "out"
    code, _, err = run([str(docs), str(data / "law.txt"), "-o", f"{out}/", "-q"], capsys)
    assert code == 1 and "Traceback" not in err
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.jsonl") if p.parent == out / "docs" or
                  p.parent == out / "data")
    assert made == ["data/law.txt.jsonl", "docs/01_law.txt.jsonl", "docs/02_outside.txt.jsonl"]
    assert records(out / "data" / "law.txt.jsonl")[0]["source"] == str(data / "law.txt")
    errors = {Path(e["file"]).name: e["message"] for e in records(out / SIDE / "errors.jsonl")}
    assert errors == {"03_dangling.txt": f"broken symbolic link (to {tmp_path / 'gone.txt'})",
                      "04_loop.txt": "symbolic link loop"}
    assert len(err.strip().splitlines()) == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_skipped_with_a_note_and_never_read(tmp_path: Path):
    import subprocess
    import sys

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "01_law.txt").write_text(statute_text("甲法", 3), encoding="utf-8")
    os.mkfifo(docs / "02_pipe.txt")  # nobody writes to it: opening it would block forever
    os.mkfifo(tmp_path / "named.md")
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(docs), str(tmp_path / "named.md"),
                           "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert messages(proc.stderr) == [
        f"domainchunk: warning: {docs / '02_pipe.txt'}: not a regular file (a FIFO): skipped",
        f"domainchunk: warning: {tmp_path / 'named.md'}: not a regular file (a FIFO): skipped"]
    assert {r["source"] for r in records(out)} == {str(docs / "01_law.txt")}


def test_every_file_gets_a_default_time_limit(tmp_path: Path, monkeypatch, capsys):
    from domainchunk import cli

    seen = []
    monkeypatch.setattr(batch, "run_batch", lambda b, on_event, **kw: seen.append(b) or batch.Summary())
    law = tmp_path / "law.txt"
    law.write_text(statute_text("甲法", 2), encoding="utf-8")
    assert main(["chunk", str(law), "-j", "1"]) == 0
    assert main(["chunk", str(law), "--timeout", "5"]) == 0
    assert main(["chunk", str(law), "--no-timeout"]) == 0
    assert [b.timeout for b in seen] == [cli.DEFAULT_TIMEOUT, 5.0, None]


# ------------------------------------------------------------ workers die with their parent

PARENT = """
import sys, time
from domainchunk.batch import run_ordered
import multiprocessing as mp

def work(task):
    with open(f"{sys.argv[1]}/{__import__('os').getpid()}", "w"):
        pass
    time.sleep(120)

if __name__ == "__main__":
    for _ in run_ordered(work, list(range(4)), jobs=2, context=mp.get_context(sys.argv[2])):
        pass
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return "\nState:\tZ" in f.read()  # a zombie has let go of its memory
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("sig,method", [(signal.SIGTERM, "fork"), (signal.SIGKILL, "fork"),
                                        (signal.SIGKILL, "forkserver"), (signal.SIGKILL, "spawn")])
def test_workers_exit_when_the_parent_dies(tmp_path: Path, sig: int, method: str):
    import subprocess
    import sys
    import time

    script = tmp_path / "parent.py"
    script.write_text(PARENT, encoding="utf-8")
    pids = tmp_path / "pids"
    pids.mkdir()
    parent = subprocess.Popen([sys.executable, str(script), str(pids), method])
    try:
        deadline = time.monotonic() + 60
        while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(p.name) for p in pids.iterdir()]
        assert len(workers) == 2
        parent.send_signal(sig)
        parent.wait(10)
        deadline = time.monotonic() + 20  # generous: a loaded CI machine is slow to reap
        while not all(_gone(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(_gone(w) for w in workers), [w for w in workers if not _gone(w)]
    finally:
        parent.kill()
        for w in [int(p.name) for p in pids.iterdir()]:
            if not _gone(w):
                os.kill(w, signal.SIGKILL)


# ------------------------------------------------------------ disk full, killed runs

@pytest.mark.skipif(not (Path("/dev/full").exists() and stat.S_ISCHR(os.stat("/dev/full").st_mode)),
                    reason="no /dev/full device")
def test_disk_full_on_a_device_output_is_one_line(docs: Path, tmp_path: Path, capsys):
    # Through a link: a regression that renamed a temporary file over the output replaces the
    # link, never the device itself (as root it would replace /dev/full).
    out = tmp_path / "out.jsonl"
    out.symlink_to("/dev/full")
    code, _, err = run([str(docs / "a" / "01_law.txt"), "-o", str(out), "-j", "1"], capsys)
    assert code == 1 and err == f"domainchunk: {out}: cannot write: No space left on device\n"
    assert out.is_symlink() and stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("to_dir", [True, False])
def test_disk_full_keeps_the_previous_output_and_leaves_no_temporary_file(docs: Path, tmp_path: Path, monkeypatch,
                                                                          to_dir: bool, capsys):
    import errno

    out = tmp_path / ("out" if to_dir else "out.jsonl")
    target = out / "01_law.txt.jsonl" if to_dir else out
    assert run([str(docs / "a"), "-o", f"{out}/" if to_dir else str(out), "-q"], capsys)[0] == 1  # 03_junk fails
    before = target.read_bytes()

    class FullDisk:
        """A file on a full disk: every write fails with ENOSPC."""

        def __init__(self, file):
            self.file = file

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.file, name)

    real_init = batch.AtomicFile.__init__

    def on_full_disk(self, path, binary=False):
        real_init(self, path, binary)
        if SIDE not in path.parts:  # the chunk outputs; the sidecars are on another disk here
            self.file = FullDisk(self.file)

    monkeypatch.setattr(batch.AtomicFile, "__init__", on_full_disk)
    code, _, err = run([str(docs / "a"), "-o", f"{out}/" if to_dir else str(out), "-j", "1", "--no-timeout"], capsys)
    name = target if to_dir else out
    assert code == 1 and err == f"domainchunk: {name}: cannot write: No space left on device\n"
    assert target.read_bytes() == before  # nothing truncated under the real name
    assert [p for p in tmp_path.rglob("*.tmp")] == []


SLOW_RUN = """
import sys
from domainchunk.cli import main
sys.exit(main(["chunk", *sys.argv[1:], "-j", "1", "--no-timeout", "-q"]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_single_file_run_leaves_no_temporary_file(tmp_path: Path, sig: int):
    import subprocess
    import sys
    import time

    slow = tmp_path / "slow.txt"
    slow.write_text(statute_text("慢法", 40000, filler="本条。"), encoding="utf-8")
    quick = tmp_path / "quick.txt"
    quick.write_text(statute_text("快法", 3), encoding="utf-8")
    out = tmp_path / "out" / "all.jsonl"
    script = tmp_path / "run.py"
    script.write_text(SLOW_RUN, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(quick), str(slow), "-o", str(out)])
    deadline = time.monotonic() + 60
    while not list(out.parent.glob(".all.jsonl.*.tmp")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(sig)
    assert proc.wait(20) == (143 if sig == signal.SIGTERM else -signal.SIGKILL)
    assert not out.exists()
    if sig == signal.SIGTERM:  # unwound: nothing left
        assert list(out.parent.glob("*.tmp")) == []
    else:  # nothing can run at a kill -9; the next run over this output removes what it left
        assert len(list(out.parent.glob(".all.jsonl.*.tmp"))) == 1
        assert main(["chunk", str(quick), "-o", str(out), "-q"]) == 0
        assert list(out.parent.glob("*.tmp")) == [] and out.is_file()


# ------------------------------------------------------------ sidecars

def test_sidecars_are_apart_from_the_outputs(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    run([str(docs), "-o", f"{out}/", "-q"], capsys)
    top = sorted(p.name for p in out.glob("*.jsonl"))
    assert top == []  # `cat out/*.jsonl` and out/**/*.jsonl hold chunks only
    chunk_files = [p for p in out.rglob("*.jsonl") if SIDE not in p.parts]
    assert all("index" in json.loads(line) for p in chunk_files for line in p.read_text(encoding="utf-8").splitlines())
    assert sorted(p.name for p in (out / SIDE).iterdir()) == ["errors.jsonl", "manifest.jsonl"]


def test_a_clean_single_file_run_keeps_another_outputs_errors(docs: Path, tmp_path: Path, capsys):
    assert run([str(docs / "a"), "-o", str(tmp_path / "a.jsonl"), "-q"], capsys)[0] == 1  # 03_junk fails
    assert run([str(docs / "b" / "05_notes.md"), "-o", str(tmp_path / "b.jsonl"), "-q"], capsys)[0] == 0
    assert [Path(e["file"]).name for e in records(tmp_path / SIDE / "a.jsonl.errors.jsonl")] == ["03_junk.txt"]
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == ["a.jsonl", "b.jsonl"]


def test_a_parquet_folder_reads_as_one_table(docs: Path, tmp_path: Path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "pq"
    assert run([str(docs), "-o", f"{out}/", "--format", "parquet", "-q"], capsys)[0] == 1
    assert (out / SIDE / "errors.jsonl").is_file()
    table = pq.read_table(out)  # what pandas.read_parquet(out) does: the sidecars are not read
    run([str(docs), "-o", str(tmp_path / "all.jsonl"), "-q"], capsys)
    assert table.num_rows == len(records(tmp_path / "all.jsonl")) > 0


# ------------------------------------------------------------ resume: what an output depends on

def test_resume_redoes_outputs_after_a_code_change(docs: Path, tmp_path: Path, monkeypatch):
    inputs = collect_inputs([str(docs / "a" / "01_law.txt")])
    out = tmp_path / "out"
    assert events(inputs, out, True) == {"01_law.txt": "done"}
    assert events(inputs, out, True) == {"01_law.txt": "skipped"}
    monkeypatch.setattr(batch, "code_version", lambda: "another build")
    assert events(inputs, out, True) == {"01_law.txt": "done"}


def test_editing_one_types_rule_file_redoes_only_that_types_outputs(tmp_path: Path):
    root = Path(__file__).resolve().parents[1]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "contract.txt").write_text((root / "corpora" / "contract_示范借款合同.txt").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    (docs / "law.txt").write_text(statute_text("甲法", 4), encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    shutil.copy(builtin_rules_dir() / "contract.yaml", rules / "contract.yaml")
    options = Options(rules_dir=str(rules))
    inputs = collect_inputs([str(docs)])
    out = tmp_path / "out"
    assert events(inputs, out, True, options=options) == {"contract.txt": "done", "law.txt": "done"}
    text = (rules / "contract.yaml").read_text(encoding="utf-8")
    assert "\nmax_chars: 1000" in text  # a change to how contracts are cut, not to how they are detected
    (rules / "contract.yaml").write_text(text.replace("\nmax_chars: 1000", "\nmax_chars: 900"), encoding="utf-8")
    assert events(inputs, out, True, options=options) == {"contract.txt": "done", "law.txt": "skipped"}


# ------------------------------------------------------------ every bad input at once

def test_a_folder_mixing_every_bad_input_finishes_and_converts_every_good_file(tmp_path: Path):
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    docs = tmp_path / "docs"
    (docs / "deep").mkdir(parents=True)
    outside = tmp_path / "outside.txt"
    outside.write_text(statute_text("外法", 3), encoding="utf-8")
    good = {
        "01_law.txt": statute_text("甲法", 4),
        "deep/02_notes.md": "# 乙条例\n\n" + statute_text("乙条例", 3),
    }
    for rel, text in good.items():
        (docs / rel).write_text(text, encoding="utf-8")
    shutil.copy(root / "corpora" / "office" / "contract_示例软件开发合同.docx", docs / "03_contract.docx")
    (docs / "04_outside.txt").symlink_to(outside)
    (docs / "05_dangling.txt").symlink_to(tmp_path / "gone.txt")
    (docs / "06_loop.txt").symlink_to(docs / "06_loop.txt")
    (docs / "deep" / "cycle").symlink_to(docs)
    os.mkfifo(docs / "07_fifo.txt")
    docx_bomb(docs / "08_bomb.docx", 120)
    (docs / "09_locked.docx").write_bytes(encrypted_office_file())
    (docs / "10_empty.txt").write_bytes(b"")
    (docs / "11_junk.txt").write_bytes(bytes(range(256)) * 8)
    (docs / "12_not_zip.docx").write_bytes(b"not a zip")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(docs), "-o", f"{out}/", "-j", "2"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    converted = {p.relative_to(out).as_posix() for p in out.rglob("*.jsonl") if SIDE not in p.parts and p.stat().st_size}
    assert converted == {"01_law.txt.jsonl", "deep/02_notes.md.jsonl", "03_contract.docx.jsonl", "04_outside.txt.jsonl"}
    assert (out / "10_empty.txt.jsonl").read_text(encoding="utf-8") == ""
    errors = {Path(e["file"]).name: e["message"] for e in records(out / SIDE / "errors.jsonl")}
    assert sorted(errors) == ["05_dangling.txt", "06_loop.txt", "08_bomb.docx", "09_locked.docx", "11_junk.txt",
                              "12_not_zip.docx"]
    assert "decompression bomb" in errors["08_bomb.docx"] and "encrypted" in errors["09_locked.docx"]
    warnings = [line for line in proc.stderr.splitlines() if "warning: " in line]
    assert len(warnings) == 2 and "07_fifo.txt" in warnings[0] and "10_empty.txt" in warnings[1]
    assert len(messages(proc.stderr)) == len(errors) + len(warnings)  # one line each


def test_a_linked_output_file_is_written_through_the_link(docs: Path, tmp_path: Path, capsys):
    target = tmp_path / "real" / "chunks.jsonl"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "out.jsonl"
    link.symlink_to(target)
    assert run([str(docs / "a" / "01_law.txt"), "-o", str(link), "-q"], capsys)[0] == 0
    assert link.is_symlink() and len(records(target)) == 7


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="malloc_trim is glibc's")
def test_a_worker_gives_back_memory_its_documents_freed(monkeypatch):
    monkeypatch.setattr(batch, "TRIM_MB", 8)
    trim = batch._memory_trimmer()
    blocks = [bytes(4096) + bytes([i % 256]) for i in range(16_000)]  # ~64 MB on the malloc heap
    keep = blocks[-1]  # the heap's top stays in use, so only a trim can return the pages below it
    del blocks
    before = batch._resident_mb(os.getpid())
    trim()
    assert batch._resident_mb(os.getpid()) < before - 32 and keep


# ------------------------------------------------------------ rendering

@pytest.mark.parametrize("options", [{}, {"pack": True, "parents": True}, {"mask_phi": True}])
def test_written_records_are_the_records_json_gives(options: dict):
    """The command writes each chunk's fields as they stand, not the models' dump: the JSON and
    the Parquet rows are the dump's, field for field and in its order, for every kind of chunk
    (units, pieces, packs, parents) and metadata (citations, lab items, masked values)."""
    import domainchunk

    corpus = Path(__file__).resolve().parent.parent / "corpora"
    for path in sorted(p for p in corpus.iterdir() if p.suffix in (".txt", ".md")):
        result = domainchunk.chunk(path, max_chars=400, **options)
        dumped = result.records()
        assert batch.render(result, "jsonl") == "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in dumped)
        assert batch.render(result, "parquet") == [
            {**r, "metadata": json.dumps(r["metadata"], ensure_ascii=False, sort_keys=True)} for r in dumped]
