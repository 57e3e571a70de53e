"""A forget stays forgotten (issue 35, items 1 and 2), through the CLI as a user runs it:
build → forget (a message; a user with a non-ASCII id and a compact-JSON quarantined line; a
user whose every row was quarantined) → nightly → build → nightly of a grown archive; no
byte of any forgotten text anywhere under the store, and no row of it in any table. Only
`forget --undo` brings a user back."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arborwiki.jobs.cli import app
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import USER_TABLES
from tests.jobs.test_cli_format import SAMPLE

MARK_ALICE, MARK_JOSE, MARK_ONLYQ = "Zqxalicemark", "Zqxjosemark", "Zqxonlyqmark"
JOSE = "josé"


def _compact(row: dict[str, object]) -> str:
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


def _archive(path: Path) -> None:
    text = SAMPLE.read_text().replace("I live in Portland, so", f"I live near {MARK_ALICE}, so")
    jose = [
        {"user_id": JOSE, "message_id": f"j{i}", "turn_index": i, "text": f"{MARK_JOSE} day {i}",
         "timestamp": f"2024-02-0{i + 1}T10:00:00Z"}
        for i in range(3)
    ]  # fmt: skip
    bad_jose = jose[0] | {"message_id": "j9", "timestamp": "not a time"}
    onlyq = {"user_id": "onlyq", "message_id": "q1", "text": MARK_ONLYQ, "timestamp": "soon"}
    lines = [_compact(r) for r in (*jose, bad_jose, onlyq)]
    path.write_text(text + "\n".join(lines) + "\n", encoding="utf-8")


def _files_with(root: Path, needle: str) -> list[str]:
    return [
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and needle.lower().encode() in p.read_bytes().lower()
    ]


def _last_json(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


def test_forgotten_rows_stay_forgotten_across_nightly_and_build(
    ray_local: None, tmp_path: Path
) -> None:
    archive, store = tmp_path / "a.jsonl", tmp_path / "store"
    _archive(archive)
    run = CliRunner().invoke
    io = ["--input", str(archive), "--store", str(store), "--json", "--set", "ray.num_shards=1"]
    built = run(app, ["build", *io])
    assert built.exit_code == 0, built.output
    assert _files_with(store, MARK_JOSE) and _files_with(store, MARK_ONLYQ)
    tables = LanceStore(store)
    marked = [r for r in tables.rows("messages", "alice") if MARK_ALICE in r["text"]]
    alice_id = marked[0]["message_id"]

    forget = ["forget", "--store", str(store), "--json"]
    assert run(app, [*forget, "--user", "alice", "--message", alice_id]).exit_code == 0
    gone = run(app, [*forget, "--user", JOSE])
    assert gone.exit_code == 0, gone.output
    assert json.loads(gone.output)["removed"]["quarantine"] == 1  # the compact-JSON line
    only = run(app, [*forget, "--user", "onlyq"])  # every row of it was quarantined
    assert only.exit_code == 0, only.output

    nightly = run(app, ["nightly", *io])
    assert nightly.exit_code == 0, nightly.output
    assert _last_json(nightly.output)["mode"] == "up to date"  # the forget kept the watermark
    again = run(app, ["build", *io])
    assert again.exit_code == 0, again.output
    summary = _last_json(again.output)
    assert summary["forgotten"] == 1 + 4 + 1  # alice's message, josé's 3 + 1, onlyq's 1
    assert summary["rows_read"] == summary["messages"] + summary["quarantined"] + 6

    with archive.open("a", encoding="utf-8") as out:  # the archive grows: josé again
        row = {"user_id": JOSE, "message_id": "j5", "turn_index": 5, "text": f"{MARK_JOSE} 5",
               "timestamp": "2024-02-09T10:00:00Z"}  # fmt: skip
        out.write(_compact(row) + "\n")
    grown = run(app, ["nightly", *io])
    assert grown.exit_code == 0, grown.output
    report = _last_json(grown.output)
    assert report["new_rows"] == 1 and report["new_forgotten"] == 1 and report["users"] == []

    for mark in (MARK_ALICE, MARK_JOSE, MARK_ONLYQ):
        assert _files_with(store, mark) == [], mark  # tables, versions, _work, _cache
    now = LanceStore(store, follow_runs=True)
    for name in (*USER_TABLES, "quarantine"):
        rows = now.table(name).search().limit(None).to_list()
        text = repr(rows)
        assert JOSE not in text and "onlyq" not in text and alice_id not in text, name
    assert now.count("messages", "user_id = 'alice'") > 0  # the rest of alice stays

    undo = run(app, [*forget, "--user", JOSE, "--undo"])
    assert undo.exit_code == 0 and json.loads(undo.output)["tombstones_removed"] == 1
    back = run(app, ["build", *io])
    assert back.exit_code == 0, back.output
    assert LanceStore(store, follow_runs=True).count("messages", f"user_id = '{JOSE}'") == 4
    refused = run(app, [*forget, "--user", JOSE, "--undo"])
    assert refused.exit_code != 0 and "no tombstone" in refused.output
