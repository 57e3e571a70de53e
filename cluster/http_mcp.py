"""The MCP tools on the HTTP ingress: streamable HTTP at /mcp, in every Serve replica.

Serve gives each replica its own copy of the FastAPI app and runs that copy's lifespan
after the deployment's constructor. The constructor leaves its `QueryClient` here; the
lifespan adds the /mcp route to the copy and keeps the MCP session manager running as
long as the replica serves. Stateless with JSON responses, so any replica answers any
request. Unscoped: like every HTTP route, each call names its user.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from arborwiki.cluster.query_client import QueryClient
from arborwiki.cluster.remote_store import ActorBackend

MCP_PATH = "/mcp"
_replica: dict[str, Any] = {}  # this process's ingress replica: its client and bind host


def serve_mcp_here(client: QueryClient, host: str) -> None:
    """Called by the ingress constructor (in the replica's process)."""
    _replica.update(client=client, host=host)


@asynccontextmanager
async def mcp_lifespan(app: FastAPI) -> AsyncIterator[None]:
    client = _replica.get("client")
    if client is None:  # not a Serve replica: the app imported for its OpenAPI schema
        yield
        return
    from arborwiki.api import MemoryStore
    from arborwiki.mcp_server import memory_server

    server = memory_server(MemoryStore(ActorBackend(client, "the query actors"), "serving"))
    asgi = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        host=_replica["host"],  # 127.0.0.1: the SDK's DNS-rebinding protection is on
    )
    app.router.routes.extend(asgi.routes)
    async with server.session_manager.run():
        yield
