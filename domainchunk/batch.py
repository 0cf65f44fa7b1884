"""Batch conversion: many inputs → JSONL (or JSON, text, Parquet) in worker processes.

The engine behind ``domainchunk chunk``, kept apart from argument parsing so
that Python code (and the Ray integration) can drive it:

* :func:`collect_inputs` expands files, folders (recursive, ``--glob``) and
  ``@list`` files into :class:`Input` s, each with the path that ``-o DIR``
  mirrors.
* :func:`convert_bytes` / :func:`convert_file` turn one document into its
  rendered output or one error record; nothing raises past them, so one bad
  file never stops a batch.
* :func:`run_ordered` runs a function over tasks in worker processes and yields
  results in input order, with a bounded reorder window (memory stays flat), a
  per-task time limit (the worker is killed and replaced) and crash isolation.
* :func:`run_batch` ties them together with sinks that write atomically (temp
  file + rename) and a manifest that lets ``--resume`` skip unchanged inputs.

How workers start (fork, fork server, spawn) is the caller's choice (``Batch.context``):
the library never changes a process-wide setting; the CLI picks for itself.
"""
from __future__ import annotations

import fnmatch
import hashlib
import hmac
import json
import os
import secrets
import signal
import stat
import sys
import tempfile
import threading
import time
import warnings
from collections import deque
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from .errors import DomainChunkError, DomainChunkWarning, UsageError, WriteError

if TYPE_CHECKING:  # multiprocessing and ctypes are imported where workers start: a run in one process needs neither
    from multiprocessing.connection import Connection

FORMATS = ("jsonl", "json", "text", "parquet")
SUFFIX = {"jsonl": ".jsonl", "json": ".json", "text": ".txt", "parquet": ".parquet"}
# Sidecars live in a folder of their own, so that `cat OUT/*.jsonl` and a Parquet reader of OUT
# see only chunks (pyarrow skips names starting with "_").
SIDECAR_DIR = "_domainchunk"
MANIFEST_NAME = "manifest.jsonl"
PSEUDONYM_KEY = "pseudonyms.key"  # --mask-phi: the key of the names shown for inputs
ERRORS_NAME = "errors.jsonl"
TIMEOUT_GRACE = 0.5  # seconds past --timeout before a worker is killed (process start, IPC)
# Results that may wait, per worker, behind an earlier slow document. At 4 per worker one large
# PDF stalled both workers within seconds (the speed-up of --jobs 2 stayed near 1.4x); the
# waiting results are rendered text, a few kB each, so a deeper window costs little memory.
WINDOW_PER_JOB = 32
# A worker is replaced by a fresh one after this many documents or once its resident memory
# has grown this many MB past what it held after its first: what a long batch leaves behind in a worker (allocator fragmentation,
# caches filled by one odd document) is returned, so memory stays flat however many files.
RECYCLE_FILES = 500
RECYCLE_MB = 200
# A worker hands the memory its documents freed back to the system once its resident size has
# grown this many MB since it last did: glibc keeps it (~30 MB a worker within a few dozen mixed
# files, nothing of it live), so a long batch held half as much again as a short one.
TRIM_MB = 8
# Tasks handed to a worker at once: the next one waits in its pipe, so a worker that finishes
# starts on it at once instead of idling until this process, busy writing outputs, sends one.
PIPELINE = 2


# ---------------------------------------------------------------- options

@dataclass(frozen=True)
class Options:
    """What a document is converted with; travels to the workers (and Ray tasks)."""

    doc_type: str = "auto"
    max_chars: int | None = None
    rules_dir: str | None = None
    mask_phi: bool = False
    fmt: str = "jsonl"
    # Retrieval options (domainchunk.packing); the tokenizer travels as its spec, built in the worker.
    pack: bool = False
    parents: bool = False
    overlap: int = 0
    tokenizer: str | None = None

    context_fit: bool = False
    # hook entry points (group domainchunk.hooks) enabled on purpose: they run code
    allow_hooks: tuple[str, ...] = ()


def _sha(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the package's Python source: a code change redoes outputs that --resume kept."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


class Fingerprints:
    """What each output depends on, by the doc_type it was chunked as, for the manifest to compare.

    An output depends on the package's code, the options, and its type's rule file; with
    detection (``--doc-type auto``) also on every rule file's ``detect`` section, since any of
    them could claim the document. Editing one type's levels redoes only that type's outputs.
    """

    def __init__(self, options: Options, registry: dict[str, Any]):
        self.options, self.registry = options, registry
        self.detect = _sha(*(f"{t}:{r.detect.model_dump_json()}" for t, r in sorted(registry.items()))) \
            if options.doc_type == "auto" else ""
        self.phi = None
        if options.mask_phi:  # masking reads the medical rule file's PHI vocabulary whatever the document's type
            from .phi import fingerprint as phi_fingerprint  # here: the masker is imported only to mask

            self.phi = phi_fingerprint(registry.get("medical_record"))
        self._keys: dict[str | None, dict[str, Any]] = {}

    def key(self, doc_type: str | None) -> dict[str, Any]:
        """The recipe of an output of ``doc_type``: computed once per type (hashing a rule file takes
        milliseconds, and the batch's parent asked it per file); the dict returned is shared, read only."""
        if doc_type not in self._keys:
            rules = self.registry.get(doc_type or "")
            # Every option is part of the output's recipe; the rules folder counts by its files' content.
            # (as the manifest's JSON will give it back: tuples as lists)
            options = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self.options).items() if k != "rules_dir"}
            self._keys[doc_type] = {"code": code_version(), "rules": rules.fingerprint() if rules else None,
                                    "detect": self.detect, "phi": self.phi, **options}
        return self._keys[doc_type]


