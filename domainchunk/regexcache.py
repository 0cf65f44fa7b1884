"""Compiled ``regex`` patterns kept across processes, for the command's own processes.

The ``regex`` module parses and compiles a pattern in Python: the outline levels, the
detector's signals and the combined scans of the built-in rules take about two seconds of CPU
in every process that meets every type, which is most of a tiny file's command and what each
batch worker repeats. What that work produces is data: the arguments ``regex`` hands its C
engine (the pattern, its flags, an opcode string, the group names), the very tuple a pickled
pattern carries. The first process to compile a pattern writes that tuple beside the rule
cache, one small JSON file per pattern; a later process builds the pattern from it without
parsing, as unpickling does. The key covers the pattern, its flags, the ``regex`` version and
the Python version, so an upgrade misses; an entry that does not check out (damaged, cut short,
another pattern's) is ignored and written again.

Only patterns made by ``regex.compile`` are written: those are built from the rule files. A
module-level call (``regex.finditer(pattern, text)``) may build its pattern from a document's
own text (a heading of a table of contents, a name in a medical record), which must never reach
the disk; it is compiled as ``regex`` always does. Only ``domainchunk``'s command installs the
cache (:func:`install`), in its own process and the workers it forks: a program that imports
the library keeps ``regex`` as it found it.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .rulefile import cache_dir

FORMAT = 1
FOLDER = "regex"  # under the rule cache's folder
ENTRIES = 4096  # the oldest beyond this are removed when an entry is written

_installed: list[Any] = []  # the regex module's own compile function, once wrapped
_hits_only: list[bool] = []  # non-empty inside hits_only()


class Miss(Exception):
    """Under :func:`hits_only`: a pattern the cache does not hold (it would be compiled)."""


def _folder() -> Path | None:
    base = cache_dir()
    return None if base is None else base / FOLDER


def _key(versions: str, pattern: str, flags: int, default_version: int) -> str:
    h = hashlib.sha256(f"{FORMAT}\0{versions}\0{default_version}\0{flags}\0".encode())
    h.update(pattern.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _encode(data: tuple) -> list:
    """The compile arguments as JSON: the opcodes as base64, the int-keyed group names as pairs."""
    pattern, flags, code, group_index, index_group, named_lists, named_indexes, req_offset, req_chars, req_flags, \
        groups = data
    return [pattern, flags, base64.b64encode(code).decode("ascii"), sorted(group_index.items()),
            sorted(index_group.items()), req_offset, list(req_chars), req_flags, groups,
            bool(named_lists or named_indexes)]


def _decode(entry: list) -> tuple:
    pattern, flags, code, group_index, index_group, req_offset, req_chars, req_flags, groups, named = entry
    if named:
        raise ValueError("named lists are never stored")
    return (pattern, flags, base64.b64decode(code, validate=True), {str(k): int(v) for k, v in group_index},
            {int(k): str(v) for k, v in index_group}, {}, [], int(req_offset), tuple(map(int, req_chars)),
            int(req_flags), int(groups))


def _digest(entry: list) -> str:
    return hashlib.sha256(json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def read_entry(folder: Path, key: str) -> Any:
    """The JSON entry written under ``key`` by :func:`write_entry`, or None where it is absent or
    does not check out (damaged, cut short, another key's)."""
    try:
        stored = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        entry = stored["entry"]
        if stored["key"] != key or stored["sha256"] != _digest(entry):
            return None
        return entry
    except (OSError, ValueError, TypeError, KeyError, UnicodeError):  # absent or damaged: compiled anew
        return None


def write_entry(folder: Path, key: str, entry: Any, limit: int | None = None) -> None:
    """Write atomically (a reader sees no entry or a whole one), the oldest beyond ``limit``
    (default ``ENTRIES``) removed; never fail the compile."""
    limit = ENTRIES if limit is None else limit
    try:
        blob = json.dumps({"key": key, "sha256": _digest(entry), "entry": entry}, ensure_ascii=False)
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(blob)
            os.replace(tmp, folder / f"{key}.json")
        except BaseException:
            os.unlink(tmp)
            raise
        names = [name for name in os.listdir(folder) if name.endswith(".json")]  # not Path.glob: 10x slower
        if len(names) > limit:
            entries = sorted((folder / name for name in names), key=lambda p: p.stat().st_mtime_ns)
            for old in entries[:-limit]:
                old.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError, AttributeError):  # a read-only or full disk: compiled again next time
        pass


