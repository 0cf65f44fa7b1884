"""Rule files: one YAML file per document type, validated by a pydantic schema.

A rule file is data a reviewer can audit: detection signals with weights, the
outline levels from outermost to innermost with a rationale each, size
defaults, and examples that the test suite runs. Patterns run on the
``regex`` module with a timeout, so a bad pattern cannot hang a batch.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import tempfile
import time
from functools import cached_property, lru_cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Literal

import pydantic
import regex
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, model_validator

from .errors import RuleError
from .normalize import squash_whitespace
from .numerals import CHINESE_NUMERAL

PATTERN_TIMEOUT = 2.0  # seconds for one regex call on one document
# Texts a detection signal may be skipped for, lacking its words, before it is compiled (Signal.checked_first).
SKIPS_BEFORE_COMPILING = 4
# A pattern as written (before {terms.X} is filled in) is at most this long: a longer one is a
# regex mini-language no reviewer can audit; say it as several named variants instead.
PATTERN_MAX = 200

# Placeholders a pattern may use, so rule files stay readable.
PLACEHOLDERS = {
    "{CN}": f"[{CHINESE_NUMERAL}]",
    "{NUM}": f"[{CHINESE_NUMERAL}0-9]",
    "{SP}": "[ \\t\u3000]",
}


def expand(pattern: str) -> str:
    for key, value in PLACEHOLDERS.items():
        pattern = pattern.replace(key, value)
    return pattern


def compile_pattern(pattern: str, flags: int = 0) -> regex.Pattern:
    return regex.compile(expand(pattern), flags | regex.VERSION0)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Examples(_Strict):
    """Lines a pattern must match and near misses it must refuse; the suite and `rules test` run them."""

    match: list[str] = Field(min_length=1, description="Text the pattern must match.")
    no_match: list[str] = Field(min_length=1, description="Text it must not match: the near misses it is written to refuse.")


class NotAfter(_Strict):
    """A line above that takes the boundary away: a heading written alone on its line owns the
    line under it (出院后用药建议： over 出院带药：…), so that line is not a boundary of its own."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    pattern: str = Field(max_length=PATTERN_MAX, description="The whole line above (after indentation and # marks).")
    why: str = Field(min_length=1)
    blank_lines: bool = Field(False, description="Blank lines may stand between that line and the boundary.")
    examples: Examples = Field(description="Lines above that take the boundary away (match), and that do not (no_match).")
    _expanded: str = PrivateAttr("")

    @property
    def expanded(self) -> str:
        return self._expanded or self.pattern


class Under(NotAfter):
    """The line above a boundary must be of a kind (engine feature): a list item opens only under
    the line that announces the list (服务包括：), a sub-heading only under its clause's title."""

    run: bool = Field(
        False, description="The boundaries after the first need not sit under such a line: a boundary whose "
        "nearest line above of the same level numbers one less goes on with that one's run (一、 right "
        "below a clause's title, then 二、 and 三、 further down that clause). Its variants give `num`.",
    )

    @cached_property
    def regex(self) -> regex.Pattern:
        return compile_pattern(self._line)

    @property
    def _line(self) -> str:
        return f"[ \t\u3000#]*(?:{self.expanded})[ \t\u3000]*"

    @cached_property
    def _stdlib(self) -> Any:
        """The line pattern on stdlib ``re`` where it means the same there and cannot backtrack
        without bound, with the run of characters two of its runs share (None: none), which a
        line must not hold for it to run there; None where it has no such form. Asked of line
        after line, the regex module's cost per call was most of the time ``under`` took."""
        from .stdre import compile_safe, translate

        body = translate(expand(self._line), [])
        return compile_safe(body) if body is not None else None

    def holds(self, text: str, pos: int) -> bool:
        """The line above the one holding ``pos`` (past blank lines, if they may stand between) is such a line."""
        end = text.rfind("\n", 0, pos)
        while end >= 0:
            begin = text.rfind("\n", 0, end) + 1
            if text[begin:end].strip() or not self.blank_lines:
                fast = self._stdlib
                if fast is not None and (fast[1] is None or fast[1].search(text, begin, end) is None):
                    return fast[0].fullmatch(text, begin, end) is not None
                return bool(self.regex.fullmatch(text, begin, end, timeout=PATTERN_TIMEOUT))
            end = begin - 1
        return False


# Where a NotAfter pattern sits: a whole line, then the boundary's line (blank lines between if allowed).
_ABOVE = "(?<!^[ \t\u3000#]*(?:{pattern})[ \t\u3000]*\n{blanks}[ \t\u3000]*)"
_BLANKS = "(?:[ \t\u3000]*\n)*"
_AFTER_BLANK = "(?<=\n[ \t\u3000]*\n[ \t\u3000]*)"
# What a variant's examples are tried after when it opens only after a blank line.
BLANK_LINE_CONTEXT = "前文。\n\n"


class Variant(_Strict):
    """One way a level's boundary is written: a short pattern with its reason and its examples.

    A level matches where any of its variants does (tried in order); the chunk's ``rule`` stays
    the level id and its metadata names the variant (``rule_variant``). Examples are matched as
    lines, through the engine's line prefix (indentation, Markdown ``#`` marks).
    """

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Kebab-case, unique within the level.")
    pattern: str = Field(max_length=PATTERN_MAX, description="As written: {CN}, {NUM}, {SP} and {terms.GROUP} allowed.")
    why: str = Field(min_length=1, description="Why a line written this way is a boundary.")
    examples: Examples
    after_blank_line: bool = Field(
        False, description="Engine feature: the variant opens only a line with a blank line above it "
        "(a template key set apart from the text before it). Its examples are tried after a blank line."
    )
    not_after: list[NotAfter] = Field(
        default_factory=list,
        description="Lines above that take the boundary away (engine feature: the variant does not match "
        "right under such a line). Say it here instead of in a lookbehind.",
    )
    _expanded: str = PrivateAttr("")

    @property
    def expanded(self) -> str:
        """The pattern with {terms.X} filled in and its engine features (not_after, after_blank_line)
        written as the lookbehinds they stand for (placeholders such as {CN} stay for ``expand``)."""
        return self._expanded or self.pattern

    @property
    def lookbehinds(self) -> str:
        """The lookbehinds its engine features (not_after, after_blank_line) are written as, ahead of
        its pattern in ``expanded``: what an engine without variable-width lookbehinds checks itself."""
        above = "".join(_ABOVE.format(pattern=na.expanded, blanks=_BLANKS if na.blank_lines else "")
                        for na in self.not_after)
        return above + _AFTER_BLANK if self.after_blank_line else above


class Signal(_Strict):
    """A detection signal: each match adds ``weight`` to the type's score, up to ``cap`` matches."""

    id: str
    pattern: str = Field(description=f"As written, at most {PATTERN_MAX} characters once the signal has examples.")
    weight: float
    cap: int = 1
    why: str = Field(description="Plain-language reason shown to users when the signal fires.")
    window: int | None = Field(None, description="Search only the first N characters (a title, a header).")
    examples: Examples | None = Field(
        None, description="Texts the signal must find (`match`) and must not (`no_match`). Required of new signals; "
        "signals without are listed in tests/unconverted/ until they get theirs."
    )
    _expanded: str = PrivateAttr("")
    # Per vocabulary the pattern cannot match without, its words (whitespace removed): a text
    # holding none of one tuple's words cannot match. A few vocabulary signals are most of the
    # time a one-file run spends compiling, so a signal is compiled only once a text could match it.
    _needs: tuple[tuple[str, ...], ...] = PrivateAttr(())
    _skipped: int = PrivateAttr(0)  # texts found to lack the words, so far

    @property
    def expanded(self) -> str:
        return self._expanded or self.pattern

    @cached_property
    def regex(self) -> regex.Pattern:
        return compile_pattern(self.expanded, regex.MULTILINE)

    def checked_first(self) -> bool:
        """Whether a text is checked for the needed words before it is searched: while the pattern
        is not compiled, for its first few texts. The check costs about what a search does (a few
        ms on a long text), compiling tens of ms: a process that goes on checking a signal's
        texts compiles it, as it would have from the start."""
        return bool(self._needs) and "regex" not in self.__dict__ and self._skipped < SKIPS_BEFORE_COMPILING

    def lacks_words(self, squashed: str) -> bool:
        """Whether ``squashed`` (the searched text, whitespace removed) lacks every word of a
        vocabulary the pattern needs, so that it cannot match."""
        if all(any(w in squashed for w in words) for words in self._needs):
            return False
        self._skipped += 1
        return True


class Detect(_Strict):
    min_score: float = 3.0
    signals: list[Signal] = Field(default_factory=list)


class Level(_Strict):
    """One level of the outline, matched at the start of a line's content.

    The level's pattern is the alternation of its ``variants``, each tried at the first
    non-blank character of a line, after any Markdown heading marks; ``$`` is the end of the
    line. Named groups: ``label`` (the label written into the path), ``num`` (a number used for
    order checks).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: str = Field(description="Stable id, e.g. statute.article; chunks name it in `rule`.")
    name: str = Field(description="What the level is called (编, 章, 条, 款, 项 …).")
    kind: str = Field(description="The chunk kind for units of this level (article, clause, section …).")
    variants: list[Variant] = Field(
        default_factory=list,
        description="The ways this boundary is written, each a named short pattern with its why and examples.",
    )
    legacy_pattern: str | None = Field(
        None,
        alias="pattern",
        description="Deprecated, accepted until every file is converted: one pattern for the whole level, "
        "without a cap, a why or examples. Write `variants` instead.",
    )
    rationale: str = Field(description="One line: why this is a boundary.")
    role: Literal["heading", "unit", "inner"] = Field(
        description="heading: opens a path element and goes with the unit after it; "
        "unit: a chunk of its own; inner: a place to split a unit that is over the limit."
    )
    rank: int | None = Field(None, description="Nesting depth; levels with equal rank are siblings. Default: position.")
    label: Literal["token", "line", "heading", "fixed"] = Field(
        "token",
        description="token: the `label` group (or the whole match); line: the whole line; "
        "heading: the whole line when it reads as a heading (short, no sentence end), else the token; "
        "fixed: the text of `fixed_label`.",
    )
    fixed_label: str | None = None
    order: Literal["none", "increasing"] = Field(
        "none", description="increasing: a line whose `num` does not exceed the last one is not a boundary."
    )
    only_without: list[str] = Field(
        default_factory=list, description="Level ids: this level applies only to documents where none of them occurs."
    )
    merge_repeats: bool = Field(False, description="A boundary with the same label as the open one continues it.")
    max_line: int | None = Field(None, description="Reject lines longer than this (headings are short).")
    yields_to: list[str] = Field(
        default_factory=list,
        description="Level ids: where one of them numbers straight on across this level's boundaries "
        "(一、 headings over 1. 2. 3. … clauses that never restart), this level does not apply and the "
        "named level does (its lines may then be taken by a heading level).",
    )
    lead_pattern: str | None = Field(
        None,
        alias="lead",
        max_length=PATTERN_MAX,
        description="Lines right above a boundary (no blank line between) that match this pattern belong "
        "to its section: a report's title and patient lines above the panel they introduce.",
    )
    scope: Literal["document", "unit"] = Field(
        "document",
        description="unit: matched only inside a unit that is over the limit (款, 项: cheap, and "
        "never confused with the document's own structure).",
    )
    blocks: list[str] = Field(
        default_factory=list,
        description="Match only lines that open a reader block of one of these kinds or styles "
        "(heading, bold): layout a pattern cannot see, such as a DOCX paragraph set in bold.",
    )
    anchor: Literal["line", "sentence", "field"] = Field(
        "line",
        description="line: the pattern opens a line; sentence: it may also open a sentence inside a line "
        "(after 。！？), for documents whose sections begin mid-paragraph (a judgment's 本院认为, 判决如下); "
        "field: it may also open right after a field's value on its line (既往史：体健过敏史：无), where what "
        "stands before is a label the level opens, its colon and a short value with no space, colon or "
        "sentence mark, and what opens is a label with its colon.",
    )
    restart_at: list[str] = Field(
        default_factory=list,
        description="Level ids whose boundaries cut the document into regions (a contract's parts, "
        "annexes): `order` and `only_without` are judged within each region, as numbering restarts there.",
    )
    after: list[str] = Field(
        default_factory=list, description="Level ids: a line is accepted only once one of them has been accepted before it."
    )
    before: list[str] = Field(
        default_factory=list, description="Level ids: a line is accepted only while none of them has been accepted yet."
    )
    follows: list[str] = Field(
        default_factory=list,
        description="Level ids: a line is accepted only as the first line after a boundary line of one of them.",
    )
    within: list[str] = Field(
        default_factory=list,
        description="Engine feature, `level-id/variant-name` entries: a line is accepted only inside a heading "
        "that one of these variants of that level opened (the nearest accepted heading of the level above the "
        "line): vocabulary that heads a section in one record form and is a sub-label in others (an "
        "examination report's 结论：, a label under 胃镜： inside an admission record's 辅助检查).",
    )
    under: Under | None = Field(
        None,
        description="Engine feature: a line is accepted only right under a line that `under.pattern` matches "
        "whole (indentation and # marks allowed; blank lines between with `blank_lines`), such as a line "
        "ending in ： that announces a list. Say it here instead of in a lookbehind.",
    )
    _lead: str | None = PrivateAttr(None)
    _legacy: str | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _consistent(self) -> Level:
        if bool(self.variants) == (self.legacy_pattern is not None):
            raise ValueError("a level has `variants` (or, until converted, one `pattern`), not both and not neither")
        names = [v.name for v in self.variants]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"duplicate variant names: {dup}")
        if self.label == "fixed" and not self.fixed_label:
            raise ValueError("label: fixed needs fixed_label")
        if self.scope == "unit" and self.role != "inner":
            raise ValueError("scope: unit is for inner levels")
        return self

    @cached_property
    def pattern(self) -> str:
        """The level's effective pattern: its variants in order, each in a group ``_vI`` that
        tells which one matched; a legacy level's one pattern as it is. Written once, after the
        rule file filled in its vocabulary: the engine asks for it several times a document."""
        if not self.variants:
            return self._legacy or self.legacy_pattern or ""
        return "|".join(f"(?P<_v{i}>{v.expanded})" for i, v in enumerate(self.variants))

    @property
    def lead(self) -> str | None:
        return self._lead or self.lead_pattern

    @cached_property
    def regex(self) -> regex.Pattern:
        return compile_pattern(self.pattern, regex.MULTILINE)

    def variant_at(self, text: str, pos: int, endpos: int | None = None) -> str | None:
        """The name of the variant that matches ``text`` at ``pos`` (a boundary's first content
        character), as the engine's match took it: the first in order that matches."""
        if not self.variants:
            return None
        m = self.regex.match(text, pos, len(text) if endpos is None else endpos, timeout=PATTERN_TIMEOUT)
        if m is None:
            return None
        return next((v.name for i, v in enumerate(self.variants) if m.start(f"_v{i}") >= 0), None)


ReaderName = Literal["text", "docx", "pdf"]


class ExpectedChunk(_Strict):
    starts: str = Field(description="The chunk's text begins with this (after whitespace).")
    path: list[str] | None = None
    rule: str | None = None
    kind: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict, description="Keys the chunk's metadata must hold.")


