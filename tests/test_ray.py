"""The Ray Data job gives the CLI's records, ships user rule files, and turns bad files into error rows.

Runs on a local Ray instance started here. CI installs the ``ray`` extra, so
there the test must run: a missing Ray fails it instead of skipping.
"""
from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from domainchunk.batch import to_row
from domainchunk.cli import main

if importlib.util.find_spec("ray") is None:
    if os.environ.get("CI"):
        pytest.fail("ray is not installed: CI must install domainchunk[ray]", pytrace=False)
    pytest.skip("ray is not installed (pip install 'domainchunk[ray]')", allow_module_level=True)

MEMO_RULES = """\
id: memo
version: "1"
doc_type: memo
description: An invented type for this test, cut at 备忘 items.
detect:
  min_score: 2
  signals:
    - id: memo.lines
      pattern: '^备忘{NUM}+'
      weight: 1
      cap: 5
      why: lines open with 备忘N
levels:
  - id: memo.item
    name: 项
    kind: item
    role: unit
    pattern: '备忘{NUM}+'
    rationale: each memo item stands alone
"""


@pytest.fixture(scope="module")
def ray_local():
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    yield ray
    ray.shutdown()


def test_ray_job_matches_the_cli(ray_local, tmp_path: Path, capsys):
    from domainchunk.integrations.ray import chunk_files

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a_law.txt").write_text("示范法\n\n第一章 总则\n\n第一条 为了示范，制定本法。\n\n第二条 本法自2020年1月1日起施行。\n",
                                    encoding="utf-8")
    (docs / "b_junk.txt").write_bytes(bytes(range(256)) * 8)
    (docs / "c_memo.txt").write_text("备忘1 周一开会。\n备忘2 周二交稿。\n", encoding="utf-8")
    (docs / "d_empty.txt").write_bytes(b"")  # no chunks and no error: as the CLI, an empty output
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "memo.yaml").write_text(MEMO_RULES, encoding="utf-8")
    files = sorted(str(p) for p in docs.iterdir())

    result = chunk_files(files, rules_dir=str(rules), max_chars=500)
    rows = sorted(result.chunks.take_all(), key=lambda r: (r["source"], r["index"]))
    errors = result.errors.take_all()

    assert main(["chunk", *files, "-o", str(tmp_path / "cli.jsonl"), "--rules", str(rules), "--max-chars", "500",
                 "-q"]) == 1
    capsys.readouterr()
    expected = [to_row(json.loads(line)) for line in (tmp_path / "cli.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [{**r, "path": list(r["path"]), "pages": list(r["pages"])} for r in rows] == expected
    assert {r["doc_type"] for r in rows} == {"statute", "memo"}  # the shipped rule file was used
    assert [(e["file"], e["stage"], e["kind"]) for e in errors] == [(files[1], "read", "ReadError")]


def test_ray_parquet_output_reads_back_as_one_table(ray_local, tmp_path: Path):
    """Blocks with and without pages write one schema, so pandas.read_parquet(dir) (pyarrow's dataset) reads them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from domainchunk.integrations.ray import chunk_files

    root = Path(__file__).resolve().parents[1]
    files = [str(root / "corpora" / "office" / "contract_示例软件开发合同.docx"),  # chunks with pages
             str(root / "corpora" / "contract_示范借款合同.txt"), str(root / "corpora" / "statute_示范社区管理条例.md")]
    result = chunk_files(files, max_chars=800)
    result.chunks.repartition(3).write_parquet(str(tmp_path / "chunks"))
    table = pq.read_table(tmp_path / "chunks")
    assert table.schema.field("pages").type == pa.list_(pa.int64())
    assert table.schema.field("metadata").type == pa.string()
    pages = table.column("pages").to_pylist()
    assert any(pages) and not all(pages)  # both kinds of rows were there to disagree
    assert {json.loads(m).__class__ for m in table.column("metadata").to_pylist()} == {dict}
    assert result.errors.take_all() == []


def test_ray_job_measures_with_the_clis_tokenizer(ray_local, tmp_path: Path, capsys):
    """``tokenizer=`` reaches the workers: sizes and packs are the CLI's ``--tokenizer`` ones, not characters."""
    from domainchunk.integrations.ray import chunk_files
    from domainchunk.packing import size_function

    root = Path(__file__).resolve().parents[1]
    files = [str(root / "corpora" / "statute_示范社区管理条例.md")]
    options = ["--max-chars", "60", "--tokenizer", "jieba", "--pack", "-q"]
    assert main(["chunk", *files, "-o", str(tmp_path / "cli.jsonl"), *options]) == 0
    capsys.readouterr()
    expected = [to_row(json.loads(line)) for line in (tmp_path / "cli.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = sorted(chunk_files(files, max_chars=60, tokenizer="jieba", pack=True).chunks.take_all(),
                  key=lambda r: r["index"])
    assert [{**r, "path": list(r["path"]), "pages": list(r["pages"])} for r in rows] == expected
    words = size_function("jieba")
    assert all(r["size"] == words(r["text"]) for r in rows)
    assert any(r["size"] < len(r["text"]) for r in rows)  # words, not characters
    assert any(r["rule"] == "pack" and len(r["text"]) > 60 for r in rows)  # packed up to 60 words
