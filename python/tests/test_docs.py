"""docs/python.md's examples, run in order as one notebook: what the page shows stays true."""
import os
import pathlib
import re

DOCS = pathlib.Path(os.environ.get("FLOATSCOPE_DOCS", pathlib.Path(__file__).resolve().parents[2] / "docs"))


def test_python_md_examples_run():
    text = (DOCS / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    namespace = {}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
