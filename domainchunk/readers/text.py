"""Plain text and Markdown: encoding detection, then one block per paragraph."""
from __future__ import annotations

import re
from typing import Any

import regex

from ..errors import ReadError
from ..models import Document
from ..normalize import normalize_newlines, normalize_text

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def decode(data: bytes, source: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 (BOM or NUL pattern), then GB18030."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec.replace("-sig", ""))
            except UnicodeDecodeError as exc:
                raise ReadError(source, f"undecodable {codec} text at byte {exc.start}") from None
    if b"\x00" in data[:4096]:
        # UTF-16 without BOM puts NUL in every other byte for ASCII and most CJK punctuation.
        even, odd = data[0:4096:2].count(0), data[1:4096:2].count(0)
        codec = "utf-16-be" if even > odd else "utf-16-le"
        if max(even, odd) > len(data[:4096]) // 8:
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                pass
        raise ReadError(source, "binary file, not text (NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise ReadError(source, f"undecodable text: not UTF-8, UTF-16 or GB18030 (byte {exc.start})") from None
    return text


_CONTROL = regex.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _check_text(text: str, source: str) -> None:
    if not text.strip():
        raise ReadError(source, "empty file")
    sample = text[:8192]
    if len(_CONTROL.findall(sample)) > max(8, len(sample) // 50):
        raise ReadError(source, "binary file, not text (control characters)")
    if sample.count("\ufffd") > max(4, len(sample) // 100):
        raise ReadError(source, "undecodable text (replacement characters)")


# The standard re module: these run over every paragraph, and need nothing of regex's.
_PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")
_MD_HEADING = re.compile(r"[ \t\u3000]*(#{1,6})(?!#)[ \t]*\S")  # matched at a paragraph's start


# Double spacing: a converter or a web copy wrote a blank line after every line, so no two lines
# touch, every gap between lines is an odd run of blank lines (none became one, one became
# three) and some gap is three or more, which a text that merely sets its paragraphs apart by one
# blank line never has. The blank lines it added are no paragraph gaps: the reader takes them out,
# as it takes CRLF to LF, and the text reads as written before. Lines are told as written, before
# invisible characters go: a web copy's paragraph of a zero-width space alone is a line, not a gap;
# but with line ends already LF, so a CRLF text's lines are counted as an LF text's are.
DOUBLED_MIN_LINES = 5
_BLANK_RUN = re.compile(r"\n(?:[ \t\u3000]*\n)+")
# Two lines that touch, told by their characters either side of the one line break between them
# (what the gap count below would find, found at the first such place instead of after every gap).
# Written from the line break, the one literal, with the character before it as a lookbehind: sre
# then jumps from line break to line break, where a pattern opening with a class is tried at every
# character (2.3 ms on a 200,000-character statute whose lines first touch near its end; 0.2 ms so).
_TOUCHING_LINES = re.compile(r"\n(?<=[^\n \t\u3000]\n)[^\n \t\u3000]")


def undouble(text: str) -> str:
    """``text`` with the blank lines of double spacing taken out (half of each gap, rounded
    down, stays); any other text as it is."""
    if _TOUCHING_LINES.search(text):
        return text
    gaps = [m.group().count("\n") - 1 for m in _BLANK_RUN.finditer(text.strip("\n"))]
    lines = text.strip("\n").count("\n") + 1 - sum(gaps)
    if (lines < DOUBLED_MIN_LINES or len(gaps) != lines - 1 or any(g % 2 == 0 for g in gaps)
            or not any(g >= 3 for g in gaps)):
        return text
    return _BLANK_RUN.sub(lambda m: "\n" * ((m.group().count("\n") - 1) // 2 + 1), text)


def text_document(text: str, source: str, *, markdown: bool = False) -> Document:
    """A Document from already decoded text: one block per run of non-empty lines."""
    text = normalize_text(undouble(normalize_newlines(text)))
    _check_text(text, source)
    # The blocks go to the Document as plain fields, validated in one call with it (a model per
    # paragraph, validated one by one, was a third of reading a long statute).
    blocks: list[dict[str, Any]] = []
    for m in _PARAGRAPH.finditer(text):
        start, end = m.span()
        heading = _MD_HEADING.match(text, start, end) if markdown else None
        if heading:
            blocks.append({"kind": "heading", "start": start, "end": end, "level": len(heading.group(1))})
        else:
            blocks.append({"kind": "paragraph", "start": start, "end": end})
    return Document.model_validate({"source": source, "text": text, "blocks": blocks,
                                    "metadata": {"format": "markdown" if markdown else "text"}})


def read_text(data: bytes, source: str) -> Document:
    return text_document(decode(data, source), source)


def read_markdown(data: bytes, source: str) -> Document:
    return text_document(decode(data, source), source, markdown=True)
