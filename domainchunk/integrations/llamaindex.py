"""LlamaIndex adapters: a node parser and a reader (``pip install 'domainchunk[llamaindex]'``).

    >>> from domainchunk.integrations.llamaindex import DomainChunkNodeParser, DomainChunkReader
    >>> documents = DomainChunkReader().load_data("劳动合同法.pdf")       # one Document per file
    >>> nodes = DomainChunkNodeParser(max_chars=1000).get_nodes_from_documents(documents)
    >>> nodes[3].metadata["path"], nodes[3].start_char_idx, nodes[3].relationships.keys()

Each ``TextNode`` is one chunk with ``start_char_idx``/``end_char_idx`` into the normalised
document text, the chunk's place and provenance in ``metadata`` (``path``, ``rule``, ``kind``,
``pages`` …; type-specific metadata as JSON text under ``metadata``), and relationships:
SOURCE (the document), PREVIOUS/NEXT (the neighbouring chunks), PARENT/CHILD (the enclosing
structural record, where the chunker emitted parents). What is embedded and shown to an LLM
(``get_content(metadata_mode=...)``) is the chunk's ``context_text``: the document's title and
the path in front of the text, never offsets, ids or the source document's metadata (all kept
in ``metadata`` for filters); with ``context_fit=True`` it stays within ``max_chars``, as the
LangChain splitter's does.

``DomainChunkSmallToBigRetriever`` is small-to-big retrieval over the nodes of a ``pack=True``
parse and of the one-unit parse of the same documents: it ranks the packs with their best unit
(:func:`domainchunk.packing.rank_packs`) and hands back each one's best-matching units
(:func:`domainchunk.packing.best_units`), scored by any function of the query and the nodes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from llama_index.core.node_parser import NodeParser
from llama_index.core.readers.base import BaseReader
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import (BaseNode, Document, NodeRelationship, NodeWithScore, QueryBundle,
                                     RelatedNodeInfo, TextNode)
from pydantic import Field, PrivateAttr

from ..models import ChunkedDocument
from ..packing import RANK_WEIGHT, context_head
from ..pipeline import chunk, chunk_text
from ._common import as_chunk, chunk_fields, small_to_big

__all__ = ["DomainChunkNodeParser", "DomainChunkReader", "DomainChunkSmallToBigRetriever"]

# The one metadata key an embedding or an LLM prompt sees: the head of the chunk's context_text
# (title, breadcrumb), so that with the templates below the node's content is its context_text.
_CONTEXT = "context"
_TEMPLATES = dict(metadata_template="{value}", text_template="{metadata_str}\n{content}")


def _nodes(result: ChunkedDocument, source: Document | None = None) -> list[TextNode]:
    """The chunks as nodes, then the parent records when the result has them (``parents=True``)."""
    nodes: list[TextNode] = []
    emitted = {p.id for p in result.parents}
    for c in (*result.chunks, *result.parents):
        fields = chunk_fields(result, c, json_metadata=True)
        hidden = list(fields)  # offsets, ids, links, nested metadata; title and path are in the head
        fields[_CONTEXT] = context_head(c, result.document.title)
        node = TextNode(
            id_=fields["id"],
            text=c.text,
            start_char_idx=c.start,
            end_char_idx=c.end,
            metadata=fields,
            excluded_embed_metadata_keys=hidden,
            excluded_llm_metadata_keys=list(hidden),
            **_TEMPLATES,
        )
        rel = node.relationships
        if source is not None:
            rel[NodeRelationship.SOURCE] = source.as_related_node_info()
        if fields["prev_id"]:
            rel[NodeRelationship.PREVIOUS] = RelatedNodeInfo(node_id=fields["prev_id"])
        if fields["next_id"]:
            rel[NodeRelationship.NEXT] = RelatedNodeInfo(node_id=fields["next_id"])
        if fields["parent_id"] in emitted:  # only a parent that is a node of its own
            rel[NodeRelationship.PARENT] = RelatedNodeInfo(node_id=fields["parent_id"])
        if c.children:
            rel[NodeRelationship.CHILD] = [RelatedNodeInfo(node_id=k) for k in c.children]
        nodes.append(node)
    return nodes


class DomainChunkNodeParser(NodeParser):
    """Parses LlamaIndex ``Document``s into structural chunks (articles, clauses, sections, panels).

    Options are those of :func:`domainchunk.chunk`. A document's ``metadata["file_path"]``
    (as LlamaIndex readers set it) names the source in every node.
    """

    doc_type: str = Field(default="auto", description="auto (detect) or a rule file's doc_type")
    max_chars: int | None = Field(default=None, description="size limit; default: the rule file's")
    rules_dir: str | None = Field(default=None, description="a folder of rule files to add or override")
    mask_phi: bool = Field(default=False, description="mask identifying values in medical records")
    context_fit: bool = Field(default=False, description="keep each chunk's context_text (title, path and text, "
                              "what is embedded) within max_chars, not only its text")
    pack: bool = Field(default=False, description="merge consecutive units under one heading up to max_chars")
    parents: bool = Field(default=False, description="also emit each enclosing heading's record as a node, "
                          "linked PARENT/CHILD (small-to-big retrieval)")
    _size: Any = PrivateAttr(default=None)

    def __init__(self, size: Any = None, **data: Any) -> None:
        # prev/next come from the chunker (neighbouring chunks of one document), not from the base class
        data.setdefault("include_prev_next_rel", False)
        super().__init__(**data)
        self._size = size

    @classmethod
    def class_name(cls) -> str:
        return "DomainChunkNodeParser"

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any) -> list[BaseNode]:
        out: list[BaseNode] = []
        for doc in nodes:
            name = doc.metadata.get("file_path") or doc.metadata.get("source") or doc.node_id
            result = chunk_text(
                doc.get_content(), name=str(name), doc_type=self.doc_type, max_chars=self.max_chars,
                rules_dir=self.rules_dir, size=self._size, mask_phi=self.mask_phi, context_fit=self.context_fit,
                pack=self.pack, parents=self.parents,
            )
            out.extend(_nodes(result, doc if isinstance(doc, Document) else None))
        return out

    def _postprocess_parsed_nodes(self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]) -> list[BaseNode]:
        # The base class merges the document's metadata (file_path …) into each node's after
        # parsing; hide it too, so that what is embedded stays the chunk's context_text.
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node in nodes:
            hidden = [k for k in node.metadata if k != _CONTEXT]
            node.excluded_embed_metadata_keys, node.excluded_llm_metadata_keys = hidden, list(hidden)
        return nodes


class DomainChunkReader(BaseReader):
    """Reads PDF, DOCX, TXT, Markdown or CSV files as LlamaIndex ``Document``s.

    ``load_data(path)`` gives one ``Document`` holding the normalised text (the text that
    chunk offsets refer to), with ``file_path``, ``doc_type``, ``title`` and the detector's
    score in its metadata. ``DomainChunkReader(nodes=True)`` gives the chunk nodes directly.
    """

    def __init__(self, nodes: bool = False, **options: Any) -> None:
        self.nodes = nodes
        self.options = options

    def load_data(self, file: str | Path, extra_info: dict[str, Any] | None = None) -> list[Any]:
        result = chunk(Path(file), **self.options)
        meta = {
            # masked, the source is a pseudonym: a file is often named for its patient
            "file_path": result.document.source if self.options.get("mask_phi") else str(file),
            "doc_type": result.detection.doc_type,
            "detection_score": result.detection.score,
            **({"title": result.document.title} if result.document.title else {}),
            **(extra_info or {}),
        }
        doc = Document(text=result.document.text, metadata=meta)
        return _nodes(result, doc) if self.nodes else [doc]


NodeScore = Callable[[str, list[BaseNode]], Sequence[float]]


class DomainChunkSmallToBigRetriever(BaseRetriever):
    """Small-to-big: the best packs, ranked with their best unit, each handing back its best units.

    ``packs`` are the nodes of a ``pack=True`` parse, ``units`` those of the one-unit parse of
    the same documents (a pack's ``children`` are units' node ids); ``score(query, nodes)``
    gives one score per node, higher better (BM25, the cosine of their embeddings). ``k`` packs
    are taken, each handing back its units best first within ``budget`` (in the chunks' size
    units) and scoring at least ``ratio`` of its best unit; ``weight`` is the best unit's share
    in the packs' ranking. The result is the units' nodes with their scores, pack by pack, the
    pack's id under ``metadata["pack_id"]``.
    """

    def __init__(self, packs: Sequence[BaseNode], units: Sequence[BaseNode], score: NodeScore, *, k: int = 5,
                 budget: int | None = 1000, ratio: float = 0.4, weight: float = RANK_WEIGHT, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._packs, self._units = list(packs), list(units)
        self._pack_chunks = [as_chunk(n.get_content(), n.metadata, f"pack node {n.node_id}") for n in self._packs]
        self._unit_chunks = [as_chunk(n.get_content(), n.metadata, f"unit node {n.node_id}") for n in self._units]
        # a unit's own node over its pack's where a pack is a single unit (the two share its id)
        self._by_id = {n.metadata["id"]: n for n in (*self._packs, *self._units)}
        self._score, self._k, self._budget, self._ratio, self._weight = score, k, budget, ratio, weight

    @classmethod
    def from_documents(cls, documents: Sequence[Document], score: NodeScore, *, k: int = 5, budget: int | None = 1000,
                       ratio: float = 0.4, weight: float = RANK_WEIGHT, **options: Any) -> DomainChunkSmallToBigRetriever:
        """Both parses of ``documents``; ``options`` are :class:`DomainChunkNodeParser`'s (``pack`` is set here)."""
        options.pop("pack", None)
        packs = DomainChunkNodeParser(pack=True, **options).get_nodes_from_documents(documents)
        units = DomainChunkNodeParser(**options).get_nodes_from_documents(documents)
        return cls(packs, units, score, k=k, budget=budget, ratio=ratio, weight=weight)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        found = small_to_big(self._pack_chunks, list(self._score(query, self._packs)), self._unit_chunks,
                             list(self._score(query, self._units)), k=self._k, budget=self._budget, ratio=self._ratio,
                             weight=self._weight)
        out: list[NodeWithScore] = []
        for pack, members in found:
            for m, score in members:
                node = self._by_id[m.id].model_copy(deep=True)
                node.metadata["pack_id"] = pack.id
                node.excluded_embed_metadata_keys.append("pack_id")
                node.excluded_llm_metadata_keys.append("pack_id")
                out.append(NodeWithScore(node=node, score=score))
        return out
