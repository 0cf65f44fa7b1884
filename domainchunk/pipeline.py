"""The pipeline: read → detect → chunk by the type's rules (→ fallback inside)."""
from __future__ import annotations

import copy
import functools
import gc
import os
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

from .chunker import rows_with_rules
from .detect import GENERIC, detect
from .errors import DomainChunkError, ReadError, UsageError
from .models import Chunk, ChunkedDocument, Detection, Document, Row, trusted
from .packing import context_text, finish, rules_fingerprint
from .readers import READERS, read_document
from .readers.text import text_document
from .rulefile import AllowHooks, RuleFile, load_rules

Source = str | bytes | os.PathLike
SizeFn = Callable[[str], int]

# A str longer than this is text whatever it holds: no file system takes such a path.
_MAX_PATH = 4096

F = TypeVar("F", bound=Callable[..., object])
_GC_LOCK = threading.Lock()
_GC_HOLDERS = 0  # calls in progress that found the collector on and turned it off


def collector_paused(fn: F) -> F:
    """``fn`` with the cyclic garbage collector off while it runs, as it was before afterwards.

    A call allocates many small objects that live until it returns (matches, sections, chunk
    dicts); the collector kept walking them all, a third of a long statute's time (issue 13).
    Reference counting still frees what the call drops; what is cyclic waits for the collector
    to run again. Calls in several threads share the pause: the last one out turns it back on,
    and a caller who had turned the collector off keeps it off.
    """
    @functools.wraps(fn)
    def paused(*args: Any, **kwargs: Any) -> Any:
        global _GC_HOLDERS
        with _GC_LOCK:
            held = _GC_HOLDERS > 0 or gc.isenabled()
            if held:
                _GC_HOLDERS += 1
                gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if held:
                with _GC_LOCK:
                    _GC_HOLDERS -= 1
                    if not _GC_HOLDERS:
                        gc.enable()

    return paused  # type: ignore[return-value]


def looks_like_path(source: str) -> bool:
    """One line that ends in a suffix a reader exists for or holds a path separator."""
    if "\n" in source or len(source) >= _MAX_PATH:
        return False
    separators = [s for s in ("/", os.sep, os.altsep) if s]
    return source.lower().endswith(tuple(READERS)) or any(s in source for s in separators)


def load_source(source: Source, name: str | None = None) -> Document:
    """A path (str or PathLike) is read from disk; bytes are sniffed; other str is the text itself.

    A str that looks like a path (see :func:`looks_like_path`) but names no file is a
    ReadError rather than text holding the path; give text as :func:`chunk_text`.
    """
    if isinstance(source, os.PathLike):
        return read_document(Path(source))
    if isinstance(source, bytes):
        return read_document(name or "<bytes>", data=source)
    if isinstance(source, str):
        if looks_like_path(source):
            if os.path.lexists(source):
                return read_document(source)
            raise ReadError(source, "file not found (to chunk this string as text, use domainchunk.chunk_text)")
        return text_document(source, name or "<text>", markdown=source.lstrip().startswith("#"))
    raise UsageError(str(source), f"cannot chunk a {type(source).__name__}: give a path, bytes or str")


def resolve_type(doc: Document, doc_type: str, registry: dict[str, RuleFile]) -> Detection:
    if not isinstance(doc_type, str):
        raise UsageError(doc.source, f"doc_type must be a str, not {type(doc_type).__name__}")
    if doc_type == "auto":
        return detect(doc.text, registry)
    if doc_type not in registry:
        known = ", ".join(["auto", *sorted(registry)])
        raise UsageError(doc.source, f"unknown doc_type {doc_type!r} (known: {known})")
    return Detection(doc_type=doc_type, score=0.0, reasons=[])


