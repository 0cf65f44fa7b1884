"""Masking of identifying fields in medical records (``mask_phi=True``, ``--mask-phi``).

The values of labelled identifying fields (姓名：…, 身份证号：…, 电话：…, 住址：…,
住院号：…) and free-standing ID-card and mobile numbers are replaced by typed
placeholders such as ``[姓名]``. Masking happens before chunking, on a copy of
the document whose blocks, rows, cells and pages are moved to the new offsets,
so every chunk is still an exact slice of the (masked) document text and the
chunk metadata read from that text carries placeholders, never the values.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Callable

import regex

from .models import Block, Document, Page

# placeholder type -> the labels a record writes before the value
FIELDS: dict[str, tuple[str, ...]] = {
    "姓名": ("患者姓名", "病人姓名", "姓名"),
    "身份证号": ("身份证号码", "身份证号", "身份证", "证件号码", "证件号"),
    "电话": ("联系电话", "手机号码", "手机号", "电话号码", "电话", "手机", "联系方式"),
    "住址": ("家庭住址", "现住址", "户籍地址", "联系地址", "住址", "地址"),
    # record numbers link a document to the patient: 病历号 and 登记号 on lab reports and outpatient notes
    "住院号": ("住院号", "门诊号", "病案号", "病历号", "登记号", "就诊卡号", "医保卡号", "患者ID", "病人ID", "ID号"),
}
_LABEL_TYPE = {label: kind for kind, labels in FIELDS.items() for label in labels}
_LABELLED = regex.compile(
    r"(?<![\p{Han}])(?P<label>" + "|".join(sorted(_LABEL_TYPE, key=len, reverse=True)) + r")"
    r"[ \t\u3000]*[:：][ \t\u3000]*(?P<value>[^\s:：，,;；。|]+)"
)
# Values that identify a person wherever they stand.
_FREE = (
    ("身份证号", regex.compile(r"(?<!\d)\d{17}[\dXx](?!\d)")),
    ("电话", regex.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")),
)

Edit = tuple[int, int, str]  # replace text[start:end] by the string


def phi_edits(text: str) -> list[Edit]:
    """The replacements masking ``text``, sorted and non-overlapping."""
    edits: list[Edit] = []
    for m in _LABELLED.finditer(text):
        value = m.group("value")
        if value.startswith("[") or set(value) <= {"*", "＿", "_", "-"}:
            continue  # already masked, or a blank form field
        edits.append((m.start("value"), m.end("value"), f"[{_LABEL_TYPE[m.group('label')]}]"))
    for kind, pattern in _FREE:
        edits += [(m.start(), m.end(), f"[{kind}]") for m in pattern.finditer(text)]
    edits.sort()
    kept: list[Edit] = []
    for e in edits:
        if not kept or e[0] >= kept[-1][1]:
            kept.append(e)
    return kept


def apply_edits(text: str, edits: list[Edit]) -> tuple[str, Callable[[int], int]]:
    """The edited text, and a function moving an old offset to the new text.

    An offset inside a replaced span moves to the start of its replacement, one
    at its end to the end of the replacement, so spans keep covering what they covered.
    """
    parts: list[str] = []
    ends: list[int] = []  # old end of each edit
    shifts: list[int] = []  # cumulative length change once past each edit
    new_starts: list[int] = []
    pos = shift = 0
    for a, b, rep in edits:
        parts += [text[pos:a], rep]
        new_starts.append(a + shift)
        shift += len(rep) - (b - a)
        ends.append(b)
        shifts.append(shift)
        pos = b
    parts.append(text[pos:])

    def move(offset: int) -> int:
        i = bisect_right(ends, offset) - 1  # last edit ending at or before offset
        j = i + 1
        if j < len(edits) and edits[j][0] < offset < edits[j][1]:
            return new_starts[j]
        return offset + (shifts[i] if i >= 0 else 0)

    return "".join(parts), move


def mask_document(doc: Document) -> Document:
    """A copy of ``doc`` whose identifying values are replaced by typed placeholders such as ``[姓名]``."""
    edits = phi_edits(doc.text)
    if not edits:
        return doc.model_copy(deep=True)
    text, move = apply_edits(doc.text, edits)

    def moved_block(b: Block) -> Block:
        rows = [
            row.model_copy(update={
                "start": move(row.start), "end": move(row.end),
                "cells": [c.model_copy(update={"start": move(c.start), "end": move(c.end),
                                               "text": text[move(c.start) : move(c.end)]}) for c in row.cells],
            })
            for row in b.rows
        ]
        return b.model_copy(update={"start": move(b.start), "end": move(b.end), "rows": rows})

    pages = [Page(number=p.number, start=move(p.start), end=move(p.end)) for p in doc.pages]
    metadata = {**doc.metadata, "phi_masked": len(edits)}
    return doc.model_copy(update={"text": text, "blocks": [moved_block(b) for b in doc.blocks],
                                  "pages": pages, "metadata": metadata}, deep=True)
