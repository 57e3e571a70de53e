"""The nightly run: rebuild only the users that archive data new since the last run touches.

    last run's watermark ──compare──▶ new files, appended JSONL tails (changed → full build)
    new bytes ──read tasks──▶ shard parts of the new rows + their quarantine
    touched users' stored messages (Lance `messages`) ──▶ one more part per shard, first
    stored + new parts ──the build's stages──▶ those users' rows ──▶ one commit (their rows only)

A touched user is rebuilt from everything it said (stored messages first, then the new
ones), through the very stages of a full build, so nightly(day 1) + nightly(day 2) equals
a full build of day 1 + day 2 by construction; the extraction cache answers every window
seen before, so model work is proportional to the new windows. Untouched users are not in
the commit: their rows stay byte for byte as they were.

A config whose hash differs from the last run's, an input file changed in place or gone,
failed users left by the last run, or appended rows without a turn_index (their default
index counts from the start of the file) make the run a full build, and it says why.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from arborwiki.cluster.build import (
    COMMIT_TRIES,
    WORK,
    BuildSummary,
    CommitScope,
    ReadSpec,
    compile_and_commit,
    config_hash,
    forget_leftovers,
    read_files,
    run_build,
    staged_run,
    watermark,
)
from arborwiki.cluster.commit import TombstonesChanged
from arborwiki.cluster.online import fold_online
from arborwiki.cluster.runtime import driver_path
from arborwiki.cluster.scheduling import Progress, Timeline
from arborwiki.cluster.sharding import (
    Partition,
    ReadPiece,
    ReadStage,
    add_table_part,
    merge_partitions,
)
from arborwiki.cluster.stages import ShardJob, read_shard
from arborwiki.core.config import Config
from arborwiki.core.pipeline import user_windows
from arborwiki.storage import paths, tombstones
from arborwiki.storage.archive import archive_files
from arborwiki.storage.forget import stored_windows
from arborwiki.storage.increment import (
    FileChange,
    FileMark,
    compare_files,
    stored_messages,
)
from arborwiki.storage.lance_store import LanceStore

STORED_SOURCE = "arborwiki-store:messages"
"""The `source` of the part holding touched users' stored messages (file index 0)."""
MAX_USERS_SHOWN = 20


@dataclass
class NightlyReport:
    """What the nightly run found and did (or, with --dry-run, would do)."""

    mode: str  # "incremental", "full" or "up to date"
    reason: str
    dry_run: bool = False
    since_run: str = ""
    files: list[dict[str, Any]] = field(default_factory=list)
    users: list[str] = field(default_factory=list)
    new_rows: int = 0
    new_messages: int = 0
    new_quarantined: int = 0
    new_forgotten: int = 0  # rows a tombstone names (storage/tombstones.py), dropped
    windows: int = 0
    windows_new: int = 0
    seconds: float = 0.0
    build: BuildSummary | None = None
    forgotten_again: list[str] = field(default_factory=list)
    """Users whose tombstoned rows the store still held, forgotten again (a forget cut
    short, or rows an earlier run committed from a read made before the forget)."""
    online_folded: list[str] = field(default_factory=list)
    """Users an agent wrote to during the run, placed again after its commit."""

    @property
    def written(self) -> bool:
        return self.build is not None and self.build.committed

    def lines(self) -> list[str]:
        head = f"nightly: {self.mode}" + (" (dry run)" if self.dry_run else "")
        out = [f"{head}: {self.reason}"]
        for f in self.files:
            extra = f" +{f['new_bytes']} bytes, line {f['first_line']} on" if f["new_bytes"] else ""
            out.append(f"  {f['kind']}: {f['path']}{extra}")
        if self.mode == "incremental" or self.users:
            shown = ", ".join(self.users[:MAX_USERS_SHOWN])
            more = len(self.users) - MAX_USERS_SHOWN
            shown += f", ... ({more} more)" if more > 0 else ""
            out.append(f"users={len(self.users)} [{shown}]")
            if self.mode == "full":  # a dry full run: what the whole archive holds
                out.append(
                    f"whole archive: rows={self.new_rows} messages={self.new_messages} "
                    f"quarantined={self.new_quarantined} forgotten={self.new_forgotten}"
                )
            else:
                out.append(
                    f"new_rows={self.new_rows} new_messages={self.new_messages} "
                    f"new_quarantined={self.new_quarantined} "
                    f"new_forgotten={self.new_forgotten} windows={self.windows} "
                    f"windows_new={self.windows_new}"
                )
        if self.build is not None:
            out.append(self.build.line())
        elif self.dry_run:
            out.append("dry run: nothing written")
        else:
            out.append("nothing written")
        if self.forgotten_again:
            out.append(f"forgotten again (tombstoned rows still stored): {self.forgotten_again}")
        return out

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["build"] = self.build.to_dict() if self.build is not None else None
        data["written"] = self.written
        return data


