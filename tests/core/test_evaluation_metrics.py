"""Evaluation arithmetic, pinned by hand."""

from __future__ import annotations

import pytest

from arborwiki.core.evaluation.gold import split_gold
from arborwiki.core.evaluation.metrics import Context, Item, aggregate, fill, score
from arborwiki.core.evaluation.report import render_report
from arborwiki.core.evaluation.variants import quoted_ids


def test_split_gold_handles_malformed_strings() -> None:
    assert split_gold(["D8:6; D9:17"]) == ("D8:6", "D9:17")
    assert split_gold(["D9:1 D4:4 D4:6", "D4:4"]) == ("D9:1", "D4:4", "D4:6")
    assert split_gold([]) == ()


def test_fill_skips_what_does_not_fit_and_keeps_going() -> None:
    items = [Item(10, ("a",)), Item(30, ("b",)), Item(5, ("c",)), Item(1, ("d", "e"))]
    assert fill(items, 16) == (frozenset({"a", "c", "d", "e"}), 16)
    assert fill(items, 9) == (frozenset({"c", "d", "e"}), 6)
    assert fill(items, None) == (frozenset("abcde"), 46)


def test_score_coverage_all_ref_and_trajectory_recall() -> None:
    context = Context(frozenset({"a", "b"}), 40, candidates=3, selected=("t1",))
    s = score("v", 100, 1, ("a", "b", "c"), context, {"a": "t1", "b": "t2", "c": "t1"})
    assert s.gold_ref_cov == pytest.approx(2 / 3) and not s.all_ref
    assert s.traj_recall == pytest.approx(2 / 3)  # a and c sit on the selected t1
    flat = score("v", 100, 4, ("a",), Context(frozenset({"a"}), 7), {})
    assert flat.gold_ref_cov == 1.0 and flat.all_ref and flat.traj_recall is None


def test_aggregate_shape_and_means() -> None:
    ctx = Context(frozenset({"a"}), 10)
    scores = [
        score("flat", 1000, 1, ("a", "b"), ctx, {}),  # 0.5, not all
        score("flat", 1000, 4, ("a",), ctx, {}),  # 1.0, all
    ]
    out = aggregate(scores)
    assert set(out) == {"flat"} and set(out["flat"]) == {"1000"}
    assert set(out["flat"]["1000"]) == {"1", "4", "all"}
    everything = out["flat"]["1000"]["all"]
    assert everything["gold_ref_cov"] == 0.75 and everything["all_ref_rate"] == 0.5
    assert everything["n"] == 2 and everything["traj_recall"] is None
    assert everything["context_tokens"] == 10.0


def test_report_bolds_the_best_and_states_losses() -> None:
    ctx_all, ctx_none = Context(frozenset({"a"}), 5), Context(frozenset(), 5)
    metrics = aggregate(
        [
            score("arborwiki", 100, 4, ("a",), ctx_none, {}),
            score("flat_bm25", 100, 4, ("a",), ctx_all, {}),
        ]
    )
    text = render_report(metrics, "# t")
    assert "| **flat_bm25** |" in text
    assert "- budget 100, all: flat_bm25 1.000 > arborwiki 0.000" in text


def test_a_cited_id_without_its_text_is_not_covered() -> None:
    """One meaning of covered: the message text is in the context; a citation alone is
    reported apart, and an id that is both present and cited counts as present only."""
    context = Context(frozenset({"a"}), 20, cited=frozenset({"a", "b"}))
    s = score("wiki_only", 100, 1, ("a", "b", "c"), context, {})
    assert s.gold_ref_cov == pytest.approx(1 / 3)
    assert s.cited_not_present == pytest.approx(1 / 3)  # only b: a is present, c is absent
    out = aggregate([s])["wiki_only"]["100"]["all"]
    assert out["cited_not_present"] == pytest.approx(0.3333, abs=1e-4)
    assert "| cited, not present |" in render_report(aggregate([s]), "# t")


def test_a_page_covers_a_message_only_when_it_quotes_the_text() -> None:
    texts = {"D1:1": "I adopted a  Dog named Rex.", "D1:2": "We went hiking."}
    page = "## Facts\n- caroline adopted: a dog [D1:1]\n> i adopted a dog named rex. [D1:1]\n[D1:2]"
    assert quoted_ids(page, ["D1:1", "D1:2"], texts) == ("D1:1",)
    assert quoted_ids("- caroline went: hiking [D1:2]", ["D1:2"], texts) == ()
