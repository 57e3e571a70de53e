"""g(σ, T) pinned on hand-built pairs whose cosines are exact (0, 1, √2/2)."""

from __future__ import annotations

import math

import pytest

from arborwiki.core.config import AttachConfig
from arborwiki.core.forest.scoring import g_score, specific, term_idf, vector_center
from arborwiki.core.forest.state import TrajectoryState
from tests.core.forest_builders import basis, mix, snap

CFG = AttachConfig()
R2 = math.sqrt(2) / 2


def traj(*members) -> TrajectoryState:
    state = TrajectoryState("traj_t")
    for m in members:
        state.add(m, f"node_{m.snapshot_id}", "")
    return state


def test_identical_vectors_and_keywords_give_one_when_terms_are_generic() -> None:
    idf = {"run": 1.0, "plan": 1.0}
    t = traj(snap("a", basis(0), keywords=["run", "plan"]))
    g = g_score(snap("s", basis(0), keywords=["Run", "plan"]), t, idf, CFG)
    assert g.cos_sum == pytest.approx(1.0) and g.cos_latest == pytest.approx(1.0)
    assert g.jaccard == 1.0 and g.b_cont == 0.0
    assert g.total == pytest.approx(1.0)


def test_orthogonal_and_disjoint_scores_zero() -> None:
    t = traj(snap("a", basis(0), keywords=["x"]))
    g = g_score(snap("s", basis(1), keywords=["y"]), t, {"x": 1.0, "y": 1.0}, CFG)
    assert g.total == pytest.approx(0.0)


def test_45_degrees_counts_for_sum_and_latest() -> None:
    t = traj(snap("a", basis(0)))
    g = g_score(snap("s", mix((0, 1), (1, 1))), t, {}, CFG)
    assert g.total == pytest.approx(0.8 * R2)  # 0.565685


def test_summary_vector_is_normalized_mean_and_latest_is_last_member() -> None:
    t = traj(snap("a", basis(0)), snap("b", basis(1)))
    g = g_score(snap("s", basis(0)), t, {}, CFG)
    assert g.cos_sum == pytest.approx(R2)
    assert g.cos_latest == pytest.approx(0.0)
    assert g.total == pytest.approx(0.6 * R2)  # 0.424264


def test_jaccard_of_keyword_sets() -> None:
    t = traj(snap("a", basis(0), keywords=["b", "c"]))
    g = g_score(snap("s", basis(1), keywords=["a", "b"]), t, {"a": 1, "b": 1, "c": 1}, CFG)
    assert g.jaccard == pytest.approx(1 / 3)
    assert g.total == pytest.approx(0.2 / 3)


def test_shared_specific_entity_earns_entity_bonus_and_continuity() -> None:
    t = traj(snap("a", basis(0), entities=["Maya"]))
    g = g_score(snap("s", basis(1), entities=["maya"]), t, {"maya": 2.0}, CFG)
    assert (g.b_entity, g.b_cont, g.p_mismatch) == (0.08, 0.04, 0.0)
    assert g.total == pytest.approx(0.12)


def test_only_generic_entities_shared_is_penalized() -> None:
    t = traj(snap("a", basis(0), entities=["mom"]))
    g = g_score(snap("s", basis(1), entities=["mom"]), t, {"mom": 1.0}, CFG)
    assert (g.b_entity, g.b_cont, g.p_mismatch) == (0.08, 0.0, 0.10)
    assert g.total == pytest.approx(-0.02)


def test_a_shared_specific_term_lifts_the_mismatch_penalty() -> None:
    t = traj(snap("a", basis(0), entities=["mom"], terms=["4:05"]))
    g = g_score(snap("s", basis(1), entities=["mom"], terms=["4:05"]), t, {"mom": 1.0}, CFG)
    assert g.p_mismatch == 0.0 and g.b_cont == pytest.approx(0.04)
    assert g.total == pytest.approx(0.12)


@pytest.mark.parametrize(("shared", "expected"), [(1, 0.04), (3, 0.12), (4, 0.14), (6, 0.14)])
def test_continuity_bonus_is_capped(shared: int, expected: float) -> None:
    terms = [f"t{i}" for i in range(shared)]
    t = traj(snap("a", basis(0), terms=terms + ["only-t"]))
    g = g_score(snap("s", basis(1), terms=terms + ["only-s"]), t, {}, CFG)
    assert g.b_cont == pytest.approx(expected)


@pytest.mark.parametrize(
    ("pairs", "expected"), [(0, 0.0), (1, 0.03), (2, 0.045), (3, 0.06), (4, 0.06)]
)
def test_facet_bonus_grows_per_matching_pair_up_to_cap(pairs: int, expected: float) -> None:
    keys = ["location", "date", "person", "event_type"]
    facets = {k: [f"v{k}"] for k in keys[:pairs]}
    t = traj(snap("a", basis(0), facets=facets | {"quantity": ["3"]}))
    g = g_score(snap("s", basis(1), facets=facets | {"quantity": ["4"]}), t, {}, CFG)
    assert g.b_facet == pytest.approx(expected)
    assert g.total == pytest.approx(expected)


def test_idf_and_specificity_come_from_the_users_archive() -> None:
    snaps = [
        snap("a", keywords=["run"], entities=["Maya"]),
        snap("b", keywords=["run"]),
        snap("c", keywords=["run"], terms=["3:45"]),
    ]
    idf = term_idf(snaps)
    assert idf["run"] == pytest.approx(1.0)  # log(4/4) + 1
    assert idf["maya"] == pytest.approx(math.log(2) + 1)  # log(4/2) + 1
    assert specific(["run", "Maya", "3:45", "never-seen"], idf, CFG) == {
        "maya",
        "3:45",
        "never-seen",
    }
    assert specific(["maya"], idf, AttachConfig(specific_idf=idf["maya"])) == {"maya"}


def test_centering_removes_what_all_of_a_users_talk_shares() -> None:
    # v1 = (c + a)/√2, v2 = (c + b)/√2 with c, a, b orthonormal: raw cos = 1/2.
    # center = (v1 + v2)/2, so v1 − center = (a − b)/(2√2) = −(v2 − center): centered cos = −1.
    v1, v2 = mix((0, 1), (1, 1)), mix((0, 1), (2, 1))
    s1, s2 = snap("a", v1, keywords=["x"]), snap("b", v2, keywords=["y"])
    center = vector_center([s1, s2])
    assert center is not None
    assert center.tolist() == pytest.approx([R2, R2 / 2, R2 / 2] + [0.0] * (len(v1) - 3))
    idf = {"x": 1.0, "y": 1.0}
    raw = g_score(s2, traj(s1), idf, CFG)
    centered = g_score(s2, traj(s1), idf, CFG, center)
    assert raw.cos_sum == pytest.approx(0.5) and raw.total == pytest.approx(0.8 * 0.5)
    assert centered.cos_sum == pytest.approx(-1.0) and centered.total == pytest.approx(-0.8)
    assert vector_center([s1]) is None  # one snapshot has nothing in common to remove
