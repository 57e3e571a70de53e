"""Evidence fusion, pinned by hand: weighted RRF, page citations, long-archive set ids."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arborwiki.core.evaluation.long_archive import long_owner
from arborwiki.core.query.reader import Hit, MessageRef
from arborwiki.core.query.service import fuse_hits, page_citations
from arborwiki.core.records import WikiPage
from tests.builders import make_message

T0 = datetime(2023, 5, 1, tzinfo=UTC)


def _ref(mid: str) -> MessageRef:
    message = make_message(mid, mid, speaker="a", timestamp=T0)
    return MessageRef(message, "snap", "traj")


def test_weighted_rrf_adds_evidence_and_keeps_ties_with_the_first_list() -> None:
    a, b, c = _ref("a"), _ref("b"), _ref("c")
    fused = fuse_hits([(1.0, [a, b]), (1.0, [c, b])], rrf_k=1)
    # a: 1/1, b: 1/2 + 1/2, c: 1/1 — all tie at 1.0; ties keep the first list's order.
    assert [h.record.message.message_id for h in fused] == ["a", "b", "c"]
    assert fused[1].score == pytest.approx(1.0) and [h.rank for h in fused] == [0, 1, 2]
    weak = fuse_hits([(1.0, [a, b]), (0.1, [c, b])], rrf_k=1)
    assert [h.record.message.message_id for h in weak] == ["a", "b", "c"]
    assert weak[2].score == pytest.approx(0.1)


def _page(rank: int, markdown: str) -> Hit[WikiPage]:
    page = WikiPage(
        page_id=f"p{rank}",
        user_id="u",
        kind="topic",
        title="t",
        markdown=markdown,
        trajectory_ids=[],
    )
    return Hit(page, rank, 0.0)


def test_page_citations_rank_lines_by_shared_words_then_page_rank() -> None:
    pages = [
        _page(0, "# t\n- caroline went to: a support group [D1:3]\n- [lake](topic-lake.md)"),
        _page(1, "# u\n- caroline painted: a sunrise at the lake [D2:1] [D2:2]\n- [D9:9] x"),
    ]
    assert page_citations(pages, {"sunrise", "lake"}, 10) == ["D2:1", "D2:2"]
    assert page_citations(pages, {"support", "lake"}, 10) == ["D1:3", "D2:1", "D2:2"]
    assert page_citations(pages, {"support", "lake"}, 2) == ["D1:3", "D2:1"]


def _sample(sid: str, date: str, turns: list[tuple[str, str]], evidence: list[str]) -> dict:
    return {
        "sample_id": sid,
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": date,
            "session_1": [{"speaker": s, "dia_id": d, "text": f"{s} says {d}"} for s, d in turns],
        },
        "qa": [{"question": "q?", "answer": "x", "evidence": evidence, "category": 1}],
    }


def test_long_owner_interleaves_by_date_and_maps_gold_to_merged_messages() -> None:
    late = _sample("s1", "1:00 pm on 9 May, 2023", [("Ann", "D1:1"), ("Bo", "D1:2")], ["D1:2"])
    early = _sample(
        "s2", "1:00 pm on 8 May, 2023", [("Cy", "D1:1"), ("Di", "D1:2")], ["D1:1; D7:1"]
    )
    owner = long_owner([late, early], "long", merge_turns=2)
    conv = owner["conversation"]
    assert [t["dia_id"] for t in conv["session_1"]] == ["s2/D1:1"]  # the earlier sample first
    assert conv["session_1"][0]["text"] == "Cy: Cy says D1:1\nDi: Di says D1:2"
    assert [t["dia_id"] for t in conv["session_2"]] == ["s1/D1:1"]
    assert [q["evidence"] for q in owner["qa"]] == [["s1/D1:1"], ["s2/D1:1", "s2/D7:1"]]
    single = long_owner([late], "long", merge_turns=1)["conversation"]["session_1"]
    assert [t["text"] for t in single] == ["Ann says D1:1", "Bo says D1:2"]