def check_options(options: Options) -> Fingerprints:
    """Raise UsageError for what no document can satisfy; return what outputs depend on."""
    from .pipeline import check_limit
    from .rulefile import load_rules

    if options.fmt not in FORMATS:
        raise UsageError("--format", f"unknown format {options.fmt!r} (known: {', '.join(FORMATS)})")
    check_limit("--max-chars", "max_chars", options.max_chars)
    if options.overlap < 0 or (options.max_chars and options.overlap * 2 > options.max_chars):
        raise UsageError("--overlap", "overlap must be between 0 and half of --max-chars")
    if options.tokenizer is not None:
        from .packing import size_function

        size_function(options.tokenizer)  # UsageError names a missing file or package
    registry = load_rules(options.rules_dir, options.allow_hooks)  # RuleError names the bad rule file
    if options.doc_type != "auto" and options.doc_type not in registry:
        known = ", ".join(["auto", *sorted(registry)])
        raise UsageError("--doc-type", f"unknown doc_type {options.doc_type!r} (known: {known})")
    if options.fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError("--format", "parquet needs pyarrow: pip install 'domainchunk[parquet]'") from None
    return Fingerprints(options, registry)


# ---------------------------------------------------------------- inputs

@dataclass(frozen=True)
class Input:
    path: Path  # as given or found (the record's `source`)
    rel: Path  # relative to the common base of the arguments: what -o DIR mirrors
    # The file the path leads to, as collect_inputs resolved it; "": resolved when asked. The
    # batch's parent asked for it twice a file, each a realpath of a few system calls.
    real_path: str = field(default="", compare=False, repr=False)

    @property
    def key(self) -> str:
        return self.real_path or real(self.path)


def real(path: Path) -> str:
    """The file a path leads to; a broken link or a link loop stays as written (never raises)."""
    return os.path.realpath(path)


def expand_lists(args: Sequence[str]) -> list[str]:
    """``@paths.txt`` stands for the paths listed in it, one a line (blank lines and ``#`` comments skipped)."""
    out: list[str] = []
    for arg in args:
        if not arg.startswith("@"):
            out.append(arg)
            continue
        try:
            lines = Path(arg[1:]).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(arg[1:], f"cannot read list file: {getattr(exc, 'strerror', None) or exc}") from None
        out += [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]
    return out


def _matches(folder: Path, path: Path, globs: Sequence[str] | None) -> bool:
    if not globs:  # what a reader exists for: the suffix decides, so the relative path is not made
        from .readers import READERS

        return path.name.lower().endswith(tuple(READERS))
    rel = path.relative_to(folder).as_posix()
    name = rel.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatch(name, g) or fnmatch.fnmatch(rel, g) for g in globs)


def _walk(folder: Path, globs: Sequence[str] | None, skip: set[str]) -> Iterator[tuple[Path, str]]:
    """Files under ``folder`` in sorted order, each with its real path (resolved once: a folder of
    thousands of files spent most of its listing resolving each path three times), hidden entries
    and ``skip`` (real paths) left out."""
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        # os.walk does not descend into linked folders, so a link cycle cannot loop it.
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and real(here / d) not in skip)
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = here / name
            if _matches(folder, path, globs) and (key := real(path)) not in skip:
                yield path, key


def collect_inputs(args: Sequence[str], globs: Sequence[str] | None = None, skip: Iterable[Path] = ()) -> list[Input]:
    """The inputs in argument order (folders sorted), each once; ``skip`` holds our own outputs.

    A link to a file is followed wherever it points (git-annex and DVC keep data so) and is
    mirrored under its own name; a broken one or a loop stays an input, whose reading names it.
    """
    skip_set = {real(Path(p)) for p in skip}
    found: list[tuple[Path, Path, str]] = []  # (path, root it is mirrored from, real path)
    for arg in expand_lists(args):
        path = Path(arg)
        if path.is_dir():
            found += [(p, path, key) for p, key in _walk(path, globs, skip_set)]
        else:  # a missing file stays: its conversion reports "file not found"
            found.append((path, path.parent, real(path)))
    seen: set[str] = set()
    unique = []
    for path, root, key in found:
        if key not in seen:
            seen.add(key)
            unique.append((path, root, key))
    if not unique:
        return []
    # Mirrored by where a file is named, not where a link leads (that may be outside every root).
    base = Path(os.path.commonpath([os.path.abspath(root) for _, root, _ in unique]))
    return [Input(path, Path(os.path.abspath(path)).relative_to(base), key) for path, _, key in unique]


# ---------------------------------------------------------------- one document

# Parquet and Ray rows: the JSONL record's fields, metadata as JSON text (its keys vary by document).
ROW_FIELDS = ("index", "text", "start", "end", "path", "kind", "doc_type", "pages", "rule", "source", "metadata",
              "id", "parent_id", "prev_id", "next_id", "children", "size")


