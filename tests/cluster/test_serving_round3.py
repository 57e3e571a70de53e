"""Serving, round 3 (issue 48 items 7, 9, 10), over real sockets as a caller sees it: who may
ask (Host, Origin, bearer token on every route), which cluster a command acts on, bounds on
every request field with JSON errors, and the ingress holding as many requests as callers."""

from __future__ import annotations

import base64
import http.client
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import ray
from pydantic import ValidationError
from typer.testing import CliRunner

import arborwiki
from arborwiki.cluster.http_access import MAX_BODY_BYTES
from arborwiki.cluster.http_server import start_http, stop_http
from arborwiki.cluster.query_actor import QUERY_ACTOR, replica_names, start_query_replicas
from arborwiki.core.config import Config, load_config
from arborwiki.jobs.cli import app
from arborwiki.mcp_server import served_memory_server
from tests.conftest import SAMPLE_SETTINGS
from tests.local_http import free_port

TOKEN = "round3-token-0123456789abcdef"
run = CliRunner().invoke  # in-process: each of these fails before any Ray or socket is touched
QUERY = {"user_id": "bob", "question": "Which book is Bob reading?"}
ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/health", None),
    ("POST", "/query", QUERY),
    ("POST", "/localize", {"user_id": "bob", "turn_text": "back to the book"}),
    ("GET", "/history?user_id=bob&about=book", None),
    ("GET", "/pages?user_id=bob", None),
    ("GET", "/ui/bob/", None),
    ("GET", "/openapi.json", None),
    ("POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
]


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(
        overrides=[
            *SAMPLE_SETTINGS,
            "ray.namespace=round3-serving",
            "ray.query_replicas=2",
        ]
    )


@pytest.fixture(scope="module")
def url(sample_store: Path, cfg: Config) -> Iterator[str]:
    """One ingress for the module, loopback with a token (opt-in there)."""
    start_query_replicas(str(sample_store.resolve()), cfg, detached=False)
    port = free_port()
    start_http(cfg, "127.0.0.1", port, mcp=served_memory_server, token=TOKEN)
    yield f"http://127.0.0.1:{port}"
    stop_http()
    for name in replica_names(cfg):
        ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace))


