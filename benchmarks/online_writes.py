"""Benchmark: online writes (`MemoryStore.add`, cluster/online.py) — add → queryable latency
for users with long histories, and concurrent writers with readers.

Builds (or reuses, `--store`) a store of `--users` synthetic users with `--messages` each
(rules extractor, static embedder: the defaults), then, in one process:

1. latency: `--adds` adds of one new message to the first user, each followed by a query
   that must cite it, `--pace` seconds apart (an agent's next turn waits for its model; the
   writer settles the user in the pause), then as many back to back (an add may wait for a
   settle); the first add is cold (this process drafts and embeds the user's history
   once), the rest warm. Reports p50/p95/max of the add and of add → cited. Then as many
   `--pace` apart while another writer (as another process or query replica would) adds a
   turn to the third user before each: runs this process did not write come between.
2. with `--http`: the same through `serve`'s HTTP routes (a local Ray, one query actor, the
   ingress with a bearer token): `POST /memory`, then `POST /query` must cite it.
3. load: `--writers` threads each adding two messages at a time (a pair) to its own user and
   `--readers` threads querying random users, for `--seconds`; then every acknowledged id
   is looked up in the store at its committed run: lost (acknowledged, not stored) and
   duplicated (stored twice) ids are counted, as are errors and online commits (adds that
   arrived together share one).
   A partial read: a query whose evidence cites one message of a pair while the tables of
   the run it read lack the other (every reader checks each pair it is cited, at the run
   its answer names).

    python -m benchmarks.online_writes --store /tmp/online-bench/store --http --write
"""

from __future__ import annotations

import argparse
import http.client
import json
import platform
import random
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq

from arborwiki.api import MemoryStore, open_store
from arborwiki.cluster.http_server import start_http, stop_http
from arborwiki.cluster.online import OnlineWriter
from arborwiki.cluster.query_actor import start_query_actor
from arborwiki.cluster.runtime import start_ray
from arborwiki.core.config import load_config
from arborwiki.core.schema import messages_to_table
from arborwiki.mcp_server import served_memory_server
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.online import RUN_PREFIX
from arborwiki.synthetic import generate_archive
from benchmarks.query_latency import free_port, percentiles

RESULTS = Path(__file__).parent / "results" / "online_writes.md"
TURNS = 8


