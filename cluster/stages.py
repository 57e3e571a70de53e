"""The build's stages: small classes with `setup` (once per worker) and `process_batch`.

Plain Python, no Ray: tests run them in-process and `cluster/build.py` runs the very same
objects as Ray tasks (windows, compile) and actors (extract). Each declares the resources
it needs. The data between them:

- ReadStage:     an input file or piece → its rows in per-shard Parquet parts, the rest
                 quarantined (cluster/sharding.py);
- WindowsStage:  shard parts → the shard's windows that the extraction cache lacks (all of
                 its windows, keyed, persisted beside its output for compile);
- ExtractStage:  a batch of windows from many users → drafts written to the cache, counts;
- EmbedStage:    texts → vectors, on actors of their own when `embed.num_gpus` is set
                 (compile tasks call them for what the embedding cache lacks);
- CompileStage:  shard parts + persisted windows + drafts (cache, or rules in-process) →
                 staged Parquet rows;
- CommitStage:   the run's staged rows → one new version of each table (cluster/commit.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa

from arborwiki.backends.extractors import (
    build_labeled_extractor,
    extractor_fingerprint,
    loads_engine,
)
from arborwiki.cluster.commit import CommitStage, StagedCommit
from arborwiki.cluster.sharding import FilePartition, ReadPiece, ReadStage, dedupe_messages
from arborwiki.cluster.stage_shape import CpuStage, Stage
from arborwiki.core.cached_embedder import CachedEmbedder
from arborwiki.core.config import Config, EmbedConfig
from arborwiki.core.embedding import Embedder, embedder_for
from arborwiki.core.extract.base import Extraction, LabeledExtractor, add_stats
from arborwiki.core.pipeline import UserWindows, compile_user, user_windows
from arborwiki.core.records import BuildFailure, Message, Window, WindowPlace
from arborwiki.core.schema import table_to_messages
from arborwiki.core.windows import order_messages
from arborwiki.storage import paths
from arborwiki.storage.embed_cache import EmbedCache
from arborwiki.storage.extract_cache import ExtractCache, cache_root
from arborwiki.storage.tables import USER_TABLES, memory_tables, record_row, rows_to_table

SUCCESS = "_SUCCESS"
EXTRACT_STATS = ("windows", "cache_hits", "extracted", "ok", "repaired", "fallback")


@dataclass
class ShardJob:
    """One shard's input parts (in input order), their source files, and its output dir."""

    shard: int
    parts: list[str]
    sources: list[str]
    out_dir: str
    extract_error: str = ""  # why some of its windows got no draft (set by the driver)


@dataclass
class ShardWindows:
    """WindowsStage's answer: windows to extract (key, window) and per-shard counts."""

    shard: int
    missing: list[tuple[str, Window]]
    windows: int
    cache_hits: int


@dataclass
class UserFailure:
    """A user whose stage raised after its retries: recorded, the build goes on."""

    user_id: str
    stage: str
    error: str
    traceback_digest: str
    attempts: int

    def record(self, run_id: str) -> BuildFailure:
        """Its row of the build_failures table: one per run, user and stage."""
        digest = hashlib.blake2b(
            json.dumps([run_id, self.user_id, self.stage]).encode(), digest_size=10
        ).hexdigest()
        return BuildFailure(
            failure_id=f"f_{digest}",
            run_id=run_id,
            user_id=self.user_id,
            stage=self.stage,
            error=self.error,
            traceback_digest=self.traceback_digest,
            attempts=self.attempts,
            failed_at=datetime.now(UTC),
        )


@dataclass
class ShardResult:
    """CompileStage's answer (also written to the shard's `_SUCCESS` marker)."""

    counts: dict[str, int] = field(default_factory=dict)
    failures: list[UserFailure] = field(default_factory=list)
    seconds: float = 0.0


def shard_done(out_dir: str) -> ShardResult | None:
    """The result a finished, failure-free shard recorded; None when it must be (re)built.
    The marker is written after the shard's tables (write-then-marker, no rename)."""
    marker = paths.join(str(out_dir), SUCCESS)
    if not paths.exists(marker):
        return None
    data = json.loads(paths.read_text(marker))
    if data.get("failures"):
        return None  # retry failed users on the next run
    return ShardResult(counts=data["counts"])


def extraction_cache(cfg: Config, store_dir: str) -> ExtractCache:
    """The cache for this config's extractor: `extract.cache_dir` or under the store."""
    return ExtractCache(
        cache_root(cfg.extract.cache_dir, store_dir), extractor_fingerprint(cfg.extract)
    )


def uses_cache(cfg: Config) -> bool:
    """LLM drafts always go through the cache; rule drafts only when asked (they are cheap)."""
    return cfg.extract.backend != "rules" or cfg.extract.cache_rules