def send(
    url: str, method: str, path: str, body: Any = None, raw: bytes | None = None, **headers: str
) -> tuple[int, dict[str, str], Any]:
    """(status, headers, body: JSON when the reply says so) of one request."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    heads = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if data is not None and len(data) > MAX_BODY_BYTES:
        return _send_expecting(url, method, path, data, heads | headers)
    request = urllib.request.Request(url + path, data=data, method=method, headers=heads)
    for name, value in headers.items():
        request.add_header(name.replace("_", "-"), value)
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            status, got, payload = reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as exc:
        status, got, payload = exc.code, dict(exc.headers), exc.read()
    if "json" in got.get("content-type", ""):
        return status, got, json.loads(payload)
    return status, got, payload


def _send_expecting(
    url: str, method: str, path: str, data: bytes, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    """A body over the limit sent as curl sends a large one: headers with `Expect:
    100-continue`, the body only after a 100. The server's refusal (413) comes first; sending
    2 MB into a connection it already closed would be a broken pipe, not an answer."""
    host, port = urllib.parse.urlsplit(url).netloc.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    connection.putrequest(method, path)
    for name, value in headers.items():
        connection.putheader(name.replace("_", "-"), value)
    connection.putheader("Content-Length", str(len(data)))
    connection.putheader("Expect", "100-continue")
    connection.endheaders()
    reply = connection.getresponse()  # a final status: the body was never asked for
    status, got, payload = reply.status, dict(reply.headers), reply.read()
    connection.close()
    return status, got, json.loads(payload) if "json" in got.get("content-type", "") else payload


def bearer(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- item 7: who may ask ---------------------------------------------------------------------


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_a_foreign_host_or_origin_is_refused_on_every_route(
    url: str, method: str, path: str, body: Any
) -> None:
    """A DNS-rebinding page names its own Host; a cross-site page its own Origin."""
    status, _, reply = send(url, method, path, body, Host="evil.example", **bearer())
    assert (status, set(reply)) == (421, {"error"}), reply
    status, _, reply = send(url, method, path, body, Origin="http://evil.example", **bearer())
    assert (status, set(reply)) == (403, {"error"}), reply
    status, _, reply = send(url, method, path, body, Origin="http://localhost:3000", **bearer())
    assert status == 200, (path, reply)


@pytest.mark.parametrize(("method", "path", "body"), ROUTES[1:])
def test_every_route_but_health_asks_for_the_token(
    url: str, method: str, path: str, body: Any
) -> None:
    for headers in ({}, bearer("wrong-token-0123456789abcdef"), {"Authorization": TOKEN}):
        status, got, reply = send(url, method, path, body, **headers)
        assert (status, set(reply)) == (401, {"error"}), (path, headers, reply)
        assert "realm" in got.get("www-authenticate", "")
    status, _, reply = send(url, method, path, body, **bearer())
    assert status == 200, (path, reply)


def test_health_needs_no_token_and_a_browser_sends_it_as_basic(url: str) -> None:
    assert send(url, "GET", "/health")[0] == 200
    status, got, _ = send(url, "GET", "/ui/bob/")
    assert status == 401 and got["www-authenticate"].startswith("Basic")
    basic = base64.b64encode(f"anyone:{TOKEN}".encode()).decode()
    status, got, page = send(url, "GET", "/ui/bob/", Authorization=f"Basic {basic}")
    assert status == 200 and b"bob" in page


def own_lines(stderr: str) -> list[str]:
    """The command's own stderr lines: this module's ingress runs in the test process's Ray,
    which forwards its actors' log lines ("(HttpIngress pid=…) …") to the same stderr."""
    forwarded = re.compile(r"^(\x1b\[\d+m)?\(\w+ pid=\d+")
    return [line for line in stderr.strip().splitlines() if not forwarded.match(line)]


def test_binding_beyond_loopback_without_a_token_is_refused_before_anything_starts(
    tmp_path: Path,
) -> None:
    served = ["serve", "--store", str(tmp_path), "--http-port", "8123"]
    result = run(app, [*served, "--http-host", "0.0.0.0", "--set", "ray.address=127.0.0.1:1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert own_lines(result.stderr) == [
        "error: HTTP on 0.0.0.0 is reachable from other machines: give a bearer token "
        "(--token-file FILE or ARBORWIKI_TOKEN), or bind 127.0.0.1"
    ]
    short = tmp_path / "token"
    short.write_text("abc\n")
    result = run(app, [*served, "--token-file", str(short)])
    assert "must hold one token of at least 16 characters" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["stop"],
        ["query", "--store", "S", "--user", "bob", "Which book?"],
        ["mcp", "--store", "S", "--ray-address", "local"],
    ],
)
def test_commands_on_running_actors_need_a_named_cluster(args: list[str]) -> None:
    """No silent `auto`: unset never means "whatever Ray runs on this machine"."""
    result = run(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = own_lines(result.stderr)
    assert line.startswith(f"error: `arborwiki {args[0]}` acts on the Ray cluster `serve` runs on")


# --- item 9: bounds on every field, JSON errors -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "status", "says"),
    [
        ("/query", {**QUERY, "k": 10**9}, 422, "body.k: Input should be less than or equal"),
        ("/query", {**QUERY, "budget_tokens": 10**30}, 422, "body.budget_tokens"),
        ("/query", {**QUERY, "k": True}, 422, "body.k: Input should be a valid integer"),
        ("/query", {**QUERY, "k": "5"}, 422, "body.k: Input should be a valid integer"),
        ("/query", {**QUERY, "question": "q" * 8_001}, 422, "body.question: String should have"),
        ("/query", {**QUERY, "user_id": "u" * 1_025}, 422, "body.user_id: String should have"),
        ("/query", {**QUERY, "user": "bob"}, 422, "body.user: Extra inputs are not permitted"),
        ("/query", {**QUERY, "user_id": "u" * 2_000_000}, 413, "request body over 65536 bytes"),
        ("/query", {**QUERY, "question": "q" * 2_400_000}, 413, "request body over"),
        ("/localize", {"user_id": "bob", "turn_text": "t" * 8_001}, 422, "body.turn_text"),
        ("/mcp", {"jsonrpc": "2.0", "id": 1, "pad": "x" * 100_000}, 413, "request body over"),
    ],
)
def test_out_of_bounds_bodies_get_json_errors(
    url: str, path: str, body: Any, status: int, says: str
) -> None:
    got, _, reply = send(url, "POST", path, body, **bearer())
    assert got == status and set(reply) == {"error"} and says in reply["error"], reply


