"""HTTP in front of the query actors: a Ray Serve deployment with a FastAPI ingress.

Why Serve: it runs the HTTP proxy on the cluster (no process of ours to babysit) and
outlives the driver that started it, like the detached query actors it forwards to.
The ingress holds no memory of its own: every request goes through a `QueryClient`
to the least-loaded query actor replica. Every error is a JSON body `{"error": "..."}`
with a 4xx/5xx code (422 from validation, also for text that is not valid Unicode such as
an escaped lone surrogate; 400 from the service's own checks; 404/405 for unknown routes;
500 for anything else); nothing leaks a traceback.

    POST /query     {user_id, question, k?, budget_tokens?}   → QueryResult
    POST /localize  {user_id, turn_text}                      → LocalizeResult
    GET  /history?user_id=&about=                             → HistoryResult
    GET  /pages?user_id=                                      → PagesResult
    GET  /health
    GET  /ui/USER/...  the user's HTML viewer (the files `arborwiki export-html` writes)
    /mcp            the MCP tools over streamable HTTP, when start_http is given them
                    (`arborwiki serve` gives arborwiki.mcp_server's; cluster/http_mcp.py)
"""

# No `from __future__ import annotations` here: Serve's ingress rebuilds the routes
# from the methods' signatures and needs real classes, not strings, for request bodies.
import json
import logging
import re
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import AfterValidator, BaseModel, Field
from ray import serve
from starlette.exceptions import HTTPException

from arborwiki.cluster.http_mcp import McpServerFor, mcp_lifespan, serve_mcp_here
from arborwiki.cluster.query_actor import get_query_replicas
from arborwiki.cluster.query_client import QueryClient
from arborwiki.core.config import Config
from arborwiki.core.query.result import HistoryResult, LocalizeResult, PagesResult, QueryResult

APP_NAME = "arborwiki"
log = logging.getLogger(__name__)


class AsciiJSONResponse(JSONResponse):
    """JSON with non-ASCII escaped: any string, a lone surrogate too, renders (never a 500)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


app = FastAPI(
    title="arborwiki",
    description="Per-user long-term memory: cited evidence.",
    default_response_class=AsciiJSONResponse,
    lifespan=mcp_lifespan,
)


def valid_unicode(text: str) -> str:
    """Reject what UTF-8 cannot encode (an escaped lone surrogate such as "\\ud800")."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError("must be valid Unicode text (no lone surrogates)") from err
    return text


NonEmpty = Annotated[str, Field(min_length=1), AfterValidator(valid_unicode)]
TextParam = Annotated[str, Query(min_length=1), AfterValidator(valid_unicode)]
UserParam = Annotated[
    str, Query(min_length=1, description="memory owner"), AfterValidator(valid_unicode)
]


class QueryBody(BaseModel):
    user_id: NonEmpty
    question: NonEmpty
    k: int | None = Field(None, ge=1)
    budget_tokens: int | None = Field(None, ge=1)


class LocalizeBody(BaseModel):
    user_id: NonEmpty
    turn_text: NonEmpty


class ErrorBody(BaseModel):
    """Every error's body, whatever its status."""

    error: str = Field(description="one line saying what was wrong")


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 422, 500)
}
"""What the routes answer besides 200: declared so /openapi.json says it (not FastAPI's
default 422 shape, which our handler replaces)."""


# A message that names a file or a library's internals ("External error: Not found:
# /srv/store/claims.lance/data/…") is the server's business, never the caller's.
_INTERNAL = re.compile(r"\.lance|[/\\][\w.-]+[/\\]|External error|\blance|\barrow", re.I)


def error(status: int, message: str) -> JSONResponse:
    return AsciiJSONResponse(status_code=status, content={"error": message})


@app.exception_handler(RequestValidationError)
async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each bad field; never echoes the input (it may not even be encodable)."""
    problems = [
        f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
        for e in exc.errors()
    ]
    return error(422, "; ".join(problems) or "invalid request")


@app.exception_handler(HTTPException)
async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
    return error(exc.status_code, str(exc.detail))


@app.exception_handler(Exception)
async def internal_error(_: Request, exc: Exception) -> JSONResponse:
    log.exception("request failed")
    return error(500, f"internal error: {type(exc).__name__}")


@serve.deployment(ray_actor_options={"num_cpus": 0})
@serve.ingress(app)
class MemoryHTTP:
    def __init__(
        self, replicas: list[Any], host: str = "127.0.0.1", mcp: McpServerFor | None = None
    ) -> None:
        self.client = QueryClient(replicas)
        serve_mcp_here(self.client, host, mcp)

    async def _call(self, method: str, *args: Any) -> Any:
        """Service errors (empty question, …) → 400; anything else → a one-line 500."""
        try:
            return await self.client.acall(method, *args)
        except ValueError as exc:
            message = str(exc).strip().splitlines()[-1] if str(exc).strip() else ""
            if message and not _INTERNAL.search(message):
                return error(400, message)
            log.exception("%s failed", method)
            return error(500, f"{method} failed: internal error")
        except Exception:  # noqa: BLE001 — the HTTP edge must answer in JSON
            log.exception("%s failed", method)
            return error(500, f"{method} failed: internal error")

    @app.post("/query", response_model=QueryResult, responses=ERRORS)
    async def query(self, body: QueryBody) -> Any:
        return await self._call("query", body.user_id, body.question, body.k, body.budget_tokens)

    @app.post("/localize", response_model=LocalizeResult, responses=ERRORS)
    async def localize(self, body: LocalizeBody) -> Any:
        return await self._call("localize", body.user_id, body.turn_text)

    @app.get("/history", response_model=HistoryResult, responses=ERRORS)
    async def history(self, user_id: UserParam, about: TextParam) -> Any:
        return await self._call("history", user_id, about)

    @app.get("/pages", response_model=PagesResult, responses=ERRORS)
    async def pages(self, user_id: UserParam) -> Any:
        return await self._call("pages", user_id)

    @app.get("/ui/{user_id}")
    async def ui_home(self, user_id: str) -> Any:
        return RedirectResponse(f"/ui/{quote(user_id, safe='')}/")

    @app.get("/ui/{user_id}/{path:path}")
    async def ui(self, user_id: str, path: str) -> Any:
        """A file of the user's site, looked up by exact name in what the actor rendered
        for that user (never a filesystem path): a hostile id or path just finds nothing."""
        found = await self._call("ui_page", user_id, path or "index.html")
        if isinstance(found, JSONResponse):
            return found
        if found is None:
            return error(404, f"no page {path!r} for user {user_id!r}")
        return Response(found[1], media_type=found[0])

    @app.get("/health")
    async def health(self) -> Any:
        replies = [await r.health.remote() for r in self.client.replicas]
        return {"status": "ok", "replicas": len(replies)}


def start_http(cfg: Config, host: str, port: int, mcp: McpServerFor | None = None) -> None:
    """Start Serve's proxy on host:port and deploy the ingress (query actors must be up);
    `mcp` builds the MCP server mounted at /mcp (None: no /mcp route).

    The ingress gets the replicas' handles from here: a Serve replica runs in another
    job, where the driver's non-detached named actors cannot be looked up by name."""
    replicas = get_query_replicas(cfg)
    serve.start(http_options={"host": host, "port": port})
    serve.run(MemoryHTTP.bind(replicas, host, mcp), name=APP_NAME, route_prefix="/")


def stop_http() -> None:
    """Shut Serve down (its controller, proxy and the ingress replicas)."""
    serve.shutdown()
