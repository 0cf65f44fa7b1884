"""The Python API: every user-caused failure a DomainChunkError, no guessing a path for text,
no mutation of what the caller passes, context within the limit, and its hygiene (typed, public
names listed, no process-wide choices made by a library call)."""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import domainchunk
from domainchunk import DomainChunkError, ReadError, UsageError
from domainchunk.readers.text import text_document

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "corpora" / "contract_示范借款合同.txt"
LAW = "示范法\n\n第一章 总则\n\n第一条 为了示范，制定本法。\n\n第二条 本法自2020年1月1日起施行。\n"


# ------------------------------------------------------------ a path is never text

@pytest.mark.parametrize("given", ["missing.pdf", "报告.DOCX", "notes.md", "data/laws", "./x"])
def test_a_missing_path_given_as_str_is_a_read_error(tmp_path: Path, monkeypatch, given: str):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReadError, match="file not found") as err:
        domainchunk.chunk(given)
    assert err.value.source == given and "chunk_text" in err.value.cause


def test_chunk_text_takes_any_str_as_text(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = domainchunk.chunk_text("missing.pdf")
    assert [c.text for c in result.chunks] == ["missing.pdf"] and result.document.source == "<text>"
    law = domainchunk.chunk_text(LAW, name="law.txt")
    assert law.detection.doc_type == "statute" and {c.source for c in law.chunks} == {"law.txt"}
    # text without a path's marks is still text for chunk()
    assert domainchunk.chunk("第一条 示范。").chunks[0].text == "第一条 示范。"


def test_an_existing_path_given_as_str_is_read(tmp_path: Path, monkeypatch):
    (tmp_path / "law.txt").write_text(LAW, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert domainchunk.chunk("law.txt").document.source == "law.txt"


# ------------------------------------------------------------ user errors are ours

def _failing_size(text: str) -> int:
    raise RuntimeError("tokenizer not loaded")


@pytest.mark.parametrize("kwargs,cause", [
    ({"max_chars": "100"}, "max_chars must be an int, not str '100'"),
    ({"max_chars": 12.5}, "max_chars must be an int, not float"),
    ({"max_chars": True}, "max_chars must be an int, not bool"),
    ({"max_chars": 0}, "max_chars must be at least 1"),
    ({"size": _failing_size}, "the size function failed: RuntimeError: tokenizer not loaded"),
    ({"size": lambda text: "12"}, "the size function must return an int >= 0, not '12'"),
    ({"size": 12}, "size must be a function, not int"),
    ({"doc_type": 3}, "doc_type must be a str, not int"),
])
def test_every_user_error_is_a_domainchunk_error_naming_source_and_cause(kwargs: dict, cause: str):
    with pytest.raises(DomainChunkError) as err:
        domainchunk.chunk_text(LAW * 40, name="law.txt", **kwargs)
    assert isinstance(err.value, UsageError)
    assert err.value.source == "law.txt" and cause in err.value.cause


def test_a_wrong_source_type_is_a_usage_error():
    with pytest.raises(UsageError, match="cannot chunk a int"):
        domainchunk.chunk(42)  # type: ignore[arg-type]


# ------------------------------------------------------------ no mutation

def test_chunk_document_does_not_mutate_the_document_it_is_given():
    doc = text_document(CONTRACT.read_text(encoding="utf-8"), "contract.txt")
    before = doc.model_dump()
    as_contract = domainchunk.chunk_document(doc, "contract")
    assert as_contract.document.metadata.get("parties")  # the contract chunker found its parties
    assert doc.model_dump() == before
    as_judgment = domainchunk.chunk_document(doc, "judgment")
    fresh = domainchunk.chunk_document(doc.model_copy(deep=True), "judgment")
    assert as_judgment.records() == fresh.records()  # nothing of the contract carried over
    assert as_judgment.document.doc_type == "judgment" and doc.doc_type is None
    assert doc.model_dump() == before


# ------------------------------------------------------------ context within the limit

def test_context_fit_keeps_context_text_within_max_chars():
    text = CONTRACT.read_text(encoding="utf-8")
    loose = domainchunk.chunk_text(text, max_chars=120)
    assert max(len(c.context_text) for c in loose.chunks) > 120  # the breadcrumb pushes it over
    fit = domainchunk.chunk_text(text, max_chars=120, context_fit=True)
    assert max(len(c.context_text) for c in fit.chunks) <= 120
    # the same text in smaller pieces (the whitespace at a cut belongs to neither piece)
    assert "".join("".join(c.text.split()) for c in fit.chunks) == "".join(
        "".join(c.text.split()) for c in loose.chunks)
    with_size = domainchunk.chunk_text(text, max_chars=60, context_fit=True, size=lambda t: len(t.encode()) // 3)
    assert max(len(c.context_text.encode()) // 3 for c in with_size.chunks) <= 60


def test_context_fit_says_when_the_breadcrumbs_leave_no_room():
    deep = "\n\n".join(f"{'#' * n} {'很长的标题' * 6}{n}" for n in range(1, 6)) + "\n\n正文。" * 3
    with pytest.raises(UsageError, match="breadcrumbs leave no room"):
        domainchunk.chunk_text(deep, max_chars=40, context_fit=True)


# ------------------------------------------------------------ hygiene

def test_public_names_are_complete_and_importable():
    assert len(domainchunk.__all__) == len(set(domainchunk.__all__))
    for name in domainchunk.__all__:
        assert hasattr(domainchunk, name), name
    public = {n for n in vars(domainchunk) if not n.startswith("_") and not isinstance(getattr(domainchunk, n), type(sys))}
    assert public <= set(domainchunk.__all__), public - set(domainchunk.__all__)
    for name in domainchunk.PUBLIC_MODULES:
        module = importlib.import_module(f"domainchunk.{name}")
        assert module.__all__ and all(hasattr(module, n) for n in module.__all__), name


def test_the_package_is_typed():
    assert (Path(domainchunk.__file__).parent / "py.typed").is_file()


def test_library_calls_make_no_process_wide_choice(tmp_path: Path):
    """A library call neither freezes the caller's heap nor picks a start method for it."""
    code = ("import gc, multiprocessing as mp\n"
            "from domainchunk.batch import run_ordered\n"
            "assert list(run_ordered(abs, [-1, -2, 3], jobs=2)) == [1, 2, 3]\n"
            "assert gc.get_freeze_count() == 0, gc.get_freeze_count()\n"
            "from multiprocessing import forkserver\n"
            "assert forkserver._forkserver._preload_modules == ['__main__'], forkserver._forkserver._preload_modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)


def test_the_collector_is_off_during_a_call_and_as_it_was_after_it():
    import gc

    law = "第一章 总则\n第一条 为了示范。\n第二条 本办法适用于示范。\n"
    seen: list[bool] = []

    def size(text: str) -> int:
        seen.append(gc.isenabled())
        return len(text)

    assert gc.isenabled()
    domainchunk.chunk_text(law, doc_type="statute", size=size)
    assert seen and not any(seen) and gc.isenabled()

    def failing(text: str) -> int:
        raise RuntimeError("tokenizer down")

    with pytest.raises(UsageError):
        domainchunk.chunk_text(law, doc_type="statute", size=failing)
    assert gc.isenabled()  # restored on an error too
    gc.disable()  # a caller who turned the collector off keeps it off
    try:
        domainchunk.chunk_text(law, doc_type="statute")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_vocabulary_patterns_are_the_same_in_every_process():
    # Words of one length must not come out in a set's order, which follows the hash seed: the
    # pattern would differ from one process to the next, and miss the pattern cache in each.
    probe = (
        "import domainchunk\n"
        "from domainchunk.chunkers import contract, judgment\n"
        "from domainchunk.rulefile import load_rules\n"
        "print(judgment._alt(judgment._words(load_rules()['judgment'], 'party')))\n"
        "print(contract._party_pattern(tuple({'甲方', '乙方', '丙方', '出租人', '承租人', '委托人'})).pattern)\n"
    )
    outs = {
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outs) == 1 and len(next(iter(outs)).splitlines()) == 2
