"""Benchmark: does `localize` put a stored turn back on the trajectory that holds it?

For each store, a seeded sample of every user's own turns (role "user", six words or more)
is localized as if said live, and the benchmark counts how many land on the trajectory
their stored message belongs to, and how many open a NEW branch. A stored turn is the
easiest live turn there is (its words are in the forest already), so this is a floor
check of the online path's consistency with the build, not an accuracy figure.

    python -m benchmarks.localize_self STORE [STORE ...] --per-user 60 [--write]
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime
from pathlib import Path

from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import load_config
from arborwiki.storage.lance_store import LanceStore

RESULTS = Path(__file__).resolve().parent / "results" / "localize.md"
MIN_WORDS = 6


def measure(store: str, per_user: int, seed: int) -> list[object]:
    service = open_service(store, load_config())
    users = sorted(
        set(LanceStore(store).scan("messages", "true", ["user_id"])["user_id"].to_pylist())
    )
    rng = random.Random(seed)
    placed = new = asked = 0
    started = time.perf_counter()
    for user in users:
        own = [
            r
            for r in service.reader.all_messages(user)
            if r.message.role == "user" and len(r.message.text.split()) >= MIN_WORDS
        ]
        for ref in rng.sample(own, min(per_user, len(own))):
            result = service.localize(user, ref.message.text)
            asked += 1
            new += result.decision == "NEW"
            placed += result.trajectory_id is not None and result.trajectory_id == ref.trajectory_id
    seconds = time.perf_counter() - started
    share = placed / asked if asked else 0.0
    return [store, len(users), asked, f"{placed} ({share:.3f})", new, f"{seconds:.1f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", nargs="+")
    parser.add_argument("--per-user", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--label", default="", help="heading for this run in the results file")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS.name}")
    args = parser.parse_args()
    head = "| store | users | turns | on their own trajectory | NEW | seconds |"
    lines = [head, "|---|---|---|---|---|---|"]
    for store in args.stores:
        lines.append(
            "| " + " | ".join(str(c) for c in measure(store, args.per_user, args.seed)) + " |"
        )
        print(lines[-1], flush=True)
    if args.write:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        flags = f"--per-user {args.per_user} --seed {args.seed} --write"
        command = f"`python -m benchmarks.localize_self {' '.join(args.stores)} {flags}`"
        title = (
            [] if RESULTS.exists() else ["# localize: stored turns placed back (a floor check)", ""]
        )
        with RESULTS.open("a") as out:
            out.write(
                "\n".join(
                    [*title, f"## {args.label or 'Run'} — {stamp}", "", command, "", *lines, ""]
                )
                + "\n"
            )


if __name__ == "__main__":
    main()
