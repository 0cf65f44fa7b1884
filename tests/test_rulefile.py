"""Rule files: validation errors name the file, the rule and the reason; user folders override."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import domainchunk
from domainchunk import RuleError
from domainchunk.rulefile import builtin_rules_dir, json_schema, load_rule_file, load_rules

STATUTE = builtin_rules_dir() / "statute.yaml"


def _write(tmp_path: Path, data: dict, name: str = "statute.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _statute() -> dict:
    return yaml.safe_load(STATUTE.read_text(encoding="utf-8"))


def _level(data: dict, level_id: str) -> dict:
    return next(lv for lv in data["levels"] if lv["id"] == level_id)


def _set_pattern(level: dict, pattern: str) -> None:
    """Give a level of a loaded rule file one pattern, whether it is written as variants or not yet."""
    level.pop("pattern", None)
    level["variants"] = [{"name": "under-test", "pattern": pattern, "why": "the pattern under test",
                          "examples": {"match": ["x"], "no_match": ["y"]}}]


def test_bad_pattern_names_file_and_rule(tmp_path):
    data = _statute()
    _set_pattern(_level(data, "statute.part"), "第(?P<num>[一二]+编")
    path = _write(tmp_path, data)
    with pytest.raises(RuleError) as err:
        load_rule_file(path)
    msg = str(err.value)
    assert str(path) in msg and "statute.part" in msg and "does not compile" in msg


def test_unknown_key_is_rejected(tmp_path):
    data = _statute()
    _level(data, "statute.chapter")["colour"] = "red"
    with pytest.raises(RuleError, match=r"statute.chapter: unknown key 'colour'"):
        load_rule_file(_write(tmp_path, data))


def test_invalid_yaml_gives_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\nlevels: [\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"invalid YAML at line"):
        load_rule_file(path)


def test_example_about_unknown_rule(tmp_path):
    data = _memo()
    data["examples"][0]["rule"] = "memo.nothing"
    with pytest.raises(RuleError, match="unknown rule 'memo.nothing'"):
        load_rule_file(_write(tmp_path, data, "memo.yaml"))


def test_user_folder_overrides_by_doc_type(tmp_path):
    data = _statute()
    data["version"] = "user-1"
    # The user's statutes call articles 第X條 (traditional characters).
    article = _level(data, "statute.article")
    for holder in article.get("variants", [article]):
        holder["pattern"] = holder["pattern"].replace("条", "[条條]")
    data["examples"] = []
    _write(tmp_path, data)
    registry = load_rules(tmp_path)
    assert registry["statute"].version == "user-1"
    result = domainchunk.chunk("第一條 示範。\n\n第二條 示範。\n", doc_type="statute", rules_dir=tmp_path)
    assert [c.path for c in result.chunks] == [["第一條"], ["第二條"]]


def test_bad_rules_folder_in_cli_is_one_line(tmp_path):
    data = _statute()
    _set_pattern(_level(data, "statute.part"), "(unclosed")
    _write(tmp_path, data)
    doc = tmp_path / "doc.txt"
    doc.write_text("第一条 示范。", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(doc), "--rules", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "statute.part" in proc.stderr and "does not compile" in proc.stderr


# Each is refused by the stdlib scan's static check, so it runs on the regex module with a timeout.
@pytest.mark.parametrize("pattern", ["(a|aa)+b", "(?:a|a)+b"])
def test_catastrophic_pattern_times_out_instead_of_hanging(tmp_path, pattern):
    data = _statute()
    _set_pattern(_level(data, "statute.part"), pattern)
    data["examples"] = []
    _write(tmp_path, data)
    with pytest.raises(domainchunk.DomainChunkError, match="rule statute.part .* timed out"):
        domainchunk.chunk("a" * 60 + "\n第一条 示范。", doc_type="statute", rules_dir=tmp_path)


def test_json_schema_is_exported_and_current():
    import json

    schema_file = Path(__file__).resolve().parents[1] / "docs" / "rulefile.schema.json"
    assert json.loads(schema_file.read_text(encoding="utf-8")) == json_schema()


def test_builtin_rules_ship_with_package():
    files = {p.name for p in builtin_rules_dir().glob("*.yaml")}
    assert {"statute.yaml", "generic.yaml"} <= files


# A small rule file of our own, so these tests do not depend on how a built-in file is written.
def _memo() -> dict:
    return {
        "id": "memo",
        "version": "1",
        "doc_type": "memo",
        "description": "示范备忘录：每个要点一块。",
        "terms": {"item": {"事项": ["要点"]}},
        "fields": {"header": {"department": ["科室", "部门"]}},
        "detect": {"min_score": 1, "signals": [{
            "id": "memo.title", "pattern": "^备忘录$", "weight": 1, "why": "备忘录 alone on a line is the title",
            "examples": {"match": ["备忘录\n事项一"], "no_match": ["这份备忘录很短"]},
        }]},
        "levels": [{
            "id": "memo.item",
            "name": "事项",
            "kind": "item",
            "role": "unit",
            "rationale": "each item stands alone",
            "variants": [
                {"name": "numbered", "pattern": "(?P<label>{terms.item}{CN}+)[：:]", "why": "事项一： opens an item",
                 "examples": {"match": ["事项一：开会", "  要点二：午餐"], "no_match": ["详见事项一：", "事项："]}},
                {"name": "bracketed", "pattern": "【(?P<label>[^】\n]{1,10})】$", "why": "a bracketed title alone opens one",
                 "examples": {"match": ["【其他】"], "no_match": ["【其他】见上文"]}},
            ],
        }],
        "examples": [{"name": "one-chunk-per-item", "rule": "memo.item", "text": "事项一：开会。\n事项二：午餐。\n",
                      "chunks": [{"starts": "事项一", "path": ["事项一"]}, {"starts": "事项二", "path": ["事项二"]}]}],
    }


def test_variants_make_the_level_and_chunks_name_the_variant(tmp_path):
    _write(tmp_path, _memo(), "memo.yaml")
    result = domainchunk.chunk("备忘录\n\n事项一：开会。\n\n【其他】\n示范。\n", doc_type="memo", rules_dir=tmp_path)
    units = [c for c in result.chunks if c.rule == "memo.item"]
    assert [(c.path, c.metadata.get("rule_variant")) for c in units] == [(["事项一"], "numbered"), (["其他"], "bracketed")]


def _memo_error(tmp_path: Path, data: dict) -> str:
    path = _write(tmp_path, data, "memo.yaml")
    with pytest.raises(RuleError) as err:
        load_rule_file(path)
    assert str(path) in str(err.value)
    return str(err.value)


def test_within_names_a_variant_of_a_level_of_the_file(tmp_path):
    data = _memo()
    data["levels"][0]["within"] = ["memo.item/lettered"]
    assert "within names no variant" in _memo_error(tmp_path, data)
    data["levels"][0]["within"] = ["memo.part/numbered"]
    assert "'memo.part/numbered'" in _memo_error(tmp_path, data)


def test_within_opens_a_level_only_inside_a_heading_its_variant_opened(tmp_path):
    data = _memo()
    data["levels"].insert(0, {
        "id": "memo.part", "name": "部分", "kind": "part", "role": "heading", "rank": 0, "rationale": "parts",
        "variants": [
            {"name": "agenda", "pattern": "(?P<label>议程)$", "why": "议程 alone opens the agenda",
             "examples": {"match": ["议程"], "no_match": ["议程见上"]}},
            {"name": "minutes", "pattern": "(?P<label>纪要)$", "why": "纪要 alone opens the minutes",
             "examples": {"match": ["纪要"], "no_match": ["纪要见上"]}},
        ]})
    data["levels"][1]["within"] = ["memo.part/agenda"]
    _write(tmp_path, data, "memo.yaml")
    result = domainchunk.chunk("议程\n事项一：开会。\n纪要\n事项二：午餐。\n", doc_type="memo", rules_dir=tmp_path)
    items = [c.path for c in result.chunks if c.rule == "memo.item"]
    assert items == [["议程", "事项一"]]


def test_a_level_has_variants_or_a_pattern_not_both(tmp_path):
    data = _memo()
    data["levels"][0]["pattern"] = "事项"
    assert "not both" in _memo_error(tmp_path, data)
    del data["levels"][0]["pattern"]
    data["levels"][0]["variants"] = []
    assert "not both and not neither" in _memo_error(tmp_path, data)


def test_variant_pattern_is_capped(tmp_path):
    data = _memo()
    data["levels"][0]["variants"][1]["pattern"] = "(?:" + "|".join(f"甲{i}" for i in range(60)) + ")$"
    msg = _memo_error(tmp_path, data)
    assert "memo.item variant bracketed" in msg and "200 characters" in msg


def test_cap_counts_the_pattern_as_written_not_its_vocabulary(tmp_path):
    data = _memo()
    data["terms"]["item"] = {f"事项{i}号": [] for i in range(80)}
    load_rule_file(_write(tmp_path, data, "memo.yaml"))  # the vocabulary expands past 200; the pattern is short


def test_signal_with_examples_is_capped(tmp_path):
    data = _memo()
    data["detect"]["signals"][0]["pattern"] = "^(?:" + "|".join(f"备忘{i}" for i in range(60)) + ")$"
    assert "memo.title" in _memo_error(tmp_path, data)


@pytest.mark.parametrize("where", ["variant", "lead", "signal"])
def test_unknown_vocabulary_is_named_in_every_pattern_field(tmp_path, where):
    data = _memo()
    level = data["levels"][0]
    if where == "variant":
        level["variants"][0]["pattern"] = "{terms.nothing}一"
    elif where == "lead":
        level["lead"] = "{fields.nothing}"
    else:
        data["detect"]["signals"][0]["pattern"] = "{terms.nothing}"
    msg = _memo_error(tmp_path, data)
    assert "unknown vocabularies" in msg and "nothing" in msg


def test_vocabulary_expands_in_lead_and_fields(tmp_path):
    data = _memo()
    data["levels"][0]["lead"] = "{fields.header}[：:]"
    _write(tmp_path, data, "memo.yaml")
    rules = load_rules(tmp_path)["memo"]
    assert rules.field_key("header", "部 门") == "department"
    result = domainchunk.chunk("备忘录\n\n部门：示范\n事项一：开会。\n", doc_type="memo", rules_dir=tmp_path)
    assert result.chunks[-1].text.startswith("部门：示范")


def test_variant_compile_error_names_rule_and_variant(tmp_path):
    data = _memo()
    data["levels"][0]["variants"][0]["pattern"] = "(?P<label>事项"
    msg = _memo_error(tmp_path, data)
    assert "memo.item" in msg and "variant numbered" in msg and "does not compile" in msg


@pytest.mark.parametrize("change,expect", [
    (lambda v: v.__setitem__("name", "Numbered Items"), "name"),
    (lambda v: v.__setitem__("examples", {"match": ["事项一："]}), "no_match"),
    (lambda v: v.__setitem__("examples", {"match": [], "no_match": ["x"]}), "match"),
    (lambda v: v.pop("why"), "why"),
])
def test_variant_needs_a_name_a_why_and_both_kinds_of_example(tmp_path, change, expect):
    data = _memo()
    change(data["levels"][0]["variants"][0])
    assert expect in _memo_error(tmp_path, data)


def test_duplicate_variant_names(tmp_path):
    data = _memo()
    data["levels"][0]["variants"][1]["name"] = "numbered"
    assert "duplicate variant names" in _memo_error(tmp_path, data)


def test_rules_test_runs_variant_and_signal_examples(tmp_path):
    data = _memo()
    data["levels"][0]["variants"][0]["examples"]["no_match"].append("事项三：也算")
    data["detect"]["signals"][0]["examples"]["match"].append("备忘录 第二页")
    _write(tmp_path, data, "memo.yaml")
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "rules", "test", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL memo.item/numbered: matches '事项三：也算'" in proc.stdout
    assert "FAIL memo.title: does not match '备忘录 第二页'" in proc.stdout


# Hooks: a rule file is data. It names a built-in hook module or an entry point enabled on purpose.
def _hooked(tmp_path: Path, hooks: str) -> Path:
    data = _memo()
    data["hooks"] = hooks
    return _write(tmp_path, data, "memo.yaml")


@pytest.mark.parametrize("hooks", ["this", "os", "memo_local_hooks", "domainchunk.cli"])
def test_rule_file_cannot_import_any_module(tmp_path, monkeypatch, hooks):
    # A .py beside the rule file, in the working directory and on sys.path, must not run either.
    marker = tmp_path / "ran"
    (tmp_path / "memo_local_hooks.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    path = _hooked(tmp_path, hooks)
    with pytest.raises(RuleError, match="is not a hook module") as err:
        load_rule_file(path)
    assert str(path) in str(err.value)
    with pytest.raises(RuleError):
        domainchunk.chunk("事项一：示范。", doc_type="memo", rules_dir=tmp_path)
    assert not marker.exists()


def test_rules_check_rejects_an_arbitrary_hook(tmp_path):
    _hooked(tmp_path, "this")
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "rules", "check", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    assert "memo.yaml: hooks 'this' is not a hook module" in proc.stderr
    assert "Zen of Python" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("hooks", ["medical_record", "domainchunk.chunkers.medical"])
def test_builtin_hooks_by_name_or_module(tmp_path, hooks):
    load_rule_file(_hooked(tmp_path, hooks))
    registry = load_rules(tmp_path)
    assert registry["memo"].hook_module().__name__ == "domainchunk.chunkers.medical"


def _install_entry_point(site: Path, name: str, module: str, source: str | None) -> None:
    """A distribution as pip leaves it: a dist-info with entry_points.txt, and the module (if any)."""
    dist = site / "memo_hooks_dist-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: memo-hooks-dist\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[domainchunk.hooks]\n{name} = {module}\n", encoding="utf-8")
    if source is not None:
        (site / f"{module}.py").write_text(source, encoding="utf-8")


HOOK_SOURCE = "def chunk_metadata(doc, outline, sec, start, end):\n    return {'memo_hook': True}\n"


def test_entry_point_hook_needs_explicit_opt_in(tmp_path, monkeypatch):
    site, rules_dir = tmp_path / "site", tmp_path / "rules"
    rules_dir.mkdir()
    _install_entry_point(site, "memo", "memo_entry_hooks", HOOK_SOURCE)
    monkeypatch.syspath_prepend(str(site))
    _hooked(rules_dir, "memo")
    with pytest.raises(RuleError, match=r"entry point 'memo_entry_hooks'.*allow_hooks=\['memo'\]"):
        load_rules(rules_dir)
    with pytest.raises(RuleError, match="enable it on purpose"):
        load_rules(rules_dir, allow_hooks=["other"])
    from domainchunk.chunker import chunk_with_rules
    from domainchunk.readers.text import text_document

    for allow in (["memo"], "memo", True):
        rules = load_rules(rules_dir, allow_hooks=allow)["memo"]
        _, chunks = chunk_with_rules(text_document("事项一：示范。", "<memo>"), rules)
        assert chunks[0].metadata["memo_hook"] is True
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "rules", "check", str(rules_dir), "--allow-hook", "memo"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    # the same opt-in chunks with the hook: the API and the chunk command
    import domainchunk

    result = domainchunk.chunk_text("事项一：示范。", doc_type="memo", rules_dir=rules_dir, allow_hooks=["memo"])
    assert result.chunks[0].metadata["memo_hook"] is True
    with pytest.raises(RuleError, match="enable it on purpose"):
        domainchunk.chunk_text("事项一：示范。", doc_type="memo", rules_dir=rules_dir)
    doc = tmp_path / "memo.txt"
    doc.write_text("事项一：示范。", encoding="utf-8")
    for opt_in, code in (([], 2), (["--allow-hook", "memo"], 0)):
        proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(doc), "--rules", str(rules_dir),
                               "--doc-type", "memo", "-q", *opt_in],
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(site)})
        assert proc.returncode == code, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["metadata"]["memo_hook"] is True


def test_missing_hook_module_is_a_rule_error_at_load(tmp_path, monkeypatch):
    site, rules_dir = tmp_path / "site", tmp_path / "rules"
    rules_dir.mkdir()
    _install_entry_point(site, "memo", "memo_gone_hooks", None)
    monkeypatch.syspath_prepend(str(site))
    path = _hooked(rules_dir, "memo")
    with pytest.raises(RuleError, match="cannot import memo_gone_hooks: ModuleNotFoundError") as err:
        load_rules(rules_dir, allow_hooks=True)
    assert str(path) in str(err.value)
    doc = tmp_path / "memo.txt"
    doc.write_text("事项一：示范。", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(doc), "--rules", str(rules_dir)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(site)})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "memo.yaml: hooks 'memo'" in proc.stderr


@pytest.mark.parametrize("field", ["lead", "inner"])
def test_a_pattern_that_times_out_names_the_document_and_the_rule(tmp_path, field):
    data = _memo()
    if field == "lead":
        data["levels"][0]["lead"] = "(a|aa)+b"
        text = "a" * 40 + "\n事项一：示范。\n"
    else:
        data["levels"].append({"id": "memo.sub", "name": "分项", "kind": "sub", "role": "inner", "scope": "unit",
                               "rationale": "an oversize item is cut here", "pattern": "(a|aa)+c"})
        text = "事项一：示范。\n" + "a" * 40 + "\n" + "示范。" * 100 + "\n"
    data["examples"] = []
    _write(tmp_path, data, "memo.yaml")
    doc = tmp_path / "slow-memo.txt"
    doc.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as err:
        domainchunk.chunk(doc, doc_type="memo", rules_dir=tmp_path, max_chars=100)
    msg = str(err.value)
    assert "slow-memo.txt" in msg and "memo.yaml" in msg and "timed out" in msg
    assert ("rule memo.item (lead)" if field == "lead" else "rule memo.sub (pattern)") in msg


@pytest.mark.parametrize("loader", ["CSafeLoader", "SafeLoader"])
def test_every_builtin_file_loads_with_both_yaml_loaders(monkeypatch, loader):
    """Where libyaml is absent PyYAML falls back to its pure-Python loader, which is stricter
    (a literal tab in a flow sequence): every built-in file must read the same with both."""
    if not hasattr(yaml, loader):
        pytest.skip(f"PyYAML was built without {loader}")
    import domainchunk.rulefile as rulefile

    files = sorted(builtin_rules_dir().glob("*.yaml"))
    reference = {p.name: load_rule_file(p).fingerprint() for p in files}
    monkeypatch.setattr(rulefile, "_YAML_LOADER", getattr(yaml, loader))
    assert {p.name: load_rule_file(p).fingerprint() for p in files} == reference


# Cases beside the rule file, and user files that extend a built-in one.
def _cases(folder: Path, stem: str, cases: list[dict]) -> Path:
    (folder / "cases").mkdir(exist_ok=True)
    return _write(folder / "cases", {"cases": cases}, f"{stem}.yaml")


MEMO_CASE = {"name": "memo-through-every-reader", "rule": "memo.item", "readers": ["text", "docx", "pdf"],
             "doc_type": "memo", "text": "备忘录\n\n事项一：开会。\n\n事项二：午餐。\n",
             "chunks": [{"starts": "备忘录"}, {"starts": "事项一", "path": ["事项一"]}, {"starts": "事项二", "path": ["事项二"]}]}


def test_cases_file_beside_the_rule_file_runs_through_every_reader(tmp_path):
    from domainchunk.examples import check_case

    data = _memo()
    data["examples"] = []
    _write(tmp_path, data, "memo.yaml")
    _cases(tmp_path, "memo", [MEMO_CASE])
    registry = load_rules(tmp_path)
    rules = registry["memo"]
    assert [c.name for c in rules.cases] == ["memo-through-every-reader"]
    assert check_case(rules, rules.cases[0], registry) == []
    # The same case with a wrong expectation fails on each reader, and names it.
    wrong = rules.cases[0].model_copy(update={"doc_type": "statute"})
    failures = check_case(rules, wrong, registry)
    assert [f.split("]")[0] for f in failures] == ["[text", "[docx", "[pdf"]
    assert all("detected as memo, expected statute" in f for f in failures)


def test_case_about_an_unknown_rule_names_the_cases_file(tmp_path):
    _write(tmp_path, _memo(), "memo.yaml")
    path = _cases(tmp_path, "memo", [{**MEMO_CASE, "rule": "memo.nothing"}])
    with pytest.raises(RuleError, match="unknown rule 'memo.nothing'") as err:
        load_rules(tmp_path)
    assert str(path) in str(err.value)


def test_rules_test_runs_the_cases_of_a_user_folder(tmp_path):
    _write(tmp_path, _memo(), "memo.yaml")
    _cases(tmp_path, "memo", [{**MEMO_CASE, "chunks": [{"starts": "事项二", "path": ["事项三"]}]}])
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "rules", "test", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "FAIL memo.item::memo-through-every-reader: [pdf] chunk '事项二': path ['事项二'], expected ['事项三']" in proc.stdout


def _extension(**adds) -> dict:
    return {"extends": "generic", "version": "hospital-1", **adds}


def test_extends_adds_variants_terms_and_cases_without_copying(tmp_path):
    variant = {"name": "bracket-title", "pattern": "【(?P<label>{terms.part})】$", "why": "our manuals bracket part titles",
               "examples": {"match": ["【附录】"], "no_match": ["【附录】见下"]}}
    _write(tmp_path, _extension(terms={"part": {"附录": ["附件"]}},
                                levels=[{"id": "generic.h1", "variants": [variant]}]), "generic.yaml")
    _cases(tmp_path, "generic", [{"name": "bracketed-part", "rule": "generic.h1", "text": "【附件】\n\n示范。\n",
                                 "chunks": [{"starts": "【附件】", "path": ["附件"]}]}])
    registry = load_rules(tmp_path)
    rules = registry["generic"]
    h1 = next(lv for lv in rules.levels if lv.id == "generic.h1")
    assert [v.name for v in h1.variants] == ["atx-heading", "bracket-title"]
    assert rules.version == "1+hospital-1" and rules.path == str(tmp_path / "generic.yaml")
    builtin = load_rules()["generic"]
    assert [c.name for c in rules.cases] == [c.name for c in builtin.cases] + ["bracketed-part"]
    from domainchunk.examples import check_case, check_patterns

    assert all(not check_case(rules, c, registry) for c in rules.cases)
    assert all(not c.failures for c in check_patterns(rules))
    result = domainchunk.chunk("# 手册\n\n示范。\n\n【附录】\n\n示范。\n", doc_type="generic", rules_dir=tmp_path)
    assert [(c.path, c.metadata["rule_variant"]) for c in result.chunks] == [
        (["手册"], "atx-heading"), (["附录"], "bracket-title")]


@pytest.mark.parametrize("extension,expect", [
    (_extension(extends="nothing"), "no built-in rule file of that name"),
    (_extension(max_chars=10), "cannot set ['max_chars']"),
    (_extension(levels=[{"id": "generic.h9", "variants": []}]), "no level 'generic.h9'"),
    (_extension(levels=[{"id": "generic.h1", "role": "unit"}]), "a level entry is an `id`"),
    (_extension(detect={"min_score": 0}), "detect may only add signals"),
])
def test_an_extension_only_adds(tmp_path, extension, expect):
    path = _write(tmp_path, extension, "generic.yaml")
    with pytest.raises(RuleError) as err:
        load_rules(tmp_path)
    assert str(path) in str(err.value) and expect in str(err.value)


def test_not_after_and_after_blank_line_are_named_engine_features(tmp_path):
    from domainchunk.examples import check_patterns

    data = _memo()
    numbered = data["levels"][0]["variants"][0]
    numbered["not_after"] = [{"name": "item-alone", "pattern": "{terms.item}{CN}+[：:]", "why": "an item alone owns the next line",
                              "examples": {"match": ["事项一："], "no_match": ["事项一：开会。"]}}]
    bracketed = data["levels"][0]["variants"][1]
    bracketed["after_blank_line"] = True
    _write(tmp_path, data, "memo.yaml")
    rules = load_rules(tmp_path)["memo"]
    assert all(not c.failures for c in check_patterns(rules))
    assert "memo.item/numbered/not-after-item-alone" in {c.id for c in check_patterns(rules)}
    text = "事项一：\n事项二：属于事项一。\n\n事项三：开会。\n【不是】\n\n【其他】\n示范。\n"
    result = domainchunk.chunk(text, doc_type="memo", rules_dir=tmp_path)
    assert [c.path for c in result.chunks] == [["事项一"], ["事项三"], ["其他"]]
    # The examples are checked as written: a line that does not veto fails the check, by name.
    numbered["not_after"][0]["examples"]["match"].append("事项一：开会。")
    _write(tmp_path, data, "memo.yaml")
    failed = {c.id: c.failures for c in check_patterns(load_rules(tmp_path)["memo"]) if c.failures}
    assert failed == {"memo.item/numbered/not-after-item-alone": ["does not match '事项一：开会。'"]}


def test_medical_header_vocabulary_is_the_rule_files(tmp_path):
    """The hooks read header labels, date labels and record titles from the rule file: a hospital
    adds its own by extending it, without touching Python."""
    _write(tmp_path, {"extends": "medical_record",
                      "fields": {"header": {"民族": [], "科室": ["就诊科室"]}, "record_date": {"record_date": ["书写时间"]}},
                      "terms": {"record_title": {"护理记录": []}}}, "medical_record.yaml")
    text = "示范医院护理记录\n就诊科室：心内科　民族：汉\n书写时间：2024-05-06\n主诉：胸闷3天。\n现病史：活动后胸闷。\n"
    default = domainchunk.chunk(text, doc_type="medical_record").chunks[-1].metadata
    ours = domainchunk.chunk(text, doc_type="medical_record", rules_dir=tmp_path).chunks[-1].metadata
    assert "民族" not in default and "department" not in default and "record_date" not in default
    assert (ours["民族"], ours["科室"], ours["department"]) == ("汉", "心内科", "心内科")
    assert ours["record_date"] == "2024-05-06" and ours["record"] == "护理记录"


def test_rules_check_counts_what_is_left_to_convert():
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "rules", "check"], capture_output=True, text=True)
    left = sum(len(r.unconverted()) for r in load_rules().values())
    assert proc.returncode == 0, proc.stderr
    assert (f"{left} rules not yet written as variants" in proc.stdout) == bool(left)
