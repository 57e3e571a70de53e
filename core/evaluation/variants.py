"""The retrieval variants compared at equal budgets with one token rule.

Each variant turns a question into one Context per budget. `arborwiki` is the real query
path (route → select → expand, claims included in its tokens); the others are the
ablations and flat baselines (their figures: benchmarks/results/locomo_dev.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from arborwiki.core.evaluation.answers import context_terms
from arborwiki.core.evaluation.gold import QA
from arborwiki.core.evaluation.metrics import Context, Item, admit, fill
from arborwiki.core.query.reader import MessageRef, SearchMode
from arborwiki.core.query.selection import (
    Candidate,
    ScoredCandidate,
    Targets,
    select_trajectories,
)
from arborwiki.core.query.service import QueryService, Route
from arborwiki.core.tokens import TOKEN_RULE, count_tokens

VARIANTS = (
    "arborwiki",
    "no_wiki",
    "with_pages",
    "wiki_only",
    "latest_snapshot",
    "flat_bm25",
    "flat_dense",
    "flat_hybrid",
    "full_context",
)


class _CoverageTerms(QueryService):
    """The design's coverage-aware greedy S(T) instead of the top k by s_rank."""

    def _select(
        self, candidates: list[Candidate], targets: Targets, k: int
    ) -> list[ScoredCandidate]:
        return select_trajectories(candidates, targets, k, self.cfg.query)


class _NoExpansion(QueryService):
    """No hit brings its reply or the other turns of its thread."""

    def expanded_trajectories(self, route: Route) -> list[str]:
        return []


class _NoClaimCitations(QueryService):
    """The messages the selected threads' claims cite for the question's words, not fused."""

    def _claim_cited(self, *args: object) -> list[MessageRef]:
        return []


# Ablations: arborwiki on the same store with one part changed — a setting, or (parts that
# have no setting) the query service with that part taken out. `no_wiki` (no page routing)
# and `with_pages` (page routing, off by default since issue 34) are variants above.
ABLATIONS: dict[str, dict[str, object] | type[QueryService]] = {
    # The S(T) coverage terms (measured to cost coverage, so not on the query path): what the
    # coverage-aware greedy S(T) adds over the top k by s_rank.
    "coverage_terms": _CoverageTerms,
    "no_expansion": _NoExpansion,
    "no_claims": {"claim_budget_share": 0.0},
    "no_claim_citations": _NoClaimCitations,
}
FLAT_MODES: dict[str, SearchMode] = {
    "flat_bm25": "text",
    "flat_dense": "vector",
    "flat_hybrid": "hybrid",
}
ALL_VARIANTS = (*VARIANTS, *ABLATIONS)
_CITATION = re.compile(r"\[([^\[\]\s]+)\]")
_SPACE = re.compile(r"\s+")


def _flat_text(text: str) -> str:
    """Lowercase, one space: how a message's text is looked for inside a page."""
    return _SPACE.sub(" ", text.lower()).strip()


def quoted_ids(markdown: str, cited: list[str], texts: dict[str, str]) -> tuple[str, ...]:
    """The cited ids whose message text the page quotes in full (covered); the others are
    only pointed at."""
    page = _flat_text(markdown)
    return tuple(m for m in cited if (t := _flat_text(texts.get(m, ""))) and t in page)


Variant = Callable[[QA, list[int]], dict[int, Context]]


@dataclass
class UserIndex:
    """One user's messages: token cost, trajectory and time order, loaded once."""

    refs: dict[str, MessageRef]
    tokens: dict[str, int] = field(default_factory=dict)
    _terms: dict[str, frozenset[str]] = field(default_factory=dict)

    def terms_of(self, message_id: str) -> frozenset[str]:
        """A message's terms as a context shows it: its date, speaker and text."""
        if message_id not in self._terms:
            m = self.refs[message_id].message
            self._terms[message_id] = context_terms(
                f"{m.timestamp:%Y-%m-%d} {m.speaker}: {self.refs[message_id].text}"
            )
        return self._terms[message_id]

    def trajectory_of(self) -> dict[str, str | None]:
        return {mid: r.trajectory_id for mid, r in self.refs.items()}

    def items(self, ids: list[str]) -> list[Item]:
        return [Item(self.tokens[i], (i,)) for i in ids if i in self.tokens]


