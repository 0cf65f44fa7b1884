"""domainchunk: cut Chinese legal and medical documents into retrieval chunks along their structure.

    >>> import domainchunk
    >>> result = domainchunk.chunk("劳动合同法.txt", max_chars=1000)
    >>> result.detection.doc_type, result.chunks[0].path

The names in ``__all__`` are the API. Of the modules, those in ``PUBLIC_MODULES`` are public
(each with its own ``__all__``); every other module is internal and may change without notice.
"""
from .errors import DomainChunkError, DomainChunkWarning, ReadError, RuleError, UsageError, WriteError
from .models import Block, Chunk, ChunkedDocument, Detection, Document, Page, Reason, TableCell, TableRow
from .pipeline import chunk, chunk_document, chunk_text, load_source
from .rulefile import Level, RuleFile, load_rule_file, load_rules

__version__ = "0.1.0"

PUBLIC_MODULES = ("batch", "errors", "pipeline", "readers", "integrations.ray")

__all__ = [
    "Block", "Chunk", "ChunkedDocument", "Detection", "Document", "DomainChunkError", "DomainChunkWarning", "Level",
    "PUBLIC_MODULES", "Page", "ReadError", "Reason", "RuleError", "RuleFile", "TableCell", "TableRow", "UsageError",
    "WriteError", "chunk", "chunk_document", "chunk_text", "load_rule_file", "load_rules", "load_source",
    "__version__",
]
