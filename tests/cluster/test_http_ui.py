"""`/ui/USER/`: the HTML viewer through the real Serve HTTP server, user-scoped like the API.

Reuses test_http's module fixtures (sample archive built into a tmp store, query actors,
Serve on a free port); they are set up again for this module."""

from __future__ import annotations

import http.client
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arborwiki.jobs.export_html import export_html
from tests.cluster.test_http import base_url, built, cfg, own_ids  # noqa: F401 — fixtures


def get(base: str, path: str) -> tuple[int, str, str, str]:
    """(status, content type, Location, body) for a raw path: no client-side normalising."""
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
    try:
        conn.request("GET", path)
        reply = conn.getresponse()
        body = reply.read().decode("utf-8", "replace")
        kind = reply.getheader("Content-Type", "")
        return reply.status, kind, reply.getheader("Location", ""), body
    finally:
        conn.close()


def test_ui_serves_the_exported_site_file_for_file(
    base_url: str,  # noqa: F811
    built: tuple,  # noqa: F811
    tmp_path: Path,
) -> None:
    _, store = built
    count = export_html(str(store), "alice", str(tmp_path))
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    assert count == len(files) > 10
    for path in files:
        name = path.relative_to(tmp_path).as_posix()
        status, kind, _, body = get(base_url, f"/ui/alice/{name}")
        assert status == 200, name
        assert kind.startswith("text/css" if name.endswith(".css") else "text/html"), name
        assert body == path.read_text(encoding="utf-8"), name
    status, _, _, home = get(base_url, "/ui/alice/")
    assert status == 200 and "Memory of alice" in home
    status, _, location, _ = get(base_url, "/ui/alice")
    assert status in (307, 308) and location.endswith("/ui/alice/")


def test_ui_pages_hold_only_the_users_messages(base_url: str, built: tuple) -> None:  # noqa: F811
    _, store = built
    alice, bob = own_ids(store, "alice"), own_ids(store, "bob")
    status, _, _, page = get(base_url, "/ui/alice/search.html")
    assert status == 200
    snapshots = set(re.findall(r"snapshots/([\w-]+)\.html", page))
    shown: set[str] = set()
    for sid in sorted(snapshots):
        status, _, _, text = get(base_url, f"/ui/alice/snapshots/{sid}.html")
        assert status == 200
        shown |= set(re.findall(r'data-message-id="([^"]+)"', text))
    assert shown and shown <= alice and not shown & bob


@pytest.mark.parametrize(
    "path",
    [
        "/ui/..%2F..%2Fetc%2Fpasswd/index.html",
        "/ui/alice/../bob/index.html",
        "/ui/alice/%2e%2e/bob/index.html",
        "/ui/alice/..%2Fbob%2Findex.html",
        "/ui/alice//etc/passwd",
        "/ui/alice/%2Fetc%2Fpasswd",
        "/ui/alice'%20OR%20'1'%3D'1/index.html",
        "/ui/alice%27%20OR%20user_id%20IS%20NOT%20NULL%20--/index.html",
        "/ui/%2A/index.html",
        "/ui/nobody/index.html",
        "/ui/alice/index.md",
    ],
)
def test_hostile_ids_and_paths_reach_nothing(base_url: str, path: str) -> None:  # noqa: F811
    status, kind, _, body = get(base_url, path)
    assert status == 404, (path, status, body[:200])
    assert kind.startswith("application/json")
    assert "Memory of" not in body and "root:" not in body and "Traceback" not in body
