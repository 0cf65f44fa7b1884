"""Rule files: one YAML file per document type, validated by a pydantic schema.

A rule file is data a reviewer can audit: detection signals with weights, the
outline levels from outermost to innermost with a rationale each, size
defaults, and examples that the test suite runs. Patterns run on the
``regex`` module with a timeout, so a bad pattern cannot hang a batch.
"""
from __future__ import annotations

import hashlib
import json
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import regex
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import RuleError
from .normalize import squash_whitespace
from .numerals import CHINESE_NUMERAL

PATTERN_TIMEOUT = 2.0  # seconds for one regex call on one document

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


class Signal(_Strict):
    """A detection signal: each match adds ``weight`` to the type's score, up to ``cap`` matches."""

    id: str
    pattern: str
    weight: float
    cap: int = 1
    why: str = Field(description="Plain-language reason shown to users when the signal fires.")
    window: int | None = Field(None, description="Search only the first N characters (a title, a header).")

    @cached_property
    def regex(self) -> regex.Pattern:
        return compile_pattern(self.pattern, regex.MULTILINE)


class Detect(_Strict):
    min_score: float = 3.0
    signals: list[Signal] = Field(default_factory=list)


class Level(_Strict):
    """One level of the outline, matched at the start of a line's content.

    The pattern is tried at the first non-blank character of a line, after any
    Markdown heading marks; ``$`` is the end of the line. Named groups:
    ``label`` (the label written into the path), ``num`` (a number used for
    order checks).
    """

    id: str = Field(description="Stable id, e.g. statute.article; chunks name it in `rule`.")
    name: str = Field(description="What the level is called (编, 章, 条, 款, 项 …).")
    kind: str = Field(description="The chunk kind for units of this level (article, clause, section …).")
    pattern: str
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
    lead: str | None = Field(
        None,
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
    anchor: Literal["line", "sentence"] = Field(
        "line",
        description="line: the pattern opens a line; sentence: it may also open a sentence inside a line "
        "(after 。！？), for documents whose sections begin mid-paragraph (a judgment's 本院认为, 判决如下).",
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

    @field_validator("pattern", "lead")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            compile_pattern(value)
        except regex.error as exc:
            raise ValueError(f"pattern does not compile: {exc}") from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Level:
        if self.label == "fixed" and not self.fixed_label:
            raise ValueError("label: fixed needs fixed_label")
        if self.scope == "unit" and self.role != "inner":
            raise ValueError("scope: unit is for inner levels")
        return self

    @cached_property
    def regex(self) -> regex.Pattern:
        return compile_pattern(self.pattern)


class ExpectedChunk(_Strict):
    starts: str = Field(description="The chunk's text begins with this (after whitespace).")
    path: list[str] | None = None
    rule: str | None = None
    kind: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict, description="Keys the chunk's metadata must hold.")


class Example(_Strict):
    """A worked example: the text, and the chunks it must give (in order)."""

    name: str
    rule: str = Field(description="The level id the example is about.")
    text: str
    chunks: list[ExpectedChunk] = Field(default_factory=list)
    not_starts: list[str] = Field(default_factory=list, description="No chunk may begin with these.")
    max_chars: int | None = None


class RuleFile(_Strict):
    id: str
    version: str
    doc_type: str
    description: str
    hooks: str | None = Field(None, description="Python module with hooks where a pattern cannot say it.")
    terms: dict[str, dict[str, list[str]]] = Field(
        default_factory=dict,
        description="Vocabularies: group -> canonical term -> aliases. A pattern writes {terms.GROUP} for "
        "any term or alias of the group (longest first), so users extend a vocabulary without touching patterns.",
    )
    detect: Detect = Field(default_factory=Detect)
    levels: list[Level] = Field(default_factory=list)
    max_chars: int = 1000
    examples: list[Example] = Field(default_factory=list)
    path: str | None = Field(None, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _expand_terms(cls, data: Any) -> Any:
        """Write each {terms.GROUP} placeholder out as the group's alternation before patterns are compiled."""
        if not isinstance(data, dict) or not isinstance(data.get("terms"), dict):
            return data
        alternations = {f"{{terms.{group}}}": _alternation(vocab) for group, vocab in data["terms"].items()}

        def fill(node: Any) -> Any:
            if not isinstance(node, dict) or not isinstance(node.get("pattern"), str):
                return node
            pattern = node["pattern"]
            for key, alt in alternations.items():
                pattern = pattern.replace(key, alt)
            return {**node, "pattern": pattern}

        data = dict(data)
        if isinstance(data.get("levels"), list):
            data["levels"] = [fill(lv) for lv in data["levels"]]
        detect = data.get("detect")
        if isinstance(detect, dict) and isinstance(detect.get("signals"), list):
            data["detect"] = {**detect, "signals": [fill(sig) for sig in detect["signals"]]}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> RuleFile:
        unknown = sorted({m for lv in self.levels for m in _TERM_REF.findall(lv.pattern)}
                         | {m for sig in self.detect.signals for m in _TERM_REF.findall(sig.pattern)})
        if unknown:
            raise ValueError(f"patterns name unknown term groups {unknown} (known: {sorted(self.terms)})")
        ids = [lv.id for lv in self.levels]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate level ids: {sorted(dup)}")
        for lv in self.levels:
            for key in ("only_without", "restart_at", "after", "before", "follows", "yields_to"):
                missing = [i for i in getattr(lv, key) if i not in ids]
                if missing:
                    raise ValueError(f"level {lv.id}: {key} names unknown levels {missing}")
        known = set(ids) | {s.id for s in self.detect.signals}
        for ex in self.examples:
            if ex.rule not in known:
                raise ValueError(f"example {ex.name!r} is about unknown rule {ex.rule!r}")
        return self

    def term(self, group: str, text: str) -> str | None:
        """The canonical term of ``group`` that ``text`` (a term or an alias, spaces ignored) names."""
        wanted = squash_whitespace(text)
        for canonical, aliases in self.terms.get(group, {}).items():
            if wanted in (squash_whitespace(canonical), *map(squash_whitespace, aliases)):
                return canonical
        return None

    def ranks(self) -> dict[str, int]:
        return {lv.id: (lv.rank if lv.rank is not None else i) for i, lv in enumerate(self.levels)}

    def fingerprint(self) -> str:
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


_TERM_REF = regex.compile(r"\{terms\.(\w+)\}")


def _alternation(vocab: dict[str, list[str]]) -> str:
    """A non-capturing group of every term and alias, longest first so 诊断依据 wins over 诊断.

    Spaces may stand between a term's characters: forms print headings letter-spaced
    (主  诉, 体 格 检 查) to line them up.
    """
    words = {w for canonical, aliases in vocab.items() for w in (canonical, *(aliases or []))}
    spaced = ("[ \t\u3000]*".join(regex.escape(ch) for ch in w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return "(?:" + "|".join(spaced) + ")"


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
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        msg = f"unknown key {loc[-1]!r}"
    return f"{'rule ' + rule_id + ': ' if rule_id else ''}{msg} (at {where})"


# libyaml's loader where PyYAML was built with it: ~10x faster, and every batch worker loads the rules.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_rule_file(path: str | Path) -> RuleFile:
    path = Path(path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(str(path), f"cannot read rule file: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise RuleError(str(path), f"invalid YAML{where}: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise RuleError(str(path), "a rule file must be a mapping")
    try:
        rules = RuleFile.model_validate({**data, "path": str(path)})
    except ValidationError as exc:
        raise RuleError(str(path), _format_error(exc, data)) from None
    return rules


def builtin_rules_dir() -> Path:
    """The rule files shipped inside the package (``rules/`` in a checkout)."""
    try:
        return Path(str(resources.files("domainchunk.rules")))
    except ModuleNotFoundError:  # running from a checkout without install
        return Path(__file__).resolve().parent.parent / "rules"


def _rule_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.yaml") if p.is_file())


@lru_cache(maxsize=16)
def _load_folder(folder: str, mtimes: tuple) -> tuple[RuleFile, ...]:
    return tuple(load_rule_file(p) for p in _rule_files(Path(folder)))


def _folder_rules(folder: Path) -> tuple[RuleFile, ...]:
    if not folder.is_dir():
        raise RuleError(str(folder), "rules folder not found")
    files = _rule_files(folder)
    mtimes = tuple((p.name, p.stat().st_mtime_ns) for p in files)
    return _load_folder(str(folder), mtimes)


def load_rules(rules_dir: str | Path | None = None) -> dict[str, RuleFile]:
    """Built-in rule files by doc_type, with a user folder's files added or overriding by doc_type."""
    registry = {r.doc_type: r for r in _folder_rules(builtin_rules_dir())}
    if rules_dir is not None:
        for r in _folder_rules(Path(rules_dir)):
            registry[r.doc_type] = r
    return registry


def json_schema() -> dict:
    return RuleFile.model_json_schema()
