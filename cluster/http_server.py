"""HTTP in front of the query actors: a FastAPI app served by uvicorn inside one named Ray
actor (`HttpIngress`), on the node that ran `serve`.

Why an actor of ours and not a Ray Serve deployment (what this was until issue 48): a Serve
request crosses the proxy, a streaming actor call into the ingress replica and the call to
the query actor; on 2 cores that proxy path alone cost ~7× what uvicorn and FastAPI cost in
one process (answering only 401s: 153 against 1,150 requests/s), and its ingress held 5
requests at a time (Serve's default `max_ongoing_requests`) while the rest waited in the
proxy's retry back-off: 32 callers got 9 q/s at p95 5 s. Here a request is parsed where it
arrives and goes to the least-loaded query replica through a `QueryClient`, which batches
what arrives together (`cluster/query_client.py`); the ingress holds up to
`ray.http_max_ongoing_requests` at once and answers 503 beyond. Like the query actors, the
ingress is detached under `serve` and outlives the driver; `arborwiki stop` ends it.
The ingress holds no memory of its own. Every error is a JSON body `{"error": "..."}`
with a 4xx/5xx code (422 from validation, also for text that is not valid Unicode such as
an escaped lone surrogate; 400 from the service's own checks; 404/405 for unknown routes;
500 for anything else); nothing leaks a traceback. Who may ask, and how much: every request
passes `cluster/http_access.py` first (Host, Origin, bearer token, body size); every field is
bounded by the request models of `core/query/requests.py`. Handlers return the replica's
JSON as it is (the replica dumped the response model already; validating it again per
request cost the event loop CPU); the models still document the routes in /openapi.json.

    POST /query     {user_id, question, k?, budget_tokens?}   → QueryResult
    POST /localize  {user_id, turn_text, session_id?}         → LocalizeResult
    GET  /history?user_id=&about=                             → HistoryResult
    GET  /pages?user_id=                                      → PagesResult
    GET  /health
    GET  /ui/USER/...  the user's HTML viewer (the files `arborwiki export-html` writes)
    /mcp            the MCP tools over streamable HTTP, when start_http is given them
                    (`arborwiki serve` gives arborwiki.mcp_server's; cluster/http_mcp.py)
"""

# No `from __future__ import annotations` here: FastAPI reads the routes' signatures and
# needs real classes, not strings, for request bodies.
import asyncio
import contextlib
import json
import logging
import re
import threading
from typing import Annotated, Any
from urllib.parse import quote

import ray
import uvicorn
from fastapi import FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import AfterValidator, BaseModel, Field
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
from starlette.exceptions import HTTPException
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from arborwiki.cluster.http_access import Access, Guard
from arborwiki.cluster.http_mcp import McpServerFor, mcp_lifespan, serve_mcp_here
from arborwiki.cluster.query_actor import QUERY_ACTOR, get_query_replicas
from arborwiki.cluster.query_client import QueryClient
from arborwiki.core.config import Config
from arborwiki.core.query.requests import (
    MAX_TEXT,
    MAX_USER_ID,
    AddRequest,
    ForgetRequest,
    LocalizeRequest,
    QueryRequest,
    valid_unicode,
)
from arborwiki.core.query.result import (
    AddResult,
    ForgetResult,
    HistoryResult,
    LocalizeResult,
    PagesResult,
    QueryResult,
)

HTTP_SUFFIX = "-http"  # the ingress actor: QUERY_ACTOR + this, in `ray.namespace`
# A new actor process imports the app (fastapi, uvicorn, the MCP SDK: seconds) before uvicorn
# binds; on 2 loaded cores that took over 30 s. A taken port fails at once (`ready`).
STARTUP_SECONDS = 120.0
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


_ingress: dict[str, Any] = {}  # this process's ingress: its access rules and QueryClient
app.add_middleware(Guard, rules=lambda: _ingress.get("access"), limit=lambda: _ingress.get("limit"))

