"""`arborwiki evaluate threads` as a user runs it: a labelled archive of their own in, the
forest's partition scores and localize accuracy out (real build, real Lance store)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.test_episodes import archive, topic
from tests.processes import run_cli


def _write(tmp_path: Path) -> tuple[Path, Path, Path]:
    messages = archive()
    data = tmp_path / "archive.jsonl"
    data.write_text("".join(m.model_dump_json() + "\n" for m in messages))
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        "".join(
            json.dumps(
                {
                    "user_id": m.user_id,
                    "message_id": m.message_id,
                    "dialogue": m.session_id,
                    "domain": topic(m.message_id),
                }
            )
            + "\n"
            for m in messages
        )
    )
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        json.dumps(
            {"user_id": "u", "text": "Is there a guesthouse with parking?", "domain": "hotel"}
        )
        + "\n"
        + json.dumps({"user_id": "u", "text": "A train to Cambridge on Friday", "domain": "train"})
        + "\n"
    )
    return data, labels, turns


def test_evaluate_threads_scores_the_forest_and_localize(tmp_path: Path) -> None:
    data, labels, turns = _write(tmp_path)
    out = tmp_path / "out"
    result = run_cli(
        "evaluate", "threads", str(data), str(labels), "--localize", str(turns), "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["users"] == 1 and metrics["messages"] == 16
    tasks = metrics["labellings"]["dialogue,domain"]["mean"]
    domains = metrics["labellings"]["domain"]["mean"]
    assert tasks["trajectories"]["ari"] == 1.0  # one trajectory per task instance
    assert domains["trees"]["ari"] == 1.0  # the hotel resumed on day 3 shares a tree
    assert tasks["one per session"]["groups"] == 3
    assert metrics["localize"]["correct"] == 2 and metrics["localize"]["baseline_correct"] == 2
    report = (out / "report.md").read_text()
    assert "| trajectories | 1.000 |" in report and "arborwiki localize | 2 | 2 |" in report
    assert "trajectories ARI 1.000" in result.stdout


def test_a_labels_file_without_the_labelling_column_is_one_line(tmp_path: Path) -> None:
    data, labels, _ = _write(tmp_path)
    result = run_cli(
        "evaluate", "threads", str(data), str(labels), "--by", "topic", "--out", str(tmp_path)
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [f"error: labels {labels}:1: no topic"]


def test_evaluate_threads_online_replays_the_later_sessions_through_add(tmp_path: Path) -> None:
    """Day 0 is built; day 1 (a restaurant, new to the store) and day 3 (the hotel again)
    are replayed turn by turn: each user turn localized before its add."""
    data, labels, _ = _write(tmp_path)
    out = tmp_path / "out"
    result = run_cli("evaluate", "threads", str(data), str(labels), "--online", "--out", str(out))
    assert result.returncode == 0, result.stderr
    metrics = json.loads((out / "metrics.json").read_text())
    assert (metrics["replayed_messages"], metrics["adds"]) == (8, 4)  # a user turn + reply each
    cases = {c["message_id"]: c for c in metrics["cases"]}
    assert sorted(cases) == ["d1-t00", "d1-t02", "d3-t00", "d3-t02"]
    assert [c["switch"] for c in cases.values()] == [False, False, True, False]
    # the restaurant is new to the store: right only as NEW, which no baseline answers
    assert cases["d1-t00"]["decision"] == "NEW" and cases["d1-t00"]["online localize"]
    assert not cases["d1-t00"]["most recent trajectory"]
    # the hotel's return: the day-0 hotel trajectory, not the latest (the restaurant's)
    assert cases["d3-t00"]["trajectory_label"] == "hotel"
    assert not cases["d3-t00"]["most recent trajectory"]
    assert metrics["all"] == {
        "turns": 4,
        "online localize": 4,
        "most recent trajectory": 2,
        "TF-IDF-nearest message": 2,
    }
    assert metrics["switch_or_return"]["turns"] == 1 and metrics["unanswerable"] == 0
    report = (out / "report.md").read_text()
    assert "| all labelled user turns | 4 | 1.000 (4) | 0.500 (2) | 0.500 (2) |" in report
    assert "Turns no answer gets right: 0" in report
    assert "| batch build |" in report and "online localize 4/4" in result.stdout
