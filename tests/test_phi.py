"""PHI masking: typed placeholders, offsets valid against the masked text."""
from __future__ import annotations

from domainchunk import pipeline
from domainchunk.phi import apply_edits, mask_document
from domainchunk.readers.text import text_document

RECORD = (
    "入院记录\n姓名：钱示例　性别：女　年龄：40岁　住院号：Z0001\n"
    "联系电话：13800001111 住址：示例省示例市示例路2号\n身份证号：110101198001010022\n"
    "主诉：头晕2天。\n现病史：患者2天前无诱因出现头晕，电话13900002222随访。\n"
)


def test_values_become_typed_placeholders():
    masked = mask_document(text_document(RECORD, "<t>"))
    for value in ("钱示例", "Z0001", "13800001111", "示例省示例市示例路2号", "110101198001010022", "13900002222"):
        assert value not in masked.text
    for placeholder in ("[姓名]", "[住院号]", "[电话]", "[住址]", "[身份证号]"):
        assert placeholder in masked.text
    assert "性别：女" in masked.text


def test_offsets_hold_for_chunks_and_blocks():
    result = pipeline.chunk(RECORD, doc_type="medical_record", mask_phi=True)
    text = result.document.text
    for c in result.chunks:
        assert text[c.start : c.end] == c.text
        assert "钱示例" not in str(c.metadata) and "Z0001" not in str(c.metadata)
    assert result.chunks[-1].metadata["住院号"] == "[住院号]"
    blocks = result.document.blocks
    assert blocks[0].start == 0 and blocks[-1].end == len(text.rstrip("\n"))


def test_offset_inside_a_replaced_value_moves_to_its_placeholder():
    text, move = apply_edits("ab12345cd", [(2, 7, "[X]")])
    assert text == "ab[X]cd"
    assert [move(i) for i in (0, 2, 4, 7, 9)] == [0, 2, 2, 5, 7]


def test_blank_form_fields_are_left_alone():
    masked = mask_document(text_document("姓名：＿＿＿＿　性别：男\n", "<t>"))
    assert masked.text.startswith("姓名：＿＿＿＿")


def test_record_numbers_of_lab_reports_and_outpatient_notes_are_masked():
    text = "检验报告单\n姓名：甲示例　病历号：0098123　ID号：P55201　科别：肾内科\n就诊卡号：C0012\n"
    masked = mask_document(text_document(text, "<t>"))
    for value in ("甲示例", "0098123", "P55201", "C0012"):
        assert value not in masked.text
    assert "科别：肾内科" in masked.text


# ---------------------------------------------------------------- issue 10: what leaked before

import json  # noqa: E402

import pytest  # noqa: E402

from domainchunk.batch import Batch, Options, collect_inputs, run_batch, side_files  # noqa: E402
from domainchunk.errors import RuleError  # noqa: E402
from domainchunk.phi import phi_edits, pseudonym, vocabulary  # noqa: E402
from phi_records import records  # noqa: E402

NARRATIVE = (
    "入院记录\n"
    "姓　　名：孙 示强　性别：男　年龄：45岁　出生日期：1979-04-18\n"
    "住院号：ZY80123　ID:P01234567　邮箱：sun.sq@example.com\n"
    "工作单位：青禾示例机械有限公司\n"
    "联系人：周示华　联系电话：+86 139 0000 2222\n"
    "现病史：患者孙示强，男，45岁，因头晕2天入院。其子孙小示陪同，护工何示丽电话021-66668888。"
    "曾于外院住院（住院号为A7788123）。家庭电话 (0571)8888 7777，手机138-0000-1111。\n"
    "随访：患者孙 示 强出院后复诊，生于1979年4月18日。\n"
    "医师签名：钱示明\n"
)
VALUES = ["孙示强", "1979-04-18", "ZY80123", "P01234567", "sun.sq@example.com", "青禾示例机械有限公司", "周示华",
          "13900002222", "孙小示", "何示丽", "66668888", "A7788123", "88887777", "13800001111", "钱示明",
          "1979年4月18日"]


def _squash(s: str) -> str:
    return "".join(c for c in s if not c.isspace() and c not in "-－()")


