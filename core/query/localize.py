"""The online turn: localize a live turn in the user's stored forest.

The turn becomes a one-message pseudo-window, is extracted and embedded like any window;
the thread whose term profile it is closest to says which stored state it continues
(`place_turn`), and `Forest.locate` (pure) decides when no thread is close. The answer carries the
branch-local context (path root → node) and reusable evidence from the *other* branches.
Rebuilding a forest from rows costs a full read of the user's nodes, so rebuilt forests
are kept in a small LRU keyed by the trajectories table version (a rebuild moves it).
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from arborwiki.core.config import Config
from arborwiki.core.embedding import Embedder
from arborwiki.core.extract.base import Extractor, to_snapshot
from arborwiki.core.forest.forest import Forest
from arborwiki.core.forest.placement import Placement
from arborwiki.core.forest.profiles import ThreadProfiles
from arborwiki.core.query.reader import MemoryReader, MessageRef
from arborwiki.core.query.result import CrossEvidence, LocalizeResult, PathStep
from arborwiki.core.records import EvidenceItem, Message, Snapshot, Trajectory, Window, stable_id
from arborwiki.core.words import content_tokens, content_words, has_cue

ONLINE_SESSION = "online"
CROSS_BRANCH_EVIDENCE = 8


def owner_speaker(messages: Sequence[MessageRef]) -> str:
    """How the archive labels its owner's turns: the speaker of their latest one ("Aoife"),
    "user" when none is stored. The live turn is the owner speaking and is read as their
    stored turns were ("Aoife: …", not "user: …"): a turn labelled otherwise lands on its
    own trajectory less often (`benchmarks/results/localize.md`)."""
    owned = [r.message for r in messages if r.message.role == "user"]
    return max(owned, key=lambda m: m.timestamp).speaker if owned else "user"


def pseudo_window(user_id: str, turn_text: str, now: datetime, speaker: str = "user") -> Window:
    """The turn as a window of one user message, in its own session (never the stored ones)."""
    message = Message(
        user_id=user_id,
        conversation_id=ONLINE_SESSION,
        session_id=ONLINE_SESSION,
        message_id=stable_id("turn", user_id, turn_text, now.isoformat()),
        turn_index=0,
        speaker=speaker,
        role="user",
        text=turn_text,
        timestamp=now,
    )
    return Window(
        user_id=user_id,
        conversation_id=ONLINE_SESSION,
        session_id=ONLINE_SESSION,
        messages=[message],
    )


def pseudo_snapshot(window: Window, extractor: Extractor, embedder: Embedder) -> Snapshot:
    """Extract and embed the pseudo-window exactly as the build does a stored window."""
    (draft,) = extractor.extract([window])
    sigma = to_snapshot(window, draft, extractor.name)
    sigma.vector = [float(x) for x in embedder.embed([sigma.summary])[0]]
    return sigma


class UserForest(NamedTuple):
    """A user's rebuilt forest, its snapshots by id, how their own turns are labelled, the
    term profiles of its threads (trajectories oldest first in `order`), and the session of
    the user's latest stored message (the dialogue in progress, if the turn is of it)."""

    forest: Forest
    snapshots: dict[str, Snapshot]
    owner: str
    profiles: ThreadProfiles
    order: list[str]
    latest_session: str | None = None


def thread_profiles(
    forest: Forest, messages: Sequence[MessageRef], trajectories: Sequence[Trajectory]
) -> tuple[ThreadProfiles, list[str]]:
    """Profiles of the stored trajectories from their messages' text, and the trajectory
    ids in order of their latest time (the latest last)."""
    texts: dict[str, list[str]] = defaultdict(list)
    for ref in messages:
        if ref.trajectory_id:
            texts[ref.trajectory_id].append(ref.text)
    tree_of = forest.tree_of()
    known = {t: v for t, v in texts.items() if t in tree_of}
    order = [
        t.trajectory_id for t in sorted(trajectories, key=lambda t: (t.last_time, t.trajectory_id))
    ]
    return ThreadProfiles(known, tree_of), order


