"""The ``domainchunk`` command: chunk, detect, and rule-file tools.

Every failure is one line naming the file and the cause; with several inputs
the rest still run and the exit code says some failed.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Iterable, TextIO

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _err(msg: str) -> None:
    print(f"domainchunk: {msg}", file=sys.stderr)


def _write_chunks(result, fmt: str, out: TextIO) -> None:
    if fmt == "jsonl":
        for rec in result.records():
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    elif fmt == "text":
        for c in result.chunks:
            out.write(f"--- {c.source} #{c.index} [{c.kind} {c.rule}] {' > '.join(c.path)}\n{c.text}\n")
    else:  # json: one object per document
        payload = {"source": result.document.source, "detection": result.detection.model_dump(mode="json"),
                   "chunks": result.records()}
        out.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")


def cmd_chunk(args: argparse.Namespace) -> int:
    from .errors import DomainChunkError
    from .pipeline import chunk

    failed = 0
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        for path in args.paths:
            try:
                result = chunk(Path(path), doc_type=args.doc_type, max_chars=args.max_chars, rules_dir=args.rules,
                               mask_phi=args.mask_phi)
            except DomainChunkError as exc:
                _err(str(exc))
                failed += 1
                continue
            _write_chunks(result, args.format, out)
    finally:
        if out is not sys.stdout:
            out.close()
    return EXIT_FAILED if failed else EXIT_OK


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
        for r in d.reasons:
            if r.doc_type == d.doc_type:
                print(f"  +{r.weight * r.count:.1f} {r.signal} ×{r.count}: {r.why}")
    return EXIT_FAILED if failed else EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    from .errors import DomainChunkError
    from .examples import rules_without_examples, run_examples
    from .rulefile import load_rules

    try:
        registry = load_rules(args.dir)
    except DomainChunkError as exc:
        _err(str(exc))
        return EXIT_FAILED
    if args.action == "list":
        for doc_type, r in sorted(registry.items()):
            print(f"{doc_type}\tv{r.version}\t{len(r.levels)} levels\t{len(r.examples)} examples\t{r.path}")
        return EXIT_OK
    if args.action == "check":
        bare = [(r.id, lv) for r in registry.values() for lv in rules_without_examples(r)]
        for rid, lv in bare:
            _err(f"{rid}: rule {lv} has no examples")
        print(f"{len(registry)} rule files valid" + (f", {len(bare)} rules without examples" if bare else ""))
        return EXIT_FAILED if bare else EXIT_OK
    results = run_examples(registry)
    bad = [r for r in results if r.failures]
    for r in bad:
        for f in r.failures:
            print(f"FAIL {r.id}: {f}")
    print(f"{len(results) - len(bad)} passed, {len(bad)} failed")
    return EXIT_FAILED if bad else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="domainchunk", description="Structure-aware chunking of Chinese legal and medical documents.")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("chunk", help="chunk files into JSONL")
    c.add_argument("paths", nargs="+", help="PDF, DOCX, TXT or Markdown files")
    c.add_argument("-o", "--output", help="output file (default: standard output)")
    c.add_argument("--doc-type", default="auto", help="auto (detect), or a rule file's doc_type")
    c.add_argument("--max-chars", type=int, default=None, help="size limit of a chunk in characters")
    c.add_argument("--rules", default=None, help="folder of rule files that add to or override the built-in ones")
    c.add_argument("--format", choices=["jsonl", "json", "text"], default="jsonl")
    c.add_argument("--mask-phi", action="store_true", help="mask identifying fields (姓名, 身份证号, 电话 …) in medical records")
    c.set_defaults(func=cmd_chunk)
    d = sub.add_parser("detect", help="print each file's document type, score and reasons")
    d.add_argument("paths", nargs="+")
    d.add_argument("--rules", default=None)
    d.set_defaults(func=cmd_detect)
    r = sub.add_parser("rules", help="list, check or test rule files")
    r.add_argument("action", choices=["list", "check", "test"])
    r.add_argument("dir", nargs="?", default=None, help="a folder of rule files (added to the built-in ones)")
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
