"""Contract hooks: what the rule file's patterns cannot say.

- the contract's title and its parties (甲方/出租方 … with their names), read
  from the lines before the first clause;
- per clause: its number and title, the terms a definitions clause defines
  (“本合同”系指…), the amounts, dates and clause cross-references it holds.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex

from ..models import Document
from ..outline import Outline, Section
from ..rulefile import RuleFile
from . import per_rule_file

_SPACES = regex.compile(r"[ \t\u3000]+")
_BLANK = regex.compile(r"^[＿_\s.…（）()]*$")
_TITLE_SEP = regex.compile(r"^[、．.：:\s]+")
_BRACKET_TITLE = regex.compile(r"^[【\[]([^】\]\n]{1,30})[】\]]")
_BODY_PUNCT = regex.compile(r"[，,；;？?！!＿_]")  # a sentence or a fill-in blank is body text
_DATE = regex.compile(
    r"\d{4}年\d{1,2}月(?:\d{1,2}日)?|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"
    r"|[〇○零一二三四五六七八九]{4}年[一二三四五六七八九十]{1,2}月(?:[一二三四五六七八九十]{1,3}日)?"
)


@lru_cache(maxsize=8)
def _number_token(annex_words: str) -> regex.Pattern:
    """A clause's number as written at its line start (第X条, 一、, 1.1, 附件一)."""
    return regex.compile(
        rf"第[^条\n]{{1,10}}条|[一二三四五六七八九十百零〇]+[、．.]|\d{{1,3}}(?:(?:[.．]|-)\d{{1,3}})*[.．、]?"
        rf"|(?:{annex_words})[^\s：:、.．]{{0,4}}"
    )


@lru_cache(maxsize=8)
def _defined_pattern(term_words: str, markers: str) -> regex.Pattern:
    """A quoted term a definitions clause defines (“本合同”系指…, “甲方”一词是指…)."""
    return regex.compile(rf"[“\"「『]([^”\"」』\n]{{1,30}})[”\"」』](?:{term_words})?(?:{markers})")


@lru_cache(maxsize=8)
def _cross_ref_pattern(self_names: str) -> regex.Pattern:
    """A reference to one of the contract's own clauses (本合同第五条, 本协议之第2.1条)."""
    return regex.compile(rf"(?:{self_names})(?:之)?\s*(第[0-9一二三四五六七八九十百零〇.．]{{1,10}}条)")


@per_rule_file
def _rule_words(rules: RuleFile, group: str) -> frozenset[str]:
    vocab = rules.terms.get(group, {})
    return frozenset(w for canonical, aliases in vocab.items() for w in (canonical, *(aliases or [])))


def _word_set(outline: Outline, group: str) -> frozenset[str]:
    return _rule_words(outline.rules, group)


@per_rule_file
def _rule_alternation(rules: RuleFile, group: str) -> str:
    return "|".join(regex.escape(w) for w in sorted(_rule_words(rules, group), key=lambda w: (-len(w), w)))


def _words(outline: Outline, group: str) -> str:
    """A vocabulary of the rule file as a plain alternation, longest first (no spaces between
    characters: these read metadata from text the levels have already cut)."""
    return _rule_alternation(outline.rules, group)


@lru_cache(maxsize=8)
def _title_pattern(suffixes: str) -> regex.Pattern:
    return regex.compile(rf"^.{{0,40}}?(?:{suffixes})(?:（[^）\n]{{1,12}}）|\([^)\n]{{1,12}}\))?$")


@lru_cache(maxsize=8)
def _amount_pattern(signs: str, units: str, capital_units: str) -> regex.Pattern:
    return regex.compile(
        rf"(?:{signs})?[ \t\u3000]*\d[\d,，]*(?:\.\d+)?[ \t\u3000]*(?:{units})"
        rf"|[壹贰叁肆伍陆柒捌玖拾佰仟万亿零]{{2,}}(?:{capital_units})"
    )


@lru_cache(maxsize=8)
def _alias_pattern(markers: str) -> regex.Pattern:
    return regex.compile(rf"(?:{markers})[“\"]?([^”\"）)，,；;。\n]{{1,8}})")


@lru_cache(maxsize=8)
def _party_pattern(words: tuple[str, ...]) -> regex.Pattern:
    """A role (spaces allowed inside: 甲　　方; 合伙人甲 names one of several), an optional
    （以下简称甲方）, a colon, then the name up to a gap."""
    # longest first, then in code-point order: the same pattern in every process, whatever order the words came in
    alternation = "|".join(
        "[ \t\u3000]*".join(map(regex.escape, w)) for w in sorted(words, key=lambda w: (-len(w), w))
    )
    return regex.compile(
        rf"(?:^|(?<=\t|[ \u3000]{{2}}))[ \t\u3000]*(?P<role>(?:{alternation})[甲乙丙丁戊己一二三四五六ABCDEF]?)[ \t\u3000]*"
        rf"(?:[（(](?P<paren>[^）)\n]{{1,16}})[）)])?[ \t\u3000]*[:：](?P<rest>[^\t\n]*?)(?=\t|[ \u3000]{{2}}|$)",
        regex.MULTILINE,
    )