def last_watermark(store_dir: str) -> tuple[dict[str, Any] | None, str]:
    """The latest committed run's watermark (None without one) and its run id."""
    if not paths.is_dir(store_dir):
        return None, ""
    run = LanceStore(store_dir, create=False).latest_run()
    if run is None:
        return None, ""
    raw = run.get("watermark")
    return (json.loads(raw) if raw else None), str(run["run_id"])


def _full_reason(previous: dict[str, Any] | None, run_id: str, chash: str) -> str | None:
    if previous is None or not previous.get("files"):
        return "no earlier run with a watermark in this store"
    if previous.get("config_hash") != chash:
        return f"config changed since run {run_id} ({previous.get('config_hash')} -> {chash})"
    if previous.get("failed_users"):
        return f"run {run_id} left {len(previous['failed_users'])} failed users to retry"
    return None


def _change_reason(changes: list[FileChange]) -> str | None:
    for change in changes:
        if change.kind == "changed":
            return f"{change.path} changed in place (not an append)"
        if change.kind == "removed":
            return f"{change.path} is gone from the input"
    return None


def run_nightly(
    input_path: str,
    store_path: str,
    cfg: Config,
    dry_run: bool = False,
    progress: Progress | None = None,
    fmt: str | None = None,
) -> NightlyReport:
    """Rebuild the users touched by data new since the last committed run (see module doc);
    `fmt` names the archive format of every input file (None: by suffix). A forget during
    the run makes it read again (`TombstonesChanged`); a run that writes ends by forgetting
    again what a tombstone names and the store still holds (`forget_leftovers`)."""
    for attempt in range(1, COMMIT_TRIES + 1):
        try:
            report = _nightly(input_path, store_path, cfg, dry_run, progress, fmt)
            break
        except TombstonesChanged:
            if attempt == COMMIT_TRIES:
                raise
    if not dry_run and report.mode != "full":  # a full run is a build: it did this itself
        report.forgotten_again = forget_leftovers(driver_path(store_path, cfg.ray), cfg)
        report.online_folded = fold_online(driver_path(store_path, cfg.ray), cfg)
    elif report.build is not None:
        report.forgotten_again = report.build.forgotten_again
        report.online_folded = report.build.online_folded
    return report


