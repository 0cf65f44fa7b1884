"""Contracts end to end: clause paths, parties, signature block, annexes, cross-references.

Scores against gold files (ours and the shared real contracts) are in test_corpora.py."""
from __future__ import annotations

from pathlib import Path

import pytest

import domainchunk

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"
PURCHASE = CORPORA / "contract_示范设备采购合同.txt"
LEASE = CORPORA / "contract_示范房屋租赁合同.txt"
PARTS = CORPORA / "contract_示范建设工程施工合同.txt"


@pytest.fixture(scope="module")
def purchase():
    return domainchunk.chunk(PURCHASE, max_chars=1000)


@pytest.fixture(scope="module")
def lease():
    return domainchunk.chunk(LEASE, max_chars=1000)


def test_detects_contracts():
    for path in (PURCHASE, LEASE, PARTS):
        assert domainchunk.chunk(path).detection.doc_type == "contract", path.name


def test_parties_and_title(purchase):
    meta = purchase.document.metadata
    assert meta["title"] == "示范设备采购合同"
    assert meta["parties"] == [
        {"role": "买方", "name": "示范智能制造有限公司", "alias": "甲方"},
        {"role": "卖方", "name": "示例精工机械有限公司", "alias": "乙方"},
    ]
    assert all(c.metadata.get("parties") == meta["parties"] for c in purchase.chunks[1:])


def test_decimal_clauses_definitions_amounts_and_cross_references(purchase):
    clauses = {c.metadata.get("clause"): c for c in purchase.chunks if c.kind == "clause"}
    assert list(clauses) == [f"{n}." for n in range(1, 11)]
    first = clauses["1."]
    assert first.path == ["1."] and first.metadata["clause_title"] == "定义与解释"
    assert first.metadata["defined_terms"] == ["本合同", "合同设备", "验收合格日"]
    assert first.metadata["cross_references"] == ["第5.2条"]
    assert clauses["3."].metadata["amounts"] == ["人民币1,280,000元", "壹佰贰拾捌万元整"]
    assert clauses["4."].metadata["dates"] == ["2024年6月30日"]
    # 1. 2. 3. listed inside clause 2 are items, not clauses.
    assert "1. 国家现行的强制性标准" in clauses["2."].text


def test_signature_block_is_its_own_chunk(purchase, lease):
    for result in (purchase, lease):
        signature = [c for c in result.chunks if c.kind == "signature"]
        assert len(signature) == 1
        assert signature[0].text.startswith("甲方（盖章）")
        assert "乙方" in signature[0].text


def test_annex_numbering_restart_is_not_clauses(lease):
    annexes = [c for c in lease.chunks if c.kind == "annex"]
    assert [c.path for c in annexes] == [["附件一"], ["附件二"]]
    assert "第一条 交付时房屋内设施" in annexes[0].text
    assert "一、装修范围" in annexes[1].text
    clauses = [c.metadata["clause"] for c in lease.chunks if c.kind == "clause"]
    assert clauses == ["第一条", "第二条", "第三条", "第四条", "第五条", "第六条", "第七条", "第八条", "第九条", "第十条", "第十一条"]


def test_chapters_full_width_subclauses_and_cross_reference(lease):
    by_clause = {c.metadata.get("clause"): c for c in lease.chunks if c.kind == "clause"}
    assert by_clause["第一条"].path == ["第一章 租赁物", "第一条"]
    assert by_clause["第一条"].metadata["clause_title"] == "房屋基本情况"
    assert by_clause["第三条"].path == ["第二章 租金和费用", "第三条"]
    assert by_clause["第八条"].metadata["cross_references"] == ["第九条"]
    small = domainchunk.chunk(LEASE, max_chars=60)
    pieces = [c for c in small.chunks if c.path[-1:] == ["第一条"]]
    assert len(pieces) == 2 and pieces[1].text.startswith("1．2") and pieces[1].rule == "contract.subclause"


