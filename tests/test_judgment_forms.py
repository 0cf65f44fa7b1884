"""Judgment forms of round ten: the metadata the judgment hooks read on them (the sections are
scored against their gold in test_corpora.py), and the header habits behind each reading."""
from __future__ import annotations

from pathlib import Path

import pytest

import domainchunk

CORPORA = Path(__file__).resolve().parents[1] / "corpora"

FORMS = {  # our invented documents: the metadata each must carry
    # a legal database's copy: 【审理法院】 and 【案由】 label the header lines
    "judgment_民事裁定书_实现担保物权_数据库元数据.txt": {
        "court": "澜州市泊川区人民法院", "cause": "申请实现担保物权", "procedure": "特别程序"},
    # the history gives each party a short name, （以下简称X）, before the cause
    "judgment_执行裁定书_执行复议_异议法院查明.txt": {"cause": "借款合同纠纷", "procedure": "执行"},
    "judgment_民事判决书_律所Word_编号标题_连排.txt": {"cause": "建设工程施工合同纠纷", "procedure": "一审"},
    # the history names the third party by the tail of the name on its party line
    "judgment_农村土地承包经营纠纷仲裁裁决书.txt": {
        "cause": "土地承包经营权纠纷", "case_number": "云农仲裁字〔2024〕第6号", "document_kind": "裁决书"},
    # the ruling on a sentence names the convict (罪犯甲犯…罪)
    "judgment_刑事裁定书_撤销缓刑_社区矫正机构建议.txt": {"cause": "危险驾驶罪", "procedure": "减刑假释"},
    # a later ruling in one case numbers itself 之五; preservation is 财保 / 行保
    "judgment_民事裁定书_终结破产程序_最后分配.txt": {"case_number": "（2023）澜01破9号之五", "procedure": "破产"},
    "judgment_海事裁定书_扣押船舶_诉前海事请求保全.txt": {"court": "青屿海事法院", "procedure": "保全"},
    "judgment_民事裁定书_诉前行为保全_商业秘密禁令.txt": {"court": "澜州知识产权法院", "procedure": "保全"},
    # an arbitration court's award and an organ's penalty decision carry a document number in 〔〕
    "judgment_商事仲裁裁决书_涉外_分章标题.txt": {"court": "青屿国际仲裁院", "case_number": "〔2024〕青仲裁字第0317号"},
    "judgment_行政处罚决定书_市场监督管理局.txt": {
        "document_kind": "行政处罚决定书", "case_number": "泊市监处罚〔2024〕118号"},
    "judgment_决定书_暂予监外执行_保外就医.txt": {"document_kind": "暂予监外执行决定书", "cause": "非法吸收公众存款罪"},
    "judgment_刑事判决书_缺席审判_本院认为跨页.txt": {"cause": "贪污罪", "procedure": "一审"},
}


def test_forms_are_judgments_with_their_metadata():
    wrong = {}
    for name, expected in FORMS.items():
        result = domainchunk.chunk(CORPORA / name, max_chars=1000)
        got = {k: result.document.metadata.get(k) for k in expected}
        if result.detection.doc_type != "judgment" or got != expected:
            wrong[name] = (result.detection.doc_type, got)
    assert wrong == {}


HEAD = "示范市示范区人民法院\n{kind}\n{number}\n原告：示范甲有限公司，住所地示范市。\n被告：示范乙有限公司，住所地示范市。\n"
TAIL = "本院认为，理由成立。依照《中华人民共和国民法典》第五百七十九条规定，判决如下：\n驳回原告的诉讼请求。\n"


@pytest.mark.parametrize("kind, number, history, key, expected", [
    # the history gives each party a short name before the cause
    ("民事判决书", "（2024）示0101民初9号",
     "原告示范甲有限公司（以下简称甲公司）与被告示范乙有限公司（以下简称乙公司）买卖合同纠纷一案，本院于2024年1月2日立案后进行了审理。",
     "cause", "买卖合同纠纷"),
    # a court's （2024）… case number wins over an organ's 〔2024〕 number its history cites
    ("行政判决书", "（2024）示0102行初88号",
     "原告示范甲有限公司不服被告作出的示市监处罚〔2024〕118号行政处罚决定，向本院提起行政诉讼。",
     "case_number", "（2024）示0102行初88号"),
])
def test_header_reading(kind, number, history, key, expected):
    text = HEAD.format(kind=kind, number=number) + history + "\n" + TAIL
    assert domainchunk.chunk_text(text).document.metadata[key] == expected
