"""What the query logic needs from storage, as a protocol (core never imports Lance)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, Literal, NamedTuple, Protocol, TypeVar

from arborwiki.core.query.periods import NearPeriods
from arborwiki.core.records import (
    Claim,
    EvidenceItem,
    ForestNode,
    Message,
    Snapshot,
    Trajectory,
    WikiPage,
)
from arborwiki.core.tokens import TokenRule, tokens_for_words

R = TypeVar("R")
SearchMode = Literal["hybrid", "vector", "text"]


class Hit(NamedTuple, Generic[R]):
    """A search result: the record, its 0-based rank and the engine's relevance score. A
    named tuple, not a frozen dataclass: a warm question makes ~370 of these (and ~180
    `user_search.RowScore`), and a frozen dataclass's `__init__` sets each field through
    `object.__setattr__` (benchmarks/results/query_latency.md, "Session 10")."""

    record: R
    rank: int
    score: float


@dataclass(frozen=True)
class MessageRef:
    """A stored message with the snapshot and trajectory that hold it."""

    message: Message
    snapshot_id: str | None
    trajectory_id: str | None

    @cached_property
    def text(self) -> str:
        """`Message.full_text`, worked out once per (cached) row, not once per question."""
        return self.message.full_text

    @cached_property
    def _words(self) -> int:
        return len(self.text.split())

    def tokens(self, rule: TokenRule) -> int:
        """`count_tokens(self.text, rule)`."""
        return tokens_for_words(self._words, rule)


class MemoryReader(Protocol):
    """User-scoped reads; every method only ever sees `user_id`'s rows."""

    def search_pages(
        self, user_id: str, text: str, vector: list[float], limit: int
    ) -> list[Hit[WikiPage]]: ...

    def search_messages(
        self,
        user_id: str,
        text: str,
        vector: list[float],
        limit: int,
        mode: SearchMode = "hybrid",
        trajectory_ids: list[str] | None = None,
        dates: NearPeriods | None = None,
        speakers: Sequence[str] = (),
    ) -> list[Hit[MessageRef]]:
        """Hybrid/vector/text search; `trajectory_ids` prefilters to those trajectories,
        `dates` to messages dated near the periods it names, `speakers` to the sessions
        those speakers speak in (core/query/speakers.py)."""
        ...

    def lexical_reach(self, user_id: str, text: str) -> float:
        """The largest share of `text`'s term weight one of the user's messages holds
        (core/query/user_search.py `UserSearch.lexical_reach`)."""
        ...

    def speaker_names(self, user_id: str) -> frozenset[str]:
        """The words of the names of everyone who speaks in the user's archive."""
        ...

    def owner_names(self, user_id: str) -> frozenset[str]:
        """Who "I" is in a question about the user's archive: the claim subjects of the
        owner's own turns (core/query/speakers.py)."""
        ...

    def all_messages(self, user_id: str) -> list[MessageRef]: ...

    def trajectories(self, user_id: str, ids: list[str]) -> list[Trajectory]: ...

    def snapshots(self, user_id: str, ids: list[str]) -> list[Snapshot]: ...

    def messages(self, user_id: str, ids: list[str]) -> list[MessageRef]: ...

    def messages_in_snapshots(self, user_id: str, snapshot_ids: list[str]) -> list[MessageRef]: ...

    def claims(self, user_id: str, trajectory_ids: list[str]) -> list[Claim]: ...

    def claims_by_id(self, user_id: str, claim_ids: list[str]) -> list[Claim]: ...

    # whole-user reads for the online turn (localize) and belief history
    def nodes(self, user_id: str) -> list[ForestNode]: ...

    def all_snapshots(self, user_id: str) -> list[Snapshot]: ...

    def all_trajectories(self, user_id: str) -> list[Trajectory]: ...

    def all_claims(self, user_id: str) -> list[Claim]: ...

    def evidence(self, user_id: str) -> list[EvidenceItem]: ...

    def pages(self, user_id: str) -> list[WikiPage]: ...

    def version(self, table: str) -> int:
        """The table's current version: a cache of derived state is stale when it moves."""
        ...
