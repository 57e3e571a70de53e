"""Session-wide fixtures: one local Ray (2 CPUs) for the whole run, paths to shared data."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
SAMPLE_SETTINGS = ["ray.num_shards=2"]


@pytest.fixture(scope="session")
def ray_local() -> Iterator[None]:
    """A real local Ray, started once (≈6 s) and shared by every test that needs it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray
    from ray import cloudpickle

    from tests import faults

    cloudpickle.register_pickle_by_value(faults)  # workers need not import `tests`
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        namespace="arborwiki-tests",
        runtime_env={"worker_process_setup_hook": faults.install_faults},
    )
    yield
    ray.shutdown()


@pytest.fixture(scope="session")
def sample_store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample archive built once (real Ray, real Lance) for the tests that only
    read a store: the Python API, the MCP server, the response schemas."""
    from arborwiki.cluster.build import run_build
    from arborwiki.core.config import load_config

    store = tmp_path_factory.mktemp("sample") / "store"
    cfg = load_config(overrides=SAMPLE_SETTINGS)
    assert run_build(str(EXAMPLES / "sample_archive.jsonl"), str(store), cfg).committed
    return store


@pytest.fixture(scope="session")
def locomo_dev() -> Path:
    if not LOCOMO_DEV.exists():
        pytest.skip(f"LoCoMo dev file not found at {LOCOMO_DEV} (shared data absent)")
    return LOCOMO_DEV
