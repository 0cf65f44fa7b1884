"""Text normalisation: the fast paths (a clean text returned as it is, runs of lookalikes
translated) give what the plain definition gives, one character for one."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domainchunk.normalize import _table, normalize_chars, normalize_text

# Lookalikes (full-width digits and letters, a Kangxi radical, a compatibility ideograph, a
# radical supplement form, odd spaces), invisible characters, newlines and ordinary text.
_ALPHABET = "０１９ＡＺａｚ⼀⼈豈⺠⻔\u00a0\u2003\u202f\ufeff\u200b\u2060\x00\r\n第一条本法规定。 abc12"


def plainly(text: str) -> str:
    """The definition: newlines made \\n, invisible characters dropped, lookalikes translated."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for ch in "\ufeff\u200b\u200c\u200d\u2060\x00":
        text = text.replace(ch, "")
    return text.translate(_table())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=80))
def test_normalize_text_is_the_plain_definition(text: str) -> None:
    assert normalize_text(text) == plainly(text)


@given(st.text(alphabet=_ALPHABET.replace("\ufeff", "").replace("\u200b", "").replace("\u2060", "").replace("\x00", ""),
               max_size=80))
def test_lookalikes_are_repaired_one_for_one(text: str) -> None:
    repaired = normalize_chars(text)
    assert len(repaired) == len(text)
    assert repaired == text.translate(_table())


def test_a_clean_text_is_returned_as_it_is() -> None:
    clean = "第一条 为了示范，制定本法。\n第二条 本法适用于示范。"
    assert normalize_text(clean) is clean
    assert normalize_text("第１条\u3000本法") == "第1条\u3000本法"  # the ideographic space is kept: it is text


def test_double_spacing_is_undone_and_single_blank_lines_between_paragraphs_stay() -> None:
    from domainchunk.readers.text import text_document, undouble

    doubled = "标题\n\n第一行\n\n第二行\n\n\n\n第二段\n\n第三行\n"
    assert undouble(doubled) == "标题\n第一行\n第二行\n\n第二段\n第三行\n"
    assert text_document(doubled.replace("\n", "\r\n"), "x.txt").text == "标题\n第一行\n第二行\n\n第二段\n第三行\n"
    # CRLF with the blank line double spacing leaves after the last line too: its lines are
    # counted once line ends are LF (a trailing CR once counted as one more line, and nothing was undone)
    assert text_document((doubled + "\n").replace("\n", "\r\n"), "x.txt").text == "标题\n第一行\n第二行\n\n第二段\n第三行\n"
    # every paragraph set apart by one blank line, as statutes are written: nothing to undo
    spaced = "第一条 示范。\n\n第二条 示范。\n\n第三条 示范。\n\n第四条 示范。\n\n第五条 示范。\n"
    assert undouble(spaced) == spaced
    # a web copy's paragraphs of a zero-width space are lines as written, not gaps of blank lines
    web = "标题\n\n\u200b\n\n第一条 示范。\n\n\u200b\n\n第二条 示范。\n\n第三条 示范。\n"
    assert undouble(web) == web
    # one pair of lines that touch, anywhere, and the text was not double spaced
    touching = doubled.replace("第二段\n\n", "第二段\n")
    assert undouble(touching) == touching
    assert text_document(touching.replace("\n", "\r\n"), "x.txt").text == touching


def test_radicals_read_as_the_simplified_ideographs_a_font_draws_with_them():
    """Qt (wkhtmltopdf) maps a glyph shared by a radical and an ideograph to the radical: the
    ideograph is what was typed. ⻮ was read 韦 and ⻯ 韩 before; ⻣ and ⺅ not at all; ⼾ as 戶."""
    assert normalize_text("⻮科⻣折⺅⼾籍⻯") == "齿科骨折亻户籍竜"
    assert normalize_text("⼈⺠法院⺩某⻄药") == "人民法院王某西药"
