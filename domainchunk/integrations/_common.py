"""What the framework adapters share: one chunk as flat, framework-neutral metadata and back,
and the small-to-big step over a framework's packs and units."""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..errors import UsageError
from ..models import Chunk, ChunkedDocument
from ..packing import best_units, rank_packs

# Keys every adapter writes for a chunk (ids and links included); its own metadata comes under "metadata".
CHUNK_KEYS = ("source", "index", "start", "end", "path", "kind", "doc_type", "pages", "rule",
              "id", "parent_id", "prev_id", "next_id", "children", "size")


def chunk_fields(result: ChunkedDocument, c: Chunk, *, json_metadata: bool = False) -> dict[str, Any]:
    """Metadata for chunk ``c`` of ``result``: place, provenance and links to its relatives.

    ``json_metadata`` writes the chunk's type-specific metadata (nested lists and
    dicts: citations, lab items) as JSON text, for stores that take flat values only.
    """
    fields: dict[str, Any] = {key: getattr(c, key) for key in CHUNK_KEYS}
    fields["children"] = list(c.children)
    if result.document.title:
        fields["title"] = result.document.title
    fields["metadata"] = json.dumps(c.metadata, ensure_ascii=False, sort_keys=True) if json_metadata else dict(c.metadata)
    return fields


def as_chunk(text: str, fields: Mapping[str, Any], where: str) -> Chunk:
    """A framework document or node back as the chunk it was made from (its text and the fields
    :func:`chunk_fields` wrote), for :func:`small_to_big`; one not made by domainchunk is refused."""
    if not fields.get("id"):
        raise UsageError(where, "has no domainchunk id in its metadata: make packs and units with "
                         "domainchunk's loader, splitter or node parser")
    return Chunk(text=text, **{k: fields[k] for k in CHUNK_KEYS if fields.get(k) is not None})


def small_to_big(packs: Sequence[Chunk], pack_scores: Sequence[float], units: Sequence[Chunk],
                 unit_scores: Sequence[float], *, k: int, budget: int | None, ratio: float,
                 weight: float) -> list[tuple[Chunk, list[tuple[Chunk, float]]]]:
    """The ``k`` best packs by :func:`~domainchunk.packing.rank_packs`, each with the units
    :func:`~domainchunk.packing.best_units` hands back and their scores.

    ``packs`` are a ``pack=True`` chunking and ``units`` the one-unit chunking of the same
    documents (a pack's ``children`` are units' ids); the scores are the retriever's, one per
    chunk, higher better. A pack that is a single unit is its own member.
    """
    for what, chunks, scores in (("packs", packs, pack_scores), ("units", units, unit_scores)):
        if len(scores) != len(chunks):
            raise UsageError("score", f"gave {len(scores)} scores for {len(chunks)} {what}: one a document is needed")
    pack_score = {p.id: s for p, s in zip(packs, pack_scores)}
    unit_score = {u.id: s for u, s in zip(units, unit_scores)}
    by_id = {u.id: u for u in units if u.id}

    def score_of(c: Chunk) -> float:
        return unit_score.get(c.id, 0.0)

    ranked = rank_packs(packs, lambda p: pack_score[p.id], by_id, score_of, weight)
    return [(p, [(m, score_of(m)) for m in best_units(p, by_id, score_of, budget=budget, ratio=ratio)])
            for p in ranked[:k]]