def build_store(store: Path, users: int, messages: int) -> None:
    from arborwiki.cluster.build import run_build

    archive = store.parent / f"{store.name}-archive.parquet"
    rows = generate_archive(users, seed=46, sessions=max(1, messages // TURNS))
    clean = [m.model_copy(update={"extra": {}}) for m in rows]
    pq.write_table(messages_to_table(clean), archive)
    summary = run_build(str(archive), str(store), load_config(overrides=["ray.num_shards=4"]))
    print(summary.line())


def timed_adds(
    add: Callable[[str, str], object],
    cited_ids: Callable[[str], list[str]],
    adds: int,
    tag: str,
    pace: float,
    between: Callable[[int], object] | None = None,
) -> dict[str, list[float]]:
    """Each add then a query that must cite it, `pace` seconds apart (the writer settles
    the user in a pause: cluster/online.py); `between(i)` runs untimed before add i.
    `add(message_id, text)` returns the ids it stored, `cited_ids(question)` the ids the
    answer cites."""
    timings: dict[str, list[float]] = {"add": [], "cited": []}
    for i in range(adds):
        if between is not None:
            between(i)
        code, mid = f"K{tag}{i:03d}Z", f"lat-{tag}-{i}"
        started = time.perf_counter()
        done = add(mid, f"My locker code at the climbing gym is {code}, do not lose it.")
        added = time.perf_counter()
        found = cited_ids(f"what is my locker code {code}?")
        cited = time.perf_counter()
        if done != [mid]:
            raise AssertionError(f"add {i} stored nothing new: {done}")
        if mid not in found:
            raise AssertionError(f"add {i} is not cited by the next query")
        timings["add"].append(added - started)
        timings["cited"].append(cited - started)
        time.sleep(pace)
    return timings


def latency(
    memory: MemoryStore,
    user: str,
    adds: int,
    tag: str,
    pace: float,
    between: Callable[[int], object] | None = None,
) -> dict[str, list[float]]:
    """`timed_adds` through the Python API, in this process."""

    def add(mid: str, text: str) -> object:
        return memory.add(user, [{"message_id": mid, "role": "user", "text": text}]).added

    def cited_ids(question: str) -> list[str]:
        return [e.message_id for e in memory.query(user, question).evidence]

    return timed_adds(add, cited_ids, adds, tag, pace, between)


def beside_writer(
    memory: MemoryStore, store: Path, user: str, other: str, adds: int, tag: str, pace: float
) -> dict[str, list[float]]:
    """`latency` while another writer (another process's, or another query replica's: here
    a second `OnlineWriter` on the store) adds a turn to `other` before each add: runs this
    process did not write land between its adds, as beside a served store."""
    writer = OnlineWriter(str(store), load_config())

    def other_add(i: int) -> None:
        writer.add(other, [{"message_id": f"beside-{tag}-{i}", "text": f"beside note {i}"}])

    other_add(-1)  # its cold add (it drafts and embeds the user's history once), untimed
    try:
        return latency(memory, user, adds, f"{tag}w", pace, other_add)
    finally:
        writer.close()


def http_latency(
    store: Path, user: str, adds: int, tag: str, pace: float, replicas: int = 1
) -> dict[str, list[float]]:
    """`latency` through `serve`'s routes: a local Ray, `replicas` query actors (each its own
    writer), the HTTP ingress with a bearer token; `POST /memory`, then `POST /query` must
    cite it."""
    import ray

    cfg = load_config(overrides=[f"ray.query_replicas={replicas}"])
    cfg.ray.namespace = "arborwiki-online-bench"
    start_ray(cfg.ray)
    start_query_actor(str(store.resolve()), cfg, detached=False)
    port, token = free_port(), secrets.token_hex(32)
    start_http(cfg, "127.0.0.1", port, mcp=served_memory_server, token=token)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def post(route: str, body: dict[str, object]) -> dict[str, object]:
        connection.request("POST", route, json.dumps(body), headers)
        reply = connection.getresponse()
        payload = json.loads(reply.read())
        if reply.status != 200:
            raise AssertionError(f"{route}: {reply.status} {payload}")
        return payload  # type: ignore[no-any-return]

    def add(mid: str, text: str) -> object:
        body = {"user_id": user, "messages": [{"message_id": mid, "text": text}]}
        return post("/memory", body)["added"]

    def cited_ids(question: str) -> list[str]:
        found = post("/query", {"user_id": user, "question": question})
        return [e["message_id"] for e in found["evidence"]]  # type: ignore[attr-defined]

    try:
        return timed_adds(add, cited_ids, adds, f"H{tag}", pace)
    finally:
        connection.close()
        stop_http()
        ray.shutdown()


def partial_adds(view: LanceStore, user: str, tag: str) -> int:
    """Adds of this run's load that `view` (pinned to one committed run, as every query-side
    reader is) holds in part: one message of a pair without the other, or a message that no
    snapshot of the same run covers."""
    prefix = f"load-{tag}-"
    stored = {r["message_id"] for r in view.rows("messages", user, columns=["message_id"])}
    stored = {m for m in stored if m.startswith(prefix)}
    covered: set[str] = set()
    for row in view.rows("snapshots", user, columns=["message_ids"]):
        covered.update(m for m in row["message_ids"] if m.startswith(prefix))
    pairs = {m[:-2] for m in stored}
    halves = sum(1 for p in pairs if not {f"{p}-a", f"{p}-b"} <= stored)
    return halves + len(stored ^ covered)


def load(
    memory: MemoryStore,
    store: Path,
    users: list[str],
    writers: int,
    readers: int,
    seconds: float,
    tag: str,
) -> dict[str, float]:
    acknowledged: list[tuple[str, str]] = []
    add_seconds: list[float] = []
    errors: list[str] = []
    reads = Counter[str]()
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def write(user: str, w: int) -> None:
        i = 0
        while time.monotonic() < stop:
            pair = [
                {"message_id": f"load-{tag}-{w}-{i}-{half}", "text": f"load note {w} {i} {half}"}
                for half in "ab"
            ]
            try:
                started = time.perf_counter()
                done = memory.add(user, pair)
                with lock:
                    add_seconds.append(time.perf_counter() - started)
                    acknowledged.extend((user, m) for m in done.added)
            except Exception as exc:  # noqa: BLE001 — counted
                errors.append(f"add: {exc}")
            i += 1

    def read(r: int) -> None:
        rng = random.Random(r)
        view = LanceStore(store, create=False, follow_runs=True, refresh_seconds=0.0)
        while time.monotonic() < stop:
            user = rng.choice(users)
            try:
                memory.query(user, "what did I note about the load?")
                view.refresh()
                partial = partial_adds(view, user, tag)
                with lock:
                    reads.update({"ok": 1, "checked": 1, "partial": partial})
            except Exception as exc:  # noqa: BLE001 — counted
                errors.append(f"query: {exc}")

    runs_before = len(LanceStore(store, create=False).runs())
    threads = [
        threading.Thread(target=write, args=(users[w % len(users)], w)) for w in range(writers)
    ]
    threads += [threading.Thread(target=read, args=(r,)) for r in range(readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # at the committed run, as every reader reads: the latest table versions may be a
    # settle's replace of a user between its delete and its append (rows not yet back)
    lance = LanceStore(store, create=False, follow_runs=True)
    stored = Counter[tuple[str, str]]()
    for user in users:
        for row in lance.rows("messages", user, columns=["message_id"]):
            if row["message_id"].startswith(f"load-{tag}-"):
                stored[(user, row["message_id"])] += 1
    runs = lance.runs()[runs_before:]
    add_p50, add_p95, _ = percentiles(add_seconds) if add_seconds else (0.0, 0.0, 0.0)
    return {
        "add_p50_ms": add_p50,
        "add_p95_ms": add_p95,
        "acknowledged": len(acknowledged),
        "lost": sum(1 for key in acknowledged if stored[key] == 0),
        "duplicated": sum(1 for n in stored.values() if n > 1),
        "unacknowledged_stored": sum(1 for k in stored if k not in set(acknowledged)),
        "errors": len(errors),
        "reads": reads["ok"],
        "checked": reads["checked"],
        "partial": reads["partial"],
        "online_commits": sum(1 for r in runs if r["run_id"].startswith(RUN_PREFIX)),
        "seconds": seconds,
    }


def warm_rows(timings: dict[str, list[float]], route: str) -> list[str]:
    """p50 / p95 / max of the warm adds (all but the first) and of add → cited."""
    rows = []
    for key in ("add", "cited"):
        p50, p95, _ = percentiles(timings[key][1:])
        rows.append(
            f"| {route}warm {'add' if key == 'add' else 'add → cited by a query'} p50 / p95 / "
            f"max ({len(timings[key]) - 1} adds) | {p50:.0f} / {p95:.0f} / "
            f"{max(timings[key][1:]) * 1000:.0f} ms |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=Path("/tmp/online-bench/store"))
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--adds", type=int, default=30)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--readers", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="seconds between an add's query and the next add (an agent's turn waits for a "
        "model's reply; the writer settles in the pause); a second pass runs back to back",
    )
    parser.add_argument("--http", action="store_true", help="also add and query over HTTP")
    parser.add_argument("--replicas", type=int, default=1, help="query actors behind HTTP")
    parser.add_argument("--write", action="store_true", help="append to results/online_writes.md")
    args = parser.parse_args()
    if not (args.store / "messages.lance").exists():
        args.store.parent.mkdir(parents=True, exist_ok=True)
        build_store(args.store, args.users, args.messages)
    memory = open_store(args.store)
    users = [f"user-{u + 1:04d}" for u in range(args.users)]
    tag = f"{int(time.time()):x}"  # ids new to the store, whatever ran before on it
    timings = latency(memory, users[0], args.adds, tag, args.pace)
    packed = latency(memory, users[0], args.adds, f"{tag}b", 0.0)
    beside = beside_writer(memory, args.store, users[0], users[2], args.adds, tag, args.pace)
    # before the load: after it, this process's writer still settles the load's users for
    # seconds, and the actor's adds that follow those runs are compiled in full
    over_http = (
        http_latency(args.store, users[1], args.adds, tag, args.pace, args.replicas)
        if args.http
        else {}
    )
    result = load(memory, args.store, users, args.writers, args.readers, args.seconds, tag)
    rows = [
        "| measure | value |",
        "|---|---|",
        f"| stored messages of the user written to | {args.messages} |",
        f"| cold add (first in this process) | {timings['add'][0] * 1000:.0f} ms |",
    ]
    rows += warm_rows(timings, f"{args.pace:g} s apart: ")
    rows += warm_rows(packed, "back to back: ")
    rows += warm_rows(beside, f"{args.pace:g} s apart, another writer adding to another user: ")
    if over_http:
        rows.append(
            f"| HTTP: cold add (first in the actor) | {over_http['add'][0] * 1000:.0f} ms |"
        )
        served = f"HTTP ({args.replicas} replicas)" if args.replicas > 1 else "HTTP"
        rows += warm_rows(over_http, f"{served}, {args.pace:g} s apart: ")
    rows.append(
        f"| load: {args.writers} writers on {min(args.writers, args.users)} users (two messages "
        f"an add) + {args.readers} readers, {args.seconds:.0f} s | acknowledged "
        f"{result['acknowledged']}, lost {result['lost']}, duplicated {result['duplicated']}, "
        f"errors {result['errors']}, reads {result['reads']}, reads that saw part of an add "
        f"{result['partial']} of {result['checked']}, online commits {result['online_commits']}, "
        f"add p50 / p95 {result['add_p50_ms']:.0f} / {result['add_p95_ms']:.0f} ms |"
    )
    table = "\n".join(rows)
    print(table)
    if args.write:
        head = (
            f"\n## {datetime.now(UTC):%Y-%m-%d %H:%M} UTC — {platform.machine()}, "
            f"{len(__import__('os').sched_getaffinity(0))} cores, rules + static\n\n"
        )
        with RESULTS.open("a") as out:
            out.write(head + table + "\n")


if __name__ == "__main__":
    main()
