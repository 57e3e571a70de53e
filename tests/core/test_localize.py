"""Online turn localization and belief history on a real QueryService.

The store is replaced by `DictReader`, an in-memory implementation of the MemoryReader
protocol (a test double of storage only); extraction, embedding, forest and the service
are the real components.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from arborwiki.core.config import Config, load_config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.forest.forest import Forest
from arborwiki.core.query.localize import cross_branch_evidence, owner_speaker, pseudo_window
from arborwiki.core.query.reader import MessageRef
from arborwiki.core.query.service import QueryService
from arborwiki.core.records import (
    Claim,
    EvidenceItem,
    ForestNode,
    Message,
    Snapshot,
    Trajectory,
    stable_id,
)
from arborwiki.core.words import content_tokens, content_words
from tests.builders import make_message
from tests.core.forest_builders import chain_nodes, snap

T0 = datetime(2024, 1, 1, tzinfo=UTC)


class DictReader:
    """Whole-user reads from lists; `loads` counts forest rebuild reads."""

    def __init__(self) -> None:
        self.snapshots_: list[Snapshot] = []
        self.nodes_: list[ForestNode] = []
        self.trajectories_: list[Trajectory] = []
        self.claims_: list[Claim] = []
        self.evidence_: list[EvidenceItem] = []
        self.messages_: list[Message] = []
        self.table_version = 1
        self.loads = 0
        self.placed: dict[str, tuple[str, str]] = {}  # message id → (snapshot, trajectory)

    def nodes(self, user_id: str) -> list[ForestNode]:
        self.loads += 1
        return [n for n in self.nodes_ if n.user_id == user_id]

    def all_snapshots(self, user_id: str) -> list[Snapshot]:
        return [s for s in self.snapshots_ if s.user_id == user_id]

    def all_trajectories(self, user_id: str) -> list[Trajectory]:
        return [t for t in self.trajectories_ if t.user_id == user_id]

    def all_claims(self, user_id: str) -> list[Claim]:
        return [c for c in self.claims_ if c.user_id == user_id]

    def evidence(self, user_id: str) -> list[EvidenceItem]:
        return [e for e in self.evidence_ if e.user_id == user_id]

    def messages(self, user_id: str, ids: list[str]) -> list[MessageRef]:
        wanted = set(ids)
        return [
            MessageRef(m, None, None)
            for m in self.messages_
            if m.user_id == user_id and m.message_id in wanted
        ]

    def all_messages(self, user_id: str) -> list[MessageRef]:
        return [
            MessageRef(m, *self.placed.get(m.message_id, (None, None)))
            for m in self.messages_
            if m.user_id == user_id
        ]

    def version(self, table: str) -> int:
        return self.table_version


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config()


@pytest.fixture(scope="module")
def embedder(cfg: Config):
    return load_embedder(cfg.embed.model_path, cfg.embed.batch_size)


def _item(eid: str, traj: str, text: str, status: str = "active", minute: int = 0) -> EvidenceItem:
    return EvidenceItem(
        evidence_id=eid,
        user_id="u1",
        kind="fact",
        text=text,
        subject="u1",
        attribute="said",
        value=text,
        status=status,  # type: ignore[arg-type]
        claim_id=f"claim_{eid}",
        snapshot_id=f"snap_{eid}",
        trajectory_id=traj,
        source_message_ids=[f"m_{eid}"],
        recorded_at=T0 + timedelta(minutes=minute),
    )


def _turn_forest_reader(cfg: Config, embedder) -> tuple[DictReader, list[Snapshot]]:
    """Three marathon snapshots on one trajectory, one laptop snapshot on another; every
    snapshot's vector is the embedding of its own summary (as the build stores them)."""
    texts = {
        "s1": "I signed up for the Portland marathon, my long run is 10 miles",
        "s2": "marathon plan: long run of 14 miles along the river, legs fine",
        "s3": "marathon training: long run of 16 miles, slow but no walking",
        "s4": "my cat knocked tea onto my laptop keyboard, drying it upside down",
    }
    vectors = embedder.embed(list(texts.values()))
    snaps = [
        snap(
            sid,
            vectors[i].tolist(),
            keywords=sorted(content_words(text) - {"my", "of"}),
            session=f"sess{i}",
            minute=i * 60,
            summary=text,
        )
        for i, (sid, text) in enumerate(texts.items())
    ]
    nodes = chain_nodes(snaps[:3], "traj_run") + chain_nodes(snaps[3:], "traj_laptop")
    nodes[3] = nodes[3].model_copy(update={"seq": 3})
    reader = DictReader()
    reader.snapshots_ = snaps
    reader.nodes_ = nodes
    forest = Forest.from_records("u1", cfg.attach, snaps, nodes, [])
    reader.trajectories_ = forest.trajectories
    reader.evidence_ = [
        _item("e_run", "traj_run", "signed up for the Portland marathon"),
        _item("e_lap", "traj_laptop", "tea on the laptop, marathon of drying"),
        _item("e_cat", "traj_laptop", "the cat knocked the tea"),
    ]
    return reader, snaps


