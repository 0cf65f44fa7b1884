"""The ``domainchunk`` command: chunk, detect, and rule-file tools.

Every failure is one line naming the file and the cause; with several inputs
the rest still run and the exit code says some failed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Iterable, TextIO

from .errors import UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _err(msg: str) -> None:
    print(f"domainchunk: {msg}", file=sys.stderr)


class Progress:
    """A one-line progress bar on a terminal: files done/total, chunks, errors, files/s, ETA."""

    WIDTH = 24

    def __init__(self, total: int, stream: TextIO, enabled: bool):
        self.total, self.stream, self.enabled = total, stream, enabled
        self.files = self.chunks = self.errors = 0
        self.started = self.shown = time.monotonic()

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = self.files / elapsed
        filled = self.WIDTH * self.files // max(self.total, 1)
        eta = f"{(self.total - self.files) / rate:.0f}s" if rate else "?"
        return (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {self.files}/{self.total} files"
                f"  {self.chunks} chunks  {self.errors} errors  {rate:.1f} files/s  ETA {eta}")

    def update(self, event) -> None:
        self.files += 1
        self.chunks += event.chunks
        self.errors += event.status == "failed"
        now = time.monotonic()
        if self.enabled and (now - self.shown >= 0.1 or self.files == self.total):
            self.shown = now
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()

    def say(self, message: str) -> None:
        """A line above the bar (an error, a -v log line)."""
        if self.enabled:
            self.stream.write("\r\x1b[K")
        print(message, file=self.stream)
        if self.enabled and self.files:
            self.stream.write(self.line())
            self.stream.flush()

    def finish(self, summary) -> None:
        if not self.enabled:
            return
        rate = summary.total / summary.seconds if summary.seconds else 0.0
        parts = [f"{summary.done} converted", f"{summary.skipped} unchanged" if summary.skipped else "",
                 f"{summary.failed} failed (see {summary.errors_file})" if summary.errors_file else
                 (f"{summary.failed} failed" if summary.failed else "")]
        self.stream.write("\r\x1b[K" + f"{summary.total} files: " + ", ".join(p for p in parts if p)
                          + f"; {summary.chunks} chunks in {summary.seconds:.1f}s ({rate:.1f} files/s)\n")
        self.stream.flush()


def cmd_chunk(args: argparse.Namespace) -> int:
    from .batch import Batch, Options, collect_inputs, error_line, output_layout, run_batch, side_files
    from .errors import DomainChunkError

    output, to_dir = output_layout(args.output)
    try:
        skip = [output] if to_dir else [p for p in (output, *side_files(output, to_dir)) if p is not None]
        inputs = collect_inputs(args.paths, args.glob, skip)
        if not inputs:
            raise UsageError("chunk", "no input files" + (f" match --glob {' '.join(args.glob)}" if args.glob else ""))
        if args.jobs is not None and args.jobs < 1:
            raise UsageError("--jobs", "must be at least 1")
        if args.timeout is not None and args.timeout <= 0:
            raise UsageError("--timeout", "must be more than 0 seconds")
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_USAGE
    options = Options(doc_type=args.doc_type, max_chars=args.max_chars, rules_dir=args.rules,
                      mask_phi=args.mask_phi, fmt=args.format)
    batch = Batch(inputs, options, output=output, to_dir=to_dir, jobs=args.jobs or os.cpu_count() or 1,
                  timeout=args.timeout, resume=args.resume)
    progress = Progress(len(inputs), sys.stderr, enabled=not args.quiet and sys.stderr.isatty())

    def on_event(event) -> None:
        if event.error:
            progress.say("domainchunk: " + error_line(event.error))
        elif args.verbose:
            progress.say(f"{event.status:7} {event.input.path}  {event.chunks} chunks  {event.seconds:.2f}s")
        progress.update(event)

    try:
        summary = run_batch(batch, on_event)
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_USAGE
    progress.finish(summary)
    return EXIT_FAILED if summary.failed else EXIT_OK


def cmd_detect(args: argparse.Namespace) -> int:
    from .detect import detect
    from .errors import DomainChunkError
    from .readers import read_document
    from .rulefile import load_rules

    try:
        registry = load_rules(args.rules)
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_USAGE
    failed = 0
    for path in args.paths:
        try:
            doc = read_document(Path(path))
        except DomainChunkError as exc:
            _err(str(exc))
            failed += 1
            continue
        d = detect(doc.text, registry)
        print(f"{path}\t{d.doc_type}\t{d.score:.1f}")
        for line in d.explain().splitlines()[1:]:
            print(line)
    return EXIT_FAILED if failed else EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    from .errors import DomainChunkError
    from .examples import check_patterns, rules_without_cases, run_cases
    from .rulefile import load_rules

    if args.action == "docs":
        return _rules_docs(args.dir)
    try:
        registry = load_rules(args.dir, allow_hooks=args.allow_hook or ())
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_FAILED
    if args.action == "schema":
        from .rulefile import json_schema

        print(json.dumps(json_schema(), ensure_ascii=False, indent=1))
        return EXIT_OK
    if args.action == "list":
        for doc_type, r in sorted(registry.items()):
            print(f"{doc_type}\tv{r.version}\t{len(r.levels)} levels\t{len(r.cases)} cases\t{r.path}")
        return EXIT_OK
    if args.action == "check":
        bare = [(r.id, lv) for r in registry.values() for lv in rules_without_cases(r)]
        for rid, lv in bare:
            _err(f"{rid}: rule {lv} has no cases")
        print(f"{len(registry)} rule files valid" + (f", {len(bare)} rules without cases" if bare else ""))
        return EXIT_FAILED if bare else EXIT_OK
    results = run_cases(registry) + [c for _, r in sorted(registry.items()) for c in check_patterns(r)]
    bad = [r for r in results if r.failures]
    for r in bad:
        for f in r.failures:
            print(f"FAIL {r.id}: {f}")
    print(f"{len(results) - len(bad)} passed, {len(bad)} failed")
    return EXIT_FAILED if bad else EXIT_OK


def _rules_docs(outdir: str | None) -> int:
    from .errors import DomainChunkError
    from .ruledocs import write_docs

    if not outdir:
        _err("rules docs: give the folder to write into (docs/rules)")
        return EXIT_USAGE
    try:
        written = write_docs(Path(outdir))
    except (DomainChunkError, OSError) as exc:
        _err(str(exc))
        return EXIT_FAILED
    print(f"{len(written)} files written to {outdir}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="domainchunk", description="Structure-aware chunking of Chinese legal and medical documents.")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("chunk", help="chunk files or folders into JSONL",
                       description="Chunk documents: files, folders (recursive) or @list files (one path a line).")
    c.add_argument("paths", nargs="+", help="PDF, DOCX, TXT or Markdown files, folders, or @paths.txt")
    c.add_argument("-o", "--output", help="output file, or a folder (existing, or ending in /) for one file per "
                   "input mirroring the input tree (default: standard output)")
    c.add_argument("--glob", action="append", help="in folders, take files whose name (or relative path) matches; "
                   "repeatable (default: every file a reader exists for)")
    c.add_argument("--doc-type", default="auto", help="auto (detect), or a rule file's doc_type")
    c.add_argument("--max-chars", type=int, default=None, help="size limit of a chunk in characters")
    c.add_argument("--rules", default=None, help="folder of rule files that add to or override the built-in ones")
    c.add_argument("--format", choices=["jsonl", "json", "text", "parquet"], default="jsonl",
                   help="parquet needs pyarrow (pip install 'domainchunk[parquet]')")
    c.add_argument("--mask-phi", action="store_true", help="mask identifying fields (姓名, 身份证号, 电话 …) in medical records")
    c.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores); "
                   "the output is the same whatever the number")
    c.add_argument("--timeout", type=float, default=None, help="seconds one document may take before it is stopped "
                   "and reported as failed")
    c.add_argument("--resume", action="store_true", help="skip inputs whose output is up to date (same content, "
                   "rules and options, per the manifest beside the output)")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    c.add_argument("-v", "--verbose", action="store_true", help="log each file on standard error")
    c.set_defaults(func=cmd_chunk)
    d = sub.add_parser("detect", help="print each file's document type, score and reasons")
    d.add_argument("paths", nargs="+")
    d.add_argument("--rules", default=None)
    d.set_defaults(func=cmd_detect)
    r = sub.add_parser("rules", help="list, check, test or document rule files")
    r.add_argument("action", choices=["list", "check", "test", "schema", "docs"],
                   help="test runs every case and every variant's and signal's examples; schema prints the rule "
                   "files' JSON Schema (docs/rulefile.schema.json); docs OUTDIR writes one Markdown page per "
                   "built-in rule file (docs/rules/)")
    r.add_argument("dir", nargs="?", default=None, help="a folder of rule files (added to the built-in ones); "
                   "for docs, the folder to write into")
    r.add_argument("--allow-hook", action="append", metavar="NAME",
                   help="enable the installed hook entry point NAME (group domainchunk.hooks) that a rule file "
                   "names in `hooks:`; repeatable. Hooks run code: nothing else is imported")
    r.set_defaults(func=cmd_rules)
    return p


def main(argv: Iterable[str] | None = None) -> int:
    args = build_parser().parse_args(None if argv is None else list(argv))
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
