"""The retrieval benchmark's layperson questions (benchmarks/layperson_questions.yaml).

- the file holds 150–250 distinct questions, each labelled with at least one article, and both
  halves (dev / held-out, by hash) get a fair share;
- against the shared statutes: every law it names is in the bench's index and every label is an
  article of that law, and no question copies its answer's wording (no run of 10 characters in
  common), which is the bias the layperson source exists to remove;
- a malformed file or label is refused naming the file;
- the bench's ranked small-to-big row takes the route the framework retrievers take.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COPIED_RUN = 10  # characters in a row a question may share with its answer before it counts as copied


def _bench():
    spec = importlib.util.spec_from_file_location("bench_retrieval", ROOT / "benchmarks" / "bench_retrieval.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


bench = _bench()


@pytest.fixture(scope="module")
def questions():
    return bench.layperson_questions(bench.LAYPERSON)


def test_the_question_file_is_a_fair_size_and_split(questions):
    texts = [q for _, q, _ in questions]
    assert 150 <= len(texts) <= 250
    assert len(set(texts)) == len(texts), "a question is asked twice"
    assert all(keys for _, _, keys in questions)
    halves = [bench.Question("layperson", q, []).half for q in texts]
    assert min(halves.count(h) for h in bench.HALVES) >= 0.4 * len(texts)


def test_article_labels_parse_as_the_chunker_numbers_them():
    path = Path("q.yaml")
    assert bench.article_key(38, path) == (38, None)
    assert bench.article_key("133之一", path) == (133, 1)
    with pytest.raises(SystemExit, match="q.yaml: article '第38条'"):
        bench.article_key("第38条", path)


def test_a_malformed_file_is_refused_naming_it(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("laws:\n  劳动合同法:\n    - q: 能辞职吗？\n", encoding="utf-8")  # no answers
    with pytest.raises(SystemExit, match="bad.yaml: not a layperson question file"):
        bench.layperson_questions(bad)


def _common_run(a: str, b: str) -> int:
    """Length of the longest run of characters ``a`` and ``b`` share."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def test_every_label_is_an_article_of_an_indexed_law_and_no_question_copies_it(questions):
    files = bench.statute_files(bench.SHARED / "corpus-large", bench.SHARED / "corpus")
    if not files:
        pytest.skip("../shared/corpus-large and ../shared/corpus are not present")
    wanted = {law for law, _, _ in questions}
    # Only the laws the file names are chunked: a Markdown statute's first line is its title.
    def title(path: Path) -> str:
        with path.open(encoding="utf-8") as f:
            return bench.law_key(f.readline().removeprefix("#"))

    loaded = bench.load_statutes([p for p in files if p.suffix == ".md" and title(p) in wanted])
    docs = {bench.law_key(doc.title): doc for doc, _ in loaded}
    assert wanted <= set(docs), f"laws not in the index: {sorted(wanted - set(docs))}"
    for law, q, keys in questions:
        doc = docs[law]
        missing = [k for k in keys if k not in doc.articles]
        assert not missing, f"{law} has no article {missing} ({q})"
        for k in keys:
            a, b = doc.articles[k]
            assert _common_run(q, doc.text[a:b]) < COPIED_RUN, f"{q} copies {law} {k}"


QUESTIONS = ("物业服务费用由谁承担", "违反本条例的处罚", "居民委员会怎样选举", "电梯维护保养的责任")


@pytest.fixture(scope="module")
def our_statutes():
    """Our own statutes packed at 400 characters and one unit a chunk, indexed as the bench does."""
    import domainchunk

    paths = sorted((ROOT / "corpora").glob("statute_*.md"))
    assert paths
    docs, packs, units = [], [], []
    for i, path in enumerate(paths):
        plain = domainchunk.chunk(path, doc_type="statute", max_chars=400)
        packed = domainchunk.chunk(path, doc_type="statute", max_chars=400, pack=True)
        doc = bench.Doc(path.name, plain.document.title or path.stem, plain.document.text)
        bench.tokenize_doc(doc)
        docs.append(doc)
        units += bench.domainchunk_pieces(i, plain.chunks, doc.title)
        packs += bench.domainchunk_pieces(i, packed.chunks, None)
    return packs, units, bench.Packs(bench.Index(docs, packs), bench.Index(docs, units))


def test_the_bench_measures_the_small_to_big_route_the_retrievers_take(our_statutes):
    """The bench's ranked small-to-big row and the LangChain/LlamaIndex retrievers' step
    (``integrations._common.small_to_big``) hand back the same units of the same packs."""
    from domainchunk.integrations._common import small_to_big

    packs, units, both = our_statutes
    asked = 0
    for question in QUESTIONS:
        tokens = bench.query_tokens(question)
        measured = [[both.units.pieces[u].chunk.id for u in group]
                    for group in both.small_to_big(tokens, 300, 0.4, bench.RANK_WEIGHT)][:5]
        taken = small_to_big([p.chunk for p in packs], list(both.packs.scores(tokens)), [u.chunk for u in units],
                             list(both.units.scores(tokens)), k=5, budget=300, ratio=0.4, weight=bench.RANK_WEIGHT)
        assert measured == [[m.id for m, _ in members] for _, members in taken]
        asked += bool(measured)
    assert asked >= 2


def test_the_units_first_row_follows_the_units_own_ranking(our_statutes):
    """Units first (weight 1): the results come in the order of their best unit's score, the first
    holds the best unit of all, and each hands back its pack's units best first within the budget."""
    _, _, both = our_statutes
    asked = 0
    for question in QUESTIONS:
        tokens = bench.query_tokens(question)
        scores = both.units.scores(tokens)
        groups = both.small_to_big(tokens, 300, 0.0, 1.0)
        if not groups:
            continue
        asked += 1
        leads = [scores[g[0]] for g in groups]
        assert leads == sorted(leads, reverse=True) and leads[0] == scores.max()
        for g in groups:
            assert [scores[u] for u in g] == sorted((scores[u] for u in g), reverse=True)
            assert len({both.pack_of_unit[u] for u in g}) == 1, "a result mixed two packs"
            sizes = [both.units.pieces[u].chunk.size for u in g]
            assert sum(sizes) <= 300 or len(g) == 1
        assert len({both.pack_of_unit[g[0]] for g in groups}) == len(groups), "a pack came back twice"
    assert asked >= 2
