"""`arborwiki evaluate threads ARCHIVE LABELS`: do trajectories and trees follow labelled tasks?

Builds (or reuses) a store of ARCHIVE, reads where the forest put every labelled message,
and reports per user and averaged purity, inverse purity, ARI and V-measure for each
labelling against the forest and the baselines (core/evaluation/threads.py); with
`--localize TURNS`, `localize` accuracy beside the TF-IDF-nearest-message baseline.

LABELS is JSONL, one row per message: `user_id`, `message_id` and the label columns; a
labelling is a column name or several joined by commas (`dialogue,domain`: a task
instance). TURNS is JSONL: `user_id`, `text` and the first labelling's columns.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

from rich.progress import track

from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import Config
from arborwiki.core.evaluation.threads import (
    BASELINES,
    FOREST,
    UserThreads,
    nearest_message_label,
    thread_metrics,
    trajectory_label,
)
from arborwiki.core.query.service import QueryService
from arborwiki.jobs.evaluate import _cores, build_or_reuse

DEFAULT_LABELLINGS = ("domain", "dialogue,domain")


def read_jsonl(path: str, what: str, needs: set[str]) -> list[dict[str, Any]]:
    """Rows of a JSONL file, each holding every column of `needs` (else one-line errors)."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{what} {path}:{number}: not JSON ({exc.msg})") from None
            missing = sorted(c for c in needs if not isinstance(row, dict) or c not in row)
            if missing:
                raise ValueError(f"{what} {path}:{number}: no {', '.join(missing)}")
            rows.append(row)
    if not rows:
        raise ValueError(f"{what} {path}: no rows")
    return rows


def label_of(row: dict[str, Any], labelling: str) -> str:
    return "/".join(str(row[column]) for column in labelling.split(","))


def columns(labellings: tuple[str, ...]) -> set[str]:
    return {c for labelling in labellings for c in labelling.split(",")}


def user_threads(
    service: QueryService, user_id: str, labelled: dict[str, dict[str, Any]], labellings
) -> tuple[UserThreads | None, int]:
    """The user's labelled, stored messages with their forest placement; and how many
    labelled messages the store does not hold."""
    reader = service.reader
    tree_of = {n.trajectory_id: n.root_id for n in reader.nodes(user_id)}
    refs = [r for r in reader.all_messages(user_id) if r.message.message_id in labelled]
    refs = [r for r in refs if r.trajectory_id in tree_of]
    missing = len(labelled) - len(refs)
    if not refs:
        return None, missing
    rows = [labelled[r.message.message_id] for r in refs]
    return (
        UserThreads(
            user_id=user_id,
            message_ids=[r.message.message_id for r in refs],
            texts=[r.text for r in refs],
            sessions=[f"{r.message.conversation_id}/{r.message.session_id}" for r in refs],
            windows=[r.snapshot_id or r.message.message_id for r in refs],
            trajectories=[r.trajectory_id or "" for r in refs],
            trees=[tree_of[r.trajectory_id or ""] for r in refs],
            labels={lb: [label_of(row, lb) for row in rows] for lb in labellings},
        ),
        missing,
    )


def score_localize(
    service: QueryService, users: dict[str, UserThreads], turns: list[dict], labelling: str
) -> dict[str, Any]:
    cases = []
    for turn in track(turns, description="localize", transient=True):
        user = users.get(str(turn["user_id"]))
        if user is None:
            raise ValueError(f"localize turn for user {turn['user_id']!r}, who has no labels")
        want = label_of(turn, labelling)
        result = service.localize(user.user_id, str(turn["text"]))
        got = trajectory_label(user, labelling, result.trajectory_id)
        nearest = nearest_message_label(user, labelling, str(turn["text"]))
        cases.append(
            {
                "user_id": user.user_id,
                "text": turn["text"],
                "label": want,
                "decision": result.decision,
                "stage": result.stage,
                "trajectory_label": got,
                "nearest_message_label": nearest,
                "correct": got == want,
                "baseline_correct": nearest == want,
            }
        )
    return {
        "labelling": labelling,
        "turns": len(cases),
        "correct": sum(c["correct"] for c in cases),
        "new": sum(c["decision"] == "NEW" for c in cases),
        "baseline_correct": sum(c["baseline_correct"] for c in cases),
        "cases": cases,
    }


