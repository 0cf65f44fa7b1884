"""domainchunk: cut Chinese legal and medical documents into retrieval chunks along their structure.

    >>> import domainchunk
    >>> result = domainchunk.chunk("劳动合同法.txt", max_chars=1000)
    >>> result.detection.doc_type, result.chunks[0].path

The names in ``__all__`` are the API. Of the modules, those in ``PUBLIC_MODULES`` are public
(each with its own ``__all__``); every other module is internal and may change without notice.
"""
import importlib
import typing

# The API names are imported on first use, not here: pydantic, regex and YAML cost most of a
# quarter second to import, which a command such as ``domainchunk --version`` or a program that
# only catches ``DomainChunkError`` should not pay. The checker sees the real imports.
if typing.TYPE_CHECKING:
    from .errors import DomainChunkError, DomainChunkWarning, ReadError, RuleError, UsageError, WriteError
    from .models import Block, Chunk, ChunkedDocument, Detection, Document, Page, Reason, TableCell, TableRow
    from .pipeline import chunk, chunk_document, chunk_text, load_source
    from .rulefile import Level, RuleFile, load_rule_file, load_rules

__version__ = "0.1.0"

PUBLIC_MODULES = ("batch", "errors", "pipeline", "readers", "integrations.ray")

# Which submodule defines each lazily imported API name.
_LAZY = {
    **dict.fromkeys(
        ("DomainChunkError", "DomainChunkWarning", "ReadError", "RuleError", "UsageError", "WriteError"), "errors"),
    **dict.fromkeys(
        ("Block", "Chunk", "ChunkedDocument", "Detection", "Document", "Page", "Reason", "TableCell", "TableRow"),
        "models"),
    **dict.fromkeys(("chunk", "chunk_document", "chunk_text", "load_source"), "pipeline"),
    **dict.fromkeys(("Level", "RuleFile", "load_rule_file", "load_rules"), "rulefile"),
}

__all__ = [
    "Block", "Chunk", "ChunkedDocument", "Detection", "Document", "DomainChunkError", "DomainChunkWarning", "Level",
    "PUBLIC_MODULES", "Page", "ReadError", "Reason", "RuleError", "RuleFile", "TableCell", "TableRow", "UsageError",
    "WriteError", "chunk", "chunk_document", "chunk_text", "load_rule_file", "load_rules", "load_source",
    "__version__",
]


def __getattr__(name: str) -> typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # later look-ups skip this hook
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
