"""With masking on, no identifying value of an adversarial record reaches any output, under any layout.

The records (tests/data/phi/records.yaml, all invented) put values where a masker misses them:
header blocks in two columns, an address broken over two lines, 身份证 with no label, family
members and guardians with phones, names in the narrative (患者…因, 其子…（电话…）), English labels
(Name:, MRN:, DOB:), a signature block of two signers on one line, a tab table of labels over
values, record numbers in a page header on every page, and values in file names and titles. Each
is read as written, under the suite's re-layouts, as the suite's PDF and DOCX renderings, and as
a hospital system's DOCX (label | value table, page header, title in its properties) and PDF
(page header on every page), and every output is searched for every value: the API's chunk
fields, parents, ``context_text``, title and metadata; the CLI's JSONL, Parquet, manifest and log;
the review page; the LangChain and LlamaIndex documents and nodes.

Before the fixes of round ten, 7 of the 49 values reached the chunk text as written (a Latin name,
MRN and DOB, an address's second line twice, a name before a bracket) and up to 13 under a
re-layout (a signer after a signer, a number glued to the next Latin label, a printed table).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from domainchunk import pipeline
from masking_forms import FORMS, LAYOUTS, api_outputs, leaked, masking_records, write

RECORDS = masking_records()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_value_reaches_any_field_of_the_api_result(layout, tmp_path):
    found = {}
    for rec in RECORDS:
        if leaks := leaked(rec, api_outputs(write(rec, layout, tmp_path)), layout):
            found[rec.id] = sorted(leaks)
    assert found == {}


def test_what_is_no_identifying_value_stays_as_written(tmp_path):
    """A speaker's words after a staff label (护士长：护理方面…), a register's column heads (护士签名,
    切口愈合等级) and a title that is no name (病史陈述者：患者本人) are not masked."""
    masked = {rec.id: [kept for kept in rec.keep if kept not in api_outputs(write(rec, "as_written", tmp_path))["text"]]
              for rec in RECORDS if rec.keep}
    assert masked == {rec.id: [] for rec in RECORDS if rec.keep}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """Every record as text, as the hospital system's DOCX and as its PDF, in a folder named after a patient."""
    folder = tmp_path_factory.mktemp("phi") / "龚晓岚"
    folder.mkdir()
    for rec in RECORDS:
        for layout in ("as_written", *FORMS):
            write(rec, layout, folder)
    return folder


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "domainchunk", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def _all_values(outputs: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """The values of every record (read as written and in the hospital system's forms) in ``outputs``."""
    return {rec.id: sorted(found) for rec in RECORDS if (found := leaked(rec, outputs, "as_written", *FORMS))}


def test_no_value_reaches_the_cli_outputs_manifest_or_log(inputs, tmp_path):
    jsonl = _run("chunk", str(inputs), "-o", "out.jsonl", "--mask-phi", "-v", cwd=tmp_path)
    assert jsonl.returncode == 0, jsonl.stderr
    parquet = _run("chunk", str(inputs), "-o", "out.parquet", "--format", "parquet", "--mask-phi", cwd=tmp_path)
    assert parquet.returncode == 0, parquet.stderr
    import pyarrow.parquet as pq

    (manifest,) = (tmp_path / "_domainchunk").glob("out.jsonl.manifest*")
    # the local manifest ties each pseudonym to its input: that field alone names the file
    entries = [{k: v for k, v in json.loads(line).items() if k != "input"}
               for line in manifest.read_text(encoding="utf-8").splitlines()]
    outputs = {
        "jsonl": (tmp_path / "out.jsonl").read_text(encoding="utf-8"),
        "parquet": json.dumps(pq.read_table(tmp_path / "out.parquet").to_pylist(), ensure_ascii=False, default=str),
        "manifest": json.dumps(entries, ensure_ascii=False),
        "log": jsonl.stdout + jsonl.stderr + parquet.stdout + parquet.stderr,
        "file names": " ".join(p.name for p in tmp_path.rglob("*")),
    }
    assert _all_values(outputs) == {}
    assert "龚晓岚" not in outputs["log"]  # nor the folder's name


def test_no_value_reaches_the_review_page(inputs, tmp_path):
    view = _run("view", str(inputs), "-o", "review.html", "--mask-phi", "-q", cwd=tmp_path)
    assert view.returncode == 0, view.stderr
    page = (tmp_path / "review.html").read_text(encoding="utf-8")
    assert "[姓名]" in page
    assert _all_values({"review page": page, "log": view.stdout + view.stderr}) == {}


def test_no_value_reaches_langchain_documents(inputs):
    from domainchunk.integrations.langchain import DomainChunkLoader, DomainChunkSplitter

    files = sorted(inputs.iterdir())
    docs = DomainChunkLoader(files, mask_phi=True).load() + DomainChunkLoader(files, context=True, mask_phi=True).load()
    split = DomainChunkSplitter(mask_phi=True, context=True).create_documents([r.text for r in RECORDS])
    outputs = {"page_content": "\n".join(d.page_content for d in docs + split),
               "metadata": json.dumps([d.metadata for d in docs + split], ensure_ascii=False, default=str)}
    assert _all_values(outputs) == {}


def _llamaindex_outputs(inputs: Path, keys: Callable[[str], bool]) -> dict[str, str]:
    from llama_index.core import Document

    from domainchunk.integrations.llamaindex import DomainChunkNodeParser, DomainChunkReader

    files = sorted(inputs.iterdir())
    docs = [d for f in files for d in DomainChunkReader(mask_phi=True).load_data(f)]
    nodes = [n for f in files for n in DomainChunkReader(nodes=True, mask_phi=True).load_data(f)]
    parsed = DomainChunkNodeParser(mask_phi=True, parents=True).get_nodes_from_documents(
        [Document(text=r.text) for r in RECORDS])
    everything = docs + nodes + parsed
    metadata = [{k: v for k, v in n.metadata.items() if keys(k)} for n in everything]
    metadata += [{k: v for k, v in (info.metadata or {}).items() if keys(k)}
                 for n in everything for info in n.relationships.values() if hasattr(info, "metadata")]
    return {"text": "\n".join(n.get_content() for n in everything),
            # what is embedded: a document's text with its metadata (its file_path too), a node's context
            "embedded": "\n".join(n.get_content(metadata_mode="embed") for n in everything
                                  if keys("file_path") or n not in docs),
            "metadata": json.dumps(metadata, ensure_ascii=False, default=str)}


def test_no_value_reaches_llamaindex_documents_or_nodes(inputs):
    assert _all_values(_llamaindex_outputs(inputs, lambda key: key != "file_path")) == {}


def test_the_llamaindex_reader_names_a_masked_file_by_its_pseudonym(inputs):
    assert _all_values(_llamaindex_outputs(inputs, lambda key: key == "file_path")) == {}


def test_an_error_quoting_the_text_quotes_it_masked(tmp_path):
    """A size function (a tokenizer) that fails quoting what it was given: the pipeline's error
    carries its message, and what it was given is the masked text."""
    from domainchunk.errors import DomainChunkError

    def failing_size(text: str) -> int:
        raise ValueError(f"cannot measure {text!r}")

    found = {}
    for rec in RECORDS:
        path = write(rec, "as_written", tmp_path)
        with pytest.raises(DomainChunkError) as error:
            pipeline.chunk(path, mask_phi=True, size=failing_size)
        message = str(error.value).replace(str(path), "")  # the path: see the next test
        if leaks := leaked(rec, {"error": message}):
            found[rec.id] = sorted(leaks)
    assert found == {}


def test_an_error_after_masking_names_the_file_by_its_pseudonym(tmp_path):
    from domainchunk.errors import DomainChunkError

    rec = next(r for r in RECORDS if r.id == "name-in-title")
    with pytest.raises(DomainChunkError) as error:
        pipeline.chunk(write(rec, "as_written", tmp_path), mask_phi=True, size=lambda text: 1 // 0)
    assert leaked(rec, {"error": str(error.value)}) == set()


def test_the_review_command_names_a_failed_file_by_its_pseudonym(inputs, tmp_path):
    broken = tmp_path / "龚晓岚_入院记录_副本.docx"
    broken.write_bytes(b"not a zip")
    view = _run("view", str(inputs / "龚晓岚_入院记录.txt"), str(broken), "-o", "review.html", "--mask-phi", "-q",
                cwd=tmp_path)
    assert view.returncode == 1
    assert _all_values({"log": view.stdout + view.stderr}) == {}


def test_the_rules_diff_report_quotes_masked_text_and_names_files_by_pseudonym(inputs, tmp_path):
    """A reviewer diffing two rule sets over records: the report quotes chunk text and names
    documents, so with --mask-phi it quotes the masked text and names no file."""
    import shutil

    import yaml

    from domainchunk.rulefile import builtin_rules_dir

    new = tmp_path / "new"
    shutil.copytree(builtin_rules_dir(), new, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    rules = new / "medical_record.yaml"
    data = yaml.safe_load(rules.read_text(encoding="utf-8"))
    (level,) = [lv for lv in data["levels"] if lv["id"] == "medical.section"]
    level["variants"] = [v for v in level["variants"] if v["name"] != "name-with-colon-or-alone"]
    rules.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    broken = tmp_path / "龚晓岚_入院记录_副本.docx"
    broken.write_bytes(b"not a zip")
    diff = _run("rules", "diff", str(builtin_rules_dir()), str(new), str(inputs), str(broken), "--mask-phi",
                "--html", "diff.html", cwd=tmp_path)
    assert diff.returncode == 1 and "boundaries added" in diff.stdout and "「" in diff.stdout, diff.stderr
    report = {"log": diff.stdout + diff.stderr, "html": (tmp_path / "diff.html").read_text(encoding="utf-8")}
    assert _all_values(report) == {}