def caches_vectors(cfg: EmbedConfig) -> bool:
    """Vectors are cached when embedding is dear: a transformer, or actors of their own. The
    static default makes ~10K vectors a second, about what reading them back would cost."""
    return cfg.backend != "static" or cfg.num_gpus is not None


def embedder_identity(cfg: EmbedConfig) -> dict[str, Any]:
    """What decides a vector besides its text."""
    return {"backend": cfg.backend, "model_path": cfg.model_path or "bundled"}


@dataclass(frozen=True)
class EmbedAt:
    """Compile's embedding done elsewhere: `make(texts)` answers (an EmbedStage pool's)."""

    make: Callable[[list[str]], np.ndarray]
    dim: int
    static: bool


def read_shard(job: ShardJob) -> tuple[dict[str, list[Message]], list[dict[str, Any]]]:
    """The shard's messages grouped by user (duplicates across files quarantined)."""
    items: list[tuple[Message, str]] = []
    for part in job.parts:
        file_index = int(paths.stem(part).split("-")[1])
        source = job.sources[file_index]
        items.extend((m, source) for m in table_to_messages(paths.read_parquet(part)))
    messages, duplicates = dedupe_messages(items)
    by_user: dict[str, list[Message]] = defaultdict(list)
    for m in messages:
        by_user[m.user_id].append(m)
    return dict(by_user), [record_row(q) for q in duplicates]


WINDOWS_FILE = "windows.parquet"
"""The shard's windows as WindowsStage cut and keyed them, read back by CompileStage."""


def write_windows(out_dir: str, windows: dict[str, UserWindows]) -> None:
    """One row per window, in each user's order: its key, place and message ids (the
    messages themselves stay in the shard's parts)."""
    rows: dict[str, list[Any]] = {
        k: [] for k in ("user_id", "key", "episode", "thread", "message_ids")
    }
    for user_id, uw in windows.items():
        for key, window, place in zip(uw.keys, uw.windows, uw.places, strict=True):
            rows["user_id"].append(user_id)
            rows["key"].append(key)
            rows["episode"].append(place.episode)
            rows["thread"].append(place.thread)
            rows["message_ids"].append(window.message_ids)
    paths.makedirs(out_dir)
    paths.write_parquet(pa.table(rows), paths.join(out_dir, WINDOWS_FILE))


def shard_windows(
    job: ShardJob, by_user: dict[str, list[Message]], cfg: Config
) -> dict[str, UserWindows]:
    """The shard's users' windows: as WindowsStage persisted them (staged path), else cut
    here (the fused rules path, or a user the file lacks)."""
    persisted: dict[str, list[dict[str, Any]]] = defaultdict(list)
    path = paths.join(job.out_dir, WINDOWS_FILE)
    if job.out_dir and paths.exists(path):
        for row in paths.read_parquet(path).to_pylist():
            persisted[row["user_id"]].append(row)
    out: dict[str, UserWindows] = {}
    for user_id, messages in sorted(by_user.items()):
        rows = persisted.get(user_id)
        if not rows:
            out[user_id] = user_windows(messages, cfg)
            continue
        by_id = {m.message_id: m for m in messages}
        cut = [[by_id[i] for i in row["message_ids"]] for row in rows]
        out[user_id] = UserWindows(
            user_id,
            order_messages(messages),
            [Window(user_id=user_id, conversation_id=ms[0].conversation_id,
                    session_id=ms[0].session_id, messages=ms) for ms in cut],
            [WindowPlace(episode=row["episode"], thread=row["thread"]) for row in rows],
            [row["key"] for row in rows],  # keyed once, by WindowsStage
        )  # fmt: skip
    return out


def _error_kind(exc: BaseException) -> str:
    return type(exc).__name__


def with_retries(
    cfg: Config, user_id: str, stage: str, call: Any
) -> tuple[Any, UserFailure | None]:
    """Run `call()`; retry error kinds named in `build.retry_errors`; else record a failure."""
    attempts = 0
    while True:
        attempts += 1
        try:
            return call(), None
        except Exception as exc:  # noqa: BLE001 - one user's failure must not stop the build
            if attempts <= cfg.build.retry_errors.get(_error_kind(exc), 0):
                continue
            trace = "".join(traceback.format_exception(exc))
            return None, UserFailure(
                user_id=user_id,
                stage=stage,
                error=f"{_error_kind(exc)}: {exc}".splitlines()[0][:500],
                traceback_digest=hashlib.blake2b(trace.encode(), digest_size=8).hexdigest(),
                attempts=attempts,
            )


