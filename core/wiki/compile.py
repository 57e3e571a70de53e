"""compile_wiki: a user's snapshots, trajectories and claims → linked Memory Wiki pages.

Pages are planned as content first (entity, topic, inventory, then a topic page for any
trajectory still unlinked), then given ids, unique file names and links, then written and
embedded. Same inputs and seed → same pages, in the same order.
"""

from __future__ import annotations

from arborwiki.core.config import WikiConfig
from arborwiki.core.records import Claim, EvidenceItem, Snapshot, Trajectory, WikiPage
from arborwiki.core.wiki.content import PageContent, PageLink, readable_fact
from arborwiki.core.wiki.context import EmbedFn, WikiInputs
from arborwiki.core.wiki.entities import plan_entity_pages
from arborwiki.core.wiki.inventory import plan_inventory_pages
from arborwiki.core.wiki.naming import (
    STORED_SUBPAGE_WORD,
    filename_for,
    page_filename,
    page_id_for,
)
from arborwiki.core.wiki.search_text import page_search_text
from arborwiki.core.wiki.topics import plan_topic_pages, topic_page
from arborwiki.core.wiki.writer import INDEX_TITLE, PageWriter, TemplateWriter, write_page

INDEX_GROUPS = {"entity": "Entities", "topic": "Topics", "inventory": "Inventories"}
# Link headings of a split page and its subpages, in the stored word (see naming.py).
SUBPAGES_GROUP = f"{STORED_SUBPAGE_WORD.capitalize()}s"
SIBLINGS_GROUP = f"Sibling {STORED_SUBPAGE_WORD}s"


def wiki_coverage(pages: list[WikiPage], trajectories: list[Trajectory]) -> float:
    """Share of trajectories linked from at least one non-index page."""
    wanted = {t.trajectory_id for t in trajectories}
    if not wanted:
        return 1.0
    linked = {tid for p in pages if p.kind != "index" for tid in p.trajectory_ids}
    return len(wanted & linked) / len(wanted)


STRUCTURAL_COUNTS = frozenset({"trajectories", "snapshots", "snapshots naming it"})


def has_content(page: PageContent) -> bool:
    """A fact a reader can read, a revision, a quantity or an inventory item: more than
    the counts of trajectories and snapshots every page has."""
    return bool(
        any(readable_fact(c) for c in page.facts)
        or page.revisions
        or page.inventory
        or any(line.label not in STRUCTURAL_COUNTS for line in page.counts)
    )


def _without_empty(contents: list[PageContent]) -> list[PageContent]:
    """No entity page or part with nothing in it ("rome: none recorded"); a part's
    siblings are renumbered, and a single part left is folded back into its page. An
    empty topic page stays only where it is its threads' one route (`_with_orphans`)."""
    kept = [c for c in contents if c.kind != "entity" or has_content(c)]
    routed = {t for c in kept if c.kind != "topic" or has_content(c) for t in c.trajectory_ids}
    kept = [c for c in kept if has_content(c) or not set(c.trajectory_ids) <= routed]
    parts: dict[int, list[PageContent]] = {}
    for c in kept:
        if c.parent is not None:
            parts.setdefault(id(c.parent), []).append(c)
    alive = {id(c) for c in kept}
    out = []
    for c in kept:
        if c.parent is not None:
            siblings = parts[id(c.parent)]
            if len(siblings) < 2 or id(c.parent) not in alive:
                continue
            c.subpage_index, c.subpage_count = siblings.index(c), len(siblings)
        out.append(c)
    return out


def _with_orphans(contents: list[PageContent], inputs: WikiInputs) -> list[PageContent]:
    """Coverage guarantee: a trajectory no page links gets a topic page of its own."""
    linked = {tid for c in contents for tid in c.trajectory_ids}
    orphans = [t for tid, t in inputs.trajectories.items() if tid not in linked]
    return contents + [topic_page([t], inputs) for t in orphans]


def _make_filenames_unique(contents: list[PageContent]) -> None:
    """Two pages whose slugs collide (same topic title, say) get a numbered title."""
    taken: set[str] = set()
    for c in contents:
        base, n = c.title, 1
        while filename_for(c.kind, c.title, c.subpage_index, c.subpage_count) in taken:
            n += 1
            c.title = f"{base} ({n})"
        taken.add(filename_for(c.kind, c.title, c.subpage_index, c.subpage_count))


