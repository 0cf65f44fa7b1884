"""The built-in hook modules, one per document type."""
from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from ..rulefile import RuleFile

T = TypeVar("T")


def per_rule_file(build: Callable[..., T]) -> Callable[..., T]:
    """``build(rules, *args)`` once per loaded rule file and arguments: hooks run once per chunk,
    and a loaded rule file does not change. Keyed by identity, the memo keeps the file alive,
    so an id is never reused for another file while its entry stands."""
    memo: dict[tuple[Any, ...], tuple[RuleFile, T]] = {}

    @wraps(build)
    def cached(rules: RuleFile, *args: Any) -> T:
        key = (id(rules), *args)
        known = memo.get(key)
        if known is None or known[0] is not rules:
            known = memo[key] = (rules, build(rules, *args))
        return known[1]

    return cached
