"""../shared/corpus-large (395 real statutes, gold derived from their Markdown) against its floors.

Issue 9's target is recall and path accuracy at least 0.999, type accuracy 1.0;
the floors in metamorphic_floors.yaml record today's scores below that.
"""
from __future__ import annotations

import pytest

import generalisation as g


@pytest.fixture(scope="module")
def large_scores():
    if not g.corpus_documents("large"):
        pytest.skip("../shared/corpus-large is not present")
    return g.measure("large", ("orig",))["orig"]


def test_corpus_large_keeps_its_floors(large_scores):
    misses = g.floor_misses("large", "orig", large_scores)
    assert not misses, "\n".join(misses)


def test_corpus_large_is_all_statutes_and_no_chunk_is_oversize(large_scores):
    assert set(large_scores) == {"statute"}
    assert large_scores["statute"]["docs"] == len(g.corpus_documents("large"))
    assert large_scores["statute"]["oversize"] == 0