class Case(_Strict):
    """A worked case: a document's text, and the chunks it must give (in order).

    Cases live beside their rule file in ``cases/<file>.yaml`` (sqlfluff's std_rule_cases);
    the suite and ``domainchunk rules test`` run every one.
    """

    name: str
    rule: str = Field(description="The level (or signal) id the case is about.")
    text: str
    chunks: list[ExpectedChunk] = Field(default_factory=list)
    not_starts: list[str] = Field(default_factory=list, description="No chunk may begin with these.")
    max_chars: int | None = None
    doc_type: str | None = Field(
        None, description="Detection must give this type (the case is then chunked as detected, not as the file's type)."
    )
    readers: list[ReaderName] = Field(
        default_factory=lambda: list[ReaderName](["text"]),
        description="Run the case through these readers: the text is also saved as a DOCX (python-docx; "
        "Markdown headings as Word headings) and printed to a PDF (reportlab), then read back and chunked.",
    )


class CaseFile(_Strict):
    """``cases/<file>.yaml``: the cases of the rule file of the same name."""

    cases: list[Case]


Vocabulary = dict[str, dict[str, list[str]]]


class RuleFile(_Strict):
    id: str
    version: str
    doc_type: str
    description: str
    hooks: str | None = Field(
        None,
        description="Hooks where a pattern cannot say it: a built-in hook module (statute, contract, judgment, "
        "medical_record, lab_report, or its module path), or the name of an installed entry point of group "
        "`domainchunk.hooks` that the caller enables on purpose (allow_hooks, --allow-hook). Nothing else is imported.",
    )
    terms: Vocabulary = Field(
        default_factory=dict,
        description="Vocabularies: group -> canonical term -> aliases. A pattern writes {terms.GROUP} for "
        "any term or alias of the group (longest first), so users extend a vocabulary without touching patterns.",
    )
    fields: Vocabulary = Field(
        default_factory=dict,
        description="Labelled fields: group -> metadata key -> the labels documents write for it "
        "(header: {department: [科室, 科别, 病区]}). Hooks read the key of a label; a pattern writes "
        "{fields.GROUP} for any label of the group.",
    )
    detect: Detect = Field(default_factory=Detect)
    levels: list[Level] = Field(default_factory=list)
    max_chars: int = 1000
    examples: list[Case] = Field(
        default_factory=list,
        description="Deprecated: cases written inside the rule file; move them to cases/<file>.yaml beside it.",
    )
    path: str | None = Field(None, exclude=True)
    _hook_module: str | None = PrivateAttr(None)
    _cases: tuple[Case, ...] = PrivateAttr(())
    # Loaded from the cache: the cases as plain data (inherited, own), validated when first asked
    # for; a command that only chunks never reads them.
    _case_data: tuple[dict, dict] | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _fill_vocabulary(self, info: ValidationInfo) -> RuleFile:
        """Write each {terms.GROUP} / {fields.GROUP} out as the group's alternation, in every
        pattern field, and check that every expanded pattern compiles (unless the loader's
        cache vouches that these very bytes compiled under this code: ``context={"compiled": True}``).

        ``context["alternations"]``, when given, holds the alternations already written for these
        very bytes (the loader's cache), and is filled with those written here: the tries of the
        built-in vocabularies are most of what loading a cached file costs."""
        proven = bool(info.context and info.context.get("compiled"))
        vocabularies = {f"{{terms.{g}}}": v for g, v in self.terms.items()}
        vocabularies |= {f"{{fields.{g}}}": _labels(v) for g, v in self.fields.items()}
        # of the vocabularies some pattern names, each written once
        alternations: dict[str, str] = info.context.get("alternations", {}) if info.context else {}

        def fill(rule_id: str, what: str, pattern: str) -> str:
            refs = set(_VOCAB_REF.findall(pattern))
            unknown = sorted(refs - set(vocabularies))
            if unknown:
                raise ValueError(f"rule {rule_id}: {what} names unknown vocabularies {unknown} "
                                 f"(known: {sorted(vocabularies)})")
            for key in refs:  # an alternation holds no {…} of its own (its braces are escaped): any order
                if key not in alternations:
                    alternations[key] = _alternation(vocabularies[key])
                pattern = pattern.replace(key, alternations[key])
            return pattern

        def compiles(rule_id: str, parts: list[tuple[str, str]], flags: int = regex.MULTILINE) -> None:
            """Compile each pattern once, with the flags it runs with (so the regex cache serves it
            later); only when a combined one fails, each part alone, to name the one at fault."""
            if proven:  # compiled when first loaded; a type's patterns now compile when it is first used
                return
            try:
                compile_pattern(parts[0][1], flags)
                return
            except regex.error as exc:
                first = exc
            for what, pattern in parts[1:]:
                try:
                    compile_pattern(pattern, flags)
                except regex.error as exc:
                    raise ValueError(f"rule {rule_id}: {what} does not compile: {exc}") from None
            raise ValueError(f"rule {rule_id}: {parts[0][0]} does not compile: {first}") from None

        for sig in self.detect.signals:
            if sig.examples is not None and len(sig.pattern) > PATTERN_MAX:
                raise ValueError(f"rule {sig.id}: pattern is {len(sig.pattern)} characters, over {PATTERN_MAX}")
            sig._expanded = fill(sig.id, "pattern", sig.pattern)
            if "(?i" not in sig.pattern:  # a case-blind pattern matches words not as written
                needed = (frozenset(w for ref in refs for w in _words(vocabularies[ref]))
                          for refs in _needed_refs(sig.pattern))
                # squash_whitespace, as the detector squashes the text: spaces may stand between a word's characters
                sig._needs = tuple(tuple(sorted({squash_whitespace(w) for w in words})) for words in needed
                                   if all(squash_whitespace(w) for w in words))
            compiles(sig.id, [("pattern", sig._expanded)])
        for lv in self.levels:
            parts = []
            for v in lv.variants:
                for na in v.not_after:
                    na._expanded = fill(lv.id, f"variant {v.name} not_after {na.name}", na.pattern)
                    parts.append((f"variant {v.name} not_after {na.name}", na._expanded))
                v._expanded = v.lookbehinds + fill(lv.id, f"variant {v.name}", v.pattern)
                parts.append((f"variant {v.name}", v._expanded))
            if lv.legacy_pattern is not None:
                lv._legacy = fill(lv.id, "pattern", lv.legacy_pattern)
            # the level as the engine runs it; variants that compile alone but not together fail here
            compiles(lv.id, [("its variants as one pattern" if lv.variants else "pattern", lv.pattern), *parts])
            if lv.under is not None:
                lv.under._expanded = fill(lv.id, f"under {lv.under.name}", lv.under.pattern)
                compiles(lv.id, [(f"under {lv.under.name}", lv.under._expanded)])
            if lv.lead_pattern is not None:
                lv._lead = fill(lv.id, "lead", lv.lead_pattern)
                compiles(lv.id, [("lead", lv._lead)])
        return self

    @model_validator(mode="after")
    def _consistent(self) -> RuleFile:
        ids = [lv.id for lv in self.levels]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate level ids: {sorted(dup)}")
        variants = {x.id: {v.name for v in x.variants} for x in self.levels}
        for lv in self.levels:
            for key in ("only_without", "restart_at", "after", "before", "follows", "yields_to"):
                missing = [i for i in getattr(lv, key) if i not in ids]
                if missing:
                    raise ValueError(f"level {lv.id}: {key} names unknown levels {missing}")
            for entry in lv.within:
                level, _, variant = entry.partition("/")
                if variant not in variants.get(level, ()):
                    raise ValueError(f"level {lv.id}: within names no variant of a level of the file: {entry!r}")
        self._check_cases(self.examples)
        return self

    def _check_cases(self, cases: Iterable[Case]) -> None:
        known = {lv.id for lv in self.levels} | {s.id for s in self.detect.signals}
        for case in cases:
            if case.rule not in known:
                raise ValueError(f"case {case.name!r} is about unknown rule {case.rule!r}")

    @property
    def cases(self) -> list[Case]:
        """Every case of the file: those in cases/<file>.yaml (and of the file it extends), then inline ones."""
        if self._case_data is not None:
            self._cases = _cached_cases(self, *self._case_data)
            self._case_data = None
        return [*self._cases, *self.examples]

    def vocabulary_pattern(self, ref: str) -> str:
        """The alternation that ``{terms.X}`` / ``{fields.X}`` (``ref`` without braces) stands for, for hooks."""
        memo = self._vocabulary_patterns
        found = memo.get(ref)
        if found is None:
            kind, _, group = ref.partition(".")
            vocab = {"terms": self.terms, "fields": self.fields}.get(kind, {}).get(group)
            if vocab is None:
                raise RuleError(self.path or self.id, f"the hooks need vocabulary {{{ref}}}, which the file does not define")
            found = memo[ref] = _alternation(_labels(vocab) if kind == "fields" else vocab)
        return found

    @cached_property
    def _vocabulary_patterns(self) -> dict[str, str]:
        # Hooks ask for a vocabulary once per chunk; the file is frozen, so its answers are kept.
        return {}

    def term(self, group: str, text: str) -> str | None:
        """The canonical term of ``group`` that ``text`` (a term or an alias, spaces ignored) names."""
        return _canonical_of(self.terms.get(group, {}), text)

    def field_key(self, group: str, label: str) -> str | None:
        """The metadata key that ``label`` (as a document writes it, spaces ignored) stands for in ``group``."""
        return _canonical_of(self.fields.get(group, {}), label)

    def unconverted(self) -> list[str]:
        """Rule ids still written the old way: levels on one `pattern:`, signals without examples."""
        return [lv.id for lv in self.levels if not lv.variants] + [
            sig.id for sig in self.detect.signals if sig.examples is None
        ]

    def slow_rule(self, text: str) -> str | None:
        """The first rule whose pattern times out on ``text``, for an error that names it."""
        for lv in self.levels:
            parts = [(f"variant {v.name}", v.expanded) for v in lv.variants] + [("pattern", lv._legacy or lv.legacy_pattern),
                                                                                ("lead", lv.lead)]
            for what, pattern in parts:
                if pattern is None:
                    continue
                try:
                    for _ in compile_pattern(pattern, regex.MULTILINE).finditer(text, timeout=PATTERN_TIMEOUT):
                        pass
                except TimeoutError:
                    return f"rule {lv.id} ({what})"
        return None

    def hook_module(self) -> ModuleType | None:
        """The hooks module: a built-in one, or the entry point enabled when the file was loaded."""
        if self.hooks is None:
            return None
        module = self._hook_module or _builtin_hook(self.hooks)
        if module is None:
            raise RuleError(self.path or self.id, f"hooks {self.hooks!r} were not enabled when the file was loaded")
        return importlib.import_module(module)

    def ranks(self) -> dict[str, int]:
        return {lv.id: (lv.rank if lv.rank is not None else i) for i, lv in enumerate(self.levels)}

    def fingerprint(self) -> str:
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _labels(fields: dict[str, list[str]]) -> dict[str, list[str]]:
    """A field group's labels as a vocabulary: a key with no labels listed is written as itself (性别)."""
    return {label: [] for key, labels in fields.items() for label in (labels or [key])}


