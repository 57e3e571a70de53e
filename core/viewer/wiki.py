"""Wiki pages: the stored Markdown rendered to HTML, links to `.md` files pointed at the
exported `.html` pages, `[message id]` citations and trajectory ids made into links.

markdown-it-py (CommonMark) with raw HTML off: page text comes from conversations, so
a message saying `<script>` stays text.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from arborwiki.core.records import WikiPage
from arborwiki.core.viewer.names import safe_name
from arborwiki.core.wiki.naming import page_filename

_CITATION = r"\[(?P<cite>[^\]\[\s]+)\](?!\()"  # [D1:3], not [Title](file.md)
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~\"'&:;,=/?@$%^])")


def wiki_file(page: WikiPage) -> str:
    """`wiki/<the export-wiki file name>.html`: both exports agree on names."""
    return "wiki/" + page_filename(page).removesuffix(".md") + ".html"


def _md_links_to_html(state: StateCore) -> None:
    for token in state.tokens:
        for child in token.children or []:
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str) and href.endswith(".md") and ":" not in href:
                child.attrSet("href", href.removesuffix(".md") + ".html")


def markdown_renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False})
    md.core.ruler.push("md_links_to_html", _md_links_to_html)
    return md


def escape_md(text: str) -> str:
    """Backslash every ASCII punctuation mark: the text shows as written, never as markup."""
    return _PUNCTUATION.sub(r"\\\1", text)


class WikiLinker:
    """Adds links for known message ids (to the snapshot holding them) and for the trajectory
    ids that lead the "Linked trajectories" lines."""

    def __init__(self, snapshot_of_message: dict[str, str], trajectory_ids: list[str]) -> None:
        self.snapshot_of_message = snapshot_of_message
        self.trajectory_ids = set(trajectory_ids)
        ids = sorted(self.trajectory_ids, key=lambda t: (-len(t), t))
        traj = "|".join(re.escape(t) for t in ids) or r"(?!)"
        # a trajectory id leads a list item ("- traj_… — title (dates)"): only there is it one
        self.pattern = re.compile(f"{_CITATION}|(?m:^(?P<lead>[ \\t]*- )(?P<traj>{traj})(?= ))")

    def link(self, markdown: str) -> str:
        return self.pattern.sub(self._replace, markdown)

    def _replace(self, match: re.Match[str]) -> str:
        cite, traj = match.group("cite"), match.group("traj")
        if cite is not None:
            snap = self.snapshot_of_message.get(cite)
            if snap is None:
                return match.group(0)
            href = f"../snapshots/{safe_name(snap)}.html#m-{safe_name(cite)}"
            return f"[\\[{escape_md(cite)}\\]]({href})"
        link = f"[{escape_md(traj)}](../trajectories/{safe_name(traj)}.html)"
        return match.group("lead") + link


def render_wiki_html(page: WikiPage, md: MarkdownIt, linker: WikiLinker) -> str:
    """The page body as HTML (the `# Title` line is the page's own heading)."""
    return md.render(linker.link(page.markdown))
