"""Judgments end to end: sections by function, metadata (court, case number, citations),
appendix, second instance.

Scores against gold files (ours and the shared real judgments) are in test_corpora.py."""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

import domainchunk

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
APPEAL = CORPORA / "judgment_示范民事判决书_二审.txt"
CRIMINAL = CORPORA / "judgment_示范刑事判决书_附录.txt"
RULING = CORPORA / "judgment_示范行政裁定书.txt"


@pytest.fixture(scope="module")
def criminal():
    return domainchunk.chunk(CRIMINAL, max_chars=1000)


@pytest.fixture(scope="module")
def appeal():
    return domainchunk.chunk(APPEAL, max_chars=1000)


def test_detects_judgments():
    for path in (APPEAL, CRIMINAL, RULING):
        assert domainchunk.chunk(path).detection.doc_type == "judgment", path.name


def test_sections_in_order(criminal):
    assert [c.path for c in criminal.chunks] == [
        [], ["当事人"], ["审理经过"], ["诉讼请求"], ["答辩"], ["事实"], ["证据"], ["本院认为"], ["判决主文"], ["尾部"], ["附录"]
    ]
    holding = next(c for c in criminal.chunks if c.path == ["判决主文"])
    assert holding.text.startswith("据此，依照《中华人民共和国刑法》")  # mid-paragraph sentence
    assert holding.text.rstrip().endswith("予以没收。")


def test_document_metadata(criminal, appeal):
    meta = criminal.document.metadata
    assert meta["court"] == "示范县人民法院"
    assert meta["document_kind"] == "刑事判决书"
    assert meta["case_number"] == "（2024）示0103刑初77号"
    assert meta["procedure"] == "一审"
    assert meta["cause"] == "诈骗罪"
    assert appeal.document.metadata["procedure"] == "二审"
    assert appeal.document.metadata["cause"] == "财产损害赔偿纠纷"
    header = criminal.chunks[1].metadata
    assert header["case_number"] == meta["case_number"] and header["section"] == "当事人"


def test_citations_normalised_and_appendix_not_cited(criminal):
    assert criminal.document.metadata["citations"] == [
        {"law": "中华人民共和国刑法", "article": 266, "label": "第二百六十六条"},
        {"law": "中华人民共和国刑法", "article": 67, "label": "第六十七条", "paragraph": 3},
        {"law": "中华人民共和国刑法", "article": 52, "label": "第五十二条"},
    ]
    appendix = criminal.chunks[-1]
    assert appendix.path == ["附录"] and "citations" not in appendix.metadata
    # Quoted statute articles in the appendix are not the judgment's structure.
    assert not any(c.text.startswith("第二百六十六条") for c in criminal.chunks)


def test_interpretation_citation_with_paragraph_and_item():
    meta = domainchunk.chunk(RULING).document.metadata
    assert meta["citations"] == [{
        "law": "最高人民法院关于适用〈中华人民共和国行政诉讼法〉的解释",
        "article": 69, "label": "第六十九条", "paragraph": 1, "item": 10,
    }]
    assert meta["procedure"] == "一审" and meta["document_kind"] == "行政裁定书"


def test_second_instance_sections_repeat(appeal):
    paths = [c.path[0] for c in appeal.chunks if c.path]
    assert paths.count("诉讼请求") == 2  # 上诉请求, then the claim made at first instance
    reasons = [c.text for c in appeal.chunks if c.path == ["本院认为"]]
    # the lower court's reasoning recounted, then the appeal court's own
    assert [r[:6] for r in reasons] == ["一审法院认为", "本院认为，物"]
    assert "一审法院判决：" in reasons[0]  # the first-instance holding quoted is not the holding
    assert paths[-2:] == ["判决主文", "尾部"]


def test_holding_and_claims_split_only_between_items():
    result = domainchunk.chunk(CRIMINAL, max_chars=120)
    holding = [c for c in result.chunks if c.path == ["判决主文"]]
    assert len(holding) > 1
    assert all(c.rule in ("judgment.holding", "judgment.item", "judgment.paragraph") for c in holding)
    assert holding[1].text.startswith(("一、", "二、", "（刑期"))


