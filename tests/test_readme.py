"""The README's Python snippet runs as written, and its set-up commands are the ones CI runs."""
from __future__ import annotations

import contextlib
import io
import os
import re

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_python_snippet_runs_as_written() -> None:
    code = re.findall(r"```python\n(.*?)```", README, re.S)[0]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)  # the snippet names a document of corpora/ by its path from the checkout
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    printed = out.getvalue()
    assert printed.startswith("statute 13.9\n")
    # what the comments promise is what the snippet prints
    assert "(['第一章 总则', '第一条至第二条'], 'pack', 2)" in printed
    assert "['第一章 总则', '第一条'] article statute.article article-number []" in printed


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```bash\n(python3\.11 -m venv .*?)\n```", README)
    assert len(commands) == 2, "the README keeps exactly two set-up commands"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()
