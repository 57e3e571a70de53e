"""One shard's work: read its messages, run the per-user pipeline, stage the rows.

Plain Python (no Ray here), so the same function runs in-process in tests and as a
Ray task in `cluster.build`. Outputs go to `out_dir/<table>.parquet`; the completion
marker `_SUCCESS` is written last, so a crashed task leaves no marker and is redone.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from arborwiki.backends.extractors import build_extractor
from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.schema import table_to_messages
from arborwiki.storage.tables import USER_TABLES, memory_tables

SUCCESS = "_SUCCESS"


def shard_done(out_dir: Path) -> dict[str, int] | None:
    """The counts a finished shard recorded, or None when it has not finished."""
    marker = out_dir / SUCCESS
    return json.loads(marker.read_text()) if marker.exists() else None


def build_shard(files: list[str], out_dir: str, cfg: Config) -> dict[str, int]:
    """Build every user in the shard's files; return counts (also written to the marker)."""
    out = Path(out_dir)
    if (done := shard_done(out)) is not None:
        return done
    out.mkdir(parents=True, exist_ok=True)
    messages = table_to_messages(pads.dataset(files, format="parquet").to_table())
    by_user = defaultdict(list)
    for m in messages:
        by_user[m.user_id].append(m)
    embedder = load_embedder(cfg.embed.model_path, cfg.embed.batch_size)
    extractor = build_extractor(cfg.extract)
    staged: dict[str, list[pa.Table]] = defaultdict(list)
    counts: Counter[str] = Counter()
    for user_id in sorted(by_user):
        memory = build_user_memory(by_user[user_id], cfg, extractor, embedder)
        for name, table in memory_tables(memory, embedder.dim).items():
            staged[name].append(table)
            counts[name] += table.num_rows
        counts["users"] += 1
        for snapshot in memory.snapshots:
            counts[f"extractor:{snapshot.extractor}"] += 1
        for page in memory.pages:
            counts[f"pages:{page.kind}"] += 1
            counts["pages:shards"] += page.parent_page_id is not None
    for name in USER_TABLES:
        if staged[name]:
            pq.write_table(pa.concat_tables(staged[name]), out / f"{name}.parquet")
    result = dict(counts)
    (out / SUCCESS).write_text(json.dumps(result, sort_keys=True))
    return result
