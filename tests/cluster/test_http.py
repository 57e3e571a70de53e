"""HTTP serving end to end: real Ray Serve, real query actors, real Lance, real sockets."""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.http_server import start_http, stop_http
from arborwiki.cluster.query_actor import replica_names, start_query_actor
from arborwiki.cluster.query_client import IDLE_SECONDS, QueryClient, _Call
from arborwiki.core.config import Config, load_config
from arborwiki.core.query.result import RESPONSES, PagesResult, QueryResult
from arborwiki.mcp_server import served_memory_server
from arborwiki.storage.lance_store import LanceStore
from tests.conftest import EXAMPLES
from tests.local_http import free_port
from tests.openapi import openapi_components

QUERY_KEYS = {
    "user_id",
    "question",
    "pages",
    "candidate_trajectories",
    "trajectories",
    "evidence",
    "claims",
    "context_tokens",
}
LOCALIZE_KEYS = {
    "user_id",
    "turn",
    "decision",
    "node_id",
    "trajectory_id",
    "title",
    "score",
    "stage",
    "reason",
    "path",
    "evidence",
    "turn_extractor",
    "stored_extractors",
    "note",
}
NEW_MESSAGE = {
    "user_id": "alice",
    "conversation_id": "alice-main",
    "session_id": "s07",
    "message_id": "alice-100",
    "timestamp": "2024-11-02T09:00:00Z",
    "role": "user",
    "speaker": "Alice",
    "text": "Big news: I adopted a grey parrot called Zephyrine from the Hillsboro shelter.",
}


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(
        overrides=[
            "ray.num_shards=2",
            "ray.namespace=arborwiki-http-tests",
            "ray.query_replicas=2",
        ]
    )


