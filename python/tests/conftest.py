"""Shared fixtures of the floatscope module's tests: the CLI beside it and the reference rounding."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cli_path():
    return os.environ.get("FLOATSCOPE_CLI", str(ROOT / "build" / "app" / "cli" / "floatscope-cli"))


@pytest.fixture(scope="session")
def cli():
    """Runs floatscope-cli with arguments and stdin; returns its stdout (a failure fails the test)."""
    path = cli_path()
    if not os.path.exists(path):
        pytest.fail(f"floatscope-cli not found at {path} (build it, or set FLOATSCOPE_CLI)")

    def run(*args, stdin=""):
        done = subprocess.run([path, *args], input=stdin, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
