"""Page writers: a deterministic template, and the contract an LLM writer must meet."""

from __future__ import annotations

import re
from typing import Protocol

from arborwiki.core.records import Claim
from arborwiki.core.wiki.content import PageContent, Revision, readable_fact
from arborwiki.core.wiki.text import claim_day, fact_line, fact_text

SECTIONS = (
    "## Core facts",
    "## Counts and quantities",
    "## Linked trajectories",
    "## Contradictions and uncertainty",
)
NOTHING = "- none recorded"
INDEX_TITLE = "Memory index"
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CITATION = re.compile(r"\[([^\]\[\s]+)\](?!\()")  # [D1:3]; not [Title](file.md)


class PageWriter(Protocol):
    """Turns page content into Markdown; an LLM writer slots in here (its output
    is checked, and a page it gets wrong falls back to `TemplateWriter`)."""

    def write(self, page: PageContent) -> str: ...


def cite(ids: list[str] | tuple[str, ...]) -> str:
    return " ".join(f"[{m}]" for m in ids)


def fact_lines(facts: list[Claim]) -> list[str]:
    """One line a fact, as a reader reads it (`fact_line`: a third-person clause with its
    day and sources); the same clause said twice is one line citing both sayings."""
    sources: dict[str, list[str]] = {}
    first: dict[str, Claim] = {}
    for claim in facts:
        if not readable_fact(claim):
            continue
        clause = fact_text(claim).rsplit(" (", 1)[0]
        first.setdefault(clause, claim)
        sources.setdefault(clause, []).extend(claim.source_message_ids)
    return [f"- {fact_line(first[c], sources[c])}" for c in first]


def _revision_line(rev: Revision) -> str:
    old = f"{rev.old.value} ({claim_day(rev.old)})"
    if rev.new is None:
        new = f"{rev.old.status}, no replacement recorded"
    else:
        value = f"not {rev.new.value}" if rev.new.negated else rev.new.value
        new = f"{value} ({claim_day(rev.new)})"
    sources = list(rev.old.source_message_ids) + list(rev.new.source_message_ids if rev.new else [])
    return f"- {rev.old.attribute}: {old} → {new} {cite(sources)}".rstrip()


class TemplateWriter:
    """The deterministic assembly: same content in, same Markdown out."""

    def write(self, page: PageContent) -> str:
        lines = [f"# {page.title}", ""]
        if page.parent is not None:
            whole = f"{page.subpage_index + 1} of {page.subpage_count}"
            lines += [f"Part {whole} of {page.parent.title}, split by trajectory topic.", ""]
        groups: dict[str, list[str]] = {}
        for ref in page.refs:
            groups.setdefault(ref.group, []).append(f"- [{ref.title}]({ref.filename})")
        for group, links in groups.items():
            lines += [f"## {group}", *links, ""]
        if page.kind == "index":
            return "\n".join(lines).rstrip() + "\n"
        facts = fact_lines(page.facts)
        counts = [f"- {c.label}: {c.value} {cite(c.sources)}".rstrip() for c in page.counts]
        counts += [
            f"  - {i.value} ({i.mentions} mention{'s' if i.mentions != 1 else ''}) "
            f"{cite(i.sources)}".rstrip()
            for i in page.inventory
        ]
        linked = [
            f"- {t.trajectory_id} — {t.title} "
            f"({t.first_time.date().isoformat()} → {t.last_time.date().isoformat()})"
            for t in page.trajectories
        ]
        history = [_revision_line(r) for r in page.revisions]
        for heading, body in zip(SECTIONS, (facts, counts, linked, history), strict=True):
            lines += [heading, *(body or [NOTHING]), ""]
        return "\n".join(lines).rstrip() + "\n"


def is_valid(markdown: str, page: PageContent) -> bool:
    """An LLM page must keep the title, sections and every link, link nothing else, and cite
    only this page's evidence."""
    if page.kind != "index" and any(h not in markdown for h in SECTIONS):
        return False
    if not markdown.startswith(f"# {page.title}"):
        return False
    targets = {ref.filename for ref in page.refs}
    if set(_LINK.findall(markdown)) != targets:  # no dead links, no dropped ones
        return False
    allowed = page.known_sources() | {t.trajectory_id for t in page.trajectories}
    return all(c in allowed for c in CITATION.findall(markdown))


def write_page(page: PageContent, writer: PageWriter, fallback: TemplateWriter) -> str:
    """Use the writer's text when it validates, else the template's (never a broken page)."""
    if isinstance(writer, TemplateWriter):
        return writer.write(page)
    try:
        text = writer.write(page)
    except Exception:  # an LLM writer failing on one page must not fail the wiki
        return fallback.write(page)
    return text if is_valid(text, page) else fallback.write(page)
