"""Medical-record hooks: what the rule file's patterns cannot say.

- the record a chunk belongs to (the 【入院记录】 it sits under, or the kind of
  record a single-record document's title names) and that record's date;
- the section's canonical name from the rule file's vocabulary (初步诊断 → 入院诊断);
- the header fields of the record (性别, 年龄, 科室, 床号, 住院号/门诊号) and the department;
- lab results written inside a section (【血常规】WBC 12.5↑ …, LIS lines), read by
  the same parser as lab reports.
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import Any, Iterator

import regex

from ..models import Document
from ..outline import Heading, Outline, Section, _same_offset
from ..phi import field_labels
from ..rulefile import RuleFile
from . import per_rule_file
from .lab import text_results

# A day is never followed by a time's colon: in a date glued to its time (2023-3-29:15, spaces
# dropped by extraction) the digits before the colon are the hour.
_DATE = r"\d{4}[-/.年]\d{1,2}[-/.月]\d{1,2}(?![:：])日?"
_DATE_RX = regex.compile(_DATE)
# A record's time written alone on the line under its title (首次病程记录 / 2023-10-01 15:30).
_TITLE_DATE = regex.compile(r"[ \t\u3000]*\n[ \t\u3000]*(?P<date>" + _DATE + ")")


# The vocabularies (header labels, date labels, record titles) are the rule file's `fields:` and
# `terms:`; these compile them once per distinct vocabulary.
@per_rule_file
def _header_regex(rules: RuleFile) -> regex.Pattern:
    """A header field and its value. A value ends where the next field's label and colon begin
    (every label a header line may hold: the file's own fields', the record date's and masking's),
    so that a header whose spaces were lost (性别：男年龄：46岁) still reads field by field; a key
    then stands right after such a value, where otherwise a Han character before it means a
    longer word (病床号, 入院科室)."""
    own = rules.vocabulary_pattern("fields.header")
    labels = f"{own}|{rules.vocabulary_pattern('fields.record_date')}|{field_labels(rules)}"
    label_colon = rf"(?:{labels})(?:名称)?[ \t\u3000]*[:：]"
    value = r"[^\s:：，,;；]"
    return regex.compile(
        rf"(?:(?<!\p{{Han}})|(?<={label_colon}[ \t\u3000]*{value}{{1,30}}))(?P<key>{own})(?:名称)?[ \t\u3000]*[:：]"
        rf"[ \t\u3000]*(?P<value>(?:(?!{label_colon}){value})+)"
    )


@lru_cache(maxsize=8)
def _record_date_regex(labels: str) -> regex.Pattern:
    return regex.compile(r"(?:^|\n)[ \t\u3000]*" + labels + r"[ \t\u3000]*[:：][ \t\u3000]*(?P<date>" + _DATE + ")")


@lru_cache(maxsize=8)
def _plain_regex(words: str) -> regex.Pattern:
    return regex.compile(words)


_SECTION_LEVELS = ("medical.section", "medical.report_section", "medical.inline_section", "medical.styled", "medical.key")


_QUALIFIER = regex.compile(r"[、及和与]")
# The English name an English-first template writes before the Chinese one (Chief Complaint 主诉).
_ENGLISH_FIRST = regex.compile(r"[A-Za-z][A-Za-z .,'&/-]*[ \t\u3000]*(?=\p{Han})")


def _canonical(outline: Outline, label: str) -> str:
    """The vocabulary's name for a section: of the label, else of the name it begins with
    (手术经过、术中发现及处理 → 手术简要经过), else of the Chinese name after an English one
    (Chief Complaint 主诉 → 主诉); an unknown template key names itself."""
    if term := outline.rules.term("section", label):
        return term
    if (m := _ENGLISH_FIRST.match(label)) and (term := outline.rules.term("section", label[m.end():])):
        return term
    for cut in reversed([m.start() for m in _QUALIFIER.finditer(label)]):
        if term := outline.rules.term("section", label[:cut]):
            return term
    return label


@per_rule_file
def _header_key_regex(rules: RuleFile) -> regex.Pattern:
    """A header field's label alone: where a header field may begin."""
    return regex.compile(rules.vocabulary_pattern("fields.header"))


def _header_matches(rules: RuleFile, text: str) -> Iterator[regex.Match]:
    """``_header_regex(rules).finditer(text)``, tried only where a label begins.

    A field's match begins with its label (what comes before is looked behind at), so every
    match starts where the label pattern matches: those places, overlapping ones too, are found
    by the label pattern, which the regex module runs from literal to literal, and the field's
    pattern is tried there, its look-behind seeing the text before. Searched at every character
    the whole pattern was most of a record's metadata time."""
    field = _header_regex(rules)
    reach = 0  # the end of the last match: the next may not begin before it
    for label in _header_key_regex(rules).finditer(text, overlapped=True):
        at = label.start()
        if at >= reach and (m := field.match(text, at)):
            reach = m.end()
            yield m


