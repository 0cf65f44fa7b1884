"""The detector: a signal whose vocabulary a text lacks is not compiled, and the result is the same."""
from __future__ import annotations

import pytest

from domainchunk.detect import detect
from domainchunk.rulefile import SKIPS_BEFORE_COMPILING, _needed_refs, builtin_rules_dir, load_rule_file

STATUTE_TEXT = "中华人民共和国示例法\n\n第一条 为了规范示例活动，制定本法。\n第二条 本法自公布之日起施行。\n"
# a heading letter-spaced, as forms print them: the words are found with the spaces removed
RECORD_TEXT = "入院记录\n姓名：某某  床号：3\n主  诉：咳嗽三天。\n现病史：患者三天前受凉。\n"


def fresh_registry() -> dict:
    """The built-in rule files loaded anew: their signals not yet compiled by another test."""
    rules = (load_rule_file(p) for p in sorted(builtin_rules_dir().glob("*.yaml")))
    return {r.doc_type: r for r in rules}


def compiled(registry: dict) -> dict:
    for rules in registry.values():
        for sig in rules.detect.signals:
            sig.regex  # noqa: B018 - compiled: searched whatever the text
    return registry


@pytest.mark.parametrize(("pattern", "needed"), [
    ("(?:{terms.a})x", [{"{terms.a}"}]),
    ("{SP}*(?:{terms.a}){2,}{SP}*{terms.b}+", [{"{terms.a}"}, {"{terms.b}"}]),
    ("(?:{terms.a}|{fields.b})：", [{"{terms.a}", "{fields.b}"}]),
    # optional, counted from zero, one branch only, in a lookaround or a class: not needed
    ("x{terms.a}?", []),
    ("x{terms.a}*", []),
    ("(?:{terms.a}){0,2}y", []),
    ("(?:{terms.a}|x)", []),
    ("(?=.{terms.a})", []),
    ("(?<!{terms.a})x", []),
    ("[{terms.a}]", []),
    (r"\{terms.a}", []),
    ("(?:(?:{terms.a}[ ]*){0,2}{terms.b})", [{"{terms.b}"}]),
])
def test_needed_vocabularies(pattern, needed):
    assert [set(n) for n in _needed_refs(pattern)] == needed


@pytest.mark.parametrize("text", [STATUTE_TEXT, RECORD_TEXT])
def test_detection_is_the_same_with_signals_left_uncompiled(text):
    lazy, eager = fresh_registry(), compiled(fresh_registry())
    assert detect(text, lazy).model_dump() == detect(text, eager).model_dump()


def test_a_signal_is_compiled_only_when_the_text_holds_its_words():
    registry = fresh_registry()
    party = next(s for s in registry["contract"].detect.signals if s.id == "contract.party-lines")
    sections = next(s for s in registry["medical_record"].detect.signals if s.id == "medical.section-headings")
    assert party._needs and sections._needs
    detect(STATUTE_TEXT, registry)
    assert "regex" not in party.__dict__ and "regex" not in sections.__dict__
    result = detect(RECORD_TEXT, registry)
    assert "regex" in sections.__dict__
    assert any(r.signal == "medical.section-headings" for r in result.reasons)


def test_a_signal_checked_for_a_few_texts_in_vain_is_compiled():
    # the check costs about a search: a process that keeps checking pays for the compiling
    registry = fresh_registry()
    party = next(s for s in registry["contract"].detect.signals if s.id == "contract.party-lines")
    for _ in range(SKIPS_BEFORE_COMPILING):
        assert party.checked_first()
        detect(STATUTE_TEXT, registry)
    assert not party.checked_first()
    detect(STATUTE_TEXT, registry)
    assert "regex" in party.__dict__
