"""domainchunk: cut Chinese legal and medical documents into retrieval chunks along their structure.

    >>> import domainchunk
    >>> result = domainchunk.chunk("劳动合同法.txt", max_chars=1000)
    >>> result.detection.doc_type, result.chunks[0].path
"""
from .errors import DomainChunkError, ReadError, RuleError, UsageError
from .models import Block, Chunk, ChunkedDocument, Detection, Document, Page, Reason, TableCell, TableRow
from .pipeline import chunk, chunk_document, load_source
from .rulefile import Level, RuleFile, load_rule_file, load_rules

__version__ = "0.1.0"

__all__ = [
    "Block", "Chunk", "ChunkedDocument", "Detection", "Document", "DomainChunkError", "Level", "Page",
    "ReadError", "Reason", "RuleError", "RuleFile", "TableCell", "TableRow", "UsageError", "chunk",
    "chunk_document", "load_rule_file", "load_rules", "load_source", "__version__",
]