def test_pseudo_window_is_one_user_message_now() -> None:
    now = datetime(2025, 3, 1, 12, tzinfo=UTC)
    window = pseudo_window("u1", "hello there", now)
    (message,) = window.messages
    assert (message.speaker, message.role, message.text) == ("user", "user", "hello there")
    assert message.timestamp == now and window.timestamp == now
    assert window.session_id == "online" and message.user_id == "u1"


def test_the_live_turn_is_labelled_as_the_owner_latest_turn() -> None:
    """The owner speaks under the label their stored turns carry: the latest one's speaker,
    whatever the others in the archive are called; "user" when they have said nothing."""
    who = [("Aoife O'Connor", "user"), ("assistant", "assistant"), ("Aoife", "user")]
    who += [("Ciarán", "assistant")]
    messages = [
        make_message(f"m{i}", speaker=s, role=r, timestamp=T0 + timedelta(minutes=i))
        for i, (s, r) in enumerate(who)
    ]
    refs = [MessageRef(m, None, None) for m in reversed(messages)]  # store order is no clock
    assert owner_speaker(refs) == "Aoife"
    assert owner_speaker(refs[:1] + refs[2:3]) == "user"  # only others' turns
    assert owner_speaker([]) == "user"
    now = datetime(2025, 3, 1, 12, tzinfo=UTC)
    assert pseudo_window("u1", "hi", now, "Aoife").messages[0].speaker == "Aoife"


def test_cross_branch_evidence_skips_own_branch_and_puts_active_first() -> None:
    items = [
        _item("a", "t_own", "marathon long run"),
        _item("b", "t2", "marathon in Denver", status="revised", minute=5),
        _item("c", "t3", "marathon long run miles", minute=1),
        _item("d", "t3", "marathon Denver", minute=9),
        _item("e", "t4", "laptop drying"),
    ]
    turn = content_words("back to the marathon, long run")
    got = cross_branch_evidence(items, turn, "t_own", limit=3)
    # c shares {long, marathon, run}; d shares {marathon}, active; b shares {marathon}, revised
    assert [e.evidence_id for e in got] == ["c", "d", "b"]
    assert got[0].shared == ["long", "marathon", "run"]
    assert got[0].source_message_ids == ["m_c"]
    assert cross_branch_evidence(items, turn, "t_own", limit=1)[0].evidence_id == "c"


def test_localize_continues_the_marathon_branch_with_its_path(cfg: Config, embedder) -> None:
    reader, snaps = _turn_forest_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    result = service.localize("u1", "marathon training: long run of 18 miles, slow but steady")
    assert result.decision == "CONTINUE"
    assert result.trajectory_id == "traj_run"
    run = next(t for t in reader.trajectories_ if t.trajectory_id == "traj_run")
    assert result.title == run.title and "marathon" in run.title  # what an agent reads back
    assert result.text().startswith(
        f"CONTINUE ({result.reason}, score {result.score:.3f}) trajectory {run.title!r} traj_run"
    )
    assert result.node_id == stable_id("node", "s3")
    assert [s.snapshot_id for s in result.path] == ["s1", "s2", "s3"]
    assert result.path[0].summary == snaps[0].summary
    assert result.path[2].message_ids == ["s3-m0"]
    # other branches only: the laptop item that says "marathon", never the run branch's own
    assert [e.evidence_id for e in result.evidence] == ["e_lap"]
    assert result.model_dump(mode="json")["decision"] == "CONTINUE"


