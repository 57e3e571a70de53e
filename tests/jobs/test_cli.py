"""The CLI turns bad input into one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.processes import run_cli


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "--input", "/nope/missing.jsonl", "--store", "{tmp}"], "missing.jsonl"),
        (["build", "--input", "{tmp}/a.txt", "--store", "{tmp}"], "a.txt"),
        (["build", "--input", "{tmp}/a.txt", "--store", "{tmp}", "--set", "query.k=0"], "query.k"),
        (["query", "--local", "--store", "{tmp}/none", "--user", "u", "hi"], "build it first"),
        # The budget flag's old name stays accepted next to --budget-tokens.
        (["query", "--local", "-s", "{tmp}/none", "-u", "u", "--budget", "9", "hi"], "build"),
        (["query", "--local", "-s", "{tmp}/n", "-u", "u", "--budget-tokens", "9", "hi"], "build"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    (tmp_path / "a.txt").write_text("hello")
    result = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in result.stderr
