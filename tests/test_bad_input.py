"""Bad input gets a clear error naming the file and the cause, never a traceback."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import messages

import domainchunk
from domainchunk import DomainChunkWarning, ReadError, UsageError

from bad_inputs import docx_bomb, encrypted_office_file


@pytest.mark.parametrize(
    "name,data,cause",
    [
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


@pytest.mark.parametrize("data", [b"", b"  \n\n\t "])
def test_an_empty_file_is_a_warning_and_no_chunks(tmp_path, data):
    path = tmp_path / "empty.txt"
    path.write_bytes(data)
    with pytest.warns(DomainChunkWarning, match="empty.txt: empty file: no chunks"):
        result = domainchunk.chunk(path)
    assert result.chunks == [] and result.document.source == str(path)


def test_an_empty_file_converts_to_an_empty_output_with_exit_0(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    out = tmp_path / "out"
    for _ in range(2):  # and a resume skips it, still exit 0
        proc = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(empty), "-o", f"{out}/", "--resume"],
                              capture_output=True, text=True)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr
        assert (out / "empty.txt.jsonl").read_text(encoding="utf-8") == ""
    assert messages(proc.stderr) == []  # skipped as unchanged: nothing new to say but the summary
    first = subprocess.run([sys.executable, "-m", "domainchunk", "chunk", str(empty)], capture_output=True, text=True)
    assert messages(first.stderr) == [f"domainchunk: warning: {empty}: empty file: no chunks"] and first.stdout == ""


def test_a_password_protected_docx_is_reported_as_encrypted(tmp_path):
    path = tmp_path / "locked.docx"
    path.write_bytes(encrypted_office_file())
    with pytest.raises(ReadError) as err:
        domainchunk.chunk(path)
    assert err.value.cause == "password-protected (encrypted) Office file: remove the password and save it again"
    assert ".doc" not in err.value.cause


# The peak is read from VmHWM, this process's own: getrusage's ru_maxrss survives exec and so can
# report the (large) pytest process the child was forked from.
BOMB = """
import re, sys
import domainchunk
from domainchunk import ReadError
try:
    domainchunk.chunk(sys.argv[1])
except ReadError as exc:
    print(exc.cause)
status = open("/proc/self/status", encoding="ascii").read()
print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
"""


def test_a_docx_decompression_bomb_fails_fast_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.docx"
    docx_bomb(bomb, 200)
    assert bomb.stat().st_size < 2 * 1024 * 1024
    script = tmp_path / "bomb.py"
    script.write_text(BOMB, encoding="utf-8")
    # Refused before inflating: memory stays bounded (the bomb inflates to 200 MB of XML). The timeout
    # only guards against a hang; speed is for benchmarks/, never a timed test on a shared machine.
    proc = subprocess.run([sys.executable, str(script), str(bomb)], capture_output=True, text=True, check=True,
                          timeout=120)
    cause, max_rss_mb = proc.stdout.splitlines()
    assert cause.startswith("refused as a decompression bomb: member word/document.xml inflates ")
    assert int(max_rss_mb) < 250


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
