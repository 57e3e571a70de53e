"""Multi-node on one machine: head + two worker nodes (`ray.cluster_utils.Cluster`, own
resources, own temp dirs) build an archive whose input, staging and store live on a moto
S3 server; shard tasks run on both workers and no data file lands on any node's disk.

The cluster lives in a subprocess (tests/cluster/multinode_build.py), so it never meets the
test session's `ray_local`; teardown kills whatever still names its temp dir.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from arborwiki.storage import paths
from tests.conftest import EXAMPLES, REPO
from tests.object_store import BUCKET, environment, moto_server, s3_env
from tests.processes import kill_processes_naming

ARCHIVE = EXAMPLES / "sample_archive.jsonl"


def test_shards_run_on_two_nodes_sharing_only_the_object_store(tmp_path: Path) -> None:
    temp_root = tempfile.mkdtemp(prefix="awmn-", dir="/tmp")  # short: Ray's socket paths
    workdir = tmp_path / "driver-cwd"
    workdir.mkdir()
    archive = f"s3://{BUCKET}/multinode/archive.jsonl"
    store = f"s3://{BUCKET}/multinode/store"
    try:
        with moto_server() as endpoint:
            env = s3_env(endpoint)
            with environment(env):
                paths.write_bytes(archive, ARCHIVE.read_bytes())
            full = {
                **os.environ,
                **env,
                "RAY_USAGE_STATS_ENABLED": "0",
                "PYTHONPATH": str(REPO),
            }
            full.pop("RAY_ADDRESS", None)
            done = subprocess.run(
                [sys.executable, "-m", "tests.cluster.multinode_build", archive, store, temp_root],
                env=full,
                cwd=workdir,
                capture_output=True,
                text=True,
                timeout=540,
                check=False,
            )
            assert done.returncode == 0, done.stderr[-4000:]
            out = json.loads(done.stdout.strip().splitlines()[-1])
            with environment(env):
                committed = paths.list_files(f"{store}/_work/runs", pattern="*.committed")
    finally:
        kill_processes_naming(temp_root)
        shutil.rmtree(temp_root, ignore_errors=True)

    summary = out["summary"]
    print("shard tasks per node:", json.dumps(out["placed"]), "workers:", out["workers"])
    assert summary["committed"] and summary["users"] == 4 and summary["quarantined"] == 2
    assert committed  # the run's marker, on S3
    workers = set(out["workers"])
    shard_nodes = {node for nodes in out["placed"].values() for node in nodes}
    assert len(out["placed"].get("run_compile", [])) == summary["shards_built"] >= 2
    assert shard_nodes <= workers  # the head has no CPUs
    assert len(shard_nodes) == 2  # both worker nodes ran shard tasks
    assert out["head"] not in workers
    assert out["cited"] and all(m.startswith("alice-") for m in out["cited"])
    assert out["local_data_files"] == []  # nothing staged or stored on any node's disk
    assert out["cwd_entries"] == []
