"""Imported by the batch fork server: workers fork from a process that has already parsed the
built-in rule files and compiled their patterns, instead of each doing it for its first document."""
from .outline import warm_patterns
from .rulefile import load_rules

warm_patterns(load_rules().values())