def arrow_schema():
    import pyarrow as pa

    return pa.schema([("index", pa.int64()), ("text", pa.string()), ("start", pa.int64()), ("end", pa.int64()),
                      ("path", pa.list_(pa.string())), ("kind", pa.string()), ("doc_type", pa.string()),
                      ("pages", pa.list_(pa.int64())), ("rule", pa.string()), ("source", pa.string()),
                      ("metadata", pa.string()), ("id", pa.string()), ("parent_id", pa.string()),
                      ("prev_id", pa.string()), ("next_id", pa.string()), ("children", pa.list_(pa.string())),
                      ("size", pa.int64())])


# ``json.dumps(record, ensure_ascii=False)`` (and with ``sort_keys``) without a new encoder per
# record: each encoder made once.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_ENCODE_SORTED = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


def to_row(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "metadata": _ENCODE_SORTED(record["metadata"])}


@lru_cache(maxsize=1)
def _chunk_fields() -> tuple[str, ...]:
    from .models import Chunk

    return tuple(Chunk.model_fields)


def written_records(result) -> list[dict[str, Any]]:
    """``result.records()`` as plain data that is written out at once: each chunk's fields as the
    chunk holds them, not copied (``model_dump(mode="json")`` copied every list and dict of every
    chunk, as long as writing the JSON itself). A chunk's fields are JSON data already (str, int,
    None, lists and dicts of them); the title is left out, as the dump leaves it out."""
    fields = _chunk_fields()
    records = []
    for c in (*result.chunks, *result.parents):
        if tuple(c.__dict__) != fields:  # a subclass with fields of its own: as the model dumps it
            records.append(c.to_record())
            continue
        rec = c.__dict__.copy()
        del rec["title"]
        records.append(rec)
    return records


def render(result, fmt: str) -> str | list[dict[str, Any]]:
    """A chunked document as the text written for ``fmt``, or Parquet rows."""
    if fmt == "text":
        return "".join(f"--- {c.source} #{c.index} [{c.kind} {c.rule}] {' > '.join(c.path)}\n{c.text}\n"
                       for c in result.chunks)
    records = written_records(result)
    if fmt == "jsonl":
        return "".join(_ENCODE(rec) + "\n" for rec in records)
    if fmt == "json":
        payload = {"source": result.document.source, "detection": result.detection.model_dump(mode="json"),
                   "chunks": records}
        return json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
    return [to_row(rec) for rec in records]


def error_record(source: str, exc: BaseException, stage: str) -> dict[str, str]:
    """One line for errors.jsonl: file, stage, error kind (class name) and message."""
    if isinstance(exc, DomainChunkError):
        stage, message = exc.stage, exc.cause
    else:
        message = str(exc) or repr(exc)
    return {"file": source, "stage": stage, "kind": type(exc).__name__, "message": " ".join(message.split())}


def error_line(record: dict[str, str]) -> str:
    """An error record as one line: file and cause, and the kind where the cause alone is not ours."""
    ours = {DomainChunkError.__name__, *(c.__name__ for c in DomainChunkError.__subclasses__())}
    kind = "" if record["kind"] in ours else f"{record['kind']}: "
    return f"{record['file']}: {kind}{record['message']}"


@dataclass
class Converted:
    """One document's outcome: its output (``payload``) or its ``error`` record, never both."""

    source: str
    sha256: str | None = None
    payload: str | list[dict[str, Any]] | None = None
    chunks: int = 0
    doc_type: str | None = None
    error: dict[str, str] | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # warnings for the user (an empty file)
    masked_source: str | None = None  # --mask-phi: the pseudonym the chunks carry as their source


def convert_bytes(data: bytes, source: str, options: Options) -> Converted:
    """Read, detect, chunk and render one document; every failure becomes ``error``, every warning a note."""
    from .pipeline import chunk_document
    from .readers import read_document

    started = time.perf_counter()
    out = Converted(source, sha256=hashlib.sha256(data).hexdigest())
    stage = "read"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DomainChunkWarning)
        try:
            doc = read_document(source, data=data)
            stage = "chunk"
            size = None
            if options.tokenizer is not None:
                from .packing import size_function

                size = size_function(options.tokenizer)
            result = chunk_document(doc, options.doc_type, options.max_chars, options.rules_dir, size,
                                    mask_phi=options.mask_phi, context_fit=options.context_fit, pack=options.pack,
                                    parents=options.parents, overlap=options.overlap,
                                    allow_hooks=options.allow_hooks)
            stage = "render"
            out.payload, out.chunks = render(result, options.fmt), len(result.chunks)
            out.doc_type = result.document.doc_type
            if options.mask_phi:  # only the local manifest ties the pseudonym to the real file
                out.masked_source = result.document.source
        except Exception as exc:  # noqa: BLE001 - any failure is this document's, reported as a record
            out.error = error_record(source, exc, stage)
    for w in caught:
        if issubclass(w.category, DomainChunkWarning):
            out.notes.append(str(w.message))
        else:  # not ours to turn into a note: passed on as it came
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    out.seconds = time.perf_counter() - started
    return out


