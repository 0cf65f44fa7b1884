"""Chunks that retrieve: packing along the structure, ids and links, overlap, size functions.

One unit a chunk (an article, a clause, a section) is the default. On top of it:

* :func:`pack_chunks` merges consecutive units under one heading (the articles of one 节 or
  of several small 节 of one 章, the clauses of one part) into chunks of up to ``max_chars``.
  A unit is never cut and a pack holds a sub-heading whole or not at all, so a pack's path is
  the common heading plus the range of its units (``第十三条至第十九条``). The pieces of an
  oversize unit stay as they are.
* :func:`link_chunks` gives every chunk a stable ``id`` (source, offsets and the rule file's
  fingerprint), ``prev_id``/``next_id`` in document order and a ``size``;
  :func:`parent_records` makes one record per enclosing heading (编/章/节, part) with its span,
  its children and its own parent, and points every chunk's ``parent_id`` at it.
* :func:`rank_packs` and :func:`best_units` are the small-to-big step: rank the packs by
  their own score and their best unit's, then hand back a pack's best-matching units, best
  first, up to a number or a size budget, leaving out those far below the pack's best.
* :func:`overlap_pieces` lets the pieces of one oversize unit overlap, never past the unit.
* :func:`size_function` turns ``--tokenizer`` into a size function.
"""
from __future__ import annotations

import hashlib
import json
import weakref
from bisect import bisect_left
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from .errors import UsageError
from .models import Chunk, Document, Row, chunk_of_row, page_lookup, trusted
from .rulefile import RuleFile

SizeFn = Callable[[str], int]
PACK_RULE = "pack"
PARENT_RULE = "parent"
RANGE_JOIN = "至"  # 第十三条至第十九条, as statutes themselves name a range of articles
# rank_packs: the share of a pack's rank its best unit decides. 0.5 is the best Recall@5 on the
# retrieval benchmark's dev half of layperson questions (0.3, 0.5, 0.7 and 1.0 tried).
RANK_WEIGHT = 0.5


def _measure(text: str, size: SizeFn | None) -> int:
    return len(text) if size is None else size(text)


_FINGERPRINTS: dict[int, tuple[weakref.ref, str]] = {}


def rules_fingerprint(rules: RuleFile) -> str:
    """The rule file's fingerprint, once per loaded rule file (dumping it costs milliseconds a document)."""
    known = _FINGERPRINTS.get(id(rules))
    if known is None or known[0]() is not rules:
        known = _FINGERPRINTS[id(rules)] = (weakref.ref(rules), rules.fingerprint())
    return known[1]


def id_maker(source: str, fingerprint: str) -> Callable[[str, int, int, str], str]:
    """:func:`chunk_id` for many chunks of one document: the hash of the source and role is taken
    once per role and copied, the offsets and fingerprint added, rather than the key joined,
    encoded and hashed whole per chunk."""
    prefixes: dict[str, Any] = {}

    def make(role: str, start: int, end: int, extra: str) -> str:
        prefix = prefixes.get(role)
        if prefix is None:
            prefix = prefixes[role] = hashlib.sha256(f"{source}\x1f{role}\x1f".encode("utf-8"))
        h = prefix.copy()
        h.update(f"{start}\x1f{end}\x1f{fingerprint}\x1f{extra}".encode("utf-8"))
        return h.hexdigest()[:20]

    return make


def chunk_id(source: str, role: str, start: int, end: int, fingerprint: str, extra: str = "") -> str:
    """A stable id: the same document, rules and options give the same ids in every run (the
    SHA-256 of source, role, offsets, fingerprint and extra, joined by \\x1f)."""
    return id_maker(source, fingerprint)(role, start, end, extra)


def units_of(chunks: list[Chunk]) -> Iterator[list[Chunk]]:
    """The chunks grouped by unit: an oversize unit's pieces (``part``/``parts``) are one group."""
    i = 0
    while i < len(chunks):
        parts = chunks[i].metadata.get("parts", 1) if chunks[i].metadata.get("part") == 1 else 1
        yield chunks[i : i + parts]
        i += parts


