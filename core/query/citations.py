"""The messages the compiled memory cites for a question's words: on the lines of the routed
wiki pages, or in the claims of the selected threads."""

from __future__ import annotations

from functools import lru_cache

from arborwiki.core.query.reader import Hit
from arborwiki.core.records import Claim, WikiPage
from arborwiki.core.wiki.writer import CITATION
from arborwiki.core.words import lemma_stems, singular_forms, verb_form_lemma

CITED_PAGES_CACHED = 8192  # pages whose cited lines are kept (a page is ~1-3 KB of text)


@lru_cache(maxsize=CITED_PAGES_CACHED)
def cited_lines(markdown: str) -> tuple[tuple[int, tuple[str, ...], frozenset[str]], ...]:
    """(line number, cited ids, stems of the rest) of each line of a page that cites: read
    once per page text, not once per question (a routed page comes back question after
    question)."""
    out = []
    for n, line in enumerate(markdown.splitlines()):
        ids = CITATION.findall(line)
        if ids:
            out.append((n, tuple(ids), frozenset(singular_forms(CITATION.sub(" ", line)))))
    return tuple(out)


def page_citations(pages: list[Hit[WikiPage]], words: set[str], limit: int) -> list[str]:
    """Message ids cited by the routed pages' lines that share words with the question: most
    shared words first, then page rank, then line order (a page lists its best facts first)."""
    lines = []
    for p in pages:
        for n, ids, line_stems in cited_lines(p.record.markdown):
            shared = len(words & line_stems)
            if shared:
                lines.append((-shared, p.rank, n, ids))
    ordered = (m for *_, ids in sorted(lines, key=lambda x: x[:3]) for m in ids)
    return list(dict.fromkeys(ordered))[:limit]


def claim_citations(claims: list[Claim], words: set[str], limit: int) -> list[str]:
    """Message ids cited by the active claims that share words with the question (a verb's
    form read as the verb, as fact lines do): most shared words first, then newest. A claim
    is a few words of what its message said, so a word it shares weighs more than the same
    word among the message's forty: LoCoMo conv-43's "Which city in Ireland will Tim be
    staying in?" finds "I'm gonna stay in Galway, it's great for its arts and Irish music…"
    through the claim "Tim is going to stay in Galway"."""
    lemmas = {verb_form_lemma(w) for w in words}
    scored = []
    for c in claims:
        if c.status != "active":
            continue
        shared = len(lemmas & lemma_stems(f"{c.attribute} {c.value}"))
        if shared:
            scored.append((-shared, -c.recorded_at.timestamp(), c.claim_id, c))
    ordered = (m for *_, c in sorted(scored) for m in c.source_message_ids)
    return list(dict.fromkeys(ordered))[:limit]