def convert_file(path: str, options: Options) -> Converted:
    from .readers.limits import read_input_bytes

    try:  # names the cause: file not found, a broken link, a link loop, a FIFO …
        data = read_input_bytes(path)
    except DomainChunkError as exc:
        return Converted(path, error=error_record(path, exc, "read"))
    return convert_bytes(data, path, options)


# ---------------------------------------------------------------- worker processes

@dataclass
class WorkerFailure:
    """A task whose worker was killed (time limit) or died (crash): no result came back."""

    kind: str
    message: str


PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL = 0.5  # seconds between checks that the parent is still there


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but not ours to signal
        return True
    return True


def _die_with_parent(parent: int) -> None:
    """Exit when the parent dies, however it dies (kill -9, an OOM kill): no orphan keeps its memory.

    On Linux the kernel sends SIGKILL at the death of our direct parent (PR_SET_PDEATHSIG), which
    is ``parent`` or a fork server that exits with it; elsewhere, and for a parent that died
    before that was set, a thread sees ``parent`` gone or us handed to another process.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no libc symbol: the thread below still watches
            pass
    direct = os.getppid()

    def watch() -> None:
        while os.getppid() == direct and _alive(parent):
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="domainchunk-parent-watch", daemon=True).start()


def _memory_trimmer() -> Callable[[], None]:
    """A call that returns freed memory to the system once resident memory grew ``TRIM_MB``
    since the last time (glibc's ``malloc_trim``; elsewhere it does nothing)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return lambda: None
    pid = os.getpid()
    floor = _resident_mb(pid)

    def check() -> None:
        nonlocal floor
        if _resident_mb(pid) > floor + TRIM_MB:
            trim(0)
            floor = _resident_mb(pid)

    return check


def _serve(conn: Connection, work: Callable[[Any], Any], parent: int) -> None:
    """Worker loop: a task in, its result out, until told to stop (``None``) or the parent is gone."""
    _die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us
    trim = _memory_trimmer()
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        conn.send(work(task))
        trim()  # after the result is sent: the parent never waits for it


@dataclass
class _Slot:
    proc: Any
    conn: Connection
    # Tasks sent to this worker, oldest first: it works on the first, the next waits in its pipe.
    sent: deque[int] = field(default_factory=deque)
    deadline: float = float("inf")  # of the first
    served: int = 0  # tasks done by this process
    start_mb: float = 0.0  # its resident memory after its first task: what it holds for every task
    retiring: bool = False  # due for replacement: sent nothing more, replaced once it has finished


def _resident_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (0 where /proc cannot say: never recycled for memory)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


def run_ordered(work: Callable[[Any], Any], tasks: Sequence[Any], jobs: int,
                timeout: float | None = None, window: int | None = None, context: Any = None,
                recycle_files: int = RECYCLE_FILES, recycle_mb: float = RECYCLE_MB) -> Iterator[Any]:
    """``work(task)`` for each task in ``jobs`` worker processes; results in task order.

    At most ``window`` results wait for an earlier slow one, so memory is bounded
    whatever the batch size. A task over ``timeout`` seconds has its worker killed
    and replaced; a worker that dies takes only its task with it. Either yields a
    :class:`WorkerFailure` in that task's place. Workers exit if this process dies.
    A worker that has done ``recycle_files`` tasks, or holds more than ``recycle_mb``
    MB more than after its first, is stopped between tasks and replaced by a fresh one
    (past ``recycle_mb``, once it has done the task already waiting in its pipe).
    ``context`` is a multiprocessing context (default: the caller's default start method).
    """
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = context or mp.get_context()
    window = window or WINDOW_PER_JOB * jobs
    recycle_files = max(1, recycle_files)
    slots: list[_Slot] = []

    def start() -> _Slot:
        parent, child = ctx.Pipe()
        # The worker's parent is this process, or a fork server this process started.
        proc = ctx.Process(target=_serve, args=(child, work, os.getpid()), daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent)

    def stop(slot: _Slot, kill: bool) -> None:
        if kill:
            slot.proc.kill()
        else:
            try:
                slot.conn.send(None)
            except OSError:
                pass
        slot.proc.join(5)
        if slot.proc.is_alive():
            slot.proc.kill()
            slot.proc.join()
        slot.conn.close()

    done: dict[int, Any] = {}
    retry: list[int] = []  # tasks sent to a worker that died or was killed before it began them
    next_task = next_out = 0

    def deadline() -> float:
        return time.monotonic() + timeout + TIMEOUT_GRACE if timeout else float("inf")

    def dispatch() -> None:
        nonlocal next_task
        for slot in slots:
            while (not slot.retiring and len(slot.sent) < PIPELINE and slot.served + len(slot.sent) < recycle_files
                   and (retry or next_task < min(len(tasks), next_out + window))):
                if retry:
                    index = retry.pop(0)
                else:
                    index, next_task = next_task, next_task + 1
                if not slot.sent:
                    slot.deadline = deadline()
                slot.sent.append(index)
                try:
                    slot.conn.send(tasks[index])
                except OSError:  # it died while idle: the wait below reports the crash
                    break

    def replace(i: int, kill: bool) -> None:
        """A fresh worker in slot ``i``; tasks the old one had not begun go to the next free worker."""
        slot = slots[i]
        retry[:0] = list(slot.sent)
        stop(slot, kill)
        slots[i] = start()

    try:
        slots = [start() for _ in range(min(jobs, len(tasks)))]
        while next_out < len(tasks):
            dispatch()
            busy = [s for s in slots if s.sent]
            nearest = min(s.deadline for s in busy)
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy],
                         None if nearest == float("inf") else max(0.0, nearest - time.monotonic()))
            for i, slot in enumerate(slots):
                if not slot.sent:
                    continue
                result = None
                if slot.conn in ready or slot.proc.sentinel in ready:
                    try:
                        result = slot.conn.recv() if slot.conn.poll() else None
                    except (EOFError, OSError):
                        result = None
                    if result is None:
                        result = WorkerFailure("WorkerCrashed", f"worker process died (exit code {slot.proc.exitcode})")
                elif time.monotonic() >= slot.deadline:
                    result = WorkerFailure("Timeout", f"took longer than {timeout:g} s (--timeout)")
                if result is None:
                    continue
                done[slot.sent.popleft()] = result
                slot.served += 1
                if isinstance(result, WorkerFailure):
                    replace(i, kill=True)
                    continue
                slot.deadline = deadline()  # the next task sent, if any, begins now
                # Growth is what counts: a forked worker's resident memory includes the pages it
                # shares with this process.
                resident = _resident_mb(slot.proc.pid)
                slot.start_mb = slot.start_mb or resident
                if slot.served >= recycle_files or resident - slot.start_mb > recycle_mb:
                    slot.retiring = True
                if slot.retiring and not slot.sent:
                    replace(i, kill=False)
            dispatch()  # before handing results over, so workers run while the caller writes
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
    finally:
        for slot in slots:
            stop(slot, kill=bool(slot.sent))


