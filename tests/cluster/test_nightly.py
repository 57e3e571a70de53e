"""`arborwiki nightly` on real Ray and real Lance: only touched users change, nightly runs
add up to a full build, nothing new writes nothing, an aborted run is completed next time.

One seeded synthetic archive (6 users, 10 sessions each) is cut in days: day 1 holds
sessions 0-5 of every user; day 2 (a new file) sessions 6-9 of three users, chosen so a
fact stated on day 1 is revised on day 2, plus a bad line and a duplicate message id;
day 3 appends two sessions of a fourth user to day 2's file.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from arborwiki.cluster import build
from arborwiki.cluster.build import config_hash, run_build
from arborwiki.cluster.nightly import NightlyReport, run_nightly
from arborwiki.cluster.store_admin import rollback_store
from arborwiki.core.config import Config, load_config
from arborwiki.core.records import Message
from arborwiki.core.slots import slot_of
from arborwiki.jobs.cli import app
from arborwiki.storage.lance_store import LanceStore
from arborwiki.storage.tables import SPECS, USER_TABLES
from arborwiki.synthetic import generate_archive

TOUCHED = ["user-0002", "user-0004", "user-0006"]
DAY3_USER = "user-0001"
TABLES = (*USER_TABLES, "quarantine")


class StoppedBeforeCommit(RuntimeError):
    """A run stopped after its shard outputs were written and before its commit."""


def _stop_before_commit(*args: Any, **kwargs: Any) -> Any:
    raise StoppedBeforeCommit


def _session(m: Message) -> int:
    return int(m.session_id.rsplit("s", 1)[1])


def _write(path: Path, messages: list[Message], mode: str = "w", extra: str = "") -> None:
    with path.open(mode) as out:
        for m in messages:
            out.write(json.dumps(m.model_dump(mode="json")) + "\n")
        out.write(extra)


def _user_hashes(store: LanceStore) -> dict[tuple[str, str | None], str]:
    """(table, user) → digest of every row of that user, vectors included."""
    groups: dict[tuple[str, str | None], list[dict[str, Any]]] = defaultdict(list)
    for name in TABLES:
        for row in store.table(name).to_arrow().to_pylist():
            groups[(name, row["user_id"])].append(row)
    return {
        key: hashlib.blake2b(
            json.dumps(sorted(rows, key=lambda r: r[SPECS[key[0]].key]), default=str).encode()
        ).hexdigest()
        for key, rows in groups.items()
    }


def _contents(store: LanceStore) -> dict[str, dict[str, dict[str, Any]]]:
    return {
        name: {r[SPECS[name].key]: r for r in store.table(name).to_arrow().to_pylist()}
        for name in TABLES
    }


def _state(store: LanceStore) -> tuple[dict[Any, str], dict[str, int], dict[str, Any]]:
    """Per-user hashes, table versions and full contents: what a run must (not) change."""
    return _user_hashes(store), store.versions(), _contents(store)


@pytest.fixture(scope="module")
def cfg() -> Config:
    return load_config(overrides=["ray.num_shards=3"])


@pytest.fixture(scope="module")
def history(ray_local: None, cfg: Config, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Day 1, a dry run, day 2, a no-op run, a full build of days 1+2, then day 3 aborted
    before its commit and run again: what each step reported and left in the store."""
    root = tmp_path_factory.mktemp("nightly")
    archive, store_dir, full_dir = root / "archive", root / "store", root / "full"
    archive.mkdir()
    messages = generate_archive(6, seed=11, sessions=10)
    day1 = [m for m in messages if _session(m) < 6]
    day2 = [m for m in messages if _session(m) >= 6 and m.user_id in TOUCHED]
    day3 = [m for m in messages if _session(m) in (6, 7) and m.user_id == DAY3_USER]
    dup = day1[[m.user_id for m in day1].index(TOUCHED[0])].model_copy(update={"text": "again"})
    h: dict[str, Any] = {"store": store_dir, "archive": archive}

    _write(archive / "day1.jsonl", day1)
    h["day1"] = run_nightly(str(archive), str(store_dir), cfg)
    store = LanceStore(store_dir)
    h["hashes1"], h["versions1"], h["contents1"] = _state(store)

    _write(archive / "day2.jsonl", day2, extra="{not json\n")
    _write(archive / "day2.jsonl", [dup], mode="a")
    h["dry"] = run_nightly(str(archive), str(store_dir), cfg, dry_run=True)
    cli = CliRunner().invoke(app, ["nightly", "-i", str(archive), "-s", str(store_dir), "--dry-run",
                                   "--set", "ray.num_shards=3"])  # fmt: skip
    h["dry_cli"] = cli.output
    h["versions_after_dry"] = LanceStore(store_dir).versions()

    h["day2"] = run_nightly(str(archive), str(store_dir), cfg)
    store = LanceStore(store_dir)
    h["hashes2"], h["versions2"], h["contents2"] = _state(store)
    h["runs2"] = store.count("runs")
    h["work2"] = sorted(p.name for p in (store_dir / "_work" / "shards").iterdir())
    h["markers2"] = sorted(p.name for p in (store_dir / "_work" / "runs").iterdir())

    h["noop"] = run_nightly(str(archive), str(store_dir), cfg)
    store = LanceStore(store_dir)
    h["versions_noop"], h["runs_noop"] = store.versions(), store.count("runs")

    h["full"] = run_build(str(archive), str(full_dir), cfg)
    h["contents_full"] = _contents(LanceStore(full_dir))

    _write(archive / "day2.jsonl", day3, mode="a")
    with pytest.MonkeyPatch.context() as patch, pytest.raises(StoppedBeforeCommit):
        patch.setattr(build, "_commit", _stop_before_commit)  # shard outputs written, no commit
        run_nightly(str(archive), str(store_dir), cfg)
    store = LanceStore(store_dir)
    h["versions_aborted"] = store.versions()
    h["day3_user_after_abort"] = len(store.rows("messages", DAY3_USER))
    h["day3"] = run_nightly(str(archive), str(store_dir), cfg)
    h["day3_user_after"] = len(LanceStore(store_dir).rows("messages", DAY3_USER))
    h["day3_user_before"] = sum(m.user_id == DAY3_USER for m in day1)
    h["day3_new"] = len(day3)

    rollback_store(str(store_dir), h["day2"].build.run_id)
    h["after_rollback"] = len(LanceStore(store_dir).rows("messages", DAY3_USER))
    h["redo"] = run_nightly(str(archive), str(store_dir), cfg)
    h["redo_user_after"] = len(LanceStore(store_dir).rows("messages", DAY3_USER))
    return h