def test_contract_in_parts_restarts_numbering():
    result = domainchunk.chunk(PARTS, max_chars=1000)
    paths = [c.path for c in result.chunks if c.kind in ("clause", "signature")]
    assert paths[0] == ["第一部分 合同协议书", "一、工程概况"]
    assert ["签署"] in paths
    assert ["第二部分 通用合同条款", "第2.01条"] in paths
    assert ["第三部分 专用合同条款", "1-1"] in paths
    assert paths[-1] == ["第三部分 专用合同条款", "2-2"]


def test_every_contract_of_ours_detects_as_contract():
    for path in sorted(CORPORA.glob("contract_*.txt")):
        assert domainchunk.chunk(path).detection.doc_type == "contract", path.name


def test_parties_named_after_filling_notes():
    # The 填写说明 before the contract numbers its notes like clauses; the parties follow them.
    result = domainchunk.chunk(CORPORA / "contract_示范加工承揽合同.txt", max_chars=1000)
    assert [p["role"] for p in result.document.metadata["parties"]] == ["定作人", "承揽人"]
    clauses = [c.path for c in result.chunks if c.kind == "clause"]
    assert clauses[-10:] == [[f"{n}、{t}"] for n, t in zip(
        "一二三四五六七八九十",
        ["加工成果的名称、数量、价款", "加工成果的质量要求及技术标准", "定作人提供材料的情况", "承揽人提供材料的情况",
         "交付的时间、地点及方式", "验收标准、方法和期限", "结算方式及期限", "违约责任", "争议解决方式", "其他约定事项"],
    )]


def test_box_tables_inside_clauses_and_annexes_are_not_signatures():
    for name in ("contract_示范农副产品购销合同.txt", "contract_示范合伙协议.txt"):
        result = domainchunk.chunk(CORPORA / name, max_chars=1000)
        assert len([c for c in result.chunks if c.kind == "signature"]) == 1, name


def test_numbered_clauses_keep_their_cn_sub_headings():
    result = domainchunk.chunk(CORPORA / "contract_示范货物运输合同.txt", max_chars=1000)
    clauses = [c for c in result.chunks if c.kind == "clause"]
    assert [c.path for c in clauses] == [[f"{n}、"] for n in range(1, 12)]
    assert "二、承运方的权利义务" in clauses[8].text


def _contract_docx(tmp_path: Path) -> Path:
    """A contract saved from Word: title, parties, clauses (one glued to its title, two in one
    paragraph), a signature laid out as a table without seal words, and a list after it."""
    from docx import Document

    document = Document()
    document.add_paragraph("示范设备租赁合同")
    document.add_paragraph("出租方：示范甲公司")
    document.add_paragraph("承租方：示范乙公司")
    document.add_paragraph("一、租赁设备为示范机床一台。二、租期为一年。")
    document.add_paragraph("三租金条款：")
    document.add_paragraph("月租金为人民币3000元。")
    document.add_paragraph("四、本合同一式两份。")
    table = document.add_table(rows=2, cols=2)
    for r, cells in enumerate((("出租方：", "承租方："), ("代表：", "代表："))):
        for c, text in enumerate(cells):
            table.cell(r, c).text = text
    document.add_paragraph("设备交接清单")
    document.add_paragraph("1．示范机床一台。")
    path = tmp_path / "lease.docx"
    document.save(path)
    return path


def test_docx_contract_title_signature_table_and_trailing_list(tmp_path):
    result = domainchunk.chunk(_contract_docx(tmp_path), max_chars=1000)
    assert result.detection.doc_type == "contract"
    assert result.document.title == "示范设备租赁合同"
    assert [(c.path, c.kind) for c in result.chunks] == [
        ([], "preamble"), (["一、"], "clause"), (["二、"], "clause"), (["三租金条款："], "clause"),
        (["四、"], "clause"), (["签署"], "signature"), (["设备交接清单"], "annex"),
    ]
    assert result.chunks[0].text.startswith("示范设备租赁合同")
    assert result.chunks[5].text.startswith("出租方：\t承租方：")


