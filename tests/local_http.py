"""A real HTTP server on 127.0.0.1 for the tests of our HTTP clients (no mocks of our code)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from typing import TypeVar

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
