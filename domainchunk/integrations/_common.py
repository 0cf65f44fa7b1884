"""What the framework adapters share: one chunk as flat, framework-neutral metadata."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..models import Chunk, ChunkedDocument

# Keys every adapter writes for a chunk; a chunk's own metadata comes under "metadata".
CHUNK_KEYS = ("source", "index", "start", "end", "path", "kind", "doc_type", "pages", "rule")


def chunk_id(chunk: Chunk) -> str:
    """The chunk's stable id: its own when the chunker set one, else one from its source and offsets."""
    own = getattr(chunk, "id", None)
    if own:
        return str(own)
    key = f"{chunk.source}\x00{chunk.start}\x00{chunk.end}"
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def chunk_fields(result: ChunkedDocument, i: int, *, json_metadata: bool = False) -> dict[str, Any]:
    """Metadata for chunk ``i`` of ``result``: place, provenance and links to its neighbours.

    ``json_metadata`` writes the chunk's type-specific metadata (nested lists and
    dicts: citations, lab items) as JSON text, for stores that take flat values only.
    """
    chunks = result.chunks
    c = chunks[i]
    fields: dict[str, Any] = {key: getattr(c, key) for key in CHUNK_KEYS}
    fields["id"] = chunk_id(c)
    fields["parent_id"] = getattr(c, "parent_id", None)
    fields["prev_id"] = chunk_id(chunks[i - 1]) if i > 0 else None
    fields["next_id"] = chunk_id(chunks[i + 1]) if i + 1 < len(chunks) else None
    if result.document.title:
        fields["title"] = result.document.title
    fields["metadata"] = json.dumps(c.metadata, ensure_ascii=False, sort_keys=True) if json_metadata else dict(c.metadata)
    return fields