def _under_examples():
    from domainchunk.rulefile import load_rules

    for rules in load_rules().values():
        for level in rules.levels:
            if level.under is not None:
                yield pytest.param(level.under, id=f"{level.id}/under-{level.under.name}")


@pytest.mark.parametrize("under", list(_under_examples()))
def test_under_examples(under):
    """A level's `under` line: its match examples are lines under which the level opens, its
    no_match examples lines under which it does not (the engine reads the line whole)."""
    for line in under.examples.match:
        assert under.holds(f"{line}\nX", len(line) + 1), line
    for line in under.examples.no_match:
        assert not under.holds(f"{line}\nX", len(line) + 1), line


def test_under_skips_blank_lines_only_when_allowed():
    from domainchunk.rulefile import Under

    example = {"match": ["服务包括："], "no_match": ["示范。"]}
    spaced = Under(name="colon", pattern=".*[：:]", why="a list's head", blank_lines=True, examples=example)
    tight = spaced.model_copy(update={"blank_lines": False})
    text = "服务包括：\n\n一、示范"
    assert spaced.holds(text, text.index("一"))
    assert not tight.holds(text, text.index("一"))
    assert not spaced.holds("一、示范", 0)  # the first line has no line above


def test_words_that_begin_with_a_numeral_come_from_the_rule_file(tmp_path):
    """A user's rules folder adds a 一X word; the glued-number variant then refuses it too."""
    import yaml

    text = "示范合同\n\n一览约定：\n示范。\n二付款：\n示范。\n三其他：\n示范。\n"
    (tmp_path / "contract.yaml").write_text(yaml.safe_dump(
        {"extends": "contract", "version": "firm-1", "terms": {"numeral_word": {"一览": []}}}, allow_unicode=True),
        encoding="utf-8")
    builtin = domainchunk.chunk_text(text, doc_type="contract").chunks
    ours = domainchunk.chunk_text(text, doc_type="contract", rules_dir=tmp_path).chunks
    assert [c.path for c in builtin if c.kind == "clause"] == [["一览约定："], ["二付款："], ["三其他："]]
    assert [c.path for c in ours if c.kind == "clause"] == [["二付款："], ["三其他："]]


def test_a_bold_clause_heading_parted_by_pdftotexts_blocks_still_opens_its_clause():
    """pdftotext's default mode parts **第一条　标题** at its wide gap into ``**第一条`` and ``标题**``
    with a blank line between: the pair is still emphasis, and 第一条 still opens the clause."""
    text = ("# 示范技术转让合同\n\n甲方：示范甲公司\n\n乙方：示范乙研究所\n\n双方经协商一致，订立本合同。\n\n"
            "**第一条\n\n技术内容**\n\n乙方向甲方转让示范技术。\n\n**第二条\n\n转让费**\n\n转让费为人民币十万元。\n\n"
            "**甲方（盖章）**：示范甲公司\n")
    result = domainchunk.chunk(text, max_chars=1000, doc_type="contract")
    assert [c.path for c in result.chunks][1:] == [["第一条"], ["第二条"], ["签署"]]
    assert result.chunks[1].text.startswith("**第一条\n\n技术内容**")


def test_a_letter_spaced_clause_label_glued_to_its_bracketed_title_opens_the_clause():
    """第 三 条【车 辆 交 付】: a letter-spaced label runs on into its bracketed title with no gap; the
    label is still read solid, short title or long (the long one the justified-line reading folds)."""
    text = ("示范二手车买卖合同\n\n甲方：示范甲\n乙方：示范乙公司\n\n双方订立本合同。\n\n"
            "第 一 条【车 辆 基 本 情 况 及 随 车 文 件】\n车辆品牌型号为示范牌。\n\n"
            "第 二 条【价 款】\n车辆价款为人民币七万元。\n\n第 三 条【交 付】\n甲方应于约定日期交付车辆。\n\n"
            "甲方（签字）：　　　　乙方（盖章）：\n")
    result = domainchunk.chunk(text, max_chars=1000, doc_type="contract")
    assert [c.path for c in result.chunks][1:] == [["第一条"], ["第二条"], ["第三条"], ["签署"]]