def _canonical_of(vocab: dict[str, list[str]], text: str) -> str | None:
    return _canonical_map(vocab).get(squash_whitespace(text))


# Vocabulary id -> (the vocabulary, its written forms -> canonical term). Holding the vocabulary
# keeps its id from being reused; a loaded rule file's vocabularies are never changed.
_CANONICAL_MAPS: dict[int, tuple[dict[str, list[str]], dict[str, str]]] = {}


def _canonical_map(vocab: dict[str, list[str]]) -> dict[str, str]:
    """Every term and alias (spaces squashed) -> its canonical term; the first term naming a form wins."""
    kept = _CANONICAL_MAPS.get(id(vocab))
    if kept is not None and kept[0] is vocab:
        return kept[1]
    forms: dict[str, str] = {}
    for canonical, aliases in vocab.items():
        for form in (canonical, *(aliases or [])):
            forms.setdefault(squash_whitespace(form), canonical)
    if len(_CANONICAL_MAPS) > 256:  # rules_dir variants in a long-lived process: start afresh
        _CANONICAL_MAPS.clear()
    _CANONICAL_MAPS[id(vocab)] = (vocab, forms)
    return forms


_VOCAB_REF = regex.compile(r"\{(?:terms|fields)\.\w+\}")


def _words(vocab: dict[str, list[str]]) -> set[str]:
    """Every term and alias of a vocabulary."""
    return {w for canonical, aliases in vocab.items() for w in (canonical, *(aliases or []))}


