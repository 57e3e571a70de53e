"""The per-user pipeline: messages → snapshots → forest → claims → evidence → wiki.

One plain function, the same in-process (tests, one user) and inside a Ray shard
task (many users). Every stage it calls is pure and typed.
"""

from __future__ import annotations

from arborwiki.core.config import Config
from arborwiki.core.embedding import Embedder
from arborwiki.core.extract.base import Extractor, to_snapshot
from arborwiki.core.forest.evidence import build_evidence
from arborwiki.core.forest.forest import build_forest
from arborwiki.core.forest.lifecycle import apply_lifecycle
from arborwiki.core.records import Message, UserMemory
from arborwiki.core.wiki.compile import compile_wiki
from arborwiki.core.windows import make_windows, order_messages


def build_user_memory(
    messages: list[Message], cfg: Config, extractor: Extractor, embedder: Embedder
) -> UserMemory:
    """Compile one user's messages into their whole memory (all records, vectors included)."""
    if not messages:
        raise ValueError("build_user_memory needs at least one message")
    user_id = messages[0].user_id
    if any(m.user_id != user_id for m in messages):
        raise ValueError("build_user_memory got messages of more than one user")
    messages = order_messages(messages)
    windows = make_windows(messages, cfg.window)
    drafts = extractor.extract(windows)
    if len(drafts) != len(windows):
        raise RuntimeError(f"extractor returned {len(drafts)} drafts for {len(windows)} windows")
    made_by = getattr(extractor, "last_extractors", None) or [extractor.name] * len(windows)
    snapshots = [to_snapshot(w, d, n) for w, d, n in zip(windows, drafts, made_by, strict=True)]
    for snapshot, vector in zip(
        snapshots, embedder.embed([s.summary for s in snapshots]), strict=True
    ):
        snapshot.vector = vector.tolist()
    nodes, trajectories = build_forest(snapshots, cfg.attach)
    claims = apply_lifecycle(snapshots, nodes, cfg.lifecycle)
    evidence = build_evidence(claims, snapshots)
    pages = compile_wiki(
        user_id, snapshots, trajectories, claims, evidence, cfg.wiki, embedder.embed
    )
    message_vectors = embedder.embed([m.search_text for m in messages])
    return UserMemory(
        user_id=user_id,
        messages=messages,
        snapshots=snapshots,
        claims=claims,
        nodes=nodes,
        trajectories=trajectories,
        evidence=evidence,
        pages=pages,
        message_vectors=message_vectors.tolist(),
    )
