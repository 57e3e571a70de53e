"""Benchmark: reliability under load, hostile input and faults (issue 13).

1. Bad input: one hostile archive (one file per kind of bad row, JSONL / Parquet / LoCoMo)
   is built once; per kind: rows in, stored, quarantined.
2. Load: the store is served the way `arborwiki serve --store S --http-port P` does
   (`jobs.serve.serve`: detached query replicas + the Ray Serve HTTP ingress on 127.0.0.1),
   then `--callers` threads send `--queries` POST /query each; every reply must be a 200
   with evidence of the asking user only. Errors and p50/p95/p99 are reported.
3. Faults: bad HTTP requests, an unreachable cluster, an empty archive, a non-UTF-8
   argument, and one query replica killed, each with its outcome.

Serving runs on a private local Ray started by this driver (not a standalone
`ray start` cluster), so it never touches another Ray on a shared machine, and everything
stops by itself (`jobs.serve.stop`, then the Ray shutdown). Bounded by `--deadline-s`.

    python -m benchmarks.reliability --write
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import ray

from arborwiki.cluster.build import run_build
from arborwiki.cluster.query_actor import replica_names
from arborwiki.cluster.runtime import join_ray, start_ray
from arborwiki.core.config import Config, load_config
from arborwiki.jobs.build import build
from arborwiki.jobs.common import check_text_arguments
from arborwiki.jobs.serve import serve, stop
from arborwiki.storage.archive import ArchiveError
from arborwiki.storage.lance_store import LanceStore, sql_str

REPO = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "reliability.md"
TS = "2024-03-01T09:30:00Z"


# --------------------------------------------------------------------------- bad input


def good(user: str, n: int) -> dict[str, Any]:
    return {"user_id": user, "message_id": f"ok-{n}", "text": f"{user} row {n}", "timestamp": TS}


def jsonl_kinds() -> dict[str, tuple[list[Any], int]]:
    """kind → (extra rows: dicts are JSON-encoded, str/bytes verbatim, expected stored extra)."""
    bad = {"message_id": "bad", "timestamp": TS}
    return {
        "invalid JSON": (["{not json"], 0),
        "not an object": (["[1, 2]"], 0),
        "missing user_id": ([{**bad, "text": "x"}], 0),
        "empty user_id": ([{**bad, "user_id": "", "text": "x"}], 0),
        "non-string user_id": ([{**bad, "user_id": 7, "text": "x"}], 0),
        "missing text": ([{**bad, "user_id": "{u}"}], 0),
        "text null": ([{**bad, "user_id": "{u}", "text": None}], 0),
        "empty text": ([{**bad, "user_id": "{u}", "text": ""}], 0),
        "whitespace text": ([{**bad, "user_id": "{u}", "text": "  \t"}], 0),
        "bad timestamp": ([{**bad, "user_id": "{u}", "text": "x", "timestamp": "soon"}], 0),
        "bad role": ([{**bad, "user_id": "{u}", "text": "x", "role": "bot"}], 0),
        "negative turn_index": ([{**bad, "user_id": "{u}", "text": "x", "turn_index": -1}], 0),
        "duplicate message_id": ([good("{u}", 0)], 0),
        "invalid UTF-8 bytes": ([b'{"user_id": "\xff"}'], 0),
        "lone surrogate in text": (
            [f'{{"user_id": "{{u}}", "message_id": "s", "text": "\\ud800", "timestamp": "{TS}"}}'],
            0,
        ),  # fmt: skip
        "lone surrogate in user_id": (
            [f'{{"user_id": "\\udfff", "message_id": "s", "text": "x", "timestamp": "{TS}"}}'],
            0,
        ),  # fmt: skip
        "lone surrogate in extra key": (
            [
                '{"user_id": "{u}", "message_id": "s", "text": "x",'
                f' "timestamp": "{TS}", "\\ud800": 1}}'
            ],
            0,
        ),  # fmt: skip
        "separator in ids (valid)": (
            [
                {**bad, "user_id": "{u}\x1fb", "text": "x"},
                {**bad, "user_id": "{u}", "message_id": "\x1fbad", "text": "y"},
            ],
            2,
        ),  # fmt: skip
        "quote in user_id (valid)": ([{**bad, "user_id": "{u}'o", "text": "x"}], 1),
        # issue 35, items 4, 5 and 12
        "far-future timestamp, 'tomorrow' (valid)": (
            [
                {
                    **bad,
                    "user_id": "{u}",
                    "text": "tomorrow I go",
                    "timestamp": "9999-12-31T23:59:59Z",
                }
            ],
            1,
        ),  # fmt: skip
        "timestamp past 9999 in UTC": (
            [{**bad, "user_id": "{u}", "text": "x", "timestamp": "9999-12-31T23:00:00-05:00"}],
            0,
        ),  # fmt: skip
        "timestamp before year 1 in UTC": (
            [{**bad, "user_id": "{u}", "text": "x", "timestamp": "0001-01-01T00:00:00+05:00"}],
            0,
        ),  # fmt: skip
        "turn_index 2**70": ([{**bad, "user_id": "{u}", "text": "x", "turn_index": 2**70}], 0),
        "5,000-digit integer": (
            ['{"user_id": "{u}", "message_id": "d", "text": "x", "n": ' + "9" * 5000 + "}"],
            0,
        ),  # fmt: skip
        "line nested 100,000 deep": (["[" * 100_000 + "]" * 100_000], 0),
        "BOM on a later line (valid)": (
            [b"\xef\xbb\xbf" + json.dumps({**bad, "user_id": "{u}", "text": "x"}).encode()],
            1,
        ),  # fmt: skip
    }


def locomo_kinds() -> dict[str, tuple[list[Any], int, bool]]:
    """kind → (extra session_1 turns, expected stored extra, dated)."""
    return {
        "LoCoMo text null": ([{"speaker": "A", "dia_id": "D1:9", "text": None}], 0, True),
        "LoCoMo empty text": ([{"speaker": "A", "dia_id": "D1:9", "text": ""}], 0, True),
        "LoCoMo duplicate dia_id": ([{"speaker": "A", "dia_id": "D1:1", "text": "dup"}], 0, True),
        "LoCoMo missing dia_id": ([{"speaker": "A", "text": "x"}], 0, True),
        "LoCoMo turn not an object": (["just a string"], 0, True),
        "LoCoMo undated session (valid)": ([], 0, False),
    }


def locomo_sessions() -> dict[str, tuple[dict[str, Any], int, int, bool]]:
    """kind → (extra conversation keys, rows in, expected stored, sample has an id)."""
    turn = {"speaker": "A", "dia_id": "D9:1", "text": "later"}
    return {
        "LoCoMo session_1 beside session_01 (valid)": (
            {"session_01": [turn], "session_01_date_time": "1:56 pm on 9 May, 2023"},
            3,
            3,
            True,
        ),  # fmt: skip
        "LoCoMo undated session_99999999999999 (valid)": (
            {"session_99999999999999": [turn]},
            3,
            3,
            True,
        ),  # fmt: skip
        "LoCoMo sample_id null": ({}, 2, 0, False),
    }


def write_hostile_archive(root: Path) -> dict[str, tuple[Path, str, int, int]]:
    """One file per kind; returns kind → (file, owner user, rows in, expected stored)."""
    root.mkdir(parents=True)
    kinds: dict[str, tuple[Path, str, int, int]] = {}
    for i, (kind, (extra, stored_extra)) in enumerate(jsonl_kinds().items()):
        user = f"kind-{i:02d}"
        lines: list[bytes] = []
        for row in [good(user, 0), good(user, 1), *extra]:
            if isinstance(row, bytes):
                lines.append(row.replace(b"{u}", user.encode()))
            elif isinstance(row, str):
                lines.append(row.replace("{u}", user).encode())
            else:
                text = json.dumps(row).replace("{u}", user)
                lines.append(text.encode())
        path = root / f"k{i:02d}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        kinds[kind] = (path, user, len(lines), 2 + stored_extra)
    parquet_rows = {
        "Parquet null user_id": {"user_id": None, "message_id": "p", "text": "x", "timestamp": TS},
        "Parquet bad timestamp": {
            "user_id": "{u}",
            "message_id": "p",
            "text": "x",
            "timestamp": "soon",
        },  # fmt: skip
    }
    for j, (kind, bad_row) in enumerate(parquet_rows.items()):
        user = f"kind-p{j}"
        owned = {k: v.replace("{u}", user) if isinstance(v, str) else v for k, v in bad_row.items()}
        rows = [good(user, 0), good(user, 1), owned]
        path = root / f"p{j}.parquet"
        pq.write_table(pa.Table.from_pylist(rows), path)
        kinds[kind] = (path, user, 3, 2)
    for j, (kind, (keys, rows_in, expect, named)) in enumerate(locomo_sessions().items()):
        user = f"kind-s{j}"
        turns = [{"speaker": "A", "dia_id": f"D1:{n}", "text": f"turn {n}"} for n in (1, 2)]
        conversation = {"speaker_a": "A", "session_1": turns, **keys}
        conversation["session_1_date_time"] = "1:56 pm on 8 May, 2023"
        sample = {"sample_id": user if named else None, "conversation": conversation}
        path = root / f"s{j}.json"
        path.write_text(json.dumps([sample]))
        kinds[kind] = (path, user, rows_in, expect)
    far = (253402300799 + 10**8) * 1000  # ms past 9999-12-31: no Python datetime holds it
    columns = {"user_id": ["{u}"] * 3, "message_id": ["a", "b", "p"], "text": ["x"] * 3}
    tables = {
        "Parquet uint64 max turn_index": {
            **columns,
            "timestamp": [TS] * 3,
            "turn_index": pa.array([0, 1, 2**64 - 1], pa.uint64()),
        },
        "Parquet timestamp past year 9999": {
            **columns,
            "timestamp": pa.array([0, 1, far], pa.timestamp("ms", tz="UTC")),
        },
    }
    for j, (kind, data) in enumerate(tables.items()):
        user = f"kind-q{j}"
        data = {**data, "user_id": [user] * 3}
        path = root / f"q{j}.parquet"
        pq.write_table(pa.table(data), path)
        kinds[kind] = (path, user, 3, 2)
    rows_json = [good("kind-j0", 0), good("kind-j0", 1), {"user_id": "kind-j0", "text": "x",
                 "timestamp": TS}]  # fmt: skip
    (root / "j0.json").write_text(json.dumps(rows_json))
    kinds[".json array element without message_id"] = (root / "j0.json", "kind-j0", 3, 2)
    for j, (kind, (extra, stored_extra, dated)) in enumerate(locomo_kinds().items()):
        user = f"kind-l{j}"
        turns = [{"speaker": "A", "dia_id": f"D1:{n}", "text": f"turn {n}"} for n in (1, 2)]
        conversation: dict[str, Any] = {"speaker_a": "A", "session_1": turns + extra}
        if dated:
            conversation["session_1_date_time"] = "1:56 pm on 8 May, 2023"
        path = root / f"l{j}.json"
        path.write_text(json.dumps([{"sample_id": user, "conversation": conversation}]))
        kinds[kind] = (path, user, 2 + len(extra), 2 + stored_extra)
    return kinds


def bad_input_table(root: Path, cfg: Config) -> tuple[str, str]:
    kinds = write_hostile_archive(root / "hostile")
    store = LanceStore(root / "hostile-store")
    summary = run_build(str(root / "hostile"), str(store.path), cfg)
    lines = ["| kind | rows in | stored | quarantined | as expected |", "|---|---|---|---|---|"]
    for kind, (path, user, rows_in, expect) in kinds.items():
        stored = store.count("messages", f"user_id = {sql_str(user)}")
        stored += store.count("messages", f"user_id LIKE {sql_str(user + '%')} AND user_id != "
                              f"{sql_str(user)}")  # fmt: skip
        quarantined = store.count("quarantine", f"source = {sql_str(str(path.resolve()))}")
        ok = stored == expect and stored + quarantined == rows_in
        lines.append(f"| {kind} | {rows_in} | {stored} | {quarantined} | {'yes' if ok else 'NO'} |")
    return "\n".join(lines), summary.line()


# --------------------------------------------------------------------------- load


def post(url: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        text = err.read().decode("utf-8", "replace")
        try:
            return err.code, json.loads(text)
        except json.JSONDecodeError:
            return err.code, {"non_json_body": text[:80]}


def load(base: str, callers: int, queries: int, deadline: float) -> dict[str, Any]:
    questions = json.loads((REPO / "examples" / "questions.json").read_text())
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    lock = threading.Lock()

    def caller(index: int) -> None:
        for n in range(queries):
            if time.time() > deadline:
                with lock:
                    errors["not sent: deadline"] += queries - n
                return
            q = questions[(index + n) % len(questions)]
            started = time.perf_counter()
            try:
                status, payload = post(f"{base}/query", {"user_id": q["user_id"],
                                                         "question": q["question"]})  # fmt: skip
            except OSError as err:
                status, payload = -1, {"error": type(err).__name__}
            elapsed = (time.perf_counter() - started) * 1000
            foreign = status == 200 and any(
                e.get("user_id", q["user_id"]) != q["user_id"] for e in payload["evidence"]
            )
            with lock:
                if status != 200:
                    errors[f"HTTP {status}"] += 1
                elif foreign or payload.get("user_id") != q["user_id"]:
                    errors["foreign evidence"] += 1
                else:
                    latencies.append(elapsed)

    started = time.time()
    with ThreadPoolExecutor(callers) as pool:
        list(pool.map(caller, range(callers)))
    seconds = time.time() - started
    values = np.array(latencies) if latencies else np.array([float("nan")])
    return {
        "ok": len(latencies),
        "errors": dict(errors),
        "seconds": seconds,
        "p50": float(np.percentile(values, 50)),
        "p95": float(np.percentile(values, 95)),
        "p99": float(np.percentile(values, 99)),
    }


# --------------------------------------------------------------------------- faults


def faults(base: str, cfg: Config, root: Path) -> list[tuple[str, str]]:
    """(fault, observed outcome) for each injected fault."""
    out: list[tuple[str, str]] = []

    def http(name: str, path: str, body: Any = None, raw: bytes | None = None) -> None:
        status, payload = post(f"{base}{path}", body, raw)
        shown = payload.get("error", payload) if isinstance(payload, dict) else payload
        out.append((name, f"HTTP {status}, JSON: `{str(shown)[:90]}`"))

    http("lone surrogate in user_id", "/query", raw=b'{"user_id": "\\ud800", "question": "q"}')
    http("lone surrogate in question", "/query", raw=b'{"user_id": "bob", "question": "\\udfff"}')
    http(
        "lone surrogate in turn_text", "/localize", raw=b'{"user_id": "b", "turn_text": "\\ud83d"}'
    )
    http("malformed JSON body", "/query", raw=b"{not json")
    http("missing user_id", "/query", {"question": "Where?"})
    http("blank question", "/query", {"user_id": "bob", "question": "  "})
    http("unknown user", "/query", {"user_id": "nobody", "question": "Where?"})
    status, _ = post(f"{base}/nope", {})
    out.append(("unknown route", f"HTTP {status} with a JSON body"))
    try:
        started = time.time()
        join_ray("127.0.0.1:1", "x")
    except RuntimeError as err:
        took = time.time() - started
        outcome = f"one-line error after {took:.1f} s: `{str(err)[:70]}…`"
        out.append(("serve/stop against an unreachable cluster", outcome))
    (root / "empty.jsonl").write_text("\n")
    try:
        build(str(root / "empty.jsonl"), str(root / "empty-store"), cfg)
    except ArchiveError as err:
        out.append(("build of an archive without rows", f"error (exit 2): `{err}`"))
    try:
        check_text_arguments({"question": "where \udcff?"})
    except ValueError as err:
        out.append(("CLI question with invalid UTF-8 bytes", f"error (exit 2): `{err}`"))
    victim = replica_names(cfg)[-1]
    ray.kill(ray.get_actor(victim, namespace=cfg.ray.namespace), no_restart=True)
    time.sleep(1.0)
    statuses = Counter(
        post(f"{base}/query", {"user_id": "bob", "question": "Does Bob eat meat?"})[0]
        for _ in range(20)
    )
    out.append((f"query replica {victim!r} killed (no restart), 20 queries",
                f"statuses {dict(statuses)} (JSON bodies)"))  # fmt: skip
    return out


# --------------------------------------------------------------------------- main


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=32)
    parser.add_argument("--queries", type=int, default=200, help="queries per caller")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--deadline-s", type=float, default=1200.0, help="bound on the load")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS}")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="arborwiki-reliability-"))
    cfg = load_config(
        overrides=[
            "ray.num_shards=2",
            "ray.namespace=arborwiki-reliability",
            f"ray.query_replicas={args.replicas}",
        ]
    )
    try:
        start_ray(cfg.ray)  # private local Ray: serve() then finds it initialised
        bad_table, hostile_line = bad_input_table(root, cfg)
        store = root / "store"
        run_build(str(REPO / "examples" / "sample_archive.jsonl"), str(store), cfg)
        port = free_port()
        serve(str(store), cfg, http_port=port, http_host="127.0.0.1")
        base = f"http://127.0.0.1:{port}"
        for _ in range(20):  # warm-up
            post(f"{base}/query", {"user_id": "bob", "question": "Does Bob eat meat?"})
        result = load(base, args.callers, args.queries, time.time() + args.deadline_s)
        fault_rows = faults(base, cfg, root)
        stopped = stop(cfg)
    finally:
        ray.shutdown()
        shutil.rmtree(root, ignore_errors=True)
    report = render(args, result, bad_table, hostile_line, fault_rows, stopped)
    print(report)
    if args.write:
        RESULTS.write_text(report)


def render(
    args: argparse.Namespace,
    result: dict[str, Any],
    bad_table: str,
    hostile_line: str,
    fault_rows: list[tuple[str, str]],
    stopped: list[str],
) -> str:
    total = args.callers * args.queries
    errors = sum(result["errors"].values())
    load_avg = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    fault_table = "\n".join(f"| {name} | {outcome} |" for name, outcome in fault_rows)
    return f"""# Reliability: load, hostile input, faults

