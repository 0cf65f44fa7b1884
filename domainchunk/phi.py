"""Masking of identifying values (``mask_phi=True``, ``--mask-phi``).

What counts as identifying is vocabulary, read from the ``phi_*`` term groups of
the medical-record rule file; this module keeps only the machinery:

1. **Labelled values**: a field group's label, a separator (colon, spaces, a tab, a
   cell border) and a value of the group's shape (a name, Latin letters too, a phone, a
   number, a date …): ``姓　　名：陈 志强``, ``联系人（女儿）：周某``, ``Name: Zhang Wei``,
   ``ID:P0123``, ``住院号A123``; a signer under the label (``医师签名：`` / ``李某``); an
   address's second line.
2. **Table columns**: a tab row whose cell is a label (``姓名\\t性别``) labels the
   cell below it, also a printed one (cells set apart by blanks); a register's column
   heads (``医师签名\\t护士签名``) label the cells of every row below.
3. **Role words**: ``其子陈某陪同``, ``患者陈某，男`` (a surname-led name that ends where
   the sentence goes on), ``生于1980年3月``; and suffixes (``1980年3月1日出生``).
4. **Patterns** with no label: mobile and landline phones in their common
   forms, ID-card numbers with a valid check digit, e-mail addresses.
5. **Repeats**: every value found above is masked wherever else the document
   holds it, also written with spaces (or dashes, for numbers) between its
   characters, and a date of birth in any date notation.

Values become typed placeholders (``[姓名]``). Masking happens before chunking, on
a copy of the document whose blocks, rows, cells and pages are moved to the new
offsets, so every chunk is still an exact slice of the masked text and the
metadata read from that text carries placeholders. The document's ``source``
becomes a pseudonym (``record-3f2a9c1b7d4e.txt``, from the content's hash): file
names often are the patient's name. No value is ever put in a message.
"""
from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

import regex

from .errors import RuleError
from .models import Block, Document, Page
from .rulefile import RuleFile, _alternation, load_rules
from .view import view_of

Edit = tuple[int, int, str]  # replace text[start:end] by the string

_SP = r"[ \t\u3000]"
# where a name after a role word ends: a mark, a blank, or a bracket opening a remark (其子陈某（电话…）)
_PUNCT_END = r"(?=[\s，,。；;、：:（()）！!？?\]]|$)"

# A name in Latin letters, as an English label (Name:, Patient Name:) or a foreign patient's record
# writes it: two or three capitalised words (Zhang Weiming, ZHANG Wei, Li-Na Wang), run together
# where an extraction lost the spaces (ZhangWeiming); one word alone is too often the form's next
# English label.
_LATIN_NAME = r"[A-Z][A-Za-z]+(?:[ \-']?[A-Z][A-Za-z]+){1,2}(?![A-Za-z])"
# a Latin given name or surname with a Han one (Emily 某某, Li 某): a bilingual system's or a foreign patient's
_MIXED_NAME = r"[A-Z][A-Za-z]+(?:[ \-'][A-Z][A-Za-z]+)?[ \u3000]?\p{Han}{1,3}"

