"""Chinese and Arabic numerals as they appear in legal numbering (第一百零九条, 第２条, 十一、)."""
from __future__ import annotations

from functools import lru_cache

_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
           "六": 6, "七": 7, "八": 8, "九": 9, "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5,
           "陆": 6, "柒": 7, "捌": 8, "玖": 9}
_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000, "万": 10000}

CHINESE_NUMERAL = "零〇○一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟"
"""Character class body for patterns: ``[{CHINESE_NUMERAL}]+``."""


@lru_cache(maxsize=4096)
def parse_number(token: str) -> int | None:
    """``一百零九`` → 109, ``十一`` → 11, ``２３`` → 23, ``一〇三`` → 103; ``None`` if not a number."""
    token = token.strip()
    if not token:
        return None
    if token.isdigit():
        try:
            return int(token)  # int() reads full-width digits too
        except ValueError:
            return None
    if any(ch not in _DIGITS and ch not in _UNITS for ch in token):
        return None
    if not any(ch in _UNITS for ch in token):
        # digit by digit, as in 一〇三 or 二〇二四
        value = 0
        for ch in token:
            value = value * 10 + _DIGITS[ch]
        return value
    total, section, digit = 0, 0, None
    for ch in token:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch == "万":
            total += (section + (digit or 0)) * 10000
            section, digit = 0, None
        else:
            section += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
    return total + section + (digit or 0)


def to_chinese(n: int) -> str:
    """109 → 一百零九, 11 → 十一 (the inverse of :func:`parse_number` for 0 < n < 100000)."""
    if n == 0:
        return "零"
    digits = "零一二三四五六七八九"
    parts: list[str] = []
    zero = False
    for value, unit in ((10000, "万"), (1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d, n = divmod(n, value)
        if value == 10000 and d:
            parts.append(to_chinese(d) + unit)
            continue
        if d:
            if zero:
                parts.append("零")
                zero = False
            parts.append(digits[d] + unit)
        elif parts:
            zero = True
    text = "".join(parts)
    return text[1:] if text.startswith("一十") else text