def _merged_metadata(units: list[Chunk]) -> dict[str, Any]:
    """What the units agree on (law, title …), their citations together, and the units themselves."""
    first, rest = units[0].metadata, [u.metadata for u in units[1:]]
    meta: dict[str, Any] = {k: v for k, v in first.items() if all(m.get(k) == v for m in rest) and k != "number"}
    cites = [c for u in units for c in u.metadata.get("citations", ())]
    if cites:
        meta["citations"] = list({json.dumps(c, sort_keys=True, ensure_ascii=False): c for c in cites}.values())
    meta["units"] = [{"id": u.id, "label": u.path[-1], "kind": u.kind, "start": u.start,
                      "end": u.end, **({"number": u.metadata["number"]} if "number" in u.metadata else {})}
                     for u in units]
    return meta


def _common_parent(units: list[Chunk]) -> list[str]:
    """The longest heading path all the units lie under."""
    parent = units[0].path[:-1]
    for u in units[1:]:
        n = 0
        while n < min(len(parent), len(u.path) - 1) and parent[n] == u.path[n]:
            n += 1
        parent = parent[:n]
    return list(parent)


def _pack(doc: Document, units: list[Chunk], fingerprint: str) -> Chunk:
    if len(units) == 1:
        return units[0]
    a, b = units[0].start, units[-1].end
    first, last = units[0].path[-1], units[-1].path[-1]
    return Chunk(index=0, text=doc.text[a:b], start=a, end=b,
                 path=[*_common_parent(units), f"{first}{RANGE_JOIN}{last}"],
                 kind=PACK_RULE, doc_type=units[0].doc_type, pages=doc.pages_of(a, b), rule=PACK_RULE,
                 source=units[0].source, metadata=_merged_metadata(units),
                 id=chunk_id(doc.source, PACK_RULE, a, b, fingerprint), children=[u.id for u in units if u.id])


def pack_chunks(doc: Document, chunks: list[Chunk], max_chars: int, size: SizeFn | None = None,
                fingerprint: str = "", context_fit: bool = False) -> list[Chunk]:
    """Whole units packed up to ``max_chars`` along the outline, greedily in document order.

    Under each heading the packed items are its own units and those of its sub-headings that
    fit in one pack whole (small 节 of a 章 go together); a sub-heading too big for one pack
    is packed inside itself. So a pack never holds part of a sub-heading with anything outside
    it, and its path is the units' common heading (the document itself when small 章 go
    together) plus their range. ``chunks`` are one-unit chunks with their ids (see
    :func:`link_chunks`); the packs list them as ``children`` and in ``metadata["units"]``.
    Links are redone by the caller. With ``context_fit`` a pack's ``context_text`` (whose
    path names a range, longer than a unit's) is what must fit ``max_chars``.
    """
    out: list[Chunk] = []

    def span(units: list[Chunk]) -> int:
        if context_fit:
            return _measure(context_text(_pack(doc, units, fingerprint), doc.title), size)
        return _measure(doc.text[units[0].start : units[-1].end], size)

    def packable(group: list[list[Chunk]]) -> bool:
        # An oversize unit's pieces are never packed nor cut further; a chunk with no path (a
        # document's title lines) is no unit of any heading.
        return all(len(u) == 1 and u[0].path for u in group) and span([u[0] for u in group]) <= max_chars

    def fill(items: list[list[Chunk]]) -> None:
        run: list[Chunk] = []
        for item in items:
            if run and span([*run, *item]) > max_chars:
                out.append(_pack(doc, run, fingerprint))
                run = []
            run.extend(item)
        if run:
            out.append(_pack(doc, run, fingerprint))

    def under(group: list[list[Chunk]], depth: int) -> None:
        """Pack the units under one heading (all share ``path[:depth]``)."""
        items: list[list[Chunk]] = []
        i = 0
        while i < len(group):
            unit = group[i]
            c = unit[0]
            if len(c.path) <= depth + 1:  # a unit of this heading itself
                i += 1
                if packable([unit]):
                    items.append(unit)
                else:
                    fill(items)
                    items = []
                    out.extend(unit)
                continue
            j = i + 1
            while j < len(group) and len(group[j][0].path) > depth + 1 and group[j][0].path[depth] == c.path[depth]:
                j += 1
            sub = group[i:j]
            i = j
            if packable(sub):
                items.append([u for unit in sub for u in unit])
            else:
                fill(items)
                items = []
                under(sub, depth + 1)
        fill(items)

    under(list(units_of(chunks)), 0)
    return out


