"""The ``domainchunk`` command: chunk, detect, and rule-file tools.

Every failure is one line naming the file and the cause; with several inputs
the rest still run and the exit code says some failed.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TextIO

from .errors import UsageError, WriteError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
# Seconds one document may take by default: far past any real document (the slowest shared one
# takes a few seconds), so only a pathological input is stopped rather than hanging the batch.
DEFAULT_TIMEOUT = 600.0


def _err(msg: str) -> None:
    print(f"domainchunk: {msg}", file=sys.stderr)


# Inside main(), until the command's start-up is done: whether the cyclic collector was on before.
# A command starts by importing pydantic, the rule files and the pipeline: tens of thousands of
# objects that live as long as the process. Left on, the collector walked them again and again
# as they accumulated, and once more at exit: a tenth of a one-file command.
_starting: list[bool] = []


def start_up_done() -> None:
    """The command has loaded what it keeps: that is frozen (never walked again, by the
    collector here, at exit, or in forked workers, whose pages it so keeps shared, as the ``gc``
    documentation advises before a fork) and the collector, paused by main(), runs again."""
    if _starting:
        was_on = _starting.pop()
        gc.freeze()
        if was_on:
            gc.enable()


class Progress:
    """A one-line progress bar on a terminal: files done/total, chunks, errors, files/s, ETA."""

    WIDTH = 24

    def __init__(self, total: int, stream: TextIO, enabled: bool, summary: bool = True):
        # enabled: the live bar (a terminal only); summary: the closing line, wherever stderr goes
        self.total, self.stream, self.enabled, self.summary = total, stream, enabled, summary
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
        if not self.summary:
            return
        rate = summary.total / summary.seconds if summary.seconds else 0.0
        parts = [f"{summary.done} converted", f"{summary.skipped} unchanged" if summary.skipped else "",
                 f"{summary.failed} failed (see {summary.errors_file})" if summary.errors_file else
                 (f"{summary.failed} failed" if summary.failed else "")]
        self.stream.write(("\r\x1b[K" if self.enabled else "") + f"{summary.total} files: " + ", ".join(p for p in parts if p)
                          + f"; {summary.chunks} chunks in {summary.seconds:.1f}s ({rate:.1f} files/s)\n")
        self.stream.flush()


def worker_context(warm: bool = True, suffixes: Iterable[str] = ()) -> Any:
    """How the command starts its workers: a choice for this process alone, so made here, not in the library.

    With one thread the command forks its workers directly: they start at once with everything
    it has loaded (rules, readers), where a fork server would boot a fresh interpreter first.
    A process running threads must not fork: its workers come from a fork server that has
    imported domainchunk and compiled the rules once. ``warm=False`` (a single worker) skips
    loading every rule file up front. With ``warm``, the rule files, the detector's signals and
    the readers of the files' ``suffixes`` are loaded before the fork, so that no worker makes its
    own copy (pypdfium2, lxml); each worker compiles the outline patterns of the types it meets.
    """
    import importlib
    import multiprocessing as mp  # here, not at the top: `--version`, `rules`, `detect` start no workers

    methods = mp.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        if not warm:
            gc.freeze()  # what the worker inherits is never garbage (see below)
            return mp.get_context("fork")
        from .outline import warm_patterns
        from .regexcache import Miss, hits_only
        from .rulefile import load_rules

        # The rule files, the detector's signals and the hooks are made once here, before forking,
        # so every worker shares them. So are the outline's patterns where the pattern cache holds
        # them (every type's in ~0.1 s, ~20 MB that each worker would otherwise build for itself);
        # a type it does not hold (the first run after an install) is compiled by each worker that
        # meets it, all at once, where compiling here (the regex module parses in Python, ~2 s)
        # would run on one core while the others wait. Nor is jieba loaded here: its dictionary
        # costs more CPU (~1.5 s) than most batches spend on the fallback that needs it, so a
        # worker loads it on first use.
        registry = load_rules().values()
        for rules in registry:  # what the detector and each type's hooks use: compiled and imported once
            for signal in rules.detect.signals:
                signal.regex  # noqa: B018 - compiled here, the cached property is what workers read
            rules.hook_module()
            try:
                with hits_only():
                    warm_patterns([rules])
            except Miss:
                pass
        from .errors import DomainChunkError
        from .readers import LAZY_LIBRARIES, reader_for

        for suffix in set(suffixes):
            try:
                reader_for("file" + suffix)
                for library in LAZY_LIBRARIES.get(suffix, ()):
                    importlib.import_module(library)
            except (DomainChunkError, ImportError):  # a reader's library is missing: each of its files says so
                pass
        # What the workers inherit is never garbage: left to the collector, every worker would
        # walk (and so copy, page by page) the parent's whole heap.
        gc.freeze()
        return mp.get_context("fork")
    if "forkserver" in methods:
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(
            ["domainchunk.batch", "domainchunk.pipeline", "domainchunk.readers.pdf", "domainchunk.readers.docx",
             "domainchunk._preload"]
        )
        return ctx
    return mp.get_context("spawn")


@contextmanager
def terminate_as_exit() -> Iterator[Callable[[], None]]:
    """``kill -TERM`` unwinds like Ctrl-C, so temporary files are removed and workers stopped.

    Yields a check to call between documents: the handler's SystemExit is lost when the signal
    lands inside a ``__del__`` (Python ignores exceptions there), so the signal is also
    remembered and raised again at the next check.
    """
    received: list[int] = []

    def stop(signum: int, frame: Any) -> None:
        received.append(signum)
        raise SystemExit(128 + signum)

    def check() -> None:
        if received:
            raise SystemExit(128 + received[0])

    if threading.current_thread() is not threading.main_thread():
        yield check
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield check
    finally:
        signal.signal(signal.SIGTERM, previous)


def _options(args: argparse.Namespace) -> Any:
    from .batch import Options

    return Options(doc_type=args.doc_type, max_chars=args.max_chars, rules_dir=args.rules,
                   mask_phi=args.mask_phi, fmt=args.format, context_fit=args.context_fit,
                   pack=args.pack, parents=args.parents, overlap=args.overlap, tokenizer=args.tokenizer,
                   allow_hooks=tuple(args.allow_hook or ()))


def chunk_stdin(args: argparse.Namespace) -> int:
    """``domainchunk chunk -``: one document from standard input (text, or PDF/DOCX bytes), chunked in this process."""
    from .batch import check_options, convert_bytes, error_line, output_layout, write_atomic
    from .errors import DomainChunkError

    options = _options(args)
    try:
        check_options(options)
        if args.output and output_layout(args.output)[1]:
            raise UsageError("-o", "standard input gives one document: write it to a file or to standard output")
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_USAGE
    start_up_done()
    out = convert_bytes(sys.stdin.buffer.read(), "-", options)
    for note in out.notes:
        _err(f"warning: {note}")
    if out.error:
        _err(error_line(out.error))
        return EXIT_FAILED
    payload = out.payload if isinstance(out.payload, str) else None
    if payload is None:  # parquet rows
        _err("standard input: --format parquet needs -o FILE.parquet and a file input")
        return EXIT_USAGE
    if args.output:
        write_atomic(Path(args.output), payload)
    else:
        sys.stdout.write(payload)
    if not args.quiet:
        print(f"1 file: 1 converted; {out.chunks} chunks in {out.seconds:.1f}s", file=sys.stderr)
    return EXIT_OK


def cmd_chunk(args: argparse.Namespace) -> int:
    from .batch import Batch, collect_inputs, error_line, output_layout, run_batch, side_files
    from .errors import DomainChunkError

    if args.paths == ["-"]:
        return chunk_stdin(args)
    output, to_dir = output_layout(args.output)
    try:
        # our own outputs and sidecars are never inputs
        sidecars = [p for p in side_files(output, to_dir) if p is not None]
        skip: list[Path] = [p for p in (output, *sidecars, *(p.parent for p in sidecars)) if p is not None]
        if "-" in args.paths:
            raise UsageError("-", "standard input is read alone: give - as the only path")
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
    options = _options(args)
    # More workers than inputs would only start (and warm) processes that never get a file.
    jobs = min(args.jobs or os.cpu_count() or 1, len(inputs))
    timeout = None if args.no_timeout else (args.timeout or DEFAULT_TIMEOUT)
    in_process = jobs <= 1 and timeout is None
    batch = Batch(inputs, options, output=output, to_dir=to_dir, jobs=jobs, timeout=timeout, resume=args.resume,
                  context=None if in_process else worker_context(
                      warm=jobs > 1, suffixes={i.path.suffix.lower() for i in inputs}))
    progress = Progress(len(inputs), sys.stderr, enabled=not args.quiet and sys.stderr.isatty(), summary=not args.quiet)

    interrupted: Callable[[], None] = lambda: None

    def on_event(event) -> None:
        interrupted()  # a TERM that arrived while the document was being chunked stops here at the latest
        for note in event.notes:
            progress.say(f"domainchunk: warning: {note}")
        if event.error:
            progress.say("domainchunk: " + error_line(event.error))
        elif args.verbose:
            progress.say(f"{event.status:7} {event.name}  {event.chunks} chunks  {event.seconds:.2f}s")
        progress.update(event)

    try:
        with terminate_as_exit() as interrupted:
            summary = run_batch(batch, on_event, on_start=start_up_done)
    except WriteError as exc:  # the disk, not the command line: nothing was left half-written
        _err(str(exc))
        return EXIT_FAILED
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
    start_up_done()
    failed = 0
    for path in _documents(args.paths):
        try:
            doc = read_document(path)
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

    if args.action == "diff":
        return cmd_rules_diff(args)
    if args.action == "docs":
        return _rules_docs(args.dir[0] if args.dir else None)
    if len(args.dir) > 1:
        _err(f"rules {args.action}: one rules folder at most")
        return EXIT_USAGE
    try:
        registry = load_rules(args.dir[0] if args.dir else None, allow_hooks=args.allow_hook or ())
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_FAILED
    start_up_done()
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
        legacy = sum(len(r.unconverted()) for r in registry.values())
        if legacy:  # accepted for now, and listed in tests/unconverted/ until converted
            print(f"{legacy} rules not yet written as variants with examples (a level's one `pattern:`, "
                  "a signal without `examples:`)")
        return EXIT_FAILED if bare else EXIT_OK
    results = run_cases(registry) + [c for _, r in sorted(registry.items()) for c in check_patterns(r)]
    bad = [res for res in results if res.failures]
    for res in bad:
        for f in res.failures:
            print(f"FAIL {res.id}: {f}")
    print(f"{len(results) - len(bad)} passed, {len(bad)} failed")
    return EXIT_FAILED if bad else EXIT_OK


def _documents(paths: list[str]) -> list[Path]:
    """The files ``chunk`` would take for these arguments: files, folders (recursive), @lists."""
    from .batch import collect_inputs

    return [i.path for i in collect_inputs(paths)]


def cmd_view(args: argparse.Namespace) -> int:
    from .errors import DomainChunkError
    from .phi import failed_input_name
    from .pipeline import chunk
    from .review import review_html

    start_up_done()
    results, failed = [], 0
    for n, path in enumerate(_documents(args.paths), start=1):
        try:
            results.append(chunk(path, doc_type=args.doc_type, max_chars=args.max_chars, rules_dir=args.rules,
                                 mask_phi=args.mask_phi))
        except DomainChunkError as exc:
            # With --mask-phi a file's name may be the patient's: it is named by its place among the inputs.
            _err(f"{failed_input_name(n, path)}: {exc.cause}" if args.mask_phi else str(exc))
            failed += 1
    if not results:
        return EXIT_FAILED
    Path(args.output).write_text(review_html(results, max_chars=args.max_chars, rules_dir=args.rules), encoding="utf-8")
    if not args.quiet:
        print(f"{args.output}: {len(results)} documents, {sum(len(r.chunks) for r in results)} chunks", file=sys.stderr)
    return EXIT_FAILED if failed else EXIT_OK


def cmd_rules_diff(args: argparse.Namespace) -> int:
    from functools import partial

    from .errors import DomainChunkError
    from .pipeline import chunk
    from .rulefile import load_rules
    from .rulesdiff import diff_corpus, diff_html, summary_lines

    if len(args.dir) < 3:
        _err("rules diff: usage: domainchunk rules diff OLD_RULES_DIR NEW_RULES_DIR CORPUS...")
        return EXIT_USAGE
    old, new, *corpus = args.dir
    try:
        load_rules(old), load_rules(new)
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_USAGE
    start_up_done()
    options = dict(max_chars=args.max_chars, mask_phi=args.mask_phi)
    diffs = diff_corpus(_documents(corpus), partial(chunk, rules_dir=old, **options), partial(chunk, rules_dir=new, **options),
                        masked=args.mask_phi)
    for line in summary_lines(diffs):
        print(line)
    if args.html:
        Path(args.html).write_text(diff_html(diffs, old, new), encoding="utf-8")
    return EXIT_FAILED if any(d.changed for d in diffs) else EXIT_OK


def _rules_docs(outdir: str | None) -> int:
    from .errors import DomainChunkError
    from .ruledocs import write_docs

    start_up_done()
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
    from . import __version__

    p.add_argument("--version", action="version", version=f"domainchunk {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("chunk", help="chunk files or folders into JSONL",
                       description="Chunk documents: files, folders (recursive) or @list files (one path a line).")
    c.add_argument("paths", nargs="+", help="PDF, DOCX, TXT or Markdown files, folders, or @paths.txt; "
                   "- alone reads one document from standard input")
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
    c.add_argument("--pack", action="store_true", help="merge consecutive units under the same heading into chunks "
                   "of up to --max-chars, never cutting a unit")
    c.add_argument("--parents", action="store_true", help="also write one record per enclosing heading (编/章/节, "
                   "part), kind parent, which parent_id points at")
    c.add_argument("--overlap", type=int, default=0, help="the pieces of an oversize unit overlap by up to this "
                   "size, never across units")
    c.add_argument("--tokenizer", default=None, help="measure sizes in tokens: a HuggingFace tokenizers JSON file, "
                   "tiktoken:ENCODING (pip install tiktoken) or jieba (words)")
    c.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores); "
                   "the output is the same whatever the number")
    c.add_argument("--timeout", type=float, default=None, help="seconds one document may take before it is stopped "
                   f"and reported as failed (default: {DEFAULT_TIMEOUT:g})")
    c.add_argument("--no-timeout", action="store_true", help="no time limit (with --jobs 1: convert in this process)")
    c.add_argument("--context-fit", action="store_true", help="keep each chunk's context_text (title, breadcrumb and text) "
                   "within --max-chars, not only its text")
    c.add_argument("--resume", action="store_true", help="skip inputs whose output is up to date (same content, "
                   "rules and options, per the manifest beside the output)")
    c.add_argument("--allow-hook", action="append", metavar="NAME",
                   help="enable the installed hook entry point NAME (group domainchunk.hooks) that a --rules file "
                   "names in `hooks:`; repeatable. Hooks run code: nothing else is imported")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    c.add_argument("-v", "--verbose", action="store_true", help="log each file on standard error")
    c.set_defaults(func=cmd_chunk)
    d = sub.add_parser("detect", help="print each file's document type, score and reasons")
    d.add_argument("paths", nargs="+", help="files, folders (recursive) or @paths.txt, as for chunk")
    d.add_argument("--rules", default=None)
    d.set_defaults(func=cmd_detect)
    v = sub.add_parser("view", help="write a review page: every chunk boundary marked, with its rule and metadata",
                       description="One self-contained HTML file (no network) for reviewing how documents were chunked.")
    v.add_argument("paths", nargs="+", help="files or folders")
    v.add_argument("-o", "--output", default="review.html", help="the HTML file to write (default: review.html)")
    v.add_argument("--doc-type", default="auto")
    v.add_argument("--max-chars", type=int, default=None)
    v.add_argument("--rules", default=None)
    v.add_argument("--mask-phi", action="store_true", help="show the masked text")
    v.add_argument("-q", "--quiet", action="store_true")
    v.set_defaults(func=cmd_view)
    r = sub.add_parser("rules", help="list, check, test, document or diff rule files",
                       description="diff: domainchunk rules diff OLD_RULES_DIR NEW_RULES_DIR CORPUS... [--html F] "
                       "chunks the corpus with both rule sets and reports every boundary that changed (exit 1 if any).")
    r.add_argument("action", choices=["list", "check", "test", "schema", "docs", "diff"],
                   help="test runs every case and every variant's and signal's examples; schema prints the rule "
                   "files' JSON Schema (docs/rulefile.schema.json); docs OUTDIR writes one Markdown page per "
                   "built-in rule file (docs/rules/); diff compares two rule folders on a corpus")
    r.add_argument("dir", nargs="*", default=None, help="a folder of rule files (added to the built-in ones); "
                   "for docs, the folder to write into; for diff: OLD_DIR NEW_DIR then documents or folders")
    r.add_argument("--allow-hook", action="append", metavar="NAME",
                   help="enable the installed hook entry point NAME (group domainchunk.hooks) that a rule file "
                   "names in `hooks:`; repeatable. Hooks run code: nothing else is imported")
    r.add_argument("--html", default=None, help="diff: also write the report as HTML")
    r.add_argument("--max-chars", type=int, default=None, help="diff: size limit of a chunk")
    r.add_argument("--mask-phi", action="store_true", help="diff: mask identifying values in what the report "
                   "quotes, and name each document by its pseudonym")
    r.set_defaults(func=cmd_rules)
    return p


def main(argv: Iterable[str] | None = None) -> int:
    _starting.append(gc.isenabled())
    gc.disable()  # until start_up_done()
    try:
        args = build_parser().parse_args(None if argv is None else list(argv))
        from .regexcache import serving  # after parsing: --version and --help load no rules

        try:
            with serving():  # before the rule modules import: their own patterns come from the cache too
                return args.func(args)
        except KeyboardInterrupt:
            _err("interrupted")
            return 130
        except BrokenPipeError:
            return EXIT_OK
    finally:
        start_up_done()  # for a command that ended before its work (a usage error, --help)


if __name__ == "__main__":
    sys.exit(main())
