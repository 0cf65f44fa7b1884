"""Round ten's Word lab reports (corpora/make_office_lab11.py): the committed files are what the
generator writes, and a side-by-side table, which the readers give row by row, stays out of corpora/.

The chunks of every committed file are scored against its gold by test_corpora.py; this file checks
that the files and their gold cannot drift from the data they were generated from."""
from __future__ import annotations

import importlib.util
import json

import pytest

from conftest import ROOT

GENERATOR = ROOT / "corpora" / "make_office_lab11.py"


def _generator():
    spec = importlib.util.spec_from_file_location("make_office_lab11", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("form", ["merged", "big", "caption"])
def test_committed_word_file_and_gold_are_the_generators(form):
    gen = _generator()
    data, units = gen.build(form)
    docx = gen.OUT / f"{gen.NAMES[form]}.docx"
    assert docx.read_bytes() == data, f"{docx.name} differs from what {GENERATOR.name} writes"
    gold = json.loads(docx.with_name(docx.name + ".gold.json").read_text(encoding="utf-8"))
    assert gold == gen.gold(units)
    # the LibreOffice print shares the gold
    pdf_gold = docx.with_name(f"{gen.NAMES[form]}_LibreOffice.pdf.gold.json")
    assert json.loads(pdf_gold.read_text(encoding="utf-8")) == gold


def test_a_rebuild_writes_the_same_bytes():
    gen = _generator()
    assert gen.build("merged")[0] == gen.build("merged")[0]


def test_side_by_side_is_written_only_where_asked():
    gen = _generator()
    assert not list(gen.OUT.glob(f"{gen.NAMES['side']}*"))
    data, units = gen.build("side")
    # the gold reads the left panel, then the right, as the author wrote them
    assert [name for name, _ in units] == ["血脂四项", "肾功能", "肝功能", "电解质"]
    assert data[:2] == b"PK"
