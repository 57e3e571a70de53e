"""A real HTTP server on 127.0.0.1 for the tests of our HTTP clients (no mocks of our code)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

S = TypeVar("S", bound=ThreadingHTTPServer)


@contextmanager
def running(server: S) -> Iterator[S]:
    """Serve in a daemon thread for the `with` block, then shut down and close the socket."""
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def base_url(server: ThreadingHTTPServer) -> str:
    """The OpenAI-compatible base URL of a server started by `running`."""
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ChatHandler(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat completions endpoint: `answer` (of the request body) is the
    message content of a 200 reply."""

    def answer(self, body: dict[str, Any]) -> str:
        raise NotImplementedError

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        content = self.answer(body)
        payload = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        """Keep test output quiet."""