def check_limit(source: str, name: str, value: object) -> None:
    """A size limit is a positive int (not a str, float or bool), or the caller hears why not."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(source, f"{name} must be an int, not {type(value).__name__} {value!r}")
    if value < 1:
        raise UsageError(source, f"{name} must be at least 1")


def guarded_size(size: SizeFn, source: str) -> SizeFn:
    """The caller's ``size`` function, its failures (or a non-int answer) named as the caller's."""
    def measure(text: str) -> int:
        try:
            n = size(text)
        except Exception as exc:  # noqa: BLE001 - whatever the caller's function raises is theirs
            raise UsageError(source, f"the size function failed: {type(exc).__name__}: {exc}") from exc
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise UsageError(source, f"the size function must return an int >= 0, not {n!r}")
        return n

    return measure


def _context_size(rows: list[Row], title: str | None, size: SizeFn | None) -> int:
    measure = size or len
    return max((measure(context_text(trusted(Chunk, r), title)) for r in rows), default=0)


@collector_paused
def chunk_document(
    doc: Document,
    doc_type: str = "auto",
    max_chars: int | None = None,
    rules_dir: str | os.PathLike | None = None,
    size: SizeFn | None = None,
    mask_phi: bool = False,
    context_fit: bool = False,
    *,
    pack: bool = False,
    parents: bool = False,
    overlap: int = 0,
    allow_hooks: AllowHooks = False,
) -> ChunkedDocument:
    """Chunk a read document; ``doc`` is left as it was (the result holds a copy).

    ``context_fit`` keeps every chunk's ``context_text`` (title, breadcrumb and text), not
    only its text, within the limit: the text budget shrinks by what the title and breadcrumbs need.
    """
    check_limit(doc.source, "max_chars", max_chars)
    if size is not None and not callable(size):
        raise UsageError(doc.source, f"size must be a function, not {type(size).__name__}")
    # Chunkers record the type, title and document metadata on the document they work on.
    doc = doc.model_copy(update={"metadata": copy.deepcopy(doc.metadata)})
    registry = load_rules(None if rules_dir is None else Path(rules_dir), allow_hooks)
    if mask_phi:
        from .phi import mask_document

        doc = mask_document(doc, registry)
    if size is not None:  # after masking: its errors name the document as its chunks do
        size = guarded_size(size, doc.source)
    detection = resolve_type(doc, doc_type, registry)
    rules = registry.get(detection.doc_type) or registry[GENERIC]
    doc.doc_type = rules.doc_type
    limit = max_chars or rules.max_chars
    if overlap < 0 or overlap * 2 > limit:
        raise UsageError(doc.source, f"overlap must be between 0 and half the size limit ({limit // 2})")
    _, rows = rows_with_rules(doc, rules, limit, size, overlap)
    budget = limit
    # The title and breadcrumbs do not depend on the budget, so a round or two settle (each shrinks it by the excess).
    while context_fit and (excess := _context_size(rows, doc.title, size) - limit) > 0:
        budget -= excess
        if budget < 1:
            raise UsageError(doc.source, f"context_fit: the title and breadcrumbs leave no room for text within "
                                         f"max_chars {limit}; raise max_chars")
        _, rows = rows_with_rules(doc, rules, budget, size, overlap)
    # Packs fill up to the limit itself: with context_fit their own context_text is measured.
    chunks, records = finish(doc, rows, fingerprint=rules_fingerprint(rules), max_chars=limit, size=size,
                             pack=pack, parents=parents, context_fit=context_fit)
    # Every part is a model already, made here: validating them again only checked their classes,
    # and built the validators of the result's every model on a command's first document.
    return trusted(ChunkedDocument, {"document": doc, "detection": detection, "chunks": chunks, "parents": records})


@collector_paused
def chunk(
    source: Source,
    doc_type: str = "auto",
    max_chars: int | None = None,
    rules_dir: str | os.PathLike | None = None,
    size: SizeFn | None = None,
    name: str | None = None,
    mask_phi: bool = False,
    context_fit: bool = False,
    *,
    pack: bool = False,
    parents: bool = False,
    overlap: int = 0,
    allow_hooks: AllowHooks = False,
) -> ChunkedDocument:
    """Chunk a document given as a path, bytes or text.

    ``doc_type`` is ``"auto"`` (detect) or a rule file's doc_type; ``max_chars``
    defaults to the rule file's; ``size`` measures a piece (default: characters),
    e.g. a tokenizer's token count; ``rules_dir`` adds or overrides rule files;
    ``mask_phi`` replaces identifying values (姓名, 身份证号 …) by typed placeholders
    before chunking, so offsets hold against the masked text; ``context_fit`` keeps
    ``context_text`` within the limit too. A str that looks like a path and names no
    file is a ReadError: pass text as :func:`chunk_text`.
    ``pack`` merges consecutive units under the same parent into chunks of up to
    ``max_chars``; ``parents`` adds one record per enclosing heading (``parent_id``
    resolves to it); ``overlap`` lets the pieces of an oversize unit overlap by up to
    that many characters (or ``size`` units), never across units.
    Raises :class:`~domainchunk.errors.DomainChunkError` with the file and cause.
    """
    doc = load_source(source, name)
    return chunk_document(doc, doc_type, max_chars, rules_dir, size, mask_phi, context_fit,
                          pack=pack, parents=parents, overlap=overlap, allow_hooks=allow_hooks)


@collector_paused
def chunk_text(
    text: str,
    doc_type: str = "auto",
    max_chars: int | None = None,
    rules_dir: str | os.PathLike | None = None,
    size: SizeFn | None = None,
    name: str = "<text>",
    mask_phi: bool = False,
    context_fit: bool = False,
    *,
    pack: bool = False,
    parents: bool = False,
    overlap: int = 0,
    allow_hooks: AllowHooks = False,
) -> ChunkedDocument:
    """Chunk ``text`` itself, whatever it looks like (a path, a file name); ``name`` is its ``source``."""
    if not isinstance(text, str):
        raise UsageError(name, f"chunk_text takes a str, not {type(text).__name__}")
    doc = text_document(text, name, markdown=text.lstrip().startswith("#"))
    return chunk_document(doc, doc_type, max_chars, rules_dir, size, mask_phi, context_fit,
                          pack=pack, parents=parents, overlap=overlap, allow_hooks=allow_hooks)


__all__ = ["chunk", "chunk_document", "chunk_text", "load_source", "DomainChunkError"]
