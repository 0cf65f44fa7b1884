"""The plain-text reader's double-spacing test: two lines touch where a line break has a
character other than spacing or a line break on both sides of it."""
from __future__ import annotations

import random

from domainchunk.readers.text import _TOUCHING_LINES, undouble

_SPACING = "\n \t\u3000"


def _touching(text: str) -> bool:
    return any(c == "\n" and 0 < i < len(text) - 1 and text[i - 1] not in _SPACING and text[i + 1] not in _SPACING
               for i, c in enumerate(text))


def test_touching_lines_are_found_wherever_a_line_break_has_text_on_both_sides():
    rng = random.Random(13)
    alphabet = "\n \t\u3000条a"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
        assert (_TOUCHING_LINES.search(text) is not None) == _touching(text), repr(text)


def test_double_spacing_is_taken_out_and_touching_lines_are_left_as_they_are():
    lines = [f"第{n}条 示范。" for n in "一二三四五六"]
    doubled = "\n\n".join(lines[:3]) + "\n\n\n\n" + "\n\n".join(lines[3:])  # a paragraph gap became three
    assert undouble(doubled) == "\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:])
    touching = doubled.replace("\n\n", "\n", 1)
    assert undouble(touching) == touching
