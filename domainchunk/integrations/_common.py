"""What the framework adapters share: one chunk as flat, framework-neutral metadata."""
from __future__ import annotations

import json
from typing import Any

from ..models import Chunk, ChunkedDocument

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
