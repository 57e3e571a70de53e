"""`arborwiki mcp`: the memory's MCP tools over stdio, for an agent framework to spawn."""

from __future__ import annotations

import contextlib
import sys

from arborwiki.core.config import Config


def serve_mcp(
    store: str,
    user: str | None,
    cfg: Config,
    ray_address: str | None,
    allow_forget: bool = False,
) -> None:
    """Open the store (in-process, or the query actors at `ray_address`), then serve until
    the client closes stdin. While the store opens, stray prints go to stderr: stdout is
    the protocol's wire (the SDK diverts it itself once it serves)."""
    from arborwiki.api import open_store
    from arborwiki.mcp_server import memory_server

    if ray_address is not None:
        from arborwiki.cluster.runtime import named_cluster

        named_cluster(ray_address, "mcp")
    with contextlib.redirect_stdout(sys.stderr):
        memory = open_store(store, ray_address=ray_address, config=cfg)
        server = memory_server(memory, user, allow_forget=allow_forget)
    server.run("stdio")
