"""Forget, round 3 (issue 48), through the CLI as a user runs it: what a forget refuses,
which quarantined lines it takes, and a forget racing a build."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import arborwiki
from arborwiki.cluster import build as build_module
from arborwiki.cluster import forget as forget_module
from arborwiki.jobs.cli import app
from arborwiki.storage import tombstones
from arborwiki.storage.lance_store import LanceStore, sql_str
from tests.jobs.test_cli_format import SAMPLE

run = CliRunner().invoke


def _io(archive: Path, store: Path) -> list[str]:
    return ["--input", str(archive), "--store", str(store), "--json", "--set", "ray.num_shards=1"]


def _built(tmp_path: Path, extra: str = "") -> tuple[Path, Path]:
    archive, store = tmp_path / "a.jsonl", tmp_path / "store"
    shutil.copy(SAMPLE, archive)
    if extra:
        with archive.open("a", encoding="utf-8") as out:
            out.write(extra)
    built = run(app, ["build", *_io(archive, store)])
    assert built.exit_code == 0, built.output
    return archive, store


def _message_ids(store: Path, user: str) -> set[str]:
    now = LanceStore(store, follow_runs=True)
    return {r["message_id"] for r in now.rows("messages", user)}


def _row(user: str, message: str, text: str, turn: int) -> str:
    row = {"user_id": user, "message_id": message, "turn_index": turn, "text": text,
           "timestamp": "2024-09-01T10:00:00Z"}  # fmt: skip
    return json.dumps(row) + "\n"


def test_a_refused_forget_writes_no_tombstone(ray_local: None, tmp_path: Path) -> None:
    archive, store = _built(tmp_path)
    assert "alice-001" in _message_ids(store, "alice")
    forget = ["forget", "--store", str(store), "--user", "alice"]
    refused = run(app, [*forget, "--message", "alice-001", "--message", "alice-098"])
    assert refused.exit_code == 2 and "has no message 'alice-098'" in refused.output
    assert not (store / "tombstones.json").exists()  # nothing recorded, nothing forgotten

    with archive.open("a", encoding="utf-8") as out:
        out.write(_row("alice", "alice-099", "A new message arrived today.", 99))
    nightly = run(app, ["nightly", *_io(archive, store)])
    assert nightly.exit_code == 0, nightly.output
    assert {"alice-001", "alice-099"} <= _message_ids(store, "alice")


def _quarantine(store: Path) -> list[dict]:
    now = LanceStore(store, follow_runs=True)
    return now.table("quarantine").search().limit(None).to_list()


def _files_with(root: Path, needle: str) -> list[str]:
    return [
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and needle.encode() in p.read_bytes()
    ]


def test_forget_of_a_message_takes_its_quarantined_lines_only(
    ray_local: None, tmp_path: Path
) -> None:
    bad = {"timestamp": "not a time"}
    lines = [
        _row("bob", "7", "Message seven.", 70),
        _row("bob", "7", "Message seven, again: a duplicate.", 71),  # quarantined, message 7
        json.dumps(json.loads(_row("bob", "17", "Zqxseventeen", 72)) | bad) + "\n",
        json.dumps(json.loads(_row("bob", "b7x", "Zqxbsevenx", 73)) | bad) + "\n",
    ]
    _, store = _built(tmp_path, "".join(lines))
    before = {r["row"] for r in _quarantine(store)}
    gone = run(app, ["forget", "--store", str(store), "--user", "bob", "--message", "7", "--json"])
    assert gone.exit_code == 0, gone.output
    after = {r["row"] for r in _quarantine(store)}
    assert [r for r in before - after if "duplicate" not in r] == []  # only message 7's line
    assert any("Zqxseventeen" in r for r in after) and any("Zqxbsevenx" in r for r in after)
    assert "7" not in _message_ids(store, "bob")


VICTIM = [
    _row("victim", "v0", "A row that is stored.", 0),
    "{\n",  # one row pretty-printed over six lines: its text on a line of its own
    '  "user_id": "victim",\n  "message_id": "v1",\n',
    '  "text": "Zqxprettymark",\n  "timestamp": "2024-09-01T10:00:00Z"\n}\n',
    '{"user_id": "\\u0076ictim", "message_id": "v2", "text": "Zqxescapedmark", "timest\n',
    '{"user_id": "victim", "message_id": "v3", "text": "Zqxtruncatedmark\n',
]
MARKS = ("Zqxprettymark", "Zqxescapedmark", "Zqxtruncatedmark")


def test_a_forgotten_users_quarantined_lines_go_and_stay_gone(
    ray_local: None, tmp_path: Path
) -> None:
    archive, store = _built(tmp_path, "".join(VICTIM))
    assert all(_files_with(store, mark) for mark in MARKS)
    gone = run(app, ["forget", "--store", str(store), "--user", "victim", "--json"])
    assert gone.exit_code == 0, gone.output
    assert {m: _files_with(store, m) for m in MARKS} == dict.fromkeys(MARKS, [])
    again = run(app, ["build", *_io(archive, store)])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output.strip().splitlines()[-1])["forgotten"] == 4  # v0 + 3 lines
    assert {m: _files_with(store, m) for m in MARKS} == dict.fromkeys(MARKS, [])
    assert not any("victim" in (r["row"] or "") for r in _quarantine(store))


def _count(store: Path, user: str) -> int:
    return LanceStore(store, follow_runs=True).count("messages", f"user_id = {sql_str(user)}")


def _last(output: str) -> dict:
    return json.loads(output.strip().splitlines()[-1])


@pytest.mark.parametrize("step", ["_build_shards", "_commit"])  # compiling; about to commit
def test_a_forget_while_a_build_compiles_is_not_undone(
    ray_local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    archive, store = _built(tmp_path)
    with archive.open("a", encoding="utf-8") as out:  # the next build has alice to commit
        out.write(_row("alice", "alice-new", "Zqxracemark arrived.", 99))
    original = getattr(build_module, step)
    forgets: list[subprocess.Popen[str]] = []
    command = [sys.executable, "-m", "arborwiki.jobs.cli", "forget", "--store", str(store)]

    def forget_then_go_on(*args: object, **kwargs: object) -> object:
        if not forgets:  # the build has read alice's rows: she is forgotten now
            forgets.append(subprocess.Popen([*command, "--user", "alice"], text=True))
            if step == "_build_shards":
                forgets[0].wait(timeout=120)
            # about to commit, the build holds the store's writer lock: the forget waits
            # for the commit and its run row, then deletes what the commit wrote
        return original(*args, **kwargs)

    monkeypatch.setattr(build_module, step, forget_then_go_on)
    built = run(app, ["build", *_io(archive, store)])
    assert built.exit_code == 0, built.output
    assert forgets[0].wait(timeout=120) == 0
    assert _count(store, "alice") == 0 and _files_with(store, "Zqxracemark") == []
    assert _count(store, "bob") > 0  # the others' rows are committed
    monkeypatch.undo()

    nightly = run(app, ["nightly", *_io(archive, store)])
    assert nightly.exit_code == 0 and _last(nightly.output)["mode"] == "up to date"
    again = run(app, ["build", *_io(archive, store)])
    assert again.exit_code == 0, again.output
    assert _count(store, "alice") == 0 and _count(store, "bob") > 0


def test_a_nightly_forgets_again_what_a_cut_short_forget_left(
    ray_local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, store = _built(tmp_path)
    with monkeypatch.context() as patch:  # killed right after writing its tombstone
        patch.setattr(forget_module, "user_rows", _killed)
        cut = run(app, ["forget", "--store", str(store), "--user", "bob"])
    assert cut.exit_code != 0 and _count(store, "bob") > 0
    nightly = run(app, ["nightly", *_io(archive, store)])
    assert nightly.exit_code == 0, nightly.output
    report = _last(nightly.output)
    assert report["mode"] == "up to date" and report["forgotten_again"] == ["bob"]
    assert _count(store, "bob") == 0 and _count(store, "alice") > 0


def _killed(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt("killed")


def _latest_run(store: Path) -> str:
    return LanceStore(store).runs()[-1]["run_id"]


def _forget_cut_before_purge(store: Path, user: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:  # killed after its deletes, before old versions go
        patch.setattr(forget_module, "purge_old_versions", _killed)
        cut = run(app, ["forget", "--store", str(store), "--user", user])
    assert cut.exit_code != 0 and _count(store, user) == 0


def test_a_rollback_never_brings_back_what_a_tombstone_names(
    ray_local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, store = _built(tmp_path)
    first = _latest_run(store)
    _forget_cut_before_purge(store, "bob", monkeypatch)
    back = run(app, ["rollback", "--store", str(store), "--to", first])
    assert back.exit_code == 0, back.output  # the versions are there: restored, bob not
    assert _count(store, "bob") == 0 and _count(store, "alice") > 0

    with archive.open("a", encoding="utf-8") as out:  # a build that commits: a run to go to
        out.write(_row("alice", "alice-new", "One more message.", 99))
    assert run(app, ["build", *_io(archive, store)]).exit_code == 0
    before = _latest_run(store)
    _forget_cut_before_purge(store, "alice", monkeypatch)
    assert run(app, ["build", *_io(archive, store)]).exit_code == 0
    run(app, ["rollback", "--store", str(store), "--to", before])  # restored or refused
    assert _count(store, "alice") == 0 and _count(store, "bob") == 0
    assert _count(store, "o'connor") > 0


def test_tables_of_a_first_build_killed_in_its_commit_are_not_served(
    ray_local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    with monkeypatch.context() as patch:  # killed after its table writes, before its run row
        patch.setattr(build_module, "_record_run", _killed)
        cut = run(app, ["build", "--input", str(SAMPLE), "--store", str(store)])
    assert cut.exit_code != 0 and (store / "messages.lance").is_dir()
    listed = run(app, ["versions", "--store", str(store)])
    assert listed.exit_code == 2 and "no recorded runs" in listed.output
    question = "What is the name of the new rabbit?"
    asked = run(app, ["query", "--local", "--store", str(store), "--user", "alice", question])
    assert asked.exit_code == 2 and "no committed run" in asked.output, asked.output
    assert "[alice-" not in asked.output
    api = arborwiki.open_store(store, overrides=["ray.num_shards=1"])
    with pytest.raises(KeyError, match="no committed run"):
        api.query("alice", question)


def test_a_forget_touches_nothing_while_another_writer_commits(
    ray_local: None, tmp_path: Path
) -> None:
    """A build's commit holds the writer lock while its tables move past the latest run's
    versions. A forget started then checks and writes its tombstone, then waits for the
    lock: it never restores the tables under the commit (which made the build fail with a
    Lance transaction conflict, or could have reverted tables it had written)."""
    from arborwiki.storage import tombstones
    from arborwiki.storage.online import writer_lock

    _, store = _built(tmp_path)
    lance = LanceStore(store)
    command = [sys.executable, "-m", "arborwiki.jobs.cli", "forget", "--store", str(store)]
    with writer_lock(str(store)):  # the commit in flight: a table written, no run row yet
        table = lance.table("messages")
        table.add(table.search().where("user_id = 'bob'").limit(1).to_arrow())
        written = int(table.version)
        forget = subprocess.Popen([*command, "--user", "alice"], text=True)
        for _ in range(600):  # the tombstone: checked, written, now at the lock
            if "alice" in tombstones.load(str(store)).users or forget.poll() is not None:
                break
            time.sleep(0.1)
        assert forget.poll() is None, "the forget ended while the writer lock was held"
        now = LanceStore(store).table("messages")  # the table as it is on disk now
        assert int(now.version) == written  # nothing restored under us
        assert now.count_rows() == table.count_rows()
    assert forget.wait(timeout=120) == 0
    assert _count(store, "alice") == 0 and _count(store, "bob") > 0


def test_a_rollback_publishes_no_forgotten_row_even_before_its_sweep(
    ray_local: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restored versions hold a forgotten user's rows (a forget cut short kept them) and
    readers follow the rollback's run row at once: the rows must be out of the tables that
    run row names, not only gone after the sweep that ends the rollback. The rollback also
    holds the writer lock while it restores (no commit, add or forget in between)."""
    from arborwiki.cluster import store_admin
    from arborwiki.storage.online import writer_lock

    _, store = _built(tmp_path)
    first = _latest_run(store)
    _forget_cut_before_purge(store, "bob", monkeypatch)
    seen: list[int] = []
    real_sweep = store_admin.sweep

    def sweep_seeing(*args: object, **kwargs: object) -> object:
        seen.append(_count(store, "bob"))  # what a reader following runs sees right now
        return real_sweep(*args, **kwargs)

    monkeypatch.setattr(store_admin, "sweep", sweep_seeing)
    back = run(app, ["rollback", "--store", str(store), "--to", first])
    assert back.exit_code == 0, back.output
    assert seen == [0] and _count(store, "bob") == 0 and _count(store, "alice") > 0
    monkeypatch.undo()

    command = [sys.executable, "-m", "arborwiki.jobs.cli", "rollback", "--store", str(store)]
    runs_before, now = len(LanceStore(store).runs()), _latest_run(store)
    with writer_lock(str(store)):
        waiting = subprocess.Popen([*command, "--to", now], text=True)
        time.sleep(8)  # long enough for a rollback that does not wait to restore and record
        assert waiting.poll() is None and len(LanceStore(store).runs()) == runs_before
    assert waiting.wait(timeout=120) == 0 and len(LanceStore(store).runs()) > runs_before


def test_newly_forgotten_names_the_users_a_later_forget_added_to() -> None:
    before = tombstones.Tombstones(users={"ann": "t"}, messages={"bo": {"m1": "t"}})
    after = tombstones.Tombstones(
        users={"ann": "t", "cy": "t"}, messages={"bo": {"m1": "t", "m2": "t"}, "di": {"m1": "t"}}
    )
    assert tombstones.newly_forgotten(before, after) == {"cy", "bo", "di"}
    assert tombstones.newly_forgotten(after, before) == set()  # an undo forgets nothing more
    assert tombstones.newly_forgotten(after, after) == set()
