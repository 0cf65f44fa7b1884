"""Judgment hooks: what the rule file's patterns cannot say.

- from the head of the document: the court, the document kind (民事判决书 …),
  the case number (案号), the procedure read from the case number's type code
  (初 → 一审, 终 → 二审, 再/申/监 → 再审), the cause of action where stated;
  the words for all of these (court names, document kinds, type codes, party roles)
  are the rule file's ``terms``;
- every statute article cited (依照《…》第X条第X款), normalised by the shared
  citation parser, for the document and per chunk. Statute text appended in a
  附录 is quoted, not cited, and contracts named in 《》 are not statutes.
"""
from __future__ import annotations

from typing import Any

import regex

from ..citations import find_citations
from ..models import Document
from ..outline import Outline, Section
from ..rulefile import RuleFile
from . import per_rule_file

HEAD = 600  # the court, the kind and the case number sit in the first lines
_CASE_NUMBER = regex.compile(r"[（(]\d{4}[）)][^\n（）()，。]{1,24}?\d+号(?:之[一二三四五六七八九十]+)?")
# an organ's or an arbitration commission's document number, 示市监处罚〔2024〕118号 / 〔2024〕示仲裁字第17号:
# read where no court's case number heads the document
_DOCUMENT_NUMBER = regex.compile(r"[^\s（）()，。：:、〔]{0,12}〔\d{4}〕[^\n（）()，。〔]{0,12}?\d+号")
# what the history writes after a party's name before the cause: its short name (以下简称甲公司)
_SHORT_NAME = regex.compile(r"^[（(]以下(?:简称|称)[^）)]{1,20}[）)]")
# a database copy labels its header lines in 【】 (【审理法院】…, 【案由】…)
_DB_LABEL = r"(?:【[^】\n]{1,8}】)?"
_CASE_TYPE = regex.compile(r"[）)][^\d\n]*?\d*([\u4e00-\u9fff]+?)(?:字第)?\d+号(?:之[一二三四五六七八九十]+)?$")
_SPACES = regex.compile(r"[ \t\u3000]+")


@per_rule_file
def _words(rules: RuleFile, group: str) -> list[str]:
    """Every term and alias of a vocabulary group of the rule file, longest first, then in
    code-point order: a set's own order follows the hash seed, and a pattern built from it would
    differ in every process (and miss the pattern cache each time)."""
    vocab = rules.terms.get(group, {})
    return sorted({w for c, a in vocab.items() for w in (c, *(a or []))}, key=lambda w: (-len(w), w))


def _alt(words: list[str]) -> str:
    """The words as alternatives, each letter-spaced or not (案 由, 民 事 判 决 书)."""
    return "|".join("[ \t\u3000]*".join(map(regex.escape, w)) for w in words)


@per_rule_file
def _vocab_alt(rules: RuleFile, group: str) -> str:
    """``_alt`` of a vocabulary group, built once per rule file (the hooks ask per chunk)."""
    return _alt(_words(rules, group))


def _procedure(rules: RuleFile, case_number: str) -> str | None:
    """The procedure whose type code (rule file ``procedure_code``, in order) the case number carries."""
    m = _CASE_TYPE.search(case_number)
    code = m.group(1) if m else ""
    return next((name for name, keys in rules.terms.get("procedure_code", {}).items() if any(k in code for k in keys)), None)


def _party_names(doc: Document, outline: Outline) -> list[str]:
    """Names on the party lines (原告：张某，男 → 张某), to cut them off the cause of action."""
    roles = _vocab_alt(outline.rules, "party")
    # a party line, or a party's sentence where several share one line (原告：甲，男。被告：乙，男。)
    rx = regex.compile(rf"(?:^|(?<=[。；]))[ \t\u3000]*(?:{roles})(?:[（(][^）)\n]{{1,20}}[）)])?[:：]?[ \t\u3000]*([^\s：:，,。（(]{{2,40}})", regex.MULTILINE)
    spans = [(s.start, s.end) for s in outline.sections if s.rule == "judgment.parties"]
    read, at = outline.as_read()  # a name a hard wrap cut is whole there
    return [m.group(1) for a, b in spans for m in rx.finditer(read, at(a), at(b))]


