"""Run by tests/cluster/test_multinode.py in its own process: a three-node Ray cluster on
this machine (`ray.cluster_utils.Cluster`), the build and a query on it, one JSON line out.

The head has no CPUs, so every CPU task runs on one of two worker nodes, each with its own
custom resource and its own temp dir. Input, staging, cache and store are `s3://` URIs on
the test's moto server: the object store is the only medium the nodes share. The process
runs in an empty directory, which must stay empty.

Where each shard task ran is recorded by the task itself: the build's task functions are
wrapped (same name, same result) to first put an empty object named by their node id under
`STORE/_placement/` — through the object store too, since the driver sees no worker disk.
The dashboard (and with it the state API) stays off: on a loaded 2-core machine it makes the
head miss Ray's fixed 30 s start-up window.

    python -m tests.cluster.multinode_build ARCHIVE_URI STORE_URI TEMP_ROOT
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

WORKER_RESOURCES = ({"node_a": 1}, {"node_b": 1})
SHARD_TASKS = ("run_read", "run_windows", "run_compile")
START_ATTEMPTS = 3  # Ray gives a node 30 s to register; a loaded machine can miss that


def _recorded(fn: Callable[..., Any], log_dir: str) -> Callable[..., Any]:
    """`fn`, which first leaves `log_dir/<fn name>/<node id>-<uuid>` on the object store."""

    def run(*args: Any, **kwargs: Any) -> Any:
        import ray

        from arborwiki.storage import paths

        node = ray.get_runtime_context().get_node_id()
        paths.write_text(paths.join(log_dir, fn.__name__, f"{node}-{uuid.uuid4().hex}"), "")
        return fn(*args, **kwargs)

    # Not functools.wraps: a copied __module__ would make cloudpickle ship the wrapper by
    # reference, and the workers would import the unwrapped function.
    run.__name__ = fn.__name__
    return run


def _start_cluster(temp_root: str) -> tuple[Any, list[Any]]:
    """Head (no CPUs) + two one-CPU workers, each with its own resource and temp dir."""
    from ray.cluster_utils import Cluster

    for attempt in range(1, START_ATTEMPTS + 1):
        temps = {n: tempfile.mkdtemp(prefix=f"{n}-", dir=temp_root) for n in ("head", "a", "b")}
        try:
            cluster = Cluster(
                initialize_head=True,
                head_node_args={"num_cpus": 0, "temp_dir": temps["head"]},
            )
            workers = [
                cluster.add_node(num_cpus=1, resources=res, temp_dir=temps[name])
                for name, res in zip(("a", "b"), WORKER_RESOURCES, strict=True)
            ]
            cluster.wait_for_nodes()
            return cluster, workers
        except Exception as err:  # noqa: BLE001 - retried, then raised
            print(f"cluster start attempt {attempt} failed: {err}", file=sys.stderr)
            if attempt == START_ATTEMPTS:
                raise
    raise AssertionError("unreachable")


def _files_under(root: str, suffixes: tuple[str, ...]) -> list[str]:
    return sorted(
        str(p) for p in Path(root).rglob("*") if p.is_file() and p.name.endswith(suffixes)
    )


def main(archive: str, store: str, temp_root: str) -> dict:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    from arborwiki.cluster import build, scheduling
    from arborwiki.cluster.query_actor import start_query_actor
    from arborwiki.core.config import load_config
    from arborwiki.storage import paths

    log_dir = paths.join(store, "_placement")
    build.run_read = _recorded(build.run_read, log_dir)
    scheduling.run_windows = _recorded(scheduling.run_windows, log_dir)
    scheduling.run_compile = _recorded(scheduling.run_compile, log_dir)

    cluster, workers = _start_cluster(temp_root)
    try:
        ray.init(address=cluster.address, namespace="arborwiki-multinode")
        cfg = load_config(overrides=["ray.num_shards=4", "extract.cache_rules=true"])
        summary = build.run_build(archive, store, cfg)
        placed = {
            name: [paths.name(f).split("-")[0] for f in paths.list_files(paths.join(log_dir, name))]
            for name in SHARD_TASKS
        }

        actor = start_query_actor(store, cfg, detached=False)
        result = ray.get(actor.query.remote("alice", "where does alice live now?", None, None))
        ray.kill(actor)
        return {
            "summary": summary.to_dict(),
            "head": cluster.head_node.node_id,
            "workers": [w.node_id for w in workers],
            "placed": placed,
            "cited": [e["message_id"] for e in result["evidence"]],
            "local_data_files": _files_under(temp_root, (".parquet", ".lance", ".committed")),
            "cwd_entries": sorted(os.listdir(".")),
        }
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])), flush=True)