NEW_FORMS = {  # our invented documents of forms the shared corpus lacks: expected metadata
    "judgment_示范民事裁定书_准许撤诉.txt": {"document_kind": "民事裁定书", "procedure": "一审", "cause": "装饰装修合同纠纷"},
    "judgment_示范民事裁定书_管辖权异议.txt": {"document_kind": "民事裁定书", "cause": "买卖合同纠纷"},
    "judgment_示范刑事附带民事判决书.txt": {"document_kind": "刑事附带民事判决书", "cause": "故意伤害罪"},
    "judgment_示范刑事裁定书_二审.txt": {"document_kind": "刑事裁定书", "procedure": "二审", "cause": "盗窃罪"},
    "judgment_示范行政判决书.txt": {"document_kind": "行政判决书", "cause": "治安行政处罚"},
    "judgment_示范民事调解书.txt": {"document_kind": "民事调解书", "cause": "机动车交通事故责任纠纷"},
    "judgment_示范民事判决书_再审.txt": {"procedure": "再审", "cause": "商品房销售合同纠纷"},
    "judgment_示范民事判决书_缺席.txt": {"procedure": "一审", "cause": "民间借贷纠纷"},
    "judgment_示范刑事判决书_合议庭.txt": {"case_number": "（2018）苏0599刑初412号", "cause": "诈骗罪"},
    "judgment_示范执行裁定书_案外人异议.txt": {"document_kind": "执行裁定书", "procedure": "执行"},
    "judgment_示范决定书_司法罚款.txt": {"document_kind": "决定书", "procedure": "司法制裁", "cause": "劳动争议"},
    "judgment_示范民事判决书_证据交换.txt": {"court": "示范市示范区人民法院", "cause": "买卖合同纠纷"},
    "judgment_示范民事判决书_二审改判.txt": {"procedure": "二审", "cause": "装饰装修合同纠纷"},
    "judgment_示范民事判决书_二审_服从原判.txt": {"procedure": "二审", "cause": "劳动争议"},
    "judgment_示范民事判决书_再审_原审认为.txt": {"court": "示范省高级人民法院", "procedure": "再审", "cause": "保证合同纠纷"},
    "judgment_示范刑事附带民事判决书_赔偿.txt": {"document_kind": "刑事附带民事判决书", "cause": "交通肇事罪"},
    "judgment_示范民事公益诉讼判决书.txt": {"document_kind": "民事判决书", "procedure": "一审"},
    "judgment_示范行政公益诉讼判决书.txt": {"document_kind": "行政判决书", "procedure": "一审"},
    "judgment_示范民事裁定书_驳回起诉.txt": {"document_kind": "民事裁定书", "cause": "买卖合同纠纷"},
    "judgment_示范执行裁定书_执行异议.txt": {"document_kind": "执行裁定书", "procedure": "执行", "cause": "融资租赁合同纠纷"},
}


@pytest.mark.parametrize("name", sorted(NEW_FORMS))
def test_new_forms_detect_and_carry_metadata(name):
    result = domainchunk.chunk(CORPORA / name, max_chars=1000)
    assert result.detection.doc_type == "judgment"
    meta = result.document.metadata
    assert {k: meta.get(k) for k in NEW_FORMS[name]} == NEW_FORMS[name]


def test_cause_cuts_off_parties_sharing_one_line():
    """原告：甲。被告：乙。原告甲与被告乙…纠纷一案: the second party is a name too, not part of the cause."""
    meta = domainchunk.chunk(CORPORA / "judgment_示范民事判决书_缺席.txt").document.metadata
    assert meta["cause"] == "民间借贷纠纷"


