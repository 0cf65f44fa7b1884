"""The public data model: what a reader produces and what a chunker emits.

Offsets are always into ``Document.text`` (after normalisation), so that for
every chunk ``document.text[chunk.start:chunk.end] == chunk.text``.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)
BlockKind = Literal["heading", "paragraph", "table", "page_break"]
# Each model's validator is built when it first validates or dumps, not at import: a command that
# writes its chunks from their fields never validates a Chunk, and building the validators of
# every model here cost the start-up of a one-file command tens of milliseconds.
_DEFERRED = ConfigDict(defer_build=True)


class TableCell(BaseModel):
    """One cell of a table row; ``start``/``end`` locate its text in the document."""

    model_config = _DEFERRED

    text: str
    start: int
    end: int
    colspan: int = 1


class TableRow(BaseModel):
    model_config = _DEFERRED

    cells: list[TableCell]
    start: int
    end: int
    is_header: bool = False


class Block(BaseModel):
    """A layout unit the reader saw: a heading, a paragraph, a table or a page break.

    ``level`` is the heading level a reader could tell (DOCX styles, Markdown
    ``#`` marks); ``None`` when unknown. A table block carries its rows; its
    text in ``Document.text`` is the rows as lines, cells separated by tabs.
    """

    model_config = _DEFERRED

    kind: BlockKind
    start: int
    end: int
    page: int | None = None
    level: int | None = None
    rows: list[TableRow] = Field(default_factory=list)
    style: str | None = None


class Page(BaseModel):
    model_config = _DEFERRED

    number: int  # 1-based, as printed in viewers
    start: int
    end: int


class Document(BaseModel):
    """One input document as a single normalised text plus its layout."""

    model_config = _DEFERRED

    source: str
    text: str
    blocks: list[Block] = Field(default_factory=list)
    pages: list[Page] = Field(default_factory=list)
    doc_type: str | None = None
    title: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    def pages_of(self, start: int, end: int) -> list[int]:
        """Page numbers that the span ``[start, end)`` touches (empty without pages)."""
        return page_lookup(self.pages)(start, end)


def page_lookup(pages: list[Page]) -> Callable[[int, int], list[int]]:
    """``Document.pages_of`` for many spans of one document: the page starts are read once, not
    per span (a long PDF's chunks each walked every page). The pages must not change meanwhile."""
    if not pages:
        return lambda start, end: []
    starts = [p.start for p in pages]
    numbers = [p.number for p in pages]

    def pages_of(start: int, end: int) -> list[int]:
        first = max(bisect_right(starts, start) - 1, 0)
        last = max(bisect_right(starts, max(end - 1, start)) - 1, 0)
        return numbers[first : last + 1]

    return pages_of


class Chunk(BaseModel):
    """A retrieval chunk: an exact slice of ``Document.text`` with its place in the outline."""

    model_config = ConfigDict(frozen=False, defer_build=True)

    index: int
    text: str
    start: int
    end: int
    path: list[str] = Field(default_factory=list)
    kind: str = "text"
    doc_type: str = "generic"
    pages: list[int] = Field(default_factory=list)
    rule: str | None = None
    source: str = ""
    metadata: dict[str, Any] = Field(default_factory=dict)
    # Retrieval links (domainchunk.packing): a stable id from source, offsets and rules; the
    # enclosing heading's record; the neighbours in document order; a pack's or parent's members.
    id: str | None = None
    parent_id: str | None = None
    prev_id: str | None = None
    next_id: str | None = None
    children: list[str] = Field(default_factory=list)
    size: int | None = None  # measured by the size function in force (characters by default)
    # The document's title, for context_text; set by the pipeline. Left out of records: the
    # record of every chunk would repeat it (adapters take it from the document once).
    title: str | None = Field(default=None, exclude=True)

    @property
    def context_text(self) -> str:
        """The document's title, the path as a breadcrumb and the text, for embedding.

        :func:`domainchunk.packing.context_text` caps it to a size with a size function.
        """
        from .packing import context_text

        return context_text(self)

    def to_record(self) -> dict[str, Any]:
        """The JSONL record written by the CLI."""
        return self.model_dump(mode="json")


# A chunk's fields as plain data, from the chunker to the API boundary, where
# :func:`domainchunk.packing.finish` builds one Chunk per row with its links (issue 13: a model
# built per chunk and then assigned its links twice cost more than the rest of a chunk). The
# chunker's rows hold every field of a Chunk in the model's order (see :func:`chunk_row`), so a
# row becomes its model's fields as it is; ``trusted(Chunk, row)`` takes any subset.
Row = dict[str, Any]

# What a chunker gives every chunk; of the rest, a link or size is given once it is not None.
_ROW_GIVEN = frozenset(("index", "text", "start", "end", "path", "kind", "doc_type", "pages", "rule", "source",
                        "metadata"))
_ROW_LINKS = ("id", "parent_id", "prev_id", "next_id", "size", "title")


def chunk_row(index: int, text: str, start: int, end: int, path: list[str], kind: str, doc_type: str,
              pages: list[int], rule: str | None, source: str, metadata: dict[str, Any]) -> Row:
    """A chunk's row as the chunker makes it: every field of :class:`Chunk`, in its order (the
    order the model dumps them), the links and size not yet set."""
    return {"index": index, "text": text, "start": start, "end": end, "path": path, "kind": kind,
            "doc_type": doc_type, "pages": pages, "rule": rule, "source": source, "metadata": metadata,
            "id": None, "parent_id": None, "prev_id": None, "next_id": None, "children": [], "size": None,
            "title": None}


def chunk_of_row(row: Row) -> Chunk:
    """The Chunk whose fields are ``row`` (a :func:`chunk_row`, its links set or not), the dict
    itself taken, not copied: what ``trusted(Chunk, …)`` makes of the fields given (the chunker's,
    and each link or size set), at a third of its cost per chunk."""
    given = set(_ROW_GIVEN)
    for name in _ROW_LINKS:
        if row[name] is not None:
            given.add(name)
    model = Chunk.__new__(Chunk)
    object.__setattr__(model, "__dict__", row)
    object.__setattr__(model, "__pydantic_fields_set__", given)
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model

# Per model class: its fields in order with their static defaults, the fields a factory fills, the
# required ones. Kept by ``trusted`` so that a build costs one dict copy.
_Layout = tuple[dict[str, Any], tuple[tuple[str, Callable[..., Any]], ...], frozenset[str]]
_LAYOUTS: dict[type, _Layout] = {}


def _layout(cls: type[BaseModel]) -> _Layout:
    if cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
        raise TypeError(f"{cls.__name__}: trusted builds know no private or extra attributes")
    template: dict[str, Any] = {}
    factories = []
    required = set()
    for name, field in cls.model_fields.items():
        template[name] = None if field.default is PydanticUndefined else field.default
        if field.default_factory is not None:
            factories.append((name, field.default_factory))
        elif field.is_required():
            required.add(name)
    _LAYOUTS[cls] = layout = (template, tuple(factories), frozenset(required))
    return layout


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """``cls(**values)`` without validation, for values the pipeline made itself with the fields'
    types (offsets, fresh lists, hook metadata): validating a chunk's fields again, its metadata
    walked through, cost half as much again as this. (For a model of a few plain fields, such as a
    Block, validation is the faster.) The rest take their defaults, in field order (the order the
    model dumps them), and the given fields are the ones set, as validation leaves them."""
    template, factories, required = _LAYOUTS.get(cls) or _layout(cls)
    if not required <= values.keys():
        raise TypeError(f"{cls.__name__} needs {', '.join(sorted(required - values.keys()))}")
    fields = template.copy()
    for name, factory in factories:
        if name not in values:
            fields[name] = factory()  # no factory of these models takes the data
    fields.update(values)
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", fields)
    object.__setattr__(model, "__pydantic_fields_set__", set(values))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


class Reason(BaseModel):
    """Why the detector scored a type: one signal that fired."""

    model_config = _DEFERRED

    doc_type: str
    signal: str
    count: int
    weight: float
    why: str


class Detection(BaseModel):
    model_config = _DEFERRED

    doc_type: str
    score: float
    scores: dict[str, float] = Field(default_factory=dict)
    reasons: list[Reason] = Field(default_factory=list)

    def explain(self) -> str:
        fired = [r for r in self.reasons if r.doc_type == self.doc_type]
        lines = [f"{self.doc_type} (score {self.score:.1f})"]
        lines += [f"  {r.weight * r.count:+.1f} {r.signal} ×{r.count}: {r.why}" for r in fired]  # a signal against the type counts down
        return "\n".join(lines)


class ChunkedDocument(BaseModel):
    model_config = _DEFERRED

    document: Document
    detection: Detection
    chunks: list[Chunk]
    # With ``parents=True``: one record per enclosing heading (编/章/节, part …), kind ``parent``.
    parents: list[Chunk] = Field(default_factory=list)

    def records(self) -> list[dict[str, Any]]:
        return [c.to_record() for c in (*self.chunks, *self.parents)]

    def contexts(self, max_size: int | None = None, size: Callable[[str], int] | None = None) -> list[str]:
        """Each chunk's ``context_text`` (document title, path and text), cut to ``max_size``."""
        from .packing import context_text

        return [context_text(c, self.document.title, max_size, size) for c in self.chunks]
