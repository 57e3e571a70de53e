"""The search index: page titles, trajectory titles and claims, as compact JSON that the
search page embeds inline (no server, no fetch: it works from disk)."""

from __future__ import annotations

import json

from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.core.viewer.names import safe_name
from arborwiki.core.viewer.wiki import wiki_file

SEARCH_CLAIM_CHARS = 200  # claim text characters kept in the inline search index
SEARCH_RESULTS = 60  # search hits shown at most


def search_entries(inputs: SiteInputs) -> list[list[str]]:
    """[kind, label, url, detail] rows; urls are relative to the site root."""
    rows: list[list[str]] = []
    for page in inputs.pages:
        rows.append(["page", page.title, wiki_file(page), page.kind])
    for t in inputs.trajectories:
        rows.append(["trajectory", t.title, f"trajectories/{safe_name(t.trajectory_id)}.html", ""])
    for c in sorted(inputs.claims, key=lambda c: (c.recorded_at, c.claim_id)):
        text = c.text[:SEARCH_CLAIM_CHARS]
        url = f"snapshots/{safe_name(c.snapshot_id)}.html#c-{safe_name(c.claim_id)}"
        rows.append(["claim", text, url, f"{c.op} {c.status} {c.subject} / {c.attribute}"])
    return rows


def inline_json(data: object) -> str:
    """JSON safe inside <script>: no `</script>`, no `<!--`, no HTML at all."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
