"""The build's last stage: a run's staged rows committed to the Lance store in one go.

`CommitStage` takes a `StagedCommit` (each table's staged Parquet files from the compile
stage, the users they replace, the quarantine to replace or add to) and returns the
commit's wall seconds by part. The build runs it as one Ray task, not on the driver:
appending the rows and building the indexes take memory that grows with the tables
(measured on the driver, when it still built a full-text index too: 323 MB through a 300K
build, 800 MB during its commit), and the driver should hold counts and file lists only.
"""

from __future__ import annotations

from dataclasses import dataclass

from arborwiki.cluster.stage_shape import CpuStage, run_once
from arborwiki.core.config import Config
from arborwiki.storage import tombstones
from arborwiki.storage.lance_store import LanceStore


class TombstonesChanged(RuntimeError):
    """A forget (or its undo) changed the store's tombstones after this run read its input:
    the run commits nothing and reads again (`COMMIT_TRIES`)."""


@dataclass(frozen=True)
class StagedCommit:
    """What one run commits: per table, its staged files; the users whose rows they replace
    (failed users' earlier memory is left as it was); the quarantine of `quarantine_sources`
    replaced by the staged rows (a full build) or added to (a nightly run); the key of the
    tombstones the run read its input under (None: not checked)."""

    staged: dict[str, list[str]]
    users: list[str]
    dim: int
    quarantine_sources: list[str]
    replace_quarantine: bool
    read_tombstones: str | None = None


class CommitStage(CpuStage):
    """CPU: a run's staged rows → the store's tables, one new version each. The tombstones
    are read again first: rows read before a forget are never committed after it (the run
    raises `TombstonesChanged` and reads again). Nothing to set up: the store is opened per
    commit, at its latest version."""

    def process_batch(self, commit: StagedCommit) -> dict[str, float]:
        stones = commit.read_tombstones
        if stones is not None and tombstones.load(self.store_dir).key() != stones:
            raise TombstonesChanged("a forget changed the tombstones since this run read its input")
        store = LanceStore(self.store_dir)
        store.commit_run(
            commit.staged,
            commit.users,
            commit.dim,
            quarantine_sources=commit.quarantine_sources,
            replace_quarantine=commit.replace_quarantine,
        )
        return store.commit_seconds


def run_commit(cfg: Config, store_dir: str, commit: StagedCommit) -> dict[str, float]:
    """The commit stage for a run's one batch, as the build's Ray task runs it."""
    return run_once(CommitStage, cfg, store_dir, commit)