def _party_words(outline: Outline) -> tuple[str, ...]:
    return tuple(_word_set(outline, "party"))


def _header_ends(outline: Outline) -> list[int]:
    """Where the lines that name a contract's title and parties may end: before the first
    clause, or, when a 填写说明 numbered like clauses comes first, before the clause where
    the numbering starts again (the contract's own first clause)."""
    units = [s.unit for s in outline.sections if s.unit is not None]
    if not units:
        return [min(len(outline.text), 3000)]
    return [units[0].start] + [u.start for u in units[1:] if u.num == (1, 0)][:1]


def _lines(text: str) -> list[str]:
    return [_SPACES.sub("", line) for line in text.splitlines() if line.strip()]


def _title(lines: list[str], outline: Outline) -> str | None:
    pattern = _title_pattern(_words(outline, "title_suffix"))
    for line in lines[:10]:
        if len(line) <= 40 and pattern.match(line):
            return line
    return None


def _parties(header: str, outline: Outline) -> list[dict[str, str]]:
    parties: list[dict[str, str]] = []
    seen: set[str] = set()
    alias_pattern = _alias_pattern(_words(outline, "alias_marker"))
    alias_roles = _word_set(outline, "alias_role")
    for m in _party_pattern(_party_words(outline)).finditer(header):
        role = _SPACES.sub("", m.group("role"))
        if role in seen:
            continue
        seen.add(role)
        party: dict[str, str] = {"role": role}
        rest = m.group("rest").strip()
        name = regex.split(r"[，,；;。（(]", rest, maxsplit=1)[0].strip("＿_ \u3000")
        if name and not _BLANK.match(name):
            party["name"] = name
        alias = alias_pattern.search(m.group("paren") or "") or alias_pattern.search(rest)
        if alias:
            party["alias"] = alias.group(1)
        elif m.group("paren") and _SPACES.sub("", m.group("paren")) in alias_roles:
            party["alias"] = m.group("paren")
        parties.append(party)
    return parties


def document_metadata(doc: Document, outline: Outline) -> dict[str, Any]:
    ends = _header_ends(outline)
    meta: dict[str, Any] = {}
    read, at = outline.as_read()  # a title or a party's name that a hard wrap cut is whole there
    title = _title(_lines(read[: at(ends[0])]), outline)
    if title:
        meta["title"] = title
    for end in ends:
        parties = _parties(read[: at(end)], outline)
        if parties:
            meta["parties"] = parties
            break
    return meta


def _clause_number_and_title(doc: Document, outline: Outline, sec: Section) -> dict[str, str]:
    unit = sec.unit
    assert unit is not None  # called for clause units only
    read, at = outline.as_read()
    line = read[at(unit.content) : at(unit.end)].strip()
    token = _number_token(_words(outline, "annex_word")).match(line)
    number = token.group().rstrip("、．.") if token and unit.level.label != "token" else unit.label
    rest = _TITLE_SEP.sub("", line[token.end() :] if token else line[len(unit.label) :])
    meta = {"clause": number if unit.level.label != "token" else unit.label}
    bracket = _BRACKET_TITLE.match(rest)
    title = bracket.group(1) if bracket else rest.rstrip("。：: ")
    if title and len(title) <= 30 and not _BODY_PUNCT.search(title) and "。" not in title:
        meta["clause_title"] = title
    return meta


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(s.strip() for s in items))


@per_rule_file
def _span_patterns(rules: RuleFile) -> tuple[regex.Pattern, regex.Pattern, regex.Pattern]:
    """The defined-term, amount and cross-reference patterns of a rule file, looked up once
    rather than per chunk (seven vocabulary look-ups a chunk were a third of its metadata)."""
    alt = _rule_alternation
    return (_defined_pattern(alt(rules, "term_word"), alt(rules, "definition_marker")),
            _amount_pattern(alt(rules, "currency_sign"), alt(rules, "currency_unit"), alt(rules, "capital_currency_unit")),
            _cross_ref_pattern(alt(rules, "self_name")))


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key in ("title", "parties"):
        if doc.metadata.get(key):
            meta["contract" if key == "title" else key] = doc.metadata[key]
    if sec.unit is not None and sec.kind == "clause":
        meta.update(_clause_number_and_title(doc, outline, sec))
    elif sec.unit is not None and sec.kind == "annex":
        meta["annex"] = sec.unit.label
    # Searched in place (no pattern here looks behind or anchors): the chunk's span, not a copy of
    # it, where the rules read (an amount or a date that a hard wrap cut is whole there).
    text, at = outline.as_read()
    start, end = at(start), at(end)
    defined, amount, cross_ref = _span_patterns(outline.rules)
    found = {
        "defined_terms": _unique(defined.findall(text, start, end)),
        "amounts": _unique([m.group() for m in amount.finditer(text, start, end)]),
        "dates": _unique(_DATE.findall(text, start, end)),
        "cross_references": _unique([g.replace("．", ".") for g in cross_ref.findall(text, start, end)]),
    }
    meta.update({k: v for k, v in found.items() if v})
    return meta
