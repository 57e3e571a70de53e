"""A fixed pool of vLLM actors: each loads its engine once, then serves many batches.

Engine start is the slow part, so actors live for the whole job; windows go out in
chunks of `cfg.batch_size`, round-robin, and come back reassembled in input order.
"""

from __future__ import annotations

from typing import Any

import ray

from arborwiki.backends.vllm_backend import VLLMExtractor
from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.records import Window

PoolResult = tuple[list[SnapshotDraft], list[str], dict[str, int]]


@ray.remote
class ExtractionActor:
    """Holds one VLLMExtractor (and so one engine) for its lifetime."""

    def __init__(self, cfg: ExtractConfig, engine_kwargs: dict[str, Any]) -> None:
        self.extractor = VLLMExtractor(cfg, **engine_kwargs)

    def extract(self, windows: list[Window]) -> PoolResult:
        drafts = self.extractor.extract(windows)
        return drafts, self.extractor.last_extractors, self.extractor.last_stats


def create_pool(
    cfg: ExtractConfig, num_gpus: float | None = None, **engine_kwargs: Any
) -> list[Any]:
    """`cfg.pool_size` actors; each asks for `tensor_parallel_size` GPUs unless told otherwise."""
    gpus = cfg.tensor_parallel_size if num_gpus is None else num_gpus
    return [
        ExtractionActor.options(num_gpus=gpus).remote(cfg, engine_kwargs)
        for _ in range(cfg.pool_size)
    ]


def extract_on_pool(
    windows: list[Window], cfg: ExtractConfig, actors: list[Any] | None = None
) -> PoolResult:
    """Drafts, extractor names and summed stats for `windows`, in input order."""
    pool = actors if actors is not None else create_pool(cfg)
    chunks = [windows[i : i + cfg.batch_size] for i in range(0, len(windows), cfg.batch_size)]
    futures = [pool[n % len(pool)].extract.remote(chunk) for n, chunk in enumerate(chunks)]
    drafts: list[SnapshotDraft] = []
    names: list[str] = []
    stats = {"ok": 0, "repaired": 0, "fallback": 0}
    for chunk, (chunk_drafts, chunk_names, chunk_stats) in zip(
        chunks, ray.get(futures), strict=True
    ):
        if len(chunk_drafts) != len(chunk) or len(chunk_names) != len(chunk):
            raise RuntimeError(f"an actor returned {len(chunk_drafts)} drafts for {len(chunk)}")
        drafts.extend(chunk_drafts)
        names.extend(chunk_names)
        for key, count in chunk_stats.items():
            stats[key] += count
    if actors is None:
        for actor in pool:
            ray.kill(actor)
    return drafts, names, stats