def test_every_value_of_the_invented_record_is_masked_in_every_output_field():
    result = pipeline.chunk(NARRATIVE, doc_type="medical_record", mask_phi=True, name="孙示强_入院记录.txt")
    blob = _squash(json.dumps([c.to_record() for c in result.chunks] + [c.context_text for c in result.chunks],
                              ensure_ascii=False))
    assert [v for v in VALUES if _squash(v) in blob] == []
    text = result.document.text
    assert "姓　　名：[姓名]　性别：男　年龄：45岁" in text  # labels and non-identifying fields stay
    assert "其子[姓名]陪同" in text and "护工[姓名]电话[电话]" in text and "生于[出生日期]" in text
    for c in result.chunks:
        assert text[c.start : c.end] == c.text


@pytest.mark.parametrize("phone", ["13800001111", "138-0000-1111", "138 0000 1111", "+86 138 0000 1111",
                                   "+8613800001111", "0086-13800001111", "010-62345678", "(0571)8888 7777",
                                   "020 8888 7777", "0755-88887777转123"])
def test_phones_without_a_label_in_their_common_forms(phone):
    text = f"现病史：随访电话见下，{phone}，每周一次。\n"
    edits, _ = phi_edits(text)
    assert [(text[a:b], rep) for a, b, rep in edits] == [(phone, "[电话]")]


def test_an_id_number_without_a_label_needs_a_valid_check_digit():
    valid, invalid = "110101198003050016", "110101198003050014"
    masked = mask_document(text_document(f"备注：{valid}；对照：{invalid}。\n", "<t>")).text
    assert valid not in masked and invalid in masked
    spaced = mask_document(text_document("证件 110101 19800305 0016 已核对。\n", "<t>")).text
    assert "19800305" not in spaced


def test_a_header_value_is_masked_wherever_it_is_repeated_also_spaced():
    text = "姓名：欧阳示娜\n主诉：头痛。\n现病史：欧阳示娜自述头痛，家属称欧 阳 示 娜夜间加重。\n"
    masked = mask_document(text_document(text, "<t>")).text
    assert "示娜" not in masked and masked.count("[姓名]") == 3


def test_a_rare_surname_is_caught_after_a_label_and_by_repeats_but_not_after_a_bare_role_word():
    # The rule file's surname list decides names after role words; a label needs none.
    masked = mask_document(text_document("联系人：厉示华\n其子厉示华陪同，其女芮示婷陪同。\n", "<t>")).text
    assert "厉示华" not in masked and "芮示婷" in masked


def test_table_columns_and_glued_fields():
    text = "姓名\t性别\t年龄\t病案号\n郑示国\t男\t60岁\t0091234\n\n姓名：冯示玲性别：女年龄：33岁\n"
    masked = mask_document(text_document(text, "<t>")).text
    assert "[姓名]\t男\t60岁\t[住院号]" in masked and "姓名：[姓名]性别：女年龄：33岁" in masked
    assert masked.startswith("姓名\t性别\t年龄\t病案号\n")  # a header row of labels is not a value


def test_clinical_text_that_looks_like_identifiers_is_left_alone():
    text = ("入院日期：2024-05-06　床号：12\n现病史：患者于2024-05-06入院，患者高热3天。家属要求出院，其子体健。\n"
            "2024-05-07 08:30 主治医师查房：病情平稳。血小板 256×10^9/L，HbA1c 6.5%，血压 128/76mmHg。\n"
            "诊疗计划：头孢曲松2.0g 静滴 每12小时一次；标本编号 20240506001。出生体重3.2kg。\n")
    edits, _ = phi_edits(text)
    assert [text[a:b] for a, b, _ in edits] == []


def test_source_becomes_a_stable_pseudonym(tmp_path):
    path = tmp_path / "孙示强.txt"
    path.write_text(NARRATIVE, encoding="utf-8")
    first = pipeline.chunk(path, mask_phi=True)
    again = pipeline.chunk(path, mask_phi=True)
    sources = {c.source for c in first.chunks} | {c.source for c in again.chunks}
    assert len(sources) == 1 and "孙示强" not in sources.pop() and first.document.source.startswith("record-")
    assert first.document.source.endswith(".txt") and pseudonym("<text>", "x") == "<text>"
    assert pipeline.chunk(path).chunks[0].source == str(path)  # without masking the path stays


