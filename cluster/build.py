"""The build job's driver: read → windows → extract → compile → one commit, on Ray.

    input files ──read tasks (CPU, one per file)──▶ per-shard Parquet parts + quarantine
    shard parts ──WindowsStage tasks (CPU)────────▶ windows missing from the extraction cache
    windows ─────ExtractStage actors (GPU: vllm; ─▶ drafts into the cache
                 HTTP: openai), batches across users
    shard parts + cached drafts ──CompileStage tasks (CPU)──▶ staged rows per table
    staged rows ──driver──▶ rebuilt users' rows replaced per Lance table, failures, run record

With the rules extractor (CPU default) and no rule cache, extraction is fused into the
compile tasks (read → compile → commit): shipping windows to another process would cost
more than extracting them. Stages stream: a shard's compile task starts as soon as its
last window is drafted, while the engines work on other shards' windows.

Reruns are cheap and safe: a shard's outputs live under a directory named by (config hash,
shard content digest) and carry a completion marker, so an unchanged, failure-free shard is
never rebuilt; a run whose shards and quarantine were all committed before writes nothing;
drafts are cached by window content, so a recompile never asks the model again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import signal
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ray

from arborwiki.cluster.commit import CommitStage, StagedCommit, TombstonesChanged, run_commit
from arborwiki.cluster.forget import sweep
from arborwiki.cluster.online import fold_online
from arborwiki.cluster.runtime import (
    LOCAL_ADDRESSES,
    driver_path,
    start_ray,
    store_task_options,
)
from arborwiki.cluster.scheduling import (
    LiveWork,
    Progress,
    ShardRun,
    ShardScheduler,
    Timeline,
    check_extract_package,
    check_stage_resources,
    embedding_actors,
)
from arborwiki.cluster.sharding import (
    FilePartition,
    Partition,
    ReadPiece,
    ReadStage,
    add_table_part,
    discard_outputs,
    merge_partitions,
    pieces_agree,
    run_read,
)
from arborwiki.cluster.stages import (
    SUCCESS,
    ShardJob,
    ShardResult,
    UserFailure,
    extraction_cache,
    shard_done,
    uses_cache,
)
from arborwiki.cluster.work import SHARDS, WORK
from arborwiki.core.config import Config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.records import RunRecord
from arborwiki.storage import paths, tombstones
from arborwiki.storage.archive import (
    ArchiveError,
    archive_files,
    has_rows,
    input_identity,
    input_sources,
    skipped_files,
    starts_with_turn_index,
)
from arborwiki.storage.increment import FileMark, Pieces, is_jsonl, mark_file
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.online import SOURCE as ONLINE_SOURCE
from arborwiki.storage.online import Inbox, writer_lock
from arborwiki.storage.tables import USER_TABLES
from arborwiki.storage.tombstones import Tombstones
from arborwiki.storage.versions import apply_retention

PID_FILE = "driver.pid"
OUTPUT_CODE = ("core", "backends")
"""The layers whose code decides what a build writes (config_hash digests their sources)."""
NOT_IN_OUTPUT_FIELDS = {
    "ray": True,
    "extract": {
        "batch_size", "pool_size", "num_gpus", "max_concurrency",
        "max_retries", "base_url", "engine_args", "cache_dir", "cache_rules",
    },
    "build": {"read_batch_rows", "retry_errors", "max_failed_share"},
    "store": True,
}  # fmt: skip
"""Settings that decide where and how fast work runs (or stop it: a test's abort), never
what it produces."""


COMMIT_TRIES = 3
"""Reads a run makes at most when forgets keep changing the tombstones under it."""


@dataclass
class CommitScope:
    """What a run replaces and records besides its rows: a full build replaces the
    quarantine of its inputs and users; a nightly run only adds the new lines' rows."""

    input: str
    quarantine_sources: list[str]
    watermark: dict[str, Any]
    replace_quarantine: bool = True
    tombstones: Tombstones = field(default_factory=Tombstones)
    """The tombstones the read dropped rows by: the commit checks they still hold."""
    names_users: bool = False
    """The run row names the users it rebuilt (a nightly run: every other user's rows stay
    byte for byte, so writers and readers keep theirs); a full build names none."""


@dataclass
class BuildSummary:
    users: int = 0
    messages: int = 0
    snapshots: int = 0
    claims: int = 0
    trajectories: int = 0
    pages: int = 0
    rows_read: int = 0
    quarantined: int = 0
    forgotten: int = 0
    shards_built: int = 0
    shards_skipped: int = 0
    committed: bool = False
    seconds: float = 0.0
    run_id: str = ""
    extractors: dict[str, int] = field(default_factory=dict)
    page_kinds: dict[str, int] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    extraction: dict[str, float] = field(default_factory=dict)
    failed_users: list[str] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    forgotten_again: list[str] = field(default_factory=list)
    """Users whose tombstoned rows the store still held and this run forgot again."""
    online_folded: list[str] = field(default_factory=list)
    """Users an agent wrote to while this run read or compiled: placed again after it
    (cluster/online.py `fold_online`), so the run's commit hides none of their writes."""
    unreadable_files: dict[str, str] = field(default_factory=dict)
    """Input files that could not be read (file → why): each one quarantine row."""
    skipped_files: list[str] = field(default_factory=list)
    """Files of the input directory or glob that no archive format claims (`.txt`, `.csv`)."""
    user_ids: list[str] = field(default_factory=list, repr=False)
    """The users this run built (`nightly` reports them; not in `to_dict`: a million ids)."""

    @property
    def failed_share(self) -> float:
        total = self.users + len(self.failed_users)
        return len(self.failed_users) / total if total else 0.0

    def line(self) -> str:
        state = "committed" if self.committed else "up to date, nothing written"
        kinds = ", ".join(
            f"{k} {self.page_kinds.get(k, 0)}" for k in ("index", "entity", "topic", "inventory")
        )
        return (
            f"users={self.users} messages={self.messages} snapshots={self.snapshots} "
            f"claims={self.claims} trajectories={self.trajectories} pages={self.pages} "
            f"({kinds}; entity subpages {self.page_kinds.get('subpages', 0)}) "
            f"quarantined={self.quarantined} forgotten={self.forgotten} "
            f"rows_read={self.rows_read} "
            f"failed_users={len(self.failed_users)} "
            f"shards_built={self.shards_built} shards_skipped={self.shards_skipped} "
            f"({state}) seconds={self.seconds:.1f}"
            + (f" forgotten_again={len(self.forgotten_again)}" if self.forgotten_again else "")
            + _embedded(self.extraction)
            + (f" unreadable_files={len(self.unreadable_files)}" if self.unreadable_files else "")
            + (f" skipped_files={len(self.skipped_files)}" if self.skipped_files else "")
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self) | {"failed_share": self.failed_share}
        data.pop("user_ids")
        return data


def _embedded(extraction: dict[str, float]) -> str:
    """With the embedding cache (a transformer, or embedding actors): texts embedded and
    answered from the cache."""
    if "texts_embedded" not in extraction:
        return ""
    made, reused = extraction["texts_embedded"], extraction.get("texts_reused", 0)
    return f" texts_embedded={int(made)} texts_reused={int(reused)}"


def config_hash(cfg: Config) -> str:
    """What decides a shard's output: every setting but placement and speed, and the code
    that turns messages into memory (an upgrade rebuilds, never serves old claims as new)."""
    payload = cfg.model_dump_json(exclude=NOT_IN_OUTPUT_FIELDS)  # type: ignore[arg-type]
    return hashlib.blake2b((payload + code_digest()).encode(), digest_size=8).hexdigest()


@functools.cache
def code_digest() -> str:
    """A digest of the sources of `core/` and `backends/` (extraction, placement, lifecycle,
    wiki): the same settings and input with other code is another output."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(__file__).resolve().parent.parent
    for layer in OUTPUT_CODE:
        for path in sorted((root / layer).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _prefixed(counts: dict[str, int], prefix: str) -> dict[str, int]:
    return {k.removeprefix(prefix): v for k, v in counts.items() if k.startswith(prefix)}


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM → KeyboardInterrupt, so `finally` blocks stop Ray work and remove staging."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove_dead_staging(work: str) -> None:
    """Staging left by a driver that was killed outright (SIGKILL): its pid is gone."""
    for staging in paths.list_dirs(paths.join(work, "partition")):
        pid_file = paths.join(staging, PID_FILE)
        try:
            pid = int(paths.read_text(pid_file))
        except (OSError, ValueError):
            pid = -1
        if pid < 0 or not _pid_alive(pid):
            paths.remove_tree(staging)


# ------------------------------------------------------------------ the driver
def run_build(
    input_path: str,
    store_path: str,
    cfg: Config,
    progress: Progress | None = None,
    fmt: str | None = None,
) -> BuildSummary:
    """Build (or rebuild) memory for every user in `input_path` into the Lance store; `fmt`
    names the archive format of every input file (None: by suffix, `.json` by content).

    Staging is removed on success, on failure and on SIGTERM/Ctrl-C (in-flight Ray tasks and
    actors are cancelled first); a driver killed outright leaves it for the next run to remove.
    """
    input_path, store_path = driver_path(input_path, cfg.ray), driver_path(store_path, cfg.ray)
    files = archive_files(input_path, fmt)  # bad paths and formats fail here, before Ray starts
    store_dir = store_path  # a local path or an object-store URI (storage/paths.py)
    _remove_dead_staging(paths.join(store_dir, WORK))  # even when this run fails before staging
    if not has_rows(input_path, fmt):  # not a "committed" run that changed nothing
        raise ArchiveError(f"archive {input_path} has no rows: nothing to build")
    for attempt in range(1, COMMIT_TRIES + 1):
        try:
            with staged_run(store_dir, cfg) as (staging, live):
                summary = _build(input_path, files, store_dir, staging, cfg, live, progress, fmt)
            break
        except TombstonesChanged:  # a forget ran while this run read: read again
            if attempt == COMMIT_TRIES:
                raise
    summary.forgotten_again = forget_leftovers(store_dir, cfg)
    summary.online_folded = fold_online(store_dir, cfg)
    summary.skipped_files = skipped_files(input_path, fmt)
    return summary


def forget_leftovers(store_dir: str, cfg: Config) -> list[str]:
    """The users whose tombstoned rows the store still held, forgotten again
    (cluster/forget.py `sweep`): a forget cut short, or rows committed from an older read."""
    return [report.user_id for report in sweep(store_dir, cfg)]


@contextlib.contextmanager
def staged_run(store_dir: str, cfg: Config) -> Iterator[tuple[str, LiveWork]]:
    """A staging directory and Ray for one run; both cleaned up however the run ends."""
    work = paths.join(store_dir, WORK)
    if cfg.ray.address in LOCAL_ADDRESSES:  # nothing made, no Ray started, for a missing vllm
        check_extract_package(cfg)
    _remove_dead_staging(work)
    staging = paths.join(work, "partition", uuid.uuid4().hex)
    paths.makedirs(staging)
    paths.write_text(paths.join(staging, PID_FILE), str(os.getpid()))
    live = LiveWork()
    try:
        start_ray(cfg.ray)  # before our SIGTERM handler: ray.init installs its own
        check_stage_resources(cfg, local=cfg.ray.address is None)
        with _terminate_as_interrupt():
            yield staging, live
    finally:
        live.stop()
        paths.remove_tree(staging)
        parent = paths.join(work, "partition")
        if not paths.list_dirs(parent) and not paths.list_files(parent, recursive=False):
            paths.remove_tree(parent)  # nothing of any run left in it


ReadSpec = tuple[int, str, int, int]
"""(file index, path, start byte, first line) of one file to read."""
PieceRanges = list[tuple[int, int, int]]
"""(start byte, first line, end byte) of each piece of one JSONL file (Pieces.ranges)."""


def read_files(
    specs: list[ReadSpec],
    staging: str,
    cfg: Config,
    live: LiveWork,
    fmt: str | None = None,
    pieces: dict[int, PieceRanges] | None = None,
    forgotten: Tombstones | None = None,
) -> Partition:
    """Read + validate + partition, in parallel: one Ray task per input file, or per piece
    of a file that `pieces` cuts (file index → ranges). A file whose later pieces hold rows
    without a turn_index (`pieces_agree`) is read again whole, its pieces' outputs deleted.
    Rows `forgotten` names (the store's tombstones) are dropped as they are read."""
    store = store_task_options(staging, *(spec[1] for spec in specs))
    task = ray.remote(**ReadStage.resources(cfg), max_retries=2, **store)(run_read)
    cuts = pieces or {}

    def submit(i: int, path: str, start: int, line: int, end: int | None = None, k: int = 0) -> Any:
        piece = ReadPiece(i, path, str(staging), start, line, end, k, fmt, forgotten)
        return task.remote(cfg, piece)

    refs = []
    for i, path, start, line in specs:
        ranges = cuts.get(i, [])
        if len(ranges) > 1:
            refs += [submit(i, path, b, first, end, k) for k, (b, first, end) in enumerate(ranges)]
        else:
            refs.append(submit(i, path, start, line))
    results: list[FilePartition] = _gather(refs, live)
    by_file: dict[int, list[FilePartition]] = defaultdict(list)
    for result in results:
        by_file[result.file_index].append(result)
    redo = {i for i, done in by_file.items() if len(done) > 1 and not pieces_agree(done)}
    if redo:
        for i in redo:
            for result in by_file[i]:
                discard_outputs(result)
        again = _gather([submit(*spec) for spec in specs if spec[0] in redo], live)
        results = [r for r in results if r.file_index not in redo] + again
    return merge_partitions(staging, cfg.ray.num_shards, results)


def _gather(refs: list[Any], live: LiveWork) -> list[Any]:
    live.refs.update(refs)
    results = ray.get(refs)
    live.refs.difference_update(refs)
    return results


def watermark(
    cfg: Config, mode: str, marks: dict[str, FileMark], part: Partition
) -> dict[str, Any]:
    """The `runs` row's record of what this run consumed: marks updated with what was read."""
    files = {ident: FileMark.from_dict(m.to_dict()) for ident, m in marks.items()}
    for result in part.per_file:
        mark = files[input_identity(result.source)]
        mark.rows += result.rows_read
        if result.max_timestamp is not None:
            mark.max_timestamp = max(filter(None, [mark.max_timestamp, result.max_timestamp]))
    return {
        "mode": mode,
        "config_hash": config_hash(cfg),
        "files": {ident: m.to_dict() for ident, m in sorted(files.items())},
    }


def _build(
    input_path: str,
    files: list[str],
    store_dir: str,
    staging: str,
    cfg: Config,
    live: LiveWork,
    progress: Progress | None,
    fmt: str | None = None,
) -> BuildSummary:
    started_at = datetime.now(UTC)
    timeline = Timeline()
    timeline.start("read")
    marks, pieces = {}, {}
    every = cfg.build.read_piece_bytes
    for i, f in enumerate(files):  # before the read: see docs/build.md
        cut = every and is_jsonl(f, fmt) and starts_with_turn_index(f)
        cuts = Pieces(every) if cut else None
        mark = marks[input_identity(f)] = mark_file(f, cuts)
        if cuts is not None:
            pieces[i] = cuts.ranges(mark.size)
    specs = [(i, str(f), 0, 1) for i, f in enumerate(files)]
    stones = tombstones.load(store_dir)
    part = read_files(specs, staging, cfg, live, fmt, pieces, stones)
    online, _ = tombstones.drop_forgotten(Inbox(LanceStore(store_dir)).read(), stones)
    add_table_part(part, online, ONLINE_SOURCE, staging)  # agents' writes: after the archive
    part.rows_read += online.num_rows  # input rows: stored, or quarantined as a duplicate
    part.rows_valid += online.num_rows
    timeline.end("read")
    scope = CommitScope(
        input=str(input_path),
        quarantine_sources=input_sources(input_path, fmt),
        watermark=watermark(cfg, "full", marks, part),
        tombstones=stones,
    )
    return compile_and_commit(part, store_dir, cfg, live, progress, timeline, started_at, scope)


def compile_and_commit(
    part: Partition,
    store_dir: str,
    cfg: Config,
    live: LiveWork,
    progress: Progress | None,
    timeline: Timeline,
    started_at: datetime,
    scope: CommitScope,
) -> BuildSummary:
    """Build the shards `part` holds (skipping done ones) and commit them in one go."""
    started = started_at.timestamp()
    work = paths.join(store_dir, WORK)
    chash = config_hash(cfg)
    shard_dirs = {s: paths.join(work, SHARDS, f"{chash}-{d}") for s, d in part.digests.items()}
    run_key = hashlib.blake2b(
        json.dumps([chash, sorted(part.digests.items()), part.quarantine_digest]).encode(),
        digest_size=10,
    ).hexdigest()
    committed_marker = paths.join(work, "runs", f"{run_key}.committed")
    summary = BuildSummary(rows_read=part.rows_read, run_id=run_key)
    summary.unreadable_files = dict(part.unreadable)
    extraction: dict[str, float] = defaultdict(float)
    results, skipped = _build_shards(
        part, shard_dirs, cfg, store_dir, live, timeline, progress, extraction
    )
    summary.shards_skipped, summary.shards_built = skipped, len(results) - skipped
    counts: dict[str, int] = defaultdict(int)
    failures: list[UserFailure] = []
    for result in results.values():
        for key, value in result.counts.items():
            counts[key] += value
        failures.extend(result.failures)
    _summarise(summary, counts, part, failures, extraction)
    if not paths.exists(committed_marker) or failures:
        with writer_lock(store_dir):  # no online add or forget between tables and run row
            timeline.start("commit")
            parts = _commit(store_dir, cfg, part, shard_dirs, failures, scope, live)
            for name, seconds in parts.items():
                timeline.add(f"commit:{name}", seconds)
            store = LanceStore(store_dir)
            store.record_failures([f.record(run_key) for f in failures])
            timeline.end("commit")
            seconds = timeline.seconds() | {"total": round(time.time() - started, 3)}
            counts |= {"rows_read": part.rows_read, "quarantined": summary.quarantined}
            counts |= {"forgotten": part.rows_forgotten, "failed_users": len(summary.failed_users)}
            _record_run(store, summary, scope, chash, started_at, counts, seconds)
        timeline.start("retention")
        apply_retention(store, cfg.store.keep_runs, cfg.store.retention_hours)
        timeline.end("retention")
        if not failures:
            paths.write_text(committed_marker, json.dumps(store.versions(), sort_keys=True))
            _remove_superseded(work, set(shard_dirs.values()), committed_marker)
        summary.committed = True
    if uses_cache(cfg):
        extraction_cache(cfg, str(store_dir)).compact()
    summary.stage_seconds = timeline.seconds()
    summary.seconds = time.time() - started
    return summary


def _build_shards(
    part: Partition,
    shard_dirs: dict[int, str],
    cfg: Config,
    store_dir: str,
    live: LiveWork,
    timeline: Timeline,
    progress: Progress | None,
    extraction: dict[str, float],
) -> tuple[dict[int, ShardResult], int]:
    """Every shard's result: a finished one's from its directory (how many: the int), the
    rest built (staged through the extraction cache, or fused in one task per shard)."""
    results: dict[int, ShardResult] = {}
    for s, d in shard_dirs.items():
        if (done := shard_done(d)) is not None:
            results[s] = done
    todo = {
        s: ShardJob(s, [str(f) for f in part.files[s]], part.sources, str(d))
        for s, d in shard_dirs.items()
        if s not in results
    }
    skipped = len(results)
    if todo:
        embed = embedding_actors(cfg, str(store_dir), live)
        run = ShardRun(todo, cfg, str(store_dir), live, timeline, extraction, progress, embed)
        built = ShardScheduler(run).run()
        for actor in embed[0] if embed else []:
            ray.kill(actor)
        results.update(built)
        for result in built.values():  # rules extracted inside compile tasks
            for key, value in _prefixed(result.counts, "extract:").items():
                extraction[key] += value
            for key, value in _prefixed(result.counts, "embed:").items():
                extraction[f"texts_{key}"] += value
    return results, skipped


def _record_run(
    store: LanceStore,
    summary: BuildSummary,
    scope: CommitScope,
    chash: str,
    started_at: datetime,
    counts: dict[str, int],
    seconds: dict[str, float],
) -> None:
    """The run's row: the pointer readers follow, with what the run read (its watermark)."""
    store.record_run(
        RunRecord(
            run_id=summary.run_id,
            started_at=started_at,
            finished_at=datetime.now(UTC),
            input=scope.input,
            fingerprint=chash,
            counts=dict(counts),
            versions=store.versions(),
            watermark=scope.watermark | {"failed_users": summary.failed_users, "seconds": seconds},
            users=list(summary.user_ids) if scope.names_users else None,
        )
    )


def _summarise(
    summary: BuildSummary,
    counts: dict[str, int],
    part: Partition,
    failures: list[UserFailure],
    extraction: dict[str, float],
) -> None:
    summary.users = counts.get("users", 0)
    summary.messages = counts.get("messages", 0)
    summary.snapshots = counts.get("snapshots", 0)
    summary.claims = counts.get("claims", 0)
    summary.trajectories = counts.get("trajectories", 0)
    summary.pages = counts.get("wiki_pages", 0)
    summary.quarantined = part.rows_quarantined + counts.get("quarantined", 0)
    summary.forgotten = part.rows_forgotten
    summary.extractors = _prefixed(counts, "extractor:")
    summary.page_kinds = _prefixed(counts, "pages:")
    summary.failed_users = sorted({f.user_id for f in failures})
    summary.user_ids = sorted(set().union(*part.users.values()) - set(summary.failed_users))
    summary.failures = [
        {"user_id": f.user_id, "stage": f.stage, "error": f.error, "attempts": f.attempts}
        for f in failures
    ]
    if "windows" not in extraction:
        extraction["windows"] = extraction.get("extracted", 0)
    for key in ("windows", "cache_hits", "extracted", "ok", "repaired", "fallback"):
        extraction[key] += 0
    for key in ("engine_loads", "engine_calls", "engine_prompts"):
        extraction[key] += 0
    calls = extraction["engine_calls"]
    extraction["mean_windows_per_engine_call"] = (
        round(extraction["engine_prompts"] / calls, 2) if calls else 0.0
    )
    extraction["lost"] = extraction["windows"] - extraction["cache_hits"] - extraction["extracted"]
    summary.extraction = {
        k: (int(v) if float(v).is_integer() else v) for k, v in extraction.items()
    }


def _commit(
    store_dir: str,
    cfg: Config,
    part: Partition,
    shard_dirs: dict[int, str],
    failures: list[UserFailure],
    scope: CommitScope,
    live: LiveWork,
) -> dict[str, float]:
    """The commit stage (cluster/commit.py) as one Ray task: each table's rebuilt users
    replaced by their staged rows, the quarantine rows of the run's input files replaced by
    this run's (a nightly run only adds). Returns its wall seconds by part."""
    staged = {name: _staged(shard_dirs, f"{name}.parquet") for name in USER_TABLES}
    staged["quarantine"] = list(part.quarantine_files) + _staged(shard_dirs, "quarantine.parquet")
    failed = {f.user_id for f in failures}
    users = sorted(u for shard_users in part.users.values() for u in shard_users if u not in failed)
    dim = embedder_for(cfg.embed).dim
    files = [f for table_files in staged.values() for f in table_files]
    options = store_task_options(store_dir, *files)
    task = ray.remote(**CommitStage.resources(cfg), max_retries=0, **options)(run_commit)
    commit = StagedCommit(
        staged,
        users,
        dim,
        scope.quarantine_sources,
        scope.replace_quarantine,
        scope.tombstones.key(),
    )
    ref = task.remote(cfg, store_dir, commit)
    live.refs.add(ref)
    try:
        return ray.get(ref)
    finally:
        live.refs.discard(ref)


def _staged(shard_dirs: dict[int, str], file_name: str) -> list[str]:
    """The shards' staged files of one name (a shard with no such rows wrote none)."""
    files = (paths.join(d, file_name) for d in shard_dirs.values())
    return [f for f in files if paths.exists(f)]


def _remove_superseded(work: str, keep: set[str], marker: str) -> None:
    """After a commit `_work/` keeps only this run's shard outputs and marker: earlier runs'
    are in the store already (or superseded by it), and no resume needs them."""
    for shard_dir in paths.list_dirs(paths.join(work, SHARDS)):
        if shard_dir not in keep:
            paths.remove_tree(shard_dir)
    for old in paths.list_files(paths.join(work, "runs"), recursive=False, pattern="*.committed"):
        if old != marker:
            paths.remove(old)


__all__ = [
    "SUCCESS",
    "BuildSummary",
    "config_hash",
    "forget_leftovers",
    "run_build",
]
