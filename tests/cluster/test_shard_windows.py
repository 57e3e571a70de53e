"""Windows are cut and keyed once per shard (issue 47): WindowsStage persists them beside
the shard's output, and CompileStage reads them back instead of cutting again."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as pads
import pyarrow.parquet as pq

from arborwiki.cluster.sharding import partition_archive
from arborwiki.cluster.stages import (
    WINDOWS_FILE,
    CompileStage,
    ShardJob,
    WindowsStage,
    read_shard,
    shard_windows,
    write_windows,
)
from arborwiki.core.config import load_config
from arborwiki.core.pipeline import UserWindows, user_windows, window_digest
from arborwiki.core.records import Window
from tests.conftest import EXAMPLES


def _job(tmp_path: Path) -> ShardJob:
    part = partition_archive(str(EXAMPLES / "sample_archive.jsonl"), tmp_path / "p", 2)
    shard = max(part.files, key=lambda s: len(part.users[s]))
    return ShardJob(shard, [str(f) for f in part.files[shard]], part.sources, str(tmp_path / "out"))


def test_the_windows_stage_persists_what_compile_reads_back(tmp_path: Path) -> None:
    cfg = load_config(overrides=["extract.cache_rules=true"])  # the staged path
    job = _job(tmp_path)
    stage = WindowsStage(cfg, str(tmp_path / "store"))
    stage.setup()
    found = stage.process_batch(job)
    assert pq.read_table(Path(job.out_dir) / WINDOWS_FILE).num_rows == found.windows > 0
    by_user, _ = read_shard(job)
    read_back = shard_windows(job, by_user, cfg)
    assert read_back.keys() == by_user.keys()
    for user_id, messages in by_user.items():
        cut = user_windows(messages, cfg)
        got = read_back[user_id]
        assert got.windows == cut.windows and got.places == cut.places
        assert got.messages == cut.messages
        assert got.keys == cut.keys == [window_digest(w) for w in got.windows]


def test_compile_follows_the_persisted_windows_not_a_cut_of_its_own(tmp_path: Path) -> None:
    """Persist another valid cut (every message its own window): the compiled snapshots
    follow it, one per message, where compile's own cut would group turns."""
    cfg = load_config()
    job = _job(tmp_path)
    by_user, _ = read_shard(job)
    singles = {}
    for user_id, messages in by_user.items():
        uw = user_windows(messages, cfg)
        assert len(uw.windows) < len(uw.messages)  # the real cut groups turns
        windows = [
            Window(user_id=user_id, conversation_id=m.conversation_id, session_id=m.session_id,
                   messages=[m])
            for m in uw.messages
        ]  # fmt: skip
        places = [uw.places[0].model_copy(update={"episode": i}) for i in range(len(windows))]
        singles[user_id] = UserWindows(user_id, uw.messages, windows, places)
    write_windows(job.out_dir, singles)
    stage = CompileStage(cfg, str(tmp_path / "store"))
    stage.setup()
    assert stage.process_batch(job).failures == []
    snapshots = pads.dataset(str(Path(job.out_dir) / "snapshots.parquet")).to_table()
    assert snapshots.num_rows == sum(len(ms) for ms in by_user.values())
