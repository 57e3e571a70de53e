"""Where a build keeps its own outputs under the store (`cluster/build.py` writes them,
`cluster/forget.py` removes a forgotten user's)."""

from __future__ import annotations

WORK = "_work"
SHARDS = "shards"
"""`WORK/SHARDS/<config hash>-<digest>/`: a shard's Parquet outputs and its `_SUCCESS`."""
