"""`arborwiki serve` / `arborwiki stop`: the detached, named query actors (and HTTP)."""

from __future__ import annotations

from arborwiki.cluster.local_service import existing_store
from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.cluster.runtime import (
    joined_address,
    only_one_cluster,
    running_clusters,
    start_ray,
)
from arborwiki.core.config import Config


def _join(cfg: Config) -> str:
    """Serving lives on a running cluster: `null` means `auto` here, never a private Ray.
    Returns the address joined."""
    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))
    return joined_address()


def serve(
    store: str, cfg: Config, http_port: int | None = None, http_host: str = "127.0.0.1"
) -> None:
    """Actors first (the HTTP ingress forwards to them), then Serve on host:port if asked."""
    location = existing_store(store)
    address = _join(cfg)
    start_query_actor(location, cfg, detached=True)
    print(
        f"query actors {cfg.ray.actor_name!r} × {cfg.ray.query_replicas} ready "
        f"in namespace {cfg.ray.namespace!r} on the Ray cluster at {address}"
    )
    if http_port is not None:
        from arborwiki.cluster.http_server import start_http
        from arborwiki.mcp_server import served_memory_server

        start_http(cfg, http_host, http_port, mcp=served_memory_server)
        print(
            f"HTTP on http://{http_host}:{http_port} (POST /query, /localize; "
            "GET /history, /pages; MCP at /mcp)"
        )
    print(
        f"stop with: arborwiki stop --set ray.address={address} "
        f"--set ray.namespace={cfg.ray.namespace}"
    )


def stop(cfg: Config) -> list[str]:
    """Join the serving cluster, then stop its HTTP ingress and query replicas."""
    from arborwiki.cluster.serving import stop_serving

    if cfg.ray.address in (None, "auto"):
        only_one_cluster(running_clusters())
    _join(cfg)
    return stop_serving(cfg)