@pytest.fixture(scope="module")
def built(ray_local: None, cfg: Config, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    root = tmp_path_factory.mktemp("http")
    archive = root / "archive.jsonl"
    shutil.copy(EXAMPLES / "sample_archive.jsonl", archive)
    store = root / "store"
    run_build(str(archive), str(store), cfg)
    return archive, store


@pytest.fixture(scope="module")
def base_url(built: tuple, cfg: Config) -> Iterator[str]:
    _, store = built
    port = free_port()
    start_query_actor(str(store), cfg, detached=False, refresh_seconds=0.5)
    start_http(cfg, "127.0.0.1", port, mcp=served_memory_server)
    yield f"http://127.0.0.1:{port}"
    stop_http()
    for name in replica_names(cfg):
        ray.kill(ray.get_actor(name, namespace=cfg.ray.namespace))


def call(url: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    """(status, decoded JSON) for a GET, or a POST when a body is given."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert reply.headers.get_content_type() == "application/json"
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        assert exc.headers.get_content_type() == "application/json"
        text = exc.read().decode()
        assert "Traceback" not in text
        return exc.code, json.loads(text)


def own_ids(store: Path, user: str) -> set[str]:
    rows = LanceStore(store).rows("messages", user, columns=["message_id"])
    return {r["message_id"] for r in rows}


def test_health_reports_every_replica(base_url: str) -> None:
    assert call(f"{base_url}/health") == (200, {"status": "ok", "replicas": 2})


def test_query_cites_only_the_callers_messages(base_url: str, built: tuple) -> None:
    _, store = built
    body = {"user_id": "bob", "question": "Which book is Bob reading?", "k": 5}
    status, result = call(f"{base_url}/query", {**body, "budget_tokens": 300})
    assert status == 200 and set(result) == QUERY_KEYS, result
    cited = {e["message_id"] for e in result["evidence"]}
    assert cited and cited <= own_ids(store, "bob")
    assert all(m.startswith("bob-") for m in cited)
    assert result["user_id"] == "bob" and result["context_tokens"] <= 300
    assert [e["rank"] for e in result["evidence"]] == list(range(len(result["evidence"])))
    assert QueryResult.model_validate(result).model_dump(mode="json") == result


def test_pages_are_the_callers_wiki(base_url: str) -> None:
    status, pages = call(f"{base_url}/pages?user_id=bob")
    assert status == 200, pages
    wiki = PagesResult.model_validate(pages)
    assert wiki.user_id == "bob" and wiki.pages[0].kind == "index"
    assert call(f"{base_url}/pages?user_id=nobody") == (200, {"user_id": "nobody", "pages": []})


def test_served_openapi_carries_the_response_models(base_url: str) -> None:
    """What the running ingress serves, not only the app object (tests/test_response_schemas)."""
    status, spec = call(f"{base_url}/openapi.json")
    assert status == 200
    for model in RESPONSES.values():
        for name, part in openapi_components(model).items():
            assert spec["components"]["schemas"][name] == part, name


def test_mcp_tools_over_streamable_http(base_url: str) -> None:
    """The same tools as `arborwiki mcp`, at /mcp, through the query actors; unscoped."""
    import anyio
    from mcp import Client

    async def session() -> tuple[Any, Any, Any]:
        async with Client(f"{base_url}/mcp") as client:
            tools = await client.list_tools()
            bob = await client.call_tool(
                "search_memory", {"question": "Which book is Bob reading?", "user_id": "bob"}
            )
            anonymous = await client.call_tool("search_memory", {"question": "Which book?"})
            return tools, bob, anonymous

    tools, bob, anonymous = anyio.run(session)
    assert {t.name for t in tools.tools} == {  # no forget_memory: serve without --allow-forget
        "search_memory",
        "add_memory",
        "localize_turn",
        "belief_history",
        "read_page",
    }
    result = QueryResult.model_validate(bob.structured_content)
    assert result.evidence and all(e.message_id.startswith("bob-") for e in result.evidence)
    assert anonymous.is_error and "user_id is required" in anonymous.content[0].text


def test_unknown_user_gets_empty_evidence(base_url: str) -> None:
    status, result = call(f"{base_url}/query", {"user_id": "nobody", "question": "Where?"})
    assert status == 200
    assert (result["evidence"], result["pages"], result["trajectories"]) == ([], [], [])


def message_ids_in(payload: Any) -> set[str]:
    """Every message id anywhere in a JSON answer (lists under *message_ids / message_id)."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "message_id":
                found.add(value)
            elif key.endswith("message_ids"):
                found.update(value)
            else:
                found |= message_ids_in(value)
    elif isinstance(payload, list):
        for item in payload:
            found |= message_ids_in(item)
    return found


def test_localize_places_the_turn_in_the_callers_forest(base_url: str, built: tuple) -> None:
    _, store = built
    turn = {"user_id": "alice", "turn_text": "Back to marathon training: my long run went well."}
    status, located = call(f"{base_url}/localize", turn)
    assert status == 200, located
    assert set(located) == LOCALIZE_KEYS
    assert located["user_id"] == "alice" and located["decision"] in {"CONTINUE", "NEW"}
    cited = message_ids_in(located)
    assert cited and cited <= own_ids(store, "alice")
    status, in_session = call(f"{base_url}/localize", {**turn, "session_id": "no-such-session"})
    assert status == 200 and in_session["decision"] == located["decision"]  # not the latest


def test_history_answers_with_the_callers_claims(base_url: str, built: tuple) -> None:
    _, store = built
    query = urllib.parse.urlencode({"user_id": "alice", "about": "marathon"})
    status, history = call(f"{base_url}/history?{query}")
    assert status == 200, history
    assert set(history) == {"user_id", "about", "chains"}
    assert (history["user_id"], history["about"]) == ("alice", "marathon")
    assert message_ids_in(history) <= own_ids(store, "alice")


def test_client_sends_a_query_to_the_idle_replica_and_a_write_to_its_users(
    base_url: str, cfg: Config
) -> None:
    client = QueryClient.connect(cfg)
    assert len(client.replicas) == 2
    live = [0, 1]
    ask = _Call("query", ("alice", "Where does Alice live?"))
    busy = client._pick(live, ask)
    client._running[busy] += 1
    assert client._pick(live, ask) == 1 - busy  # the other one: fewer calls running
    assert client._pick(live, ask) == 1 - busy
    add = _Call("add", ("alice", [{"text": "I moved."}]))
    home = client._pick(live, add)  # a write goes to its user's replica, busy or not
    assert [client._pick(live, add) for _ in range(4)] == [home] * 4
    homes = {client._pick(live, _Call("add", (f"user-{i}", []))) for i in range(16)}
    assert homes == {0, 1}  # users spread over the replicas
    assert client._pick([1], add) == 1  # the one replica left takes every user
    client._running[busy] -= 1
    picks = [client._pick(live, ask) for _ in range(4)]
    assert picks in ([0, 1, 0, 1], [1, 0, 1, 0])  # with equal load, calls rotate


def test_concurrent_calls_share_round_trips_and_fail_alone(base_url: str, cfg: Config) -> None:
    """32 callers at once: each gets its own answer, a bad question fails only its caller,
    and the calls went out in fewer actor calls than there were calls."""
    client = QueryClient.connect(cfg)
    questions = [("alice", "Where does Alice live?"), ("bob", "Does Bob eat meat?")] * 16
    questions[7] = ("bob", "   ")  # the service's own check: a ValueError for this caller only
    with ThreadPoolExecutor(32) as pool:
        futures = [pool.submit(client.query, user, q) for user, q in questions]
    for i, (future, (user, question)) in enumerate(zip(futures, questions, strict=True)):
        if i == 7:
            with pytest.raises(ValueError, match="question"):
                future.result()
            continue
        answer = future.result()
        assert (answer["user_id"], answer["question"]) == (user, question)
    assert client.sent["calls"] == len(questions)
    assert client.sent["batches"] < len(questions)
    with pytest.raises(ValueError, match="not a query actor method: 'batch'"):
        client.call("batch", [])
    deadline = time.time() + 10 * IDLE_SECONDS
    while client._dispatcher is not None and time.time() < deadline:
        time.sleep(0.1)
    assert client._dispatcher is None  # idle: its answering thread ended
    assert client.query("bob", "Does Bob eat meat?")["user_id"] == "bob"  # and comes back


@pytest.mark.parametrize(
    ("path", "body", "expected"),
    [
        ("/query", {"question": "Where?"}, 422),  # no user_id
        ("/query", {"user_id": "", "question": "Where?"}, 422),
        ("/query", {"user_id": "bob", "question": "Where?", "k": 0}, 422),
        ("/query", {"user_id": "bob", "question": "   "}, 400),  # the service's own check
        ("/localize", {"turn_text": "hello"}, 422),
        ("/history?about=books", None, 422),
        ("/history?user_id=bob", None, 422),
        ("/history?user_id=bob&about=%20", None, 400),
        ("/localize", {"user_id": "bob", "turn_text": " "}, 400),
        ("/localize", {"user_id": "bob", "turn_text": "hi", "session_id": ""}, 422),
    ],
)
def test_bad_requests_get_json_errors(
    base_url: str, path: str, body: dict | None, expected: int
) -> None:
    status, payload = call(f"{base_url}{path}", body)
    assert status == expected and payload
    if expected == 400:  # the service's own message, one line, no traceback
        assert payload["error"].endswith("is empty") and "\n" not in payload["error"]


def test_malformed_json_is_a_422(base_url: str) -> None:
    status, _ = call(f"{base_url}/query", raw=b"{not json")
    assert status == 422


@pytest.mark.parametrize(
    ("path", "raw", "field"),
    [
        ("/query", b'{"user_id": "\\ud800", "question": "Where?"}', "user_id"),
        ("/query", b'{"user_id": "bob", "question": "Wh\\udfffere?"}', "question"),
        ("/localize", b'{"user_id": "bob", "turn_text": "\\ud83d hi"}', "turn_text"),
    ],
)
def test_lone_surrogates_are_a_json_422(base_url: str, path: str, raw: bytes, field: str) -> None:
    """Issue 13 item 6: these were 500s with a plain-text body."""
    status, payload = call(f"{base_url}{path}", raw=raw)
    assert status == 422
    assert field in payload["error"] and "unicode" in payload["error"].lower()
    assert "\n" not in payload["error"]


@pytest.mark.parametrize(
    ("method", "path", "expected"), [("GET", "/nope", 404), ("DELETE", "/query", 405)]
)
def test_unknown_routes_answer_in_json(
    base_url: str, method: str, path: str, expected: int
) -> None:
    request = urllib.request.Request(f"{base_url}{path}", method=method)
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(request, timeout=30)
    assert info.value.code == expected
    assert info.value.headers.get_content_type() == "application/json"
    assert json.loads(info.value.read())["error"]


def test_rebuilt_store_is_served_without_restart(base_url: str, built: tuple, cfg: Config) -> None:
    """A new message for alice, rebuilt into the same store, shows up in answers."""
    archive, store = built
    question = {"user_id": "alice", "question": "What is the parrot Zephyrine?", "k": 5}
    _, before = call(f"{base_url}/query", question)
    assert "alice-100" not in {e["message_id"] for e in before["evidence"]}
    with archive.open("a") as out:
        out.write(json.dumps(NEW_MESSAGE) + "\n")
    assert run_build(str(archive), str(store), cfg).committed
    deadline, cited = time.time() + 15, set()
    while time.time() < deadline and "alice-100" not in cited:
        _, after = call(f"{base_url}/query", question)
        cited = {e["message_id"] for e in after["evidence"]}
        time.sleep(0.25)
    assert "alice-100" in cited