# The value each field group's labels introduce. A name may be spaced (陈 志强, 陈 志 强) or carry
# a · (minority names). Names, addresses and employers are cut after the match where another
# field's label begins (姓名：陈某性别：男): a lookahead for every label at every character
# would make each pattern take a second to compile.
_SHAPES: dict[str, str] = {
    "phi_name": r"(?:\p{{Han}}(?:[ \u3000]{{1,2}}\p{{Han}}{{1,3}}){{1,2}}|\p{{Han}}{{2,4}}(?:[·・]\p{{Han}}{{1,8}})?|{MIXED_NAME}|{LATIN_NAME})",
    "phi_id_card": r"[0-9A-Za-z]{{4,}}(?:[ \-][0-9A-Za-z]{{2,}}){{0,3}}",
    "phi_phone": r"(?:{PHONE}|[+(（]?\d[\d()（）\-－]{{4,18}}\d(?:转\d{{1,5}})?)",
    # from a Han character, letter or digit (not a form's ＿＿ or a table's │) up to the line's end,
    # a comma or the next field's label
    "phi_address": r"[\p{{Han}}A-Za-z0-9][^\n\t\[\]，,;；。|│:：]*",
    "phi_org": r"[\p{{Han}}A-Za-z0-9][^\n\t\[\]，,;；。|│:：]*",
    # letters, a dash or # and digits (ZY-0413, 0013); also in groups of three or more digits (ZY 2026 0413)
    "phi_number": r"(?=[\w\- ]{{3}})[A-Za-z]{{0,4}}[ \-_#]?\d[\dA-Za-z\-_]*(?: \d{{3,}}(?![\d.]))*",
    "phi_date": r"(?:\d{{4}}{SP}*[-/.年]{SP}*\d{{1,2}}(?:{SP}*[-/.月]{SP}*\d{{1,2}}{SP}*日?|{SP}*月)?|\d{{8}})(?!\d)",
    "phi_email": r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+",
}
# Separators between a label and its value: a colon (the label in Markdown bold or 【】 too),
# blanks or a tab, 为/是. A value of digits and letters may also follow at once (住院号A123,
# 电话88887777); a name, address or employer may not, or 签名确认 would mask 确认.
#
# A number, ID, phone, date or e-mail may also stand on the next line after a colon that ends its
# line: a hard-wrapped text (a PDF's) cuts 住院号：| ZY0001 there, and a value of those shapes on
# the next line (past one blank line when the text is double-spaced) is the field's. A name,
# address or employer is not taken so: the next line may be the form's next heading.
# Markdown bold around a label (**住院号**：), its marks full-width too where a 半角转全角 pass ran.
# Before the colon a label may carry a remark in brackets (联系人（女儿）：, 电话（手机）：) or a second
# label after a slash, whose value follows the first's (联系人/电话：王某/139…); a table's cell border
# may stand between a label and its value (| 姓名 | 陈某 |). A name after a label must end there
# (a blank, a mark, the next field, 日期： too): 主任医师（肾内科）：患者大量… and 护士长：护理方面已…
# open a speaker's words, and Ⅱ助\t切口愈合等级 is a table's next column head.
_QUALIFIER = r"(?P<qualifier>[（(][^）)\n:：]{{1,8}}[）)]|[/／][\p{{Han}}A-Za-z]{{1,8}})?"
_SEP = (r"(?:[*＊】]{{0,2}}{SP}*" + _QUALIFIER + r"[*＊】]{{0,2}}{SP}*[:：]{SP}*{NL}(?:为|是)?{SP}*[*＊]{{0,2}}{SP}*"
        r"|】{SP}*|(?P<gap>{SP}+|{SP}*[|│]{SP}*)|{SP}*(?:为|是){SP}*{GLUED})")
_NEXT_LINE = r"(?:\n{SP}*){{0,2}}"  # the line after, or the one after a double-spaced text's blank line
_ON_NEXT_LINE = frozenset({"phi_number", "phi_id_card", "phi_phone", "phi_date", "phi_email"})
_GLUED_SEP = {"phi_number": r"|{SP}*[#＃]{SP}*|{SP}*No\.?{SP}*|", "phi_id_card": "|", "phi_phone": "|", "phi_date": "|",
              "phi_email": "|"}


# 13800001111, 138-0000-1111, 138 0000 1111, +86 138…, 0086-138…, (+86)138…
_MOBILE = r"(?<![\d+])(?:[(（]?(?:\+|00)86[)）]?[ \-－]?)?1[3-9]\d(?:[ \-－]?\d{4}){2}(?!\d)"
# 010-62345678, (0571)8888 7777, 020 8888 7777, +86-10-62345678, extensions 转123
_LANDLINE = (r"(?<![\d.])(?:[(（]0\d{2,3}[)）][ \-－]?|0\d{2,3}[ \-－]|(?:\+|00)86[ \-－]?0?\d{2,3}[ \-－])"
             r"[2-9]\d{2,3}[ \-－]?\d{4}(?:(?:转|-|ext\.?)\d{1,5})?(?![\d.])")


def _valid_id_card(number: str) -> bool:
    """The ISO 7064 MOD 11-2 check digit of an 18-digit resident ID number."""
    digits = [c for c in number if c.isalnum()]
    if len(digits) != 18 or not all(c.isdigit() for c in digits[:17]):
        return False
    total = sum(int(c) * w for c, w in zip(digits, (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)))
    return "10X98765432"[total % 11] == digits[17].upper()