def _link(contents: list[PageContent]) -> None:
    """Index → every page; every page → index; parent ↔ subpages; subpage → siblings;
    topic ↔ entity pages sharing a trajectory."""
    index, pages = contents[0], contents[1:]

    def to(c: PageContent, group: str) -> PageLink:
        return PageLink(
            group, c.title, filename_for(c.kind, c.title, c.subpage_index, c.subpage_count)
        )

    index.refs = [
        to(c, INDEX_GROUPS[kind]) for kind in INDEX_GROUPS for c in pages if c.kind == kind
    ]
    subpages_of: dict[int, list[PageContent]] = {}
    for c in pages:
        if c.parent is not None:
            subpages_of.setdefault(id(c.parent), []).append(c)
    related = _related_topics_and_entities(pages, subpages_of)
    for c in pages:
        c.refs = [to(index, "Index")]
        c.refs += [to(s, SUBPAGES_GROUP) for s in subpages_of.get(id(c), [])]
        if c.parent is not None:
            c.refs.append(to(c.parent, "Parent"))
            c.refs += [to(s, SIBLINGS_GROUP) for s in subpages_of[id(c.parent)] if s is not c]
        c.refs += [to(r, "Related") for r in related.get(id(c), [])]


def _related_topics_and_entities(
    pages: list[PageContent], subpages_of: dict[int, list[PageContent]]
) -> dict[int, list[PageContent]]:
    """Topic ↔ entity pages sharing a trajectory; a split entity is reached through its subpages,
    so no parent page lists hundreds of topics."""
    entity_leaves = [c for c in pages if c.kind == "entity" and id(c) not in subpages_of]
    topics = [c for c in pages if c.kind == "topic"]
    topics_of: dict[str, list[int]] = {}
    for i, topic in enumerate(topics):
        for tid in topic.trajectory_ids:
            topics_of.setdefault(tid, []).append(i)
    related: dict[int, list[PageContent]] = {}
    for entity in entity_leaves:
        hits = sorted({i for tid in entity.trajectory_ids for i in topics_of.get(tid, [])})
        for i in hits:
            related.setdefault(id(entity), []).append(topics[i])
            related.setdefault(id(topics[i]), []).append(entity)
    return related


def compile_wiki(
    user_id: str,
    snapshots: list[Snapshot],
    trajectories: list[Trajectory],
    claims: list[Claim],
    evidence: list[EvidenceItem],
    cfg: WikiConfig,
    embed: EmbedFn,
    *,
    writer: PageWriter | None = None,
    members: dict[str, list[str]] | None = None,
) -> list[WikiPage]:
    """The index first, then entity pages (each parent followed by its subpages), topics,
    inventories. `writer` may be an LLM writer; pages it gets wrong fall back to the template.
    With `members` (thread id → its visits, core/forest/threads.py) `trajectories` are
    threads, and a page stores the visits of the threads it links."""
    inputs = WikiInputs.build(
        [s for s in snapshots if s.user_id == user_id],
        [t for t in trajectories if t.user_id == user_id],
        [c for c in claims if c.user_id == user_id],
        [e for e in evidence if e.user_id == user_id],
    )
    planned = (
        plan_entity_pages(inputs, cfg, embed)
        + plan_topic_pages(inputs, cfg)
        + plan_inventory_pages(inputs, cfg)
    )
    contents = [
        PageContent("index", INDEX_TITLE),
        *_with_orphans(_without_empty(planned), inputs),
    ]
    _make_filenames_unique(contents)
    _link(contents)
    template = TemplateWriter()
    ids = {id(c): page_id_for(user_id, c.kind, c.title, c.subpage_index) for c in contents}
    pages = []
    for c in contents:
        page = WikiPage(
            page_id=ids[id(c)],
            user_id=user_id,
            kind=c.kind,
            title=c.title,
            markdown=write_page(c, writer or template, template),
            trajectory_ids=_visits(c.trajectory_ids, members),
            links=[],
            items=c.items,
            parent_page_id=ids[id(c.parent)] if c.parent is not None else None,
            part_index=c.subpage_index,
            part_count=c.subpage_count,
        )
        pages.append(page)
    id_of_file = {page_filename(p): p.page_id for p in pages}
    for c, page in zip(contents, pages, strict=True):
        page.links = [id_of_file[r.filename] for r in c.refs]
    vectors = embed([page_search_text(p.title, p.markdown) for p in pages])
    for page, row in zip(pages, vectors, strict=True):
        page.vector = [float(x) for x in row]
    return pages


def _visits(thread_ids: list[str], members: dict[str, list[str]] | None) -> list[str]:
    if members is None:
        return thread_ids
    return list(dict.fromkeys(v for t in thread_ids for v in members.get(t, [t])))
