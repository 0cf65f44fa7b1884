"""Rule files: validation errors name the file, the rule and the reason; user folders override."""
from __future__ import annotations

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


def test_bad_pattern_names_file_and_rule(tmp_path):
    data = _statute()
    data["levels"][0]["pattern"] = "第(?P<num>[一二]+编"
    path = _write(tmp_path, data)
    with pytest.raises(RuleError) as err:
        load_rule_file(path)
    msg = str(err.value)
    assert str(path) in msg and "statute.part" in msg and "does not compile" in msg


def test_unknown_key_is_rejected(tmp_path):
    data = _statute()
    data["levels"][3]["colour"] = "red"
    with pytest.raises(RuleError, match=r"statute.chapter: unknown key 'colour'"):
        load_rule_file(_write(tmp_path, data))


def test_invalid_yaml_gives_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: x\nlevels: [\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"invalid YAML at line"):
        load_rule_file(path)


def test_example_about_unknown_rule(tmp_path):
    data = _statute()
    data["examples"][0]["rule"] = "statute.nothing"
    with pytest.raises(RuleError, match="unknown rule 'statute.nothing'"):
        load_rule_file(_write(tmp_path, data))


def test_user_folder_overrides_by_doc_type(tmp_path):
    data = _statute()
    data["version"] = "user-1"
    # The user's statutes call articles 第X條 (traditional characters).
    for level in data["levels"]:
        if level["id"] == "statute.article":
            level["pattern"] = level["pattern"].replace("条", "[条條]")
    data["examples"] = []
    _write(tmp_path, data)
    registry = load_rules(tmp_path)
    assert registry["statute"].version == "user-1"
    result = domainchunk.chunk("第一條 示範。\n\n第二條 示範。\n", doc_type="statute", rules_dir=tmp_path)
    assert [c.path for c in result.chunks] == [["第一條"], ["第二條"]]


def test_bad_rules_folder_in_cli_is_one_line(tmp_path):
    data = _statute()
    data["levels"][0]["pattern"] = "(unclosed"
    _write(tmp_path, data)
    doc = tmp_path / "doc.txt"
    doc.write_text("第一条 示范。", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(doc), "--rules", str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "statute.part" in proc.stderr and "does not compile" in proc.stderr


def test_catastrophic_pattern_times_out_instead_of_hanging(tmp_path):
    data = _statute()
    data["levels"][0]["pattern"] = "(a|aa)+b"
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
