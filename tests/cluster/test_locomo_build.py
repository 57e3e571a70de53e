"""The real LoCoMo dev file builds 5 users with every kind of record (skips without it)."""

from __future__ import annotations

from pathlib import Path

from arborwiki.cluster.build import run_build
from arborwiki.core.config import load_config
from arborwiki.storage.lance_store import LanceStore


def test_locomo_dev_builds_five_users(ray_local: None, locomo_dev: Path, tmp_path: Path) -> None:
    summary = run_build(str(locomo_dev), str(tmp_path), load_config())
    assert summary.users == 5 and summary.messages == 2960 and summary.quarantined == 0
    assert min(summary.snapshots, summary.claims, summary.trajectories, summary.pages) > 0
    store = LanceStore(tmp_path)
    for user in ("conv-26", "conv-41", "conv-43", "conv-47", "conv-49"):
        kinds = {r["kind"] for r in store.rows("wiki_pages", user, columns=["kind"])}
        assert kinds == {"index", "entity", "topic", "inventory"}, user
        assert store.rows("trajectories", user, columns=["trajectory_id"])