TextParam = Annotated[str, Query(min_length=1, max_length=MAX_TEXT), AfterValidator(valid_unicode)]
UserParam = Annotated[
    str,
    Query(min_length=1, max_length=MAX_USER_ID, description="memory owner"),
    AfterValidator(valid_unicode),
]
UserPath = Annotated[str, Path(min_length=1, max_length=MAX_USER_ID)]


class ErrorBody(BaseModel):
    """Every error's body, whatever its status."""

    error: str = Field(description="one line saying what was wrong")


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 413, 421, 422, 500)
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


async def _call(method: str, *args: Any) -> Any:
    """Service errors (empty question, …) → 400; anything else → a one-line 500."""
    try:
        return AsciiJSONResponse(await _ingress["client"].acall(method, *args))
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
async def query(body: QueryRequest) -> Any:
    return await _call("query", body.user_id, body.question, body.k, body.budget_tokens)


@app.post("/localize", response_model=LocalizeResult, responses=ERRORS)
async def localize(body: LocalizeRequest) -> Any:
    return await _call("localize", body.user_id, body.turn_text, body.session_id)


@app.get("/history", response_model=HistoryResult, responses=ERRORS)
async def history(user_id: UserParam, about: TextParam) -> Any:
    return await _call("history", user_id, about)


@app.get("/pages", response_model=PagesResult, responses=ERRORS)
async def pages(user_id: UserParam) -> Any:
    return await _call("pages", user_id)


@app.post("/memory", response_model=AddResult, responses=ERRORS)
async def add_memory(body: AddRequest) -> Any:
    """An online add: stored, placed and searchable on every replica when this answers."""
    answer = await _call("add", body.user_id, body.rows())
    if answer.status_code == 200:  # every replica follows the new run before we answer
        await asyncio.to_thread(_ingress["client"].broadcast, "refresh")
    return answer


@app.post("/forget", response_model=ForgetResult, responses=ERRORS)
async def forget_memory(body: ForgetRequest) -> Any:
    """Forget a user or some of their messages: only on a server started --allow-forget."""
    if not _ingress.get("allow_forget"):
        return error(403, "forget is off on this server (start it with serve --allow-forget)")
    answer = await _call("forget", body.user_id, body.message_ids)
    if answer.status_code == 200:
        await asyncio.to_thread(_ingress["client"].broadcast, "refresh")
    return answer


@app.get("/ui/{user_id}")
async def ui_home(user_id: UserPath) -> Any:
    return RedirectResponse(f"/ui/{quote(user_id, safe='')}/")


@app.get("/ui/{user_id}/{path:path}")
async def ui(user_id: UserPath, path: str) -> Any:
    """A file of the user's site, looked up by exact name in what the actor rendered
    for that user (never a filesystem path): a hostile id or path just finds nothing."""
    try:
        found = await _ingress["client"].acall("ui_page", user_id, path or "index.html")
    except Exception:  # noqa: BLE001 — the HTTP edge must answer in JSON
        log.exception("ui_page failed")
        return error(500, "ui_page failed: internal error")
    if found is None:
        return error(404, f"no page {path!r} for user {user_id!r}")
    return Response(found[1], media_type=found[0])


@app.get("/health")
async def health() -> Any:
    replicas = _ingress["client"].replicas
    replies = [await r.health.remote() for r in replicas]
    return {"status": "ok", "replicas": len(replies)}


