"""`arborwiki export-html` turns bad input into one line and exit code 2."""

from __future__ import annotations

from pathlib import Path

from arborwiki.storage.lance_store import LanceStore
from tests.processes import run_cli


def test_missing_store_and_unknown_user_are_one_line(tmp_path: Path) -> None:
    LanceStore(tmp_path / "empty")  # a store directory with no tables yet
    cases = [
        (tmp_path / "none", "build it first"),
        (tmp_path / "empty", "has no memory"),
    ]
    for store, needle in cases:
        done = run_cli("export-html", "--store", str(store), "--user", "../../etc", "--out",
                    str(tmp_path / "site"))  # fmt: skip
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert lines[0].startswith("error: ") and needle in lines[0]
    assert not (tmp_path / "site").exists()
    bad = run_cli("export-html", "--store", str(tmp_path), "--user", "u", "--out", "x",
               "--page-nodes", "0")  # fmt: skip
    assert bad.returncode == 2 and "page-nodes" in bad.stderr
