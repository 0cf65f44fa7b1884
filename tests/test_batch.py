"""Batch conversion: inputs, mirroring, order, errors, resume, atomic writes, time limit, workers."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

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
BAD = ["a/02_empty.txt", "a/03_junk.txt", "b/04_not_zip.docx"]


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
    assert rels(collect_inputs([str(docs)])) == sorted(GOOD + BAD)


def test_glob_selects_by_name_or_relative_path(docs: Path):
    assert rels(collect_inputs([str(docs)], ["*.md", "*.json"])) == ["b/05_notes.md", "b/ignored.json"]
    assert rels(collect_inputs([str(docs)], ["b/deep/*"])) == ["b/deep/06_law.txt"]


def test_list_file_and_mirror_base(docs: Path, tmp_path: Path):
    listing = tmp_path / "paths.txt"
    listing.write_text(f"# a comment\n{docs / 'b' / 'deep' / '06_law.txt'}\n\n{docs / 'a'}\n", encoding="utf-8")
    inputs = collect_inputs([f"@{listing}", str(docs / "a" / "01_law.txt")])  # the duplicate is taken once
    assert rels(inputs) == ["b/deep/06_law.txt", "a/01_law.txt", "a/02_empty.txt", "a/03_junk.txt"]


def test_outputs_are_not_taken_as_inputs(docs: Path):
    assert rels(collect_inputs([str(docs)], skip=[docs / "b"])) == ["a/01_law.txt", "a/02_empty.txt", "a/03_junk.txt"]


# ------------------------------------------------------------ output, order, errors

def test_output_folder_mirrors_the_tree_and_records_errors(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    code, stdout, err = run([str(docs), "-o", f"{out}/", "-j", "2", "-q"], capsys)
    assert code == 1 and stdout == ""
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert made == sorted([f"{g}.jsonl" for g in GOOD] + ["errors.jsonl", "manifest.jsonl"])
    law = records(out / "a" / "01_law.txt.jsonl")
    assert law[0]["source"] == str(docs / "a" / "01_law.txt") and law[0]["doc_type"] == "statute"
    errors = records(out / "errors.jsonl")
    assert [(Path(e["file"]).name, e["stage"], e["kind"]) for e in errors] == [
        ("02_empty.txt", "read", "ReadError"), ("03_junk.txt", "read", "ReadError"),
        ("04_not_zip.docx", "read", "ReadError")]
    assert all(e["message"] for e in errors)
    lines = err.strip().splitlines()  # one line per bad file, naming it; no traceback
    assert len(lines) == 3 and all(line.startswith("domainchunk: ") for line in lines)
    assert "Traceback" not in err and "02_empty.txt: empty file" in lines[0]


def test_output_is_identical_whatever_the_number_of_jobs(docs: Path, tmp_path: Path, capsys):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run([str(docs), "-o", str(one), "-j", "1"], capsys)[0] == 1
    assert run([str(docs), "-o", str(two), "-j", "2"], capsys)[0] == 1
    assert one.read_bytes() == two.read_bytes()
    assert [r["source"] for r in records(one)] == sorted([r["source"] for r in records(one)])  # input order
    assert (tmp_path / "errors.jsonl").is_file()  # beside the output file


def test_standard_output_without_o(docs: Path, capsys):
    code, stdout, _ = run([str(docs / "a" / "01_law.txt"), "-j", "1"], capsys)
    assert code == 0 and [json.loads(line)["index"] for line in stdout.splitlines()] == list(range(7))


def test_a_clean_rerun_removes_the_stale_errors_file(docs: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    run([str(docs), "-o", f"{out}/", "-q"], capsys)
    for rel in BAD:
        (docs / rel).unlink()
    assert run([str(docs), "-o", f"{out}/", "-q"], capsys)[0] == 0
    assert not (out / "errors.jsonl").exists()


def test_unexpected_exception_in_a_document_becomes_a_record(docs: Path, tmp_path: Path, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("domainchunk.pipeline.chunk_document", broken)
    code, _, err = run([str(docs / "a" / "01_law.txt"), "-o", str(tmp_path / "x.jsonl"), "-j", "1"], capsys)
    assert code == 1
    assert records(tmp_path / "errors.jsonl") == [{"file": str(docs / "a" / "01_law.txt"), "stage": "chunk",
                                                   "kind": "ZeroDivisionError", "message": "division by zero"}]
    assert err.strip() == f"domainchunk: {docs / 'a' / '01_law.txt'}: ZeroDivisionError: division by zero"


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
    assert [k for k, v in first.items() if v == "done"] == GOOD
    fresh = out.read_bytes() if not to_dir else None

    again = events(inputs, out, to_dir, options=options)
    assert {k: v for k, v in again.items() if v != "failed"} == {g: "skipped" for g in GOOD}  # failures are retried
    if not to_dir:
        assert out.read_bytes() == fresh  # reused byte for byte

    (docs / "b" / "05_notes.md").write_text("# 乙条例\n\n" + statute_text("乙条例", 5), encoding="utf-8")
    edited = events(inputs, out, to_dir, options=options)
    assert {k: v for k, v in edited.items() if v != "failed"} == {
        "a/01_law.txt": "skipped", "b/05_notes.md": "done", "b/deep/06_law.txt": "skipped"}
    target = out / "b" / "05_notes.md.jsonl" if to_dir else out
    assert "第5条" in target.read_text(encoding="utf-8")

    text = (rules / "statute.yaml").read_text(encoding="utf-8")
    (rules / "statute.yaml").write_text(text.replace('version: "1"', 'version: "1-changed"', 1), encoding="utf-8")
    assert 'version: "1-changed"' in (rules / "statute.yaml").read_text(encoding="utf-8")
    after_rules = events(inputs, out, to_dir, options=options)
    assert {k: v for k, v in after_rules.items() if v != "failed"} == {g: "done" for g in GOOD}

    other_size = events(inputs, out, to_dir, options=Options(rules_dir=str(rules), max_chars=50))
    assert {k: v for k, v in other_size.items() if v != "failed"} == {g: "done" for g in GOOD}


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
        assert made == ["a/01_law.txt.jsonl", "manifest.jsonl"]
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
    assert records(tmp_path / "errors.jsonl") == [{"file": str(slow), "stage": "worker", "kind": "Timeout",
                                                   "message": "took longer than 0.2 s (--timeout)"}]
    assert {r["source"] for r in records(out)} == {str(quick)}
    assert err.count("\n") == 1 and "slow.txt" in err


def _square_or_die(n: int) -> int:
    if n < 0:
        os._exit(3)  # a worker that crashes (as a C library might)
    return n * n


def test_run_ordered_keeps_order_and_survives_a_crashed_worker():
    results = list(run_ordered(_square_or_die, [1, 2, -1, 3, 4, 5, 6, 7], jobs=2, window=3))
    assert results[:2] == [1, 4] and results[3:] == [9, 16, 25, 36, 49]
    assert isinstance(results[2], WorkerFailure) and results[2].kind == "WorkerCrashed"


def test_worker_crash_becomes_an_error_record(docs: Path, tmp_path: Path, monkeypatch):
    seen = []
    monkeypatch.setattr(batch, "_convert", _crash_on_law)
    summary = run_batch(Batch(collect_inputs([str(docs / "a")]), output=tmp_path / "o.jsonl", jobs=2),
                        seen.append)
    assert summary.failed == 3 and seen[0].error["kind"] == "WorkerCrashed"


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
    assert {k: v for k, v in again.items() if v != "failed"} == {g: "skipped" for g in GOOD}
    assert pq.read_table(tmp_path / "x.parquet").to_pylist() == expected
