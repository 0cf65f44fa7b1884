"""Fallback splitter: cut an over-long piece of text into spans that fit a budget.

The structural chunkers hand over anything they cannot cut along the document's
own structure (an over-long article, a whole ``generic`` document).  This module
cuts ``text[start:end]`` recursively, trying boundary *levels* coarse to fine:

  0. the caller's ``cuts`` (e.g. where an article's 款 start, then its 项), coarsest first
  1. blank line            ``\\n\\s*\\n``   (cut after the blank run)
  2. line                  ``\\n``
  3. sentence end          after 。！？!?；; and any closing quote/bracket right after (``。”``)
  4. clause                after ，、：,:
  5. word                  jieba token boundaries (jieba is imported lazily)
  6. grapheme              ``\\X`` boundaries, so combining marks stay with their base
  7. code point            last resort for a single grapheme larger than the budget

At each level the piece is split at that level's cut points into segments, and
adjacent segments are packed greedily left to right into the longest span that
fits (``pack_segments``).  A lone segment that is still too big is re-split at the
next level.  Termination/correctness: every span emitted was measured to fit, the
spans are produced left to right from a partition of the piece, and the last
level can only fail on a single code point (reported as ``ValueError``).

Protected units -- numbers (``3.5``, ``1,000``, ``12:30``, ``2019-01-03``) and paired
brackets/quotes (《》（）()【】[]「」“”‘’"") -- are found once per call by regex.  At
levels 1-6 cut points strictly inside a protected unit are dropped.  Only units
that themselves fit the budget are protected (a 《title》 longer than max_chars can
be cut like any other text), which is what guarantees the fine levels always find
a legal cut.  Bracket matches are capped at 200 chars and do not nest, so an
unclosed opener protects nothing and the scan stays linear.  The caller's cuts
are never filtered: the caller knows its document's structure.

``size`` may replace ``len`` (e.g. a token counter).  It must be monotone: a
substring never measures more than the string containing it.
"""
from __future__ import annotations

import logging
from bisect import bisect_left, bisect_right
from types import ModuleType
from typing import Callable, Sequence

import regex

Span = tuple[int, int]
SizeFn = Callable[[str], int]
_Level = Callable[[int, int], list[int]]  # (a, b) -> sorted cut offsets strictly inside (a, b)

_PROTECT_CAP = 200  # longest bracketed unit we try to keep whole (chars)
_PAIRS = ("《》", "（）", "()", "【】", "[]", "「」", "“”", "‘’", '""')
_BRACKETED = regex.compile("|".join(
    f"{regex.escape(pair[0])}[^{regex.escape(pair)}]{{0,{_PROTECT_CAP}}}{regex.escape(pair[1])}"
    for pair in _PAIRS))
_NUMBER = regex.compile(r"\d+(?:[.,:：/\-]\d+)*")

# Each pattern matches the text a cut goes *after*; the cut is the match end.
_PUNCT_LEVELS = (
    regex.compile(r"\n\s*\n"),
    regex.compile(r"\n"),
    regex.compile(r"[。！？!?；;]+[”’\"」』）)】\]》]*"),
    regex.compile(r"[，、：,:]+"),
)
_GRAPHEME = regex.compile(r"\X")
_EXTENDS = regex.compile(r"[\p{M}\u200d]")  # a cut just before one of these splits a grapheme