_SPACING = "[ \t\u3000]"  # what may stand between a term's characters ({SP})


def _alternation(vocab: dict[str, list[str]]) -> str:
    """A non-capturing group of every term and alias, longest first so 诊断依据 wins over 诊断.

    Spaces may stand between a term's characters: forms print headings letter-spaced
    (主  诉, 体 格 检 查) to line them up.

    It is written as a trie, common prefixes factored (``诊(?:[ \t\u3000]*断(?:…)?)``), which
    matches exactly as the flat longest-first list would: the words that match at one place are
    prefixes of one another, and the trie tries them deepest first. A few hundred characters
    instead of thousands, each alternative decided by one character, where the flat list tried
    word after word at every line. Where a word holds a spacing character, or two words part at
    characters that a case-blind pattern takes alike (``No.`` and ``NO``), the next character
    decides nothing, and the list stays flat.
    """
    words = _words(vocab)
    if not words:
        return "(?:)"
    trie = _trie(words)
    if trie is None:
        return flat_alternation(words)
    kids, end = trie
    body = "|".join(regex.escape(ch) + _after(node) for ch, node in sorted(kids.items()))
    return f"(?:{body})" + ("?" if end else "")


def flat_alternation(words: set[str]) -> str:
    """The words one after another, longest first: what the trie must match exactly as."""
    spaced = (f"{_SPACING}*".join(regex.escape(ch) for ch in w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return "(?:" + "|".join(spaced) + ")"


_Node = tuple[dict[str, Any], bool]  # children by character, and whether a word ends here


def _trie(words: set[str]) -> _Node | None:
    """The words as a trie, or None where the next character would not decide between children."""
    root: _Node = ({}, "" in words)
    for w in words:
        kids = root[0]
        for k, ch in enumerate(w):
            if ch in " \t\u3000" or len(ch.casefold()) != 1:
                return None
            if ch not in kids:
                if any(other.casefold() == ch.casefold() for other in kids):
                    return None
                kids[ch] = ({}, False)
            if k == len(w) - 1:
                kids[ch] = (kids[ch][0], True)
            kids = kids[ch][0]
    return root


def _after(node: _Node) -> str:
    """What follows a trie node's character: its children, each after optional spacing (they all
    start with it, so it is written once ahead of them); optional when a word ends at the node."""
    kids, end = node
    if not kids:
        return ""
    if len(kids) == 1:
        ((ch, child),) = kids.items()
        body = regex.escape(ch) + _after(child)
    else:
        body = "(?:" + "|".join(regex.escape(ch) + _after(child) for ch, child in sorted(kids.items())) + ")"
    return f"(?:{_SPACING}*{body})?" if end else f"{_SPACING}*{body}"


# A count that keeps what it follows: {2}, {1,3}, {2,}; any other quantifier (?, *, {0,3}, a
# fuzzy {e<=1}) may let it be absent.
_AT_LEAST_ONE = regex.compile(r"\{[1-9]\d*(?:,\d*)?\}")
_ASSERTIONS = ("(?=", "(?!", "(?<=", "(?<!", "(?(")


def _needed_refs(pattern: str) -> list[frozenset[str]]:
    """The vocabulary references (``{terms.X}``) a pattern as written cannot match without: per
    entry, one of its references must match. Erring only towards fewer: a reference in an
    optional part, a lookaround or only some branches of an alternation is needed by no match."""
    pos = 0

    def sequence() -> list[frozenset[str]]:
        nonlocal pos
        branches: list[list[frozenset[str]]] = [[]]
        last: list[frozenset[str]] = []  # what the atom just read needs, kept once its quantifier is known
        while pos < len(pattern) and pattern[pos] != ")":
            ch = pattern[pos]
            ref = _VOCAB_REF.match(pattern, pos) if ch == "{" else None
            placeholder = next((p for p in PLACEHOLDERS if pattern.startswith(p, pos)), None) if ch == "{" else None
            if ch in "?*+" or (ch == "{" and not ref and not placeholder):
                count = _AT_LEAST_ONE.match(pattern, pos) if ch == "{" else None
                if ch in "?*" or (ch == "{" and not count):
                    last = []
                pos = count.end() if count else pattern.find("}", pos) + 1 or len(pattern) if ch == "{" else pos + 1
                continue
            branches[-1] += last
            last = []
            if ch == "|":
                branches.append([])
                pos += 1
            elif ch == "\\":
                pos += 2
            elif ch == "[":
                pos += 2 if pattern.startswith("[^", pos) else 1
                if pattern.startswith("]", pos):  # a leading ] is a member
                    pos += 1
                while pos < len(pattern) and pattern[pos] != "]":
                    pos += 2 if pattern[pos] == "\\" else 1
                pos += 1
            elif ch == "(":
                assertion = pattern.startswith(_ASSERTIONS, pos)
                pos += 1
                inner = sequence()
                pos += 1  # its ")"
                last = [] if assertion else inner
            elif ref:
                last = [frozenset([ref.group()])]
                pos = ref.end()
            else:  # a literal character, or a placeholder ({CN}: a character class)
                pos += len(placeholder) if placeholder else 1
        branches[-1] += last
        if len(branches) == 1:
            return branches[0]
        if all(branches):  # one of the branches matches: one of their first references is needed
            return [frozenset().union(*(b[0] for b in branches))]
        return []

    needs = []
    while pos < len(pattern):  # past an unbalanced ")" (a pattern that does not compile), read on
        needs += sequence()
        pos += 1
    return needs


def _format_error(exc: ValidationError, data: dict) -> str:
    first = exc.errors()[0]
    loc = first["loc"]
    where = ".".join(str(p) for p in loc)
    # Name the rule (level or signal id) the error sits in, for reviewers.
    node: Any = data
    rule_id = None
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and "id" in node:
            rule_id = node["id"]
        elif isinstance(node, dict) and "name" in node and rule_id:
            rule_id = f"{rule_id} variant {node['name']}"
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        msg = f"unknown key {loc[-1]!r}"
    return f"{'rule ' + rule_id + ': ' if rule_id else ''}{msg}" + (f" (at {where})" if where else "")


HOOK_GROUP = "domainchunk.hooks"
# The package's own hook modules. A rule file is data: its `hooks:` names one of these (or an
# entry point a user installed and enabled), never an arbitrary module (`hooks: this` would
# run `import this`, and a .py file in the working directory would shadow a name).
BUILTIN_HOOKS = {
    "statute": "domainchunk.chunkers.statute",
    "contract": "domainchunk.chunkers.contract",
    "judgment": "domainchunk.chunkers.judgment",
    "medical_record": "domainchunk.chunkers.medical",
    "lab_report": "domainchunk.chunkers.lab",
}
# Which entry-point hooks a caller enables: True for every installed one, or their names.
AllowHooks = bool | Iterable[str]


def _builtin_hook(name: str) -> str | None:
    return BUILTIN_HOOKS.get(name) or (name if name in BUILTIN_HOOKS.values() else None)


def _allowed(allow: AllowHooks) -> bool | frozenset[str]:
    if isinstance(allow, bool):
        return allow
    return frozenset([allow] if isinstance(allow, str) else allow)


def _resolve_hooks(rules: RuleFile, where: str, allow: bool | frozenset[str]) -> str | None:
    """The module the file's hooks name, checked: built-in, or an enabled and importable entry point."""
    name = rules.hooks
    if name is None or _builtin_hook(name):
        return _builtin_hook(name) if name else None
    found = metadata.entry_points(group=HOOK_GROUP, name=name)
    if not found:
        raise RuleError(where, f"hooks {name!r} is not a hook module: a rule file may name a built-in one "
                               f"({', '.join(sorted(BUILTIN_HOOKS))}) or an installed entry point of group {HOOK_GROUP}")
    ep = next(iter(found))
    if not (allow is True or (allow and name in allow)):
        raise RuleError(where, f"hooks {name!r} is the installed entry point {ep.value!r}, which runs code: "
                               f"enable it on purpose with allow_hooks=[{name!r}] or --allow-hook {name}")
    module = ep.value.partition(":")[0].strip()
    try:
        importlib.import_module(module)
    except Exception as exc:  # any failure of the user's module: one line, not a traceback per document
        raise RuleError(where, f"hooks {name!r}: cannot import {module}: {type(exc).__name__}: {exc}") from None
    return module


# The YAML loader: None is libyaml's where PyYAML was built with it (~10x faster than the
# pure-Python one, and every batch worker loads the rules). PyYAML is imported only to parse a
# file the cache does not hold.
_YAML_LOADER: Any = None


def _read_text(path: Path, what: str = "rule file") -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(str(path), f"cannot read {what}: {exc}") from None


def _parse_yaml(text: str, path: Path, what: str = "rule file") -> dict:
    import yaml

    try:
        data = yaml.load(text, Loader=_YAML_LOADER or getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise RuleError(str(path), f"invalid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise RuleError(str(path), f"a {what} must be a mapping")
    return data


def cases_path(rule_file: Path) -> Path:
    """Where a rule file's cases live: ``cases/<name>.yaml`` beside it (the loader never reads that folder as rules)."""
    return rule_file.parent / "cases" / rule_file.name


def _cases_text(rule_file: Path) -> str | None:
    path = cases_path(rule_file)
    return _read_text(path, "cases file") if path.is_file() else None


def _parse_cases(text: str | None, path: Path) -> dict:
    """A cases file as plain data (no file: no cases)."""
    return {"cases": []} if text is None else _parse_yaml(text, path, "cases file")


def _validate_cases(data: dict, path: Path) -> list[Case]:
    try:
        return CaseFile.model_validate(data).cases
    except ValidationError as exc:
        raise RuleError(str(path), _format_error(exc, data)) from None


# What a file that `extends:` a built-in one may add; anything else would change the built-in
# file's meaning behind a reviewer's back, so it takes a copy of the file instead.
_EXTENSION_KEYS = {"extends", "version", "description", "terms", "fields", "levels", "detect"}


def _base_file(name: str, where: str) -> Path:
    base_path = next((p for p in _rule_files(builtin_rules_dir()) if p.stem == name), None)
    if base_path is None:
        known = ", ".join(p.stem for p in _rule_files(builtin_rules_dir()))
        raise RuleError(where, f"extends {name!r}: no built-in rule file of that name (known: {known})")
    return base_path


def _extend(data: dict, path: Path) -> tuple[dict, dict, str]:
    """The built-in file ``data["extends"]`` names, with ``data``'s terms, fields, signals and
    variants (by level id) added; the built-in file's cases (plain data); and the digest of the
    built-in file and its cases, which the merged data depends on."""
    where = str(path)
    name = data["extends"]
    base_path = _base_file(name, where)
    extra = sorted(set(data) - _EXTENSION_KEYS)
    if extra:
        raise RuleError(where, f"a file that extends {name} may add terms, fields, detect.signals and level "
                               f"variants; it cannot set {extra} (copy the file to replace it)")
    base_text, base_cases = _read_text(base_path), _cases_text(base_path)
    base = _parse_yaml(base_text, base_path)
    merged = {**base, "version": f"{base['version']}+{data.get('version', 'ext')}"}
    for key in ("terms", "fields"):
        vocab = {group: {term: list(aliases or []) for term, aliases in terms.items()}
                 for group, terms in (base.get(key) or {}).items()}
        for group, terms in (data.get(key) or {}).items():
            for term, aliases in (terms or {}).items():
                known_aliases = vocab.setdefault(group, {}).setdefault(term, [])
                known_aliases += [a for a in aliases or [] if a not in known_aliases]
        merged[key] = vocab
    signals = (data.get("detect") or {}).get("signals") or []
    if set(data.get("detect") or {}) - {"signals"}:
        raise RuleError(where, f"extends {name}: detect may only add signals")
    merged["detect"] = {**(base.get("detect") or {}), "signals": [*(base.get("detect") or {}).get("signals", []), *signals]}
    levels = {lv["id"]: dict(lv) for lv in base.get("levels", [])}
    for added in data.get("levels") or []:
        if not isinstance(added, dict) or set(added) != {"id", "variants"}:
            raise RuleError(where, f"extends {name}: a level entry is an `id` of a level of {name} and the `variants` "
                                   f"to add to it")
        level = levels.get(added["id"])
        if level is None:
            raise RuleError(where, f"extends {name}: no level {added['id']!r} (levels: {', '.join(levels)})")
        level["variants"] = [*level["variants"], *added["variants"]]
    merged["levels"] = list(levels.values())
    return merged, _parse_cases(base_cases, cases_path(base_path)), _digest(base_text, base_cases)


# ---------------------------------------------------------------- the validated-file cache
#
# Validating a rule file compiles every one of its patterns, most of a second for the built-in
# files, in every process that loads them. A file whose bytes already validated under this very
# code is loaded from the cache: its parsed YAML (plain JSON data, never pickled objects, so the
# cache cannot run code) is validated again by the schema, but its patterns are not compiled
# until a document of its type needs them. An unreadable, foreign or stale entry is a miss.

CACHE_ENV = "DOMAINCHUNK_CACHE_DIR"  # where entries go; empty: no cache
CACHE_FORMAT = 2  # 2: entries hold the vocabularies' alternations
CACHE_ENTRIES = 256  # the oldest beyond this are removed when an entry is written


def cache_dir() -> Path | None:
    """``$DOMAINCHUNK_CACHE_DIR``, else ``$XDG_CACHE_HOME/domainchunk/rules`` (``~/.cache/...``)."""
    if CACHE_ENV in os.environ:
        return Path(os.environ[CACHE_ENV]) if os.environ[CACHE_ENV] else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "domainchunk" / "rules"


def _digest(*parts: str | None) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(b"\1" if part is None else b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


@lru_cache(maxsize=1)
def _code_digest() -> str | None:
    """What a file's validation depends on besides its bytes: this module and the numerals its
    placeholders expand to, and the versions of Python, pydantic and regex (None: no source to
    read, as in a zip, so no cache)."""
    here = Path(__file__).resolve().parent
    try:
        sources = [(here / name).read_text(encoding="utf-8") for name in ("rulefile.py", "numerals.py")]
    except OSError:
        return None
    versions = f"{CACHE_FORMAT} {sys.version_info[:3]} {pydantic.VERSION} {regex.__version__}"
    return _digest(versions, *sources)


def _cache_key(text: str, cases: str | None) -> str | None:
    code = _code_digest()
    loader = getattr(_YAML_LOADER, "__name__", "")  # a loader chosen on purpose parses anew
    return None if code is None else _digest(code, loader, text, cases)


def _cache_get(key: str | None) -> dict | None:
    folder = cache_dir()
    if folder is None or key is None:
        return None
    try:
        entry = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        parts = ("data", "cases", "inherited", "alternations")
        if entry["key"] != key or not all(isinstance(entry[part], dict) for part in parts):
            return None
        if not all(isinstance(v, str) for v in entry["alternations"].values()):
            return None
        if entry["base"] is not None:  # an extension: the built-in file it extends must be unchanged too
            name, digest = entry["base"]
            base_path = _base_file(name, name)
            if _digest(_read_text(base_path), _cases_text(base_path)) != digest:
                return None
        return entry
    except (OSError, ValueError, TypeError, KeyError, RuleError):  # absent, corrupt or foreign: rebuild
        return None


def _cache_put(key: str | None, entry: dict) -> None:
    """Write the entry atomically (a reader sees the old file or the new one); never fail the load."""
    folder = cache_dir()
    if folder is None or key is None:
        return
    try:
        blob = json.dumps({"key": key, **entry}, ensure_ascii=False)
        if json.loads(blob) != {"key": key, **entry}:  # YAML gave what JSON cannot hold (a date, an int key)
            return
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(blob)
            os.replace(tmp, folder / f"{key}.json")
        except BaseException:
            os.unlink(tmp)
            raise
        entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in entries[:-CACHE_ENTRIES]:
            old.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError):  # a read-only or full disk: the next load validates again
        pass


def load_rule_file(path: str | Path, allow_hooks: AllowHooks = False) -> RuleFile:
    """Load and validate one rule file, with its cases; its hooks must be built-in or an
    entry point ``allow_hooks`` enables. A file with ``extends:`` is that built-in file plus its additions."""
    path = Path(path)
    text, cases_text = _read_text(path), _cases_text(path)
    key = _cache_key(text, cases_text)
    entry = _cache_get(key)
    rules = None
    if entry is not None:
        try:
            rules = _validated(entry, path, compiled=True)
        except (ValidationError, RuleError):  # an entry that no longer validates is rebuilt, never fatal
            rules = None
    if rules is None:
        entry = _fresh_entry(path, text, cases_text)
        rules = _validated(entry, path, compiled=False)
        _cache_put(key, entry)
    rules._hook_module = _resolve_hooks(rules, str(path), _allowed(allow_hooks))
    return rules


def _fresh_entry(path: Path, text: str, cases_text: str | None) -> dict:
    """What the cache holds for a rule file, read from the files themselves: its data (merged with
    the built-in file it extends), the cases it inherits and its own, as plain data."""
    data = _parse_yaml(text, path)
    entry: dict[str, Any] = {"data": data, "inherited": {"cases": []}, "base": None}
    if "extends" in data:
        merged, entry["inherited"], digest = _extend(data, path)
        entry |= {"data": merged, "base": [data["extends"], digest]}
    entry["cases"] = _parse_cases(cases_text, cases_path(path))
    return entry


def _validated(entry: dict, path: Path, compiled: bool) -> RuleFile:
    """The rule file and its cases from plain data; ``compiled``: an entry of the cache, whose
    patterns are known to compile, whose alternations it holds, and whose cases validated when it
    was written (they are validated again when first asked for). A fresh entry gets the
    alternations its validation wrote."""
    alternations = dict(entry["alternations"]) if compiled else {}
    try:
        rules = RuleFile.model_validate({**entry["data"], "path": str(path)},
                                        context={"compiled": compiled, "alternations": alternations})
    except ValidationError as exc:
        raise RuleError(str(path), _format_error(exc, entry["data"])) from None
    if compiled:
        rules._case_data = (entry["inherited"], entry["cases"])
        return rules
    entry["alternations"] = alternations
    own = _validate_cases(entry["cases"], cases_path(path))
    try:
        rules._check_cases(own)
    except ValueError as exc:
        raise RuleError(str(cases_path(path)), str(exc)) from None
    rules._cases = (*_validate_cases(entry["inherited"], path), *own)
    return rules


def _cached_cases(rules: RuleFile, inherited: dict, own: dict) -> tuple[Case, ...]:
    """The cases of a rule file loaded from the cache, validated now; should the entry's copy no
    longer validate (a damaged entry), they are read from the files again, as a miss would."""
    path = Path(rules.path or rules.id)
    try:
        return (*_validate_cases(inherited, path), *_validate_cases(own, cases_path(path)))
    except RuleError:
        entry = _fresh_entry(path, _read_text(path), _cases_text(path))
        return _validated(entry, path, compiled=False)._cases


@lru_cache(maxsize=1)
def builtin_rules_dir() -> Path:
    """The rule files shipped inside the package (``rules/`` in a checkout)."""
    from importlib import resources

    try:
        return Path(str(resources.files("domainchunk.rules")))
    except ModuleNotFoundError:  # running from a checkout without install
        return Path(__file__).resolve().parent.parent / "rules"


def _rule_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


# A file modified this recently may be modified again within the file system's timestamp
# granularity without its stamp changing (git's "racily clean" entries): its content counts too.
_RACY_NS = 2_000_000_000


def _stamp(folder: str) -> tuple:
    """What a folder's rule files are known by between two loads: each rule file's and cases
    file's name, size, inode and modification time; a few stat calls, and no reading except of
    a file modified in the last two seconds."""
    def files(where: str) -> list[tuple]:
        with os.scandir(where) as entries:
            return sorted((e.name, *_stat(e)) for e in entries if e.name.endswith(".yaml") and e.is_file())

    try:
        rules = files(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise RuleError(folder, "rules folder not found") from None
    except OSError as exc:
        raise RuleError(folder, f"cannot read rules folder: {exc}") from None
    try:
        names = {name for name, *_ in rules}
        cases = [c for c in files(os.path.join(folder, "cases")) if c[0] in names]
    except OSError:
        cases = []
    return tuple(rules), tuple(cases)


def _stat(entry: os.DirEntry) -> tuple[int, int, int, str | None]:
    st = entry.stat()
    racy = time.time_ns() - st.st_mtime_ns < _RACY_NS
    digest = hashlib.sha256(Path(entry.path).read_bytes()).hexdigest() if racy else None
    return st.st_size, st.st_ino, st.st_mtime_ns, digest


@lru_cache(maxsize=16)
def _load_folder(folder: str, stamp: tuple, allow: bool | frozenset[str]) -> tuple[RuleFile, ...]:
    return tuple(load_rule_file(p, allow) for p in _rule_files(Path(folder)))


@lru_cache(maxsize=1)
def _builtin_rules() -> dict[str, RuleFile]:
    """The built-in files, loaded once a process: they are part of the installed package, as its
    modules are (a user folder, by contrast, is looked at again on every load)."""
    folder = str(builtin_rules_dir())
    return {r.doc_type: r for r in _load_folder(folder, _stamp(folder), False)}


def load_rules(rules_dir: str | os.PathLike | None = None, allow_hooks: AllowHooks = False) -> dict[str, RuleFile]:
    """Built-in rule files by doc_type, with a user folder's files added or overriding by doc_type.

    A user file's ``hooks:`` may name an installed entry point (group ``domainchunk.hooks``)
    only when ``allow_hooks`` enables it (True, or its name): it runs code. A user folder is
    loaded again when one of its files changed since the last load (a stat per file, no reading).
    """
    registry = dict(_builtin_rules())
    if rules_dir is not None:
        folder = os.fspath(rules_dir)
        for r in _load_folder(folder, _stamp(folder), _allowed(allow_hooks)):
            registry[r.doc_type] = r
    return registry


def json_schema() -> dict:
    return RuleFile.model_json_schema()