# ---------------------------------------------------------------- writing

@lru_cache(maxsize=1)
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def writing(path: Path | str) -> Iterator[None]:
    """An OSError while writing (disk full, no permission) as a WriteError naming the output."""
    try:
        yield
    except OSError as exc:
        raise WriteError(str(path), f"cannot write: {exc.strerror or exc}") from None


def _tmp_prefix(path: Path, pid: int) -> str:
    """Temporary files are named after their process, so a later run can tell a dead run's from a live one's."""
    return f".{path.name}.{pid}-"


def remove_stale_tmp(path: Path) -> None:
    """Remove the temporary files of ``path`` left by runs that were killed (their process is gone)."""
    prefix = f".{path.name}."
    for tmp in path.parent.glob(f"{glob_escape(prefix)}*.tmp"):
        pid = tmp.name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


class AtomicFile:
    """A file written under a temporary name and renamed into place on commit.

    A killed run leaves only a hidden ``.NAME.PID-*.tmp`` file, never a truncated
    file under the real name; the next run over the same output removes it.
    """

    def __init__(self, path: Path, binary: bool = False):
        self.path = path
        with writing(path):
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path, os.getpid()), suffix=".tmp", dir=path.parent)
        self.tmp = Path(tmp)
        os.chmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get the usual permissions
        self.file: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")

    def commit(self) -> None:
        # No fsync: the rename is what a killed run cannot tear; after a power loss, the size
        # that the manifest records shows a file the disk did not keep, and --resume redoes it.
        with writing(self.path):
            try:
                self.file.close()
            except OSError:
                self.abort()
                raise
            os.replace(self.tmp, self.path)

    def abort(self) -> None:
        try:
            self.file.close()
        except OSError:  # flushing what is thrown away failed (disk full): nothing to keep
            pass
        self.tmp.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    f = AtomicFile(path)
    try:
        with writing(path):
            f.file.write(text)
    except BaseException:
        f.abort()
        raise
    f.commit()