def test_localize_says_when_the_stored_snapshots_came_from_another_extractor(
    cfg: Config, embedder
) -> None:
    reader, snaps = _turn_forest_reader(cfg, embedder)
    reader.snapshots_ = [s.model_copy(update={"extractor": "rules"}) for s in snaps]
    plain = QueryService(reader, embedder, cfg).localize("u1", "marathon long run")
    assert (plain.turn_extractor, plain.stored_extractors, plain.note) == ("rules", ["rules"], None)
    reader.snapshots_ = [s.model_copy(update={"extractor": "vllm"}) for s in snaps]
    result = QueryService(reader, embedder, cfg).localize("u1", "marathon long run")
    assert result.stored_extractors == ["vllm"]
    assert result.note is not None and "rules" in result.note and "vllm" in result.note


def test_forest_is_cached_until_the_trajectories_version_moves(cfg: Config, embedder) -> None:
    reader, _ = _turn_forest_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    first = service.localize("u1", "marathon long run of 18 miles")
    service.localize("u1", "marathon long run of 18 miles")
    assert reader.loads == 1
    reader.table_version = 2
    again = service.localize("u1", "marathon long run of 18 miles")
    assert reader.loads == 2
    assert (again.decision, again.node_id) == (first.decision, first.node_id)


def test_forests_kept_are_as_many_as_the_reader_keeps_users(cfg: Config, embedder) -> None:
    reader, _ = _turn_forest_reader(cfg, embedder)
    two = cfg.model_copy(deep=True)
    two.store.reader_cache_users = 2
    service = QueryService(reader, embedder, two)
    for user in ("u1", "u2", "u1", "u2"):  # two users fit: each forest is built once
        service.localize(user, "marathon long run")
    assert reader.loads == 2
    service.localize("u3", "marathon long run")  # a third evicts the least recent (u1)
    service.localize("u1", "marathon long run")
    assert reader.loads == 4
    none = cfg.model_copy(deep=True)
    none.store.reader_cache_users = 0
    uncached = QueryService(reader, embedder, none)
    uncached.localize("u1", "marathon long run")
    uncached.localize("u1", "marathon long run")
    assert reader.loads == 6  # 0: nothing kept, every turn rebuilds


def test_forests_kept_are_bounded_by_snapshots_too(cfg: Config, embedder) -> None:
    reader, _ = _turn_forest_reader(cfg, embedder)
    for name in ("snapshots_", "nodes_", "trajectories_"):  # u2: a copy of u1's memory
        rows = getattr(reader, name)
        rows += [r.model_copy(update={"user_id": "u2"}) for r in rows if r.user_id == "u1"]
    one_user = len(reader.all_snapshots("u1"))
    assert one_user == len(reader.all_snapshots("u2")) > 0
    bounded = cfg.model_copy(deep=True)
    bounded.store.reader_cache_rows = one_user  # room for one user's snapshots
    service = QueryService(reader, embedder, bounded)
    for user in ("u1", "u1", "u2", "u2", "u1"):  # u2 evicts u1, u1 evicts u2
        service.localize(user, "marathon long run")
    assert reader.loads == 3
    small = cfg.model_copy(deep=True)
    small.store.reader_cache_rows = 1  # smaller than any forest: the latest still stays
    kept = QueryService(reader, embedder, small)
    kept.localize("u1", "marathon long run")
    kept.localize("u1", "marathon long run")
    assert reader.loads == 4


def test_localize_for_another_user_sees_nothing(cfg: Config, embedder) -> None:
    reader, _ = _turn_forest_reader(cfg, embedder)
    result = QueryService(reader, embedder, cfg).localize("u2", "marathon long run")
    assert (result.decision, result.reason, result.path, result.evidence) == (
        "NEW",
        "empty",
        [],
        [],
    )


