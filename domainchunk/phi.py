"""Masking of identifying fields in medical records (filled in by the medical-records work)."""
from __future__ import annotations

from .models import Document


def mask_document(doc: Document) -> Document:
    """A copy of ``doc`` whose identifying values are replaced by typed placeholders such as ``[姓名]``."""
    raise NotImplementedError("PHI masking is not built yet")
