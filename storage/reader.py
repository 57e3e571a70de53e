"""LanceMemoryReader: the query side's MemoryReader over a LanceStore."""

from __future__ import annotations

from typing import Any

from arborwiki.core.query.reader import Hit, MessageRef, SearchMode
from arborwiki.core.records import (
    Claim,
    EvidenceItem,
    ForestNode,
    Message,
    Snapshot,
    Trajectory,
    WikiPage,
)
from arborwiki.core.schema import row_to_record
from arborwiki.storage.lance_store import LanceStore, sql_in
from arborwiki.storage.tables import MESSAGE_REF_COLUMNS as MESSAGE_COLUMNS

to_record = row_to_record  # the one row → record conversion (core.schema)


def to_message_ref(row: dict[str, Any]) -> MessageRef:
    return MessageRef(to_record(Message, row), row.get("snapshot_id"), row.get("trajectory_id"))


def _score(row: dict[str, Any]) -> float:
    for key in ("_relevance_score", "_score"):
        if key in row:
            return float(row[key])
    return -float(row.get("_distance", 0.0))


class LanceMemoryReader:
    def __init__(self, store: LanceStore) -> None:
        self.store = store

    def search_pages(
        self, user_id: str, text: str, vector: list[float], limit: int
    ) -> list[Hit[WikiPage]]:
        rows = self.store.search(
            "wiki_pages", user_id, vector, text, limit, where="kind != 'index'"
        )
        return [Hit(to_record(WikiPage, r), i, _score(r)) for i, r in enumerate(rows)]

    def search_messages(
        self,
        user_id: str,
        text: str,
        vector: list[float],
        limit: int,
        mode: SearchMode = "hybrid",
        trajectory_ids: list[str] | None = None,
    ) -> list[Hit[MessageRef]]:
        if trajectory_ids is not None and not trajectory_ids:
            return []
        rows = self.store.search(
            "messages",
            user_id,
            vector if mode != "text" else None,
            text if mode != "vector" else None,
            limit,
            where=sql_in("trajectory_id", trajectory_ids) if trajectory_ids else None,
        )
        return [Hit(to_message_ref(r), i, _score(r)) for i, r in enumerate(rows)]

    def trajectories(self, user_id: str, ids: list[str]) -> list[Trajectory]:
        rows = self.store.rows("trajectories", user_id, "trajectory_id", ids)
        return sorted((to_record(Trajectory, r) for r in rows), key=lambda t: t.trajectory_id)

    def snapshots(self, user_id: str, ids: list[str]) -> list[Snapshot]:
        rows = self.store.rows("snapshots", user_id, "snapshot_id", ids)
        return [to_record(Snapshot, r) for r in rows]

    def messages(self, user_id: str, ids: list[str]) -> list[MessageRef]:
        rows = self.store.rows("messages", user_id, "message_id", ids, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def messages_in_snapshots(self, user_id: str, snapshot_ids: list[str]) -> list[MessageRef]:
        if not snapshot_ids:
            return []
        rows = self.store.rows(
            "messages", user_id, "snapshot_id", snapshot_ids, columns=MESSAGE_COLUMNS
        )
        return [to_message_ref(r) for r in rows]

    def claims_by_id(self, user_id: str, claim_ids: list[str]) -> list[Claim]:
        if not claim_ids:
            return []
        rows = self.store.rows("claims", user_id, "claim_id", claim_ids)
        return [to_record(Claim, r) for r in rows]

    def all_messages(self, user_id: str) -> list[MessageRef]:
        rows = self.store.rows("messages", user_id, columns=MESSAGE_COLUMNS)
        return [to_message_ref(r) for r in rows]

    def claims(self, user_id: str, trajectory_ids: list[str]) -> list[Claim]:
        rows = self.store.rows("claims", user_id, "trajectory_id", trajectory_ids)
        return [to_record(Claim, r) for r in rows]

    def nodes(self, user_id: str) -> list[ForestNode]:
        return [to_record(ForestNode, r) for r in self.store.rows("forest_nodes", user_id)]

    def all_snapshots(self, user_id: str) -> list[Snapshot]:
        return [to_record(Snapshot, r) for r in self.store.rows("snapshots", user_id)]

    def all_trajectories(self, user_id: str) -> list[Trajectory]:
        rows = self.store.rows("trajectories", user_id)
        return sorted((to_record(Trajectory, r) for r in rows), key=lambda t: t.trajectory_id)

    def all_claims(self, user_id: str) -> list[Claim]:
        return [to_record(Claim, r) for r in self.store.rows("claims", user_id)]

    def evidence(self, user_id: str) -> list[EvidenceItem]:
        return [to_record(EvidenceItem, r) for r in self.store.rows("evidence", user_id)]

    def pages(self, user_id: str) -> list[WikiPage]:
        return [to_record(WikiPage, r) for r in self.store.rows("wiki_pages", user_id)]

    def version(self, table: str) -> int:
        """-1 when the table does not exist yet (nothing built, nothing to cache)."""
        return int(self.store.table(table).version) if self.store.has(table) else -1