class JsonRefusals(HttpToolsProtocol):
    """uvicorn's HTTP parser, whose own refusal (a request it cannot parse, such as a request
    line of 100 KB) is a JSON body like every other error, not plain text."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": f"malformed HTTP request: {msg}"}).encode("ascii")
        head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
        head += b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body)
        self.transport.write(head + body)
        self.transport.close()


class HttpIngress:
    """The app under uvicorn in a thread of this actor; the actor's own methods say when it
    listens and stop it."""

    def __init__(
        self,
        replicas: list[Any],
        access: Access,
        host: str,
        port: int,
        limit: int,
        mcp: McpServerFor | None = None,
        allow_forget: bool = False,
    ) -> None:
        client = QueryClient(replicas)
        _ingress.update(access=access, client=client, limit=limit, allow_forget=allow_forget)
        # The MCP SDK logs each session's start and end at INFO; Ray forwards an actor's
        # log to the driver's stderr, where it would break into a CLI's one-line errors.
        logging.getLogger("mcp").setLevel(logging.WARNING)
        serve_mcp_here(client, mcp)
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            http=JsonRefusals,
            access_log=False,
            log_level="warning",
            lifespan="on",  # the /mcp route and its session manager (cluster/http_mcp.py)
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="http", daemon=True)
        self.thread.start()

    def ready(self) -> bool:
        """True once uvicorn listens; a RuntimeError when it could not (port taken)."""
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the HTTP server stopped at start (is the port in use?)")
            self.thread.join(timeout=0.05)
        return True

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=STARTUP_SECONDS)


_STARTED: dict[str, tuple[Any, str]] = {}  # this driver's ingresses: stop_http ends them


def ingress_name(cfg: Config) -> str:
    return QUERY_ACTOR + HTTP_SUFFIX


def start_http(
    cfg: Config,
    host: str,
    port: int,
    mcp: McpServerFor | None = None,
    token: str | None = None,
    allow_hosts: list[str] | tuple[str, ...] = (),
    detached: bool = False,
    allow_forget: bool = False,
) -> None:
    """Serve HTTP on host:port from this node (query actors must be up); `mcp` builds the
    MCP server mounted at /mcp (None: no /mcp route). `token`: the bearer token every route
    but /health asks for (required beyond loopback); `allow_hosts`: the Host names it
    answers to besides its own (`cluster/http_access.py`). `detached`: outlive this driver
    (`arborwiki serve`); otherwise it ends with the driver or `stop_http`. `allow_forget`:
    POST /forget (and MCP's forget_memory) answer; off, they are refused with 403."""
    access = Access.for_bind(host, token, allow_hosts)  # refuses before anything starts
    replicas = get_query_replicas(cfg)
    stop_http(cfg)  # a second `serve` replaces the ingress (its port, token, replicas)
    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    options: dict[str, Any] = {
        "name": ingress_name(cfg),
        "namespace": cfg.ray.namespace,
        "num_cpus": 0,
        "scheduling_strategy": here,
    }
    if detached:
        options["lifetime"] = "detached"
    actor = ray.remote(HttpIngress).options(**options)
    limit = cfg.ray.http_max_ongoing_requests
    handle = actor.remote(replicas, access, host, port, limit, mcp, allow_forget)
    try:
        ray.get(handle.ready.remote(), timeout=STARTUP_SECONDS)
    except (ray.exceptions.RayError, RuntimeError) as err:
        ray.kill(handle, no_restart=True)
        first = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
        raise RuntimeError(f"cannot serve HTTP on {host}:{port}: {first}") from err
    _STARTED[ingress_name(cfg)] = (handle, cfg.ray.namespace)


def stop_http(cfg: Config | None = None) -> bool:
    """End the HTTP ingress of `cfg`'s namespace (None: those this driver started);
    whether one was running."""
    if cfg is None:
        found = [_STARTED.pop(name) for name in list(_STARTED)]
    elif ingress_name(cfg) in _STARTED:  # its handle: dropping the last one ends the actor
        found = [_STARTED.pop(ingress_name(cfg))]
    else:
        try:
            found = [(ray.get_actor(ingress_name(cfg), namespace=cfg.ray.namespace), "")]
        except ValueError:
            found = []
    for handle, _ in found:
        with contextlib.suppress(ray.exceptions.RayError):  # already gone
            ray.get(handle.stop.remote(), timeout=STARTUP_SECONDS)
        ray.kill(handle, no_restart=True)
    return bool(found)