def _stat(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def file_sha256(path: Path) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


class Sink:
    """Where converted documents go. ``write`` and ``reuse`` say where the output is, for the manifest."""

    resumable = True

    def write(self, inp: Input, conv: Converted) -> dict[str, Any]:
        raise NotImplementedError

    def reuse(self, inp: Input, entry: dict[str, Any]) -> dict[str, Any]:
        """Carry an up-to-date output of an earlier run into this one."""
        return entry

    def drop(self, inp: Input) -> None:
        """The input failed: leave no stale output of an earlier run that looks current."""

    def intact(self, entry: dict[str, Any]) -> bool:
        output = Path(entry["output"])
        return output.is_file() and _stat(output) == {k: entry.get(k) for k in ("size", "mtime_ns")}

    def close(self, ok: bool) -> dict[str, int]:
        """Finish (commit or abort); return the stats of a shared output file, known only now."""
        return {}


class StreamSink(Sink):
    """Standard output, or an output that is not a regular file (``/dev/stdout``, a FIFO): written as it comes."""

    resumable = False

    def __init__(self, stream: IO[str], name: str = "<stdout>", owned: bool = False):
        self.stream, self.name, self.owned = stream, name, owned

    def write(self, inp: Input, conv: Converted) -> dict[str, Any]:
        with writing(self.name):
            self.stream.write(conv.payload)  # type: ignore[arg-type]
            self.stream.flush()
        return {}

    def close(self, ok: bool) -> dict[str, int]:
        if self.owned:
            try:
                with writing(self.name):
                    self.stream.close()
            except WriteError:
                if ok:
                    raise
        return {}


class FileSink(Sink):
    """All documents in one file; an unchanged document's bytes are copied from the last run's file."""

    def __init__(self, path: Path, fmt: str):
        self.path, self.fmt = path, fmt
        remove_stale_tmp(path)
        self.out = AtomicFile(path, binary=True)
        self.writer: Any = None  # pyarrow ParquetWriter, opened on first use
        self.row_groups = 0

    def _append_bytes(self, data: bytes) -> dict[str, Any]:
        offset = self.out.file.tell()
        self.out.file.write(data)
        return {"offset": offset, "length": len(data)}

    def _append_rows(self, table) -> dict[str, Any]:
        import pyarrow.parquet as pq

        if table.num_rows == 0:
            return {"row_group": None}
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.out.file, table.schema)
        self.writer.write_table(table, row_group_size=max(table.num_rows, 1))
        self.row_groups += 1
        return {"row_group": self.row_groups - 1}

    def write(self, inp: Input, conv: Converted) -> dict[str, Any]:
        with writing(self.path):
            if self.fmt == "parquet":
                import pyarrow as pa

                place = self._append_rows(pa.Table.from_pylist(conv.payload, schema=arrow_schema()))
            else:
                place = self._append_bytes(conv.payload.encode("utf-8"))  # type: ignore[union-attr]
        return {"output": str(self.path.resolve()), **place}

    def reuse(self, inp: Input, entry: dict[str, Any]) -> dict[str, Any]:
        if self.fmt == "parquet":
            import pyarrow.parquet as pq

            group = entry.get("row_group")
            place = {"row_group": None} if group is None else self._append_rows(
                pq.ParquetFile(self.path).read_row_group(group))
        else:
            with open(self.path, "rb") as f, writing(self.path):
                f.seek(entry["offset"])
                place = self._append_bytes(f.read(entry["length"]))
        return {**entry, "output": str(self.path.resolve()), **place}

    def close(self, ok: bool) -> dict[str, int]:
        if not ok:
            if self.writer is not None:
                try:
                    self.writer.close()
                except OSError:  # its footer would not fit either: the file is thrown away
                    pass
            self.out.abort()
            return {}
        try:
            with writing(self.path):
                if self.fmt == "parquet":
                    if self.writer is None:  # no rows at all: still a valid, empty Parquet file
                        import pyarrow.parquet as pq

                        self.writer = pq.ParquetWriter(self.out.file, arrow_schema())
                    self.writer.close()
        except WriteError:
            self.out.abort()
            raise
        self.out.commit()
        return _stat(self.path)


class DirSink(Sink):
    """One output file per input, mirroring the input tree under ``root``."""

    def __init__(self, root: Path, fmt: str, names: Callable[[Input], str] | None = None):
        # names: with --mask-phi, outputs are named by pseudonym, flat (folders may name patients too)
        self.root, self.fmt, self.names = root, fmt, names
        self._resolved: dict[Path, Path] = {}  # each output folder resolved once, not once per file in it

    def target(self, inp: Input) -> Path:
        if self.names is not None:
            return self.root / (self.names(inp) + SUFFIX[self.fmt])
        return self.root / inp.rel.parent / (inp.rel.name + SUFFIX[self.fmt])

    def write(self, inp: Input, conv: Converted) -> dict[str, Any]:
        path = self.target(inp)
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            out = AtomicFile(path, binary=True)
            try:
                with writing(path):
                    pq.write_table(pa.Table.from_pylist(conv.payload, schema=arrow_schema()), out.file)
            except BaseException:
                out.abort()
                raise
            out.commit()
        else:
            write_atomic(path, conv.payload)  # type: ignore[arg-type]
        # The file was just renamed into place, so it is no link: its folder is what may resolve elsewhere.
        folder = self._resolved.get(path.parent) or self._resolved.setdefault(path.parent, path.parent.resolve())
        return {"output": str(folder / path.name), **_stat(path)}

    def drop(self, inp: Input) -> None:
        self.target(inp).unlink(missing_ok=True)


# ---------------------------------------------------------------- the manifest

def read_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """Entries by input (the last line for an input wins; ``output: null`` withdraws one)."""
    entries: dict[str, dict[str, Any]] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:  # a line cut short by a kill: that input is simply redone
                    continue
                if entry.get("output"):
                    entries[entry["input"]] = entry
                else:
                    entries.pop(entry.get("input"), None)
    except FileNotFoundError:
        pass
    return entries


# ---------------------------------------------------------------- the batch

@dataclass
class FileEvent:
    """What happened to one input, reported in output order."""

    input: Input
    status: str  # "done" | "skipped" | "failed"
    chunks: int = 0
    seconds: float = 0.0
    error: dict[str, str] | None = None
    notes: list[str] = field(default_factory=list)  # warnings: an empty file, a FIFO skipped
    name: str = ""  # how the input may be shown: its path, or with --mask-phi its pseudonym

    def __post_init__(self) -> None:
        self.name = self.name or str(self.input.path)


@dataclass
class Summary:
    total: int = 0
    done: int = 0
    skipped: int = 0
    failed: int = 0
    chunks: int = 0
    seconds: float = 0.0
    errors_file: Path | None = None