def user_forest(
    forest: Forest,
    snapshots: Sequence[Snapshot],
    trajectories: Sequence[Trajectory],
    messages: Sequence[MessageRef],
) -> UserForest:
    """What `place_turn` reads of a user: the forest with its snapshots, thread profiles
    and the dialogue in progress."""
    profiles, order = thread_profiles(forest, messages, trajectories)
    latest = max((r.message for r in messages), key=lambda m: m.timestamp, default=None)
    return UserForest(
        forest,
        {s.snapshot_id: s for s in snapshots},
        owner_speaker(messages),
        profiles,
        order,
        latest.session_id if latest else None,
    )


def place_turn(
    entry: UserForest, sigma: Snapshot, turn_text: str, cfg: Config, session: str | None = None
) -> Placement:
    """A turn with no content word of its own ("Thank you!", "How about 16:30 then?")
    continues the active state, the user's latest trajectory: it says nothing that could
    start or name another task. A turn of the dialogue in progress (`session` is the session
    of the user's latest stored message) stays on it as the build's decoder would
    (core/episodes.py `refine`): unless another thread's profile (a tree's) is closer than
    its own thread's by more than `episodes.switch_penalty` (nothing, when the turn carries
    one of `episodes.shift_cues`: "also", "help me"…); it then goes to that thread's
    trajectory closest to it, when the thread reaches `attach.turn_similarity`; with no word
    any stored turn has, it stays. Any other turn: the thread whose profile it is closest to
    (its closest trajectory), when the cosine reaches `turn_similarity`; else the forest's
    cascade (`Forest.locate`)."""
    if entry.order and not content_tokens(turn_text):
        return entry.forest.at_tail(entry.order[-1], "continuation", 0.0)
    if entry.order and session is not None and session == entry.latest_session:
        placed = _in_dialogue(entry, turn_text, cfg)
        if placed is not None:
            return placed
    match = entry.profiles.match(turn_text, entry.order)
    if match is not None and match.tree_score >= cfg.attach.turn_similarity:
        return entry.forest.at_tail(match.trajectory_id, "thread", match.tree_score)
    return entry.forest.locate(sigma)


def _in_dialogue(entry: UserForest, turn_text: str, cfg: Config) -> Placement | None:
    """The dialogue in progress's turn: stay on its trajectory, or switch as the decoder
    would. Threads are compared, as the decoder compares them (a tree: a thread's
    trajectories on every day), not single visits: the dialogue's own visit holds only what
    was said so far ("book it for four people" shares nothing with "a hotel called
    Warkworth" yet), while some other short visit shares a request word. A turn that shares
    no word with any stored turn stays too: nothing in it names another task ("I will be
    going to Ely.", the town new to the store)."""
    active = entry.order[-1]
    cosines = entry.profiles.tree_cosines(turn_text)
    if not cosines:
        return entry.forest.at_tail(active, "continuation", 0.0)
    here = entry.profiles.root_of.get(active)  # None: the latest visit kept no text
    best = max(cosines, key=lambda root: (cosines[root], root == here))
    cue = has_cue(turn_text, cfg.episodes.shift_cues)
    penalty = 0.0 if cue else cfg.episodes.switch_penalty
    stay = cosines.get(here, 0.0) if here else 0.0
    if stay >= cosines[best] - penalty:
        return entry.forest.at_tail(active, "continuation", stay)
    if cosines[best] >= cfg.attach.turn_similarity:
        target = entry.profiles.in_tree(turn_text, best, entry.order)
        return entry.forest.at_tail(target, "thread", cosines[best])
    return None


