"""Forget, round 3 (issue 48), through the CLI as a user runs it: what a forget refuses,
which quarantined lines it takes, and a forget racing a build."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from arborwiki.jobs.cli import app
from arborwiki.storage.lance_store import LanceStore
from tests.jobs.test_cli_format import SAMPLE

run = CliRunner().invoke


def _io(archive: Path, store: Path) -> list[str]:
    return ["--input", str(archive), "--store", str(store), "--json", "--set", "ray.num_shards=1"]


def _built(tmp_path: Path, extra: str = "") -> tuple[Path, Path]:
    archive, store = tmp_path / "a.jsonl", tmp_path / "store"
    shutil.copy(SAMPLE, archive)
    if extra:
        with archive.open("a", encoding="utf-8") as out:
            out.write(extra)
    built = run(app, ["build", *_io(archive, store)])
    assert built.exit_code == 0, built.output
    return archive, store


def _message_ids(store: Path, user: str) -> set[str]:
    now = LanceStore(store, follow_runs=True)
    return {r["message_id"] for r in now.rows("messages", user)}


def _row(user: str, message: str, text: str, turn: int) -> str:
    row = {"user_id": user, "message_id": message, "turn_index": turn, "text": text,
           "timestamp": "2024-09-01T10:00:00Z"}  # fmt: skip
    return json.dumps(row) + "\n"


def test_a_refused_forget_writes_no_tombstone(ray_local: None, tmp_path: Path) -> None:
    archive, store = _built(tmp_path)
    assert "alice-001" in _message_ids(store, "alice")
    forget = ["forget", "--store", str(store), "--user", "alice"]
    refused = run(app, [*forget, "--message", "alice-001", "--message", "alice-098"])
    assert refused.exit_code == 2 and "has no message 'alice-098'" in refused.output
    assert not (store / "tombstones.json").exists()  # nothing recorded, nothing forgotten

    with archive.open("a", encoding="utf-8") as out:
        out.write(_row("alice", "alice-099", "A new message arrived today.", 99))
    nightly = run(app, ["nightly", *_io(archive, store)])
    assert nightly.exit_code == 0, nightly.output
    assert {"alice-001", "alice-099"} <= _message_ids(store, "alice")
