"""Typed records passed between pipeline stages and stored as rows.

These are the storage-side rows, one Lance table each (storage/tables.py). What an LLM
fills in during extraction lives in `core.extract.schema`, deliberately apart from these,
so a prompt change never changes a table schema. Every id is a stable content hash
(`stable_id`), so a rebuild of the same archive yields the same ids.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator

Role = Literal["user", "assistant", "other"]
ClaimStatus = Literal["active", "revised", "deprecated"]
ClaimOp = Literal["ADD", "REVISE", "DEPRECATE"]
PageKind = Literal["index", "entity", "topic", "inventory"]
EvidenceKind = Literal["fact", "event", "artifact", "state"]
TEXT_EXTRA_KEYS = ("caption", "image_caption", "transcript", "attachment_text")
TIME_EXTRA_KEY, TIME_UNKNOWN = "time", "unknown"  # extra marking a placeholder timestamp


ID_DIGEST_BYTES = 16  # 128 bits: a chance collision needs ~2^64 ids of one kind


def id_key(prefix: str, *parts: str | int) -> bytes:
    """The canonical, injective encoding of an id's parts: a JSON array of str and int.

    Why JSON and not a separator join: any string may hold any separator, so a join maps
    ("a", "b\x1fc") and ("a\x1fb", "c") to the same bytes (one tenant's row overwrote
    another's). `json.loads` inverts this encoding, so distinct tuples never share a key;
    `ensure_ascii` also escapes lone surrogates, which cannot be UTF-8 encoded.
    """
    for part in (prefix, *parts):
        if isinstance(part, bool) or not isinstance(part, str | int):
            raise TypeError(f"id parts must be str or int, got {type(part).__name__}")
    return json.dumps([prefix, *parts], ensure_ascii=True).encode("ascii")


def stable_id(prefix: str, *parts: str | int) -> str:
    """A short id that depends only on `parts` (never on process, run or order of hashing)."""
    digest = hashlib.blake2b(id_key(prefix, *parts), digest_size=ID_DIGEST_BYTES)
    return f"{prefix}_{digest.hexdigest()}"


class Record(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")


class MessageFields(Record):
    """What a turn of a conversation holds: shared by `Message` and `StoredMessage`."""

    user_id: str
    conversation_id: str
    session_id: str
    message_id: str
    turn_index: int
    speaker: str
    role: Role
    text: str
    timestamp: datetime = Field(description="UTC; the session date when only that is known")
    extra: dict[str, str] = Field(default_factory=dict, description="captions and other fields")


class Message(MessageFields):
    """One turn of a conversation, as read from the archive (canonical schema)."""

    @property
    def time_known(self) -> bool:
        """False for a turn of an undated session: its timestamp only keeps the order, so
        relative dates ("yesterday") must not be resolved against it."""
        return self.extra.get(TIME_EXTRA_KEY) != TIME_UNKNOWN

    @property
    def full_text(self) -> str:
        """Text plus the extra fields that carry what was said or shown (an image caption).

        Other extras (URLs, search queries, labels) stay stored in `extra` but are not
        rendered: they are not part of the conversation and only cost tokens.
        """
        shown = [f"{k}: {self.extra[k]}" for k in TEXT_EXTRA_KEYS if self.extra.get(k)]
        return f"{self.text} [{'; '.join(shown)}]" if shown else self.text

    @property
    def search_text(self) -> str:
        """What retrieval indexes: the speaker's name leads, since questions name people."""
        return f"{self.speaker}: {self.full_text}"


class StoredMessage(MessageFields):
    """A row of the messages table: the message, where it sits in the memory, its vector."""

    row_id: str = Field(description="stable_id('msg', user_id, message_id): the table key")
    search_text: str = Field(description="Message.search_text: what searches match")
    snapshot_id: str | None = None
    trajectory_id: str | None = None
    vector: list[float] | None = None


class WindowPlace(Record):
    """Where a window sits in its user's archive (core/episodes.py): the episode it is a
    piece of and the thread that episode belongs to, both numbered per user in order of
    first appearance. Kept beside the window, not in it: window digests key the extraction
    cache, and a new day's episodes may renumber these."""

    episode: int
    thread: int


class Window(Record):
    """A run of consecutive turns of one session: the unit a snapshot is extracted from."""

    user_id: str
    conversation_id: str
    session_id: str
    messages: list[Message]

    @property
    def timestamp(self) -> datetime:
        return self.messages[0].timestamp

    @property
    def message_ids(self) -> list[str]:
        return [m.message_id for m in self.messages]


class Claim(Record):
    """An atomic belief with its lifecycle state (ADD / REVISE / DEPRECATE). Never deleted,
    only superseded."""

    claim_id: str
    user_id: str
    snapshot_id: str
    trajectory_id: str = ""
    text: str
    subject: str
    attribute: str
    value: str
    negated: bool = False
    change_cue: bool = False
    status: ClaimStatus = "active"
    op: ClaimOp = "ADD"
    supersedes: str | None = None
    superseded_by: str | None = None
    source_message_ids: list[str]
    event_time: date | None = None
    recorded_at: datetime


class Snapshot(Record):
    """An immutable episodic snapshot σ extracted from one window of messages."""

    snapshot_id: str
    user_id: str
    conversation_id: str
    session_id: str
    message_ids: list[str]
    timestamp: datetime
    summary: str
    keywords: list[str]
    entities: list[str]
    terms: list[str]
    facets: dict[str, list[str]]
    claims: list[Claim] = Field(default_factory=list)
    extractor: str
    window_key: str = ""  # its window's digest (`window_digest`); "" in stores made before it
    vector: list[float] | None = None


class ForestNode(Record):
    """A snapshot placed in the user's forest of interaction states (a trajectory is a
    branch of it)."""

    node_id: str
    user_id: str
    snapshot_id: str
    trajectory_id: str
    parent_id: str | None
    root_id: str
    depth: int
    seq: int
    node_summary: str
    path_summary: str
    topic_key: str
    attach_score: float = 0.0
    attach_reason: str = "new"


class Trajectory(Record):
    """A branch of the forest: a linear chain of snapshots."""

    trajectory_id: str
    user_id: str
    forked_from: str | None = None
    snapshot_ids: list[str]
    title: str
    summary: str
    keywords: list[str]
    entities: list[str]
    facet_keys: list[str]
    first_time: datetime
    last_time: datetime
    summary_vector: list[float] | None = None
    latest_vector: list[float] | None = None


class EvidenceItem(Record):
    """A reusable fact or structured record of the evidence bank, shared across branches."""

    evidence_id: str
    user_id: str
    kind: EvidenceKind
    text: str
    subject: str
    attribute: str
    value: str
    status: ClaimStatus = "active"
    revised_by: str | None = None
    claim_id: str
    snapshot_id: str
    trajectory_id: str
    source_message_ids: list[str]
    event_time: date | None = None
    recorded_at: datetime


class WikiPage(Record):
    """A compiled Memory Wiki page (index, entity, topic or inventory)."""

    page_id: str
    user_id: str
    kind: PageKind
    title: str
    markdown: str
    trajectory_ids: list[str] = Field(description="L_p: trajectories this page links")
    links: list[str] = Field(default_factory=list, description="page ids this page links to")
    items: list[str] = Field(default_factory=list, description="inventory items or entity names")
    parent_page_id: str | None = None
    # A subpage's number among its split parent's subpages (the Ray user shard is another
    # thing): the columns keep their first name so existing stores keep reading.
    part_index: int = Field(0, description="0-based number of this subpage of a split page")
    part_count: int = Field(1, description="subpages of the split page; 1: not split")
    vector: list[float] | None = None


class QuarantineRow(Record):
    """An input row that could not be stored, with why and where it came from."""

    quarantine_id: str
    user_id: str | None
    source: str
    location: str
    reason: str
    row: str = Field(description="the raw row as JSON (or the raw line)")


def _matrix(value: Any) -> np.ndarray:
    """Vectors as one float32 matrix, a row each (lists of floats are converted once)."""
    matrix = np.asarray(value, dtype=np.float32)
    if matrix.ndim == 1 and matrix.size == 0:
        return matrix.reshape(0, 0)  # [] : no messages
    if matrix.ndim != 2:
        raise ValueError(f"expected one vector per row, got an array of shape {matrix.shape}")
    return matrix


Matrix = Annotated[
    np.ndarray, PlainValidator(_matrix), PlainSerializer(lambda m: m.tolist(), return_type=list)
]
"""A 2-D float32 array in a record: the embedder's output kept as it came (a list of lists
of Python floats, validated float by float, cost ≈ 5 ms of CPU per 200-message user to make
and to turn back into the array the table needs)."""


class UserMemory(Record):
    """Everything the per-user pipeline produces for one memory owner."""

    user_id: str
    messages: list[Message]
    snapshots: list[Snapshot]
    claims: list[Claim]
    nodes: list[ForestNode]
    trajectories: list[Trajectory]
    evidence: list[EvidenceItem]
    pages: list[WikiPage]
    message_vectors: Matrix = Field(default_factory=lambda: np.zeros((0, 0), np.float32))


class RunRecord(Record):
    """A row of the runs table: one committed build, what it read and what it wrote."""

    run_id: str
    started_at: datetime
    finished_at: datetime
    input: str
    fingerprint: str
    counts: dict[str, int] = Field(default_factory=dict, description="rows per kind")
    versions: dict[str, int] = Field(default_factory=dict, description="table versions")
    watermark: dict[str, Any] = Field(
        default_factory=dict, description="per input file what the run consumed (nightly)"
    )
    users: list[str] | None = Field(
        None,
        description="the users an online run, a forget or a nightly run rewrote; None: any "
        "user may have changed (a full build or a rollback, or a run recorded before runs "
        "named them)",
    )


class BuildFailure(Record):
    """A row of the build_failures table: a user whose stage raised after its retries."""

    failure_id: str
    run_id: str
    user_id: str
    stage: str
    error: str
    traceback_digest: str
    attempts: int
    failed_at: datetime