def test_the_batch_manifest_alone_ties_the_pseudonym_to_the_file(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "孙示强.txt").write_text(NARRATIVE, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(Batch(inputs=collect_inputs([str(tmp_path / "in")]), options=Options(mask_phi=True), output=out))
    chunks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert chunks and not any("孙示强" in line for line in out.read_text(encoding="utf-8").splitlines())
    entry = json.loads(side_files(out, False)[0].read_text(encoding="utf-8"))
    assert entry["input"].endswith("孙示强.txt") and entry["masked_source"] == chunks[0]["source"]


def test_the_vocabulary_comes_from_the_rule_file(tmp_path):
    from domainchunk.rulefile import builtin_rules_dir

    own = (builtin_rules_dir() / "medical_record.yaml").read_text(encoding="utf-8")
    (tmp_path / "medical_record.yaml").write_text(own.replace("phi_name:\n    姓名: [", "phi_name:\n    姓名: [陪诊人, "),
                                                  encoding="utf-8")
    text = "陪诊人：吴示平\n主诉：咳嗽。\n"
    assert "吴示平" in mask_document(text_document(text, "<t>")).text
    extended = pipeline.chunk(text, doc_type="medical_record", mask_phi=True, rules_dir=tmp_path)
    assert "吴示平" not in extended.document.text


def test_an_unknown_pattern_name_in_the_rule_file_is_a_rule_error_naming_it():
    rules = pipeline.load_rules()["medical_record"]
    broken = rules.model_copy(update={"terms": {**rules.terms, "phi_pattern": {"电话": ["fax"]}}})
    with pytest.raises(RuleError, match="unknown pattern 'fax'"):
        vocabulary(broken)


def test_generated_records_meet_the_benchmark_target():
    """The benchmark's check on 40 records: recall, no header value in any output field, no false mask."""
    vocab = vocabulary()
    total = missed = false = 0
    for rec in records(40, seed=11):
        edits, _ = phi_edits(rec.text, vocab)
        total += len(rec.phi)
        missed += sum(not any(ea <= a and b <= eb for ea, eb, _ in edits) for a, b, _, _ in rec.phi)
        false += sum(not any(a < eb and ea < b for a, b, _, _ in rec.phi) for ea, eb, _ in edits)
        result = pipeline.chunk(rec.text, doc_type="medical_record", mask_phi=True, name=f"{rec.name}.txt")
        blob = _squash(json.dumps([c.to_record() for c in result.chunks], ensure_ascii=False))
        assert [v for v in rec.header_values if _squash(v) in blob] == []
        assert rec.name not in result.chunks[0].source
    assert total > 700 and 1 - missed / total >= 0.995 and false == 0


def test_a_docx_header_table_and_title_are_masked_cells_and_blocks_still_fit():
    from domainchunk.readers import read_document
    from phi_records import to_docx

    rec = next(r for r in records(30, seed=3) if "\t" in r.text[: r.text.index("科室")])  # a tab-layout header
    doc = read_document(f"{rec.name}.docx", data=to_docx(rec, heading=f"{rec.name} 入院记录"))
    assert any(b.kind == "table" for b in doc.blocks) and rec.name in (doc.title or "")
    result = pipeline.chunk_document(doc, doc_type="medical_record", mask_phi=True)
    masked = result.document
    assert rec.name not in masked.title and rec.name not in masked.source and "[姓名]" in masked.title
    for block in masked.blocks:
        for row in block.rows:
            for cell in row.cells:
                assert masked.text[cell.start : cell.end] == cell.text
                assert not any(_squash(v) in _squash(cell.text) for v in rec.header_values)
    blob = _squash(json.dumps([c.to_record() for c in result.chunks], ensure_ascii=False))
    assert [v for v in rec.header_values if _squash(v) in blob] == []


@pytest.mark.parametrize("text, value", [
    ("**姓名**：韩示东\n", "韩示东"), ("**姓名：**韩示东\n", "韩示东"), ("【姓名】韩示东\n", "韩示东"),
    ("家庭电话88887777，", "88887777"), ("出生日期1980-03-05，", "1980-03-05"), ("病案号#0091234。", "0091234"),
    ("电话：13800001111 2024-05-06入院\n", "13800001111"),  # the date after it is not part of the phone
])
def test_labels_in_markdown_bold_brackets_or_glued_to_a_code(text, value):
    edits, _ = phi_edits(text)
    assert [text[a:b] for a, b, _ in edits] == [value]


@pytest.mark.parametrize("text, values", [
    ("姓名 Name：Emily 示某　性别：女\n", ["Emily 示某"]), ("患者姓名：Li 示\n", ["Li 示"]),
    # a bracketed heading that is a label itself, its field after it: the field's value is still found
    ("【术者】术者：韩示东　一助：郑示西\n", ["韩示东", "郑示西"]),
])
def test_latin_and_han_names_and_a_label_after_a_bracketed_heading_of_its_own(text, values):
    edits, _ = phi_edits(text)
    assert [text[a:b] for a, b, _ in edits] == values


def test_a_name_needs_a_separator_after_its_label():
    for text in ("医师签名确认后执行。\n", "联系人未到场。\n"):
        assert phi_edits(text)[0] == []


def test_other_document_types_keep_their_words():
    text = ("原告：示例甲，男，1980年2月2日出生，住示例市。\n事实和理由：涉案车辆受损。\n案由：机动车交通事故责任纠纷\n"
            "地址　　　　　│\n患者家住青禾市长乐路3号，务农。\n")
    edits, _ = phi_edits(text)
    assert [(text[a:b], rep) for a, b, rep in edits] == [("1980年2月2日", "[出生日期]"), ("青禾市长乐路3号", "[住址]")]


def test_resume_redoes_masked_outputs_of_every_type_when_the_phi_vocabulary_changes():
    from domainchunk.batch import Fingerprints

    registry = pipeline.load_rules()
    medical = registry["medical_record"]
    edited = {**registry, "medical_record": medical.model_copy(
        update={"terms": {**medical.terms, "phi_role": {**medical.terms["phi_role"], "姓名": ["陪诊人"]}}})}
    masked, plain = Options(mask_phi=True), Options()
    assert Fingerprints(masked, registry).key("lab_report") != Fingerprints(masked, edited).key("lab_report")
    assert Fingerprints(plain, registry).key("lab_report") == Fingerprints(plain, edited).key("lab_report")


def test_with_masking_no_file_name_reaches_output_names_errors_or_logs(tmp_path):
    # Before: -o DIR/ mirrored 孙示强.txt.jsonl, and errors.jsonl, warnings and -v logs named the file.
    import os
    import subprocess
    import sys
    from pathlib import Path

    docs = tmp_path / "周示华"  # a folder named after the patient, as hospital exports often are
    docs.mkdir()
    (docs / "孙示强.txt").write_text(NARRATIVE, encoding="utf-8")
    (docs / "孙示强_空.txt").write_text("", encoding="utf-8")
    (docs / "孙示强_坏.docx").write_bytes(b"not a zip")
    os.mkfifo(docs / "孙示强_管道.txt")
    out = tmp_path / "out"

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(docs), "-o", f"{out}/", "--mask-phi",
                               "-v", "--resume"], capture_output=True, text=True, timeout=120)

    first = run()
    assert first.returncode == 1, first.stderr  # the broken DOCX fails, the rest converts
    shown = [p for p in out.rglob("*") if p.is_file() and p.parent.name != "_domainchunk"]
    shown_text = first.stderr + "".join(p.name for p in shown)
    shown_text += (out / "_domainchunk" / "errors.jsonl").read_text(encoding="utf-8")
    assert "孙示强" not in shown_text and "周示华" not in shown_text
    assert {p.name.split(".")[0][:7] for p in shown} == {"record-"} and len(shown) == 2
    manifest = [json.loads(line) for line in (out / "_domainchunk" / "manifest.jsonl").read_text(encoding="utf-8").splitlines()]
    named = {Path(e["input"]).name: e.get("masked_name") for e in manifest}
    assert named["孙示强.txt"].startswith("record-")  # the local manifest alone ties a name to its file
    again = run()  # the key in the sidecar folder keeps the names across resumed runs
    assert sorted(p.name for p in out.glob("record-*")) == sorted(p.name for p in shown)
    assert "孙示强" not in again.stderr


