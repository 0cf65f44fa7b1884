"""``docs/rules/<type>.md``: one page per built-in rule file, generated from the file and its cases.

Reviewers read every level, variant, reason and example there without reading YAML; a test
fails when a checked-in page is stale (``domainchunk rules docs docs/rules`` rewrites them).
"""
from __future__ import annotations

import json
from pathlib import Path

from .rulefile import Case, Examples, Level, RuleFile, Signal, Vocabulary, builtin_rules_dir, load_rules

# Level keys shown apart (heading, text, variants); the others are listed when not at their default.
_SHOWN = {"id", "name", "kind", "role", "rationale", "variants", "legacy_pattern", "lead_pattern", "under"}


def _code(text: str) -> str:
    """Inline code that survives backticks and shows line breaks as \\n."""
    text = text.replace("\n", "\\n")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _block(text: str, lang: str = "") -> list[str]:
    fence = "````" if "```" in text else "```"
    return [f"{fence}{lang}", text.rstrip("\n"), fence]


def _examples(examples: Examples | None, yes: str, no: str) -> list[str]:
    if examples is None:
        return ["*No examples yet (listed in tests/unconverted/).*"]
    return [f"- {yes}: " + ", ".join(map(_code, examples.match)),
            f"- {no}: " + ", ".join(map(_code, examples.no_match))]


def _signal(sig: Signal) -> list[str]:
    extent = f", window {sig.window}" if sig.window else ""
    out = [f"### `{sig.id}`", "", f"Weight {sig.weight:g} per match, up to {sig.cap}{extent}. {sig.why.strip()}", ""]
    out += [*_block(sig.pattern, "regex"), ""]
    return out + [*_examples(sig.examples, "finds", "does not find"), ""]


def _level(level: Level, cases: list[Case]) -> list[str]:
    rank = f", rank {level.rank}" if level.rank is not None else ""
    out = [f"### `{level.id}`: {level.name}", "", f"*{level.role}*, chunk kind `{level.kind}`{rank}. "
           f"{' '.join(level.rationale.split())}", ""]
    defaults = {name: field.get_default(call_default_factory=True) for name, field in Level.model_fields.items()}
    keys = [f"`{name}: {json.dumps(getattr(level, name), ensure_ascii=False)}`"
            for name in Level.model_fields if name not in _SHOWN and getattr(level, name) != defaults[name]]
    if keys:
        out += ["Engine keys: " + ", ".join(keys) + ".", ""]
    if level.lead_pattern:
        out += ["Lines right above it that belong to its section (`lead`):", "", *_block(level.lead_pattern, "regex"), ""]
    if level.under:
        run = " Later boundaries may go on with a run opened there (`run`)." if level.under.run else ""
        out += [f"Only right under a line of the kind `{level.under.name}` (`under`): {' '.join(level.under.why.split())}.{run}",
                "", *_block(level.under.pattern, "regex"), "",
                *_examples(level.under.examples, "opens under", "does not open under"), ""]
    if not level.variants:
        out += ["*One pattern, not yet written as variants (listed in tests/unconverted/):*", "",
                *_block(level.legacy_pattern or "", "regex"), ""]
    for v in level.variants:
        out += [f"#### Variant `{v.name}`", "", " ".join(v.why.split()), "", *_block(v.pattern, "regex"), "",
                *_examples(v.examples, "matches", "does not match"), ""]
    about = [c.name for c in cases if c.rule == level.id]
    if about:
        out += ["Cases: " + ", ".join(f"[{name}](#case-{name})" for name in about) + ".", ""]
    return out


def _vocabulary(kind: str, vocab: Vocabulary) -> list[str]:
    out: list[str] = []
    for group, terms in vocab.items():
        out += [f"### `{{{kind}.{group}}}`", ""]
        out += [f"- {term}" + (": " + ", ".join(aliases) if aliases else "") for term, aliases in terms.items()]
        out.append("")
    return out


def _case(case: Case) -> list[str]:
    facts = [f"about `{case.rule}`", "readers " + ", ".join(case.readers)]
    if case.doc_type:
        facts.append(f"detected as `{case.doc_type}`")
    if case.max_chars:
        facts.append(f"max_chars {case.max_chars}")
    out = [f'<a id="case-{case.name}"></a>', f"### {case.name}", "", "; ".join(facts) + ".", "", *_block(case.text, "text"), ""]
    for exp in case.chunks:
        want = [f"path {_code(json.dumps(exp.path, ensure_ascii=False))}" if exp.path is not None else "",
                f"rule `{exp.rule}`" if exp.rule else "", f"kind `{exp.kind}`" if exp.kind else "",
                f"metadata {_code(json.dumps(exp.metadata, ensure_ascii=False))}" if exp.metadata else ""]
        out.append(f"- a chunk starts with {_code(exp.starts)}" + "".join(f"; {w}" for w in want if w))
    out += [f"- no chunk starts with {_code(bad)}" for bad in case.not_starts]
    return out + [""]


def render(rules: RuleFile) -> str:
    """The Markdown page of one rule file."""
    name = Path(rules.path).name if rules.path else f"{rules.id}.yaml"
    out = [f"# `{rules.doc_type}` rules", "",
           f"<!-- Generated from rules/{name} and rules/cases/{name} by `domainchunk rules docs docs/rules`; "
           "do not edit. -->", "", " ".join(rules.description.split()), "",
           f"Rule ids `{rules.id}.*`, version {rules.version}, chunks of at most {rules.max_chars} characters"
           + (f", hooks `{rules.hooks}`" if rules.hooks else "") + ".", ""]
    if rules.detect.signals:
        out += ["## Detection", "", f"The type is chosen when its signals score at least {rules.detect.min_score:g} "
                "and more than any other type's.", ""]
        for sig in rules.detect.signals:
            out += _signal(sig)
    out += ["## Levels", "", "Outermost first. A level matches a line where any of its variants does, tried in order.", ""]
    cases = rules.cases
    for level in rules.levels:
        out += _level(level, cases)
    if rules.terms or rules.fields:
        out += ["## Vocabulary", ""] + _vocabulary("terms", rules.terms) + _vocabulary("fields", rules.fields)
    if cases:
        out += ["## Cases", ""]
        for case in cases:
            out += _case(case)
    return "\n".join(out).rstrip("\n") + "\n"


def builtin_pages() -> dict[str, str]:
    """File name -> page, for every built-in rule file."""
    folder = builtin_rules_dir()
    return {f"{r.doc_type}.md": render(r) for r in load_rules().values() if Path(r.path or "").parent == folder}


def write_docs(outdir: Path) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, page in sorted(builtin_pages().items()):
        path = outdir / name
        path.write_text(page, encoding="utf-8")
        written.append(path)
    return written