def _nightly(
    input_path: str,
    store_path: str,
    cfg: Config,
    dry_run: bool,
    progress: Progress | None,
    fmt: str | None,
) -> NightlyReport:
    started = time.time()
    input_path, store_path = driver_path(input_path, cfg.ray), driver_path(store_path, cfg.ray)
    files = archive_files(input_path, fmt)  # bad paths and formats fail here, before Ray starts
    store_dir = store_path  # a local path or an object-store URI
    reason, changes, run_id = _plan(files, store_dir, cfg, fmt)
    if reason is not None:
        return _full(input_path, store_dir, cfg, reason, dry_run, progress, started, fmt)
    report = NightlyReport("incremental", "", dry_run=dry_run, since_run=run_id)
    report.files = [c.to_dict() for c in changes if c.kind != "unchanged"]
    todo = [c for c in changes if c.kind in ("new", "appended")]
    if not todo:
        report.mode, report.reason = "up to date", f"nothing new since run {run_id}"
        report.seconds = time.time() - started
        return report
    report.reason = f"{len(todo)} new or grown input files since run {run_id}"
    specs = [(i, c.path, c.start_byte, c.first_line) for i, c in enumerate(todo, start=1)]
    if dry_run:
        fallback = _describe_new(report, specs, store_dir, cfg, fmt)
    else:
        after = {c.path: c.mark for c in changes if c.mark is not None}
        scope = CommitScope(str(input_path), [], {}, replace_quarantine=False, names_users=True)
        fallback = _build_new(report, specs, after, store_dir, cfg, scope, progress, fmt)
    if fallback is not None:
        return _full(input_path, store_dir, cfg, fallback, dry_run, progress, started, fmt)
    report.seconds = time.time() - started
    return report


def _plan(
    files: list[str], store_dir: str, cfg: Config, fmt: str | None
) -> tuple[str | None, list[FileChange], str]:
    """Why this run must be a full build (None: it need not), each file's change since the
    last run, and that run's id."""
    previous, run_id = last_watermark(store_dir)
    reason = _full_reason(previous, run_id, config_hash(cfg))
    changes: list[FileChange] = []
    if reason is None and previous is not None:
        marks = {p: FileMark.from_dict(m) for p, m in previous["files"].items()}
        changes = compare_files(files, marks, fmt)
        reason = _change_reason(changes)
    return reason, changes, run_id


def _describe_new(
    report: NightlyReport, specs: list[ReadSpec], store_dir: str, cfg: Config, fmt: str | None
) -> str | None:
    """A dry run: what the new bytes hold and which windows change; nothing written.
    Returns why a full build is needed instead, if it is."""
    with tempfile.TemporaryDirectory() as tmp:
        read, gone = ReadStage(cfg, store_dir), tombstones.load(store_dir)
        results = [
            read.process_batch(ReadPiece(i, f, tmp, s, line, fmt=fmt, forgotten=gone))
            for i, f, s, line in specs
        ]
        part = merge_partitions(tmp, cfg.ray.num_shards, results)
        if (why := _defaulted_turns(part)) is not None:
            return why
        after = _describe(report, part, _add_stored(part, store_dir, tmp, cfg), cfg)
        _count_windows(report, _stored_keys(store_dir, report.users), after)
    return None


def _build_new(
    report: NightlyReport,
    specs: list[ReadSpec],
    after: dict[str, FileMark],
    store_dir: str,
    cfg: Config,
    scope: CommitScope,
    progress: Progress | None,
    fmt: str | None,
) -> str | None:
    """Read the new bytes, add the touched users' stored messages, compile and commit;
    returns why a full build is needed instead, if it is."""
    with staged_run(store_dir, cfg) as (staging, live):
        started_at = datetime.now(UTC)
        timeline = Timeline()
        timeline.start("read")
        scope.tombstones = tombstones.load(store_dir)
        part = read_files(specs, staging, cfg, live, fmt, forgotten=scope.tombstones)
        if (why := _defaulted_turns(part)) is not None:
            return why
        stored_ids = _add_stored(part, store_dir, staging, cfg)
        timeline.end("read")
        _describe(report, part, stored_ids)
        before = _stored_keys(store_dir, report.users)
        scope.watermark = watermark(cfg, "incremental", after, part)  # type: ignore[arg-type]
        report.build = compile_and_commit(
            part, store_dir, cfg, live, progress, timeline, started_at, scope
        )
    # the windows the build cut and keyed, as its committed snapshots hold them
    _count_windows(report, before, _stored_keys(store_dir, report.users))
    return None


def _defaulted_turns(part: Partition) -> str | None:
    for result in part.per_file:
        if result.defaulted_turns:
            return (
                f"{result.defaulted_turns} new rows of {result.source} have no turn_index "
                "(their default counts from the start of the file)"
            )
    return None