def test_first_nightly_is_a_full_build_and_runs_record_watermarks(history, cfg) -> None:
    first: NightlyReport = history["day1"]
    assert first.mode == "full" and "no earlier run" in first.reason
    assert first.build is not None and first.build.committed
    runs = LanceStore(history["store"]).table("runs").to_arrow().to_pylist()
    ordered = sorted(runs, key=lambda r: r["finished_at"])[:3]  # days 1-3 (then a rollback)
    marks = [json.loads(r["watermark"]) for r in ordered]
    assert [m["mode"] for m in marks] == ["full", "incremental", "incremental"]
    # an incremental run names the users it rebuilt (writers and readers keep the others'
    # rows, byte for byte the same: test_day2_changes_only_the_touched_users_rows)
    assert [r["users"] for r in ordered] == [None, sorted(TOUCHED), [DAY3_USER]]
    assert {m["config_hash"] for m in marks} == {config_hash(cfg)}
    assert all(m["failed_users"] == [] and m["seconds"]["total"] > 0 for m in marks)
    assert [sorted(Path(p).name for p in m["files"]) for m in marks] == [
        ["day1.jsonl"],
        ["day1.jsonl", "day2.jsonl"],
        ["day1.jsonl", "day2.jsonl"],
    ]
    day2_then, day2_now = (m["files"][str(history["archive"] / "day2.jsonl")] for m in marks[1:])
    assert day2_now["size"] == (history["archive"] / "day2.jsonl").stat().st_size
    assert day2_then["size"] < day2_now["size"] and day2_then["digest"] != day2_now["digest"]
    assert day2_now["rows"] == day2_then["rows"] + history["day3_new"]
    assert day2_now["max_timestamp"] >= day2_then["max_timestamp"]


def test_day2_changes_only_the_touched_users_rows(history: dict) -> None:
    report: NightlyReport = history["day2"]
    assert report.mode == "incremental" and report.users == TOUCHED
    before, after = history["hashes1"], history["hashes2"]
    changed = {user for key in before.keys() | after.keys() if before.get(key) != after.get(key)
               for user in [key[1]]}  # fmt: skip
    assert changed == {*TOUCHED, None}  # None: the bad JSON line's quarantine row, no owner
    untouched = [k for k in before if k[1] not in TOUCHED and k[1] is not None]
    assert untouched and all(before[k] == after[k] for k in untouched)
    for name in USER_TABLES:  # every table of every touched user moved
        assert all(before[(name, u)] != after[(name, u)] for u in TOUCHED), name


def test_quarantine_accounting_holds_for_the_new_data(history: dict) -> None:
    report: NightlyReport = history["day2"]
    one, two = history["contents1"], history["contents2"]
    assert report.new_quarantined == 2  # the bad line and the repeated message id
    assert report.new_rows == report.new_messages + report.new_quarantined
    assert len(two["messages"]) - len(one["messages"]) == report.new_messages
    assert len(two["quarantine"]) - len(one["quarantine"]) == report.new_quarantined
    assert report.build is not None and report.build.rows_read == report.new_rows
    reasons = sorted(r["reason"] for r in two["quarantine"].values())
    assert reasons == ["duplicate message_id for user", "invalid JSON"]


def test_nightly_day1_then_day2_equals_a_full_build_of_both(history: dict) -> None:
    nightly, full = history["contents2"], history["contents_full"]
    for name in TABLES:
        assert nightly[name].keys() == full[name].keys(), name
        differ = [k for k in nightly[name] if nightly[name][k] != full[name][k]]
        assert differ == [], (name, differ[:3])