class Variants:
    def __init__(self, service: QueryService, flat_pool: int = 200) -> None:
        self.service = service
        self.reader = service.reader
        self.flat_pool = flat_pool
        self._users: dict[str, UserIndex] = {}
        self._routes: dict[tuple[str, str, bool], Route] = {}
        self._ablated: dict[str, QueryService] = {}

    def route(self, qa: QA, use_pages: bool = False) -> Route:
        """Routing is shared by the variants that differ only after it (one question at a
        time); `use_pages`: the page route too (off by default, `with_pages`)."""
        key = (qa.user_id, qa.question, use_pages)
        if key not in self._routes:
            if len(self._routes) > 8:
                self._routes.clear()
            self._routes[key] = self.service.route(qa.user_id, qa.question, use_pages=use_pages)
        return self._routes[key]

    def user(self, user_id: str) -> UserIndex:
        if user_id not in self._users:
            refs = {r.message.message_id: r for r in self.reader.all_messages(user_id)}
            tokens = {mid: r.tokens(TOKEN_RULE) for mid, r in refs.items()}
            self._users[user_id] = UserIndex(refs, tokens)
        return self._users[user_id]

    def get(self, name: str) -> Variant:
        if name in FLAT_MODES:
            return lambda qa, budgets: self.flat(qa, budgets, FLAT_MODES[name])
        if name in ABLATIONS:
            return lambda qa, budgets: self.ablated(qa, budgets, name)
        if name not in VARIANTS:
            raise ValueError(f"unknown variant {name!r}; known: {', '.join(ALL_VARIANTS)}")
        return getattr(self, name)

    def ablated(self, qa: QA, budgets: list[int], name: str) -> dict[int, Context]:
        """arborwiki on the same store with one part switched off (see ABLATIONS)."""
        if name not in self._ablated:
            cfg, part = self.service.cfg.model_copy(deep=True), ABLATIONS[name]
            service_cls = part if isinstance(part, type) else QueryService
            for key, value in part.items() if isinstance(part, dict) else ():
                setattr(cfg.query, key, value)
            self._ablated[name] = service_cls(self.reader, self.service.embedder, cfg)
        service = self._ablated[name]
        return self.answered(service.route(qa.user_id, qa.question), budgets, service)

    # -------------------------------------------------------------- structured
    def answered(
        self, route: Route, budgets: list[int], service: QueryService | None = None
    ) -> dict[int, Context]:
        out = {}
        for b in budgets:
            result = (service or self.service).evidence(route, b)
            out[b] = Context(
                frozenset(result.cited_ids()),
                result.context_tokens,
                route.candidate_count,
                tuple(route.selected_ids),
                cited=frozenset(
                    m
                    for c in result.claims
                    for m in (*c.source_message_ids, *c.replaced_by_message_ids)
                ),
                lines=tuple(c.labelled() for c in result.claims),
            )
        return out

    def arborwiki(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        return self.answered(self.route(qa), budgets)

    def no_wiki(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        return self.answered(self.route(qa, use_pages=False), budgets)

    def with_pages(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        return self.answered(self.route(qa, use_pages=True), budgets)

    def latest_snapshot(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        """Only the latest snapshot of each selected trajectory, in selection order."""
        route = self.route(qa)
        by_id = {t.trajectory_id: t for t in route.trajectories}
        latest = [by_id[t].snapshot_ids[-1] for t in route.selected_ids if by_id[t].snapshot_ids]
        snapshots = {s.snapshot_id: s for s in self.reader.snapshots(qa.user_id, latest)}
        ids = [m for sid in latest if sid in snapshots for m in snapshots[sid].message_ids]
        items = self.user(qa.user_id).items(ids)
        return self._filled(items, budgets, route.candidate_count, tuple(route.selected_ids))

    def wiki_only(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        """The routed pages alone: a gold message counts when a page quotes its text; the
        ids pages only cite are reported as cited, not present."""
        route = self.route(qa, use_pages=True)
        known = self.user(qa.user_id).refs
        texts = {m: r.message.text for m, r in known.items()}
        items = []
        for p in route.pages:
            cited = [m for m in dict.fromkeys(_CITATION.findall(p.record.markdown)) if m in known]
            items.append(
                Item(
                    count_tokens(p.record.markdown),
                    quoted_ids(p.record.markdown, cited, texts),
                    tuple(cited),
                    (p.record.markdown,),
                )
            )
        linked = tuple(dict.fromkeys(t for p in route.pages for t in p.record.trajectory_ids))
        return self._filled(items, budgets, len(linked), linked)

    # -------------------------------------------------------------- flat
    def flat(self, qa: QA, budgets: list[int], mode: SearchMode) -> dict[int, Context]:
        vector = self.service.embedder.embed([qa.question])[0].tolist()
        hits = self.reader.search_messages(qa.user_id, qa.question, vector, self.flat_pool, mode)
        items = self.user(qa.user_id).items([h.record.message.message_id for h in hits])
        return self._filled(items, budgets, None, None)

    def full_context(self, qa: QA, budgets: list[int]) -> dict[int, Context]:
        index = self.user(qa.user_id)
        ids, used = fill(index.items(list(index.refs)), None)
        return {b: Context(ids, used) for b in budgets}

    @staticmethod
    def _filled(
        items: list[Item], budgets: list[int], candidates: int | None, selected: tuple | None
    ) -> dict[int, Context]:
        out = {}
        for b in budgets:
            kept, used = admit(items, b)
            ids = frozenset(m for item in kept for m in item.message_ids)
            cited = frozenset(m for item in kept for m in item.cited_ids)
            lines = tuple(line for item in kept for line in item.lines)
            out[b] = Context(ids, used, candidates, selected, cited, lines)
        return out
