"""The per-user pipeline as typed stages: windows → extract (batched) → compile.

The build runs these stages apart so extraction can batch windows from many users on a
pool of engines (cluster/stages.py); `build_user_memory` chains them for one user
in-process (tests, notebooks). Every function here is pure and typed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from arborwiki.core.config import Config
from arborwiki.core.embedding import Embedder
from arborwiki.core.episodes import find_episodes
from arborwiki.core.extract.base import Extraction, LabeledExtractor, to_snapshot
from arborwiki.core.extract.identity import name_the_owner
from arborwiki.core.forest.evidence import build_evidence
from arborwiki.core.forest.forest import Forest, grow_forest
from arborwiki.core.forest.lifecycle import apply_lifecycle
from arborwiki.core.forest.threads import on_threads, thread_records
from arborwiki.core.records import Message, Snapshot, UserMemory, Window, WindowPlace
from arborwiki.core.wiki.compile import compile_wiki
from arborwiki.core.windows import make_windows, order_messages


@dataclass
class UserWindows:
    """Stage 1's output for one user: messages in pipeline order, their windows and where
    each window sits (episode, thread)."""

    user_id: str
    messages: list[Message]
    windows: list[Window]
    places: list[WindowPlace]
    keys: list[str] = field(default_factory=list)
    """Each window's content digest (`window_digest`): the draft cache's key, stored on the
    window's snapshot. Given when the windows were keyed before (read back from where
    WindowsStage persisted them), else computed here, once (about 6 µs a window)."""

    def __post_init__(self) -> None:
        if not self.keys:
            self.keys = [window_digest(w) for w in self.windows]


def user_windows(messages: list[Message], cfg: Config) -> UserWindows:
    """Order one user's messages, find their episodes and threads, cut the windows."""
    if not messages:
        raise ValueError("user_windows needs at least one message")
    user_id = messages[0].user_id
    if any(m.user_id != user_id for m in messages):
        raise ValueError("user_windows got messages of more than one user")
    ordered = order_messages(messages)
    windows, places = make_windows(find_episodes(ordered, cfg.episodes), cfg.window.max_turns)
    return UserWindows(user_id, ordered, windows, places)


def window_digest(window: Window) -> str:
    """Content digest of a window (owner, ids, speakers, texts, times): the cache key's base."""
    return hashlib.blake2b(window.model_dump_json().encode(), digest_size=16).hexdigest()


def embedding_text(window: Window, extraction: Extraction) -> str:
    """What a snapshot's vector is made from: its summary, or the turns when the model gave
    none (an empty summary would give a zero vector, useless for attachment and search)."""
    summary = extraction.draft.summary.strip()
    return summary or " ".join(m.full_text for m in window.messages)


def window_snapshots(
    windows: list[Window],
    extractions: list[Extraction],
    keys: list[str],
    messages: list[Message],
    embedder: Embedder,
) -> list[Snapshot]:
    """The windows' snapshots from their drafts, the owner's claims under their name (from
    all of the user's `messages`), each with its vector."""
    snapshots = [
        to_snapshot(w, e.draft, e.extractor, k)
        for w, e, k in zip(windows, extractions, keys, strict=True)
    ]
    snapshots = name_the_owner(snapshots, messages)
    texts = [embedding_text(w, e) for w, e in zip(windows, extractions, strict=True)]
    for snapshot, vector in zip(snapshots, embedder.embed(texts), strict=True):
        snapshot.vector = vector.tolist()
    return snapshots


def compile_user(
    uw: UserWindows, extractions: list[Extraction], cfg: Config, embedder: Embedder
) -> UserMemory:
    """Snapshots from drafts, vectors, forest, lifecycle, evidence and wiki for one user."""
    return compile_with_forest(uw, extractions, cfg, embedder)[0]


def compile_with_forest(
    uw: UserWindows, extractions: list[Extraction], cfg: Config, embedder: Embedder
) -> tuple[UserMemory, Forest]:
    """`compile_user`, and the forest it placed the snapshots in (an online writer keeps
    attaching live turns to it: core/live.py)."""
    if len(extractions) != len(uw.windows):
        raise RuntimeError(f"{len(extractions)} drafts for {len(uw.windows)} windows")
    snapshots = window_snapshots(uw.windows, extractions, uw.keys, uw.messages, embedder)
    places = {s.snapshot_id: p for s, p in zip(snapshots, uw.places, strict=True)}
    forest = grow_forest(snapshots, cfg.attach, places)
    nodes, trajectories = forest.nodes, forest.trajectories
    claims = apply_lifecycle(snapshots, nodes, cfg.lifecycle)
    evidence = build_evidence(claims, snapshots)
    threads, members = thread_records(snapshots, nodes, trajectories, cfg.attach)
    page_claims, page_evidence = on_threads(claims, evidence, members)
    pages = compile_wiki(
        uw.user_id,
        snapshots,
        threads,
        page_claims,
        page_evidence,
        cfg.wiki,
        embedder.embed,
        members=members,
    )
    message_vectors = embedder.embed([m.search_text for m in uw.messages])
    memory = UserMemory(
        user_id=uw.user_id,
        messages=uw.messages,
        snapshots=snapshots,
        claims=claims,
        nodes=nodes,
        trajectories=trajectories,
        evidence=evidence,
        pages=pages,
        message_vectors=message_vectors,
    )
    return memory, forest


def build_user_memory(
    messages: list[Message], cfg: Config, extractor: LabeledExtractor, embedder: Embedder
) -> UserMemory:
    """Compile one user's messages into their whole memory (all records, vectors included)."""
    uw = user_windows(messages, cfg)
    batch = extractor.extract_labeled(uw.windows)
    return compile_user(uw, batch.extractions, cfg, embedder)