def link_chunks(doc: Document, rows: list[Row], fingerprint: str, size: SizeFn | None = None,
                title: str | None = None) -> None:
    """Index, id (unless set), size, the prev/next chain and (when given) the title of each row, in
    place, in document order."""
    make = id_maker(doc.source, fingerprint)
    ids = [r["id"] if r.get("id") is not None else make(r["kind"], r["start"], r["end"], "") for r in rows]
    last = len(rows) - 1
    for i, r in enumerate(rows):
        r["index"] = i
        r["id"] = ids[i]
        r["size"] = len(r["text"]) if size is None else size(r["text"])
        if i:
            r["prev_id"] = ids[i - 1]
        if i < last:
            r["next_id"] = ids[i + 1]
        if title:
            r["title"] = title


def parent_records(doc: Document, rows: list[Row], fingerprint: str, size: SizeFn | None = None,
                   texts: bool = True, title: str | None = None) -> list[Chunk]:
    """One record per run of rows under the same heading prefix; sets every row's ``parent_id``.

    A record spans its first to its last descendant, lists its direct children (chunks and
    inner records) and points at its own parent, so every ``parent_id`` resolves. Without
    ``texts`` the records are left without text, pages and size (only their ids are wanted);
    ``title`` is the document's, for their ``context_text``.
    """
    records: list[Chunk] = []
    # open records, outermost first: those of the last row's parent path and its prefixes
    # (open_[d] has the path of length d + 1). Each is built once closed: while open, its fields
    # are a plain dict, and its end is the end of the last row before the one that closes it.
    open_: list[dict[str, Any]] = []
    opened: list[str] = []  # the path of the open records' innermost
    last_end = 0
    pages_of = page_lookup(doc.pages)
    make = id_maker(doc.source, fingerprint)

    def close_from(depth: int) -> None:
        while len(open_) > depth:
            rec = open_.pop()
            rec["end"] = last_end
            if texts:
                rec["text"] = doc.text[rec["start"] : rec["end"]]
                rec["pages"] = pages_of(rec["start"], rec["end"])
                rec["size"] = _measure(rec["text"], size)
            if title:
                rec["title"] = title
            at = rec.pop("at")
            rec["index"] = len(rows) + at  # records follow the chunks
            records[at] = trusted(Chunk, rec)

    for r in rows:
        path = r["path"]
        parent = path[:-1]
        if parent != opened:  # most rows lie under the same headings as the one before
            keep = 0
            while keep < min(len(opened), len(parent)) and opened[keep] == parent[keep]:
                keep += 1
            close_from(keep)
            for d in range(keep, len(parent)):
                rid = make(PARENT_RULE, r["start"], 0, "/".join(parent[: d + 1]))
                rec = {"index": None, "text": "", "start": r["start"], "end": r["end"], "path": parent[: d + 1],
                       "kind": PARENT_RULE, "doc_type": r["doc_type"], "rule": PARENT_RULE, "source": r["source"],
                       "id": rid, "parent_id": open_[d - 1]["id"] if d else None, "children": [], "at": len(records)}
                if d:
                    open_[d - 1]["children"].append(rid)
                open_.append(rec)
                records.append(None)  # type: ignore[arg-type]  # its place, filled when it closes
            opened = parent
        last_end = r["end"]
        if open_ and r.get("id") is not None:  # every row has its id by now
            open_[-1]["children"].append(r["id"])
            r["parent_id"] = open_[-1]["id"]
    close_from(0)
    return records