def test_a_hard_wrapped_record_leaks_no_value_its_text_as_written_does_not():
    # A PDF's text is hard-wrapped (and double-spaced, as PDF-to-Word converters write it): a label and its value, a role word and the name after it, or
    # a number itself, are cut apart by a line break. Masking reads the text as the rules do, on
    # the view that joins such lines, so wrapping may not make any value reach the output.
    # Left out, as no PDF's text has them: a wrap inside a Markdown mark (**住院号*|*：), and with
    # every space removed, records whose header columns are nothing but spaces and tabs (their
    # values, and so the repeats of those values in the narrative, are no longer fields).
    from relayout import double_blank_wrapped, no_spaces_wrapped, wrapped

    spaces_are_structure = {"header-tab-columns", "header-spaced-value"}

    def leaked(text: str, rec, left_out: set[str]) -> set[str]:
        result = pipeline.chunk(text, doc_type="medical_record", mask_phi=True, name="record.txt")
        blob = _squash(json.dumps([c.to_record() for c in result.chunks], ensure_ascii=False))
        return {v for a, b, _, layout in rec.phi
                if layout not in left_out and len(v := _squash(rec.text[a:b])) >= 2 and v in blob}

    added = {}
    for rec in records(40, seed=11):
        as_written = leaked(rec.text, rec, set())
        spaced_columns = any(layout in spaces_are_structure for *_, layout in rec.phi)
        for relaid in (wrapped, no_spaces_wrapped, double_blank_wrapped):
            if relaid is no_spaces_wrapped and spaced_columns:
                continue
            if more := leaked(relaid(rec.text), rec, {"header-markdown-bold"}) - as_written:
                added[rec.name, relaid.__name__] = len(more)
    assert added == {}


