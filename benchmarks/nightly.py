"""Nightly rebuild vs full rebuild, same run: a synthetic archive plus 1 % new messages for
1 % of users, appended to the archive's JSONL file.

    python -m benchmarks.nightly --messages 100000 [--cache-rules] [--write]

Steps, one process, Ray started first (its start-up billed to nobody): (1) full build of
the day-1 archive into store A (setup, timed too); (2) append day 2; `run_nightly` on A;
(3) full build of day 1 + day 2 into a fresh store B: the baseline. Index seconds are the
time spent in `LanceStore.build_indexes` during each commit (timed by wrapping it here).
With `--cache-rules` drafts go through the extraction cache, so "windows extracted" shows
what an LLM backend would pay: only windows the cache has not seen.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arborwiki.cluster.build import BuildSummary, run_build
from arborwiki.cluster.nightly import run_nightly
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import Config, load_config
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import USER_TABLES
from arborwiki.synthetic import generate_archive

MESSAGES_PER_USER = 200
TURNS_PER_SESSION = 8
RESULTS = Path(__file__).resolve().parent / "results" / "nightly.md"
INDEX_SECONDS: list[float] = []


def _user_rows(messages: list[Any], offset: int = 0, start_session: int = 0) -> list[str]:
    """JSONL lines, users renumbered from `offset`, sessions before `start_session` left out."""
    rows = []
    for m in messages:
        if int(m.session_id.rsplit("s", 1)[1]) < start_session:
            continue
        uid = f"user-{offset + int(m.user_id.split('-')[1]):06d}"
        row = m.model_dump(mode="json") | {
            "user_id": uid,
            "conversation_id": f"{uid}-c0",
            "session_id": m.session_id.replace(m.user_id, uid),
            "message_id": m.message_id.replace(m.user_id, uid),
            "speaker": uid if m.role == "user" else m.speaker,
            "extra": {},
        }
        rows.append(json.dumps(row) + "\n")
    return rows


def write_days(path: Path, n_messages: int, seed: int) -> tuple[int, int, int]:
    """Day 1: `n_messages` (200 per user) in one JSONL file; day 2 (returned as text, to
    append): 1 % as many messages, the next sessions of the first 1 % of users."""
    users = max(1, n_messages // MESSAGES_PER_USER)
    sessions = MESSAGES_PER_USER // TURNS_PER_SESSION
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for start in range(0, users, 500):
            batch = generate_archive(min(500, users - start), seed=seed + start, sessions=sessions)
            out.writelines(_user_rows(batch, offset=start))
    touched = max(1, users // 100)
    per_user = max(TURNS_PER_SESSION, n_messages // 100 // touched)
    more = sessions + per_user // TURNS_PER_SESSION
    grown = generate_archive(touched, seed=seed, sessions=more)  # same first sessions
    day2 = _user_rows(grown, start_session=sessions)  # users of the first batch (offset 0)
    (path.parent / "day2.part").write_text("".join(day2))
    return users, touched, len(day2)


def _timed_indexes() -> None:
    original: Callable[..., Any] = LanceStore.build_indexes

    @functools.wraps(original)
    def timed(self: LanceStore) -> Any:
        started = time.perf_counter()
        try:
            return original(self)
        finally:
            INDEX_SECONDS.append(time.perf_counter() - started)

    LanceStore.build_indexes = timed  # type: ignore[method-assign]


def _rows_written(store: Path) -> int:
    run = LanceStore(store).latest_run()
    counts = json.loads(run["counts"]) if run else {}
    return sum(counts.get(name, 0) for name in USER_TABLES) + counts.get("quarantined", 0)


def _phase(label: str, call: Callable[[], Any]) -> tuple[Any, float, float]:
    INDEX_SECONDS.clear()
    started = time.perf_counter()
    result = call()
    seconds = time.perf_counter() - started
    print(f"{label}: {seconds:.1f} s", flush=True)
    return result, seconds, sum(INDEX_SECONDS)


def run(n_messages: int, cfg: Config, seed: int) -> dict[str, Any]:
    start_ray(cfg.ray)
    _timed_indexes()
    with tempfile.TemporaryDirectory(prefix="nightly-bench-") as tmp:
        root = Path(tmp)
        archive = root / "archive" / "messages.jsonl"
        users, touched, new = write_days(archive, n_messages, seed)
        store_a, store_b = root / "a", root / "b"
        day1, day1_s, day1_ix = _phase(
            "day-1 full build", lambda: run_build(str(archive), str(store_a), cfg)
        )
        with archive.open("a") as out:
            out.write((archive.parent / "day2.part").read_text())
        (archive.parent / "day2.part").unlink()
        report, nightly_s, nightly_ix = _phase(
            "nightly", lambda: run_nightly(str(archive), str(store_a), cfg)
        )
        nightly_rows = _rows_written(store_a)
        noop, noop_s, _ = _phase(
            "no-op nightly", lambda: run_nightly(str(archive), str(store_a), cfg)
        )
        full, full_s, full_ix = _phase(
            "full rebuild", lambda: run_build(str(archive), str(store_b), cfg)
        )
        full_rows = _rows_written(store_b)
        same = {n: LanceStore(store_a).count(n) for n in USER_TABLES} == {
            n: LanceStore(store_b).count(n) for n in USER_TABLES
        }
    build: BuildSummary = report.build
    return {
        "messages": n_messages,
        "users": users,
        "touched": touched,
        "new_messages": new,
        "day1_s": day1_s,
        "day1_index_s": day1_ix,
        "nightly_s": nightly_s,
        "nightly_index_s": nightly_ix,
        "nightly_stage_s": build.stage_seconds,
        "noop_s": noop_s,
        "noop_mode": noop.mode,
        "full_s": full_s,
        "full_index_s": full_ix,
        "full_stage_s": full.stage_seconds,
        "windows_touched": report.windows,
        "windows_new": report.windows_new,
        "nightly_extraction": build.extraction,
        "full_extraction": full.extraction,
        "nightly_rows": nightly_rows,
        "full_rows": full_rows,
        "same_counts": same,
        "mode": report.mode,
    }


def table(r: dict[str, Any], cache_rules: bool) -> str:
    ne, fe = r["nightly_extraction"], r["full_extraction"]
    label = f"{r['messages'] // 1000}K" + (", cache_rules" if cache_rules else "")
    return "\n".join(
        [
            f"### {label}: {r['users']} users, +{r['new_messages']} messages for {r['touched']}",
            "",
            "| run | seconds | index s | windows compiled | windows extracted | "
            "cache hits | rows written |",
            "|---|---|---|---|---|---|---|",
            f"| day-1 full build (setup) | {r['day1_s']:.1f} | {r['day1_index_s']:.1f} | | | | |",
            f"| **nightly** ({r['mode']}) | **{r['nightly_s']:.1f}** | {r['nightly_index_s']:.1f}"
            f" | {r['windows_touched']:,} ({r['windows_new']} new) | {ne.get('extracted', 0):,}"
            f" | {ne.get('cache_hits', 0):,} | {r['nightly_rows']:,} |",
            f"| no-op nightly ({r['noop_mode']}) | {r['noop_s']:.1f} | 0 | 0 | 0 | 0 | 0 |",
            f"| **full rebuild** day 1 + 2 | **{r['full_s']:.1f}** | {r['full_index_s']:.1f}"
            f" | {fe.get('windows', 0):,} | {fe.get('extracted', 0):,} | "
            f"{fe.get('cache_hits', 0):,} | {r['full_rows']:,} |",
            "",
            f"nightly / full = **{r['nightly_s'] / r['full_s']:.3f}** (same run); "
            f"table row counts equal: {r['same_counts']}; stage seconds nightly "
            f"{r['nightly_stage_s']}, full {r['full_stage_s']}.",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache-rules", action="store_true")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS}")
    args = parser.parse_args()
    overrides = ["ray.num_cpus=2"] + (["extract.cache_rules=true"] if args.cache_rules else [])
    cfg = load_config(overrides=overrides)
    result = run(args.messages, cfg, args.seed)
    load = os.getloadavg()
    text = table(result, args.cache_rules) + (
        f"\n`python -m benchmarks.nightly --messages {args.messages}"
        f"{' --cache-rules' if args.cache_rules else ''}`, {datetime.now(UTC):%Y-%m-%d %H:%M} "
        f"UTC, {platform.machine()}, 2 cores, 24 GiB, no GPU, shared with other jobs "
        f"(load average at the end {load[0]:.0f}).\n\n"
    )
    print(text)
    if args.write:
        with RESULTS.open("a") as out:
            out.write(text)


if __name__ == "__main__":
    main()
