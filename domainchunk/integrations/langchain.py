"""LangChain adapters: a ``TextSplitter`` and a document loader (``pip install 'domainchunk[langchain]'``).

    >>> from domainchunk.integrations.langchain import DomainChunkLoader, DomainChunkSplitter
    >>> docs = DomainChunkLoader(["劳动合同法.pdf"], max_chars=1000).load()
    >>> docs[0].metadata["path"], docs[0].metadata["rule"]
    (['第一章 总则', '第一条'], 'statute.article')
    >>> DomainChunkSplitter(max_chars=800).split_documents(raw_docs)

Each LangChain ``Document`` is one chunk: ``page_content`` is the chunk text (an exact slice
of the normalised document text), or with ``context=True`` its ``context_text`` (the
document's title and the path in front of the text, for embedding; add ``context_fit=True``
to keep it within ``max_chars``), and ``metadata`` carries ``source``, ``index``, ``start``,
``end``, ``path``, ``kind``, ``doc_type``, ``pages``, ``rule``, ``id``, ``parent_id``,
``prev_id``, ``next_id``, ``title`` and the chunk's own ``metadata``, on top of the
metadata of the document it came from.

``DomainChunkSmallToBigRetriever`` is small-to-big retrieval over a ``pack=True`` loading and
the one-unit loading of the same files: it ranks the packs with their best unit
(:func:`domainchunk.packing.rank_packs`) and hands back each one's best-matching units
(:func:`domainchunk.packing.best_units`), scored by any function of the query and the
documents (BM25, the cosine of their embeddings).
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_text_splitters import TextSplitter
from pydantic import PrivateAttr

from ..models import Chunk, ChunkedDocument
from ..packing import RANK_WEIGHT
from ..pipeline import chunk, chunk_text
from ._common import as_chunk, chunk_fields, small_to_big

__all__ = ["DomainChunkLoader", "DomainChunkSmallToBigRetriever", "DomainChunkSplitter"]


def _documents(result: ChunkedDocument, base: dict[str, Any] | None = None,
               context: bool = False) -> Iterator[Document]:
    for c in result.chunks:
        metadata = copy.deepcopy(base) if base else {}
        metadata.update(chunk_fields(result, c))
        yield Document(page_content=c.context_text if context else c.text, metadata=metadata, id=metadata["id"])


class DomainChunkSplitter(TextSplitter):
    """A ``TextSplitter`` that cuts along the document's structure (articles, clauses, sections).

    Options are those of :func:`domainchunk.chunk`: ``doc_type`` (``auto`` detects),
    ``max_chars``, ``rules_dir``, ``size`` (a length function, e.g. a tokenizer's token
    count), ``mask_phi``, ``context_fit``, ``pack``; ``context=True`` makes ``page_content``
    the chunk's ``context_text`` (``split_text`` too). LangChain's ``chunk_size``/``length_function`` map onto
    ``max_chars``/``size`` when given instead.
    """

    def __init__(
        self,
        doc_type: str = "auto",
        max_chars: int | None = None,
        rules_dir: str | PathLike | None = None,
        size: Any = None,
        mask_phi: bool = False,
        context_fit: bool = False,
        pack: bool = False,
        context: bool = False,
        **kwargs: Any,
    ) -> None:
        chunk_size = kwargs.pop("chunk_size", None)
        length_function = kwargs.pop("length_function", None)
        super().__init__(chunk_size=chunk_size or max_chars or 1000, chunk_overlap=0, **kwargs)
        self._options = dict(
            doc_type=doc_type,
            max_chars=max_chars or chunk_size,
            rules_dir=rules_dir,
            size=size or length_function,
            mask_phi=mask_phi,
            context_fit=context_fit,
            pack=pack,
        )
        self._context = context

    def chunk(self, text: str, name: str | None = None) -> ChunkedDocument:
        """The full result for ``text``: document, detection and chunks."""
        return chunk_text(text, name=name or "<text>", **self._options)

    def split_text(self, text: str) -> list[str]:
        return [c.context_text if self._context else c.text for c in self.chunk(text).chunks]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None) -> list[Document]:
        metadatas = metadatas or [{} for _ in texts]
        out: list[Document] = []
        for text, base in zip(texts, metadatas):
            out.extend(_documents(self.chunk(text, base.get("source")), base, self._context))
        return out

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        docs = list(documents)
        return self.create_documents([d.page_content for d in docs], [d.metadata for d in docs])


class DomainChunkLoader(BaseLoader):
    """Reads PDF, DOCX, TXT, Markdown or CSV files and yields one ``Document`` per chunk, lazily.

    ``paths`` is one path or several; options are those of :func:`domainchunk.chunk`, and
    ``context=True`` makes ``page_content`` the chunk's ``context_text``. A file that cannot be read raises :class:`domainchunk.DomainChunkError` naming it.
    """

    def __init__(self, paths: str | PathLike | Sequence[str | PathLike], context: bool = False,
                 **options: Any) -> None:
        self.paths = [paths] if isinstance(paths, (str, PathLike)) else list(paths)
        self.context = context
        self.options = options

    def lazy_load(self) -> Iterator[Document]:
        for path in self.paths:
            # a Path, so a str is always read as a file and never taken for text
            yield from _documents(chunk(Path(path), **self.options), context=self.context)


class DomainChunkSmallToBigRetriever(BaseRetriever):
    """Small-to-big: the best packs, ranked with their best unit, each handing back its best units.

    ``packs`` are the documents of a ``pack=True`` loading (or splitting), ``units`` those of the
    one-unit loading of the same files (a pack's ``children`` are units' ids);
    ``score(query, documents)`` gives one score per document, higher better. ``k`` packs are
    taken, each handing back its units best first within ``budget`` (in the chunks' size
    units) and scoring at least ``ratio`` of its best unit; ``weight`` is the best unit's share
    in the packs' ranking. The documents returned are the units', pack by pack, with the
    pack's id under ``metadata["pack_id"]`` and the unit's score under ``metadata["score"]``.
    """

    packs: list[Document]
    units: list[Document]
    score: Callable[[str, list[Document]], Sequence[float]]
    k: int = 5
    budget: int | None = 1000
    ratio: float = 0.4
    weight: float = RANK_WEIGHT
    _pack_chunks: list[Chunk] = PrivateAttr(default_factory=list)
    _unit_chunks: list[Chunk] = PrivateAttr(default_factory=list)
    _by_id: dict[str | None, Document] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any) -> None:
        # once, not per query: the chunks the packing functions rank, and a unit's own document
        # over its pack's where a pack is a single unit (the two share its id)
        self._pack_chunks = [as_chunk(d.page_content, d.metadata, f"pack {i}") for i, d in enumerate(self.packs)]
        self._unit_chunks = [as_chunk(d.page_content, d.metadata, f"unit {i}") for i, d in enumerate(self.units)]
        self._by_id = {d.metadata["id"]: d for d in (*self.packs, *self.units)}

    @classmethod
    def from_files(cls, paths: str | PathLike | Sequence[str | PathLike],
                   score: Callable[[str, list[Document]], Sequence[float]], *, context: bool = False,
                   k: int = 5, budget: int | None = 1000, ratio: float = 0.4, weight: float = RANK_WEIGHT,
                   **options: Any) -> DomainChunkSmallToBigRetriever:
        """Both loadings of ``paths``; ``options`` are :func:`domainchunk.chunk`'s (``pack`` is set here)."""
        options.pop("pack", None)
        return cls(packs=DomainChunkLoader(paths, context=context, pack=True, **options).load(),
                   units=DomainChunkLoader(paths, context=context, **options).load(),
                   score=score, k=k, budget=budget, ratio=ratio, weight=weight)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        found = small_to_big(self._pack_chunks, list(self.score(query, self.packs)), self._unit_chunks,
                             list(self.score(query, self.units)), k=self.k, budget=self.budget, ratio=self.ratio,
                             weight=self.weight)
        return [Document(page_content=self._by_id[m.id].page_content, id=m.id,
                         metadata={**self._by_id[m.id].metadata, "pack_id": pack.id, "score": score})
                for pack, members in found for m, score in members]
