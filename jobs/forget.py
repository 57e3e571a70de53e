"""`arborwiki forget`: a user, or some of their messages, removed with everything built
from them (the cascade lives in cluster/forget.py)."""

from __future__ import annotations

from typing import Any

from arborwiki.core.config import Config


def forget(store: str, user_id: str, message_ids: list[str], cfg: Config) -> dict[str, Any]:
    from arborwiki.cluster.store_admin import forget_in_store

    return forget_in_store(store, cfg, user_id, message_ids).to_dict()


def unforget(store: str, user_id: str, message_ids: list[str]) -> dict[str, Any]:
    from arborwiki.cluster.store_admin import unforget_in_store

    gone = unforget_in_store(store, user_id, message_ids)
    return {"user_id": user_id, "message_ids": sorted(message_ids), "tombstones_removed": gone}


def render_forget(report: dict[str, Any]) -> str:
    """What went, table by table, and what the store keeps of the user."""
    what = (
        f"{len(report['message_ids'])} messages of user {report['user_id']!r}"
        if report["message_ids"]
        else f"user {report['user_id']!r}"
    )
    lines = [f"forgot {what} (run {report['run_id']}); rows removed per table:"]
    for name, count in sorted(report["removed"].items()):
        lines.append(f"  {name:<14} {count}")
    for key, label in (("rewritten", "rebuilt in place"), ("added", "rebuilt under new ids")):
        if report[key]:
            counts = ", ".join(f"{n} {c}" for n, c in sorted(report[key].items()))
            lines.append(f"  {label}: {counts}")
    if report["message_ids"]:
        lines.append(f"  messages the user keeps: {report['remaining_messages']}")
    lines.append(
        f"  older versions of every table deleted; build outputs removed: "
        f"{report['work_dirs_removed']} shard dirs, {report['drafts_removed']} cached drafts, "
        f"{report['vectors_removed']} cached vectors"
    )
    return "\n".join(lines)
