"""`arborwiki versions` and `arborwiki rollback`: the store's runs and going back to one."""

from __future__ import annotations

from typing import Any

from arborwiki.cluster.online import RUN_PREFIX as ONLINE_RUN_PREFIX
from arborwiki.core.config import Config

COUNT_KEYS = ("users", "messages", "snapshots", "claims", "wiki_pages")
TABLE_ABBREVIATIONS = {
    "messages": "msg", "snapshots": "snap", "claims": "clm", "forest_nodes": "node",
    "trajectories": "traj", "evidence": "evid", "wiki_pages": "page", "quarantine": "quar",
    "build_failures": "fail",
}  # fmt: skip


def runs(store: str) -> list[dict[str, Any]]:
    from arborwiki.cluster.store_admin import store_runs

    return [r.to_dict() for r in store_runs(store)]


def rollback(store: str, run_id: str, cfg: Config | None = None) -> dict[str, Any]:
    from arborwiki.cluster.store_admin import rollback_store

    return rollback_store(store, run_id, cfg).to_dict()


def render_runs(rows: list[dict[str, Any]]) -> str:
    """One line per run, oldest first; `*` marks the current run, `-` one whose versions
    retention (or a forget) deleted: it can no longer be rolled back to."""
    lines = []
    online = 0  # agents' online commits (cluster/online.py): counted, not listed
    for row in rows:
        if row["run_id"].startswith(ONLINE_RUN_PREFIX) and not row["current"]:
            online += 1
            continue
        if online:
            lines.append(f"  ({online} online commits)")
            online = 0
        mark = "*" if row["current"] else (" " if row["restorable"] else "-")
        keys = [k for k in COUNT_KEYS if k in row["counts"]] or sorted(row["counts"])
        counts = " ".join(f"{k}={row['counts'][k]}" for k in keys)
        versions = " ".join(
            f"{TABLE_ABBREVIATIONS.get(n, n)}@{v}" for n, v in sorted(row["versions"].items())
        )
        lines.append(
            f"{mark} {row['run_id']:<24} {row['finished_at'][:19]}  {row['input']}\n"
            f"    {counts or 'no counts'}\n    versions: {versions}"
        )
    lines.append("(* current run; - versions deleted, cannot be rolled back to)")
    return "\n".join(lines)


def render_rollback(row: dict[str, Any]) -> str:
    versions = ", ".join(f"{n}@{v}" for n, v in sorted(row["versions"].items()))
    return f"{row['input']}: current run is now {row['run_id']} ({versions})"
