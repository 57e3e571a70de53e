"""Thread metrics, the query's thread members, and a live turn's thread, by hand."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arborwiki.core.evaluation.threads import (
    UserThreads,
    nearest_message_label,
    partition_scores,
    purity,
    trajectory_label,
    user_partitions,
)
from arborwiki.core.forest.profiles import ThreadProfiles
from arborwiki.core.query.threads import thread_members
from arborwiki.core.records import Trajectory


def test_purity_and_inverse_purity_by_hand() -> None:
    groups = ["g1", "g1", "g1", "g2", "g2", "g3"]
    labels = ["a", "a", "b", "b", "b", "b"]
    # g1 majority a (2), g2 b (2), g3 b (1): 5 of 6
    assert purity(groups, labels) == pytest.approx(5 / 6)
    # label a → g1 (2); label b → g2 (2 of 4): 4 of 6
    assert purity(labels, groups) == pytest.approx(4 / 6)
    scores = partition_scores(groups, labels)
    assert scores["groups"] == 3
    assert partition_scores(labels, labels)["ari"] == pytest.approx(1.0)


def _user() -> UserThreads:
    return UserThreads(
        user_id="u",
        message_ids=["m1", "m2", "m3", "m4"],
        texts=["hotel parking", "guesthouse parking", "train to cambridge", "train leaves"],
        sessions=["s1", "s1", "s1", "s2"],
        windows=["w1", "w1", "w2", "w3"],
        trajectories=["t1", "t1", "t2", "t3"],
        trees=["r1", "r1", "r2", "r2"],
        labels={"domain": ["hotel", "hotel", "train", "train"]},
    )


def test_baseline_partitions_and_labels_of_a_trajectory() -> None:
    user = _user()
    parts = user_partitions(user, "domain")
    assert parts["one per session"] == ["s1", "s1", "s1", "s2"]
    assert parts["every message alone"] == ["m1", "m2", "m3", "m4"]
    assert len(set(parts["TF-IDF Ward, k = true"])) == 2
    assert partition_scores(parts["trees"], user.labels["domain"])["ari"] == pytest.approx(1.0)
    assert trajectory_label(user, "domain", "t2") == "train"
    assert trajectory_label(user, "domain", None) is None
    assert nearest_message_label(user, "domain", "free parking please") == "hotel"
    assert nearest_message_label(user, "domain", "yes") is None  # no content word


def _traj(tid: str, forked_from: str | None = None) -> Trajectory:
    now = datetime(2024, 1, 1, tzinfo=UTC)
    return Trajectory(
        trajectory_id=tid,
        user_id="u",
        forked_from=forked_from,
        snapshot_ids=[],
        title=tid,
        summary="",
        keywords=[],
        entities=[],
        facet_keys=[],
        first_time=now,
        last_time=now,
    )


def test_thread_members_are_the_whole_tree_of_each_selected_trajectory() -> None:
    trajs = [_traj("a"), _traj("b", "a"), _traj("c", "b"), _traj("d"), _traj("e", "d")]
    assert thread_members(trajs, ["c"]) == ["c", "a", "b"]
    assert thread_members(trajs, ["e", "a"]) == ["e", "a", "b", "c", "d"]
    assert thread_members(trajs, []) == []


def test_a_turn_goes_to_the_closest_tree_then_its_closest_trajectory() -> None:
    turns = {
        "h1": ["hotel with wifi", "guesthouse parking for two nights"],
        "h2": ["guesthouse parking", "a stay of three nights"],
        "t1": ["train leaves cambridge", "arrives at noon"],
        "p1": ["long talk about hiking boots and the lake district", "we want patagonia"],
    }
    tree = {"h1": "hotel", "h2": "hotel", "t1": "train", "p1": "trips"}
    profiles = ThreadProfiles(turns, tree)
    match = profiles.match("a guesthouse with free parking", order=["h1", "h2", "t1", "p1"])
    assert match is not None and match.trajectory_id == "h2"
    # a month is no evidence ("for March" said nowhere else counts for nothing)
    train = profiles.match("which train leaves in March")
    assert train is not None and train.trajectory_id == "t1"
    # one rare name said once in a long visit is found by the visit's closest turn
    trip = profiles.match("the patagonia trip")
    assert trip is not None and trip.trajectory_id == "p1"
    assert profiles.match("hello there") is None  # no content word it knows
    assert ThreadProfiles({}, {}).match("hotel") is None
