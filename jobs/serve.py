"""`arborwiki serve` / `arborwiki stop`: the detached, named query actors (and HTTP)."""

from __future__ import annotations

from functools import partial

from arborwiki.cluster.local_service import existing_store
from arborwiki.cluster.query_actor import QUERY_ACTOR, start_query_actor
from arborwiki.cluster.runtime import joined_address, named_cluster, start_ray
from arborwiki.core.config import Config


def _join(cfg: Config) -> str:
    """Serving lives on a running cluster: `null` means `auto` here (the one cluster running
    on this machine, never one of several), never a private Ray. Returns the address joined."""
    start_ray(cfg.ray.model_copy(update={"address": cfg.ray.address or "auto"}))
    return joined_address()


def serve(
    store: str,
    cfg: Config,
    http_port: int | None = None,
    http_host: str = "127.0.0.1",
    token_file: str | None = None,
    allow_hosts: list[str] | None = None,
    allow_forget: bool = False,
) -> None:
    """Actors first (the HTTP ingress forwards to them), then Serve on host:port if asked.
    The HTTP access rules are checked before anything starts (a token is required beyond
    loopback: `cluster/http_access.py`)."""
    token = None
    if http_port is not None:
        from arborwiki.cluster.http_access import Access, read_token

        token = read_token(token_file)
        Access.for_bind(http_host, token, allow_hosts or [])
    location = existing_store(store)
    address = _join(cfg)
    start_query_actor(location, cfg, detached=True)
    print(
        f"query actors {QUERY_ACTOR!r} × {cfg.ray.query_replicas} ready "
        f"in namespace {cfg.ray.namespace!r} on the Ray cluster at {address}"
    )
    if http_port is not None:
        from arborwiki.cluster.http_server import start_http
        from arborwiki.mcp_server import served_memory_server

        mcp, hosts = partial(served_memory_server, allow_forget=allow_forget), allow_hosts or []
        start_http(cfg, http_host, http_port, mcp, token, hosts, True, allow_forget)
        print(
            f"HTTP on http://{http_host}:{http_port} (POST /query, /localize, /memory"
            + (", /forget" if allow_forget else "")
            + "; GET /history, /pages; MCP at /mcp; "
            + ("bearer token required)" if token else "no token: loopback only)")
        )
    where = f"--set ray.address={address} --set ray.namespace={cfg.ray.namespace}"
    print(f'query with: arborwiki query --store {store} --user USER "question" {where}')
    print(f"stop with: arborwiki stop {where}")


def stop(cfg: Config) -> list[str]:
    """Join the serving cluster, then stop its HTTP ingress and query replicas."""
    from arborwiki.cluster.serving import stop_serving

    named_cluster(cfg.ray.address, "stop")
    _join(cfg)
    return stop_serving(cfg)
