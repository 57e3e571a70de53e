"""`arborwiki evaluate threads ARCHIVE LABELS --online`: `localize` measured as it is used.

Each user's first session is built in batch (the store an agent starts from); every later
session is then replayed in time order through the online write path (`MemoryStore.add`):
before each user turn is written, `localize` is asked which stored trajectory it continues,
against everything committed so far (the same dialogue's earlier turns included); then the
turn and the assistant's reply are added, and the add settled (core/live.py: at an agent's
pace the writer compiles the user in full between turns by itself). A turn is right when
the trajectory it is put on has the turn's label as its majority label, or, when no stored
message has that label yet, when it is answered NEW. Two baselines on the same store
state: the user's most recently written trajectory, and the TF-IDF-nearest stored
message. Reported over all labelled user turns and over the switch/return turns (label
differs from the previous user turn's), with the adds' latency, and the final store's
trajectories against a batch build of the same messages (`arborwiki evaluate threads`'
partition metrics).

Only JSONL archives (the rows are sent to `add` as they are).
"""

from __future__ import annotations

import json
import platform
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.progress import track

from arborwiki.api import MemoryStore
from arborwiki.cluster.local_service import InProcessBackend
from arborwiki.core.config import Config
from arborwiki.core.evaluation.threads import (
    UserThreads,
    nearest_message_label,
    thread_metrics,
    trajectory_labels,
)
from arborwiki.core.query.requests import NewMessage
from arborwiki.jobs.evaluate import _cores, build_or_reuse
from arborwiki.jobs.evaluate_threads import label_of, read_jsonl, user_threads

ROW_FIELDS = set(NewMessage.model_fields)
SCORES = ("online localize", "most recent trajectory", "TF-IDF-nearest message")