# Identifiers with no label, by the names the rule file's phi_pattern group uses.
PATTERNS: dict[str, tuple[regex.Pattern, Callable[[str], bool] | None]] = {
    "mobile": (regex.compile(_MOBILE), None),
    "landline": (regex.compile(_LANDLINE), None),
    # 18 digits (spaced 6-8-4 allowed) whose last one is the check digit
    "id_card": (regex.compile(
        r"(?<![\dA-Za-z])[1-9]\d{5}[ \-]?(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ \-]?\d{3}[\dXx](?![\dA-Za-z])"),
        _valid_id_card),
    "email": (regex.compile(r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+"), None),
}
FIELD_GROUPS = tuple(_SHAPES)
_ALNUM = re.compile(r"[0-9A-Za-z]")
_DATE_PARTS = re.compile(r"(\d{4})\D{0,3}?(\d{1,2})(?:\D{1,3}(\d{1,2}))?|(\d{4})(\d{2})(\d{2})")


@dataclass(frozen=True)
class Vocabulary:
    """The compiled PHI vocabulary of one rule file."""

    labelled: tuple[tuple[regex.Pattern, str, str], ...]  # (pattern, placeholder, group)
    roles: tuple[tuple[regex.Pattern, str, str], ...]
    suffixes: tuple[tuple[regex.Pattern, str, str], ...]
    free: tuple[tuple[str, regex.Pattern, Callable[[str], bool] | None], ...]
    labels: dict[str, tuple[str, str]]  # squashed label -> (placeholder, group), for table header cells
    group_of: dict[str, str]  # placeholder -> field group
    next_field: regex.Pattern  # where another field's label begins (the label and its colon)
    key_at: regex.Pattern  # a label standing where a value should (a table's header row: 姓名 性别)
    words: frozenset[str]  # every label a header line may hold, identifying or not, blanks left out
    shapes: dict[str, regex.Pattern]  # field group -> its value's shape
    title: regex.Pattern  # a label or role word opening a name's place (接收人：护士韦某, 术者：主刀医师甲)
    not_name: regex.Pattern  # words that begin with a surname but are no name (康复治疗师)
    surname: regex.Pattern  # a common surname (phi_surname)
    name_end: regex.Pattern  # words a name may run into (之女, 的, 男)
    label_patterns: frozenset[regex.Pattern]  # the labelled ones, not the role words


def _listed(terms: Mapping[str, Mapping[str, list[str]]], group: str) -> str:
    """A pattern for any word of a word-list group (its keys only name the lists), or a never-match.

    Longer words come first (欧阳 before 欧); single characters go in one class, which
    compiles at once where an alternation of 250 surnames would not.
    """
    words = {w for aliases in terms.get(group, {}).values() for w in aliases or []}
    longer = [w for w in words if len(w) > 1]
    singles = "".join(sorted(regex.escape(w) for w in words if len(w) == 1))
    parts = ([_alternation({w: [] for w in longer})] if longer else []) + ([f"[{singles}]"] if singles else [])
    return "(?:" + "|".join(parts) + ")" if parts else "(?!)"


def _phi_terms(rules: RuleFile | None) -> dict[str, dict[str, list[str]]]:
    """The rule file's phi_* groups, the built-in file's for those it lacks (a user's medical rules
    that say nothing about PHI must not turn masking off)."""
    builtin = load_rules()["medical_record"].terms
    own = rules.terms if rules is not None else {}
    return {g: own.get(g, builtin.get(g, {})) for g in {*builtin, *own} if g.startswith("phi_")}


_CACHE: dict[str, Vocabulary] = {}


def fingerprint(rules: RuleFile | None = None) -> str:
    """What masked outputs of every type depend on: the PHI vocabulary in force."""
    return hashlib.sha256(repr(sorted(_phi_terms(rules).items())).encode()).hexdigest()[:16]


def vocabulary(rules: RuleFile | None = None) -> Vocabulary:
    terms = _phi_terms(rules)
    key = fingerprint(rules)
    if key not in _CACHE:
        _CACHE[key] = _compile(terms, rules.path if rules is not None and rules.path else "medical_record.yaml")
    return _CACHE[key]


def _label_words(terms: Mapping[str, Mapping[str, list[str]]]) -> set[str]:
    """Every label of a header line the vocabulary knows: the field groups' placeholders and
    aliases, and the fields that are not identifying."""
    words = {w for g in FIELD_GROUPS for p, aliases in terms.get(g, {}).items() for w in (p, *aliases)}
    return words | {w for aliases in terms.get("phi_other_field", {}).values() for w in aliases}


def _field_labels(terms: Mapping[str, Mapping[str, list[str]]]) -> str:
    """An alternation of every label of a header line the vocabulary knows (``_label_words``)."""
    words = _label_words(terms)
    return _alternation({w: [] for w in words}) if words else "(?!)"


_LABELS: dict[str, str] = {}


def field_labels(rules: RuleFile | None = None) -> str:
    """``_field_labels`` of the PHI vocabulary in force for ``rules``: where a header line's value
    ends when no space does (性别：男年龄：46岁), for the header metadata of records and reports."""
    key = fingerprint(rules)
    if key not in _LABELS:
        _LABELS[key] = _field_labels(_phi_terms(rules))
    return _LABELS[key]


def _compile(terms: dict[str, dict[str, list[str]]], where: str) -> Vocabulary:
    label_groups = {g: terms.get(g, {}) for g in FIELD_GROUPS}
    keys = _field_labels(terms)
    next_field = regex.compile(rf"{keys}[*＊】]{{0,2}}{_SP}*[:：]", regex.V0)
    key_at = regex.compile(rf"{keys}(?:{_SP}|[*＊】]|[:：]|$)", regex.V0 | regex.M)
    surnames = _listed(terms, "phi_surname")
    not_name = _listed(terms, "phi_not_name")
    fill = {"SP": _SP, "PHONE": f"{_MOBILE}|{_LANDLINE}", "LATIN_NAME": _LATIN_NAME, "MIXED_NAME": _MIXED_NAME}
    # A Latin label not glued to a Latin word on either side (ID, but not the ID of COVID or IDE);
    # a Han label may follow a Latin value with no space (…@example.com住址：).
    bound = r"(?!(?<=[A-Za-z])[A-Za-z])(?P<label>{alt})(?!(?<=[A-Za-z])[A-Za-z])"

    labelled, group_of, labels = [], {}, {}
    for group, vocab in label_groups.items():
        shape = _SHAPES[group].format(**fill)
        sep = _SEP.format(SP=_SP, GLUED=_GLUED_SEP.get(group, "").format(SP=_SP),
                          NL=_NEXT_LINE.format(SP=_SP) if group in _ON_NEXT_LINE else "")
        for placeholder, aliases in vocab.items():
            group_of[placeholder] = group
            alt = _alternation({placeholder: aliases})
            value = f"{sep}(?P<value>{shape})"
            if group == "phi_name":
                # A signature block signs under its label (医师签名： / 易某某): a name on the line after
                # a colon that ends its line, if that line holds nothing else (or the date signed) and
                # the name begins with a surname (a heading there, 主诉 or 查体, does not).
                value = (rf"(?:{value}|[*＊】]{{0,2}}{_SP}*[:：]{_SP}*{_NEXT_LINE.format(SP=_SP)}(?<=\n{_SP}*)"
                         rf"(?!{not_name})(?P<value>{surnames}\p{{Han}}{{1,2}})(?={_SP}*(?:\r?\n|$)|{_SP}+\d{{4}}[-/.年]))")
            labelled.append((regex.compile(bound.format(alt=alt) + value, regex.V0), placeholder, group))
            for w in (placeholder, *aliases):
                labels[regex.sub(r"\s+", "", w)] = (placeholder, group)

    name_end = _listed(terms, "phi_name_end")
    roles, suffixes = [], []
    for placeholder, words in terms.get("phi_role", {}).items():
        owner = group_of.get(placeholder)
        if owner is None:
            raise RuleError(where, f"terms.phi_role: placeholder {placeholder!r} is not in any phi field group")
        alt = _alternation({w: [] for w in words})  # the words only: the placeholder is a label
        shape = _SHAPES[owner].format(**fill)
        if owner == "phi_name":
            # with a colon any name; without, a surname-led one that ends where the sentence goes on
            value = (rf"(?:{_SP}*[:：]{_SP}*(?P<value>{shape})"
                     rf"|(?!{not_name})(?P<value>{surnames}\p{{Han}}{{1,2}})(?:(?={name_end})|{_PUNCT_END}))")
        else:
            value = rf"{_SP}*[:：]?{_SP}*(?P<value>{shape})"
        roles.append((regex.compile(rf"(?P<label>{alt}){value}", regex.V0), placeholder, owner))
    for placeholder, words in terms.get("phi_suffix", {}).items():
        owner = group_of.get(placeholder)
        if owner is None:
            raise RuleError(where, f"terms.phi_suffix: placeholder {placeholder!r} is not in any phi field group")
        shape = _SHAPES[owner].format(**fill)
        alt = _alternation({w: [] for w in words})
        suffixes.append((regex.compile(rf"(?P<value>{shape}){_SP}*(?:{alt}){_PUNCT_END}", regex.V0), placeholder, owner))

    free = []
    for placeholder, names in terms.get("phi_pattern", {}).items():
        for name in names:
            if name not in PATTERNS:
                raise RuleError(where, f"terms.phi_pattern: unknown pattern {name!r} (known: {', '.join(PATTERNS)})")
            pattern, check = PATTERNS[name]
            free.append((placeholder, pattern, check))
    label_words = _label_words(terms)
    shapes = {g: regex.compile(_SHAPES[g].format(**fill), regex.V0) for g in FIELD_GROUPS}
    titles = label_words | {w for p, ws in terms.get("phi_role", {}).items() if group_of.get(p) == "phi_name" for w in ws}
    title = regex.compile(_alternation({w: [] for w in titles}) if titles else "(?!)", regex.V0)
    return Vocabulary(tuple(labelled), tuple(roles), tuple(suffixes), tuple(free), labels, group_of, next_field, key_at,
                      frozenset("".join(w.split()) for w in label_words), shapes, title,
                      regex.compile(not_name, regex.V0), regex.compile(surnames, regex.V0),
                      regex.compile(name_end, regex.V0), frozenset(p for p, _, _ in labelled))


# ---------------------------------------------------------------- finding values

_BLANK = set("*＿_-—－ ")
_BLANKS = " \t\u3000"
_BORDER = set("|│ \t\u3000")
# values that may run into the next field's label: names, addresses and employers into a Han one
# (姓名：陈某性别：男), a number into a Latin one (ID: P0417MRN: 0073, where a copy joined the lines)
_CUT_AT_NEXT_FIELD = {"phi_name", "phi_address", "phi_org", "phi_number"}
_LONGEST_LABEL = 40  # characters a label and its colon may take, spaced out (住　院　号：)
_HAN = regex.compile(r"\p{Han}")
_LATIN_NAME_AT = regex.compile(f"{_LATIN_NAME}|{_MIXED_NAME}")
_COLON = re.compile(r"[:：]")
# the next field's label and colon (known to the vocabulary or not: 日期：) right after a value
_FIELD_AHEAD = regex.compile(r"[^\s:：，,。；;、]{1,8}[:：]")
_HEAD_CHARS = 8  # a register's column head is a short word or two (手术及操作名称 is seven)
_LETTER_AFTER_DIGIT = regex.compile(r"\d[\d\-_]*[A-Za-z]")  # a number run into a Latin label (0417MRN)
_NON_BLANK_RUN = re.compile(r"[^ \t\u3000]+")
_WORD = regex.compile(r"[\p{Han}A-Za-z]")  # a head has a word in it, not a table's border alone
_DIGIT = re.compile(r"\d")
_SENTENCE_MARK = re.compile(r"[，,。；;！!？?]")
# a line (past one blank line) that opens with a field's label and its colon: the header block goes on
_NEXT_FIELD_LINE = re.compile(r"(?:[ \t\u3000]*\r?\n)?[ \t\u3000]*[^\s:：，。]{1,12}[:：]")
# a house number cut off to the next line (266号, 3-201室), not a list item (1. 1、 1）) nor a date or time
_HOUSE_NUMBER = re.compile(r"\d+(?![\d.．、)）:：/年月日时])")
# the second line of an address: up to a wide gap (the next column), a comma or the line's end
_ADDRESS_PART = regex.compile(r"[\p{Han}A-Za-z0-9][^\n\t\[\]，,;；。|│:：]*?(?=[ \u3000]{2}|\t|[，,;；。]|\r?$)", regex.M)


def _cells(line: str, by_blanks: bool) -> list[tuple[int, str]]:
    """(offset, cell) of a table row: its tab-separated cells, or its blank-separated ones."""
    if not by_blanks:
        out, at = [], 0
        for cell in line.split("\t"):
            out.append((at, cell))
            at += len(cell) + 1
        return out
    return [(m.start(), m.group()) for m in _NON_BLANK_RUN.finditer(line)]


def _all_labels(line: str, vocab: Vocabulary) -> bool:
    """Whether a line is two or more labels set apart by blanks and nothing else (姓名 性别 年龄)."""
    n = 0
    for m in _NON_BLANK_RUN.finditer(line):
        if m.group().rstrip(":：*＊") not in vocab.words:
            return False
        n += 1
    return n >= 2


def _row(lines: list[str], starts: list[int], i: int, by_blanks: bool, width: int,
         gap: int = 0) -> tuple[list[tuple[int, str]], int]:
    """The cells of the table row on line ``i`` (with their offsets in the text) and the line after it.

    A hard wrap (a PDF's text) may cut a tab row at a cell's border: the line ends with the tab
    (…\t宁某\t / 庞某) or the next one starts with it (…\t08:00 / \t宁某\t庞某). Such lines are one row
    while the row has fewer than ``width`` cells, the header's; ``gap`` blank lines (a double-spaced
    text's one) may stand between them.
    """
    cells = [(starts[i] + at, cell) for at, cell in _cells(lines[i], by_blanks)]
    last, i = i, i + 1 + gap
    while not by_blanks and i < len(lines) and lines[i].strip() and len(cells) < width:
        cut_before, cut_after = lines[last].endswith("\t"), lines[i].startswith("\t")
        more = [(starts[i] + at, cell) for at, cell in _cells(lines[i], False)]
        if cut_before == cut_after or len(cells) + len(more) - 1 > width:
            break
        cells = cells[:-1] + more if cut_before else cells + more[1:]
        last, i = i, i + 1 + gap
    return cells, last + 1


def _is_head(word: str) -> bool:
    """Whether a cell may be a register's column head: a short word, no number or colon in it."""
    return len(word) <= _HEAD_CHARS and not _DIGIT.search(word) and not _COLON.search(word)


def _register_heads(line: str, vocab: Vocabulary) -> bool:
    """Whether a line is a printed register's column heads: three or more of them, a label among them."""
    words = _NON_BLANK_RUN.findall(line)
    return len(words) >= 3 and all(_is_head(w) and _WORD.search(w) for w in words) and any(w in vocab.labels for w in words)


def _table_values(text: str, vocab: Vocabulary) -> list[tuple[int, int, str, str]]:
    """Cells under a header cell that is a label (姓名\\t性别 / 陈某\\t男).

    A table printed to PDF (or typed with spaces) reads back as cells set apart by blanks
    (姓名 性别 年龄 / 陈某 男 45岁): a row of labels alone and nothing else is a header row
    there, and the row below, if it has as many cells, holds their values column by column.
    """
    found = []
    lines = text.split("\n")
    pos = 0
    starts = []
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    # a double-spaced text puts one blank line after every line: rows stand two lines apart
    filled = [n for n, line in enumerate(lines[:-1]) if line.strip()]
    gap = int(len(filled) > 2 and sum(not lines[n + 1].strip() for n in filled) >= 0.8 * len(filled))
    for i, line in enumerate(lines[:-1]):
        by_blanks = "\t" not in line
        if by_blanks and not (_all_labels(line, vocab) or _register_heads(line, vocab)):
            continue
        # a header row's every cell is a word, so a cut one ends with its tab (医师签名\t / 护士签名)
        cut = line.endswith("\t") and i + 1 + gap < len(lines) and "\t" not in lines[i + 1 + gap]
        head, row = _row(lines, starts, i, by_blanks, len(line.split("\t")) + cut, gap)
        heads = ["".join(c.split()) for _, c in head]
        columns = {j: vocab.labels[h] for j, h in enumerate(heads) if h in vocab.labels}
        if not columns:
            continue
        # A header row is mostly labels: a key and its value side by side (姓名\t陈某) is none, and
        # the row under it (性别\t男) holds the next key, not a name. Or it is a register's column
        # heads (开始日期\t时间\t医嘱内容\t医师签名\t护士签名 over one order a row): three or more
        # short words, no number among them; then every row below holds values, and a cell is
        # taken only if it has its column's shape (a name under 医师签名, not a time).
        named = [h for h in heads if h]
        register = len(named) >= 3 and all(_is_head(h) for h in named)
        mostly_labels = 2 * sum(bool(vocab.key_at.fullmatch(h)) for h in named) > len(named)
        if not mostly_labels and not register:
            continue
        register = register and not mostly_labels  # a record's header table has one row of values
        # the row below, past the one blank line a double-spaced text puts between any two lines
        row = row + 1 if row < len(lines) - 1 and not lines[row].strip() else row
        while row < len(lines):
            if not by_blanks and "\t" not in lines[row]:
                break
            cells, after = _row(lines, starts, row, by_blanks, len(heads), gap)
            # printed, a register's row ends early where its last cells are empty
            if by_blanks and (len(cells) > len(heads) or (len(cells) < len(heads) and not register)):
                break
            for j, (at, cell) in enumerate(cells):
                value = cell.strip()
                if j not in columns or not value or set(value) <= _BLANK or "".join(value.split()) in vocab.words:
                    continue
                if register and not vocab.shapes[columns[j][1]].fullmatch(value):
                    continue
                a = at + cell.index(value)
                found.append((a, a + len(value), *columns[j]))
            if not register or len(cells) > len(heads):
                break
            row = after + gap
    return found


def _continued_address(text: str, end: int, label_line: int, vocab: Vocabulary) -> tuple[int, int] | None:
    """The span of an address's second line, when the value ending at ``end`` runs on there.

    A form's narrow value column breaks a long address: the rest stands on the next line (past
    the blank line of a double-spaced text) indented under the value (住址：东川省青禾市 /
    ``　　　　　明德区…``), starts with the house number the break cut off (…长乐路 / 266号), or
    (its indent lost to a reader) is a line with a number and no colon between two fields of a
    header block. A line with a colon is the next field; one no deeper than the label's line and
    without a number, a paragraph or a heading.
    """
    line_end = text.find("\n", end)
    if line_end < 0 or text[end:line_end].strip(_BLANKS):
        return None
    start = line_end + 1
    if text.startswith("\n", start) or text.startswith("\r\n", start):
        start = text.find("\n", start) + 1
    stop = text.find("\n", start)
    line = text[start : len(text) if stop < 0 else stop].rstrip("\r")
    body = line.lstrip(_BLANKS)
    if not body or _COLON.search(body) or vocab.key_at.match(body):
        return None
    indent = len(line) - len(body)
    own_indent = len(text[label_line:]) - len(text[label_line:].lstrip(_BLANKS))
    after = _NEXT_FIELD_LINE.match(text, len(text) if stop < 0 else stop + 1)
    if not (indent >= own_indent + 2 or _HOUSE_NUMBER.match(body)
            or (after and _DIGIT.search(body) and not _SENTENCE_MARK.search(body))):
        return None
    value = _ADDRESS_PART.match(body)
    if value is None:
        return None
    a = start + indent
    return a, a + len(value.group().rstrip(_BLANKS))


def _found(text: str, vocab: Vocabulary) -> list[tuple[int, int, str, str]]:
    """(start, end, placeholder, group) of every value the labels, roles and patterns find."""
    found: list[tuple[int, int, str, str]] = []
    for pattern, placeholder, group in (*vocab.labelled, *vocab.roles, *vocab.suffixes):
        pos = 0
        while m := pattern.search(text, pos):
            a, b = m.span("value")
            # a value turned down is searched again from where it began: it may be a label itself (【术者】术者：某某)
            pos = a
            if group == "phi_name":
                # a title before the name (接收人：护士韦某, 术者：主刀医师甲): the name is what follows
                # it, if it begins with a surname (主治医师：患者病情平稳 is what the physician said)
                titled = False
                while lead := vocab.title.match(text, a):
                    shape = vocab.shapes[group].match(text, lead.end())
                    a, b, titled = lead.end(), shape.end() if shape else lead.end(), True
                if vocab.not_name.match(text, a) or (titled and not vocab.surname.match(text, a)):
                    continue
            if vocab.key_at.match(text, a):
                continue  # a label where the value should be: a header row, a blank field
            pos = m.end()
            if group in _CUT_AT_NEXT_FIELD and (group != "phi_number" or _LETTER_AFTER_DIGIT.search(text, a, b)):
                nxt = vocab.next_field.search(text, a + 1, min(len(text), b + _LONGEST_LABEL))
                if nxt and nxt.start() < b:
                    # the next field's label may be this pattern's too (检验者：韩某审核者：廖某)
                    b = pos = nxt.start()
            value = text[a:b].rstrip(" \t\u3000-－")
            if group == "phi_name" and len(_HAN.findall(value)) < 2 and not _LATIN_NAME_AT.fullmatch(value):
                continue
            if (group == "phi_name" and (m.re in vocab.label_patterns or _COLON.search(text, m.end("label"), a))
                    and _HAN.match(text, a + len(value)) and not _FIELD_AHEAD.match(text, a + len(value))):
                # the words run on into no field: a sentence, not a name, unless a shorter one led by a
                # surname ends where a name may (郝某某之女)
                value = next((value[:k] for k in (3, 2) if vocab.name_end.match(text, a + k)), "")
                value = value if vocab.surname.match(value) else ""
            if value and not set(value) <= _BLANK:
                found.append((a, a + len(value), placeholder, group))
                if group == "phi_address" and (more := _continued_address(text, a + len(value),
                                                                         text.rfind("\n", 0, a) + 1, vocab)):
                    found.append((*more, placeholder, group))
    for placeholder, pattern, check in vocab.free:
        for m in pattern.finditer(text):
            if check is None or check(m.group()):
                found.append((m.start(), m.end(), placeholder, vocab.group_of.get(placeholder, "")))
    return found + _table_values(text, vocab)


class _View:
    """The text without the characters ``drop``, and where each kept character stood: a value
    written with spaces (or dashes) between its characters is one ``str.find`` away."""

    def __init__(self, text: str, drop: str):
        self.index = [i for i, c in enumerate(text) if c not in drop]
        self.text = "".join(text[i] for i in self.index)

    def spans(self, key: str):
        i = self.text.find(key)
        while i >= 0:
            yield self.index[i], self.index[i + len(key) - 1] + 1
            i = self.text.find(key, i + 1)



def _date_pattern(value: str) -> str | None:
    """A date of birth in any notation (1980-03-05, 1980年3月5日, 1980.3.5)."""
    m = _DATE_PARTS.search(value)
    if not m:
        return None
    y, mo, d = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), m.group(6))
    sep = rf"{_SP}*[-/.年月]?{_SP}*"
    day = rf"{sep}0?{int(d)}日?" if d else ""
    return rf"(?<!\d){y}{sep}0?{int(mo)}{day}(?!\d)"


