"""The terminal rendering of a query result: evidence in rank order (the list's own order),
then a changed belief as old → new and a slot's current value as "now"."""

from __future__ import annotations

from arborwiki.core.query.result import QueryResult
from arborwiki.jobs.render import render_result


def _claim(cid: str, text: str, status: str, src: str, **more: object) -> dict[str, object]:
    return {"claim_id": cid, "text": text, "status": status, "source_message_ids": [src], **more}


def _result() -> dict[str, object]:
    return {
        "user_id": "aoife",
        "question": "Where does Aoife live now?",
        "pages": [{"kind": "entity", "title": "aoife"}],
        "candidate_trajectories": 3,
        "trajectories": [{"title": "galway"}],
        "evidence": [  # rank order: the later message ranks first
            {
                "message_id": "m2",
                "timestamp": "2024-04-30T12:10:00Z",
                "speaker": "Aoife",
                "text": "so we're moving to Galway in June.",
                "rank": 0,
            },
            {
                "message_id": "m1",
                "timestamp": "2023-11-18T09:00:00Z",
                "speaker": "Aoife",
                "text": "I work in Dublin.",
                "rank": 1,
            },
        ],
        "claims": [
            _claim(
                "c1",
                "aoife works at Acme (2023-11-18)",
                "revised",
                "m1",
                replaced_by="aoife works at Tallyhawk (2024-01-02)",
                replaced_by_message_ids=["m3"],
            ),
            _claim("c2", "aoife lives in Galway (2024-06-01)", "active", "m2"),
        ],
        "context_tokens": 40,
    }


def test_changed_and_current_beliefs_are_labelled_apart() -> None:
    lines = render_result(_result()).splitlines()
    assert lines[3].startswith("  [m2] 2024-04-30 Aoife:")  # ranked first, shown first
    assert lines[4].startswith("  [m1] 2023-11-18 Aoife:")
    assert lines[5] == (
        "  changed: [m1] aoife works at Acme (2023-11-18) (revised → aoife works at Tallyhawk"
        " (2024-01-02) [m3])"
    )
    assert lines[6] == "  now: [m2] aoife lives in Galway (2024-06-01) (active)"


def test_the_evidence_block_for_a_model_labels_them_the_same_way() -> None:
    result = _result()
    result["pages"] = []
    result["trajectories"] = []
    for e in result["evidence"]:  # type: ignore[union-attr]
        e["trajectory_id"], e["why"] = None, "hit"
    block = QueryResult.model_validate(result).render().splitlines()
    assert block[0] == "Q: Where does Aoife live now?"
    # the model reads the messages as the dialogue they were: in time order
    assert [line.split("]")[0] for line in block[1:3]] == ["  [m1", "  [m2"]
    assert block[-2].startswith("  changed: [m1] aoife works at Acme")
    assert block[-1] == "  now: [m2] aoife lives in Galway (2024-06-01) (active)"


def test_a_user_with_nothing_stored_is_told_so() -> None:
    empty = {**_result(), "pages": [], "candidate_trajectories": 0, "trajectories": []}
    assert "no memory for user 'aoife' here" not in render_result(empty)  # evidence is there
    text = render_result({**empty, "evidence": [], "claims": [], "context_tokens": 0})
    assert "  no memory for user 'aoife' here (user ids match exactly)" in text.splitlines()
    assert "no memory" not in render_result(_result())


def test_titles_that_are_lists_stay_apart() -> None:
    """Two trajectories titled 'beef, chili' and 'goal, hail, mary' are two, not five."""
    result = _result()
    result["trajectories"] = [{"title": "beef, chili"}, {"title": "goal, hail, mary"}]
    result["pages"] = [
        {"kind": "topic", "title": "burger and dinner"},
        {"kind": "entity", "title": "bob"},
    ]
    lines = render_result(result).splitlines()
    assert lines[1] == "  routed pages: topic:burger and dinner; entity:bob"
    assert lines[2] == "  trajectories: beef, chili; goal, hail, mary  | candidates=3"
    result["pages"] = []  # the page route off (the default): no line for it
    assert render_result(result).splitlines()[1].startswith("  trajectories: beef, chili")


def test_a_history_says_which_version_ended_the_belief() -> None:
    """The DEPRECATE version is the ending ("I was laid off from Acme"): its value reads
    "no longer: Acme", not "Acme" as if the job were held again."""
    from arborwiki.core.query.result import HistoryResult

    def version(cid: str, op: str, status: str, value: str, day: int) -> dict[str, object]:
        return {
            "claim_id": cid,
            "op": op,
            "status": status,
            "value": value,
            "text": value,
            "recorded_at": f"2024-03-{day:02d}T09:00:00Z",
            "event_time": None,
            "source_message_ids": [f"m{day}"],
            "sources": [],
        }

    chain = {
        "subject": "hugo",
        "attribute": "works at",
        "versions": [
            version("c1", "ADD", "deprecated", "Acme", 1),
            version("c2", "DEPRECATE", "active", "Acme", 9),
        ],
    }
    text = HistoryResult.model_validate(
        {"user_id": "hugo", "about": "job", "chains": [chain]}
    ).text()
    assert text.splitlines()[1:] == [
        "  ADD       2024-03-01 [deprecated] Acme [m1]",
        "  DEPRECATE 2024-03-09 [active] no longer: Acme [m9]",
    ]
