"""Store administration for `arborwiki versions / rollback / forget`: no Ray started.

jobs/ may not import storage/ (tests/test_architecture.py), so the commands reach the
store through here.
"""

from __future__ import annotations

from arborwiki.cluster.build import WORK
from arborwiki.cluster.forget import ForgetReport, forget, sweep
from arborwiki.core.config import Config, load_config
from arborwiki.storage import paths, tombstones
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.online import writer_lock
from arborwiki.storage.versions import RunInfo, list_runs, rollback

COMMITTED_MARKERS = "runs"
"""`_work/runs/<run key>.committed`: the build's "this input is committed" markers."""


def _open(store_path: str) -> LanceStore:
    store = LanceStore(store_path, create=False)
    if not store.runs():
        raise ValueError(f"store {store_path} has no recorded runs: build it first")
    return store


def store_runs(store_path: str) -> list[RunInfo]:
    """Every recorded run of the store, oldest first."""
    return list_runs(_open(store_path))


def rollback_store(store_path: str, run_id: str, cfg: Config | None = None) -> RunInfo:
    """Restore every table to `run_id`'s versions (a run of its own). The build's committed
    markers go: after a rollback, rebuilding an input committed before must write again.
    A rollback never brings back what a tombstone names: the forgotten users' and messages'
    rows are out of the tables before its run row (`storage.versions.rollback`), and what
    was built from a forgotten message is rebuilt at once (`cluster.forget.sweep`, with
    `cfg`'s extractor for a user who keeps other messages), each such forget a run after
    the rollback's."""
    with writer_lock(store_path):  # no build commit, online add or forget in between
        info = rollback(_open(store_path), run_id)
        runs = paths.join(store_path, WORK, COMMITTED_MARKERS)
        for marker in paths.list_files(runs, recursive=False, pattern="*.committed"):
            paths.remove(marker)
    sweep(store_path, cfg if cfg is not None else load_config())  # takes the lock per user
    return info


def forget_in_store(
    store_path: str, cfg: Config, user_id: str, message_ids: list[str]
) -> ForgetReport:
    """Forget a user or some of their messages (see cluster/forget.py)."""
    _open(store_path)
    return forget(store_path, cfg, user_id, message_ids)


def unforget_in_store(store_path: str, user_id: str, message_ids: list[str]) -> int:
    """Drop the tombstones of a user (or of some of their messages): the next build of an
    archive that holds the rows stores them again. How many tombstones went."""
    _open(store_path)
    gone = tombstones.remove(store_path, user_id, message_ids)
    if not gone:
        what = f"messages {', '.join(message_ids)} of " if message_ids else ""
        raise ValueError(f"store {store_path} has no tombstone for {what}user {user_id!r}")
    return gone