def _repeats(text: str, values: Mapping[str, str], groups: Mapping[str, str]) -> list[tuple[int, int, str, str]]:
    """Every occurrence of the found values, however spaced."""
    views: dict[str, _View] = {}
    found = []
    for value, placeholder in values.items():
        if groups.get(value) == "phi_date":
            if (pattern := _date_pattern(value)) is not None:
                # re, not regex: this pattern is new for every document, and re compiles it 10x faster
                found += [(m.start(), m.end(), placeholder, "") for m in re.finditer(pattern, text)]
            continue
        chars = [c for c in value if not c.isspace()]
        if all(_ALNUM.match(c) or c in "-－+()（）" for c in chars):
            key = "".join(c for c in chars if _ALNUM.match(c))
            if len(key) < 5:  # a short number repeats by chance (a dose, a lab value)
                continue
            if "alnum" not in views:
                views["alnum"] = _View(text, _BLANKS + "\n-－")
            view = views["alnum"]
            found += [(a, b, placeholder, "") for a, b in view.spans(key)
                      if not (a and _ALNUM.match(text[a - 1])) and not (b < len(text) and _ALNUM.match(text[b]))]
        elif len(chars) >= 2:
            if "blank" not in views:
                views["blank"] = _View(text, _BLANKS + "\n")
            view = views["blank"]
            found += [(a, b, placeholder, "") for a, b in view.spans("".join(chars))]
    return found


