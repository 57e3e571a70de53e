"""Issue 35, items 10-12: paths resolved on the driver for a joined cluster, `stop` refusing
to guess between clusters, a nightly full fallback that reports what it built, and no empty
staging folder left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arborwiki.cluster.nightly import run_nightly
from arborwiki.cluster.runtime import driver_path, named_cluster, the_cluster_here
from arborwiki.core.config import RayConfig, load_config
from arborwiki.core.errors import InputError
from tests.conftest import EXAMPLES


def test_a_joined_cluster_gets_absolute_paths_from_the_driver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    joined, local = RayConfig(address="10.0.0.5:6379"), RayConfig()
    assert driver_path("store", joined) == os.path.join(os.path.realpath(tmp_path), "store")
    assert driver_path("in/*.jsonl", joined).startswith(os.path.realpath(tmp_path))
    assert driver_path("s3://bucket/store", joined) == "s3://bucket/store"
    assert driver_path("store", local) == "store"  # a private Ray shares this directory


def test_auto_means_the_one_cluster_here_and_stop_needs_an_address() -> None:
    assert the_cluster_here({"127.0.0.1:6379"}) == "127.0.0.1:6379"
    with pytest.raises(InputError, match=r"2 Ray clusters run on this machine .*ray\.address"):
        the_cluster_here({"127.0.0.1:6379", "127.0.0.1:6380"})
    with pytest.raises(InputError, match="no Ray cluster runs on this machine"):
        the_cluster_here(set())
    with pytest.raises(InputError, match=r"`arborwiki stop` acts on .*ray\.address=HOST:PORT"):
        named_cluster(None, "stop")
    assert named_cluster("auto", "stop") == "auto"


def test_a_nightly_full_fallback_reports_what_it_built(ray_local: None, tmp_path: Path) -> None:
    cfg = load_config(overrides=["ray.num_shards=1"])
    archive = EXAMPLES / "sample_archive.jsonl"
    store = tmp_path / "store"
    planned = run_nightly(str(archive), str(store), cfg, dry_run=True)
    report = run_nightly(str(archive), str(store), cfg)
    assert report.mode == planned.mode == "full"
    assert report.users == planned.users == ["alice", "bob", "o'connor", "user-4"]
    assert report.new_rows == planned.new_rows == 161
    assert report.new_messages == report.build.messages and report.new_quarantined == 2
    assert not (store / "_work" / "partition").exists()  # no empty staging folder left
