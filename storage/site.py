"""Reads what the HTML viewer renders for one user, and keeps rendered sites for /ui.

Reads go through `LanceMemoryReader` (user-scoped, every literal quoted): the user id is
data for a WHERE clause, never part of a file path. Rendering itself is `core.viewer`.
"""

from __future__ import annotations

from collections import OrderedDict

from arborwiki.core.viewer import SiteInputs, ViewerOptions, render_site
from arborwiki.storage.reader import LanceMemoryReader

SITE_TABLES = ("wiki_pages", "snapshots", "forest_nodes", "trajectories", "claims", "messages")
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}


def read_site_inputs(reader: LanceMemoryReader, user_id: str) -> SiteInputs:
    """Everything one user's site shows; empty lists for a user the store does not know."""
    has = reader.store.has
    return SiteInputs(
        user_id=user_id,
        pages=reader.pages(user_id) if has("wiki_pages") else [],
        snapshots=reader.all_snapshots(user_id) if has("snapshots") else [],
        nodes=reader.nodes(user_id) if has("forest_nodes") else [],
        trajectories=reader.all_trajectories(user_id) if has("trajectories") else [],
        claims=reader.all_claims(user_id) if has("claims") else [],
        messages=[r.message for r in reader.all_messages(user_id)] if has("messages") else [],
    )


def content_type(path: str) -> str:
    return next((t for ext, t in CONTENT_TYPES.items() if path.endswith(ext)), "text/plain")


SITES_KEPT = 4
"""Rendered user sites the HTTP /ui route keeps in memory (a site is a few MB of HTML)."""


class SiteCache:
    """Rendered sites of the last few users, re-rendered when a table has a new version.

    A page is looked up by its exact relative path in the rendered dict: nothing a caller
    sends ever reaches the filesystem."""

    def __init__(self, reader: LanceMemoryReader, cfg: ViewerOptions | None = None) -> None:
        self.reader = reader
        self.cfg = cfg or ViewerOptions()
        self._sites: OrderedDict[str, tuple[tuple[int, ...], dict[str, str]]] = OrderedDict()

    def site(self, user_id: str) -> dict[str, str]:
        versions = tuple(self.reader.version(t) for t in SITE_TABLES)
        cached = self._sites.get(user_id)
        if cached is None or cached[0] != versions:
            files = render_site(read_site_inputs(self.reader, user_id), self.cfg)
            if not files:  # an unknown user: nothing to keep (random ids can't evict users)
                return files
            cached = (versions, files)
        self._sites[user_id] = cached
        self._sites.move_to_end(user_id)
        while len(self._sites) > SITES_KEPT:
            self._sites.popitem(last=False)
        return cached[1]

    def page(self, user_id: str, path: str) -> tuple[str, str] | None:
        """(content type, text) of one page, or None: unknown user or no such page."""
        text = self.site(user_id).get(path or "index.html")
        return None if text is None else (content_type(path or "index.html"), text)