def _sessions(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A user's rows as sessions in time order, each in turn order."""
    by_session: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_session[str(row.get("session_id"))].append(row)
    ordered = sorted(by_session.values(), key=lambda s: min(str(r["timestamp"]) for r in s))
    return [sorted(s, key=lambda r: (str(r["timestamp"]), r.get("turn_index", 0))) for s in ordered]


def _turn_groups(session: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """A user turn with the replies that follow it (what one add writes)."""
    groups: list[list[dict[str, Any]]] = []
    for row in session:
        if row.get("role") == "user" or not groups:
            groups.append([row])
        else:
            groups[-1].append(row)
    return groups


def replay_online(
    archive: str,
    labels_file: str,
    out_dir: str,
    cfg: Config,
    labelling: str = "domain",
    max_users: int | None = None,
    command: str = "",
) -> dict[str, Any]:
    started = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    labels = read_jsonl(labels_file, "labels", {"user_id", "message_id", *labelling.split(",")})
    rows = read_jsonl(archive, "archive", {"user_id", "message_id", "text", "timestamp"})
    by_user: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_user[str(row["user_id"])].append(row)
    users = sorted(by_user)[:max_users]
    labelled: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for row in labels:
        labelled[str(row["user_id"])][str(row["message_id"])] = row
    sessions = {u: _sessions(by_user[u]) for u in users}
    seed = out / "seed.jsonl"
    with seed.open("w", encoding="utf-8") as handle:
        for user in users:
            for row in sessions[user][0]:
                handle.write(json.dumps(row) + "\n")
    store_dir = str(out / "store")
    build_or_reuse(str(seed), store_dir, cfg, False)
    backend = InProcessBackend.open(store_dir, cfg)
    memory, service = MemoryStore(backend, store_dir), backend.service
    cases: list[dict[str, Any]] = []
    add_seconds: list[float] = []
    replayed = [row for u in users for s in sessions[u][1:] for row in s]
    for user in track(users, description="replay", transient=True):
        previous: str | None = None
        for session in sessions[user][1:]:
            for group in _turn_groups(session):
                turn = group[0]
                want = labelled[user].get(str(turn["message_id"]))
                if turn.get("role") == "user" and want is not None:
                    state, _ = user_threads(service, user, labelled[user], (labelling,))
                    case = _score(service, state, user, turn, label_of(want, labelling), labelling)
                    case["switch"] = previous is not None and case["label"] != previous
                    previous = case["label"]
                    cases.append(case)
                sent = [{k: v for k, v in r.items() if k in ROW_FIELDS} for r in group]
                begun = time.perf_counter()
                memory.add(user, sent)
                add_seconds.append(time.perf_counter() - begun)
                backend.settle()  # an agent's next turn comes after the settle has run
    online = {u: user_threads(service, u, labelled[u], (labelling,))[0] for u in users}
    batch_dir = str(out / "batch-store")
    everything = out / "replayed.jsonl"
    with everything.open("w", encoding="utf-8") as handle:
        for user in users:
            for session in sessions[user]:
                for row in session:
                    handle.write(json.dumps(row) + "\n")
    build_or_reuse(str(everything), batch_dir, cfg, False)
    batch_service = InProcessBackend.open(batch_dir, cfg).service
    batch = {u: user_threads(batch_service, u, labelled[u], (labelling,))[0] for u in users}
    metrics = {
        "archive": archive,
        "users": len(users),
        "replayed_messages": len(replayed),
        "adds": len(add_seconds),
        "labelling": labelling,
        "all": _totals(cases),
        "switch_or_return": _totals([c for c in cases if c["switch"]]),
        "unanswerable": sum(c["has_thread"] and not c["has_trajectory"] for c in cases),
        "add_ms": _percentiles(add_seconds),
        "forest_online": thread_metrics([t for t in online.values() if t], (labelling,)),
        "forest_batch": thread_metrics([t for t in batch.values() if t], (labelling,)),
        "seconds": round(time.time() - started, 1),
        "cases": cases,
    }
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    (out / "report.md").write_text(render_online(metrics, command))
    return metrics


def _score(
    service: Any,
    state: UserThreads | None,
    user: str,
    turn: dict[str, Any],
    want: str,
    labelling: str,
) -> dict[str, Any]:
    """One turn localized against the store as it is, beside the two baselines."""
    text = str(turn["text"])
    result = service.localize(user, text, turn.get("session_id"))
    known = state is not None and want in state.labels[labelling]
    got = recent = nearest = None
    majorities: dict[str, str] = {}
    if state is not None:
        majorities = trajectory_labels(state, labelling)
        got = majorities.get(result.trajectory_id) if result.trajectory_id else None
        recent = majorities.get(state.trajectories[-1])
        nearest = nearest_message_label(state, labelling, text)
    return {
        "user_id": user,
        "message_id": turn["message_id"],
        "text": text,
        "label": want,
        "has_thread": known,
        "has_trajectory": want in majorities.values(),
        "decision": result.decision,
        "trajectory_label": got,
        SCORES[0]: (got == want) if known else result.decision == "NEW",
        SCORES[1]: known and recent == want,
        SCORES[2]: known and nearest == want,
    }


def _totals(cases: list[dict[str, Any]]) -> dict[str, Any]:
    return {"turns": len(cases)} | {name: sum(bool(c[name]) for c in cases) for name in SCORES}


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    if not ordered:
        return {}
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return {
        "p50": round(pick(0.5), 1),
        "p95": round(pick(0.95), 1),
        "max": round(ordered[-1] * 1000, 1),
    }


def render_online(metrics: dict[str, Any], command: str) -> str:
    lines = [
        f"# `localize` online: {metrics['archive']}",
        "",
        f"Command: `{command}`  ",
        f"Machine: {platform.machine()}, {_cores()} cores; {metrics['users']} users, "
        f"{metrics['replayed_messages']} messages replayed in {metrics['adds']} adds, "
        f"total {metrics['seconds']:.0f} s. Labelling `{metrics['labelling']}`.",
        "",
        "| turns | n | " + " | ".join(SCORES) + " |",
        "|---|---|" + "---|" * len(SCORES),
    ]
    for key, name in (("all", "all labelled user turns"), ("switch_or_return", "switch / return")):
        row = metrics[key]
        shares = " | ".join(
            f"{row[s] / row['turns']:.3f} ({row[s]})" if row["turns"] else "—" for s in SCORES
        )
        lines.append(f"| {name} | {row['turns']} | {shares} |")
    add = metrics["add_ms"]
    lines += [
        "",
        f"Turns no answer gets right: {metrics['unanswerable']} (their label is on a stored "
        "message, but no trajectory holds it as its majority: the task's opening turn sits "
        "in another task's trajectory).",
        "",
        f"Add latency (one user turn and its replies, in process): p50 {add.get('p50')} ms, "
        f"p95 {add.get('p95')} ms, max {add.get('max')} ms.",
        "",
        "| forest after the replay | trajectories ARI | purity | trees ARI |",
        "|---|---|---|---|",
    ]
    for key, name in (("forest_online", "online (replayed adds)"), ("forest_batch", "batch build")):
        block = next(iter(metrics[key].values()))["mean"]
        t, r = block["trajectories"], block["trees"]
        lines.append(f"| {name} | {t['ari']:.3f} | {t['purity']:.3f} | {r['ari']:.3f} |")
    return "\n".join(lines) + "\n"
