"""Build wall time on the CPU default (rules extractor): LoCoMo dev and a synthetic archive.

Run the same script on two checkouts (before / after a change) in the same machine state
and compare. Ray is started first so its start-up is not billed to either build.

    python -m benchmarks.build_stages --label after --out benchmarks/results/build_stages.md
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq

from arborwiki.cluster.build import BuildSummary, run_build
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import load_config
from arborwiki.core.schema import messages_to_table
from arborwiki.synthetic import generate_archive

LOCOMO_DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"


def synthetic_archive(directory: Path, users: int, sessions: int, turns: int) -> Path:
    messages = generate_archive(users, seed=0, sessions=sessions, turns_per_session=turns)
    clean = [m.model_copy(update={"extra": {}}) for m in messages]
    path = directory / "synthetic.parquet"
    pq.write_table(messages_to_table(clean), path)
    return path


def timed_run(archive: Path | str, store: Path, overrides: list[str]) -> tuple[float, BuildSummary]:
    """One build of `archive` into `store` with `overrides`, and its wall seconds."""
    started = time.perf_counter()
    summary = run_build(str(archive), str(store), load_config(overrides=overrides))
    return time.perf_counter() - started, summary


def timed_build(archive: Path, store: Path, overrides: list[str]) -> tuple[float, str]:
    seconds, summary = timed_run(archive, store, overrides)
    stages = getattr(summary, "stage_seconds", None)  # absent before the staged build
    detail = ", ".join(f"{k} {v:.1f}" for k, v in stages.items()) if stages else "n/a"
    return seconds, f"{detail} | {summary.line()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--label", required=True, help="before / after")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--locomo", default=str(LOCOMO_DEV))
    parser.add_argument("--out", default=None, help="append the markdown rows here")
    parser.add_argument("--set", action="append", default=[], help="config override")
    args = parser.parse_args()
    start_ray(load_config(overrides=args.set).ray)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        inputs = {"LoCoMo dev": Path(args.locomo)}
        inputs["synthetic"] = synthetic_archive(work, args.users, args.sessions, args.turns)
        for name, archive in inputs.items():
            seconds, line = timed_build(archive, work / f"store-{len(rows)}", args.set)
            rows.append(f"| {args.label} | {name} | {seconds:.1f} | {line} |")
            print(rows[-1], flush=True)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    header = (
        f"\n`python -m benchmarks.build_stages --label {args.label}` — {stamp}, "
        f"{platform.node()} (2 cores, 24 GiB, no GPU, shared with other jobs)\n\n"
        "| code | archive | wall s | stage s | summary |\n|---|---|---|---|---|\n"
    )
    text = header + "\n".join(rows) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