def test_localize_rejects_empty_input(cfg: Config, embedder) -> None:
    service = QueryService(DictReader(), embedder, cfg)
    with pytest.raises(ValueError):
        service.localize("u1", "   ")
    with pytest.raises(ValueError):
        service.localize("", "hi")


@pytest.mark.parametrize(
    ("question", "k", "budget", "message"),
    [
        ("  ", None, None, "question is empty"),
        ("where?", 0, None, "k must be at least 1"),
        ("where?", None, 0, "budget_tokens must be at least 1"),
        ("where?", None, -5, "budget_tokens must be at least 1"),
    ],
)
def test_query_rejects_an_empty_question_and_a_zero_k_or_budget(
    cfg: Config, embedder, question: str, k: int | None, budget: int | None, message: str
) -> None:
    service = QueryService(DictReader(), embedder, cfg)
    with pytest.raises(ValueError, match=message):  # not silently the configured default
        service.query("u1", question, k, budget)


def test_history_shows_each_version_with_the_message_that_changed_it(cfg: Config, embedder) -> None:
    def msg(mid: str, text: str, day: int) -> Message:
        return make_message(
            mid,
            text,
            user_id="u1",
            session_id=f"s{day}",
            turn_index=day,
            timestamp=T0 + timedelta(days=day),
        )

    def fact(cid: str, value: str, mid: str, day: int, **kw: object) -> Claim:
        return Claim(
            claim_id=cid,
            user_id="u1",
            snapshot_id=f"snap_{cid}",
            text=f"Ann lives in {value}",
            subject="ann",
            attribute="lives in",
            value=value,
            source_message_ids=[mid],
            recorded_at=T0 + timedelta(days=day),
            **kw,  # type: ignore[arg-type]
        )

    reader = DictReader()
    reader.messages_ = [msg("m1", "I live in Portland", 0), msg("m2", "I moved to Denver", 30)]
    reader.claims_ = [
        fact("c1", "Portland", "m1", 0, status="revised", superseded_by="c2"),
        fact("c2", "Denver", "m2", 30, op="REVISE", supersedes="c1"),
        Claim(
            claim_id="c3",
            user_id="u1",
            snapshot_id="snap_c3",
            text="Ann owns a cat",
            subject="ann",
            attribute="owns",
            value="a cat",
            source_message_ids=["m1"],
            recorded_at=T0,
        ),
    ]
    result = QueryService(reader, embedder, cfg).history("u1", "where Ann lives")
    # the home chain, not c3, which shares only the subject "ann" with the question
    assert [[v.claim_id for v in ch.versions] for ch in result.chains] == [["c1", "c2"]]
    old, new = result.chains[0].versions
    assert (old.op, old.status, old.value) == ("ADD", "revised", "Portland")
    assert (new.op, new.status, new.value) == ("REVISE", "active", "Denver")
    assert new.source_message_ids == ["m2"]
    assert [s.text for s in new.sources] == ["I moved to Denver"]
    assert result.chains[0].attribute == "lives in"
    assert QueryService(reader, embedder, cfg).history("u2", "lives").chains == []


def test_a_turn_with_no_word_of_its_own_continues_the_latest_trajectory(
    cfg: Config, embedder
) -> None:
    """ "Thank you, that is all" names no task: it continues the active state, the latest
    trajectory (the laptop one here, later than every marathon node), not NEW; a turn with
    words still goes where its words point."""
    reader, _ = _turn_forest_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    result = service.localize("u1", "Thank you, that is all for now!")
    assert (result.decision, result.trajectory_id, result.stage) == (
        "CONTINUE",
        "traj_laptop",
        "continuation",
    )
    assert service.localize("u1", "long run of 20 miles for the marathon").trajectory_id == (
        "traj_run"
    )


