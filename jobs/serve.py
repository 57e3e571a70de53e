"""`arborwiki serve` / `arborwiki stop`: the detached, named query actors (and HTTP)."""

from __future__ import annotations

import re
from pathlib import Path

from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import Config


def _join(cfg: Config) -> None:
    """Serving lives on a running cluster: `null` means `auto` here, never a private Ray."""
    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))


def serve(
    store: str, cfg: Config, http_port: int | None = None, http_host: str = "127.0.0.1"
) -> None:
    """Actors first (the HTTP ingress forwards to them), then Serve on host:port if asked."""
    if not Path(store).exists():
        raise FileNotFoundError(f"store {store} does not exist: run `arborwiki build` first")
    _join(cfg)
    start_query_actor(str(Path(store).resolve()), cfg, detached=True)
    print(
        f"query actors {cfg.ray.actor_name!r} × {cfg.ray.query_replicas} ready "
        f"in namespace {cfg.ray.namespace!r}"
    )
    if http_port is not None:
        from arborwiki.cluster.http_server import start_http

        start_http(cfg, http_host, http_port)
        print(f"HTTP on http://{http_host}:{http_port} (POST /query, /localize; GET /history)")
        print(f"stop with: arborwiki stop --set ray.namespace={cfg.ray.namespace}")


def serving_actor_names(cfg: Config, running: list[str]) -> list[str]:
    """The query replicas among `running` names: `actor_name` and `actor_name-<i>`.

    Matched by pattern, not by `query_replicas`, so a stop with a smaller replica count
    than the serve had still stops them all.
    """
    pattern = re.compile(re.escape(cfg.ray.actor_name) + r"(-\d+)?")
    return sorted(name for name in running if pattern.fullmatch(name))


def stop(cfg: Config) -> list[str]:
    """Shut the HTTP ingress (Ray Serve) down and kill the query replicas; returns what stopped."""
    import ray
    from ray import serve as ray_serve

    _join(cfg)
    stopped: list[str] = []
    if _serve_running():
        ray_serve.shutdown()
        stopped.append("http")
    named = ray.util.list_named_actors(all_namespaces=True)
    here = [a["name"] for a in named if a.get("namespace") == cfg.ray.namespace]
    for name in serving_actor_names(cfg, here):
        ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace), no_restart=True)
        stopped.append(name)
    return stopped


def _serve_running() -> bool:
    """Whether a Serve controller runs on this cluster (asked without starting one)."""
    import ray
    from ray.serve._private.constants import SERVE_CONTROLLER_NAME, SERVE_NAMESPACE

    try:
        ray.get_actor(SERVE_CONTROLLER_NAME, namespace=SERVE_NAMESPACE)
    except ValueError:
        return False
    return True
