"""Loading rules fast: validated files cached by content, a user folder re-read when it changes.

The cache is an optimisation only: every test here checks that what is loaded is what a fresh
validation gives, that a hit compiles nothing, and that a bad cache never breaks a load.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

import domainchunk
import domainchunk.rulefile as rulefile
from domainchunk import RuleError
from domainchunk.rulefile import CACHE_ENV, builtin_rules_dir, cache_dir, load_rule_file, load_rules


def _memo(item: str = "事项") -> dict:
    return {
        "id": "memo", "version": "1", "doc_type": "memo", "description": "示范备忘录：每个要点一块。",
        "terms": {"item": {item: []}},
        "detect": {"min_score": 1, "signals": [{
            "id": "memo.title", "pattern": "^备忘录$", "weight": 1, "why": "备忘录 alone on a line is the title",
            "examples": {"match": ["备忘录\n事项一"], "no_match": ["这份备忘录很短"]}}]},
        "levels": [{
            "id": "memo.item", "name": "事项", "kind": "item", "role": "unit", "rationale": "each item stands alone",
            "variants": [{"name": "numbered", "pattern": "(?P<label>{terms.item}{CN}+)[：:]", "why": "事项一： opens one",
                          "examples": {"match": [f"{item}一：开会"], "no_match": [f"详见{item}一："]}}]}],
    }


def _write(folder: Path, data: dict, name: str = "memo.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


def _count_compiles(monkeypatch) -> list[str]:
    """The patterns the loader compiles from now on."""
    compiled: list[str] = []
    real = rulefile.compile_pattern

    def counting(pattern: str, flags: int = 0):
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(rulefile, "compile_pattern", counting)
    return compiled


def test_a_hit_compiles_nothing_and_loads_what_validation_gives(tmp_path, cache, monkeypatch):
    path = _write(tmp_path, _memo())
    compiled = _count_compiles(monkeypatch)
    fresh = load_rule_file(path)
    assert compiled and len(list(cache.glob("*.json"))) == 1  # a miss validates every pattern
    compiled.clear()
    cached = load_rule_file(path)
    assert not compiled
    assert cached.fingerprint() == fresh.fingerprint() and cached.path == str(path)
    assert [lv.pattern for lv in cached.levels] == [lv.pattern for lv in fresh.levels]
    assert [s.expanded for s in cached.detect.signals] == [s.expanded for s in fresh.detect.signals]
    # the same bytes elsewhere are the same entry: the cache is keyed by content, not by path
    other = tmp_path / "other"
    other.mkdir()
    assert load_rule_file(shutil.copy(path, other / "memo.yaml")).fingerprint() == fresh.fingerprint()
    assert not compiled and len(list(cache.glob("*.json"))) == 1


def test_an_entry_is_plain_json_of_the_file(tmp_path, cache):
    path = _write(tmp_path, _memo())
    load_rule_file(path)
    (entry,) = cache.glob("*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    assert data["key"] == entry.stem and data["data"] == yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign key", "invalid data", "not a mapping", "no cases"])
def test_a_damaged_entry_is_rebuilt_never_fatal(tmp_path, cache, damage):
    path = _write(tmp_path, _memo())
    reference = load_rule_file(path).fingerprint()
    (entry,) = cache.glob("*.json")
    text = entry.read_text(encoding="utf-8")
    data = json.loads(text)
    broken = {
        "garbage": "\x00\xff not json",
        "truncated": text[: len(text) // 2],
        "foreign key": json.dumps({**data, "key": "0" * 64}),
        "invalid data": json.dumps({**data, "data": {**data["data"], "levels": "none"}}),
        "not a mapping": json.dumps([1, 2, 3]),
        "no cases": json.dumps({k: v for k, v in data.items() if k != "cases"}),
    }[damage]
    entry.write_text(broken, encoding="utf-8")
    assert load_rule_file(path).fingerprint() == reference
    assert json.loads(entry.read_text(encoding="utf-8")) == data  # written again, whole


def test_a_cached_entry_cannot_enable_a_hook(tmp_path, cache):
    """Hooks are checked on every load: an entry edited to name a hook module runs nothing."""
    path = _write(tmp_path, _memo())
    load_rule_file(path)
    (entry,) = cache.glob("*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["data"]["hooks"] = "this"
    entry.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RuleError, match="'this' is not a hook module"):
        load_rule_file(path)


def test_no_cache_folder_or_an_unwritable_one(tmp_path, monkeypatch):
    path = _write(tmp_path, _memo())
    reference = load_rule_file(path).fingerprint()
    monkeypatch.setenv(CACHE_ENV, "")
    assert cache_dir() is None and load_rule_file(path).fingerprint() == reference
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocked / "rules"))
    assert load_rule_file(path).fingerprint() == reference
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "domainchunk" / "rules"


def test_a_bad_file_is_never_cached(tmp_path, cache):
    data = _memo()
    data["levels"][0]["variants"][0]["pattern"] = "(?P<label>事项"
    path = _write(tmp_path, data)
    for _ in range(2):
        with pytest.raises(RuleError, match="does not compile"):
            load_rule_file(path)
    assert not list(cache.glob("*.json"))


def test_cases_are_part_of_the_key(tmp_path, cache):
    path = _write(tmp_path, _memo())
    (tmp_path / "cases").mkdir()
    case = {"name": "two-items", "rule": "memo.item", "text": "事项一：开会。\n事项二：午餐。\n",
            "chunks": [{"starts": "事项一"}, {"starts": "事项二"}]}
    _write(tmp_path / "cases", {"cases": [case]})
    assert [c.name for c in load_rule_file(path).cases] == ["two-items"]
    _write(tmp_path / "cases", {"cases": [{**case, "rule": "memo.nothing"}]})
    with pytest.raises(RuleError, match="unknown rule 'memo.nothing'"):
        load_rule_file(path)


def _counting(monkeypatch, name: str) -> list[object]:
    """The calls of rulefile's function ``name`` from now on."""
    calls: list[object] = []
    real = getattr(rulefile, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(rulefile, name, counting)
    return calls


def _with_case(tmp_path) -> Path:
    path = _write(tmp_path, _memo())
    (tmp_path / "cases").mkdir()
    _write(tmp_path / "cases", {"cases": [{"name": "two-items", "rule": "memo.item", "text": "事项一：开会。\n事项二：午餐。\n",
                                           "chunks": [{"starts": "事项一"}, {"starts": "事项二"}]}]})
    return path


def test_a_hit_validates_its_cases_only_when_asked_and_writes_no_alternation(tmp_path, cache, monkeypatch):
    path = _with_case(tmp_path)
    fresh = load_rule_file(path)
    cases, tries = _counting(monkeypatch, "_validate_cases"), _counting(monkeypatch, "_alternation")
    cached = load_rule_file(path)
    assert not cases and not tries  # the entry holds the vocabulary's alternation; the cases wait
    assert [lv.pattern for lv in cached.levels] == [lv.pattern for lv in fresh.levels]
    assert cached.cases == fresh.cases and cases  # validated on first use, the same as a fresh load's
    cases.clear()
    assert cached.cases == fresh.cases and not cases  # and kept


def test_a_hit_whose_cases_no_longer_validate_reads_them_from_the_files(tmp_path, cache):
    path = _with_case(tmp_path)
    fresh = load_rule_file(path)
    (entry,) = cache.glob("*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    entry.write_text(json.dumps({**data, "cases": {"cases": [{"name": "damaged"}]}}), encoding="utf-8")
    assert load_rule_file(path).cases == fresh.cases


def test_an_extension_is_stale_when_the_file_it_extends_changes(tmp_path, cache, monkeypatch):
    builtin = tmp_path / "builtin"
    shutil.copytree(builtin_rules_dir(), builtin, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    monkeypatch.setattr(rulefile, "builtin_rules_dir", lambda: builtin)
    user = tmp_path / "user"
    user.mkdir()
    path = _write(user, {"extends": "generic", "version": "ours"}, "generic.yaml")
    assert load_rule_file(path).version == "1+ours"
    base = yaml.safe_load((builtin / "generic.yaml").read_text(encoding="utf-8"))
    _write(builtin, {**base, "version": "2"}, "generic.yaml")
    assert load_rule_file(path).version == "2+ours"


def test_a_user_folder_edited_between_two_calls_is_picked_up(tmp_path, cache):
    rules = tmp_path / "rules"
    rules.mkdir()
    _write(rules, _memo("事项"))
    text = "事项一：开会。\n要点二：午餐。\n"
    first = domainchunk.chunk_text(text, doc_type="memo", rules_dir=rules)
    assert [c.path for c in first.chunks] == [["事项一"]]
    assert load_rules(rules)["memo"] is load_rules(rules)["memo"]  # unchanged: not loaded again
    _write(rules, _memo("要点"))
    second = domainchunk.chunk_text(text, doc_type="memo", rules_dir=rules)
    assert [c.path for c in second.chunks] == [[], ["要点二"]]
    _write(rules, {**_memo(), "doc_type": "note", "id": "note"}, "note.yaml")
    assert {"memo", "note"} <= set(load_rules(rules))
    (rules / "note.yaml").unlink()
    assert "note" not in load_rules(rules)
    shutil.rmtree(rules)
    with pytest.raises(RuleError, match="rules folder not found"):
        load_rules(rules)