def _dialogue_reader(cfg: Config, embedder) -> DictReader:
    """The marathon / laptop forest with its messages: the laptop talk is the latest, in
    session "sess3" (the dialogue in progress)."""
    reader, _ = _turn_forest_reader(cfg, embedder)
    said = [
        ("r1", "s1", "traj_run", "sess0", "I signed up for the Portland marathon"),
        ("r2", "s2", "traj_run", "sess1", "my long run is 14 miles along the river"),
        ("r3", "s3", "traj_run", "sess2", "marathon training: long run of 16 miles"),
        ("l1", "s4", "traj_laptop", "sess3", "my cat knocked tea onto my laptop"),
        ("l2", "s4", "traj_laptop", "sess3", "the keyboard is drying upside down, how long?"),
    ]
    _say(reader, said)
    return reader


def _say(reader: DictReader, said: list[tuple[str, str, str, str, str]]) -> None:
    """u1's messages (id, snapshot, trajectory, session, text), an hour apart, placed."""
    for i, (mid, sid, traj, session, text) in enumerate(said):
        reader.messages_.append(
            make_message(
                mid, text, user_id="u1", session_id=session, timestamp=T0 + timedelta(hours=i)
            )
        )
        reader.placed[mid] = (sid, traj)


def test_a_turn_of_the_dialogue_in_progress_stays_on_its_task_unless_it_turns_away(
    cfg: Config, embedder
) -> None:
    """Given the session of the latest stored message, a turn stays on that dialogue's
    trajectory unless another thread's profile is closer by more than
    `episodes.switch_penalty` (0.2), or by anything when the turn carries a shift cue
    ("also"); without that session, the closest thread (stage "thread") as before."""
    reader = _dialogue_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    profiles = service._forests.get(reader, "u1", cfg).profiles
    run, laptop = profiles.root_of["traj_run"], profiles.root_of["traj_laptop"]
    near = "how long until the keys work again?"  # "long" is the marathon's word
    cos = profiles.tree_cosines(near)
    assert 0 < cos[run] - cos[laptop] < cfg.episodes.switch_penalty
    stayed = service.localize("u1", near, session_id="sess3")
    assert (stayed.trajectory_id, stayed.stage) == ("traj_laptop", "continuation")
    assert service.localize("u1", near).stage == "thread"  # no dialogue said: its words
    assert service.localize("u1", near, session_id="sess2").stage == "thread"  # not the latest
    away = "what about the river?"  # the marathon's alone, by more than the penalty
    cos = profiles.tree_cosines(away)
    assert cos[run] - cos[laptop] > cfg.episodes.switch_penalty
    moved = service.localize("u1", away, session_id="sess3")
    assert (moved.trajectory_id, moved.stage) == ("traj_run", "thread")
    cued = service.localize("u1", "also, how long until the keys work again?", session_id="sess3")
    assert cued.trajectory_id == "traj_run"  # a shift cue: no penalty to leave


def test_a_turn_for_a_user_the_store_does_not_hold_says_so(cfg: Config, embedder) -> None:
    """NEW for a user with no stored state, and the text says the store holds no memory for
    that id (a mistyped id reads differently from a new user's first turn only there)."""
    reader = _dialogue_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    unknown = service.localize("u9", "how long until the keys work again?")
    assert (unknown.decision, unknown.stored_extractors) == ("NEW", [])
    assert "no memory for user 'u9' here (user ids match exactly)" in unknown.text().splitlines()
    held = service.localize("u1", "how long until the keys work again?")
    assert "no memory" not in held.text()


