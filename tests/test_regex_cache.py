"""The command's cache of compiled ``regex`` patterns (domainchunk.regexcache)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import regex
from regex import _main

from domainchunk import regexcache
from domainchunk.cli import main
from domainchunk.rulefile import CACHE_ENV

# A pattern no other code compiles, so that this process's regex cache has not seen it.
PATTERN = r"(?P<article>第[一二三四五六七八九十]+条)[ \t]*(?P<rest>测试缓存\d+)"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    yield tmp_path / "cache" / regexcache.FOLDER
    regexcache.uninstall()


def _fresh(pattern: str, flags: int = 0):
    """The pattern compiled as a new process would: this process's regex cache bypassed."""
    regexcache.uninstall()
    regex.purge()
    assert regexcache.install()
    return regex.compile(pattern, flags)


def test_a_pattern_is_written_once_and_built_from_its_entry_the_same(cache):
    first = _fresh(PATTERN, regex.MULTILINE)
    (entry,) = cache.glob("*.json")
    again = _fresh(PATTERN, regex.MULTILINE)
    assert again is not first and again._pickled_data == first._pickled_data
    text = "第三条 测试缓存42\n"
    assert again.search(text).groupdict() == first.search(text).groupdict() == {"article": "第三条", "rest": "测试缓存42"}
    assert list(cache.glob("*.json")) == [entry]
    _fresh(PATTERN)  # other flags: another entry
    assert len(list(cache.glob("*.json"))) == 2


def test_a_damaged_entry_is_compiled_anew_and_rewritten(cache):
    reference = _fresh(PATTERN)._pickled_data
    (entry,) = cache.glob("*.json")
    stored = json.loads(entry.read_text(encoding="utf-8"))
    stored["entry"][2] = stored["entry"][2][::-1]  # the opcodes scrambled: the checksum no longer holds
    entry.write_text(json.dumps(stored), encoding="utf-8")
    assert _fresh(PATTERN)._pickled_data == reference
    entry.write_text("{", encoding="utf-8")  # cut short
    assert _fresh(PATTERN)._pickled_data == reference
    assert json.loads(entry.read_text(encoding="utf-8"))["sha256"] == stored["sha256"]


def test_module_level_calls_are_never_written(cache):
    # What regex.search(pattern, text) compiles may be built from a document's own text.
    _fresh("a")
    written = set(cache.glob("*.json"))
    assert regex.search(r"某患者姓名\d+", "某患者姓名7") and regex.finditer(r"(?m)^目录标题$", "目录标题")
    assert set(cache.glob("*.json")) == written


def test_no_cache_folder_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, "")
    try:
        assert _fresh(PATTERN).search("第一条 测试缓存1")
    finally:
        regexcache.uninstall()
    assert not list(tmp_path.rglob("*.json"))


def test_the_command_fills_the_cache_and_leaves_regex_as_it_found_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    law = tmp_path / "law.txt"
    law.write_text("第一条 为了示范。\n第二条 本办法适用于示范。\n", encoding="utf-8")
    before = _main._compile
    assert main(["chunk", str(law), "-o", str(tmp_path / "a.jsonl"), "-q", "--no-timeout"]) == 0
    assert _main._compile is before
    # A new process fills the cache, the next builds its patterns from the entries: the same chunks.
    for name in ("b.jsonl", "c.jsonl"):
        subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(law), "-o", str(tmp_path / name), "-q"],
                       check=True, timeout=120)
        assert list((tmp_path / "cache" / regexcache.FOLDER).glob("*.json"))
        assert (tmp_path / name).read_bytes() == (tmp_path / "a.jsonl").read_bytes()


def test_hits_only_builds_what_the_cache_holds_and_refuses_the_rest(cache):
    held = _fresh(PATTERN)._pickled_data
    regexcache.uninstall()
    regex.purge()
    regexcache.install()
    with regexcache.hits_only():
        assert regex.compile(PATTERN)._pickled_data == held
        with pytest.raises(regexcache.Miss):
            regex.compile(PATTERN + "不在缓存")
    assert regex.compile(PATTERN + "不在缓存").search("第一条 测试缓存1不在缓存")  # outside: compiled and kept


def test_the_oldest_entries_go_past_the_limit(cache, monkeypatch):
    monkeypatch.setattr(regexcache, "ENTRIES", 3)
    for i in range(5):
        _fresh(PATTERN + str(i))
    assert len(list(cache.glob("*.json"))) == 3
    assert _fresh(PATTERN + "4").search("第一条 测试缓存14")
