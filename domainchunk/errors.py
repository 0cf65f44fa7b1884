"""Errors that name the input and the cause, so the CLI can print one line, not a traceback."""
from __future__ import annotations


class DomainChunkError(Exception):
    """Base class: ``source`` is the file (or rule file) concerned, ``cause`` a short reason."""

    stage = "chunk"

    def __init__(self, source: str, cause: str):
        super().__init__(f"{source}: {cause}")
        self.source = source
        self.cause = cause


class ReadError(DomainChunkError):
    """The input could not be read: empty, binary, undecodable, encrypted, scanned, corrupt."""

    stage = "read"


class RuleError(DomainChunkError):
    """A rule file is invalid: bad YAML, unknown key, a pattern that does not compile."""

    stage = "rules"


class UsageError(DomainChunkError):
    """A caller asked for something that does not exist (an unknown doc_type, say)."""

    stage = "usage"


class WriteError(DomainChunkError):
    """An output could not be written (disk full, no permission); ``source`` is the output."""

    stage = "write"


class DomainChunkWarning(UserWarning):
    """Something a user should know that is not a failure (an empty file gives no chunks)."""


__all__ = ["DomainChunkError", "DomainChunkWarning", "ReadError", "RuleError", "UsageError", "WriteError"]