def test_a_record_run_on_or_full_width_leaks_no_value_its_text_as_written_does_not():
    """Paragraphs re-joined (…@example.com住址：…, a Han label right after a Latin value) and
    full-width punctuation (＊＊住院号＊＊：, Markdown bold after a 半角转全角 pass): before, 13 and
    11 values of 60 records reached the output that did not as written."""
    from relayout import full_width_chars, one_line_paragraphs

    def leaked(text: str, rec) -> set[str]:
        result = pipeline.chunk(text, doc_type="medical_record", mask_phi=True, name="record.txt")
        blob = _squash(json.dumps([c.to_record() for c in result.chunks], ensure_ascii=False))
        return {v for a, b, _, _ in rec.phi if len(v := _squash(rec.text[a:b])) >= 2 and v in blob}

    added = {}
    for rec in records(40, seed=5):
        as_written = leaked(rec.text, rec)
        for relaid in (one_line_paragraphs, full_width_chars):
            if more := leaked(relaid(rec.text), rec) - as_written:
                added[rec.name, relaid.__name__] = len(more)
    assert added == {}


def test_a_key_value_table_masks_the_value_not_the_next_key():
    """A record exported as key–value rows (姓名\\t周某某 over 性别\\t女): the first row was read as a
    header row, so the key under 姓名 (性别) was masked as a name, and the row's label lost."""
    text = "入院记录\n\n姓名\t周某某\n性别\t女\n年龄\t58岁\n\n姓名\t性别\t年龄\n陈某某\t男\t45岁\n\n主诉\t胸痛3天。\n"
    masked = "\n".join(c.text for c in pipeline.chunk(text, doc_type="medical_record", mask_phi=True).chunks)
    assert "姓名\t[姓名]\n性别\t女" in masked
    assert "[姓名]\t男\t45岁" in masked  # a header row's values still are
    assert "周某某" not in masked and "陈某某" not in masked
