"""HTTP load for `benchmarks/query_latency.py`: N callers, each with its own kept-alive
connection, each sending M `POST /query`; throughput, latency percentiles, status counts.

Why threads with `http.client`: one persistent connection per caller, as an agent process
holds one, and no client library between the measurement and the socket. The callers share
the machine with the server (2 cores), so the client must cost little per request.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class LoadResult:
    callers: int
    seconds: float
    latencies: list[float] = field(default_factory=list)  # seconds per call
    statuses: Counter[int] = field(default_factory=Counter)  # a refused connection: 0

    @property
    def calls(self) -> int:
        return sum(self.statuses.values())


def _caller(
    host: str,
    port: int,
    jobs: list[tuple[str, str]],
    budget: int,
    headers: dict[str, str],
    start: threading.Barrier,
    out: LoadResult,
    lock: threading.Lock,
) -> None:
    connection = http.client.HTTPConnection(host, port, timeout=60)
    latencies, statuses = [], Counter()
    start.wait()
    for user, question in jobs:
        body = json.dumps({"user_id": user, "question": question, "budget_tokens": budget})
        began = time.perf_counter()
        try:
            connection.request("POST", "/query", body, headers)
            reply = connection.getresponse()
            reply.read()
            status = reply.status
        except (OSError, http.client.HTTPException):
            connection.close()  # reconnects on the next request
            status = 0
        latencies.append(time.perf_counter() - began)
        statuses[status] += 1
    connection.close()
    with lock:
        out.latencies += latencies
        out.statuses.update(statuses)


def http_load(
    url: tuple[str, int],
    users: list[str],
    questions: list[str],
    callers: int,
    per_caller: int,
    budget: int,
    token: str | None,
) -> LoadResult:
    """`callers` threads × `per_caller` queries on random (user, question) pairs."""
    rng = random.Random(17 + callers)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    out = LoadResult(callers, 0.0)
    lock, start = threading.Lock(), threading.Barrier(callers + 1)
    threads = [
        threading.Thread(
            target=_caller,
            args=(
                *url,
                [(rng.choice(users), rng.choice(questions)) for _ in range(per_caller)],
                budget,
                headers,
                start,
                out,
                lock,
            ),
        )
        for _ in range(callers)
    ]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    out.seconds = time.perf_counter() - began
    return out
