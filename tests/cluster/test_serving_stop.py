"""`arborwiki stop` ends what `serve` started: the Serve ingress and every query replica."""

from __future__ import annotations

import time
import urllib.request

import pytest
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.http_server import start_http
from arborwiki.cluster.query_actor import QUERY_ACTOR, start_query_actor
from arborwiki.cluster.query_client import QueryClient
from arborwiki.cluster.serving import serving_actor_names
from arborwiki.core.config import load_config
from arborwiki.jobs.serve import stop
from tests.conftest import EXAMPLES
from tests.local_http import free_port


@pytest.fixture(scope="module")
def store(ray_local: None, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A built store: a replica over an empty directory is not healthy."""
    path = tmp_path_factory.mktemp("stop_store")
    run_build(str(EXAMPLES / "sample_archive.jsonl"), str(path), load_config())
    return str(path)


def gone(name: str, namespace: str) -> bool:
    try:
        ray.get_actor(name, namespace=namespace)
    except ValueError:
        return True
    return False


def test_stop_ends_http_and_every_replica(store: str) -> None:
    cfg = load_config(
        overrides=[
            "ray.namespace=arborwiki-stop-tests",
            "ray.query_replicas=2",
            "ray.address=auto",  # stop acts only on a cluster it is pointed at
        ]
    )
    port = free_port()
    start_query_actor(store, cfg, detached=False)
    start_http(cfg, "127.0.0.1", port)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as reply:
        assert reply.status == 200

    replicas = [QUERY_ACTOR, f"{QUERY_ACTOR}-1"]
    assert stop(cfg) == ["http", *replicas]
    deadline = time.time() + 30
    while time.time() < deadline and not all(gone(n, cfg.ray.namespace) for n in replicas):
        time.sleep(0.2)
    assert all(gone(n, cfg.ray.namespace) for n in replicas)
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5)
    assert stop(cfg) == []


def test_replica_names_are_matched_exactly() -> None:
    q = QUERY_ACTOR
    running = [q, f"{q}-1", f"{q}-12", f"{q}x", f"{q}-a", "other", f"{q}-1-2", "arborwiki.query"]
    assert serving_actor_names(running) == [q, f"{q}-1", f"{q}-12"]


def test_a_dead_replica_costs_no_failed_call(store: str) -> None:
    cfg = load_config(
        overrides=[
            "ray.namespace=arborwiki-dead-replica",
            "ray.query_replicas=2",
        ]
    )
    first = start_query_actor(store, cfg, detached=False)
    client = QueryClient.connect(cfg)
    ray.kill(first, no_restart=True)
    assert [client.call("health") for _ in range(6)] == ["ok"] * 6
    last = client.replicas[1]
    ray.kill(last, no_restart=True)
    _wait_dead(last)  # ray.kill returns before the actor is gone: a call may still land
    with pytest.raises(RuntimeError, match="every query replica died"):
        client.call("health")


def _wait_dead(actor: ray.actor.ActorHandle, seconds: float = 30.0) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            ray.get(actor.health.remote(), timeout=5)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            return
        time.sleep(0.1)
    raise AssertionError("the killed replica still answers")