def pack_segments(bounds: Sequence[int], max_chars: int, size: SizeFn | None = None,
                  text: str | None = None) -> list[Span]:
    """Greedily merge the segments ``[bounds[k], bounds[k+1])`` into the fewest spans.

    ``bounds`` must be strictly increasing.  Each returned span is the longest run
    of whole segments starting where the previous span ended that fits
    ``max_chars``; a single segment that does not fit is returned on its own (the
    caller re-splits it).  With ``size=None`` the bounds are themselves the prefix
    sums of segment lengths, so the furthest fit is one ``bisect``.  With a custom
    ``size`` we gallop (1, 2, 4, ... segments) and then bisect, measuring
    ``text[a:b]``, so a span costs O(its length * log segments) and we never
    measure far beyond what fits.
    """
    if size is not None and text is None:
        raise ValueError("pack_segments: a custom size needs the text")
    spans: list[Span] = []
    i, last = 0, len(bounds) - 1
    while i < last:
        a = bounds[i]
        if size is None:
            j = bisect_right(bounds, a + max_chars, i + 1, last + 1) - 1
        else:
            assert text is not None  # checked above
            j = _furthest_fit(bounds, i, last, lambda k: size(text[a:bounds[k]]) <= max_chars)
        j = max(j, i + 1)  # nothing fits: hand back the lone oversized segment
        spans.append((a, bounds[j]))
        i = j
    return spans


