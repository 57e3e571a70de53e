"""Benchmark: the build's own scheduler against Ray Data, on the same shards and stage.

The CPU default build runs one compile task per shard (cluster/scheduling.py
`ShardScheduler`: Ray tasks, largest shard first). Issue 47 asked for one scheduler, Ray
Data's `map_batches` over an actor pool unless ours measures better. This runs the very same
`CompileStage` on the very same shards both ways, alternating, each run on a fresh local Ray
(started before the clock, as `arborwiki build` starts one per build):

- `ShardScheduler`: what `arborwiki build` runs;
- Ray Data: `ray.data.from_items(shards).map_batches(Compile, batch_size=1,
  concurrency=CPUS)`, one `CompileStage` per actor, shards in the same largest-first order.

Ray Data needs pandas, which the build does not: `pip install 'ray[data]'` (the same Ray
version) before running it.

    python -m benchmarks.scheduler_vs_ray_data --messages 100000 --rounds 2 --write
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import ray

from arborwiki.cluster.scheduling import LiveWork, ShardRun, ShardScheduler, Timeline, largest_first
from arborwiki.cluster.sharding import partition_archive
from arborwiki.cluster.stages import CompileStage, ShardJob
from arborwiki.core.config import Config, load_config
from benchmarks.build_throughput import CPUS, write_archive

RESULTS = Path(__file__).resolve().parent / "results" / "scheduler.md"


class Compile:
    """A Ray Data actor: one set-up CompileStage, a shard per call."""

    def __init__(self, cfg: Config, store_dir: str) -> None:
        self.stage = CompileStage(cfg, store_dir)
        self.stage.setup()

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[Any]]:
        done = []
        for shard, parts, sources, out in zip(
            batch["shard"], batch["parts"], batch["sources"], batch["out"], strict=True
        ):
            job = ShardJob(int(shard), list(parts), list(sources), str(out))
            result = self.stage.process_batch(job)
            done.append(len(result.failures))
        return {"shard": list(batch["shard"]), "failures": done}


def jobs_for(part: Any, out: Path) -> dict[int, ShardJob]:
    shutil.rmtree(out, ignore_errors=True)
    return {
        s: ShardJob(s, [str(f) for f in files], part.sources, str(out / f"shard-{s}"))
        for s, files in part.files.items()
    }


def ours(part: Any, cfg: Config, work: Path) -> float:
    todo = jobs_for(part, work / "out-ours")
    started = time.perf_counter()
    extraction: dict[str, float] = defaultdict(float)
    run = ShardRun(todo, cfg, str(work / "store"), LiveWork(), Timeline(), extraction)
    results = ShardScheduler(run).run()
    assert len(results) == len(todo) and not any(r.failures for r in results.values())
    return time.perf_counter() - started


def ray_data(part: Any, cfg: Config, work: Path) -> float:
    todo = jobs_for(part, work / "out-data")
    items = [
        {"shard": s, "parts": j.parts, "sources": j.sources, "out": j.out_dir}
        for s in largest_first(todo)
        for j in [todo[s]]
    ]
    started = time.perf_counter()
    ds = ray.data.from_items(items).map_batches(
        Compile,
        fn_constructor_args=(cfg, str(work / "store")),
        batch_size=1,
        concurrency=CPUS,
        num_cpus=1,
    )
    rows = ds.take_all()
    assert len(rows) == len(todo) and not any(r["failures"] for r in rows)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", default="/tmp/arborwiki-scheduler")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS.name}")
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    archive = work / f"archive-{args.messages}.jsonl"
    if not archive.exists():
        write_archive(archive, args.messages, args.seed)
    cfg = load_config()
    part = partition_archive(str(archive), work / "partition", cfg.ray.num_shards)
    times: dict[str, list[float]] = {"ShardScheduler (ours)": [], "Ray Data map_batches": []}
    runs = {"ShardScheduler (ours)": ours, "Ray Data map_batches": ray_data}
    for _ in range(args.rounds):
        for name, run in runs.items():  # each on a fresh local Ray, as a build starts one
            ray.init(num_cpus=CPUS, include_dashboard=False, log_to_driver=False)
            times[name].append(run(part, cfg, work))
            ray.shutdown()
    lines = [
        f"### {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} — {args.messages} messages, "
        f"{len(part.files)} shards, {CPUS} CPUs ({platform.machine()}, Python "
        f"{platform.python_version()}, Ray {ray.__version__})",
        "",
        "| scheduler | wall s per round | median |",
        "|---|---|---|",
    ]
    for name, ts in times.items():
        each = " · ".join(f"{t:.1f}" for t in ts)
        lines.append(f"| {name} | {each} | {statistics.median(ts):.1f} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.write:
        head = "" if RESULTS.exists() else "# The build's scheduler against Ray Data\n\n"
        with RESULTS.open("a") as f:
            f.write(head + "\n" + table)


if __name__ == "__main__":
    main()
