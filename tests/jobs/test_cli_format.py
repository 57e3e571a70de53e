"""`--format` on the commands that read an archive (`build`, `nightly`): the registry's names
pick the reader whatever the suffix; an unknown name or a file of another format is one line
and exit 2, before Ray starts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from arborwiki.jobs.cli import app
from tests.processes import run_cli

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_archive.jsonl"
SAMPLE_LINES = 161  # non-blank lines of the sample archive, counted by hand (wc -l)
SAMPLE_USERS = 4


def _inputs(tmp: Path) -> None:
    shutil.copy(SAMPLE, tmp / "a.jsonl")
    (tmp / "rows.json").write_text(json.dumps([{"message_id": "m1", "user_id": "u"}]))
    pq.write_table(pa.table({"message_id": ["m1"]}), tmp / "rows.parquet")


@pytest.mark.parametrize("command", ["build", "nightly"])
@pytest.mark.parametrize(
    ("file", "fmt", "needle"),
    [
        ("a.jsonl", "csv", "unknown archive format 'csv' (expected jsonl, parquet, locomo, json)"),
        ("a.jsonl", "parquet", "a.jsonl is not a parquet archive (--format parquet)"),
        ("rows.json", "jsonl", "rows.json is not a jsonl archive (--format jsonl)"),
        ("rows.parquet", "jsonl", "rows.parquet is not a jsonl archive (--format jsonl)"),
        ("rows.json", "locomo", "rows.json is not a locomo archive (--format locomo)"),
        ("a.jsonl", "json", "a.jsonl is not a json archive (--format json)"),
    ],
)
def test_wrong_format_is_one_line_and_exit_2(
    tmp_path: Path, command: str, file: str, fmt: str, needle: str
) -> None:
    """In-process (the same entry point, the same stderr line); one case below runs as a
    real process."""
    _inputs(tmp_path)
    store = tmp_path / "store"
    args = [command, "--input", str(tmp_path / file), "--store", str(store), "--format", fmt]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
    assert "Traceback" not in result.output
    assert not store.exists()  # nothing started, nothing written


def test_wrong_format_as_a_real_process(tmp_path: Path) -> None:
    _inputs(tmp_path)
    store = tmp_path / "store"
    result = run_cli(
        "build", "--input", str(tmp_path / "a.jsonl"), "--store", str(store), "--format", "csv"
    )
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "unknown archive format 'csv'" in lines[0], lines
    assert "Traceback" not in result.stderr and not store.exists()


def test_format_names_the_reader_whatever_the_suffix(ray_local: None, tmp_path: Path) -> None:
    """A JSONL archive named .txt: refused by suffix, built with --format jsonl; its growth
    is read by `nightly --format jsonl` as appended lines (only JSONL is read by its tail)."""
    archive = tmp_path / "archive.txt"
    lines = SAMPLE.read_text().splitlines(keepends=True)
    archive.write_text("".join(lines[:-10]))
    store = tmp_path / "store"
    base = ["--input", str(archive), "--store", str(store), "--json"]
    base += ["--set", "ray.num_shards=1"]
    runner = CliRunner()

    refused = runner.invoke(app, ["build", *base])
    assert refused.exit_code == 2 and "unsupported archive format .txt" in refused.output

    built = runner.invoke(app, ["build", *base, "--format", "jsonl"])
    assert built.exit_code == 0, built.output
    summary = json.loads(built.stdout.strip().splitlines()[-1])
    assert summary["committed"] and summary["users"] == SAMPLE_USERS
    assert summary["rows_read"] == SAMPLE_LINES - 10

    # The grown tail carries turn_index (without it a nightly falls back to a full build).
    tail = [json.loads(line) | {"turn_index": 100 + i} for i, line in enumerate(lines[-10:-2])]
    archive.write_text("".join(lines[:-10]) + "".join(json.dumps(r) + "\n" for r in tail))
    planned = runner.invoke(app, ["nightly", *base, "--dry-run", "-f", "jsonl"])
    assert planned.exit_code == 0, planned.output
    report = json.loads(planned.stdout.strip().splitlines()[-1])
    assert report["mode"] == "incremental", report["reason"]
    assert [f["kind"] for f in report["files"]] == ["appended"]
    assert report["new_rows"] == len(tail) == 8
