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
from pathlib import Path


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


def main() -> None:
    """Load any running server, e.g. an older checkout's `serve`, for a before/after in one
    sitting: `python -m benchmarks.http_load --port 8765 --archive /tmp/ql-archive.parquet`."""
    import argparse
    import os

    import numpy as np
    import pyarrow.parquet as pq

    from benchmarks.query_latency import QUESTIONS

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--archive", type=Path, required=True, help="Parquet archive: its users")
    parser.add_argument("--callers", type=int, nargs="+", default=[4, 8, 16, 32])
    parser.add_argument("--per-caller", type=int, default=50)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--token", default=None, help="bearer token, if the server wants one")
    parser.add_argument("--label", default="POST /query")
    args = parser.parse_args()
    users = sorted(set(pq.read_table(args.archive, columns=["user_id"])["user_id"].to_pylist()))
    url = ("127.0.0.1", args.port)
    http_load(url, users, QUESTIONS, 4, 10, args.budget, args.token)  # warm
    for n in args.callers:
        r = http_load(url, users, QUESTIONS, n, args.per_caller, args.budget, args.token)
        p50, p95, p99 = np.percentile(np.asarray(r.latencies) * 1000.0, [50, 95, 99])
        bad = sum(v for k, v in r.statuses.items() if k != 200)
        print(
            f"| {args.label} | {n} | {r.calls} | {r.calls / r.seconds:.1f} | {p50:.1f} "
            f"| {p95:.1f} | {p99:.1f} | {bad} | {os.getloadavg()[0]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