def _header_fields(rules: RuleFile, text: str) -> dict[str, str]:
    """The header fields of a record by metadata key (性别: 男), the first value of each."""
    fields: dict[str, str] = {}
    for m in _header_matches(rules, text):
        key = rules.field_key("header", m.group("key")) or m.group("key")
        fields.setdefault(key, m.group("value"))
    return fields


def _record_date_at(rules: RuleFile, text: str, start: int = 0, end: int | None = None) -> regex.Match | None:
    rx = _record_date_regex(rules.vocabulary_pattern("fields.record_date"))
    return rx.search(text, start, len(text) if end is None else end)


def document_metadata(doc: Document, outline: Outline) -> dict[str, Any]:
    rules = outline.rules
    meta: dict[str, Any] = {}
    # Read where the rules read: a value that a hard wrap cut (住院号：Z2⏎406112) is whole there.
    read, at = outline.as_read()
    first = outline.sections[1].start if len(outline.sections) > 1 else None  # where the record's body begins
    head = read[: max(len(read) if first is None else at(first), min(len(read), 300))]
    if m := _plain_regex(rules.vocabulary_pattern("terms.record_title")).search(head[:300]):
        meta["record_type"] = rules.term("record_title", m.group()) or m.group()
    fields = _header_fields(rules, read)
    if fields:
        meta["header"] = fields
    labels = rules.fields.get("department", {}).get("department", [])
    dept = next((fields[k] for k in labels if k in fields), None)
    if dept:
        meta["department"] = dept
    # A date label opens its line: on the text as written first, as the view may have run a full
    # header line on into it (… 职业：公司职员⏎入院时间：…).
    as_written = doc.text[: max(len(doc.text) if first is None else first, min(len(doc.text), 300))]
    if date := _record_date_at(rules, as_written) or _record_date_at(rules, head):
        meta["record_date"] = date.group("date")
    return meta


# Per heading of the last outline asked about: its start, and the last record and note headings at
# or before it. Each chunk asks, and walking back over a long record's headings per chunk was
# quadratic.
_OPEN: list = [None, [], [], []]  # the outline's headings, their starts, last record, last note


def _open_records(outline: Outline, pos: int) -> list[Heading]:
    """The record and note headings in force at ``pos``, outermost first: the last record heading
    before it, and the last note heading after that record (or with no record above it)."""
    headings = outline.headings
    if _OPEN[0] is not headings:
        records: list[Heading | None] = []
        notes: list[Heading | None] = []
        record = note = None
        for h in headings:
            if h.level.id == "medical.record":
                record, note = h, None  # a note above its record is no note of it
            elif h.level.id == "medical.note":
                note = h
            records.append(record)
            notes.append(note)
        _OPEN[:] = [headings, [h.start for h in headings], records, notes]
    k = bisect_right(_OPEN[1], pos) - 1
    if k < 0:
        return []
    return [h for h in (_OPEN[2][k], _OPEN[3][k]) if h is not None]


def _record_date(outline: Outline, records: list[Heading], sec: Section) -> str | None:
    """The date of the record or note in force: in its title, else on a line right under it, read
    on the text as written and then on the view (where a wrap cut the date)."""
    readings = [(outline.text, _same_offset), outline.as_read()]
    for h in reversed(records):
        if m := _DATE_RX.match(h.label):
            return m.group()
        for read, at in readings:
            end = at(h.end)
            if m := _TITLE_DATE.match(read, end) or _record_date_at(outline.rules, read, end, max(end, min(at(sec.end), end + 200))):
                return m.group("date")
    return None


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    # The headings a section opens with are in force for it (a dated note that opens the chunk).
    anchor = sec.unit.start if sec.unit is not None else (sec.headings[-1].start if sec.headings else sec.start)
    records = _open_records(outline, anchor)
    record = next((h.label for h in records if h.level.id == "medical.record"), None)
    record = record or doc.metadata.get("record_type")
    if record:
        meta["record"] = record
    if note := next((h.label for h in records if h.level.id == "medical.note"), None):
        meta["note"] = note
    if records:
        if date := _record_date(outline, records, sec):
            meta["record_date"] = date
    elif doc.metadata.get("record_date"):
        meta["record_date"] = doc.metadata["record_date"]
    if sec.unit is not None and sec.unit.level.id in _SECTION_LEVELS:
        meta["section"] = _canonical(outline, sec.unit.label)
    if "department" in doc.metadata:
        meta["department"] = doc.metadata["department"]
    for key, value in doc.metadata.get("header", {}).items():
        meta[key] = value
    read, at = outline.as_read()  # a result a hard wrap cut is whole there
    meta.update(text_results(read[at(start) : at(end)]))
    return meta