@dataclass
class Batch:
    inputs: list[Input]
    options: Options = field(default_factory=Options)
    output: Path | None = None  # None: standard output; an existing folder or a path ending in / : one file per input
    to_dir: bool = False
    jobs: int = 1
    timeout: float | None = None
    resume: bool = False
    context: Any = None  # multiprocessing context for the workers (default: the caller's default start method)


def output_layout(output: str | None) -> tuple[Path | None, bool]:
    """The output path and whether it is a folder (exists as one, or is written with a trailing slash)."""
    if output is None:
        return None, False
    path = Path(output)
    return path, output.endswith(("/", os.sep)) or path.is_dir()


def is_stream(output: Path) -> bool:
    """An existing output that is not a regular file or folder (/dev/stdout, /dev/full, a FIFO): written directly."""
    try:
        mode = os.stat(output).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def side_files(output: Path | None, to_dir: bool) -> tuple[Path | None, Path | None]:
    """The manifest and errors file of an output, in a sidecar folder of their own.

    ``OUT/`` keeps them in ``OUT/_domainchunk/``; ``out.jsonl`` in ``_domainchunk/`` beside it,
    named after it, so two outputs in one folder never share (or delete) each other's.
    """
    if output is None or (not to_dir and is_stream(output)):
        return None, None
    if to_dir:
        return output / SIDECAR_DIR / MANIFEST_NAME, output / SIDECAR_DIR / ERRORS_NAME
    folder = output.parent / SIDECAR_DIR
    return folder / f"{output.name}.{MANIFEST_NAME}", folder / f"{output.name}.{ERRORS_NAME}"


def _failure_record(inp: Input, failure: WorkerFailure) -> Converted:
    return Converted(str(inp.path), error={"file": str(inp.path), "stage": "worker", "kind": failure.kind,
                                           "message": failure.message})


def _convert(task: tuple[str, Options]) -> Converted:
    path, options = task
    return convert_file(path, options)


class Pseudonyms:
    """Input names as they may be shown with ``--mask-phi``: ``record-`` and a keyed hash of the path.

    A file name is often the patient's name, so with masking on it reaches no output file name,
    error record, warning or log line. The key is random and kept in the sidecar folder, so the
    names stay the same across resumed runs but cannot be recomputed from a list of likely names;
    the manifest, local to the batch, ties each pseudonym to its file.
    """

    def __init__(self, key_file: Path | None):
        key = None
        if key_file is not None and key_file.is_file():
            key = key_file.read_text(encoding="ascii").strip()
        if not key:
            key = secrets.token_hex(16)
            if key_file is not None:
                with writing(key_file):
                    key_file.parent.mkdir(parents=True, exist_ok=True)
                    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    with os.fdopen(fd, "w", encoding="ascii") as fh:
                        fh.write(key + "\n")
        self.key = key.encode()

    def name(self, inp: Input) -> str:
        digest = hmac.new(self.key, inp.key.encode(), hashlib.sha256).hexdigest()[:12]
        return f"record-{digest}{inp.path.suffix.lower()}"

    def hide(self, text: str, inp: Input) -> str:
        for shown in sorted({str(inp.path), inp.key, str(inp.rel)}, key=len, reverse=True):
            text = text.replace(shown, self.name(inp))
        return text


def _sink(batch: Batch, stream: IO[str] | None, names: Callable[[Input], str] | None = None) -> Sink:
    if batch.output is None or is_stream(batch.output):
        if batch.resume:
            raise UsageError("--resume", "needs -o (a file or folder to resume into)")
        if batch.options.fmt == "parquet":
            raise UsageError("--format", "parquet needs -o (a file or folder)")
        if batch.output is None:
            return StreamSink(stream or sys.stdout)
        with writing(batch.output):
            return StreamSink(open(batch.output, "w", encoding="utf-8"), str(batch.output), owned=True)
    if batch.to_dir:
        return DirSink(batch.output, batch.options.fmt, names)
    # A linked output is written where the link leads: renaming over the link would replace it
    # (as root, over /dev/stdout, the system's own).
    return FileSink(Path(real(batch.output)), batch.options.fmt)