def rank_packs(packs: Iterable[Chunk], pack_score: Callable[[Chunk], float], units: Mapping[str, Chunk],
               unit_score: Callable[[Chunk], float], weight: float = RANK_WEIGHT) -> list[Chunk]:
    """Small-to-big's ranking: packs by their own score and by their best unit's, together.

    Each score is taken as a share of the best among ``packs`` (the candidates: say the top
    packs and the packs of the top units a retriever found) and the two are weighted
    ``1 - weight`` and ``weight``. A pack's own score spreads over all its units, so a pack
    whose many articles each share a word with the question outranks the pack holding the one
    article that answers it; a question asked in everyday words often matches that one article
    and little around it. A chunk without ``children`` is a unit and its own best unit. Packs
    scoring nothing either way are left out; ties keep the order they came in.
    """
    packs = list(packs)

    def best(pack: Chunk) -> float:
        kids = [units[k] for k in pack.children if k in units] or [units.get(pack.id or "", pack)]
        return max(unit_score(u) for u in kids)

    own = [pack_score(p) for p in packs]
    inner = [best(p) for p in packs]
    top_own, top_inner = max(own, default=0) or 1.0, max(inner, default=0) or 1.0
    fused = [(1 - weight) * a / top_own + weight * b / top_inner for a, b in zip(own, inner)]
    order = sorted(range(len(packs)), key=lambda i: -fused[i])
    return [packs[i] for i in order if fused[i] > 0]


def best_units(pack: Chunk, units: Mapping[str, Chunk], score: Callable[[Chunk], float], n: int | None = None,
               *, budget: int | None = None, ratio: float = 0.0) -> list[Chunk]:
    """Small-to-big: what to hand back of a retrieved pack, found by its children's ids.

    Its units best-scoring first (document order among equals): the ``n`` best, and with
    ``budget`` only as many as fit in it, measured as the units were (their ``size``, in the
    size function's units); a unit too big for what is left is passed over for smaller ones,
    and the best unit is handed back even when it alone is over. With ``ratio`` a unit scoring
    under ``ratio`` times the best unit's score is left out, so a pack that matches in one
    article hands back that article and not its whole budget of weaker neighbours. A chunk that
    is a unit itself (no ``children``) is its own result.
    """
    scored = sorted(((score(units[k]), units[k]) for k in pack.children if k in units), key=lambda sc: -sc[0])
    if scored and ratio:
        floor = ratio * scored[0][0]
        scored = [sc for sc in scored if sc[0] >= floor]
    members = [c for _, c in scored] or [pack]
    if n is not None:
        members = members[:n]
    if budget is None:
        return members
    out: list[Chunk] = []
    left = budget
    for c in members:
        cost = len(c.text) if c.size is None else c.size
        if not out or cost <= left:
            out.append(c)
            left -= cost
    return out


