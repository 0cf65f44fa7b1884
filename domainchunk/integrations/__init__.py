"""Optional integrations with other systems; each module imports its library only when used.

* :mod:`domainchunk.integrations.ray` — the batch conversion as a Ray Data job
  (``pip install 'domainchunk[ray]'``).
* :mod:`domainchunk.integrations.langchain` — ``DomainChunkSplitter`` (a ``TextSplitter``) and
  ``DomainChunkLoader`` (``pip install 'domainchunk[langchain]'``).
* :mod:`domainchunk.integrations.llamaindex` — ``DomainChunkNodeParser`` and ``DomainChunkReader``
  (``pip install 'domainchunk[llamaindex]'``).
"""