def _second_visit_reader(cfg: Config, embedder) -> DictReader:
    """The marathon thread visited twice: the first visit (traj_run, two days) says long run
    and river; the dialogue in progress (sess5, the latest) is its second visit, a branch of
    the same tree (traj_run2) that has only talked shoes so far. The laptop thread beside."""
    said = {
        "s1": ("traj_run", "sess0", "I signed up for the Portland marathon, long run 10 miles"),
        "s2": ("traj_run", "sess1", "marathon plan: long run of 14 miles along the river"),
        "s4": ("traj_laptop", "sess3", "my cat knocked tea onto my laptop keyboard"),
        "s5": ("traj_run2", "sess5", "new shoes for the marathon, which ones?"),
    }
    vectors = embedder.embed([text for _, _, text in said.values()])
    snaps = [
        snap(sid, vectors[i].tolist(), session=session, minute=i * 60, summary=text)
        for i, (sid, (_, session, text)) in enumerate(said.items())
    ]
    run = chain_nodes(snaps[:2], "traj_run")
    laptop = chain_nodes(snaps[2:3], "traj_laptop")[0].model_copy(update={"seq": 2})
    branch = chain_nodes(snaps[3:], "traj_run2")[0].model_copy(
        update={"parent_id": run[1].node_id, "root_id": run[0].node_id, "depth": 2, "seq": 3}
    )
    reader = DictReader()
    reader.snapshots_ = snaps
    reader.nodes_ = [*run, laptop, branch]
    reader.trajectories_ = Forest.from_records(
        "u1", cfg.attach, snaps, reader.nodes_, []
    ).trajectories
    _say(reader, [(f"{sid}-m0", sid, *placed) for sid, placed in said.items()])
    return reader


def test_the_dialogue_in_progress_is_weighed_as_its_thread_not_as_its_visit(
    cfg: Config, embedder
) -> None:
    """The second visit of the marathon thread has said only "shoes": a turn about the long
    run along the river is its thread's, so it stays on the visit in progress, though the
    first visit alone is closer to it by more than the penalty (visit by visit, it went
    back there); a turn the laptop thread is closer to by more than the penalty goes to it."""
    reader = _second_visit_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    entry = service._forests.get(reader, "u1", cfg)
    tree_of = entry.forest.tree_of()
    assert tree_of["traj_run"] == tree_of["traj_run2"] != tree_of["traj_laptop"]
    turn = "is a long run along the river too much this week?"
    assert entry.profiles.match(turn).trajectory_id == "traj_run"  # the first visit's words
    stayed = service.localize("u1", turn, session_id="sess5")
    assert (stayed.decision, stayed.trajectory_id, stayed.stage) == (
        "CONTINUE",
        "traj_run2",
        "continuation",
    )
    moved = service.localize("u1", "the cat and the tea on my keyboard", session_id="sess5")
    assert (moved.trajectory_id, moved.stage) == ("traj_laptop", "thread")


def test_a_turn_of_the_dialogue_in_progress_with_only_new_words_stays_on_its_task(
    cfg: Config, embedder
) -> None:
    """A turn of the latest session that shares no word with any stored turn ("Pick me up
    in Ely", the town new to the store) names no other task: it continues the dialogue's
    trajectory. Outside the dialogue in progress the forest's cascade still decides."""
    reader = _dialogue_reader(cfg, embedder)
    service = QueryService(reader, embedder, cfg)
    turn = "Pick me up in Ely"
    profiles = service._forests.get(reader, "u1", cfg).profiles
    assert content_tokens(turn) and not profiles.tree_cosines(turn)
    stayed = service.localize("u1", turn, session_id="sess3")
    assert (stayed.decision, stayed.trajectory_id, stayed.stage) == (
        "CONTINUE",
        "traj_laptop",
        "continuation",
    )
    assert service.localize("u1", turn, session_id="sess2").stage != "continuation"


def test_a_turn_goes_to_its_closest_thread_only_when_the_cosine_reaches_turn_similarity(
    cfg: Config, embedder
) -> None:
    """`attach.turn_similarity` is the bar for the closest thread's profile (its tree's score
    for the turn): just below that score the turn goes to the thread (stage "thread"); just
    above, the forest's cascade decides instead."""
    reader = _dialogue_reader(cfg, embedder)
    turn = "how long until the keys work again?"
    entry = QueryService(reader, embedder, cfg)._forests.get(reader, "u1", cfg)
    match = entry.profiles.match(turn, entry.order)
    assert match is not None and cfg.attach.turn_similarity < match.tree_score
    for bar, thread in ((match.tree_score - 0.01, True), (match.tree_score + 0.01, False)):
        high = cfg.model_copy(deep=True)
        high.attach.turn_similarity = bar
        placed = QueryService(reader, embedder, high).localize("u1", turn)
        assert (placed.stage == "thread") is thread, (bar, placed.stage)
