"""Citations of statute articles, normalised: ``《中华人民共和国民法典》第五百七十七条``
→ ``{"law": "中华人民共和国民法典", "article": 577, "label": "第五百七十七条"}``.

Shared by statutes (本法第十条) and judgments (依照《…》第…条之规定).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterator

import regex

from .numerals import CHINESE_NUMERAL, parse_number
from .rulefile import load_rules

_N = f"[{CHINESE_NUMERAL}0-9]+"
_ARTICLE = f"第(?P<art>{_N})条(?:之(?P<sub>[{CHINESE_NUMERAL}]+))?(?:第(?P<para>{_N})款)?(?:第[（(]?(?P<item>{_N})[）)]?项)?"


# Every citation holds an article, 第…条: the standard re module finds those fast, and the
# citation pattern is tried only where one may begin (its optional law, 本法 and separator
# make it try, and fail, at every character of the text otherwise).
ARTICLE_CITED = re.compile(f"第{_N}条")
_LAW_REACH = 86  # 《, a law's name of up to 80 characters, 》 and a two-character separator, with room


@lru_cache(maxsize=8)
def _citation_regex(self_names: str) -> regex.Pattern:
    return regex.compile(
        rf"(?:《(?P<law>[^《》\n]{{2,80}})》|(?P<self>本(?:{self_names})))?"
        rf"(?:(?P<sep>[、，和及与或]|以及|或者)?(?:{_ARTICLE}))",
    )


@lru_cache(maxsize=1)
def _builtin_self_names() -> str:
    # a judgment quoting 本法第X条 reads the words from the built-in statute rule file
    return load_rules()["statute"].vocabulary_pattern("terms.self_name")


_ABSENT = object()  # a field a citation does not have, told apart from one that is None


def _shorten(law: str) -> str:
    # 《中华人民共和国民法典》 and 《民法典》 are the same law; keep the name as written but trimmed.
    return regex.sub(r"\s+", "", law)


def _citation_matches(rx: regex.Pattern, text: str, start: int, end: int) -> Iterator[regex.Match]:
    """``rx.finditer(text, start, end)``, searched from just before each article it can hold.

    A match holds a 第…条 at or after its start and nothing before it crosses a line: it begins
    at a 本 of the line (本法, 本 条 例 spaced out any length), a 《 within a law's reach, one of
    the two characters before the article, or at the article. So the leftmost match from
    ``pos`` is the leftmost from the earliest of those, and the characters before are skipped.
    """
    pos = start
    while core := ARTICLE_CITED.search(text, pos, end):
        q = core.start()
        line = max(pos, text.rfind("\n", pos, q) + 1)
        first = max(line, q - 2)
        for mark, reach in (("本", line), ("《", max(line, q - _LAW_REACH))):
            at = text.find(mark, reach, first)
            if at >= 0:
                first = at
        m = rx.search(text, first, end)
        assert m is not None  # the article itself matches at q
        yield m
        pos = m.end()


def find_citations(text: str, self_title: str | None = None, self_names: str | None = None, *,
                   start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
    """Every article cited in ``text[start:end]``, in order, without repeats (the span is
    searched in place: a chunk's citations without a copy of its text).

    A bare 第X条 continues the law last named (``《刑法》第十条、第十一条``); with no law
    named it is a reference within the same text, and ``self_title`` (the law's own
    title) is used when given. ``self_names`` is the alternation of the words a law cites
    itself by (本法, 本条例: the statute rule file's ``terms.self_name``); the built-in
    file's when not given.
    """
    # Every citation holds 第…条: three pieces in four of a law hold no 条 and cite nothing.
    if text.find("条", start, len(text) if end is None else end) < 0:
        return []
    found: list[dict[str, Any]] = []
    seen: set[tuple] = set()
    current: str | None = None
    last_end = -1
    rx = _citation_regex(_builtin_self_names() if self_names is None else self_names)
    for m in _citation_matches(rx, text, start, len(text) if end is None else end):
        law, self_, sep, art, sub, para, item = m.group("law", "self", "sep", "art", "sub", "para", "item")
        if law:
            current = _shorten(law)
        elif self_:
            current = self_title or self_
        elif m.start() != last_end and not sep:
            current = self_title if self_title else None
        last_end = m.end()
        article = parse_number(art)
        if article is None:
            continue
        label = f"第{art}条" + (f"之{sub}" if sub else "")
        entry: dict[str, Any] = {"law": current, "article": article, "label": label}
        # the entry's fields in a fixed order, an absent one as _ABSENT: two entries are the same
        # citation when they have the same fields with the same values
        key = (current, article, label, _ABSENT, _ABSENT, _ABSENT)
        if sub or para or item:
            if sub:
                entry["sub"] = parse_number(sub)
            if para:
                entry["paragraph"] = parse_number(para)
            if item:
                entry["item"] = parse_number(item)
            key = (current, article, label, entry.get("sub", _ABSENT), entry.get("paragraph", _ABSENT),
                   entry.get("item", _ABSENT))
        if key not in seen:
            seen.add(key)
            found.append(entry)
    return found
