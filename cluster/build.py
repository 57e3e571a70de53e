"""The build job's driver: partition → shard tasks on Ray → one commit.

Reruns are cheap and safe: a shard's outputs live under a directory named by
(config hash, shard content digest) and carry a completion marker, so an unchanged
shard is never rebuilt; a run whose every shard was already committed writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import ray

from arborwiki.cluster.runtime import start_ray
from arborwiki.cluster.shard_task import build_shard, shard_done
from arborwiki.cluster.sharding import partition_archive
from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import USER_TABLES

WORK = "_work"


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
    shards_built: int = 0
    shards_skipped: int = 0
    committed: bool = False
    seconds: float = 0.0
    extractors: dict[str, int] = field(default_factory=dict)
    page_kinds: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        state = "committed" if self.committed else "up to date, nothing written"
        kinds = ", ".join(
            f"{k} {self.page_kinds.get(k, 0)}" for k in ("index", "entity", "topic", "inventory")
        )
        return (
            f"users={self.users} messages={self.messages} snapshots={self.snapshots} "
            f"claims={self.claims} trajectories={self.trajectories} pages={self.pages} "
            f"({kinds}; entity shards {self.page_kinds.get('shards', 0)}) "
            f"quarantined={self.quarantined} rows_read={self.rows_read} "
            f"shards_built={self.shards_built} shards_skipped={self.shards_skipped} "
            f"({state}) seconds={self.seconds:.1f}"
        )


def config_hash(cfg: Config) -> str:
    """What decides a shard's output: every section but Ray placement."""
    payload = cfg.model_dump_json(exclude={"ray"})
    return hashlib.blake2b(payload.encode(), digest_size=8).hexdigest()


Progress = Callable[[int, int], None]


def _prefixed(counts: dict[str, int], prefix: str) -> dict[str, int]:
    return {k.removeprefix(prefix): v for k, v in counts.items() if k.startswith(prefix)}


def run_build(
    input_path: str, store_path: str, cfg: Config, progress: Progress | None = None
) -> BuildSummary:
    """Build (or rebuild) memory for every user in `input_path` into the Lance store."""
    started = time.time()
    started_at = datetime.now(UTC)
    store_dir = Path(store_path)
    work = store_dir / WORK
    staging = work / "partition" / uuid.uuid4().hex
    part = partition_archive(input_path, staging, cfg.ray.num_shards)
    chash = config_hash(cfg)
    shard_dirs = {s: work / "shards" / f"{chash}-{d}" for s, d in part.digests.items()}
    run_key = hashlib.blake2b(
        json.dumps([chash, sorted(part.digests.items())]).encode(), digest_size=10
    ).hexdigest()
    committed_marker = work / "runs" / f"{run_key}.committed"
    summary = BuildSummary(rows_read=part.rows_read, quarantined=part.rows_quarantined)

    todo = {s: d for s, d in shard_dirs.items() if shard_done(d) is None}
    summary.shards_skipped = len(shard_dirs) - len(todo)
    summary.shards_built = len(todo)
    if todo:
        start_ray(cfg.ray)
        remote = ray.remote(num_cpus=1, max_retries=2)(build_shard)
        pending = {
            remote.remote([str(f) for f in part.files[s]], str(d), cfg): s for s, d in todo.items()
        }
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ray.get(ready[0])
            pending.pop(ready[0])
            done += 1
            if progress:
                progress(done, len(todo))

    counts: dict[str, int] = {}
    for d in shard_dirs.values():
        for key, value in (shard_done(d) or {}).items():
            counts[key] = counts.get(key, 0) + value
    summary.users = counts.get("users", 0)
    summary.messages = counts.get("messages", 0)
    summary.snapshots = counts.get("snapshots", 0)
    summary.claims = counts.get("claims", 0)
    summary.trajectories = counts.get("trajectories", 0)
    summary.pages = counts.get("wiki_pages", 0)
    summary.extractors = _prefixed(counts, "extractor:")
    summary.page_kinds = _prefixed(counts, "pages:")

    if not committed_marker.exists():
        store = LanceStore(store_dir)
        staged = {
            name: [
                d / f"{name}.parquet"
                for d in shard_dirs.values()
                if (d / f"{name}.parquet").exists()
            ]
            for name in USER_TABLES
        }
        staged["quarantine"] = part.quarantine_files
        users = sorted(u for shard_users in part.users.values() for u in shard_users)
        versions = store.commit_run(staged, users, load_embedder(cfg.embed.model_path).dim)
        summary.seconds = time.time() - started
        store.record_run(
            {
                "run_id": run_key,
                "started_at": started_at,
                "finished_at": datetime.now(UTC),
                "input": str(input_path),
                "fingerprint": chash,
                "counts": {
                    **counts,
                    "rows_read": part.rows_read,
                    "quarantined": part.rows_quarantined,
                },
                "versions": versions,
            }
        )
        committed_marker.parent.mkdir(parents=True, exist_ok=True)
        committed_marker.write_text(json.dumps(versions, sort_keys=True))
        summary.committed = True
    shutil.rmtree(staging, ignore_errors=True)
    summary.seconds = time.time() - started
    return summary
