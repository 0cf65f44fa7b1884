"""The readers' line and cell cleaning: the fast path (a clean text returned as it is) gives what
the plain definition gives, for every kind of whitespace and repairable character."""
from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from domainchunk.normalize import normalize_text
from domainchunk.readers.layout import clean_cell, clean_line, join_wrapped

# Whitespace the regex module's \s knows, whitespace only str.strip knows (\x1c-\x1f), a tab, a
# newline and a carriage return, invisible characters, lookalikes, CJK and Latin text.
_ALPHABET = " \t\n\r\x1c\x1f\x85\xa0\u2002\u3000\u200b\ufeff１Ａ⺠第条。：ab.1"


def plain_line(text: str) -> str:
    text = regex.sub(r"\s+", lambda m: "\t" if "\t" in m.group() else " ", normalize_text(text))
    return text.strip()


def plain_cell(text: str) -> str:
    joined = ""
    for part in normalize_text(text).split("\n"):
        if piece := plain_line(part).replace("\t", " "):
            joined = join_wrapped(joined, piece)
    return joined


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=12))
def test_cleaning_is_the_plain_definition(text: str) -> None:
    assert clean_line(text) == plain_line(text)
    assert clean_cell(text) == plain_cell(text)


def test_a_clean_line_or_cell_is_returned_as_it_is() -> None:
    for text in ("第一条 本法规定。", "白细胞计数 6.5 10^9/L", ""):
        assert clean_line(text) is text and clean_cell(text) is text
    assert clean_line(" 第一条") == "第一条" and clean_cell("a\u3000\u3000b") == "a b"
    assert clean_line("a\x1c") == "a"  # str.strip's whitespace, which regex's \s is not
