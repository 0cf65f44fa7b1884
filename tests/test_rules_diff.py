"""`domainchunk rules diff`: a deliberate one-rule change on corpora/ is reported exactly, and nothing else."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import domainchunk
from conftest import ROOT
from domainchunk.rulefile import builtin_rules_dir

CORPORA = ROOT / "corpora"
CHANGED = "contract.annex"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "domainchunk", *args], capture_output=True, text=True)


def _rules_without(tmp_path: Path, level_id: str) -> Path:
    """A copy of the built-in rules in which one level never matches."""
    new = tmp_path / "new"
    shutil.copytree(builtin_rules_dir(), new, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    path = new / "contract.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    (level,) = [lv for lv in data["levels"] if lv["id"] == level_id]
    if "variants" in level:
        level["variants"] = [{**v, "pattern": "(?!)"} for v in level["variants"]]
    else:
        level["pattern"] = "(?!)"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return new


def test_unchanged_rules_report_nothing(tmp_path: Path) -> None:
    same = tmp_path / "same"
    shutil.copytree(builtin_rules_dir(), same, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    proc = _run("rules", "diff", str(builtin_rules_dir()), str(same), str(CORPORA))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("0 of ")


def test_one_rule_change_is_reported_exactly(tmp_path: Path) -> None:
    new = _rules_without(tmp_path, CHANGED)
    report = tmp_path / "diff.html"
    proc = _run("rules", "diff", str(builtin_rules_dir()), str(new), str(CORPORA), "--html", str(report))
    assert proc.returncode == 1, proc.stderr

    from domainchunk.rulesdiff import diff_corpus
    from domainchunk.batch import collect_inputs

    paths = [i.path for i in collect_inputs([str(CORPORA)])]
    diffs = diff_corpus(paths, lambda p: domainchunk.chunk(p), lambda p: domainchunk.chunk(p, rules_dir=new))
    old_annexes = {(str(p), c.start, c.end) for p in paths for c in domainchunk.chunk(p).chunks if c.rule == CHANGED}
    assert old_annexes, "corpora/ has annexes to lose"
    touched_old = {(d.source, b.start) for d in diffs for b in d.removed}
    touched_old |= {(d.source, a.start) for d in diffs for a, _ in (*d.moved, *d.path_changed, *d.rule_changed)}
    # every boundary the rule made is reported, and no boundary another rule made
    assert touched_old == {(s, start) for s, start, _ in old_annexes}
    # what now cuts the former annexes lies inside them
    for d in diffs:
        for b in d.added:
            assert any(s == d.source and a <= b.start < e for s, a, e in old_annexes), (d.source, b)
        assert CHANGED in d.rules() or not d.changed
    assert not any(d.old_type != d.new_type for d in diffs)
    changed = [d for d in diffs if d.changed]
    assert proc.stdout.strip().splitlines()[-1].startswith(f"{len(changed)} of {len(paths)} documents changed")
    page = report.read_text(encoding="utf-8")
    assert CHANGED in page and all(Path(d.source).name in page for d in changed)


def test_rules_diff_needs_two_folders_and_a_corpus(tmp_path: Path) -> None:
    proc = _run("rules", "diff", str(builtin_rules_dir()))
    assert proc.returncode == 2 and "usage" in proc.stderr
    proc = _run("rules", "diff", str(tmp_path / "missing"), str(builtin_rules_dir()), str(CORPORA))
    assert proc.returncode == 2 and "missing" in proc.stderr


def test_removing_one_variant_reports_exactly_the_boundaries_it_made(tmp_path: Path) -> None:
    level_id, variant = "judgment.reasoning", "this-court"  # 本院认为: no other variant makes most of its boundaries
    new = tmp_path / "new"
    shutil.copytree(builtin_rules_dir(), new, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    path = new / "judgment.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    (level,) = [lv for lv in data["levels"] if lv["id"] == level_id]
    assert len(level["variants"]) > 1
    level["variants"] = [v for v in level["variants"] if v["name"] != variant]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    from domainchunk.batch import collect_inputs
    from domainchunk.rulesdiff import diff_corpus

    paths = [i.path for i in collect_inputs([str(CORPORA)])]
    old = {str(p): domainchunk.chunk(p) for p in paths}
    newer = {str(p): domainchunk.chunk(p, rules_dir=new) for p in paths}
    made = {(s, c.start): c for s, r in old.items() for c in r.chunks if c.metadata.get("rule_variant") == variant}
    assert made, "corpora/ has boundaries the variant makes"
    # a boundary another variant of the level still makes, with the same path, is no change
    kept = {(s, c.start) for s, r in newer.items() for c in r.chunks
            if (s, c.start) in made and c.rule == level_id and c.path == made[(s, c.start)].path}
    diffs = diff_corpus(paths, lambda p: old[str(p)], lambda p: newer[str(p)])
    # the report is exactly the difference of the two chunkings, boundary by boundary
    before = {(s, c.start): (c.rule, c.path) for s, r in old.items() for c in r.chunks}
    after = {(s, c.start): (c.rule, c.path) for s, r in newer.items() for c in r.chunks}
    gone = {(d.source, b.start) for d in diffs for b in d.removed} | {(d.source, a.start) for d in diffs for a, _ in d.moved}
    came = {(d.source, b.start) for d in diffs for b in d.added} | {(d.source, b.start) for d in diffs for _, b in d.moved}
    relabelled = {(d.source, a.start) for d in diffs for a, _ in (*d.path_changed, *d.rule_changed)}
    assert gone == before.keys() - after.keys() and came == after.keys() - before.keys()
    assert relabelled == {k for k in before.keys() & after.keys() if before[k] != after[k]}
    # and every boundary the variant made is in it, unless another variant of its level still makes it
    assert set(made) - kept <= gone | relabelled
    assert all(level_id in d.rules() for d in diffs if d.changed)
    proc = _run("rules", "diff", str(builtin_rules_dir()), str(new), str(CORPORA))
    assert proc.returncode == 1 and level_id in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith(f"{sum(d.changed for d in diffs)} of {len(paths)} documents")
