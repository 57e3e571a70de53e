"""In-process query latency of two query configurations, interleaved in one process.

The Ray-actor benchmark (`benchmarks/query_latency.py --set ...`) measures end to end; this
one isolates what a query setting costs on one machine by alternating the two settings
question by question (same store, same questions, same load), so a shared machine's noise
hits both alike. CPU per query is `time.process_time` around each query: the whole
process, Lance's threads included (queries never overlap, so each is charged its own).

    python -m benchmarks.query_cost FILE STORE --off query.added_hits=0 ... --n 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arborwiki.cluster.query_actor import open_service
from arborwiki.core.config import load_config
from arborwiki.storage.archive.locomo import read_locomo_qa


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("store")
    ap.add_argument("--off", action="append", default=[], help="overrides of the 'before' run")
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    questions = read_locomo_qa(args.file)[: args.n]
    services = {
        "before (--off overrides)": open_service(args.store, load_config(overrides=args.off)),
        "after (defaults)": open_service(args.store, load_config()),
    }
    times: dict[str, list[float]] = {name: [] for name in services}
    cpu: dict[str, float] = {name: 0.0 for name in services}  # process CPU, Lance's threads too
    for qa in questions[:5]:  # warm caches and indexes
        for service in services.values():
            service.query(qa.user_id, qa.question)
    for qa in questions:
        for name, service in services.items():
            started, cpu_started = time.perf_counter(), time.process_time()
            service.query(qa.user_id, qa.question)
            times[name].append((time.perf_counter() - started) * 1000)
            cpu[name] += time.process_time() - cpu_started
    print("| setting | queries | p50 ms | p95 ms | p99 ms | CPU ms / query |")
    print("|---|---|---|---|---|---|")
    for name, ms in times.items():
        p50, p95, p99 = np.percentile(ms, [50, 95, 99])
        per_query = cpu[name] * 1000 / len(ms)
        print(f"| {name} | {len(ms)} | {p50:.1f} | {p95:.1f} | {p99:.1f} | {per_query:.1f} |")


if __name__ == "__main__":
    main()
