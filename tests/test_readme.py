"""README's Python example runs and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re

from support import REPO


def test_the_python_example_prints_what_its_comments_say():
    readme = (REPO / "README.md").read_text()
    (code,) = re.findall(r"```python\n(.*?)```", readme, re.S)
    expected = [line.split("#", 1)[1].strip() for line in code.splitlines() if line.startswith("print(")]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue().splitlines() == expected
