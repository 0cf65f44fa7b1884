"""Imported by the batch fork server: workers fork from a process that has already parsed the
built-in rule files and compiled their patterns, instead of each doing it for its first document.
The fork server is the command's own process: its compiles are served from the pattern cache too."""
from .regexcache import install

install()

from .outline import warm_patterns  # noqa: E402 - compiled through the cache just installed
from .rulefile import load_rules

warm_patterns(load_rules().values())
