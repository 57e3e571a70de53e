"""`benchmarks/build_throughput.py` at 10K messages: the real CLI build end to end.

Correctness only (counts against the generator's truth, an unchanged rerun writes
nothing, every message id lands in the store); no timing is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

from arborwiki.storage.lance_store import LanceStore
from benchmarks.build_throughput import (
    MESSAGES_PER_USER,
    build_table,
    raw_scan,
    run_cli_build,
    write_archive,
)

MESSAGES = 10_000
WINDOWS_PER_USER = 50  # 25 sessions of 8 turns, windows of 4 turns


def test_ten_thousand_messages_build_through_the_cli(tmp_path: Path) -> None:
    archive = tmp_path / "archive.jsonl"
    users = write_archive(archive, MESSAGES, seed=3)
    assert users == MESSAGES // MESSAGES_PER_USER == 50
    scanned, rate = raw_scan(archive)
    assert scanned == MESSAGES and rate > 0
    store = tmp_path / "store"
    first = run_cli_build("10K", archive, store, [], scanned, users)
    s = first.summary
    assert s["committed"] == 1.0
    assert (s["users"], s["messages"], s["rows_read"], s["quarantined"]) == (
        50,
        MESSAGES,
        MESSAGES,
        0,
    )
    assert s["snapshots"] == users * WINDOWS_PER_USER
    assert s["claims"] > 0 and s["trajectories"] >= users and s["pages"] >= users
    assert first.driver_mb > 0 and first.store_mb > 0
    ids = {json.loads(line)["message_id"] for line in archive.read_text().splitlines()}
    stored = LanceStore(store).table("messages").to_arrow().column("message_id").to_pylist()
    assert len(stored) == MESSAGES and set(stored) == ids
    rerun = run_cli_build("10K rerun", archive, store, [], 0, 0)
    assert rerun.summary["committed"] == 0.0 and rerun.summary["messages"] == MESSAGES
    assert "| 10K |" in "\n".join(build_table([first, rerun]))
