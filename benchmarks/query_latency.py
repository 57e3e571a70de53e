"""Benchmark: serving latency of context retrieval (`query`) and `localize` through Ray actors.

Builds (or reuses, `--store`) a store of synthetic users (200 messages each by default),
starts the query actor replicas, warms them (every user asked once per replica: the
reader's per-user cache is full, the steady state of a serving replica; with `--users` above
`store.reader_cache_users` most calls read cold, which is what that measures), then times calls
end to end (driver → `ray.get` → actor → Lance) for one caller and for `--concurrency`
threads, and prints p50/p95/p99 and the replicas' CPU per call (their processes' user +
system time, Lance's threads included, read with psutil). In process it also times every
user's first question (cold: the cache fills) and then `--inprocess` questions on warm users,
with `time.process_time` per question. `--profile` runs cProfile over in-process queries.
`--http 4 8 16 32` also starts the HTTP ingress (`arborwiki serve --http-port`'s, MCP
mounted) over the last replica count and times `POST /query` from that many callers, each
sending `--http-per-caller` questions on its own kept-alive connection with the bearer
token (`benchmarks/http_load.py`): queries/s, p50/p95/p99 and every non-200 answer; then the
largest caller count once more without the token (every answer must be a 401).

    python -m benchmarks.query_latency --users 500 --store /tmp/bench-store --write
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import platform
import pstats
import random
import secrets
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psutil
import pyarrow.parquet as pq
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.http_server import start_http, stop_http
from arborwiki.cluster.local_service import open_service
from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.cluster.query_client import QueryClient
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import Config, load_config
from arborwiki.core.schema import messages_to_table
from arborwiki.mcp_server import served_memory_server
from arborwiki.synthetic import generate_archive
from benchmarks.http_load import http_load

BUILD_NOTE = "_bench_build.txt"  # how long the build took, kept for reruns with --store
RESULTS = Path(__file__).resolve().parent / "results" / "query_latency.md"
QUESTIONS = [
    "When is the mortgage paperwork due?",
    "What is my marathon goal time now?",
    "Which book are we reading in the book club?",
    "How is the dog doing after the vet visit?",
    "Where am I moving to?",
    "What did I say about the new job?",
]
TURNS = [
    "Back to the house move, the movers called again.",
    "My long run this weekend went well.",
    "Anyway, the book club meets on Thursday.",
    "The vet said the medication is working.",
]
Call = Callable[[str, str], object]  # (user_id, text) → answer


def build_store(store: Path, users: int, sessions: int, turns: int, cfg: Config) -> float:
    """Synthetic archive (truth labels stripped) → Parquet → run_build; returns seconds."""
    messages = generate_archive(users, seed=0, sessions=sessions, turns_per_session=turns)
    clean = [m.model_copy(update={"extra": {}}) for m in messages]
    store.mkdir(parents=True, exist_ok=True)
    archive = store.parent / f"{store.name}-archive.parquet"
    pq.write_table(messages_to_table(clean), archive)
    started = time.perf_counter()
    summary = run_build(str(archive), str(store), cfg)
    seconds = time.perf_counter() - started
    print(f"build: {summary.line()} ({len(clean)} messages, {seconds:.1f} s)")
    (store / BUILD_NOTE).write_text(f"{seconds:.0f} s ({summary.line()})")
    return seconds


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ms = np.asarray(samples) * 1000.0
    return tuple(float(np.percentile(ms, p)) for p in (50, 95, 99))  # type: ignore[return-value]


def timed(call: Call, user: str, text: str) -> float:
    started = time.perf_counter()
    call(user, text)
    return time.perf_counter() - started


def run_load(call: Call, users: list[str], texts: list[str], n: int, threads: int) -> list[float]:
    """`n` calls on random (user, text) pairs from `threads` callers; per-call seconds.
    Each caller count draws its own pairs: a phase never finds exactly the users the phase
    before it just asked (with more users than `store.reader_cache_users`, that made the
    32-caller phase of one replica warm by accident)."""
    rng = random.Random(7 + threads)
    jobs = [(rng.choice(users), rng.choice(texts)) for _ in range(n)]
    if threads == 1:
        return [timed(call, u, t) for u, t in jobs]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda job: timed(call, *job), jobs))


def profile(store: Path, cfg: Config, users: list[str], n: int) -> str:
    """cProfile of warm in-process queries (each user asked once before): where the time goes."""
    service = open_service(str(store), cfg)
    for user in users[: min(n, len(users))]:
        service.query(user, QUESTIONS[0])
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(n):
        service.query(users[i % len(users)], QUESTIONS[i % len(QUESTIONS)])
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    return out.getvalue()


def warm(client: QueryClient, users: list[str]) -> None:
    """Every replica answers and localizes for every user once: its per-user caches fill.
    Then each runs a full garbage collection: filling the caches leaves one due (≈ 0.5 s in
    a replica holding 200 users' rows, seen as a 0.5 s stall in whichever phase came next),
    and it belongs to the warm-up, not to the steady state the phases measure."""
    for replica in client.replicas:
        ray.get([replica.query.remote(user, QUESTIONS[0]) for user in users])
        ray.get([replica.localize.remote(user, TURNS[0]) for user in users])
    ray.get([r.__ray_call__.remote(lambda _actor: gc.collect()) for r in client.replicas])


def replica_cpu(client: QueryClient) -> Callable[[], float]:
    """Seconds of CPU the replicas' processes used so far (all their threads)."""
    pids = ray.get([r.__ray_call__.remote(lambda _self: os.getpid()) for r in client.replicas])
    processes = [psutil.Process(pid) for pid in pids]

    def seconds() -> float:
        return sum(p.cpu_times().user + p.cpu_times().system for p in processes)

    return seconds


def row(cells: list[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def measure(
    client: QueryClient, users: list[str], replicas: int, calls: int, concurrency: int
) -> list[str]:
    rows = []
    cpu = replica_cpu(client)
    for name, texts in (("query", QUESTIONS), ("localize", TURNS)):
        method = getattr(client, name)
        for threads in (1, concurrency):
            before = cpu()
            samples = run_load(method, users, texts, calls, threads)
            cpu_ms = (cpu() - before) * 1000.0 / len(samples)
            p50, p95, p99 = percentiles(samples)
            cells = [name, replicas, threads, len(samples), f"{p50:.1f}", f"{p95:.1f}"]
            rows.append(row([*cells, f"{p99:.1f}", f"{cpu_ms:.1f}", load_now()]))
            print(rows[-1], flush=True)
    print(f"client: {client.sent['calls']} calls in {client.sent['batches']} actor calls")
    return rows


HTTP_HEADER = (
    "| route | replicas | concurrent callers | queries | queries/s | p50 ms | p95 ms | p99 ms "
    "| non-200 | load (1 min) |"
)


def measure_http(
    cfg: Config, users: list[str], replicas: int, callers: list[int], args: argparse.Namespace
) -> list[str]:
    """The HTTP ingress over the running replicas, loaded by each caller count in turn."""
    port, token = free_port(), secrets.token_hex(32)
    start_http(cfg, "127.0.0.1", port, mcp=served_memory_server, token=token)
    url = ("127.0.0.1", port)
    rows = []
    try:
        http_load(url, users, QUESTIONS, 4, 10, args.http_budget, token)  # warm
        phases = [(n, token) for n in callers] + [(max(callers), None)]  # the last: no token
        for n, sent in phases:
            per_caller, budget = args.http_per_caller, args.http_budget
            result = http_load(url, users, QUESTIONS, n, per_caller, budget, sent)
            p50, p95, p99 = percentiles(result.latencies)
            others = sorted((s, c) for s, c in result.statuses.items() if s != 200)
            statuses = ", ".join(f"{c} × {s}" for s, c in others)
            rate = f"{result.calls / result.seconds:.1f}"
            route = "POST /query" if sent else "POST /query, no token"
            cells = [route, replicas, n, result.calls, rate]
            cells += [f"{p50:.1f}", f"{p95:.1f}", f"{p99:.1f}", statuses or "0"]
            rows.append(row([*cells, load_now()]))
            print(rows[-1], flush=True)
    finally:
        stop_http()
    return rows


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def load_now() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def in_process(store: Path, cfg: Config, users: list[str], n: int) -> list[str]:
    """Single caller, no Ray: every user's first question (cold cache), then `n` questions
    on warm users; wall p50/p95/p99 and `time.process_time` per question."""
    service = open_service(str(store), cfg)
    service.query(users[0], QUESTIONS[1])  # the embedder and table handles open
    rows = []
    rng = random.Random(11)
    for phase, jobs in (
        ("cold (first question of a user)", [(u, rng.choice(QUESTIONS)) for u in users]),
        ("warm", [(rng.choice(users), rng.choice(QUESTIONS)) for _ in range(n)]),
    ):
        samples = []
        cpu_started = time.process_time()
        for user, question in jobs:
            samples.append(timed(service.query, user, question))
        cpu_ms = (time.process_time() - cpu_started) * 1000.0 / len(jobs)
        p50, p95, p99 = percentiles(samples)
        cells = [phase, len(jobs), f"{p50:.1f}", f"{p95:.1f}", f"{p99:.1f}", f"{cpu_ms:.1f}"]
        rows.append(row([*cells, load_now()]))
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=500)
    parser.add_argument("--sessions", type=int, default=25)
    parser.add_argument("--turns", type=int, default=8, help="turns per session")
    parser.add_argument("--store", type=Path, default=Path("/tmp/arborwiki-latency-store"))
    parser.add_argument("--calls", type=int, default=400, help="calls per measurement")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--replicas", type=int, nargs="*", default=[1], help="replica counts to measure"
    )
    parser.add_argument(
        "--inprocess", type=int, default=300, help="warm in-process questions (0: skip)"
    )
    parser.add_argument("--profile", type=int, default=0, help="cProfile this many queries")
    parser.add_argument(
        "--http", type=int, nargs="*", default=[], help="HTTP caller counts (none: no HTTP)"
    )
    parser.add_argument("--http-per-caller", type=int, default=50, help="queries per caller")
    parser.add_argument("--http-budget", type=int, default=500, help="budget_tokens of each")
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS}")
    parser.add_argument(
        "--set", action="append", default=[], help="config override (query settings compared)"
    )
    args = parser.parse_args()

    cfg = load_config(overrides=args.set)
    cfg.ray.namespace = "arborwiki-bench"
    if not (args.store / "messages.lance").exists():
        build_store(args.store, args.users, args.sessions, args.turns, cfg)
    if args.build_only:
        return
    users = [f"user-{u + 1:04d}" for u in range(args.users)]
    local = in_process(args.store, cfg, users, args.inprocess) if args.inprocess else []
    rows = []
    if args.replicas:
        start_ray(cfg.ray)
    for replicas in sorted(args.replicas):  # replicas are added, never restarted
        cfg.ray.query_replicas = replicas
        start_query_actor(str(args.store.resolve()), cfg, detached=False)
        client = QueryClient.connect(cfg)
        warm(client, users)
        rows += measure(client, users, replicas, args.calls, args.concurrency)
    http_rows = measure_http(cfg, users, max(args.replicas), args.http, args) if args.http else []
    table = "\n".join(
        [
            "| call | replicas | concurrent callers | calls | p50 ms | p95 ms | p99 ms "
            "| replica CPU ms / call | load (1 min) |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    local_table = "\n".join(
        [
            "| in process, single caller | questions | p50 ms | p95 ms | p99 ms "
            "| CPU ms / question | load (1 min) |",
            "|---|---|---|---|---|---|---|",
            *local,
        ]
    )
    http_table = "\n".join([HTTP_HEADER, "|---|---|---|---|---|---|---|---|---|---|", *http_rows])
    print(table)
    print(local_table)
    if http_rows:
        print(http_table)
    prof = profile(args.store, cfg, users, args.profile) if args.profile else ""
    if prof:
        print(prof)
    if args.write:
        write_report(args, table, local_table, prof, http_table if http_rows else "")
    if args.replicas:
        ray.shutdown()


def write_report(
    args: argparse.Namespace, table: str, local_table: str, prof: str, http_table: str = ""
) -> None:
    note = args.store / BUILD_NOTE
    built = note.read_text().strip() if note.exists() else "unknown (store built elsewhere)"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    lines = [
        "",
        f"## Run of {stamp} UTC, store {args.store}",
        "",
        f"{args.users} synthetic users × {args.sessions * args.turns} messages; "
        f"build (2-CPU local Ray): {built}. Times are end to end "
        "(driver thread → `ray.get` → actor → Lance), after warm-up.",
        "",
        table,
        "",
        local_table,
        "",
        *([http_table, ""] if http_table else []),
        "Command: `python -m benchmarks.query_latency "
        f"--store {args.store} --users {args.users} "
        f"--sessions {args.sessions} --turns {args.turns} "
        f"--calls {args.calls} --concurrency {args.concurrency}"
        f" --replicas {' '.join(str(r) for r in args.replicas)} --inprocess {args.inprocess}"
        + (
            f" --http {' '.join(str(n) for n in args.http)} --http-per-caller "
            f"{args.http_per_caller} --http-budget {args.http_budget}"
            if args.http
            else ""
        )
        + f"{''.join(' --set ' + s for s in args.set)}"
        f"{' --profile ' + str(args.profile) if args.profile else ''} --write`  ",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"{psutil.virtual_memory().total / 2**30:.0f} GiB, no GPU; "
        f"Python {platform.python_version()}; load average at the end (1, 5, 15 min): {load} "
        "(other jobs shared the machine when this was above the core count)",
    ]
    if prof:
        lines += ["", "cProfile of in-process queries (cumulative):", "", "```", prof, "```"]
    # Appended: the file keeps every run (and the hand-written readings between them).
    head = [] if RESULTS.exists() else ["# Query latency through the Ray query actors"]
    with RESULTS.open("a") as out:
        out.write("\n".join(head + lines) + "\n")


if __name__ == "__main__":
    main()