def _full(
    input_path: str,
    store_dir: str,
    cfg: Config,
    reason: str,
    dry_run: bool,
    progress: Progress | None,
    started: float,
    fmt: str | None = None,
) -> NightlyReport:
    """The whole archive through `run_build` (or, dry, what it holds)."""
    report = NightlyReport("full", reason, dry_run=dry_run)
    if dry_run:
        with tempfile.TemporaryDirectory() as tmp:
            read, gone = ReadStage(cfg, store_dir), tombstones.load(store_dir)
            results = [
                read.process_batch(ReadPiece(i, str(f), tmp, fmt=fmt, forgotten=gone))
                for i, f in enumerate(archive_files(input_path, fmt))
            ]
            part = merge_partitions(tmp, cfg.ray.num_shards, results)
        report.users = sorted(set().union(*part.users.values()))
        report.new_rows, report.new_quarantined = part.rows_read, part.rows_quarantined
        report.new_messages, report.new_forgotten = part.rows_valid, part.rows_forgotten
    else:
        # a store built before watermarks existed: its committed marker would make the build
        # skip the commit, and so never record one
        runs = paths.join(store_dir, WORK, "runs")
        for marker in paths.list_files(runs, recursive=False, pattern="*.committed"):
            paths.remove(marker)
        build = report.build = run_build(input_path, store_dir, cfg, progress, fmt)
        report.users, report.new_rows = build.user_ids, build.rows_read
        report.new_messages, report.new_quarantined = build.messages, build.quarantined
        report.new_forgotten = build.forgotten
    report.seconds = time.time() - started
    return report


def _add_stored(part: Partition, store_dir: str, staging: str, cfg: Config) -> set[str]:
    """Put the touched users' stored messages first in their shards (file index 0) and fold
    them into the shard digests; returns the stored (user, message) keys."""
    users = sorted(set().union(*part.users.values()))
    stored = stored_messages(LanceStore(store_dir, create=False), users)
    stored, _ = tombstones.drop_forgotten(stored, tombstones.load(store_dir))
    add_table_part(part, stored, STORED_SOURCE, staging, first=True)
    keys = zip(
        stored.column("user_id").to_pylist(), stored.column("message_id").to_pylist(), strict=True
    )
    return {json.dumps(k) for k in keys}


def _describe(
    report: NightlyReport, part: Partition, stored: set[str], cfg: Config | None = None
) -> dict[str, set[str]]:
    """Users, rows and messages that change. With `cfg` (a dry run: nothing is built), the
    touched users' windows are cut as the build would cut them; returns their keys."""
    report.users = sorted(set().union(*part.users.values()))
    report.new_rows = part.rows_read
    report.new_quarantined = part.rows_quarantined
    report.new_forgotten = part.rows_forgotten
    keys: dict[str, set[str]] = {}
    for shard, files in sorted(part.files.items()):
        by_user, duplicates = read_shard(ShardJob(shard, [str(f) for f in files], part.sources, ""))
        report.new_quarantined += len(duplicates)
        for user_id, messages in by_user.items():
            old = sum(1 for m in messages if json.dumps([user_id, m.message_id]) in stored)
            report.new_messages += len(messages) - old
            if cfg is not None:
                keys[user_id] = set(user_windows(messages, cfg).keys)
    return keys


def _stored_keys(store_dir: str, users: list[str]) -> dict[str, set[str]]:
    """The users' window keys as their stored snapshots hold them (a user whose snapshots
    predate the key has none: its windows count as new)."""
    kept = stored_windows(LanceStore(store_dir, create=False), users)
    return {u: {k for k, _ in kept.get(u, [])} for u in users}


def _count_windows(
    report: NightlyReport, before: dict[str, set[str]], after: dict[str, set[str]]
) -> None:
    """The touched users' windows after the run, and how many did not exist before (new, or
    grown by the new turns)."""
    for user_id, now in after.items():
        report.windows += len(now)
        report.windows_new += len(now - before.get(user_id, set()))


__all__ = ["NightlyReport", "last_watermark", "run_nightly"]