def evaluate_threads(
    archive: str,
    labels_file: str,
    out_dir: str,
    cfg: Config,
    labellings: tuple[str, ...] = DEFAULT_LABELLINGS,
    localize_file: str | None = None,
    store: str | None = None,
    reuse_store: bool = False,
    command: str = "",
) -> dict[str, Any]:
    started = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = read_jsonl(labels_file, "labels", {"user_id", "message_id"} | columns(labellings))
    turns = (
        read_jsonl(localize_file, "turns", {"user_id", "text"} | columns(labellings[:1]))
        if localize_file
        else []
    )
    store_dir = store or str(out / "store")
    build_seconds = build_or_reuse(archive, store_dir, cfg, reuse_store)
    service = open_service(store_dir, cfg)
    by_user: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_user.setdefault(str(row["user_id"]), {})[str(row["message_id"])] = row
    users: dict[str, UserThreads] = {}
    unresolved = 0
    for user_id in track(sorted(by_user), description="users", transient=True):
        user, missing = user_threads(service, user_id, by_user[user_id], labellings)
        unresolved += missing
        if user is not None:
            users[user_id] = user
    if not users:
        raise ValueError(f"no labelled message of {labels_file} is in the store {store_dir}")
    metrics: dict[str, Any] = {
        "archive": archive,
        "labels": labels_file,
        "users": len(users),
        "messages": sum(len(u.message_ids) for u in users.values()),
        "labels_without_stored_message": unresolved,
        "labellings": thread_metrics(list(users.values()), labellings),
    }
    if turns:
        metrics["localize"] = score_localize(service, users, turns, labellings[0])
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    header = (
        f"# Threads against labels: {Path(labels_file).name}\n\n"
        f"Command: `{command or 'arborwiki evaluate threads ' + archive + ' ' + labels_file}`  \n"
        f"Machine: {platform.machine()}, {_cores()} cores; build {build_seconds:.0f} s"
        f"{' (store reused)' if reuse_store else ''}, total {time.time() - started:.0f} s.  \n"
        f"Users: {metrics['users']}; labelled messages scored: {metrics['messages']} "
        f"(labels without a stored message: {unresolved})."
    )
    (out / "report.md").write_text(render_threads(metrics, header))
    return metrics


def render_threads(metrics: dict[str, Any], header: str) -> str:
    lines = [header, ""]
    for labelling, block in metrics["labellings"].items():
        lines += [
            f"## Labelling `{labelling}` ({block['labels_per_user']:.1f} labels per user)",
            "",
            "| partition | purity | inverse purity | ARI | V-measure | groups per user |",
            "|---|---|---|---|---|---|",
        ]
        for name in (*FOREST, *BASELINES):
            s = block["mean"][name]
            lines.append(
                f"| {name} | {s['purity']:.3f} | {s['inverse_purity']:.3f} | {s['ari']:.3f} | "
                f"{s['v_measure']:.3f} | {s['groups']:.1f} |"
            )
        lines += ["", "Per user (forest trajectories / trees: ARI, purity, groups):", ""]
        lines += ["| user | trajectories ARI | purity | n | trees ARI | purity | n |"]
        lines += ["|---|---|---|---|---|---|---|"]
        for user, scores in block["per_user"].items():
            t, r = scores["trajectories"], scores["trees"]
            lines.append(
                f"| {user} | {t['ari']:.3f} | {t['purity']:.3f} | {t['groups']:.0f} | "
                f"{r['ari']:.3f} | {r['purity']:.3f} | {r['groups']:.0f} |"
            )
        lines.append("")
    if "localize" in metrics:
        loc = metrics["localize"]
        lines += [
            f"## localize (scored on `{loc['labelling']}`)",
            "",
            "| method | correct | of | NEW |",
            "|---|---|---|---|",
            f"| arborwiki localize | {loc['correct']} | {loc['turns']} | {loc['new']} |",
            f"| label of the TF-IDF-nearest stored message | {loc['baseline_correct']} | "
            f"{loc['turns']} | – |",
            "",
        ]
    return "\n".join(lines)
