"""Rule patterns on the stdlib ``re`` engine, where that is exact and provably safe.

The ``regex`` module runs every rule with a timeout, because a rule file is user data and a
pattern may backtrack without end; but each of its calls costs microseconds before any
matching. Stdlib ``re`` is several times faster on the same pattern and cannot be
interrupted, so a pattern goes to it only when two things hold:

* it means the same there: :func:`translate` writes the ``regex``-only spellings out
  (``\\p{Han}``, and ``\\d`` and ``\\s`` as the ``regex`` module's own Unicode tables, which
  are newer than ``re``'s) and gives every named group a name of its own (``regex`` lets
  alternatives share one); anything else ``regex``-only (``\\w``, ``\\b``, other properties,
  back-references, inline flags) keeps the pattern on ``regex``; a variable-width lookbehind
  may be left out where that only widens what matches, and the caller decides the matches of
  the groups that held one on ``regex`` (:func:`compile_safe`);
* it cannot backtrack catastrophically: :func:`safe` walks the parsed pattern and refuses a
  repeat whose body can match nothing, a repeat whose body can end in a run of characters that
  can also start the body (``(a+)+``), a repeat holding alternatives that can start alike
  (``(a|ab)*``), and two unbounded runs of overlapping characters with nothing but optional
  items between them (``\\s*\\s*``).
"""
from __future__ import annotations

import _sre as _engine  # type: ignore[import-not-found]  # sre's C engine, which a stored entry is handed to
import base64
import hashlib
import re
import sys
import threading
import warnings
from array import array
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import regex

from .regexcache import read_entry, write_entry
from .rulefile import cache_dir

# sre's parser and constants: private modules of re since Python 3.11, public before it.
_C: Any
_sre: Any
_compiler: Any
try:
    from re import _compiler  # type: ignore[attr-defined,no-redef]
    from re import _constants as _C  # type: ignore[attr-defined,no-redef]
    from re import _parser as _sre  # type: ignore[attr-defined,no-redef]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as _compiler
    import sre_constants as _C
    import sre_parse as _sre

