"""The MCP tools on the HTTP ingress: streamable HTTP at /mcp, in every Serve replica.

Serve gives each replica its own copy of the FastAPI app and runs that copy's lifespan
after the deployment's constructor. The constructor leaves its `QueryClient` here, with the
function that builds the MCP server over it; the lifespan adds the /mcp route to the copy
and keeps the MCP session manager running as long as the replica serves. Stateless with
JSON responses, so any replica answers any request. Unscoped: like every HTTP route, each
call names its user. Host, Origin and the token are checked for /mcp as for every route, by
the ingress's guard (cluster/http_access.py), so the SDK's own Host check (loopback names
only) is off: one rule for every route.

The tools are the Python API's (`arborwiki.mcp_server`), a layer above this one: the
builder is handed in (`arborwiki serve` passes `served_memory_server`), never imported
here. Without one the ingress has no /mcp route.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from arborwiki.cluster.query_client import QueryClient

MCP_PATH = "/mcp"
McpServerFor = Callable[[QueryClient], Any]
"""A replica's client → the MCP server (an `mcp.server.MCPServer`) to mount at /mcp."""
_replica: dict[str, Any] = {}  # this process's ingress replica: client, builder


def serve_mcp_here(client: QueryClient, server_for: McpServerFor | None) -> None:
    """Called by the ingress constructor (in the replica's process)."""
    _replica.update(client=client, server_for=server_for)


@asynccontextmanager
async def mcp_lifespan(app: FastAPI) -> AsyncIterator[None]:
    client, server_for = _replica.get("client"), _replica.get("server_for")
    if client is None or server_for is None:  # the app imported for its OpenAPI schema,
        yield  # or an ingress started without MCP tools
        return
    server = server_for(client)
    asgi = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        # `host` binds nothing here: it only decides whether the SDK adds its own Host check
        # (loopback names only). The ingress's guard checks Host, Origin and token instead.
        host="0.0.0.0",
    )
    app.router.routes.extend(asgi.routes)
    async with server.session_manager.run():
        yield
