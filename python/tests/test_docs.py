"""docs/python.md's examples, run in order as one notebook: what the page shows stays true. A ```text
block right after a ```python block is that block's output, compared line for line."""
import contextlib
import io
import os
import pathlib
import re

DOCS = pathlib.Path(os.environ.get("FLOATSCOPE_DOCS", pathlib.Path(__file__).resolve().parents[2] / "docs"))


def test_python_md_examples_run():
    text = (DOCS / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```(?:\s*```text\n(.*?)```)?", text, re.S)
    assert len(blocks) >= 4 and sum(1 for _, shown in blocks if shown) >= 2
    namespace = {}
    for number, (code, shown) in enumerate(blocks, 1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"docs/python.md block {number}", "exec"), namespace)
        if shown:
            assert printed.getvalue() == shown, f"block {number} printed:\n{printed.getvalue()}"
