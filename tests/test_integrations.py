"""The LangChain and LlamaIndex adapters on real documents: same chunks as the API, metadata and links intact."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domainchunk
from conftest import CORPUS, ROOT
from test_packing import statute

# The [langchain] and [llamaindex] extras are part of the README's test install: no skipping here.
from langchain_core.documents import Document as LCDocument
from llama_index.core.schema import Document as LIDocument
from llama_index.core.schema import NodeRelationship

from domainchunk.integrations.langchain import DomainChunkLoader, DomainChunkSplitter
from domainchunk.integrations.llamaindex import DomainChunkNodeParser, DomainChunkReader
from domainchunk.readers.text import text_document

OFFICE = ROOT / "corpora" / "office"
# Our own documents in every reader's format: always present.
OWN = [
    ROOT / "corpora" / "statute_示范社区管理条例.md",
    ROOT / "corpora" / "judgment_示范民事判决书_二审.txt",
    OFFICE / "contract_示例软件开发合同.docx",
    OFFICE / "statute_示例省电梯安全管理条例.pdf",
]


def _real() -> list[Path]:
    docs = CORPUS / "docs"
    if not docs.is_dir():
        return []
    return [docs / n for n in ("statute_劳动合同法.pdf", "contract_lease_商铺租赁合同_real.docx", "judgment_civil_01_一审民事判决书_佛山南海.txt")
            if (docs / n).exists()]


DOCUMENTS = OWN + _real()


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_loader_yields_the_chunks_of_the_api(path: Path) -> None:
    expected = domainchunk.chunk(path, max_chars=800)
    loader = DomainChunkLoader([str(path)], max_chars=800)
    lazy = loader.lazy_load()
    first = next(lazy)  # lazily: one document at a time
    docs = [first, *lazy]
    assert [d.page_content for d in docs] == [c.text for c in expected.chunks]
    for d, c in zip(docs, expected.chunks):
        m = d.metadata
        assert (m["start"], m["end"], m["path"], m["rule"], m["kind"], m["pages"]) == (c.start, c.end, c.path, c.rule, c.kind, c.pages)
        assert m["doc_type"] == expected.detection.doc_type
        assert expected.document.text[m["start"] : m["end"]] == d.page_content
    ids = [d.metadata["id"] for d in docs]
    assert len(set(ids)) == len(ids)
    assert all(d.metadata["next_id"] == n.metadata["id"] and n.metadata["prev_id"] == d.metadata["id"] for d, n in zip(docs, docs[1:]))
    assert docs[0].metadata["prev_id"] is None and docs[-1].metadata["next_id"] is None


def test_loader_reads_a_str_as_a_path_and_names_a_missing_file() -> None:
    with pytest.raises(domainchunk.DomainChunkError, match="missing.pdf"):
        DomainChunkLoader("missing.pdf").load()


def test_splitter_cuts_text_along_articles_and_keeps_document_metadata() -> None:
    text = OWN[0].read_text(encoding="utf-8")
    splitter = DomainChunkSplitter(max_chars=600)
    pieces = splitter.split_text(text)
    doc = text_document(text, "<text>", markdown=True)
    assert pieces == [c.text for c in domainchunk.chunk_document(doc, max_chars=600).chunks]
    docs = splitter.split_documents([LCDocument(page_content=text, metadata={"source": "条例.md", "lang": "zh"})])
    assert [d.page_content for d in docs] == pieces
    assert all(d.metadata["lang"] == "zh" and d.metadata["source"] == "条例.md" for d in docs)
    assert any(d.metadata["rule"] == "statute.article" and d.metadata["path"][-1].startswith("第") for d in docs)
    assert all(len(d.page_content) <= 600 for d in docs)


def test_splitter_takes_langchain_size_options() -> None:
    text = OWN[0].read_text(encoding="utf-8")
    tokens = DomainChunkSplitter(chunk_size=120, length_function=lambda s: len(s) // 2)
    assert all(len(p) // 2 <= 120 for p in tokens.split_text(text))
    assert max(len(p) for p in tokens.split_text(text)) > 120  # measured by the length function, not characters


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_node_parser_gives_offsets_metadata_and_relationships(path: Path) -> None:
    documents = DomainChunkReader().load_data(path)
    assert len(documents) == 1 and documents[0].metadata["file_path"] == str(path)
    expected = domainchunk.chunk(path, max_chars=800)
    assert documents[0].text == expected.document.text
    nodes = DomainChunkNodeParser(max_chars=800).get_nodes_from_documents(documents)
    assert [n.text for n in nodes] == [c.text for c in expected.chunks]
    text = documents[0].text
    for n, c in zip(nodes, expected.chunks):
        assert text[n.start_char_idx : n.end_char_idx] == n.text
        assert n.metadata["path"] == c.path and n.metadata["rule"] == c.rule
        assert n.relationships[NodeRelationship.SOURCE].node_id == documents[0].doc_id
        embedded = n.get_metadata_str(mode="embed").splitlines()  # offsets never reach the embedding
        assert not [line for line in embedded if line.startswith(("start:", "end:"))]
    for a, b in zip(nodes, nodes[1:]):
        assert a.relationships[NodeRelationship.NEXT].node_id == b.node_id
        assert b.relationships[NodeRelationship.PREVIOUS].node_id == a.node_id
    assert NodeRelationship.PREVIOUS not in nodes[0].relationships


def test_node_parser_on_a_users_own_documents() -> None:
    text = OWN[1].read_text(encoding="utf-8")
    nodes = DomainChunkNodeParser(doc_type="judgment").get_nodes_from_documents(
        [LIDocument(text=text, metadata={"file_path": "判决.txt"})])
    assert {n.metadata["doc_type"] for n in nodes} == {"judgment"}
    assert all(n.metadata["source"] == "判决.txt" for n in nodes)
    assert any(n.metadata["path"] == ["本院认为"] for n in nodes)


def test_reader_can_give_nodes_directly() -> None:
    nodes = DomainChunkReader(nodes=True, max_chars=800).load_data(OFFICE / "statute_示例省电梯安全管理条例.pdf")
    assert nodes and all(n.metadata["pages"] for n in nodes)


def test_adapters_are_not_imported_by_the_package() -> None:
    import subprocess
    import sys

    code = "import sys, domainchunk; print(any(m.startswith(('langchain', 'llama_index')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_node_parser_links_units_to_their_parents_for_small_to_big() -> None:
    documents = DomainChunkReader().load_data(OWN[0])
    nodes = DomainChunkNodeParser(parents=True).get_nodes_from_documents(documents)
    by_id = {n.node_id: n for n in nodes}
    parents = [n for n in nodes if n.metadata["kind"] == "parent"]
    units = [n for n in nodes if n.metadata["kind"] == "article"]
    assert parents and units
    for n in units:
        parent = by_id[n.relationships[NodeRelationship.PARENT].node_id]
        assert n.node_id in [r.node_id for r in parent.relationships[NodeRelationship.CHILD]]
        assert parent.start_char_idx <= n.start_char_idx and n.end_char_idx <= parent.end_char_idx


def test_splitter_documents_carry_pack_children() -> None:
    docs = DomainChunkLoader([OWN[0]], pack=True, max_chars=1000).load()
    packs = [d for d in docs if d.metadata["rule"] == "pack"]
    assert packs and all(len(d.metadata["children"]) >= 2 and "至" in d.metadata["path"][-1] for d in packs)


def test_adapters_expose_title_path_and_text_for_embedding() -> None:
    expected = domainchunk.chunk(OWN[0], max_chars=300, context_fit=True)
    title = expected.document.title
    assert title
    docs = DomainChunkLoader([OWN[0]], max_chars=300, context_fit=True, context=True).load()
    assert [d.page_content for d in docs] == [c.context_text for c in expected.chunks]
    body = [d for d in docs if d.metadata["path"]]
    assert body and all(d.page_content.startswith(f"{title}\n{' > '.join(d.metadata['path'])}\n") for d in body)
    assert all(len(d.page_content) <= 300 for d in docs)  # context_fit holds the title too
    assert all(d.metadata["title"] == title for d in docs)
    split = DomainChunkSplitter(max_chars=300, context=True).split_text(OWN[0].read_text(encoding="utf-8"))
    assert split[-1].endswith(expected.chunks[-1].text) and split[-1].startswith(title)
    nodes = DomainChunkNodeParser(max_chars=300).get_nodes_from_documents(DomainChunkReader().load_data(OWN[0]))
    embedded = nodes[-1].get_content(metadata_mode="embed")
    assert title in embedded and expected.chunks[-1].path[-1] in embedded and embedded.endswith(nodes[-1].text)


@pytest.mark.parametrize("path", OWN[:2], ids=lambda p: p.name)
def test_node_parser_embeds_the_context_text_and_fits_it_with_context_fit(path: Path) -> None:
    from llama_index.core.schema import MetadataMode

    documents = DomainChunkReader().load_data(path)
    for fit in (False, True):
        expected = domainchunk.chunk(path, max_chars=150, context_fit=fit)
        nodes = DomainChunkNodeParser(max_chars=150, context_fit=fit).get_nodes_from_documents(documents)
        assert [n.text for n in nodes] == [c.text for c in expected.chunks]
        for n, c in zip(nodes, expected.chunks):
            assert n.get_content(metadata_mode=MetadataMode.EMBED) == c.context_text
            assert n.get_content(metadata_mode=MetadataMode.LLM) == c.context_text
        fits = [len(n.get_content(metadata_mode=MetadataMode.EMBED)) <= 150 for n in nodes]
        # The texts alone fit; only context_fit makes room for the title and the path as well.
        assert all(fits) if fit else not all(fits)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), max_chars=st.integers(80, 400), pack=st.booleans())
def test_node_parser_context_fit_holds_for_any_statute(text: str, max_chars: int, pack: bool) -> None:
    from llama_index.core.schema import MetadataMode

    nodes = DomainChunkNodeParser(doc_type="statute", max_chars=max_chars, context_fit=True, pack=pack,
                                  parents=True).get_nodes_from_documents(
        [LIDocument(text=text, metadata={"file_path": "示范.txt"})])
    expected = domainchunk.chunk_text(text, name="示范.txt", doc_type="statute", max_chars=max_chars, context_fit=True,
                                      pack=pack, parents=True)
    chunks = {c.id: c for c in (*expected.chunks, *expected.parents)}
    assert [n.node_id for n in nodes] == list(chunks)
    for n in nodes:
        embedded = n.get_content(metadata_mode=MetadataMode.EMBED)
        assert embedded == chunks[n.node_id].context_text and embedded.endswith(n.text)
        if n.metadata["kind"] != "parent":  # a heading's record is as long as its heading's text
            assert len(embedded) <= max_chars


# ---------------------------------------------------------------- small-to-big retrievers

from domainchunk.errors import DomainChunkError
from domainchunk.integrations.langchain import DomainChunkSmallToBigRetriever as LCSmallToBig
from domainchunk.integrations.llamaindex import DomainChunkSmallToBigRetriever as LISmallToBig
from domainchunk.packing import best_units, rank_packs

_QUESTIONS = ["物业服务费用由谁承担，怎么交？", "居民委员会选举产生的办法", "违反本条例的处罚"]


def _bigram_score(query: str, text: str) -> float:
    """Distinct two-character runs of the query found in the text, over the text's length, a little."""
    grams = {query[i : i + 2] for i in range(len(query) - 1)}
    return sum(g in text for g in grams) / (1 + len(text)) ** 0.25