class WindowsStage(CpuStage):
    """CPU: a shard's users → windows → content keys; returns the windows not cached yet."""

    cache: ExtractCache | None = None

    def setup(self) -> None:
        self.cache = extraction_cache(self.cfg, self.store_dir)

    def process_batch(self, job: ShardJob) -> ShardWindows:
        assert self.cache is not None, "setup() first"
        by_user, _ = read_shard(job)
        windows = {u: user_windows(ms, self.cfg) for u, ms in sorted(by_user.items())}
        write_windows(job.out_dir, windows)
        keyed = [
            (k, w) for uw in windows.values() for k, w in zip(uw.keys, uw.windows, strict=True)
        ]
        known = self.cache.known(k for k, _ in keyed)
        missing, queued = [], set()
        for key, window in keyed:
            if key not in known and key not in queued:
                missing.append((key, window))
                queued.add(key)
        return ShardWindows(job.shard, missing, len(keyed), len(keyed) - len(missing))


class ExtractStage:
    """Batches of windows (from many users) → drafts into the cache. One engine per actor,
    loaded in `setup`; vLLM actors ask for `extract.gpus_per_engine` GPUs."""

    def __init__(self, cfg: Config, store_dir: str) -> None:
        self.cfg = cfg
        self.store_dir = store_dir
        self.extractor: LabeledExtractor | None = None
        self.cache: ExtractCache | None = None
        self.engine_loads = 0
        self.setup_error: Exception | None = None

    @staticmethod
    def resources(cfg: Config) -> dict[str, float]:
        ecfg = cfg.extract
        if ecfg.backend == "vllm":
            return {"num_gpus": ecfg.gpus_per_engine, "num_cpus": 1}  # the engine's driver
        return {"num_cpus": 0}  # openai waits on HTTP; rules (cache_rules) is light

    def setup(self) -> None:
        """Load the engine once; a failure is kept and raised with every batch, so the
        users it costs are recorded with the real reason."""
        # vLLM logs to stdout by default, and Ray copies an actor's stdout to the driver's,
        # where `build --json` must print one JSON object and nothing else
        os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
        try:
            self.cache = extraction_cache(self.cfg, self.store_dir)
            self.extractor = build_labeled_extractor(self.cfg.extract)
            self.engine_loads = int(loads_engine(self.cfg.extract))
        except Exception as exc:  # noqa: BLE001 - reported per batch, see process_batch
            self.setup_error = exc

    def process_batch(self, batch: list[tuple[str, Window]]) -> dict[str, int]:
        """Extract, write to the cache, and return counts (engine_loads once per actor)."""
        if self.setup_error is not None:
            raise RuntimeError(f"extractor setup failed: {self.setup_error}") from None
        assert self.extractor is not None and self.cache is not None, "setup() first"
        windows = [w for _, w in batch]
        result = self.extractor.extract_labeled(windows)
        if len(result.extractions) != len(windows):
            raise RuntimeError(f"{len(result.extractions)} drafts for {len(windows)} windows")
        self.cache.put([k for k, _ in batch], [w.user_id for w in windows], result.extractions)
        stats = add_stats(
            {"extracted": len(windows), "engine_loads": self.engine_loads}, result.stats
        )
        self.engine_loads = 0
        return stats