def test_out_of_bounds_query_strings_and_chunked_bodies_get_json_errors(url: str) -> None:
    status, _, reply = send(url, "GET", f"/history?user_id=bob&about={'a' * 8_001}", **bearer())
    assert status == 422 and "query.about" in reply["error"]
    status, _, reply = send(url, "GET", f"/history?user_id=bob&about={'a' * 100_000}", **bearer())
    assert status == 400 and reply["error"].startswith("malformed HTTP request")  # the parser's
    status, _, reply = send(url, "GET", "/ui/" + "u" * 1_025 + "/", **bearer())
    assert status == 422 and "path.user_id" in reply["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the size is counted as it arrives
        yield b'{"user_id": "bob", "question": "'
        for _ in range(40):
            yield b"q" * 4_096
        yield b'"}'

    for _ in range(10):  # the 413 must beat the client's last chunk every time, not by luck
        request = urllib.request.Request(url + "/query", data=chunks(), method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Bearer {TOKEN}")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        assert refused.value.code == 413 and "error" in json.loads(refused.value.read())


def test_python_api_and_mcp_tools_take_the_same_bounds(sample_store: Path) -> None:
    store = arborwiki.open_store(sample_store, overrides=SAMPLE_SETTINGS)
    for bad in ({"k": True}, {"k": 10**9}, {"budget_tokens": 10**30}):
        with pytest.raises(ValidationError):
            store.query("bob", "Which book?", **bad)
    with pytest.raises(ValidationError):
        store.query("u" * 2_000_000, "Which book?")
    with pytest.raises(ValidationError):
        store.localize("bob", "t" * 8_001)
    assert store.query("bob", "Which book?", k=3, budget_tokens=300).evidence


def test_the_cli_query_bounds_are_one_line(sample_store: Path) -> None:
    result = run(app, ["query", "--local", "--store", str(sample_store), "--user", "bob",
                       "--k", "1000000000", "Which book?"])  # fmt: skip
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert own_lines(result.stderr) == [
        "error: invalid request: k: Input should be less than or equal to 200"
    ]


# --- item 10: the ingress holds as many requests as callers send --------------------------------


def test_32_callers_are_answered_in_one_hop_without_the_serve_proxy(url: str, cfg: Config) -> None:
    """The collapse came from Ray Serve's proxy path (5 requests held by the ingress, the rest
    retried in the proxy; a streaming actor call per request). Now uvicorn runs in one named
    actor that calls the query replicas itself: no Serve controller or proxy exists. Speed
    itself is measured in benchmarks/query_latency.py, not here."""
    from ray.serve._private.constants import SERVE_CONTROLLER_NAME, SERVE_NAMESPACE

    with pytest.raises(ValueError):
        ray.get_actor(SERVE_CONTROLLER_NAME, namespace=SERVE_NAMESPACE)
    assert ray.get_actor(f"{QUERY_ACTOR}-http", namespace=cfg.ray.namespace)

    def ask(i: int) -> int:
        body = {"user_id": ("alice", "bob")[i % 2], "question": "Where?", "budget_tokens": 300}
        return send(url, "POST", "/query", body, **bearer())[0]

    with ThreadPoolExecutor(32) as pool:
        assert list(pool.map(ask, range(64))) == [200] * 64
    with ThreadPoolExecutor(32) as pool:
        no_token = list(pool.map(lambda _: send(url, "POST", "/query", QUERY)[0], range(64)))
    assert no_token == [401] * 64