def _furthest_fit(bounds: Sequence[int], i: int, last: int, fits: Callable[[int], bool]) -> int:
    """Largest j in [i, last] with fits(j) (fits(i), the empty span, is assumed)."""
    lo, step = i, 1
    while True:
        hi = min(i + step, last)
        if not fits(hi):
            break
        lo = hi
        if hi == last:
            return last
        step *= 2
    while hi - lo > 1:  # invariant: fits(lo), not fits(hi)
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def split_span(text: str, start: int, end: int, max_chars: int, *,
               size: SizeFn | None = None,
               cuts: Sequence[Sequence[int]] = ()) -> list[Span]:
    """Cut text[start:end] into consecutive spans, each of size <= max_chars.

    `cuts` are extra, coarser candidate boundaries supplied by the caller (e.g. the
    offsets where an article's 款 start, then where its 项 start), tried before the
    generic levels, coarsest first. `size` measures a piece (default: len); e.g. a
    token counter.

    The spans cover [start, end) exactly, nothing trimmed; [] when start == end.
    Raises ValueError if max_chars < 1, the range is not inside text, or (only
    possible with a custom size) a single code point measures more than max_chars.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be >= 1, got {max_chars}")
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"bad range [{start}, {end}) for a text of {len(text)} chars")

    if size is None:
        def fits(a: int, b: int) -> bool:
            return b - a <= max_chars
    else:
        def fits(a: int, b: int) -> bool:
            return size(text[a:b]) <= max_chars

    inside = _protected(text, start, end, fits)

    def guarded(level: _Level) -> _Level:
        return lambda a, b: [c for c in level(a, b)
                             if not inside(c) and not _EXTENDS.match(text, c)]

    words = _Words(text, inside)
    levels: list[_Level] = [_given(level, start, end) for level in cuts]
    levels += [guarded(_regex_level(text, p)) for p in _PUNCT_LEVELS]
    levels += [guarded(words), guarded(_regex_level(text, _GRAPHEME)),
               lambda a, b: list(range(a + 1, b))]
    word_level = len(cuts) + len(_PUNCT_LEVELS)

    out: list[Span] = []

    def split(a: int, b: int, lvl: int) -> None:
        if fits(a, b):
            out.append((a, b))
            return
        if lvl == len(levels):  # [a, b) is one code point
            raise ValueError(f"character {text[a:b]!r} at {a} is larger than max_chars={max_chars}")
        if lvl == word_level and size is None:
            # Measured in characters, a span ends at the last word end within reach: only the
            # words there need jieba, not every word of the piece (a long line of lab values).
            spans = _pack_by_test(a, b, max_chars, words.test(a, b))
        else:
            spans = pack_segments([a, *levels[lvl](a, b), b], max_chars, size, text)
        for p, q in spans:
            split(p, q, lvl + 1)  # packed spans fit at once; a lone big segment goes finer

    if start < end:
        split(start, end, 0)
    return out


def _given(level: Sequence[int], start: int, end: int) -> _Level:
    offs = sorted({c for c in level if start < c < end})
    return lambda a, b: offs[bisect_right(offs, a):bisect_left(offs, b)]


def _regex_level(text: str, pattern: regex.Pattern) -> _Level:
    # One pass over the piece, via pos/endpos so the piece is not copied.
    return lambda a, b: [m.end() for m in pattern.finditer(text, a, b) if m.end() < b]


def _jieba() -> ModuleType:
    import jieba  # lazy: importing domainchunk must not pay for jieba's dictionary
    jieba.setLogLevel(logging.WARNING)
    return jieba


class _Words:
    """The word level: jieba token ends that are also grapheme boundaries (jieba knows nothing
    of graphemes: emoji, Hangul jamo, flags), as a list for a piece, or as a test per offset.

    jieba cuts each run of its word characters (``re_han_default``) on its own and makes every
    other character a token of its own (a CR LF pair one token, and one grapheme), so whether an
    offset ends a token is known from the run it falls in: the test tokenizes only the runs asked
    about.
    """

    def __init__(self, text: str, inside: Callable[[int], bool]) -> None:
        self.text = text
        self.inside = inside

    def __call__(self, a: int, b: int) -> list[int]:
        text = self.text
        graphemes = {m.end() for m in _GRAPHEME.finditer(text, a, b)}
        return sorted({a + e for _, _, e in _jieba().tokenize(text[a:b])} & graphemes - {b})

    def test(self, a: int, b: int) -> Callable[[int], bool]:
        """Is offset ``c`` (``a < c < b``) a cut of ``guarded(self)(a, b)``?"""
        text, inside = self.text, self.inside
        graphemes = {m.end() for m in _GRAPHEME.finditer(text, a, b)}
        word = _jieba().re_han_default  # what jieba.cut reads at each call
        # The runs of word characters in [a, b), found in one pass: walking back from each tested
        # offset to its run's start was quadratic in a long run (a line of 100,000 characters
        # without punctuation took seconds per cut).
        spans = [m.span() for m in word.finditer(text, a, b)]
        run_starts = [s for s, _ in spans]
        runs: dict[int, set[int]] = {}  # a run's start: its token ends

        def token_end(c: int) -> bool:
            i = bisect_right(run_starts, c - 1) - 1
            if i < 0 or not spans[i][0] < c < spans[i][1]:
                return True  # beside a character that is a token of its own
            s, e = spans[i]
            if s not in runs:
                runs[s] = {s + end for _, _, end in _jieba().tokenize(text[s:e])}
            return c in runs[s]

        return lambda c: c in graphemes and not inside(c) and not _EXTENDS.match(text, c) and token_end(c)


def _pack_by_test(a: int, b: int, max_chars: int, is_cut: Callable[[int], bool]) -> list[Span]:
    """``pack_segments([a, *cuts, b], max_chars)`` where ``cuts`` are the offsets in (a, b) that
    ``is_cut`` accepts, testing from the furthest a span reaches back rather than listing them all."""
    spans: list[Span] = []
    while b - a > max_chars:
        c = next((x for x in range(a + max_chars, a, -1) if is_cut(x)), None)
        if c is None:  # nothing fits: the lone oversized segment up to the next cut
            c = next((x for x in range(a + max_chars + 1, b) if is_cut(x)), b)
        spans.append((a, c))
        a = c
    if a < b:
        spans.append((a, b))
    return spans


def _protected(text: str, start: int, end: int,
               fits: Callable[[int, int], bool]) -> Callable[[int], bool]:
    """Return inside(c): is offset c strictly inside a protected unit that fits?"""
    units = [m.span() for pat in (_BRACKETED, _NUMBER)
             for m in pat.finditer(text, start, end) if fits(*m.span())]
    # Numbers lie wholly inside a bracket unit or outside all of them, so merging
    # overlaps never creates a unit bigger than one that fits.
    starts: list[int] = []
    ends: list[int] = []
    for p, q in sorted(units):
        if ends and p < ends[-1]:
            ends[-1] = max(ends[-1], q)
        else:
            starts.append(p)
            ends.append(q)

    def inside(c: int) -> bool:
        k = bisect_left(starts, c) - 1  # last unit starting before c
        return k >= 0 and c < ends[k]
    return inside
