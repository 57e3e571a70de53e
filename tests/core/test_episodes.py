"""Episodes and threads (core/episodes.py) on small hand-made dialogues, and the numbers of
their parts: the Viterbi decode, TextTiling valleys, average-link grouping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from scipy import sparse

from arborwiki.core.config import Config, EpisodeConfig
from arborwiki.core.episodes import decode, exchanges, find_episodes, group_threads, valleys
from arborwiki.core.forest import build_forest
from arborwiki.core.pipeline import build_user_memory, user_windows
from arborwiki.core.records import Message
from arborwiki.core.windows import make_windows

DAY = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)

HOTEL = [
    ("user", "I need a hotel in the north with free parking for my stay."),
    ("assistant", "The Acorn guesthouse has free parking and free wifi. Shall I book it?"),
    ("user", "Yes, book the guesthouse for 3 people for 2 nights please."),
    ("assistant", "Booked at the Acorn guesthouse. Your reference number is ABC123."),
]
TRAIN = [
    ("user", "I also need a train to Cambridge leaving after 10:00 on Friday."),
    ("assistant", "The train TR1234 leaves Leicester at 10:09 and arrives in Cambridge at 11:54."),
    ("user", "Book the train for 3 people please."),
    ("assistant", "Your train tickets are booked, reference number TRN555."),
]
RESTAURANT = [
    ("user", "Find me a restaurant in the centre serving Italian food."),
    ("assistant", "Pizza Hut City Centre serves Italian food in the centre. Book a table?"),
    ("user", "Yes, book a table for 3 people at the restaurant at 18:00."),
    ("assistant", "Your table at the restaurant is booked, reference number RST777."),
]
HOTEL_AGAIN = [
    ("user", "I need a guesthouse with free wifi and parking for a 3 night stay."),
    ("assistant", "The Alpha guesthouse has free wifi and free parking. Book it?"),
    ("user", "Please book the guesthouse for 2 people."),
    ("assistant", "The guesthouse is booked, reference number GH42."),
]


def dialogue(
    session: str, day: int, turns: list[tuple[str, str]], user: str = "u"
) -> list[Message]:
    return [
        Message(
            user_id=user,
            conversation_id=session,
            session_id=session,
            message_id=f"{session}-t{i:02d}",
            turn_index=i,
            speaker=role,
            role=role,  # type: ignore[arg-type]
            text=text,
            timestamp=DAY + timedelta(days=day, minutes=i),
        )
        for i, (role, text) in enumerate(turns)
    ]


def archive() -> list[Message]:
    """Day 0: a hotel, then (cue "also") a train; day 1: a restaurant, sharing the request
    words ("book", "people", "reference number"); day 3: a hotel again."""
    return [
        *dialogue("d0", 0, HOTEL + TRAIN),
        *dialogue("d1", 1, RESTAURANT),
        *dialogue("d3", 3, HOTEL_AGAIN),
    ]


def topic(message_id: str) -> str:
    session, turn = message_id.split("-t")
    if session == "d0":
        return "hotel" if int(turn) < len(HOTEL) else "train"
    return {"d1": "restaurant", "d3": "hotel"}[session]


def test_a_task_switch_inside_a_session_is_an_episode_boundary() -> None:
    episodes = find_episodes(archive(), EpisodeConfig())
    assert [[m.message_id for m in e.messages] for e in episodes][:2] == [
        [f"d0-t{i:02d}" for i in range(4)],
        [f"d0-t{i:02d}" for i in range(4, 8)],
    ]
    assert all(len({topic(m.message_id) for m in e.messages}) == 1 for e in episodes)


def test_threads_follow_the_task_not_the_request_words() -> None:
    episodes = find_episodes(archive(), EpisodeConfig())
    by_topic = {
        topic(e.messages[0].message_id) + e.messages[0].session_id: e.thread for e in episodes
    }
    # the hotel of day 0 and the hotel of day 3 are one thread; train and restaurant, which
    # share "book", "people" and "reference number" with it, are threads of their own
    assert by_topic["hoteld0"] == by_topic["hoteld3"]
    assert len({by_topic["hoteld0"], by_topic["traind0"], by_topic["restaurantd1"]}) == 3


def test_the_forest_branches_a_thread_resumed_two_days_later() -> None:
    cfg = Config()
    uw = user_windows(archive(), cfg)
    assert [p.episode for p in uw.places] == [0, 1, 2, 3]  # one 4-turn window per task
    memory = build_user_memory(archive(), cfg, _rules(cfg), _embedder())
    nodes = {n.snapshot_id: n for n in memory.nodes}
    traj_of = {}
    root_of = {}
    for snapshot in memory.snapshots:
        node = nodes[snapshot.snapshot_id]
        for mid in snapshot.message_ids:
            traj_of[mid], root_of[mid] = node.trajectory_id, node.root_id
    # one trajectory per task: hotel d0, train d0, restaurant d1, hotel d3
    assert len(set(traj_of.values())) == 4
    assert traj_of["d0-t00"] != traj_of["d3-t00"]
    # the day-3 hotel is a new branch of the day-0 hotel's tree
    assert root_of["d0-t00"] == root_of["d3-t00"]
    resumed = next(t for t in memory.trajectories if t.trajectory_id == traj_of["d3-t00"])
    assert resumed.forked_from == traj_of["d0-t00"]
    assert len({root_of["d0-t00"], root_of["d0-t04"], root_of["d1-t00"]}) == 3
    reasons = sorted(n.attach_reason for n in memory.nodes)
    assert reasons.count("resume") == 1 and reasons.count("empty") == 1


def _rules(cfg: Config):  # noqa: ANN202
    from arborwiki.backends.extractors import build_labeled_extractor

    return build_labeled_extractor(cfg.extract)


def _embedder():  # noqa: ANN202
    from arborwiki.core.embedding import load_embedder

    return load_embedder()


def test_exchanges_are_an_owner_turn_and_its_replies() -> None:
    ex = exchanges(archive(), ["also"])
    assert [len(t) for t in ex.turns] == [2, 2, 2, 2, 2, 2, 2, 2]
    assert ex.cue.tolist() == [False, False, True, False, False, False, False, False]
    assert ex.session.tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    # a session of one role only: every turn is an exchange of its own
    notes = dialogue("n", 0, [("user", "a note"), ("user", "another note")])
    assert len(exchanges(notes, []).turns) == 2


def test_decode_pays_the_penalty_only_where_a_switch_is_worth_it() -> None:
    scores = np.array([[0.5, 0.0], [0.1, 0.2], [0.0, 0.6], [0.1, 0.0]])
    free = np.zeros(4, dtype=bool)
    # paths: 0000 = 0.7; 1111 = 0.8; 0111 = 1.3 − p; 0011 = 1.2 − p; 0110 = 1.4 − 2p
    assert decode(scores, 0.3, free).tolist() == [0, 1, 1, 1]  # 1.0 beats 0.9, 0.8, 0.8
    assert decode(scores, 0.6, free).tolist() == [1, 1, 1, 1]  # 0.8 beats 0.7, 0.7
    # a cue makes row 2's switch free: 0011 = 1.2 beats 1111 = 0.8 and 0111 = 0.7
    assert decode(scores, 0.6, np.array([False, False, True, False])).tolist() == [0, 0, 1, 1]
    # a tie between staying and switching is a stay
    tied = np.array([[0.5, 0.0], [0.0, 0.3]])
    assert decode(tied, 0.3, np.zeros(2, dtype=bool)).tolist() == [0, 0]


TRAIN_ALONE = [(role, text.replace("I also need", "I need")) for role, text in TRAIN]
TRAIN_OPENER = [
    ("user", "Can I get a train to Cambridge please?"),
    ("assistant", "The train TR9 leaves at 10:09 and arrives at 11:54."),
]


def test_the_users_last_exchange_switches_thread_without_paying_the_penalty() -> None:
    """A train opener (no cue) ends a hotel dialogue. With a penalty no cosine can pay, it
    stays on the hotel while another exchange follows it; as the user's last exchange (the
    dialogue in progress of a store written turn by turn) it goes to the train thread."""
    cfg = EpisodeConfig(thread_similarity=0.3, switch_penalty=1.0)
    head = [
        *dialogue("d0", 0, HOTEL),
        *dialogue("d1", 1, TRAIN_ALONE),
        *dialogue("d2", 2, RESTAURANT),
        *dialogue("d3", 3, HOTEL_AGAIN + TRAIN_OPENER),
    ]

    def episodes(messages: list[Message]) -> list[tuple[str, int]]:
        return [(e.messages[0].message_id, e.thread) for e in find_episodes(messages, cfg)]

    hotel, train, restaurant = 0, 1, 2
    at_the_tail = episodes(head)
    assert at_the_tail == [
        ("d0-t00", hotel),
        ("d1-t00", train),
        ("d2-t00", restaurant),
        ("d3-t00", hotel),
        ("d3-t04", train),
    ]
    followed = episodes([*head, *dialogue("d5", 5, RESTAURANT)])
    assert followed == [*at_the_tail[:4], ("d5-t00", restaurant)]


def test_valleys_cut_where_the_depth_score_reaches_the_bar() -> None:
    # five exchanges of one session: words a a | a b | b c | c c | c c → cosines of
    # neighbours: (a,ab)=0.707, (ab,bc)=0.5, (bc,cc)=0.707, (cc,cc)=1 (counts log-scaled,
    # IDF equal for a and b; c's IDF lower, so the numbers below are computed, not rounded)
    counts = sparse.csr_matrix(
        np.array([[2, 0, 0], [1, 1, 0], [0, 1, 1], [0, 0, 2], [0, 0, 2]], dtype=float)
    )
    ex = exchanges(
        [*dialogue("s", 0, [("user", "x")] * 5)], []
    )  # five one-turn exchanges of one session
    depth = _depths(counts)
    assert valleys(counts, ex, depth[2] - 1e-9).tolist() == [False, False, True, False, False]
    assert not valleys(counts, ex, depth[2] + 1e-9).any()


def _depths(counts: sparse.csr_matrix) -> list[float]:
    """The depth score of each gap, by hand: (left max − s) + (right max − s)."""
    n = counts.shape[0]
    df = (counts.toarray() > 0).sum(axis=0)
    idf = np.log((n + 1) / (df + 1)) + 1.0
    x = np.log1p(counts.toarray()) * idf
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    sims = [float(x[i] @ x[i + 1]) for i in range(n - 1)]
    return [0.0] + [(max(sims[: j + 1]) - s) + (max(sims[j:]) - s) for j, s in enumerate(sims)]


def test_group_threads_joins_while_the_mean_cosine_reaches_the_bar() -> None:
    # unit vectors: e1, e1, (e1+e2)/√2, e2. cos(0,1)=1, cos(0,2)=cos(1,2)=0.707, cos(.,3)=0
    r = 1 / np.sqrt(2)
    vectors = sparse.csr_matrix(np.array([[1, 0], [1, 0], [r, r], [0, 1]]))
    # at 0.6: {0,1} join (1.0), then {0,1}+2 (mean 0.707), then +3: mean of 0,0,0.707 = 0.236
    assert group_threads(vectors, 0.6, 100).tolist() == [0, 0, 0, 1]
    assert group_threads(vectors, 0.2, 100).tolist() == [0, 0, 0, 0]
    assert group_threads(vectors, 0.8, 100).tolist() == [0, 0, 1, 2]
    # past the cap an episode joins the thread of best mean cosine when it reaches the bar:
    # episode 2 against {0,1}: 0.707 ≥ 0.6 → thread 0; episode 3: 0 < 0.6 → a new thread
    assert group_threads(vectors, 0.6, 2).tolist() == [0, 0, 0, 1]
    # an episode without content words is a thread of its own
    with_empty = sparse.csr_matrix(np.array([[1, 0], [0, 0], [1, 0]]))
    assert group_threads(with_empty, 0.5, 100).tolist() == [0, 1, 0]


def test_windows_never_cross_an_episode_and_cut_every_max_turns() -> None:
    episodes = find_episodes(archive(), EpisodeConfig())
    windows, places = make_windows(episodes, 3)
    assert [len(w.messages) for w in windows] == [3, 1, 3, 1, 3, 1, 3, 1]
    assert [p.episode for p in places] == [0, 0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("cue", ["also", "looking for"])
def test_a_shift_cue_in_an_assistant_turn_cuts_nothing(cue: str) -> None:
    turns = [("user", "book a hotel"), ("assistant", f"I am {cue} a hotel for you")]
    ex = exchanges(dialogue("s", 0, turns), [cue])
    assert ex.cue.tolist() == [False]


def test_forest_without_places_still_runs_the_cascade() -> None:
    memory = build_user_memory(archive(), Config(), _rules(Config()), _embedder())
    unplaced, _ = build_forest(memory.snapshots, Config().attach)
    assert {n.attach_reason for n in unplaced} <= {
        "empty",
        "continuation",
        "hybrid",
        "new",
        "return",
    }


def test_the_wiki_links_every_visit_of_a_thread_it_writes_about() -> None:
    cfg = Config()
    memory = build_user_memory(archive(), cfg, _rules(cfg), _embedder())
    by_message = {
        mid: next(n.trajectory_id for n in memory.nodes if n.snapshot_id == s.snapshot_id)
        for s in memory.snapshots
        for mid in s.message_ids
    }
    day0, day3 = by_message["d0-t00"], by_message["d3-t00"]
    linking = [p for p in memory.pages if p.kind != "index" and day0 in p.trajectory_ids]
    assert linking and all(day3 in p.trajectory_ids for p in linking)
    # one thread, one topic page: not a page per visit
    topics = [p for p in memory.pages if p.kind == "topic" and day0 in p.trajectory_ids]
    assert len(topics) == 1


def _partition(cfg: EpisodeConfig) -> list[tuple[list[str], int]]:
    return [([m.message_id for m in e.messages], e.thread) for e in find_episodes(archive(), cfg)]


@pytest.mark.parametrize(
    ("setting", "value", "what_changes"),
    [
        ("shift_cues", [], "the train's 'also' no longer opens an episode"),
        ("valley_depth", 0.0, "every exchange is its own episode"),
        ("thread_similarity", 0.01, "the tasks that share request words merge"),
        ("thread_similarity", 0.9, "the two hotels part"),
    ],
)
def test_each_episode_setting_moves_the_cut_or_the_grouping(
    setting: str, value: object, what_changes: str
) -> None:
    """The measured defaults (benchmarks/results/threads.md) give the partition the tests
    above check; each setting, moved, gives another on the same dialogues: none is dead."""
    assert _partition(EpisodeConfig(**{setting: value})) != _partition(EpisodeConfig()), (
        what_changes
    )