def test_citations_of_an_incidental_civil_judgment():
    meta = domainchunk.chunk(CORPORA / "judgment_示范刑事附带民事判决书.txt").document.metadata
    laws = {(c["law"], c["article"]) for c in meta["citations"]}
    assert ("中华人民共和国民法典", 1179) in laws and ("中华人民共和国刑法", 234) in laws
    assert ("最高人民法院关于适用〈中华人民共和国刑事诉讼法〉的解释", 192) in laws


def _sections(text: str) -> list[tuple[list[str], str]]:
    """Each chunk's path and its first characters with all whitespace gone."""
    result = domainchunk.chunk(text, max_chars=1000)
    assert result.detection.doc_type == "judgment"
    return [(c.path, regex.sub(r"\s+", "", c.text)[:12]) for c in result.chunks]


def _no_spaces(text: str) -> str:
    """Text extracted from a PDF often loses every space, full-width indentation included."""
    return regex.sub(r"[ \t\u3000\u00a0]+", "", text)


JUDGMENTS = sorted(CORPORA.glob("judgment_*.txt"))


@pytest.mark.parametrize("path", JUDGMENTS, ids=lambda p: p.name)
def test_sections_survive_losing_every_space(path):
    text = path.read_text(encoding="utf-8")
    assert _sections(_no_spaces(text)) == _sections(text)


def test_court_kind_and_stated_cause_come_from_the_vocabulary():
    """A specialised court (海事法院), a letter-spaced title and a 案 由 line: all read from judgment.yaml."""
    text = (
        "示范海事法院\n民 事 判 决 书\n（2024）示72民初5号\n"
        "原告：示范甲航运有限公司。\n被告：示范乙贸易有限公司。\n案　由：海上货物运输合同纠纷\n"
        "原告示范甲航运有限公司与被告示范乙贸易有限公司运费纠纷一案，本院于2024年1月2日立案后进行了审理。\n"
        "原告示范甲航运有限公司诉称，被告拖欠运费。\n"
        "示范海事法院认为，被告应当支付运费。\n"
    )
    result = domainchunk.chunk(text)
    meta = result.document.metadata
    assert (meta["court"], meta["document_kind"], meta["cause"]) == ("示范海事法院", "民事判决书", "海上货物运输合同纠纷")
    assert [c.path for c in result.chunks][-1] == ["本院认为"]


def _hard_wrapped(text: str, width: int = 36) -> str:
    """A PDF's text cut at a fixed width: every longer line broken into lines of ``width`` characters."""
    return "\n".join(
        piece for line in text.split("\n") for piece in ([line] if len(line) <= width else
                                                         [line[i:i + width] for i in range(0, len(line), width)])
    )


# Our documents of the templates the shared corpus lacks (二审, 再审, 刑事附带民事, 公益诉讼, 驳回起诉, 执行异议).
TEMPLATES = [CORPORA / f"judgment_{name}.txt" for name in (
    "示范民事判决书_二审改判", "示范民事判决书_二审_服从原判", "示范民事判决书_再审_原审认为", "示范刑事附带民事判决书_赔偿",
    "示范民事公益诉讼判决书", "示范行政公益诉讼判决书", "示范民事裁定书_驳回起诉", "示范执行裁定书_执行异议",
)]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_sections_survive_hard_wrapping(path):
    text = path.read_text(encoding="utf-8")
    wrapped = _hard_wrapped(text)
    assert wrapped.count("\n") > text.count("\n") + 10  # the re-laying really cut lines
    assert _sections(wrapped) == _sections(text)
    assert _sections(_no_spaces(wrapped)) == _sections(text)


def test_citations_and_cause_of_a_hard_wrapped_judgment_are_those_as_written():
    # a citation or the case's cause cut at a line end is read whole, on the view the outline matched
    from relayout import wrapped

    source = (ROOT / "corpora" / "judgment_民事判决书_金融借款_多项诉请.txt").read_text(encoding="utf-8")
    written = domainchunk.chunk(source, doc_type="judgment").document.metadata
    relaid = domainchunk.chunk(wrapped(source), doc_type="judgment").document.metadata
    assert written["citations"] and relaid["citations"] == written["citations"]
    assert relaid["cause"] == written["cause"]