def _expected(path: Path, query: str, k: int, budget: int) -> list[tuple[str, str]]:
    """(pack id, unit id) of small-to-big done by hand with packing's functions on the API's chunks."""
    packs = domainchunk.chunk(path, max_chars=600, pack=True).chunks
    units = {c.id: c for c in domainchunk.chunk(path, max_chars=600).chunks}
    score = {c.id: _bigram_score(query, c.text) for c in (*packs, *units.values())}
    ranked = rank_packs(packs, lambda p: score[p.id], units, lambda u: score[u.id])[:k]
    return [(p.id, u.id) for p in ranked
            for u in best_units(p, units, lambda u: score[u.id], budget=budget, ratio=0.4)]


@pytest.mark.parametrize("query", _QUESTIONS)
def test_langchain_small_to_big_ranks_packs_and_hands_back_their_best_units(query: str) -> None:
    path = OWN[0]
    retriever = LCSmallToBig.from_files([path], lambda q, docs: [_bigram_score(q, d.page_content) for d in docs],
                                        k=3, budget=300, max_chars=600)
    docs = retriever.invoke(query)
    assert docs and [(d.metadata["pack_id"], d.metadata["id"]) for d in docs] == _expected(path, query, 3, 300)
    packs = {d.metadata["id"]: d for d in retriever.packs}
    for d in docs:  # units, each inside the pack it came from, with its own text
        assert d.metadata["rule"] != "pack"
        pack = packs[d.metadata["pack_id"]]
        assert d.metadata["id"] in (pack.metadata["children"] or [pack.metadata["id"]])
        assert pack.metadata["start"] <= d.metadata["start"] and d.metadata["end"] <= pack.metadata["end"]