def phi_edits(text: str, vocab: Vocabulary | None = None, known: Mapping[str, str] | None = None) -> tuple[list[Edit], dict[str, str]]:
    """The replacements masking ``text`` (sorted, non-overlapping) and the values found.

    ``known`` maps more values (already found elsewhere) to their placeholders.
    The values returned map value -> placeholder; they stay in memory, never in a message.
    """
    vocab = vocab or vocabulary()
    found = _found(text, vocab)
    values = dict(known or {})
    groups = {v: vocab.group_of.get(p, "") for v, p in values.items()}
    for a, b, placeholder, group in found:
        values.setdefault(text[a:b], placeholder)
        groups.setdefault(text[a:b], group)
    # Found on the tolerant view as well, as the rules read it: in a hard-wrapped text (a PDF's)
    # a label and its value, a role word and a name, or a value itself, are cut apart by a line
    # break the view joins (and Markdown marks between a label and its colon are out there). The
    # text's own finds stay: the view leaves out running titles, which may hold a name too.
    view = view_of(text)
    if not view.identity:
        for a, b, placeholder, group in _found(view.text, vocab):
            # the text around a value the view read as a table's cell keeps its border (| 陈某 |)
            ta, tb = view.to_text(a), view.end_to_text(b)
            while ta < tb and text[ta] in _BORDER:
                ta += 1
            while tb > ta and text[tb - 1] in _BORDER:
                tb -= 1
            found.append((ta, tb, placeholder, group))
            values.setdefault(view.text[a:b], placeholder)
            groups.setdefault(view.text[a:b], group)
    found += _repeats(text, values, groups)
    spans = sorted(((a, b, f"[{p}]") for a, b, p, _ in found if a < b), key=lambda e: (e[0], -e[1]))
    kept: list[Edit] = []
    for a, b, rep in spans:
        if kept and a < kept[-1][1]:  # overlapping finds: one placeholder over their union
            ka, kb, krep = kept[-1]
            kept[-1] = (ka, max(kb, b), krep)
        else:
            kept.append((a, b, rep))
    return kept, values


