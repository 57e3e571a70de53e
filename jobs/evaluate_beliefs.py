"""`arborwiki evaluate beliefs`: the claim lifecycle scored on labelled belief changes."""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

from arborwiki.cluster.local_service import open_service
from arborwiki.core.config import Config
from arborwiki.core.evaluation.beliefs import BeliefScores, ChangeLabel, score_beliefs
from arborwiki.jobs.evaluate import build_or_reuse


def read_labels(path: str) -> tuple[list[ChangeLabel], dict[str, set[str]]]:
    """Changes, and each user's control/distractor message ids (`probes`, or a hand-made
    set's `controls`)."""
    raw = json.loads(Path(path).read_text())
    labels = [ChangeLabel.of(row) for row in raw["changes"]]
    probes: dict[str, set[str]] = {}
    for row in [*raw.get("probes", []), *raw.get("controls", [])]:
        probes.setdefault(row["user_id"], set()).update(row["message_ids"])
    return labels, probes


def evaluate_beliefs(
    archive: str,
    labels_file: str,
    out_dir: str,
    cfg: Config,
    store: str | None = None,
    reuse_store: bool = False,
    command: str = "",
) -> dict[str, Any]:
    """Build `archive` (or reuse `store`), score it on `labels_file`, write metrics.json and
    report.md under `out_dir`."""
    started = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    store_dir = store or str(out / "store")
    build_seconds = build_or_reuse(archive, store_dir, cfg, reuse_store)
    service = open_service(store_dir, cfg)
    labels, probes = read_labels(labels_file)

    def history(user_id: str, about: str) -> tuple[Any, str]:
        found = service.history(user_id, about)
        return found, found.text()

    scores = score_beliefs(
        labels,
        probes,
        service.reader.all_claims,
        lambda user, question: service.query(user, question),
        history,
    )
    metrics = {"archive": archive, "labels": labels_file, **scores.summary()}
    metrics["families"] = scores.table()
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))
    (out / "outcomes.json").write_text(json.dumps(_outcomes(scores), indent=1))
    seconds = time.time() - started
    (out / "report.md").write_text(
        render_beliefs(scores, archive, labels_file, command, build_seconds, seconds)
    )
    return metrics


def _outcomes(scores: BeliefScores) -> list[dict[str, Any]]:
    """Each change with what the store said: the file to read when a figure moves."""
    return [
        {
            "user_id": o.label.user_id,
            "family": o.label.family,
            "old": o.label.old,
            "new": o.label.new,
            "question": o.label.question,
            "event": o.event,
            "current": o.current,
            "stale": o.stale,
            "history": o.history,
            "said": o.said,
        }
        for o in scores.outcomes
    ] + [
        {"false_event": c.text, "op": c.op, "sources": c.source_message_ids}
        for c in scores.false_events
    ]


def render_beliefs(
    scores: BeliefScores,
    archive: str,
    labels: str,
    command: str,
    build_seconds: float,
    seconds: float,
) -> str:
    s = scores.summary()
    lines = [
        f"# Belief changes: {Path(labels).name}",
        "",
        f"Command: `{command or 'arborwiki evaluate beliefs'}`  ",
        f"Archive: `{Path(archive).name}`; machine: {platform.machine()}; "
        f"build {build_seconds:.0f} s, total {seconds:.0f} s.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| changes labelled | {s['changes']} |",
        f"| change-event recall | {s['event_recall']} |",
        f"| change-event precision | {s['event_precision']} "
        f"({s['events'] - s['false_events']} of {s['events']}) |",
        f"| current value stated (`now:`/`fact:`, or the end shown) | {s['current_stated']} |",
        f"| old value stated as current | {s['stale_as_current']} ({s['stale_share']}) |",
        f"| `history --about <question>`: old → new chain in top 3 | {s['history_top3']} |",
        f"| longest `history` output (characters) | {s['history_max_chars']} |",
        f"| false updates from controls and distractors | {s['false_updates']} of "
        f"{s['probes']} messages |",
        "",
        "| phrasing family | n | event recall | current stated | stale | history top 3 |",
        "|---|---|---|---|---|---|",
    ]
    for row in scores.table():
        lines.append(
            f"| {row['family']} | {row['n']} | {row['event']} | {row['current']} | "
            f"{row['stale']} | {row['history_top3']} |"
        )
    return "\n".join(lines) + "\n"
