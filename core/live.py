"""A user's memory kept live between builds: an add's turns placed at the cost of those turns.

A full compile (core/pipeline.py) reads every message of the user again: episodes, threads,
the whole forest, lifecycle, wiki (~240 ms for 2,000 messages on a 2-core box). An online
add answers from this instead: its new turns are cut into windows (one session's turns,
`window.max_turns` at most), drafted and embedded like any window, and each window is
placed in the live forest by `place_turn`, the decision `localize` reports for a live turn
(the dialogue in progress continues its trajectory, a turn closest to another thread's
profile returns to it, anything else goes to the forest's cascade), then attached. The
lifecycle runs over the user's claims again, so a new value revises the old at once.

What stays as it was: earlier messages, snapshots and nodes (an add appends, it never moves
them) and the pages (compiled over everything, left to the full compile). The online
writer settles the user once adds pause (cluster/online.py): a full compile that may
re-place the new turns as a build would and brings the pages up to date. Without it the
forest degrades (benchmarks/results/localize_online.md: live placement alone, 0.45 of
turns localized right against 0.75 settled).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from arborwiki.core.config import Config
from arborwiki.core.embedding import Embedder
from arborwiki.core.episodes import Episode, session_runs
from arborwiki.core.extract.base import Extraction
from arborwiki.core.forest.evidence import build_evidence
from arborwiki.core.forest.forest import Forest
from arborwiki.core.forest.lifecycle import apply_lifecycle
from arborwiki.core.pipeline import window_digest, window_snapshots
from arborwiki.core.query.localize import UserForest, place_turn, user_forest
from arborwiki.core.query.reader import MessageRef
from arborwiki.core.records import ForestNode, Message, Snapshot, UserMemory, Window
from arborwiki.core.windows import make_windows, order_key, order_messages

Drafts = Callable[[list[Window], list[str]], list[Extraction]]
"""Windows and their digests → their drafts (the writer's cache, then its extractor)."""


@dataclass
class LiveMemory:
    """A user's compiled memory, the forest it was placed in and what `place_turn` reads."""

    memory: UserMemory
    forest: Forest
    entry: UserForest

    @classmethod
    def of(cls, memory: UserMemory, forest: Forest) -> LiveMemory:
        """From a full compile's memory and forest (`compile_with_forest`)."""
        snapshot_of = {mid: s.snapshot_id for s in memory.snapshots for mid in s.message_ids}
        trajectory_of = {n.snapshot_id: n.trajectory_id for n in memory.nodes}
        refs = [
            MessageRef(m, sid, trajectory_of.get(sid or ""))
            for m in memory.messages
            for sid in [snapshot_of.get(m.message_id)]
        ]
        entry = user_forest(forest, memory.snapshots, memory.trajectories, refs)
        return cls(memory, forest, entry)

    def follows(self, new: list[Message]) -> bool:
        """Whether `new` comes after every stored message in pipeline order: an add can only
        append turns (one dated before the latest stored turn needs a full compile)."""
        if not self.memory.messages or not new:
            return False
        last = order_key(self.memory.messages[-1])
        return all(order_key(m) > last for m in new)

    def extend(
        self, new: list[Message], drafts: Drafts, cfg: Config, embedder: Embedder
    ) -> tuple[UserMemory, UserMemory]:
        """Place `new` (which `follows`) and return the user's whole memory and the part an
        add writes: the new messages, snapshots and nodes, and every claim, trajectory and
        evidence item of the user (the lifecycle may change earlier ones); no pages."""
        ordered = order_messages(new)
        runs = [Episode(run, thread=-1) for run in session_runs(ordered)]  # no thread: placed live
        windows, _ = make_windows(runs, cfg.window.max_turns)
        keys = [window_digest(w) for w in windows]
        messages = [*self.memory.messages, *ordered]
        snapshots = window_snapshots(windows, drafts(windows, keys), keys, messages, embedder)
        nodes = [self._place(w, s, cfg) for w, s in zip(windows, snapshots, strict=True)]
        all_snapshots = [*self.memory.snapshots, *snapshots]
        all_nodes = self.forest.nodes
        claims = apply_lifecycle(all_snapshots, all_nodes, cfg.lifecycle)
        vectors = embedder.embed([m.search_text for m in ordered])
        self.memory = self.memory.model_copy(
            update={
                "messages": messages,
                "snapshots": all_snapshots,
                "claims": claims,
                "nodes": all_nodes,
                "trajectories": self.forest.trajectories,
                "evidence": build_evidence(claims, all_snapshots),
                "message_vectors": np.vstack([self.memory.message_vectors, vectors]),
            }
        )
        written = self.memory.model_copy(
            update={
                "messages": ordered,
                "snapshots": snapshots,
                "nodes": nodes,
                "pages": [],
                "message_vectors": vectors,
            }
        )
        return self.memory, written

    def _place(self, window: Window, sigma: Snapshot, cfg: Config) -> ForestNode:
        """Where `place_turn` says (the window's text read as localize reads a turn), then
        the dialogue in progress is this window's and its trajectory the latest."""
        entry = self.entry
        text = " ".join(m.full_text for m in window.messages)
        placement = place_turn(entry, sigma, text, cfg, window.session_id)
        node = self.forest.attach_placed(sigma, placement)
        entry.snapshots[node.snapshot_id] = sigma
        if node.trajectory_id in entry.order:
            entry.order.remove(node.trajectory_id)
        entry.order.append(node.trajectory_id)
        self.entry = entry._replace(latest_session=window.session_id)
        return node