# ---------------------------------------------------------------- applying them

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


_OWN_SOURCE = re.compile(r"<[a-z]+>")  # "<text>", "<bytes>": names we give, not the user's


def pseudonym(source: str, text: str) -> str:
    """A stable stand-in for a file name: ``record-`` and the content's hash, the suffix kept.

    The hash is of the content, not of the name, so a list of likely names cannot be
    hashed to find it; the batch manifest keeps the real path beside it.
    """
    if _OWN_SOURCE.fullmatch(source):
        return source
    suffix = Path(source).suffix.lower()
    suffix = suffix if re.fullmatch(r"\.[a-z0-9]{1,5}", suffix) else ""
    return f"record-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}{suffix}"


def failed_input_name(n: int, path: str | Path) -> str:
    """How a file that failed is named with masking on: its place among the inputs and its suffix,
    never its name, which may be its patient's."""
    return f"input {n} ({Path(path).suffix or 'no suffix'})"


def mask_document(doc: Document, registry: Mapping[str, RuleFile] | None = None) -> Document:
    """A copy of ``doc`` whose identifying values are replaced by typed placeholders such as ``[姓名]``.

    The vocabulary comes from ``registry``'s medical-record rule file (the built-in one by default).
    """
    vocab = vocabulary((registry or load_rules()).get("medical_record"))
    edits, values = phi_edits(doc.text, vocab)
    source = pseudonym(doc.source, doc.text)
    title = doc.title
    if title:
        title_edits, _ = phi_edits(title, vocab, values)
        title = apply_edits(title, title_edits)[0]
    if not edits:
        return doc.model_copy(update={"source": source, "title": title}, deep=True)
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
    return doc.model_copy(update={"text": text, "source": source, "title": title,
                                  "blocks": [moved_block(b) for b in doc.blocks],
                                  "pages": pages, "metadata": metadata}, deep=True)


__all__ = ["PATTERNS", "Vocabulary", "apply_edits", "fingerprint", "mask_document", "phi_edits", "pseudonym",
           "vocabulary"]
