"""The gold-unit scorer, in the suite: the metric definitions of ../shared/tools/score.py.

The tests of corpora/ must run in a clean clone, so they cannot lean on the
shared tool; this module scores chunks in-process (``ChunkedDocument.records()``
or JSONL records) with the same semantics, and ``test_scoring.py`` checks that
it agrees with the shared tool wherever that is present.

A gold file (see ../shared/corpus/GOLD.md) lists the structural units that must
each start a chunk: ``{"doc_type", "units": [{"path", "anchor", "norm_len"}]}``.

Per document type:

* ``type_acc``: share of documents whose predicted type (the most common chunk
  ``doc_type``) is the gold one;
* ``recall``: share of gold units that start a chunk, walking units and chunks in
  order; a chunk starts a unit when its text begins with the anchor, or carries up
  to ``HEADING_ROOM`` characters of heading text (no sentence punctuation) first;
* ``spurious``: share of chunks that start no unit and sit inside a unit short
  enough (``norm_len`` at most 0.9 × max_chars) that nobody needed the split;
  chunks before the first matched unit are not judged;
* ``path_acc``: share of matched units whose chunk path ends with the gold path,
  each gold element a prefix of the predicted one;
* ``oversize``: chunks longer than max_chars (raw text length);
* ``coverage``: predicted non-whitespace characters over gold ``norm_len`` total.

All matching applies NFKC, maps the CJK radical lookalikes PDFs emit, and ignores
whitespace.
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Mapping

HEADING_ROOM = 80
SENTENCE_END = re.compile(r"[。；！？!?;]")
_WHITESPACE = re.compile(r"\s+")
# Kangxi-supplement radicals that NFKC keeps but PDF text layers emit for the common character.
_RADICAL_LOOKALIKES = str.maketrans(
    "⺠⻔⻓⻩⻢⻋⻅⻜⻝⻛⻚⻘⻉⻬⻰⻳⻥⻦⺟⺩⻄⻆⻨⻮⻯",
    "民门长黄马车见飞食风页青贝齐龙龟鱼鸟母王西角麦韦韩",
)
# Counts summed per type; the metrics are ratios of these.
COUNTS = ("units", "found", "path_ok", "chunks", "spurious", "oversize", "pred_chars", "gold_chars", "type_ok")


def squash(text: str | None) -> str:
    """The form every comparison uses: NFKC, radical lookalikes mapped, no whitespace."""
    return _WHITESPACE.sub("", unicodedata.normalize("NFKC", text or "").translate(_RADICAL_LOOKALIKES))


def opens_with_unit(chunk: str, anchor: str) -> bool:
    """``chunk`` (squashed) begins with ``anchor``, at once or after unpunctuated heading text."""
    if chunk.startswith(anchor):
        return True
    at = chunk.find(anchor, 1, HEADING_ROOM + len(anchor))
    return at > 0 and SENTENCE_END.search(chunk[:at]) is None


def path_ends_with(predicted: list[str] | None, gold: list[str]) -> bool:
    """The innermost predicted path elements start with the gold ones, pairwise."""
    predicted = [squash(p) for p in predicted or []]
    gold = [squash(g) for g in gold]
    if len(predicted) < len(gold):
        return False
    inner = predicted[len(predicted) - len(gold):]
    return all(p.startswith(g) for p, g in zip(inner, gold))


@dataclass
class DocScore:
    doc: str
    gold_type: str
    pred_type: str | None
    units: int
    found: int
    path_ok: int
    chunks: int
    spurious: int
    oversize: int
    pred_chars: int
    gold_chars: int
    type_ok: int

    def as_dict(self) -> dict:
        return asdict(self)


def score_document(gold: Mapping, chunks: Iterable[Mapping], max_chars: int = 1000, doc: str = "") -> DocScore:
    """Score one document's chunk records (keys ``text``, ``path``, ``doc_type``) against its gold."""
    chunks = list(chunks)
    units = gold["units"]
    texts = [squash(c.get("text", "")) for c in chunks]
    unit_started_by: dict[int, int] = {}  # chunk index -> gold unit index
    found = path_ok = 0
    next_chunk = 0
    for u, unit in enumerate(units):
        anchor = squash(unit["anchor"])
        j = next(
            (j for j in range(next_chunk, len(texts)) if opens_with_unit(texts[j], anchor)),
            None,
        )
        if j is None:
            continue
        found += 1
        unit_started_by[j] = u
        path_ok += path_ends_with(chunks[j].get("path"), unit.get("path", []))
        next_chunk = j + 1

    spurious = 0
    inside = None
    for j in range(len(texts)):
        if j in unit_started_by:
            inside = unit_started_by[j]
        elif inside is not None and units[inside].get("norm_len", 0) <= max_chars * 0.9:
            spurious += 1

    types = Counter(c.get("doc_type") for c in chunks if c.get("doc_type"))
    pred_type = types.most_common(1)[0][0] if types else None
    return DocScore(
        doc=doc,
        gold_type=gold["doc_type"],
        pred_type=pred_type,
        units=len(units),
        found=found,
        path_ok=path_ok,
        chunks=len(chunks),
        spurious=spurious,
        oversize=sum(len(c.get("text", "")) > max_chars for c in chunks),
        pred_chars=sum(map(len, texts)),
        gold_chars=sum(unit.get("norm_len", 0) for unit in units),
        type_ok=int(pred_type == gold["doc_type"]),
    )


def _ratio(num: float, den: float, digits: int | None) -> float | None:
    if not den:
        return None
    value = num / den
    return round(value, digits) if digits is not None else value


def summarise(rows: Iterable[DocScore], digits: int | None = 3) -> dict[str, dict]:
    """Per gold document type: docs, missing (documents without chunks) and the six metrics.

    ``digits=None`` keeps the ratios unrounded (floors compare against those)."""
    totals: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        t = totals[row.gold_type]
        t["docs"] += 1
        t["missing"] += row.chunks == 0
        for key in COUNTS:
            t[key] += getattr(row, key)
    return {
        doc_type: {
            "docs": t["docs"],
            "missing": t["missing"],
            "type_acc": _ratio(t["type_ok"], t["docs"], digits),
            "recall": _ratio(t["found"], t["units"], digits),
            "spurious": _ratio(t["spurious"], t["chunks"], digits),
            "path_acc": _ratio(t["path_ok"], t["found"], digits),
            "oversize": t["oversize"],
            "coverage": _ratio(t["pred_chars"], t["gold_chars"], digits),
        }
        for doc_type, t in sorted(totals.items())
    }


def load_gold(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def document_of(gold_file: Path) -> str:
    """The document file name a gold file scores: ``NAME.ext.gold.json`` -> ``NAME.ext``."""
    return Path(gold_file).name[: -len(".gold.json")]


def records_by_document(jsonl: Path) -> dict[str, list[dict]]:
    """JSONL chunk records grouped by the file name of their ``source``, as the CLI writes them."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    with Path(jsonl).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                record = json.loads(line)
                source = record.get("source") or record.get("metadata", {}).get("source")
                grouped[Path(source).name].append(record)
    return grouped


def score_directory(gold_dir: Path, records: Mapping[str, list[dict]], max_chars: int = 1000,
                    only_present: bool = False) -> list[DocScore]:
    """One row per gold file in ``gold_dir``, its chunks looked up by document file name."""
    rows = []
    for gold_file in sorted(Path(gold_dir).glob("*.gold.json")):
        name = document_of(gold_file)
        chunks = records.get(name, [])
        if only_present and not chunks:
            continue
        rows.append(score_document(load_gold(gold_file), chunks, max_chars, doc=name))
    return rows