_MAX = 0x10FFFF
_UNBOUNDED = _C.MAXREPEAT
_REPEATS = (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", _C.MAX_REPEAT))
_ONE_CHAR = (_C.LITERAL, _C.NOT_LITERAL, _C.ANY, _C.IN)
_ZERO_WIDTH = (_C.AT, _C.ASSERT, _C.ASSERT_NOT)


class Unsafe(Exception):
    """The pattern may backtrack without bound, or uses what the check cannot judge."""


@lru_cache(maxsize=None)
def _code_points() -> str:
    """Every code point but the surrogates, in order (built in C: a Python loop takes 0.3 s)."""
    return "".join(array("I", r).tobytes().decode("utf-32-le") for r in (range(0xD800), range(0xE000, _MAX + 1)))


@lru_cache(maxsize=None)
def _ranges_of(prop: str) -> str:
    """What ``prop`` matches under the ``regex`` module, as the body of a character class (kept
    on disk with the compiles: reading every code point costs a process 0.1 s)."""
    folder = store_folder()
    key = store_key("ranges", prop, regex.__version__)
    if folder is not None:
        if isinstance(stored := read_entry(folder, key), str):
            return stored
    ranges = _read_ranges(prop)
    if folder is not None:
        write_entry(folder, key, ranges, STORE_ENTRIES)
    return ranges


def _read_ranges(prop: str) -> str:
    text = _code_points()
    parts = []
    for m in regex.finditer(f"{prop}+", text, flags=regex.VERSION0):
        lo, hi = (c if c < 0xD800 else c + 0x800 for c in (m.start(), m.end() - 1))
        # a run never crosses the surrogates: neither side of that gap is in any of these tables
        parts.append(_escape(lo) if lo == hi else f"{_escape(lo)}-{_escape(hi)}")
    return "".join(parts)


def _escape(c: int) -> str:
    return f"\\U{c:08x}"


# The escapes written out as the regex module's tables (outside a class: ``[…]``, ``[^…]``).
_CLASSES = {"d": r"\d", "s": r"\s", "p{Han}": r"\p{Han}"}
_NEGATED = {"D": r"\d", "S": r"\s", "P{Han}": r"\p{Han}"}
# Escapes whose meaning differs between the engines or that ``re`` lacks: the pattern stays on regex.
_REFUSED = set("wWbBpPXNGKmMhHVvQE")
_GROUP_NAME = re.compile(r"\(\?P<(\w+)>")


def translate(pattern: str, names: list[str], rename: str = "_g") -> str | None:
    """``pattern`` (placeholders expanded) as stdlib ``re`` source meaning the same, or None.

    Each named group is renamed ``{rename}K`` (K its place in ``names``, which gets the old
    name appended), so alternatives may share a name as the regex module allows.
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            nxt = pattern[i + 1]
            key = "p{Han}" if pattern.startswith("p{Han}", i + 1) else "P{Han}" if pattern.startswith("P{Han}", i + 1) else nxt
            if key in _CLASSES:
                body = _ranges_of(_CLASSES[key])
                out.append(body if in_class else f"[{body}]")
            elif key in _NEGATED:
                if in_class:
                    return None
                out.append(f"[^{_ranges_of(_NEGATED[key])}]")
            elif nxt in _REFUSED or nxt.isdigit() and nxt != "0":
                return None  # a property, a word boundary, a numbered back-reference …
            else:
                out.append(pattern[i : i + 2])
            i += len(key) + 1
            continue
        if in_class:
            if c == "]":
                in_class = False
            elif c == "[":
                return None  # a nested set: version-dependent in both engines
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):  # a leading ] is a literal
                out.append("\\]")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?", i):
            m = _GROUP_NAME.match(pattern, i)
            if m is not None:
                out.append(f"(?P<{rename}{len(names)}>")
                names.append(m.group(1))
                i = m.end()
                continue
            rest = pattern[i + 2 : i + 3]
            if rest not in (":", "=", "!", "<", "#"):
                return None  # inline flags, named back-references, branch reset, conditionals …
            if rest == "<" and pattern[i + 3 : i + 4] not in ("=", "!"):
                return None  # (?<name>…)
        out.append(c)
        i += 1
    if in_class:
        return None
    return "".join(out)


# A run this long of characters two runs of a pattern may split between them sends a text to the
# regex module: below it, the square of a run's length is a bounded cost per line.
SHARED_RUN = 64


# What compile_safe builds is kept on disk beside the rule cache (one small JSON file per pattern),
# as regexcache keeps the regex module's: sre parses, checks and compiles in Python, 0.1-0.5 s
# for a type's levels, which every process paid again (a batch's workers, a one-file command) or
# never bought while renting (issue 13). An entry holds what sre hands its C engine (flags, opcode
# list, groups), the long-run class and the relaxed groups; its key covers the source, the
# arguments, this module's own source and Python's sre version, so a change misses.
STORE = "stdre"  # under the rule cache's folder
STORE_FORMAT = 1
STORE_ENTRIES = 512
_REFUSED_ENTRY = ["refused"]  # the pattern did not pass: stored so, as that costs a parse too


def store_folder() -> Path | None:
    base = cache_dir()
    return None if base is None or _code_version() is None else base / STORE


@lru_cache(maxsize=1)
def _code_version() -> str | None:
    """What a stored compile depends on besides its arguments (None: no source to read, no store)."""
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None
    return f"{STORE_FORMAT} {sys.version} {_engine.MAGIC} {_engine.CODESIZE} {hashlib.sha256(source).hexdigest()}"


def store_key(*parts: str) -> str:
    h = hashlib.sha256(str(_code_version()).encode())
    for part in parts:
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _compiled(parsed, flags: int) -> tuple[re.Pattern, list]:
    """``_compiler.compile(parsed, flags)`` (a pattern that keeps no source: ``rx.pattern`` is
    None), with the arguments it handed the engine as an entry can hold them."""
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    # the opcodes as the engine's code words in base64: a type's levels are half a million of them
    words = base64.b64encode(array(_CODE_WORD, code).tobytes()).decode("ascii")
    entry = [flags | parsed.state.flags, words, parsed.state.groups, sorted(groupindex.items())]
    return _from_entry(entry), entry


_CODE_WORD = {2: "H", 4: "I", 8: "Q"}[_engine.CODESIZE]


def _from_entry(entry: list) -> re.Pattern:
    """The pattern an entry describes; the engine checks the opcodes it is handed (RuntimeError)."""
    flags, words, groups, names = entry
    code = array(_CODE_WORD)
    code.frombytes(base64.b64decode(words, validate=True))
    groupindex = {str(name): int(i) for name, i in names}
    indexgroup: list[str | None] = [None] * int(groups)
    for name, i in groupindex.items():
        indexgroup[i] = name
    return _engine.compile(None, int(flags), code.tolist(), int(groups) - 1, groupindex, tuple(indexgroup))


def compile_safe(source: str, flags: int = 0, nonempty: Iterable[str] = (),
                 relaxed: list[str] | None = None, guard: bool = False) -> tuple[re.Pattern, re.Pattern | None] | None:
    """:func:`check_and_compile`, kept on disk (see ``STORE``): a stored entry is built without
    parsing, the same pattern."""
    nonempty = sorted(nonempty)
    folder = store_folder()
    key = store_key("compile_safe", source, str(flags), "\x1f".join(nonempty), "-" if relaxed is None else "r",
                    "g" if guard else "-")
    if folder is not None:
        entry = read_entry(folder, key)
        if entry == _REFUSED_ENTRY:
            return None
        try:
            if entry is not None:
                code, long_run, stored = entry
                rx, run = _from_entry(code), None if long_run is None else re.compile(str(long_run))
                if relaxed is not None:
                    relaxed += [str(name) for name in stored]
                return rx, run
        except (ValueError, TypeError, RuntimeError, IndexError, re.error):  # damaged: compiled anew, written again
            pass
    added: list[str] = []
    built = check_and_compile(source, flags, nonempty, added if relaxed is not None else None, guard)
    if relaxed is not None:
        relaxed += added
    if folder is not None:
        write_entry(folder, key, _REFUSED_ENTRY if built is None else [built[1], built[2], added], STORE_ENTRIES)
    return None if built is None else (built[0], built[3])


def check_and_compile(source: str, flags: int = 0, nonempty: Iterable[str] = (), relaxed: list[str] | None = None,
                      guard: bool = False) -> tuple[re.Pattern, list, str | None, re.Pattern | None] | None:
    """What :func:`compile_safe` gives, built: the pattern, its entry, the long-run class's source
    and that class compiled.

    ``source`` compiled by stdlib ``re`` when it compiles there without warnings, :func:`safe`
    passes it and none of the groups named in ``nonempty`` can match the empty string, with the
    pattern of a run (``SHARED_RUN`` long) of the characters two of its runs share, which a text
    must not hold for the pattern to run on it; None if it does not pass.

    Given a ``relaxed`` list, variable-width lookbehinds (which ``re`` cannot run) are left out
    where leaving them out only lets the pattern match more, and the names of the groups that
    held one are appended: where such a group takes part in a match, the caller must decide
    with the pattern as written.

    With ``guard``, the pattern's last item and each of its alternatives are guarded as
    :func:`_guard` says: the same matches, each place that none can open at given up sooner.

    It is parsed once, for the check and the compiler both (sre parses in Python, at about
    5 µs a character of a long pattern)."""
    shared: list[Ranges] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parsed = _sre.parse(source, flags)
            if relaxed is not None:
                names = {num: name for name, num in parsed.state.groupdict.items()}
                relaxed += sorted({names[g] for g in _relax(parsed, (), True) if g in names})
            safe(parsed, shared)
            if any(_first(body)[1] for body in _group_bodies(parsed, set(nonempty))):
                return None
            if guard:
                _guard(parsed)
            with _memoised_charsets():
                rx, entry = _compiled(parsed, flags)
    except (re.error, Unsafe, FutureWarning, DeprecationWarning, RecursionError, OverflowError):
        return None
    finally:
        _FIRSTS.clear()
        _CLASSES_SEEN.clear()
    if not shared:
        return rx, entry, None, None
    body = "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in _union(shared))
    long_run = f"[{body}]{{{SHARED_RUN},}}"
    return rx, entry, long_run, re.compile(long_run)


def _guard(parsed) -> None:
    """Put a lookahead for the characters it can start with (``(?=[…])``) before the pattern's
    last item and at the start of each alternative of it (of the alternation it is, or that the
    groups it is made of hold): a combined scan's levels (its alternatives) are each entered at
    every line start, blank lines and lines that start with none of their characters too, and
    sre gives an alternative up at its first character only where it begins with a literal or a
    class, not a group. A guard only says what the item needs to match at all, so the matches,
    their groups and the order alternatives are tried in are the same. An item that can match
    the empty string gets none, and nothing is guarded where case may be ignored or ``.`` take a
    line end (the first characters below are the characters as written, ``.`` without it)."""
    if parsed.state.flags & (re.IGNORECASE | re.DOTALL) or _flagged(parsed):
        return
    op, av = last = parsed.data[-1]
    while op is _C.SUBPATTERN and len(av[-1].data) == 1:
        op, av = av[-1].data[0]
    if op is _C.BRANCH:
        for branch in av[1]:
            branch.data[:0] = _lookahead(parsed, branch.data)
    parsed.data[-1:] = [*_lookahead(parsed, [last]), last]


def _lookahead(parsed, items) -> list:
    """``(?=[F])``, F the characters ``items`` can start with, as one parsed item in a list; none
    where ``items`` can match the empty string."""
    first, nullable = _first(items)
    if nullable or not first:
        return []
    cls = [(_C.LITERAL, a) if a == b else (_C.RANGE, (a, b)) for a, b in first]
    return [(_C.ASSERT, (1, _sre.SubPattern(parsed.state, [(_C.IN, cls)])))]


def _flagged(seq) -> bool:
    """Some group of ``seq`` sets or clears flags of its own (``(?i:…)``)."""
    return _some_group(seq, lambda av: bool(av[1] or av[2]))


def _group_bodies(parsed, names: set[str]) -> Iterator:
    """The parsed bodies of the groups called ``names``."""
    wanted = {parsed.state.groupdict[n] for n in names if n in parsed.state.groupdict}
    stack = [parsed]
    while stack and wanted:
        for op, av in stack.pop():
            if op is _C.SUBPATTERN:
                if av[0] in wanted:
                    yield av[-1]
                stack.append(av[-1])
            elif op is _C.BRANCH:
                stack.extend(av[1])
            elif op in _REPEATS:
                stack.append(av[2])
            elif op in (_C.ASSERT, _C.ASSERT_NOT):
                stack.append(av[1])
            elif op is getattr(_C, "ATOMIC_GROUP", None):
                stack.append(av)


def _relax(seq, groups: tuple[int, ...], positive: bool) -> set[int]:
    """Take the variable-width lookbehinds out of ``seq`` (in place); the groups that held one.
    Only where the match must hold (``positive``: not inside a negative lookaround, where leaving
    a condition out would let less match) and only lookbehinds without groups of their own."""
    held: set[int] = set()
    kept = []
    for op, av in seq.data:
        if op in (_C.ASSERT, _C.ASSERT_NOT) and av[0] < 0:
            lo, hi = av[1].getwidth()
            if lo != hi:
                if not positive or _captures(av[1]):
                    raise Unsafe("a variable-width lookbehind that leaving out would not only widen")
                held.update(groups)
                continue
        kept.append((op, av))
        if op is _C.SUBPATTERN:
            held |= _relax(av[-1], groups + ((av[0],) if av[0] else ()), positive)
        elif op is _C.BRANCH:
            for branch in av[1]:
                held |= _relax(branch, groups, positive)
        elif op in _REPEATS:
            held |= _relax(av[2], groups, positive)
        elif op in (_C.ASSERT, _C.ASSERT_NOT):
            held |= _relax(av[1], groups, positive and op is _C.ASSERT)
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            held |= _relax(av, groups, positive)
    seq.data[:] = kept
    seq.width = None  # sre keeps a width it has worked out; this one may have changed
    return held


def _captures(seq) -> bool:
    """``seq`` holds a capturing group."""
    return _some_group(seq, lambda av: av[0] is not None)


def _some_group(seq, which: Callable[[tuple], bool]) -> bool:
    """Some group of ``seq``, at any depth, is one ``which`` tells by its parsed arguments
    (group number, flags added, flags cleared, body)."""
    for op, av in seq:
        if op is _C.SUBPATTERN and (which(av) or _some_group(av[-1], which)):
            return True
        if op is _C.BRANCH and any(_some_group(branch, which) for branch in av[1]):
            return True
        if op in _REPEATS and _some_group(av[2], which) or op in (_C.ASSERT, _C.ASSERT_NOT) and _some_group(av[1], which):
            return True
        if op is getattr(_C, "ATOMIC_GROUP", None) and _some_group(av, which):
            return True
    return False


_PATCHING = threading.Lock()


@contextmanager
def _memoised_charsets() -> Iterator[None]:
    """sre writes each character class out anew, a class holding a character past U+00FF as a
    64K bitmap: the spacing class ``[ \t\u3000]`` stands between a vocabulary's characters a
    thousand times in a type's levels, which was most of a build. Same class, same answer, so
    while one pattern compiles its classes are written once each (case-blind ones, which depend
    on more than the class, as before). The lock keeps two builds from nesting the swap."""
    with _PATCHING:
        original = _compiler._optimize_charset
        memo: dict[tuple, tuple[list, bool]] = {}

        def optimize(charset, iscased=None, fixup=None, fixes=None):
            if fixup is not None:
                return original(charset, iscased, fixup, fixes)
            key = tuple(charset)
            if key not in memo:
                memo[key] = original(charset, iscased, fixup, fixes)
            out, cased = memo[key]
            return list(out), cased  # a fresh list, as the original gives

        _compiler._optimize_charset = optimize
        try:
            yield
        finally:
            _compiler._optimize_charset = original


# --- the static check -------------------------------------------------------------------------
# A character set is a sorted tuple of inclusive code-point ranges; an item's first characters
# are the union of such sets.

Ranges = tuple[tuple[int, int], ...]


def _complement(rs: Ranges) -> Ranges:
    out, lo = [], 0
    for a, b in rs:
        if a > lo:
            out.append((lo, a - 1))
        lo = b + 1
    if lo <= _MAX:
        out.append((lo, _MAX))
    return tuple(out)


def _normal(rs: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for a, b in sorted(rs):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _overlap(x: Ranges, y: Ranges) -> bool:
    i = j = 0
    while i < len(x) and j < len(y):
        if x[i][1] < y[j][0]:
            i += 1
        elif y[j][1] < x[i][0]:
            j += 1
        else:
            return True
    return False


def _charset(op, av) -> Ranges:
    if op is _C.LITERAL:
        return ((av, av),)
    if op is _C.NOT_LITERAL:
        return _complement(((av, av),))
    if op is _C.ANY:
        return _complement(((10, 10),))
    # A class is a new list at each place it is written: kept by what it holds, as the spacing
    # class stands a thousand times in a type's levels.
    key = tuple(av)
    if key not in _CLASSES_SEEN:
        _CLASSES_SEEN[key] = _class_ranges(av)
    return _CLASSES_SEEN[key]


def _class_ranges(av) -> Ranges:
    negate = False
    rs = []
    for sub, val in av:
        if sub is _C.NEGATE:
            negate = True
        elif sub is _C.LITERAL:
            rs.append((val, val))
        elif sub is _C.RANGE:
            rs.append(val)
        else:  # a category left by ``re`` (\w, \d … it was not given as the regex module's table)
            raise Unsafe(f"character class with {sub}")
    out = _normal(rs)
    return _complement(out) if negate else out


def _union(sets: list[Ranges]) -> Ranges:
    return _normal([r for s in sets for r in s])


def _first(seq) -> tuple[Ranges, bool]:
    """The characters ``seq`` can start with, and whether it can match the empty string."""
    sets = []
    for op, av in seq:
        f, nullable = _first_item(op, av)
        sets.append(f)
        if not nullable:
            return _union(sets), False
    return _union(sets), True


# _first_item's answers during one check, by item (the parsed pattern is alive, so ids are stable):
# the check asks about the same items many times, and a large class takes long to normalise.
_FIRSTS: dict[tuple[int, int], tuple[Ranges, bool]] = {}


# _charset's answers during one check, by the class's items.
_CLASSES_SEEN: dict[tuple, Ranges] = {}


def _first_item(op, av) -> tuple[Ranges, bool]:
    key = (id(op), id(av))
    if key not in _FIRSTS:
        _FIRSTS[key] = _first_item_of(op, av)
    return _FIRSTS[key]


def _first_item_of(op, av) -> tuple[Ranges, bool]:
    if op in _ONE_CHAR:
        return _charset(op, av), False
    if op in _ZERO_WIDTH:
        return (), True
    if op is _C.SUBPATTERN:
        return _first(av[-1])
    if op is getattr(_C, "ATOMIC_GROUP", None):
        return _first(av)
    if op in _REPEATS:
        f, nullable = _first(av[2])
        return f, nullable or av[0] == 0
    if op is _C.BRANCH:
        firsts = [_first(b) for b in av[1]]
        return _union([f for f, _ in firsts]), any(e for _, e in firsts)
    raise Unsafe(f"{op}")


def _runs_at_end(seq, unbounded: bool = True) -> list[Ranges]:
    """The character sets of the unbounded runs (repeats of one character) ``seq`` can end in."""
    out: list[Ranges] = []
    for op, av in reversed(list(seq)):
        out += _runs_at(op, av, unbounded, _runs_at_end)
        if not _first_item(op, av)[1]:
            break
    return out


def _tails(seq) -> list[Ranges]:
    """What can follow where ``seq`` may stop short of all it can match: the first characters of
    an optional item it can end before, of a run's next character, of a repeat's next iteration.
    A repeat of ``seq`` whose next iteration can start with one of them can split a text between
    its iterations in more than one way (``(a|aa)+``, ``(a+)+``)."""
    out: list[Ranges] = []
    for op, av in reversed(list(seq)):
        first, nullable = _first_item(op, av)
        if nullable:
            out.append(first)
        if op is _C.SUBPATTERN:
            out += _tails(av[-1])
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            out += _tails(av)
        elif op is _C.BRANCH:
            out += [t for b in av[1] for t in _tails(b)]
        elif op in _REPEATS:
            out += _tails(av[2])
            if av[1] > 1:
                out.append(_first(av[2])[0])
        if not nullable:
            break
    return out


def _runs_at_start(seq, unbounded: bool = True) -> list[Ranges]:
    """The character sets of the runs that ``seq`` can start with."""
    out: list[Ranges] = []
    for op, av in seq:
        out += _runs_at(op, av, unbounded, _runs_at_start)
        if not _first_item(op, av)[1]:
            break
    return out


def _runs_at(op, av, unbounded: bool, inner) -> list[Ranges]:
    if op is _C.SUBPATTERN:
        return inner(av[-1], unbounded)
    if op is getattr(_C, "ATOMIC_GROUP", None):
        return inner(av, unbounded)
    if op is _C.BRANCH:
        return [r for b in av[1] for r in inner(b, unbounded)]
    if op in _REPEATS:
        body = list(av[2])
        if av[1] > 1 and len(body) == 1 and body[0][0] in _ONE_CHAR:
            return [_charset(*body[0])] if av[1] == _UNBOUNDED or not unbounded else []
        return inner(body, unbounded)  # a repeated group starts and ends as its body does
    return []


def safe(seq, shared: list[Ranges]) -> None:
    """Raise :class:`Unsafe` where ``seq`` (a parsed pattern) may backtrack without bound; add to
    ``shared`` the characters whose runs two of its runs may split (its work grows with the
    square of the longest such run in the text). The answers kept by item id during the check
    go with it: a later parse may reuse the ids."""
    try:
        _check(seq, shared)
    finally:
        _FIRSTS.clear()
        _CLASSES_SEEN.clear()


def _check(seq, shared: list[Ranges], in_repeat: bool = False) -> None:
    items = list(seq)
    _overlapping_runs(items, shared)
    if in_repeat:
        # Inside a repeat each choice must be decided by the next character: an optional item or
        # a run must not start like what follows it (``(a?a)+`` splits ``aaaa`` every which way).
        for k, (op, av) in enumerate(items):
            optional = op in _REPEATS and av[0] != av[1] or _first_item(op, av)[1]
            if optional and _overlap(_first_item(op, av)[0], _first(items[k + 1 :])[0]):
                raise Unsafe("inside a repeat, an optional item or a run that starts like what follows it")
    for op, av in items:
        if op in _REPEATS:
            lo, hi, body = av
            if hi > 1:
                first, nullable = _first(body)
                if nullable:
                    raise Unsafe("a repeat whose body can match nothing")
                if any(_overlap(tail, first) for tail in _tails(body)):
                    raise Unsafe("a repeat whose body can end in what starts it")
            _check(body, shared, in_repeat or hi > 1)
        elif op is _C.BRANCH:
            if in_repeat:
                # (the parser writes ``a|a`` as ``a(?:|)``: two alternatives that both match nothing)
                if sum(_first(b)[1] for b in av[1]) > 1:
                    raise Unsafe("alternatives inside a repeat that can both match nothing")
                firsts = [_first(b)[0] for b in av[1]]
                for a in range(len(firsts)):
                    for b in range(a + 1, len(firsts)):
                        if _overlap(firsts[a], firsts[b]):
                            raise Unsafe("alternatives inside a repeat that can start alike")
            for b in av[1]:
                _check(b, shared, in_repeat)
        elif op is _C.SUBPATTERN:
            _check(av[-1], shared, in_repeat)
        elif op in (_C.ASSERT, _C.ASSERT_NOT):
            _check(av[1], shared, in_repeat)
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            _check(av, shared, in_repeat)
        elif op not in _ONE_CHAR and op is not _C.AT:
            raise Unsafe(f"{op}")


def _overlapping_runs(items, shared: list[Ranges]) -> None:
    """Where an unbounded run that an item can end in is followed, with only optional items
    between, by an item that can start with an unbounded run of overlapping characters, add
    the characters both take to ``shared``: each way of sharing a run of them between the two
    is tried, so the work grows with the square of that run's length (and only of that run's)."""
    for k, (op, av) in enumerate(items):
        ends = _runs_at(op, av, True, _runs_at_end)
        if not ends:
            continue
        for op2, av2 in items[k + 1 :]:
            for a in ends:
                for b in _runs_at(op2, av2, True, _runs_at_start):
                    both = _intersection(a, b)
                    if both:
                        shared.append(both)
            if not _first_item(op2, av2)[1]:
                break


def _intersection(x: Ranges, y: Ranges) -> Ranges:
    return _complement(_normal(list(_complement(x) + _complement(y))))


def first_characters(source: str) -> str | None:
    """A stdlib class (``[…]``) of the characters a match of ``source`` (stdlib ``re``) can start
    with; None where it may match the empty string, case may be ignored or the walk cannot tell."""
    _FIRSTS.clear()  # keyed by items' ids: what another parse left there may name this one's items
    _CLASSES_SEEN.clear()
    try:
        parsed = _sre.parse(source)
        if parsed.state.flags & (re.IGNORECASE | re.DOTALL) or _flagged(parsed):
            return None
        first, nullable = _first(parsed.data)
    except (re.error, Unsafe, RecursionError):
        return None
    finally:
        _FIRSTS.clear()
        _CLASSES_SEEN.clear()
    if nullable or not first:
        return None
    return "[" + "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in first) + "]"


def crosses_lines(source: str, lookaheads: bool = False) -> bool:
    """Some character a match of ``source`` (stdlib ``re``) consumes may be a line end; True also
    where the walk cannot tell. With ``lookaheads``, what its lookaheads read counts too, and an
    anchor to the string's start or end (which a line matched alone would meet at its own) is no
    line's: True where the pattern may look past the end of the line it matches."""
    try:
        return _crosses_lines(_sre.parse(source).data, lookaheads)
    except (re.error, Unsafe, RecursionError):
        return True
    finally:
        _FIRSTS.clear()
        _CLASSES_SEEN.clear()


_STRING_ENDS = (_C.AT_BEGINNING_STRING, _C.AT_END_STRING)


def _crosses_lines(seq, lookaheads: bool = False) -> bool:
    """Some character ``seq`` consumes may be a line end (lookarounds consume nothing; with
    ``lookaheads``, what a lookahead reads counts, and so does an anchor to the string's ends)."""
    for op, av in seq:
        if op in _ONE_CHAR:
            if _overlap(_charset(op, av), ((10, 10),)):
                return True
        elif op is _C.SUBPATTERN:
            if _crosses_lines(av[-1], lookaheads):
                return True
        elif op is _C.BRANCH:
            if any(_crosses_lines(b, lookaheads) for b in av[1]):
                return True
        elif op in _REPEATS:
            if _crosses_lines(av[2], lookaheads):
                return True
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            if _crosses_lines(av, lookaheads):
                return True
        elif lookaheads and op in (_C.ASSERT, _C.ASSERT_NOT) and av[0] == 1:
            if _crosses_lines(av[1], lookaheads):
                return True
        elif lookaheads and op is _C.AT and av in _STRING_ENDS:
            return True
        elif op not in _ZERO_WIDTH:
            return True  # what the walk does not know may take anything
    return False
