"""Bad input gets a clear error naming the file and the cause, never a traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest

import domainchunk
from domainchunk import ReadError, UsageError


@pytest.mark.parametrize(
    "name,data,cause",
    [
        ("empty.txt", b"", "empty file"),
        ("blank.txt", b"  \n\n\t ", "empty file"),
        ("junk.txt", bytes(range(256)) * 20, "binary"),
        ("latin.txt", b"\x81\x30" * 3 + b"\xff\xfe\xfd" * 50, "undecod"),
        ("old.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, ".doc"),
    ],
)
def test_unreadable_files(tmp_path, name, data, cause):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ReadError) as err:
        domainchunk.chunk(path)
    assert str(path) in str(err.value)
    assert cause in err.value.cause


def test_missing_file(tmp_path):
    with pytest.raises(ReadError, match="file not found"):
        domainchunk.chunk(tmp_path / "nope.txt")


@pytest.mark.parametrize("codec", ["utf-8", "utf-8-sig", "utf-16", "gb18030"])
def test_encodings_are_detected(tmp_path, codec):
    text = "示范条例\n\n第一条 为了规范示范管理，制定本条例。\n\n第二条 本条例自公布之日起施行。\n"
    path = tmp_path / f"{codec}.txt"
    path.write_bytes(text.encode(codec))
    result = domainchunk.chunk(path, doc_type="statute")
    assert result.document.text == text
    assert [c.path for c in result.chunks][1:] == [["第一条"], ["第二条"]]


def test_unknown_doc_type_names_the_known_ones():
    with pytest.raises(UsageError, match="unknown doc_type 'recipe'.*statute"):
        domainchunk.chunk("第一条 示范。", doc_type="recipe")


def test_cli_reports_each_failure_and_goes_on(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("第一条 示范条文。\n\n第二条 示范条文。\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    junk = tmp_path / "junk.txt"
    junk.write_bytes(bytes(range(256)) * 10)
    out = tmp_path / "out.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "domainchunk", "chunk", str(empty), str(good), str(junk), "-o", str(out), "--doc-type", "statute"],
        capture_output=True, text=True,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert f"{empty}: empty file" in proc.stderr
    assert str(junk) in proc.stderr and "binary" in proc.stderr
    assert out.read_text(encoding="utf-8").count('"source"') == 2