@pytest.mark.parametrize("query", _QUESTIONS)
def test_llamaindex_small_to_big_agrees_with_the_langchain_one(query: str) -> None:
    documents = DomainChunkReader().load_data(OWN[0])
    retriever = LISmallToBig.from_documents(documents, lambda q, nodes: [_bigram_score(q, n.get_content()) for n in nodes],
                                            k=3, budget=300, max_chars=600)
    found = retriever.retrieve(query)
    assert found and [(n.node.metadata["pack_id"], n.node.node_id) for n in found] == _expected(OWN[0], query, 3, 300)
    assert all(n.score == pytest.approx(_bigram_score(query, n.node.get_content())) for n in found)
    assert all("pack_id" in n.node.excluded_embed_metadata_keys for n in found)  # not embedded with the text



@pytest.mark.parametrize("query", _QUESTIONS)
def test_small_to_big_units_first_follows_the_units_ranking(query: str) -> None:
    """weight=1, ratio=0 is the units-first route (the retrieval bench's units-first row): the packs
    come in the order of their best unit and the first unit handed back is the best of all, whatever
    the packs' own scores (here the reverse of their text's)."""
    def score(q: str, docs: list[LCDocument]) -> list[float]:
        return [1 / (1 + _bigram_score(q, d.page_content)) if d.metadata["rule"] == "pack" else _bigram_score(q, d.page_content)
                for d in docs]

    retriever = LCSmallToBig.from_files([OWN[0]], score, k=4, budget=400, ratio=0.0, weight=1.0, max_chars=600)
    found = retriever.invoke(query)
    assert found and found[0].metadata["score"] == max(score(query, retriever.units))
    leads = [d.metadata["score"] for i, d in enumerate(found)
             if i == 0 or d.metadata["pack_id"] != found[i - 1].metadata["pack_id"]]  # each pack's first unit
    assert 1 < len(leads) <= 4 and leads == sorted(leads, reverse=True), "packs not in the order of their best unit"

