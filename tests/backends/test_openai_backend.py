"""OpenAIExtractor against a real HTTP server on 127.0.0.1 that plays scripted answers."""

from __future__ import annotations

import json
import re
import threading
import time
from contextlib import AbstractContextManager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from arborwiki.backends.openai_backend import EndpointError, OpenAIExtractor, TransientHTTPError
from arborwiki.core.config import ExtractConfig
from arborwiki.core.extract.rules import RuleExtractor
from tests.core.extract_windows import make_window, valid_output
from tests.local_http import base_url, running

Reply = tuple[int, str]  # HTTP status, assistant content (or raw error body)
TAG = re.compile(r"\[(w\d+)-m0\]")


class ScriptedServer(ThreadingHTTPServer):
    """Answers window wN's k-th request with plan[wN][k]; records bodies and peak load."""

    daemon_threads = True

    def __init__(self, plan: dict[str, list[Reply]], delay_s: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), ScriptedHandler)
        self.plan = plan
        self.delay_s = delay_s
        self.bodies: list[dict] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.peak_in_flight = 0

    def next_reply(self, body: dict) -> Reply:
        tag = TAG.search(body["messages"][1]["content"]).group(1)
        with self.lock:
            self.bodies.append(body)
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            reply = self.plan[tag].pop(0)
        time.sleep(self.delay_s)
        with self.lock:
            self.in_flight -= 1
        return reply


class ScriptedHandler(BaseHTTPRequestHandler):
    server: ScriptedServer

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        assert self.path == "/v1/chat/completions"
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        status, content = self.server.next_reply(body)
        if status == 200:
            payload = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        else:
            payload = content.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        """Keep test output quiet."""


def serve(
    plan: dict[str, list[Reply]], delay_s: float = 0.0
) -> AbstractContextManager[ScriptedServer]:
    return running(ScriptedServer(plan, delay_s))


def extractor(server: ScriptedServer, **overrides: object) -> OpenAIExtractor:
    cfg = ExtractConfig(backend="openai", model="tiny", base_url=base_url(server), **overrides)
    return OpenAIExtractor(cfg, backoff_base_s=0.01)


def ok(tag: str) -> Reply:
    return 200, valid_output(tag)


def test_scripted_run_retries_repairs_and_falls_back() -> None:
    plan = {
        "w0": [ok("w0")],
        "w1": [(503, "busy"), ok("w1")],
        "w2": [(200, "not json at all"), ok("fixed")],
        "w3": [(200, "{}"), (429, "slow down"), (200, '{"summary": 5}')],
        "w4": [ok("w4")],
    }
    windows = [make_window(i) for i in range(5)]
    with serve(plan) as server:
        ex = extractor(server, max_concurrency=2, temperature=0.0, max_tokens=64)
        drafts = ex.extract(windows)
        assert [d.summary for d in drafts][:3] == ["summary w0", "summary w1", "summary fixed"]
        assert drafts[3] == RuleExtractor(ExtractConfig()).extract([windows[3]])[0]
        assert drafts[4].summary == "summary w4"
        assert ex.last_extractors == [
            "openai",
            "openai",
            "openai-repaired",
            "rules-fallback",
            "openai",
        ]
        assert ex.stats == {"ok": 3, "repaired": 1, "fallback": 1}
        assert all(not replies for replies in plan.values())  # every scripted reply was used
        assert len(server.bodies) == 9
        assert server.peak_in_flight <= 2
        body = server.bodies[0]
        assert (body["model"], body["temperature"], body["max_tokens"]) == ("tiny", 0.0, 64)
        assert body["response_format"]["type"] == "json_schema"
        schema = body["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["summary"]["pattern"] == r"^[^\x00-\x1f]*$"


def test_concurrency_is_bounded_but_used() -> None:
    plan = {f"w{i}": [ok(f"w{i}")] for i in range(8)}
    with serve(plan, delay_s=0.05) as server:
        drafts = extractor(server, max_concurrency=3).extract([make_window(i) for i in range(8)])
        assert len(drafts) == 8
        assert server.peak_in_flight == 3


def test_client_error_fails_fast_without_retry() -> None:
    plan = {"w0": [(400, "unknown model"), ok("w0")]}
    with serve(plan) as server:
        with pytest.raises(EndpointError, match="HTTP 400"):
            extractor(server, max_retries=3).extract([make_window(0)])
        assert len(server.bodies) == 1


def test_transient_errors_give_up_after_max_retries() -> None:
    plan = {"w0": [(503, "busy")] * 3 + [ok("w0")]}
    with serve(plan) as server:
        with pytest.raises(TransientHTTPError, match="HTTP 503"):
            extractor(server, max_retries=2).extract([make_window(0)])
        assert len(server.bodies) == 3  # first try + 2 retries


def test_unreachable_server_is_transient() -> None:
    with serve({}) as server:
        port = server.server_address[1]
    cfg = ExtractConfig(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1)
    with pytest.raises(TransientHTTPError, match="cannot reach"):
        OpenAIExtractor(cfg, backoff_base_s=0.01).extract([make_window(0)])
