"""`arborwiki demo`: the README's first command, end to end on the embedded defaults."""

from __future__ import annotations

import json
import time
from pathlib import Path

from arborwiki.cluster.query_actor import start_query_replicas
from arborwiki.cluster.query_client import QueryClient
from arborwiki.core.config import Config
from arborwiki.jobs.build import build
from arborwiki.jobs.render import render_result


def demo(examples: Path, store: str, cfg: Config, budget_tokens: int = 500) -> None:
    """A small budget, so each answer shows the few messages that matter most."""
    started = time.time()
    summary = build(str(examples / "sample_archive.jsonl"), store, cfg)
    client = QueryClient(start_query_replicas(str(Path(store).resolve()), cfg, detached=False))
    questions = json.loads((examples / "questions.json").read_text())
    cited = 0
    for q in questions:
        result = client.query(q["user_id"], q["question"], None, budget_tokens)
        cited += len(result["evidence"])
        print(render_result(result, max_evidence=4))
        print()
    print(
        f"demo: users={summary.users} messages={summary.messages} snapshots={summary.snapshots} "
        f"claims={summary.claims} pages={summary.pages} quarantined={summary.quarantined} "
        f"questions={len(questions)} cited_messages={cited} seconds={time.time() - started:.1f}"
    )