def run_batch(batch: Batch, on_event: Callable[[FileEvent], None] = lambda e: None,
              stream: IO[str] | None = None, on_start: Callable[[], None] = lambda: None) -> Summary:
    """Convert ``batch.inputs``; never raises for a document's failure (see :class:`FileEvent`).

    Raises :class:`UsageError` (or :class:`RuleError`) for what no document can satisfy, and
    :class:`WriteError` naming the output when it cannot be written (disk full): what was
    written so far is thrown away, never left truncated under its real name. ``on_start`` is
    called once the options are checked and the rules loaded, before any worker starts.
    """
    from .readers.limits import non_regular

    started = time.perf_counter()
    prints = check_options(batch.options)
    on_start()
    manifest_path, errors_path = side_files(batch.output, batch.to_dir)
    pseudonyms = Pseudonyms(manifest_path.parent / PSEUDONYM_KEY if manifest_path else None) \
        if batch.options.mask_phi else None
    sink = _sink(batch, stream, pseudonyms.name if pseudonyms else None)
    previous = read_manifest(manifest_path) if batch.resume and manifest_path else {}
    # Reading a FIFO or a device would block or never end: such an input is skipped with a note.
    special = [non_regular(inp.path) for inp in batch.inputs]

    def up_to_date(inp: Input) -> dict[str, Any] | None:
        entry = previous.get(inp.key)
        if (entry and entry.get("key") == prints.key(entry.get("doc_type")) and sink.intact(entry)
                and entry.get("sha256") == file_sha256(inp.path)):
            return entry
        return None

    reuse = [None if kind else up_to_date(inp) for inp, kind in zip(batch.inputs, special)]
    todo = [i for i, entry in enumerate(reuse) if entry is None and not special[i]]
    tasks = [(str(batch.inputs[i].path), batch.options) for i in todo]
    if batch.jobs <= 1 and batch.timeout is None:  # in this process: no worker to start
        results: Iterator[Any] = map(_convert, tasks)
    else:
        results = run_ordered(_convert, tasks, max(1, batch.jobs), batch.timeout, context=batch.context)

    summary = Summary(total=len(batch.inputs))
    log = None
    if batch.to_dir and manifest_path:  # appended as files complete, so a killed run resumes from there
        with writing(manifest_path):
            manifest_path.parent.mkdir(parents=True, exist_ok=True)
            log = open(manifest_path, "a", encoding="utf-8")
    if errors_path is not None:
        remove_stale_tmp(errors_path)
    errors: AtomicFile | None = None
    # A file's manifest is written from this run's entries at the end; a folder's is read back
    # from its log, so there the entries are not kept (memory stays flat however many files).
    entries: list[dict[str, Any]] | None = None if batch.to_dir else []
    ok = False
    try:
        for inp, entry, kind in zip(batch.inputs, reuse, special):
            new_entry: dict[str, Any] | None
            if kind:
                new_entry = None
                event = FileEvent(inp, "skipped", notes=[f"{inp.path}: not a regular file ({kind}): skipped"])
            elif entry is not None:
                new_entry = sink.reuse(inp, entry)
                event = FileEvent(inp, "skipped", chunks=entry.get("chunks", 0))
            else:
                conv = next(results)
                if isinstance(conv, WorkerFailure):
                    conv = _failure_record(inp, conv)
                if conv.error is None:
                    new_entry = {"input": inp.key, "sha256": conv.sha256, "doc_type": conv.doc_type,
                                 "key": prints.key(conv.doc_type), "chunks": conv.chunks,
                                 **({"masked_source": conv.masked_source} if conv.masked_source else {}),
                                 **sink.write(inp, conv)}
                    event = FileEvent(inp, "done", chunks=conv.chunks, seconds=conv.seconds, notes=conv.notes)
                else:
                    sink.drop(inp)
                    new_entry = {"input": inp.key, "output": None}
                    if pseudonyms is not None:
                        conv.error = {**conv.error, "file": pseudonyms.name(inp),
                                      "message": pseudonyms.hide(conv.error["message"], inp)}
                    event = FileEvent(inp, "failed", seconds=conv.seconds, error=conv.error, notes=conv.notes)
                    if errors is None and errors_path is not None:
                        errors = AtomicFile(errors_path)
                    if errors is not None:
                        with writing(errors_path or ""):
                            errors.file.write(_ENCODE(conv.error) + "\n")
            if pseudonyms is not None:
                event.name = pseudonyms.name(inp)
                event.notes = [pseudonyms.hide(n, inp) for n in event.notes]
                if new_entry is not None:
                    new_entry["masked_name"] = event.name  # the manifest stays local: it may name the file
            if new_entry is not None:
                if entries is not None:
                    entries.append(new_entry)
                if log is not None:
                    with writing(manifest_path or ""):
                        log.write(_ENCODE(new_entry) + "\n")
                        log.flush()
            setattr(summary, event.status, getattr(summary, event.status) + 1)
            summary.chunks += event.chunks
            on_event(event)
        ok = True
    finally:
        close = getattr(results, "close", None)
        if close:
            close()  # stops the workers
        if log is not None:
            try:
                log.close()
            except OSError:  # the lines that reached the disk stay usable; a cut one is ignored
                pass
        try:
            stats = sink.close(ok)
        finally:
            if errors is not None:
                errors.commit() if ok else errors.abort()
    if ok and errors is None and errors_path is not None:
        errors_path.unlink(missing_ok=True)  # a stale errors file would describe an earlier run
    summary.errors_file = errors_path if summary.failed else None
    if manifest_path and sink.resumable:
        # A folder's manifest keeps earlier runs' entries (compacted); a file's describes this file only.
        kept = read_manifest(manifest_path) if entries is None else {
            e["input"]: {**e, **stats} for e in entries if e["output"]}
        write_atomic(manifest_path, "".join(_ENCODE(e) + "\n" for e in kept.values()))
    summary.seconds = time.perf_counter() - started
    return summary


__all__ = [
    "AtomicFile", "Batch", "Converted", "FileEvent", "Fingerprints", "Input", "Options", "Summary", "WorkerFailure",
    "check_options", "collect_inputs", "convert_bytes", "convert_file", "error_line", "output_layout", "run_batch",
    "run_ordered", "side_files",
]
