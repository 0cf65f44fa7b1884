"""The batch conversion as a Ray Data job: files in, a chunks dataset and an errors dataset out.

    >>> import ray
    >>> from domainchunk.integrations.ray import chunk_files
    >>> result = chunk_files(["s3://bucket/laws/"], max_chars=1000, rules_dir="my_rules/")
    >>> result.chunks.write_parquet("out/chunks"); result.errors.write_json("out/errors")

A chunk row has the fields of a JSONL record (``index text start end path kind
doc_type pages rule source metadata``) in one explicit Arrow schema (``pages``
is ``list<int64>`` even when empty), ``metadata`` as JSON text since its keys
vary by document, so ``write_parquet(dir)`` reads back as one table. An error row has ``file stage kind message``, as in
``errors.jsonl``: a bad file is a row, never a failed job. The user's rule
files travel inside the job (as text), so workers need no shared folder.
"""
from __future__ import annotations

import hashlib
import json
import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence, cast

from ..batch import Options, arrow_schema, check_options, convert_bytes

__all__ = ["ChunkedDatasets", "chunk_dataset", "chunk_files", "error_schema"]


@dataclass
class ChunkedDatasets:
    chunks: Any  # ray.data.Dataset of chunk rows
    errors: Any  # ray.data.Dataset of error rows


def pack_rules(rules_dir: str | None) -> tuple[tuple[str, str], ...]:
    """The user's rule files as (name, text) pairs, to ship with the job."""
    if rules_dir is None:
        return ()
    return tuple((p.name, p.read_text(encoding="utf-8")) for p in sorted(Path(rules_dir).glob("*.yaml")))


@lru_cache(maxsize=8)
def unpack_rules(rules: tuple[tuple[str, str], ...]) -> str | None:
    """A local folder holding the shipped rule files (once per worker process and rule set)."""
    if not rules:
        return None
    digest = hashlib.sha256(repr(rules).encode()).hexdigest()[:12]
    folder = Path(tempfile.gettempdir()) / f"domainchunk-rules-{digest}"
    folder.mkdir(exist_ok=True)
    for name, text in rules:
        (folder / name).write_text(text, encoding="utf-8")
    return str(folder)


ERROR_FIELDS = ("file", "stage", "kind", "message")


def _schema():
    import pyarrow as pa

    return arrow_schema().append(pa.field("error", pa.string()))


def error_schema():
    import pyarrow as pa

    return pa.schema([(name, pa.string()) for name in ERROR_FIELDS])


def convert_batch(batch, options: Options, rules: tuple[tuple[str, str], ...]):
    """A Ray batch of files (``bytes``, ``path``) → chunk rows and error rows (``error`` set) in one table."""
    import pyarrow as pa

    options = replace(options, rules_dir=unpack_rules(rules))
    rows: list[dict[str, Any]] = []
    for data, path in zip(batch.column("bytes").to_pylist(), batch.column("path").to_pylist()):
        conv = convert_bytes(data, path, options)
        if conv.error is None:
            rows += [{**row, "error": None} for row in cast(list[dict[str, Any]], conv.payload)]
        else:
            rows.append({"source": path, "error": json.dumps(conv.error, ensure_ascii=False)})
    return pa.Table.from_pylist(rows, schema=_schema())


# Both datasets are split off in Arrow with one explicit schema. A row-wise filter would rebuild
# each block's schema from its rows, and a block whose chunks have no pages would say
# `pages: list<null>` where another says `list<int64>`: their Parquet files would not read as one.

def chunk_rows(table):
    """The chunk rows of a converted table, in the chunk schema (the JSONL fields)."""
    import pyarrow.compute as pc

    return table.filter(pc.is_null(table["error"])).drop_columns(["error"]).cast(arrow_schema())


def error_rows(table):
    """The error rows of a converted table: ``file stage kind message``, as in the errors file."""
    import pyarrow as pa
    import pyarrow.compute as pc

    records = [json.loads(e) for e in table.filter(pc.is_valid(table["error"]))["error"].to_pylist()]
    return pa.Table.from_pylist([{k: r[k] for k in ERROR_FIELDS} for r in records], schema=error_schema())


def chunk_dataset(files, *, doc_type: str = "auto", max_chars: int | None = None, rules_dir: str | None = None,
                  mask_phi: bool = False) -> ChunkedDatasets:
    """Chunk a dataset from ``ray.data.read_binary_files(..., include_paths=True)``.

    The result is materialized once, so the two datasets do not convert twice.
    Raises UsageError/RuleError on the driver for what no document can satisfy.
    """
    options = Options(doc_type=doc_type, max_chars=max_chars, rules_dir=rules_dir, mask_phi=mask_phi, fmt="parquet")
    check_options(options)
    rows = files.map_batches(convert_batch, batch_format="pyarrow", batch_size=4,
                             fn_kwargs={"options": replace(options, rules_dir=None), "rules": pack_rules(rules_dir)})
    rows = rows.materialize()
    chunks = rows.map_batches(chunk_rows, batch_format="pyarrow")
    errors = rows.map_batches(error_rows, batch_format="pyarrow")
    return ChunkedDatasets(chunks, errors)


def chunk_files(paths: str | Sequence[str], **options: Any) -> ChunkedDatasets:
    """Read files (paths, folders, globs or remote URIs Ray understands) and chunk them; see :func:`chunk_dataset`."""
    import ray.data

    return chunk_dataset(ray.data.read_binary_files(paths if isinstance(paths, str) else list(paths),
                                                    include_paths=True), **options)
