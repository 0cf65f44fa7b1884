"""Text normalisation shared by every reader.

Only one-to-one character repairs are applied, so a reader may normalise text
piece by piece and offsets computed on the pieces stay valid in the whole.
Chinese full-width punctuation (，：（）) is kept as written: it is part of the
text users quote, and NFKC would turn it into ASCII.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import regex

# CJK Radicals Supplement characters that NFKC leaves alone but PDF producers emit for ordinary
# characters (⺠ for 民 …): a producer that writes a font's ToUnicode map back from its cmap (Qt,
# and so wkhtmltopdf) maps a glyph the font draws for a radical and an ideograph alike to the
# radical. Each is the ideograph Noto Sans and Serif CJK SC draw with the same glyph (read from
# their cmaps), and ⺩ 王, ⻄ 西 as other fonts share them.
_RADICAL_SUPPLEMENT = dict(zip(
    "⺂⺃⺅⺉⺋⺎⺏⺐⺒⺓⺔⺕⺖⺘⺙⺛⺞⺟⺠⺡⺣⺤⺦⺨⺫⺭⺯⺰⺱⺲⺳⺹⺺⺾⻁⻂⻃⻅⻆⻈⻉⻋⻌⻐⻑⻒⻓⻔⻖⻘⻙⻚⻛⻜⻝⻟⻠⻢⻣⻤⻥⻦⻧⻨⻩⻪⻫⻬⻮⻯⻰⻱⻲⻳⺩⻄",
    "乛乚亻刂㔾兀尣尢巳幺彑彐忄扌攵旡歺母民氵灬爫丬犭罒礻糹纟罓罒㓁耂肀艹虎衤覀见角讠贝车辶钅長镸长门阝青韦页风飞食飠饣马骨鬼鱼鸟卤麦黄黾斉齐齿竜龙龜亀龟王西"))
# A Kangxi radical is its compatibility decomposition (NFKC), except that a simplified-Chinese
# font draws ⼾ as 户 (NFKC gives the traditional 戶).
_KANGXI_SIMPLIFIED = {"⼾": "户"}


def _needs_nfkc(cp: int) -> bool:
    return (
        0x2F00 <= cp <= 0x2FDF  # Kangxi radicals: ⼀⼈⼤
        or 0xF900 <= cp <= 0xFAFF  # CJK compatibility ideographs
        or 0xFF10 <= cp <= 0xFF19  # full-width digits
        or 0xFF21 <= cp <= 0xFF3A  # full-width Latin capitals
        or 0xFF41 <= cp <= 0xFF5A  # full-width Latin small letters
        or cp in (0x00A0, 0x2002, 0x2003, 0x2009, 0x202F)  # odd spaces
    )


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    table: dict[int, str] = {ord(k): v for k, v in _RADICAL_SUPPLEMENT.items()}
    for lo, hi in ((0x2F00, 0x2FDF), (0xF900, 0xFAFF), (0xFF10, 0xFF5A), (0x00A0, 0x00A0), (0x2000, 0x202F)):
        for cp in range(lo, hi + 1):
            if not _needs_nfkc(cp):
                continue
            mapped = unicodedata.normalize("NFKC", chr(cp))
            if len(mapped) == 1 and mapped != chr(cp):
                table[cp] = mapped
    table.update({ord(k): v for k, v in _KANGXI_SIMPLIFIED.items()})
    return table


_INVISIBLE_CHARS = "\ufeff\u200b\u200c\u200d\u2060\x00"
_INVISIBLE = regex.compile(f"[{_INVISIBLE_CHARS}]+")


@lru_cache(maxsize=1)
def _lookalike() -> re.Pattern:
    # Runs of lookalikes, each run translated: str.translate walks every character through a
    # dict, which costs more than chunking a clean text, and most texts hold a few lookalikes
    # or none. The standard re module scans a large character class ~70x faster than regex.
    return re.compile("[" + "".join(re.escape(chr(cp)) for cp in sorted(_table())) + "]+")


@lru_cache(maxsize=1)
def _repairable() -> re.Pattern:
    """Any character :func:`normalize_text` removes or repairs: one pass tells a clean text."""
    return re.compile("[" + re.escape(_INVISIBLE_CHARS) + "".join(re.escape(chr(cp)) for cp in sorted(_table())) + "]")


def normalize_chars(text: str) -> str:
    """Repair lookalike characters one for one (offsets unchanged)."""
    table = _table()
    return _lookalike().sub(lambda m: m.group().translate(table), text)


_WHITESPACE = re.compile(r"\s+")


def squash_whitespace(text: str) -> str:
    """The text without any whitespace: how labels, terms and expected chunk starts are compared."""
    return _WHITESPACE.sub("", text)


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR line ends as LF."""
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def normalize_text(text: str) -> str:
    """Whole-text normalisation for a reader: newlines, invisible characters, lookalikes."""
    text = normalize_newlines(text)
    if _repairable().search(text) is None:
        return text
    text = _INVISIBLE.sub("", text)
    return normalize_chars(text)
