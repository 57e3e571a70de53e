"""`benchmarks/build_throughput.py` at 10K messages: the real CLI build end to end.

Correctness only (counts against the generator's truth, an unchanged rerun writes
nothing, every message id lands in the store); no timing is asserted.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from arborwiki.core.config import Config
from arborwiki.core.pipeline import user_windows
from arborwiki.core.records import Message
from arborwiki.storage.lance_store import LanceStore
from benchmarks.build_throughput import (
    MESSAGES_PER_USER,
    build_table,
    raw_scan,
    run_cli_build,
    write_archive,
)

MESSAGES = 10_000


def _windows(archive: Path) -> int:
    by_user: dict[str, list[Message]] = defaultdict(list)
    for line in archive.read_text().splitlines():
        message = Message.model_validate_json(line)
        by_user[message.user_id].append(message)
    return sum(len(user_windows(ms, Config()).windows) for ms in by_user.values())


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
    # 25 sessions of 8 turns a user: a window per 4 turns of an episode, so 50 a user when
    # every episode is half a session; the count the stage itself cuts, user by user
    assert s["snapshots"] == _windows(archive) >= users * 50
    assert s["claims"] > 0 and s["trajectories"] >= users and s["pages"] >= users
    assert first.driver_mb > 0 and first.store_mb > 0
    ids = {json.loads(line)["message_id"] for line in archive.read_text().splitlines()}
    stored = LanceStore(store).table("messages").to_arrow().column("message_id").to_pylist()
    assert len(stored) == MESSAGES and set(stored) == ids
    rerun = run_cli_build("10K rerun", archive, store, [], 0, 0)
    assert rerun.summary["committed"] == 0.0 and rerun.summary["messages"] == MESSAGES
    assert "| 10K |" in "\n".join(build_table([first, rerun]))
