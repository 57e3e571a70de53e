"""Benchmark: serving latency of context retrieval (`query`) and `localize` through Ray actors.

Builds (or reuses, `--store`) a store of synthetic users, starts the query actor
replicas, warms them, then times calls end to end (driver → `ray.get` → actor → Lance)
for one caller and for `--concurrency` threads, and prints p50/p95/p99 as a table.
`--profile` runs cProfile over in-process queries to show where the time goes.

    python -m benchmarks.query_latency --users 1000 --store /tmp/bench-store --write
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import open_service
from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.cluster.query_client import QueryClient
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import Config, load_config
from arborwiki.core.schema import messages_to_table
from arborwiki.synthetic import generate_archive

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
    """`n` calls on random (user, text) pairs from `threads` callers; per-call seconds."""
    rng = random.Random(7)
    jobs = [(rng.choice(users), rng.choice(texts)) for _ in range(n)]
    if threads == 1:
        return [timed(call, u, t) for u, t in jobs]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda job: timed(call, *job), jobs))


def profile(store: Path, cfg: Config, users: list[str], n: int) -> str:
    """cProfile of in-process queries: which functions the time goes to."""
    service = open_service(str(store), cfg)
    service.query(users[0], QUESTIONS[0])
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(n):
        service.query(users[i % len(users)], QUESTIONS[i % len(QUESTIONS)])
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
    return out.getvalue()


def warm(client: QueryClient, users: list[str]) -> None:
    """Table handles, indexes and caches warm in every replica before timing."""
    for user in users[: 25 * len(client.replicas)]:
        client.query(user, QUESTIONS[0])
        client.localize(user, TURNS[0])


def measure(
    client: QueryClient, users: list[str], replicas: int, calls: int, concurrency: int
) -> list[str]:
    rows = []
    for name, texts in (("query", QUESTIONS), ("localize", TURNS)):
        method = getattr(client, name)
        for threads in (1, concurrency):
            samples = run_load(method, users, texts, calls, threads)
            p50, p95, p99 = percentiles(samples)
            cells = [
                name,
                replicas,
                threads,
                len(samples),
                f"{p50:.1f}",
                f"{p95:.1f}",
                f"{p99:.1f}",
            ]
            rows.append("| " + " | ".join(str(c) for c in cells) + " |")
            print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--turns", type=int, default=6, help="turns per session")
    parser.add_argument("--store", type=Path, default=Path("/tmp/arborwiki-latency-store"))
    parser.add_argument("--calls", type=int, default=400, help="calls per measurement")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--replicas", type=int, nargs="+", default=[1], help="replica counts to measure"
    )
    parser.add_argument("--profile", type=int, default=0, help="cProfile this many queries")
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
    start_ray(cfg.ray)
    users = [f"user-{u + 1:04d}" for u in range(args.users)]
    rows = []
    for replicas in sorted(args.replicas):  # replicas are added, never restarted
        cfg.ray.query_replicas = replicas
        start_query_actor(str(args.store.resolve()), cfg, detached=False)
        client = QueryClient.connect(cfg)
        warm(client, users)
        rows += measure(client, users, replicas, args.calls, args.concurrency)
    table = "\n".join(
        [
            "| call | replicas | concurrent callers | calls | p50 ms | p95 ms | p99 ms |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    print(table)
    prof = profile(args.store, cfg, users, args.profile) if args.profile else ""
    if prof:
        print(prof)
    if args.write:
        write_report(args, table, prof)
    ray.shutdown()


def write_report(args: argparse.Namespace, table: str, prof: str) -> None:
    note = args.store / BUILD_NOTE
    built = note.read_text().strip() if note.exists() else "unknown (store built elsewhere)"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        "# Query latency through the Ray query actors",
        "",
        f"{args.users} synthetic users × {args.sessions * args.turns} messages; "
        f"build (2-CPU local Ray): {built}. Times are end to end "
        "(driver thread → `ray.get` → actor → Lance), after warm-up.",
        "",
        table,
        "",
        "Command: `python -m benchmarks.query_latency "
        f"--users {args.users} --calls {args.calls} --concurrency {args.concurrency}"
        f" --replicas {' '.join(str(r) for r in args.replicas)}"
        f"{' --profile ' + str(args.profile) if args.profile else ''} --write`  ",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, no GPU; "
        f"Python {platform.python_version()}; load average at the end (1, 5, 15 min): {load} "
        "(other jobs shared the machine when this was above the core count)",
    ]
    if prof:
        lines += ["", "cProfile of in-process queries (cumulative):", "", "```", prof, "```"]
    RESULTS.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