class ForestCache:
    """LRU of rebuilt forests keyed by (user_id, trajectories-table version), bounded by
    users and by snapshots held (a forest holds every node and snapshot of its user, so a
    few users with long histories evict as many short ones would; the latest forest stays
    however large, unless `size` is 0)."""

    def __init__(self, size: int, max_snapshots: int | None = None) -> None:
        self.size = size
        self.max_snapshots = max_snapshots
        self._forests: OrderedDict[tuple[str, int], UserForest] = OrderedDict()

    def carry(self, old: int, new: int, changed: set[str]) -> None:
        """Forests built at trajectories version `old`, of users not in `changed`, are the
        same forests at `new` (the runs between rewrote only `changed`'s rows)."""
        for user_id, version in list(self._forests):
            if version == old and user_id not in changed:
                self._forests[(user_id, new)] = self._forests.pop((user_id, version))

    @property
    def snapshots_held(self) -> int:
        return sum(len(entry.snapshots) for entry in self._forests.values())

    def get(self, reader: MemoryReader, user_id: str, cfg: Config) -> UserForest:
        key = (user_id, reader.version("trajectories"))
        if key in self._forests:
            self._forests.move_to_end(key)
            return self._forests[key]
        snapshots = reader.all_snapshots(user_id)
        trajectories = reader.all_trajectories(user_id)
        forest = Forest.from_records(
            user_id, cfg.attach, snapshots, reader.nodes(user_id), trajectories
        )
        entry = user_forest(forest, snapshots, trajectories, reader.all_messages(user_id))
        self._forests[key] = entry
        while len(self._forests) > self.size or (
            len(self._forests) > 1
            and self.max_snapshots is not None
            and self.snapshots_held > self.max_snapshots
        ):
            self._forests.popitem(last=False)
        return entry


def branch_context(
    forest: Forest, node_id: str | None, snapshots: dict[str, Snapshot]
) -> list[PathStep]:
    """Root → node, with each state's summary, time and messages (empty for NEW)."""
    if node_id is None:
        return []
    steps = []
    for node in forest.path(node_id):
        sigma = snapshots[node.snapshot_id]  # from_records needed every node's snapshot
        steps.append(
            PathStep(
                node_id=node.node_id,
                snapshot_id=node.snapshot_id,
                summary=sigma.summary,
                timestamp=sigma.timestamp,
                message_ids=list(sigma.message_ids),
            )
        )
    return steps


def cross_branch_evidence(
    items: list[EvidenceItem],
    turn_words: set[str],
    own_trajectory: str | None,
    limit: int = CROSS_BRANCH_EVIDENCE,
) -> list[CrossEvidence]:
    """Other branches' items sharing words with the turn: active first, then most shared,
    newest, id (so the order is total and stable)."""
    scored = []
    for item in items:
        if item.trajectory_id == own_trajectory:
            continue
        shared = turn_words & content_words(
            f"{item.text} {item.subject} {item.attribute} {item.value}"
        )
        if shared:
            scored.append((item, sorted(shared)))
    scored.sort(
        key=lambda p: (
            p[0].status != "active",
            -len(p[1]),
            -p[0].recorded_at.timestamp(),
            p[0].evidence_id,
        )
    )
    return [
        CrossEvidence(
            evidence_id=item.evidence_id,
            kind=item.kind,
            text=item.text,
            status=item.status,
            trajectory_id=item.trajectory_id,
            source_message_ids=list(item.source_message_ids),
            shared=shared,
        )
        for item, shared in scored[:limit]
    ]


def localize_result(
    user_id: str,
    turn_text: str,
    placement: Placement,
    forest: Forest,
    snapshots: dict[str, Snapshot],
    evidence: list[EvidenceItem],
    turn_extractor: str = "rules",
    title: str | None = None,
) -> LocalizeResult:
    """The online turn's answer: decision, branch-local context, cross-branch evidence.

    The turn is matched on `turn_extractor`'s features; when the stored snapshots came
    from another extractor (an LLM build), the result says so in `note`: keywords and
    entities are then compared across two extractors' vocabularies."""
    turn_words = content_words(turn_text)
    stored = sorted({s.extractor for s in snapshots.values()})
    others = [name for name in stored if name != turn_extractor]
    note = (
        f"turn features from the {turn_extractor} extractor; stored snapshots from "
        f"{', '.join(others)}: keywords and entities are matched across both"
        if others
        else None
    )
    return LocalizeResult(
        user_id=user_id,
        turn=turn_text,
        decision=placement.decision,
        node_id=placement.node_id,
        trajectory_id=placement.trajectory_id,
        title=title,
        score=round(placement.score, 6),
        stage=placement.stage,
        reason=placement.reason,
        path=branch_context(forest, placement.node_id, snapshots),
        evidence=cross_branch_evidence(evidence, turn_words, placement.trajectory_id),
        turn_extractor=turn_extractor,
        stored_extractors=stored,
        note=note,
    )
