"""What a page is matched by: its words, without the page's machinery.

A page's Markdown carries citations (`[D1:3]`), link targets (`(topic-x.md)`), trajectory
ids, section headings every page shares and "none recorded" placeholders. Searched as they
are, they blur a page's vector toward every other page's (one static vector averages all
its words) and add terms no question holds. Both the stored page vector and the page's
full-text search use this text, so routing matches what the page is about.
"""

from __future__ import annotations

import re

from arborwiki.core.wiki.writer import CITATION, INDEX_TITLE, NOTHING

_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]+\)")  # [Title](file.md) → Title
_TRAJECTORY_ID = re.compile(r"\btraj_[0-9a-f]+\b")
_MARKUP = re.compile(r"^\s*(?:[-*]\s+|#+\s+)")
_DASHES = frozenset({"—", "→"})  # the template's separators


def page_search_text(title: str, markdown: str) -> str:
    """The title, then each content line with citations, link targets, trajectory ids,
    headings and placeholders removed (one line per kept line)."""
    lines = [title]
    for raw in markdown.splitlines():
        if raw.startswith("#") or raw.strip() in (NOTHING, ""):
            continue
        line = _LINK.sub(lambda m: m.group(1), raw)
        line = _TRAJECTORY_ID.sub(" ", CITATION.sub(" ", line))
        line = " ".join(w for w in _MARKUP.sub("", line).split() if w not in _DASHES)
        if line and line != INDEX_TITLE:
            lines.append(line)
    return "\n".join(lines)