def overlap_pieces(text: str, pieces: list[tuple[int, int, str]], overlap: int,
                   size: SizeFn | None = None) -> list[tuple[int, int, str]]:
    """Each piece after the first starts up to ``overlap`` (characters or size units) earlier.

    The pieces are one unit's, so going back never leaves the unit; it takes at most the second
    half of the piece before, so no piece holds another whole.
    """
    out = pieces[:1]
    for (prev_a, prev_b, _), (a, b, rule) in zip(pieces, pieces[1:]):
        floor = min((prev_a + prev_b + 1) // 2, a)
        if size is None:
            s = max(floor, a - overlap)
        else:  # the earliest start whose overlap still measures within ``overlap``
            starts = range(floor, a + 1)
            s = starts[bisect_left(starts, True, key=lambda x: size(text[x:a]) <= overlap)]
        while s < a and text[s].isspace():
            s += 1
        out.append((s, b, rule))
    return out


def context_head(chunk: Chunk, title: str | None = None) -> str:
    """What :func:`context_text` puts before the text: title, path breadcrumb, context prefix."""
    title = chunk.title if title is None else title
    return "\n".join(p for p in (title, " > ".join(chunk.path), chunk.metadata.get("context_prefix")) if p)


def context_text(chunk: Chunk, title: str | None = None, max_size: int | None = None,
                 size: SizeFn | None = None) -> str:
    """Title, path breadcrumb and text, for embedding; with ``max_size`` the text is cut to fit.

    ``title`` defaults to the chunk's own (its document's). The head (title and breadcrumb)
    is kept whole; the text keeps its beginning.
    """
    head = context_head(chunk, title)
    full = f"{head}\n{chunk.text}" if head else chunk.text
    if max_size is None or _measure(full, size) <= max_size:
        return full
    lead = f"{head}\n" if head else ""
    cuts = range(len(chunk.text) + 1)
    keep = bisect_left(cuts, True, key=lambda n: _measure(lead + chunk.text[:n], size) > max_size) - 1
    return lead + chunk.text[: max(keep, 0)]


# ---------------------------------------------------------------- size functions

TOKENIZERS = "a tokenizers JSON file, tiktoken:ENCODING or jieba"


@lru_cache(maxsize=4)
def size_function(spec: str) -> SizeFn:
    """``--tokenizer``: a HuggingFace ``tokenizers`` file path, ``tiktoken:ENCODING`` or ``jieba``."""
    if spec == "jieba":
        import jieba

        jieba.setLogLevel(60)
        return lambda text: sum(1 for w in jieba.cut(text) if not w.isspace())
    if spec.startswith("tiktoken:"):
        try:
            import tiktoken
        except ImportError:
            raise UsageError("--tokenizer", "tiktoken is not installed: pip install tiktoken") from None
        try:
            enc = tiktoken.get_encoding(spec.split(":", 1)[1])
        except (ValueError, KeyError) as exc:
            raise UsageError("--tokenizer", f"unknown tiktoken encoding in {spec!r}: {exc}") from None
        return lambda text: len(enc.encode(text, disallowed_special=()))
    path = Path(spec)
    if not path.is_file():
        raise UsageError(spec, f"no tokenizer file here; --tokenizer takes {TOKENIZERS}")
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise UsageError("--tokenizer", "a tokenizer file needs the tokenizers package: pip install tokenizers") from None
    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as exc:  # noqa: BLE001 - the library raises its own exception types
        raise UsageError(spec, f"not a tokenizers JSON file: {exc}") from None
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def _row(chunk: Chunk) -> Row:
    """A model's row again: the fields it was given (for packs, made as models)."""
    return {k: v for k, v in chunk.__dict__.items() if k in chunk.__pydantic_fields_set__}


def _built(rows: list[Row], build: Callable[[Row], Chunk]) -> list[Chunk]:
    """One model per row, the rows consumed (the list is left empty): each row's dict goes as its
    model is built, so the two are never all alive at once (a long statute's peak memory)."""
    rows.reverse()
    chunks: list[Chunk] = []
    while rows:
        chunks.append(build(rows.pop()))
    return chunks


def _trusted_chunk(row: Row) -> Chunk:
    return trusted(Chunk, row)


def finish(doc: Document, rows: list[Row], *, fingerprint: str, max_chars: int, size: SizeFn | None = None,
           pack: bool = False, parents: bool = False, context_fit: bool = False) -> tuple[list[Chunk], list[Chunk]]:
    """The pipeline's last step, from the chunker's rows (consumed): ids, optional packing, links,
    titles; returns (chunks, parent records), one model each, built here.

    ``max_chars`` is the limit packs fill up to: their text's, or with ``context_fit`` their
    ``context_text``'s.
    """
    link_chunks(doc, rows, fingerprint, size, None if pack else doc.title)
    build = chunk_of_row  # the chunker's rows hold every field in order
    if pack:
        packed = pack_chunks(doc, _built(rows, build), max_chars, size, fingerprint, context_fit)
        rows = [{**_row(c), "prev_id": None, "next_id": None} for c in packed]  # the chain is made again
        link_chunks(doc, rows, fingerprint, size, doc.title)
        build = _trusted_chunk  # a pack's fields, or a unit's given ones
    records = parent_records(doc, rows, fingerprint, size, texts=parents, title=doc.title)
    return _built(rows, build), records if parents else []
