"""The detector: every rule file's signals scored on the text; the best type above its threshold wins.

Like presidio's recognizers, signals are data (pattern, weight, cap, why), and
the result names every signal that fired, so a reviewer can see why a document
was read as a statute and not as a contract.
"""
from __future__ import annotations

from .errors import RuleError
from .models import Detection, Reason
from .normalize import squash_whitespace
from .rulefile import PATTERN_TIMEOUT, RuleFile
from .view import view_of

GENERIC = "generic"
DEFAULT_WINDOW = 30_000  # the type of a document shows in its first pages
LINE_RUN_ON = 500  # how far past its window a signal may read to finish the line the window cuts


def _search_end(text: str, end: int) -> int:
    """Where a signal's search may run to: the end of the line its window cuts, so that a line cut
    short by the window is not read as ending there (a title's ``$`` after 《…规定 of 《…规定》); matches
    still start inside the window."""
    if end >= len(text):
        return end
    nl = text.find("\n", end, end + LINE_RUN_ON)
    return nl if nl >= 0 else min(len(text), end + LINE_RUN_ON)


def detect(text: str, registry: dict[str, RuleFile]) -> Detection:
    """Signals are read on the tolerant view: page furniture out, hard-wrapped lines joined."""
    text = view_of(text).text
    scores: dict[str, float] = {}
    reasons: list[Reason] = []
    squashed: dict[int, str] = {}  # the searched text without whitespace, per window, made on first need
    for doc_type, rules in sorted(registry.items()):
        if not rules.detect.signals:
            continue
        score = 0.0
        for sig in rules.detect.signals:
            end = min(len(text), sig.window or DEFAULT_WINDOW)
            if sig.checked_first():
                if end not in squashed:
                    squashed[end] = squash_whitespace(text[:end])
                if sig.lacks_words(squashed[end]):  # cannot match: not compiled for nothing
                    continue
            count = 0
            try:
                for m in sig.regex.finditer(text, 0, _search_end(text, end), timeout=PATTERN_TIMEOUT):
                    if m.start() >= end:
                        break
                    count += 1
                    if count >= sig.cap:
                        break
            except TimeoutError:
                raise RuleError(rules.path or rules.id, f"signal {sig.id} timed out: its pattern backtracks too much") from None
            if count:
                score += sig.weight * count
                reasons.append(Reason(doc_type=doc_type, signal=sig.id, count=count, weight=sig.weight, why=sig.why))
        scores[doc_type] = round(score, 3)
    eligible = {t: s for t, s in scores.items() if s >= registry[t].detect.min_score}
    if not eligible:
        return Detection(doc_type=GENERIC, score=0.0, scores=scores, reasons=reasons)
    best = max(sorted(eligible), key=lambda t: eligible[t])
    return Detection(doc_type=best, score=eligible[best], scores=scores, reasons=reasons)