def test_old_snapshots_stay_and_a_claim_revised_on_day2_keeps_both_versions(history) -> None:
    one, two = history["contents1"], history["contents2"]
    old_snapshots = {k: v for k, v in one["snapshots"].items() if v["user_id"] in TOUCHED}
    assert all(two["snapshots"][k] == v for k, v in old_snapshots.items())
    # old claims keep id, text, values and sources; what may move: the lifecycle (a later
    # claim revises them) and the trajectory (placement uses the user's whole idf: docs/nightly.md)
    moving = {"status", "superseded_by", "trajectory_id"}
    for key, claim in one["claims"].items():
        if claim["user_id"] in TOUCHED:
            now = two["claims"][key]
            assert {c: v for c, v in now.items() if c not in moving} == {
                c: v for c, v in claim.items() if c not in moving
            }
    revisions = [
        c
        for k, c in two["claims"].items()
        if k not in one["claims"] and c["op"] == "REVISE" and c["supersedes"] in one["claims"]
    ]
    assert revisions, "no claim of day 2 revises one of day 1"
    for new in revisions:
        old = two["claims"][new["supersedes"]]
        assert one["claims"][old["claim_id"]]["status"] == "active"
        assert old["status"] == "revised" and old["superseded_by"] == new["claim_id"]
        # one belief: the same attribute, or one slot ("works as" revised by "works at")
        same = slot_of(old["attribute"], old["value"]) or old["attribute"]
        assert (old["subject"], same) == (
            new["subject"],
            slot_of(new["attribute"], new["value"]) or new["attribute"],
        )


def test_a_nightly_with_nothing_new_writes_nothing(history: dict) -> None:
    noop: NightlyReport = history["noop"]
    assert noop.mode == "up to date" and noop.build is None and not noop.written
    assert history["versions_noop"] == history["versions2"]
    assert history["runs_noop"] == history["runs2"]


def test_work_dir_keeps_only_the_last_commits_outputs(history: dict) -> None:
    report: NightlyReport = history["day2"]
    assert report.build is not None
    assert len(history["work2"]) == report.build.shards_built + report.build.shards_skipped
    assert history["markers2"] == [f"{report.build.run_id}.committed"]


def test_dry_run_lists_users_messages_windows_and_writes_nothing(history: dict) -> None:
    dry: NightlyReport = history["dry"]
    assert dry.dry_run and dry.build is None and dry.users == TOUCHED
    assert (dry.new_messages, dry.new_quarantined) == (
        history["day2"].new_messages,
        history["day2"].new_quarantined,
    )
    assert 0 < dry.windows_new <= dry.windows == history["day2"].windows
    assert history["versions_after_dry"] == history["versions1"]
    out = history["dry_cli"]
    assert "nightly: incremental (dry run)" in out and "dry run: nothing written" in out
    assert f"users=3 [{', '.join(TOUCHED)}]" in out
    assert f"new_messages={dry.new_messages}" in out and f"windows_new={dry.windows_new}" in out


def test_an_aborted_run_leaves_the_store_as_it_was_and_the_next_completes_it(history) -> None:
    assert history["versions_aborted"] == history["versions_noop"]
    assert history["day3_user_after_abort"] == history["day3_user_before"]
    done: NightlyReport = history["day3"]
    assert done.mode == "incremental" and done.users == [DAY3_USER]
    assert done.files == [
        {"path": done.files[0]["path"], "kind": "appended", "new_bytes": done.files[0]["new_bytes"],
         "first_line": done.files[0]["first_line"]}
    ]  # fmt: skip
    assert done.files[0]["first_line"] > 1
    assert done.build is not None and done.build.committed
    assert done.build.shards_built == 0 and done.build.shards_skipped == 1  # the abort's output
    assert history["day3_user_after"] == history["day3_user_before"] + history["day3_new"]


def test_after_a_rollback_nightly_goes_on_from_the_restored_runs_watermark(history) -> None:
    assert history["after_rollback"] == history["day3_user_before"]
    runs = LanceStore(history["store"]).table("runs").to_arrow().to_pylist()
    by_id = {r["run_id"]: r for r in runs}
    rollback = next(r for r in runs if r["input"].startswith("rollback to"))
    assert rollback["watermark"] == by_id[history["day2"].build.run_id]["watermark"]
    redo: NightlyReport = history["redo"]
    assert redo.mode == "incremental" and redo.users == [DAY3_USER]
    assert [f["kind"] for f in redo.files] == ["appended"]
    assert history["redo_user_after"] == history["day3_user_after"]


def test_a_config_change_that_alters_output_forces_a_full_build(history: dict) -> None:
    changed = load_config(overrides=["ray.num_shards=3", "window.max_turns=3"])
    report = run_nightly(str(history["archive"]), str(history["store"]),
                         changed, dry_run=True)  # fmt: skip
    assert report.mode == "full" and "config changed" in report.reason
    assert report.build is None and len(report.users) == 6
    placement_only = load_config(overrides=["ray.num_shards=3", "build.read_batch_rows=7"])
    same = run_nightly(str(history["archive"]), str(history["store"]),
                       placement_only, dry_run=True)  # fmt: skip
    assert same.mode == "up to date"
