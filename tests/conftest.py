"""Session-wide fixtures: one local Ray (2 CPUs) for the whole run, paths to shared data."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
LOCOMO_DEV = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


@pytest.fixture(scope="session")
def ray_local() -> Iterator[None]:
    """A real local Ray, started once (≈6 s) and shared by every test that needs it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    ray.init(num_cpus=2, include_dashboard=False, namespace="arborwiki-tests")
    yield
    ray.shutdown()


@pytest.fixture(scope="session")
def locomo_dev() -> Path:
    if not LOCOMO_DEV.exists():
        pytest.skip(f"LoCoMo dev file not found at {LOCOMO_DEV} (shared data absent)")
    return LOCOMO_DEV