class EmbedStage:
    """Texts → unit vectors. One model per actor, loaded in `setup`; GPU actors ask for
    `embed.num_gpus` each (0: on the CPU, as the tests run it)."""

    def __init__(self, cfg: Config, store_dir: str) -> None:
        self.cfg = cfg
        self.embedder: Embedder | None = None

    @staticmethod
    def resources(cfg: Config) -> dict[str, float]:
        # No CPU reserved: the compile task that waits on it holds one (a reserved CPU per
        # actor would starve the compile tasks on a small machine).
        return {"num_gpus": cfg.embed.num_gpus or 0, "num_cpus": 0}

    def setup(self) -> tuple[int, bool]:
        """Load the model; its (dimension, static) for the compile tasks."""
        self.embedder = embedder_for(self.cfg.embed)
        return self.embedder.dim, self.embedder.static

    def process_batch(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None, "setup() first"
        return self.embedder.embed(texts)


class CompileStage(CpuStage):
    """CPU: one shard's users → memory (snapshots, vectors, forest, lifecycle, evidence,
    wiki) → staged Parquet. Drafts come from the cache, or (rules, uncached) are made here:
    cheap CPU extraction fused into this stage saves shipping windows between processes."""

    cache: ExtractCache | None = None
    extractor: LabeledExtractor | None = None

    def setup(self) -> None:
        self.embedder: Embedder | None = None  # loaded on first use: actors may embed
        self.vector_cache: EmbedCache | None = None
        if uses_cache(self.cfg):
            self.cache = extraction_cache(self.cfg, self.store_dir)
        else:
            self.extractor = build_labeled_extractor(self.cfg.extract)

    def _extractions(
        self, uw: UserWindows, drafts: dict[str, Extraction], stats: Counter[str], why: str
    ) -> list[Extraction]:
        if self.extractor is not None:
            batch = self.extractor.extract_labeled(uw.windows)
            stats.update({k: batch.stats.get(k, 0) for k in ("ok", "repaired", "fallback")})
            stats["extracted"] += len(uw.windows)
            return batch.extractions
        keys = uw.keys
        lost = [k for k in keys if k not in drafts]
        if lost:
            raise LookupError(f"{len(lost)} of {len(keys)} windows have no draft: {why}")
        return [drafts[k] for k in keys]

    def _embedding(self, at: EmbedAt | None) -> EmbedAt:
        if at is not None:
            return at
        if self.embedder is None:
            self.embedder = embedder_for(self.cfg.embed)
        return EmbedAt(self.embedder.embed, self.embedder.dim, self.embedder.static)

    def process_batch(self, job: ShardJob, embed_at: EmbedAt | None = None) -> ShardResult:
        """`embed_at`: the embedding actors' pool, when the build has one."""
        started = time.perf_counter()
        at = self._embedding(embed_at)
        if caches_vectors(self.cfg.embed) and self.vector_cache is None:
            identity = embedder_identity(self.cfg.embed)
            self.vector_cache = EmbedCache(self.store_dir, identity, at.dim)
        out = job.out_dir
        paths.makedirs(out)
        by_user, duplicates = read_shard(job)
        drafts: dict[str, Extraction] = {}
        windows = shard_windows(job, by_user, self.cfg)
        if self.cache is not None:
            drafts = self.cache.get(k for uw in windows.values() for k in uw.keys)
        staged: dict[str, list[pa.Table]] = defaultdict(list)
        counts: Counter[str] = Counter()
        stats: Counter[str] = Counter()
        failures: list[UserFailure] = []
        why = job.extract_error or "not extracted"
        cached = self.vector_cache.vectors(windows) if self.vector_cache else {}
        fresh: dict[str, dict[str, np.ndarray]] = {}
        for user_id, uw in windows.items():
            embedder: Embedder = self.embedder  # type: ignore[assignment]
            if self.vector_cache is not None:
                embedder = CachedEmbedder(at.make, at.dim, at.static, cached.get(user_id))
            extractions, failure = with_retries(
                self.cfg,
                user_id,
                "extract",
                lambda uw=uw: self._extractions(uw, drafts, stats, why),
            )
            if failure is None:
                memory, failure = with_retries(
                    self.cfg,
                    user_id,
                    "compile",
                    lambda uw=uw, ex=extractions, e=embedder: compile_user(uw, ex, self.cfg, e),
                )
            if isinstance(embedder, CachedEmbedder):
                fresh[user_id] = embedder.fresh
                counts["embed:embedded"] += embedder.made
                counts["embed:reused"] += embedder.reused
            if failure is not None:
                failures.append(failure)
                continue
            for name, table in memory_tables(memory, at.dim).items():
                staged[name].append(table)
                counts[name] += table.num_rows
            counts["users"] += 1
            for snapshot in memory.snapshots:
                counts[f"extractor:{snapshot.extractor}"] += 1
            for page in memory.pages:
                counts[f"pages:{page.kind}"] += 1
                counts["pages:subpages"] += page.parent_page_id is not None
        if self.vector_cache is not None:
            self.vector_cache.put(fresh)
        for name in USER_TABLES:
            if staged[name]:
                paths.write_parquet(
                    pa.concat_tables(staged[name]), paths.join(out, f"{name}.parquet")
                )
        if duplicates:
            quarantine = rows_to_table("quarantine", duplicates, 1)
            paths.write_parquet(quarantine, paths.join(out, "quarantine.parquet"))
            counts["quarantined"] += len(duplicates)
        counts.update({f"extract:{k}": v for k, v in stats.items()})
        result = ShardResult(dict(counts), failures, time.perf_counter() - started)
        marker = {"counts": result.counts, "failures": [f.__dict__ for f in failures]}
        paths.write_text(paths.join(out, SUCCESS), json.dumps(marker, sort_keys=True))
        return result


# Each stage's input → output, as type checkers (tests/test_packaging.py's pyright) see them.
KeyedWindows = list[tuple[str, Window]]
READ: type[Stage[ReadPiece, FilePartition]] = ReadStage
WINDOWS: type[Stage[ShardJob, ShardWindows]] = WindowsStage
EXTRACT: type[Stage[KeyedWindows, dict[str, int]]] = ExtractStage
EMBED: type[Stage[list[str], np.ndarray]] = EmbedStage
COMPILE: type[Stage[ShardJob, ShardResult]] = CompileStage
COMMIT: type[Stage[StagedCommit, dict[str, float]]] = CommitStage