## Query load over HTTP

`serve` (2 query replicas + Ray Serve ingress on 127.0.0.1) over the bundled sample archive
(4 users); {args.callers} concurrent callers × {args.queries} `POST /query` each, every reply
checked (200, the asking user's evidence only).

| callers | queries | ok | errors | seconds | queries/s | p50 ms | p95 ms | p99 ms |
|---|---|---|---|---|---|---|---|---|
| {args.callers} | {total} | {result["ok"]} | {errors} {result["errors"] or ""} | \
{result["seconds"]:.1f} | {result["ok"] / result["seconds"]:.1f} | {result["p50"]:.1f} | \
{result["p95"]:.1f} | {result["p99"]:.1f} |

## Bad input: every kind, rows in / stored / quarantined

One archive directory, one file per kind (2 valid rows + the bad one(s)), built once:
`{hostile_line}`

{bad_table}

## Faults and their outcomes

| fault | outcome |
|---|---|
{fault_table}
| stop after the run | `jobs.serve.stop` stopped {", ".join(stopped) or "nothing"} |

Command: `python -m benchmarks.reliability --callers {args.callers} --queries {args.queries} \
--replicas {args.replicas} --write`
Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.
Machine: {platform.machine()}, {os.cpu_count()} cores, 24 GiB, no GPU, shared with other jobs
(load average at the end, 1/5/15 min: {load_avg}); latencies are noisy because of that.
"""


if __name__ == "__main__":
    main()