def _cause(rules: RuleFile, text: str, names: list[str]) -> str | None:
    """原告甲与被告乙买卖合同纠纷一案 → 买卖合同纠纷: what follows the last party named.

    A stated 案由 line (the rule file's header field ``cause``) wins. Else the case named in the history: …纠纷一案, 劳动争议一案, 犯…罪, or an administrative
    case, 原告甲不服被告乙行政处罚一案.
    """
    labels = _alt(rules.fields.get("header", {}).get("cause", []))
    stated = rf"^[ \t\u3000]*(?:(?:{labels})[ \t\u3000]*[:：]|【(?:{labels})】)[ \t\u3000]*([^\s，。；]{{2,30}})"
    if labels and (m := regex.search(stated, text, regex.MULTILINE)):
        return m.group(1)
    m = regex.search(
        rf"([^，。、；\s与和因诉]{{2,30}}?(?:{_vocab_alt(rules, 'cause_suffix')}))一案|犯([^，。、；\s]{{2,20}}?罪)|不服([^，。、；\s]{{2,60}}?)一案", text
    )
    if m is None:
        return None
    cause = m.group(1) or m.group(2) or m.group(3)
    # the history may name a party by the tail of its name (澜州市某村股份经济合作社 → 某村股份经济合作社)
    tails = [n[i:] for n in names for i in range(1, len(n) - 3)]
    cut = max((cause.rfind(n) + len(n) for n in [*names, *tails, *_words(rules, "party")] if n and n in cause), default=0)
    cause = _SHORT_NAME.sub("", cause[cut:])
    if m.group(2) and cause.startswith("犯"):  # 以罪犯甲犯盗窃罪: the name cut leaves the verb
        cause = cause[1:]
    return cause or None


@per_rule_file
def _not_statute(rules: RuleFile) -> regex.Pattern:
    return regex.compile(rf"(?:{_vocab_alt(rules, 'not_statute')})$")


def _statutes(rules: RuleFile, text: str, start: int, end: int) -> list[dict[str, Any]]:
    """Cited articles of named statutes in ``text[start:end]`` (a bare 第X条 or 《…合同》第X条 is
    not a statute citation)."""
    not_statute = _not_statute(rules)
    return [c for c in find_citations(text, start=start, end=end) if c["law"] and not not_statute.search(c["law"])]


def _body_spans(outline: Outline) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in outline.sections if s.rule != "judgment.appendix"]


def document_metadata(doc: Document, outline: Outline) -> dict[str, Any]:
    rules = outline.rules
    # Read where the rules read: a case number or a court name that a hard wrap cut is whole there.
    read, at = outline.as_read()
    head = read[: at(HEAD)]
    meta: dict[str, Any] = {}
    court = rf"^[ \t\u3000#]*{_DB_LABEL}[ \t\u3000]*(\S{{2,30}}?(?:{_vocab_alt(rules, 'court')}))[ \t\u3000]*$"
    if m := regex.search(court, head, regex.MULTILINE):
        meta["court"] = m.group(1)
    kind = rf"^[ \t\u3000#]*((?:{_vocab_alt(rules, 'case_field')}){{0,2}}(?:{_vocab_alt(rules, 'document_kind')}))[ \t\u3000]*$"
    if m := regex.search(kind, _SPACES.sub("", head), regex.MULTILINE):  # 民 事 判 决 书 is spaced out in some
        meta["document_kind"] = m.group(1)
    if m := _CASE_NUMBER.search(head) or _DOCUMENT_NUMBER.search(head):
        meta["case_number"] = _SPACES.sub("", m.group())
        if procedure := _procedure(rules, meta["case_number"]):
            meta["procedure"] = procedure
    if cause := _cause(rules, read, _party_names(doc, outline)):
        meta["cause"] = cause
    if meta.get("court") and meta.get("document_kind"):
        meta["title"] = meta["court"] + meta["document_kind"]
    citations: list[dict[str, Any]] = []
    for a, b in _body_spans(outline):
        citations += [c for c in _statutes(rules, read, at(a), at(b)) if c not in citations]
    if citations:
        meta["citations"] = citations
    return meta


def chunk_metadata(doc: Document, outline: Outline, sec: Section, start: int, end: int) -> dict[str, Any]:
    meta: dict[str, Any] = {k: v for k, v in doc.metadata.items() if k not in ("citations", "title")}
    if sec.unit is not None:
        meta["section"] = sec.unit.label
    if sec.rule != "judgment.appendix":
        read, at = outline.as_read()
        cites = _statutes(outline.rules, read, at(start), at(end))
        if cites:
            meta["citations"] = cites
    return meta
