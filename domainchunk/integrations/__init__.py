"""Optional integrations with other systems; each module imports its library only when used.

* :mod:`domainchunk.integrations.ray` — the batch conversion as a Ray Data job
  (``pip install 'domainchunk[ray]'``).
"""
