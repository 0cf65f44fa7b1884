"""The pipeline: read → detect → chunk by the type's rules (→ fallback inside)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from .chunker import chunk_with_rules
from .detect import GENERIC, detect
from .errors import DomainChunkError, UsageError
from .models import ChunkedDocument, Detection, Document
from .readers import read_document
from .readers.text import text_document
from .rulefile import RuleFile, load_rules

Source = str | bytes | os.PathLike


def load_source(source: Source, name: str | None = None) -> Document:
    """A path (str or PathLike) is read from disk; bytes are sniffed; other str is the text itself."""
    if isinstance(source, os.PathLike):
        return read_document(Path(source))
    if isinstance(source, bytes):
        return read_document(name or "<bytes>", data=source)
    if isinstance(source, str):
        if "\n" not in source and len(source) < 4096 and os.path.isfile(source):
            return read_document(source)
        return text_document(source, name or "<text>", markdown=source.lstrip().startswith("#"))
    raise UsageError(str(source), f"cannot chunk a {type(source).__name__}: give a path, bytes or str")


def resolve_type(doc: Document, doc_type: str, registry: dict[str, RuleFile]) -> Detection:
    if doc_type == "auto":
        return detect(doc.text, registry)
    if doc_type not in registry:
        known = ", ".join(["auto", *sorted(registry)])
        raise UsageError(doc.source, f"unknown doc_type {doc_type!r} (known: {known})")
    return Detection(doc_type=doc_type, score=0.0, reasons=[])


def chunk_document(
    doc: Document,
    doc_type: str = "auto",
    max_chars: int | None = None,
    rules_dir: str | os.PathLike | None = None,
    size: Callable[[str], int] | None = None,
    mask_phi: bool = False,
) -> ChunkedDocument:
    registry = load_rules(rules_dir)
    if mask_phi:
        from .phi import mask_document

        doc = mask_document(doc, registry)
    detection = resolve_type(doc, doc_type, registry)
    rules = registry.get(detection.doc_type) or registry[GENERIC]
    doc.doc_type = rules.doc_type
    if max_chars is not None and max_chars < 1:
        raise UsageError(doc.source, "max_chars must be at least 1")
    _, chunks = chunk_with_rules(doc, rules, max_chars, size)
    return ChunkedDocument(document=doc, detection=detection, chunks=chunks)


def chunk(
    source: Source,
    doc_type: str = "auto",
    max_chars: int | None = None,
    rules_dir: str | os.PathLike | None = None,
    size: Callable[[str], int] | None = None,
    name: str | None = None,
    mask_phi: bool = False,
) -> ChunkedDocument:
    """Chunk a document given as a path, bytes or text.

    ``doc_type`` is ``"auto"`` (detect) or a rule file's doc_type; ``max_chars``
    defaults to the rule file's; ``size`` measures a piece (default: characters),
    e.g. a tokenizer's token count; ``rules_dir`` adds or overrides rule files;
    ``mask_phi`` replaces identifying values (姓名, 身份证号 …) by typed placeholders
    before chunking, so offsets hold against the masked text.
    Raises :class:`~domainchunk.errors.DomainChunkError` with the file and cause.
    """
    doc = load_source(source, name)
    return chunk_document(doc, doc_type, max_chars, rules_dir, size, mask_phi)


__all__ = ["chunk", "chunk_document", "load_source", "DomainChunkError"]