def test_small_to_big_refuses_foreign_documents_and_a_score_per_wrong_count() -> None:
    plain = [LCDocument(page_content="第一条 示范。", metadata={})]
    with pytest.raises(DomainChunkError, match="pack 0.*no domainchunk id"):
        LCSmallToBig(packs=plain, units=plain, score=lambda q, docs: [1.0] * len(docs))
    with pytest.raises(DomainChunkError, match="pack node.*no domainchunk id"):
        LISmallToBig([LIDocument(text="第一条 示范。")], [], lambda q, nodes: [1.0] * len(nodes))
    units = DomainChunkLoader([OWN[0]]).load()
    short = LCSmallToBig(packs=units, units=units, score=lambda q, docs: [1.0])
    with pytest.raises(DomainChunkError, match=f"gave 1 scores for {len(units)} packs"):
        short.invoke("示范")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=statute(), max_chars=st.integers(80, 600), query=st.sampled_from(_QUESTIONS + ["劳动者订立书面合同", "工资"]),
       k=st.integers(1, 4), budget=st.integers(40, 600))
def test_small_to_big_hands_back_whole_units_of_distinct_packs_within_budget(text: str, max_chars: int, query: str,
                                                                             k: int, budget: int) -> None:
    def lc_score(q: str, docs: list[LCDocument]) -> list[float]:
        return [_bigram_score(q, d.page_content) for d in docs]

    packs = DomainChunkSplitter(doc_type="statute", max_chars=max_chars, pack=True).create_documents([text])
    units = DomainChunkSplitter(doc_type="statute", max_chars=max_chars).create_documents([text])
    found = LCSmallToBig(packs=packs, units=units, score=lc_score, k=k, budget=budget).invoke(query)
    pairs = [(d.metadata["pack_id"], d.metadata["id"]) for d in found]
    assert len({u for _, u in pairs}) == len(pairs), "a unit handed back twice"
    order = list(dict.fromkeys(p for p, _ in pairs))
    assert len(order) <= k and [p for p, _ in pairs] == sorted((p for p, _ in pairs), key=order.index), \
        "a pack's units are not handed back together"
    by_id = {d.metadata["id"]: d for d in packs}
    unit_ids = {d.metadata["id"] for d in units}
    for pack_id in order:
        pack = by_id[pack_id]
        mine = [d for d in found if d.metadata["pack_id"] == pack_id]
        assert all(d.metadata["id"] in unit_ids and d.metadata["id"] in (pack.metadata["children"] or [pack_id])
                   for d in mine), "a unit not of its pack"
        assert all(text[d.metadata["start"] : d.metadata["end"]] == d.page_content for d in mine), "a unit cut"
        assert len(mine) == 1 or sum(d.metadata["size"] for d in mine) <= budget, "over the budget"
        scores = [d.metadata["score"] for d in mine]
        assert scores == sorted(scores, reverse=True), "not best first"
    # the same units the same way through LlamaIndex (the same source name, so the same ids), and in every run
    li = LISmallToBig.from_documents([LIDocument(text=text, metadata={"file_path": "<text>"})], lambda q, nodes: [_bigram_score(q, n.get_content()) for n in nodes],
                                     k=k, budget=budget, doc_type="statute", max_chars=max_chars)
    assert [(n.node.metadata["pack_id"], n.node.node_id) for n in li.retrieve(query)] == pairs
    again = LCSmallToBig(packs=packs, units=units, score=lc_score, k=k, budget=budget).invoke(query)
    assert [(d.metadata["pack_id"], d.metadata["id"]) for d in again] == pairs