def _load(folder: Path, key: str, pattern: str) -> tuple | None:
    entry = read_entry(folder, key)
    try:
        return None if entry is None or entry[0] != pattern else _decode(entry)
    except (ValueError, TypeError, KeyError, IndexError):  # damaged: compiled anew
        return None


def _store(folder: Path, key: str, data: tuple) -> None:
    try:
        entry = _encode(data)
    except (TypeError, ValueError, AttributeError):
        return
    write_entry(folder, key, entry)


def install() -> bool:
    """Serve this process's ``regex.compile`` calls from the cache, and fill it; True once installed.

    Does nothing where ``regex`` is not the version whose internals this was written against
    (its compile entry point, its per-process cache and a pattern's compile arguments). Where
    the cache is off (``DOMAINCHUNK_CACHE_DIR=``, looked at on every compile) patterns are
    compiled as ever.
    """
    if _installed:
        return True
    import regex
    from regex import _main, _regex

    original = getattr(_main, "_compile", None)
    if original is None or not hasattr(_main, "_locale_sensitive") \
            or not hasattr(regex.compile("a"), "_pickled_data"):
        return False
    built: dict[tuple, Any] = {}  # this process's patterns, by what regex.compile was called with
    skipped = _main.DEBUG | _main.LOCALE
    versions = f"{sys.version_info[:3]} {regex.__version__}"
    public_compile = _main.compile.__code__

    def compile_cached(pattern: Any, flags: int, ignore_unused: bool, kwargs: dict, cache_it: bool) -> Any:
        # Only what the cache can key and regex itself would cache: a str pattern, no named lists,
        # no locale (its compile depends on the process's locale) or debug output.
        if type(pattern) is not str or kwargs or not cache_it or flags & skipped:
            return original(pattern, flags, ignore_unused, kwargs, cache_it)
        version = regex.DEFAULT_VERSION
        seen = built.get((pattern, flags, version))
        if seen is not None:
            return seen
        folder = _folder()
        if folder is None or sys._getframe(1).f_code is not public_compile:  # off, or maybe a document's text
            return original(pattern, flags, ignore_unused, kwargs, cache_it)
        key = _key(versions, pattern, flags, version)
        data = _load(folder, key, pattern)
        if data is not None:
            compiled = _regex.compile(*data)
        elif _hits_only:
            raise Miss(pattern)
        else:
            compiled = original(pattern, flags, ignore_unused, kwargs, cache_it)
            if not _main._locale_sensitive.get((str, pattern), True) and not (compiled.flags & _main.LOCALE):
                _store(folder, key, compiled._pickled_data)
        built[(pattern, flags, version)] = compiled
        return compiled

    _main._compile = compile_cached
    _installed.append(original)
    return True


def uninstall() -> None:
    """``regex`` as it was; patterns already made stay valid."""
    if _installed:
        from regex import _main

        _main._compile = _installed.pop()


@contextmanager
def serving() -> Iterator[None]:
    """The cache installed for the duration (a command run in a test's process leaves no trace)."""
    fresh = not _installed and install()
    try:
        yield
    finally:
        if fresh:
            uninstall()


@contextmanager
def hits_only() -> Iterator[None]:
    """Patterns made inside come from the cache or raise :class:`Miss`: for work worth doing
    only where it is cheap (a batch's parent building, before it forks, what its workers share)."""
    _hits_only.append(True)
    try:
        yield
    finally:
        _hits_only.pop()
