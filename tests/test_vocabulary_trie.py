"""A vocabulary written as a trie matches exactly as the flat longest-first list of its words.

The rule files' patterns hold vocabularies (``{terms.X}``) as ``rulefile._alternation`` writes
them. It factors common prefixes (a trie) for speed; what a pattern matches must not move, so
these tests put both forms in the same surroundings (something after the vocabulary that makes
the engine backtrack into it, anchors, a repeat) and compare every match, span and group, on
both engines, case-blind too.
"""
from __future__ import annotations

import re

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from domainchunk.rulefile import _alternation, flat_alternation, load_rules
from domainchunk.stdre import compile_safe

# Few characters, so that words share prefixes and texts hold them; both cases of a letter, and
# the spacing characters that may stand between a word's characters.
_WORD = st.text(alphabet="诊断依据ab.Aé", min_size=0, max_size=5)
_VOCAB = st.sets(_WORD, min_size=1, max_size=12)
_TEXT = st.text(alphabet="诊断依据abAé. \u3000\tc\n", max_size=30)
# {V} is the vocabulary. What follows it decides whether a shorter word must be tried.
_SURROUNDINGS = [
    "{V}",
    "{V}$",
    "(?P<w>{V})(?P<rest>[ab]?)c",
    "^[ \t]*(?P<w>{V})[ \u3000]*(?:据|$)",
    "(?:{V})(?:{V})a",
    "(?:(?:{V})\\.)+",
    "(?P<w>{V})(?!a)",
]


def _both(template: str, words: set[str]) -> tuple[str, str]:
    trie, flat = _alternation({w: [] for w in words}), flat_alternation(words)
    return template.replace("{V}", trie), template.replace("{V}", flat)


def _matches(rx, text: str) -> list:
    out = []
    for pos in range(len(text) + 1):
        m = rx.match(text, pos)
        out.append(None if m is None else (m.span(), m.groups(), [m.span(g) for g in range(1, (rx.groups or 0) + 1)]))
    return out


@settings(max_examples=300, deadline=None)
@given(_VOCAB, _TEXT, st.sampled_from(_SURROUNDINGS), st.booleans())
def test_the_trie_matches_as_the_longest_first_list(words: set[str], text: str, template: str, blind: bool) -> None:
    trie, flat = _both(template, words)
    flags = regex.MULTILINE | regex.VERSION0 | (regex.IGNORECASE if blind else 0)
    assert _matches(regex.compile(trie, flags), text) == _matches(regex.compile(flat, flags), text)
    std = re.MULTILINE | (re.IGNORECASE if blind else 0)
    assert _matches(re.compile(trie, std), text) == _matches(re.compile(flat, std), text)
    assert [m.span() for m in regex.finditer(trie, text, flags)] == [m.span() for m in regex.finditer(flat, text, flags)]


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet="ab \u3000", min_size=1, max_size=4), min_size=1, max_size=6), _TEXT)
def test_words_holding_spaces_stay_a_flat_list(words: set[str], text: str) -> None:
    # "a b" and "ab" both match "a b": the next character decides nothing, so no trie.
    if any(c in w for w in words for c in " \u3000"):
        assert _alternation({w: [] for w in words}) == flat_alternation(words)
    trie, flat = _both("(?P<w>{V})c?", words)
    assert _matches(regex.compile(trie, regex.VERSION0), text) == _matches(regex.compile(flat, regex.VERSION0), text)


def test_words_parting_at_a_case_stay_a_flat_list() -> None:
    # Case-blind, both N[ ]*o and N[ ]*O would match "no": they are not decided by one character.
    assert _alternation({"No.": ["NO"]}) == flat_alternation({"No.", "NO"})


def test_common_prefixes_are_written_once() -> None:
    pattern = _alternation({"诊断": ["诊断依据", "诊疗"]})
    assert pattern.count("诊") == 1 and pattern.count("断") == 1
    assert regex.fullmatch(pattern, "诊 断\u3000依据") and regex.fullmatch(pattern, "诊疗")
    assert not regex.fullmatch(pattern, "诊") and not regex.fullmatch(pattern, "诊断 ")


def test_the_rule_files_vocabularies_are_shorter_and_the_same() -> None:
    written = {"trie": 0, "flat": 0}
    for rules in load_rules().values():
        for group, vocab in rules.terms.items():
            words = {w for canonical, aliases in vocab.items() for w in (canonical, *(aliases or []))}
            trie, flat = _alternation(vocab), flat_alternation(words)
            written["trie"] += len(trie)
            written["flat"] += len(flat)
            for text in words:  # each word, alone and followed by text, matches the same span
                for probe in (text, text + "其他", text[:-1]):
                    a, b = regex.match(trie, probe), regex.match(flat, probe)
                    assert (a and a.span()) == (b and b.span()), (rules.id, group, probe)
    assert written["trie"] < 0.85 * written["flat"]  # a single short word is written longer, but few are


def test_a_vocabulary_inside_a_repeat_passes_the_static_check() -> None:
    # Words sharing a first character are one alternative of the trie: inside a repeat the flat
    # list's alternatives start alike, which the stdlib scan's check refuses.
    words = {"诊断", "诊疗", "主诉"}
    assert compile_safe(f"(?:(?:{_alternation({w: [] for w in words})})、)+") is not None
    assert compile_safe(f"(?:(?:{flat_alternation(words)})、)+") is None
