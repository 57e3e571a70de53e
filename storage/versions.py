"""Runs as versions: list them, roll the store back to one, and keep only what retention says.

Every committed run (build, nightly, rollback, forget) appends one row to `runs` holding the
version of every table it left behind; the last row is the current-run pointer that
following readers pin to (`LanceStore(follow_runs=True)`). A rollback restores each table to
the target run's version (Lance `restore`: a new version with the old content, no copy) and
only then appends its own row: a reader sees the store before the rollback or after it,
never a mix. Retention deletes table versions no retained run points at, and the rows of
online commits a later run superseded.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from arborwiki.core.records import RunRecord
from arborwiki.storage import tombstones
from arborwiki.storage.lance_store import LanceStore, run_versions, sql_in, sql_str
from arborwiki.storage.online import RUN_PREFIX as ONLINE_RUN_PREFIX
from arborwiki.storage.online import writer_lock

ROLLBACK_PREFIX = "rollback-"


@dataclass(frozen=True)
class RunInfo:
    """One row of `runs`, decoded, with whether its table versions still exist."""

    run_id: str
    started_at: datetime
    finished_at: datetime
    input: str
    counts: dict[str, Any]
    versions: dict[str, int]
    current: bool
    restorable: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "started_at": self.started_at.isoformat(),
            "finished_at": self.finished_at.isoformat(),
            "input": self.input,
            "counts": self.counts,
            "versions": self.versions,
            "current": self.current,
            "restorable": self.restorable,
        }


def _existing_versions(store: LanceStore) -> dict[str, set[int]]:
    return {
        name: {int(v["version"]) for v in store.table(name).list_versions()}
        for name in store.versions()
    }


def list_runs(store: LanceStore) -> list[RunInfo]:
    """Every run, oldest first; `restorable`: every table version it recorded still exists."""
    rows = store.runs()
    existing = _existing_versions(store)
    out = []
    for i, row in enumerate(rows):
        versions = run_versions(row)
        out.append(
            RunInfo(
                run_id=row["run_id"],
                started_at=row["started_at"],
                finished_at=row["finished_at"],
                input=row["input"] or "",
                counts=json.loads(row["counts"] or "{}"),
                versions=versions,
                current=i == len(rows) - 1,
                restorable=all(v in existing.get(n, set()) for n, v in versions.items()),
            )
        )
    return out


def find_run(store: LanceStore, run_id: str) -> dict[str, Any]:
    """The latest row recorded under `run_id` (a rerun after failures records it again)."""
    rows = [r for r in store.runs() if r["run_id"] == run_id]
    if not rows:
        known = ", ".join(r["run_id"] for r in store.runs()[-5:]) or "none"
        raise ValueError(f"no run {run_id!r} in store {store.path} (latest: {known})")
    return rows[-1]


def rollback(store: LanceStore, run_id: str) -> RunInfo:
    """Restore every table to `run_id`'s versions, then append the rollback's own run row
    (the pointer readers follow). A table created after that run is emptied. What a
    tombstone names goes before the run row (`_forgotten_out`): restored versions may hold
    it, and readers follow the run row at once. The caller holds the writer lock."""
    started = datetime.now(UTC)
    target = find_run(store, run_id)
    versions = run_versions(target)
    existing = _existing_versions(store)
    gone = sorted(n for n, v in versions.items() if v not in existing.get(n, set()))
    if gone:
        raise ValueError(
            f"run {run_id!r} can no longer be restored: versions of {', '.join(gone)} were "
            "deleted (store.keep_runs / store.retention_hours, or a forget)"
        )
    for name in store.versions():
        table = store.table(name)
        if name in versions:
            if int(table.version) != versions[name]:
                table.restore(versions[name])
        else:
            table.delete("true")
    _forgotten_out(store)
    store.record_run(
        RunRecord(
            run_id=f"{ROLLBACK_PREFIX}{uuid.uuid4().hex[:12]}",
            started_at=started,
            finished_at=datetime.now(UTC),
            input=f"rollback to {run_id}",
            fingerprint=target["fingerprint"] or "",
            counts=json.loads(target["counts"] or "{}"),
            # what the restored state had read: the next nightly run goes on from there
            watermark=json.loads(target.get("watermark") or "{}"),
        )
    )
    return list_runs(store)[-1]


def apply_retention(store: LanceStore, keep_runs: int, retention_hours: float) -> dict[str, int]:
    """Delete table versions that none of the last `keep_runs` runs (online commits not
    counted; the current run always kept) points at and that are
    older than `retention_hours` (a reader still pinned to a just-replaced run keeps its
    files meanwhile); the latest version of a table is never deleted. Returns the number of
    versions deleted per table."""
    cutoff = datetime.now(UTC) - timedelta(hours=retention_hours)
    trim_online_runs(store, cutoff)
    runs = store.runs()
    protected: dict[str, set[int]] = {}
    runs_kept = [r for r in runs if not r["run_id"].startswith(ONLINE_RUN_PREFIX)][-keep_runs:]
    for row in [*runs_kept, *runs[-1:]] if keep_runs > 0 else []:
        for name, version in run_versions(row).items():
            protected.setdefault(name, set()).add(version)
    removed: dict[str, int] = {}
    names = [*store.versions(), *(["runs"] if runs else [])]
    for name in names:
        table = store.table(name)
        latest = int(table.version)
        old = [
            int(v["version"])
            for v in table.list_versions()
            if int(v["version"]) != latest
            and int(v["version"]) not in protected.get(name, set())
            and _utc(v["timestamp"]) < cutoff
        ]
        if old:
            table.to_lance().cleanup_old_versions(versions=old, error_if_tagged_old_versions=False)
            removed[name] = len(old)
    return removed


def trim_online_runs(store: LanceStore, cutoff: datetime) -> int:
    """Delete the rows of online runs that finished before `cutoff` and that a later build,
    nightly, forget or rollback superseded; returns how many went. The runs table gains a row
    per online commit and is read whole at every refresh and add; those rows are no
    rollback target (`versions` lists builds), and a reader or writer that last read one
    reads every user again (`users_rewritten_since` finds no such run). Under the writer
    lock: an add's run row is never appended while rows go."""
    with writer_lock(store.path):
        runs = store.runs()
        online = [r["run_id"].startswith(ONLINE_RUN_PREFIX) for r in runs]
        # the online runs before the latest build, nightly, forget or rollback are superseded
        superseded = max((i for i, is_online in enumerate(online) if not is_online), default=0)
        old = [
            run["run_id"]
            for run, is_online in zip(runs[:superseded], online, strict=False)
            if is_online and _utc(run["finished_at"]) < cutoff
        ]
        return store.delete("runs", sql_in("run_id", old)) if old else 0


def purge_old_versions(store: LanceStore) -> None:
    """Every table keeps only its latest version (forgetting: no old version may still hold
    the forgotten bytes); unreferenced leftover files go too."""
    for name in [*store.versions(), "runs"]:
        if store.has(name):
            store.table(name).to_lance().cleanup_old_versions(
                older_than=timedelta(0), delete_unverified=True, error_if_tagged_old_versions=False
            )


def _utc(moment: datetime) -> datetime:
    """Lance lists version times as naive local datetimes."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.astimezone().astimezone(UTC)


def _forgotten_out(store: LanceStore) -> None:
    """The forgotten users' rows and the forgotten messages' rows deleted from the restored
    tables. What was built from a forgotten message (snapshots, claims, pages of a user who
    keeps others) is rebuilt after, by the sweep the rollback ends with."""
    stones = tombstones.load(store.path)
    store.delete_users(stones.users)
    for user_id, message_ids in sorted(stones.messages.items()):
        if message_ids and store.has("messages"):
            where = f"user_id = {sql_str(user_id)} AND {sql_in('message_id', sorted(message_ids))}"
            store.delete("messages", where)
