"""A query: route to pages → select trajectories → expand into evidence within the token
budget. Pure: storage comes in as a MemoryReader."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, partial

import numpy as np
from pydantic import TypeAdapter

from arborwiki.core.config import Config
from arborwiki.core.embedding import Embedder
from arborwiki.core.extract.base import Extractor
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.forest.evidence import HISTORY_CHAINS, history
from arborwiki.core.query.beliefs import (
    beliefs_about,
    changed_in_slots,
    compact_claim,
    current_beliefs,
)
from arborwiki.core.query.chunks import chunk_ranking
from arborwiki.core.query.citations import claim_citations, page_citations
from arborwiki.core.query.evidence import Budget, expand_evidence
from arborwiki.core.query.facts import ranked_facts
from arborwiki.core.query.fusion import RRF_K, fuse_hits, fuse_with_floor, with_tail
from arborwiki.core.query.history import history_result, source_ids
from arborwiki.core.query.localize import (
    ForestCache,
    localize_result,
    place_turn,
    pseudo_snapshot,
    pseudo_window,
)
from arborwiki.core.query.named_again import named_again
from arborwiki.core.query.pages import pages_result
from arborwiki.core.query.periods import DAYS_AFTER, NearPeriods
from arborwiki.core.query.questions import (
    QuestionInfo,
    analyze_question,
    asks_about_owner,
    asks_when,
    subject_free_stems,
)
from arborwiki.core.query.reader import Hit, MemoryReader, MessageRef
from arborwiki.core.query.result import (
    ClaimLine,
    EvidenceMessage,
    HistoryResult,
    LocalizeResult,
    PageRef,
    PagesResult,
    QueryResult,
    SelectedTrajectory,
)
from arborwiki.core.query.selection import (
    Candidate,
    ScoredCandidate,
    Targets,
    selection_inputs,
    top_by_rank,
)
from arborwiki.core.query.speakers import named_speakers, without_names
from arborwiki.core.query.threads import thread_members
from arborwiki.core.records import Claim, Trajectory, WikiPage
from arborwiki.core.tokens import TOKEN_RULE, count_tokens
from arborwiki.core.words import singular_forms

EVIDENCE_ROWS = TypeAdapter(list[EvidenceMessage])

_FIRST_PERSON = re.compile(r"(?i)\b(?:i|me|my|mine|myself)\b")

HIT_DEPTH = 200
"""How deep the text and vector searches go. Their top `message_hits` fused lead the hits as
before; the rest of the fusion follows them, for budgets with room for more messages than
that (and for choosing threads). Depth 60 → 200, transformer: LoCoMo dev 8K +2.9, no set or
budget lower; static: LoCoMo 8K +0.6, pool b 2.7K +1.2 (120 and 400: less; fusion_loso.md)."""

WeightedRefs = tuple[float, list[MessageRef]]

TOP_PAGES = 8
"""t, the wiki pages a question is routed to when the caller asks for the page route (the
design's value; the route is off by default, see `QueryService.route`)."""


def _at_least_one(name: str, value: int | None) -> None:
    """None means the configured default; 0 or less is a mistake, not the default."""
    if value is not None and value < 1:
        raise ValueError(f"{name} must be at least 1 (got {value})")


@dataclass(frozen=True)
class Route:
    """What routing decided for one question (shared by queries and the evaluation)."""

    user_id: str
    info: QuestionInfo
    pages: list[Hit[WikiPage]]
    hits: list[Hit[MessageRef]]
    trajectories: list[Trajectory]
    chosen: list[ScoredCandidate]
    # Ranked lists fused into the evidence order (weight, messages): routed-trajectory hits
    # and page citations; their weight is scaled per budget (see QueryService.evidence_hits).
    routed_lists: list[tuple[float, list[MessageRef]]] = field(default_factory=list)
    # The text and vector rankings fused into `hits`, kept so the evidence
    # order can re-weigh the vector ranking per budget (see QueryService.evidence_hits).
    hit_lists: list[tuple[float, list[MessageRef]]] = field(default_factory=list)
    # Hits among the messages dated near the days or months the question names (see
    # QueryService.dated_hits); fused with the global hits at every budget.
    dated: list[MessageRef] = field(default_factory=list)
    # The speakers the question names (core/query/speakers.py).
    speakers: list[str] = field(default_factory=list)
    # The selected trajectories, then the rest of their trees: the threads they are visits
    # of (core/query/threads.py). Empty: the selected trajectories alone.
    thread_ids: list[str] = field(default_factory=list)
    # The share of its weight the vector ranking kept in `hit_lists` for the hits' length
    # (static vectors blur over long messages; 1.0: none taken).
    vector_length_share: float = 1.0

    @property
    def selected_ids(self) -> list[str]:
        return [s.candidate.trajectory_id for s in self.chosen]

    @property
    def thread_trajectories(self) -> list[str]:
        return self.thread_ids or self.selected_ids

    @property
    def candidate_count(self) -> int:
        return len(self.trajectories)


class QueryService:
    def __init__(self, reader: MemoryReader, embedder: Embedder, cfg: Config) -> None:
        self.reader, self.embedder, self.cfg = reader, embedder, cfg

    def route(
        self, user_id: str, question: str, k: int | None = None, use_pages: bool = False
    ) -> Route:
        """Steps 1–2: message hits (and with `use_pages` the top `TOP_PAGES` wiki pages)
        → C_q → the top k by s_rank (`_select`). The page route is off unless asked for: on both dev
        sets it was within ±0.008 answer recall of the hits' route alone
        (docs/fact-lines-and-pages.md)."""
        if not user_id:
            raise ValueError("user_id is required")
        if not question.strip():
            raise ValueError("question is empty")
        _at_least_one("k", k)
        qc = self.cfg.query
        vector = np.asarray(self.embedder.embed([question])[0]).tolist()
        # Searches run in memory over the user's rows (a fraction of a millisecond each), so
        # one after the other: a thread hop would cost more than it overlaps.
        pages = self.reader.search_pages(user_id, question, vector, TOP_PAGES) if use_pages else []
        speakers = self._named_speakers(user_id, question)
        hits, hit_lists, length_share = self._message_hits(user_id, question, vector, speakers)
        candidate_ids = {t for p in pages for t in p.record.trajectory_ids}
        candidate_ids |= {
            h.record.trajectory_id for h in hits[: qc.route_hits] if h.record.trajectory_id
        }
        trajectories = self.reader.trajectories(user_id, sorted(candidate_ids))
        info = analyze_question(question, frozenset(e for t in trajectories for e in t.entities))
        candidates, targets = selection_inputs(
            info, vector, pages, hits, trajectories, self.cfg.query
        )
        chosen = self._select(candidates, targets, qc.k if k is None else k)
        threads = self._threads(user_id, [s.candidate.trajectory_id for s in chosen])
        routed = self._routed_lists(user_id, info, vector, pages, hits, threads)
        dated = self.dated_hits(user_id, info, vector, speakers)
        return Route(
            user_id,
            info,
            pages,
            hits,
            trajectories,
            chosen,
            routed,
            hit_lists,
            dated,
            speakers,
            threads,
            length_share,
        )

    def _select(
        self, candidates: list[Candidate], targets: Targets, k: int
    ) -> list[ScoredCandidate]:
        """The top k by s_rank: the design's coverage-aware S(T) cost 0.3–0.5 points on
        LoCoMo dev and changed nothing on the long set (the `coverage_terms` ablation)."""
        return top_by_rank(candidates, k)

    def _named_speakers(self, user_id: str, question: str) -> list[str]:
        return named_speakers(question, self.reader.speaker_names(user_id))

    def dated_hits(
        self,
        user_id: str,
        info: QuestionInfo,
        vector: list[float],
        speakers: Sequence[str] = (),
    ) -> list[MessageRef]:
        """For a question naming a day or month ("on March 16, 2022", "in June"): hybrid
        hits among the messages dated from its first day to `DAYS_AFTER` (14) past it.
        The question's words often miss the answer ("yesterday I went bowling", said on the
        17th); its date does not."""
        qc = self.cfg.query
        if not (info.periods and qc.added_hits):
            return []
        near = NearPeriods(info.periods, before=0, after=DAYS_AFTER)
        found = self.reader.search_messages(
            user_id, info.text, vector, qc.added_hits, "hybrid", dates=near, speakers=speakers
        )
        return [h.record for h in found]

    def _message_hits(
        self, user_id: str, question: str, vector: list[float], speakers: Sequence[str] = ()
    ) -> tuple[list[Hit[MessageRef]], list[WeightedRefs], float]:
        """Our weighted RRF of the store's text and vector searches (the store's own hybrid
        search, equal-weight RRF, lost 11.6 points at 1K on the long set: fit_settings.md).
        Which one to trust depends on the vectors and on the question.
        Static vectors: one per message blurs over long messages, so the vector ranking weighs
        less there (and at small budgets), full text carries more of the signal. A sentence
        embedder's vectors do not blur; there the question decides: full text weighs its
        lexical reach (the largest share of the question's IDF weight one message holds) —
        asked in the archive's words it keeps its weight, paraphrased ("how should you format
        answers for me?" for "please always use bullet points") it gives way to the vectors —
        and each ranking's top `list_floor` lead, the rest fused with a message either list
        leaves out counted as ranked past that list's end; below those `message_hits`, the
        rest of the searches to `HIT_DEPTH`, fused. A question in the owner's own first
        person (`asks_about_owner`) adds each ranking's owner messages as a list of its own.
        Also returns the weighted lists fused and the vector list's length share. Named
        speakers leave the full-text query and limit both searches to their sessions."""
        qc = self.cfg.query
        words = without_names(question, speakers) if speakers else question
        n = qc.message_hits
        depth = max(n, HIT_DEPTH)
        search = self.reader.search_messages
        text = search(user_id, words, vector, depth, "text", speakers=speakers)
        vectors = search(user_id, question, vector, depth, "vector", speakers=speakers)
        deep_text, deep_dense = [h.record for h in text], [h.record for h in vectors]
        texts, dense = deep_text[:n], deep_dense[:n]
        refs = texts + dense
        w_text, w_vector = 1.0, qc.w_vector_hits
        static = self.embedder.static
        if not static:  # a question in other words than the archive's leans on the vectors
            w_text *= self.reader.lexical_reach(user_id, words)
        rule = TOKEN_RULE
        mean = sum(r.tokens(rule) for r in refs) / max(len(refs), 1)
        length_share = 1.0
        if qc.vector_full_weight_tokens and refs and static:
            length_share = min(1.0, qc.vector_full_weight_tokens / mean)
            w_vector *= length_share
        lists = [(w_text, texts), (w_vector, dense)]
        if asks_about_owner(question):
            # "Which of the dishes I cooked did I like least?" asks what the owner said, not
            # the replies that say "cook" and "dish" more often and at more length: each
            # ranking's owner messages count once more, at that ranking's weight
            # (fusion_loso.md, 2026-12-07 evening).
            lists += [
                (weight, [r for r in deep if r.message.role == "user"][:n])
                for weight, deep in ((w_text, deep_text), (w_vector, deep_dense))
            ]
        # Best-sentence vectors mend a static embedder's blur over long messages. Through a
        # transformer they would cost seconds a question (≈ 100 hits × their sentences) for
        # vectors that do not blur that way: skipped there.
        sentence_vectors = qc.chunk_vectors_min_tokens and self.embedder.static
        if sentence_vectors and refs and mean >= qc.chunk_vectors_min_tokens:
            pool = list({r.message.message_id: r for r in refs}.values())
            lists.append(
                (qc.w_vector_hits, chunk_ranking(vector, pool, self.embedder.embed, speakers))
            )
        # A sentence embedder's top hit is rarely a blur: a message one ranking puts near its
        # top should not lose to ones both rank low, so each list's unranked count as ranked
        # just past its end (transformer, ua pool b 2.7K +2.4, its multi-hop +9.8). Not for
        # "when" questions, where both rankings naming the event in the question's words is
        # the signal (LoCoMo dev temporal −2.9 at 1K with it), nor static vectors (`_floor`).
        at_end = not static and not asks_when(question)
        fused = fuse_with_floor(lists, self._floor(), RRF_K, qc.message_hits, at_end)
        deep = fuse_hits([(w_text, deep_text), (w_vector, deep_dense)], RRF_K)
        return with_tail(fused, [h.record for h in deep]), lists, length_share

    def _routed_lists(
        self,
        user_id: str,
        info: QuestionInfo,
        vector: list[float],
        pages: list[Hit[WikiPage]],
        hits: list[Hit[MessageRef]],
        selected: list[str],
    ) -> list[tuple[float, list[MessageRef]]]:
        """What the structure ranks besides the global hits: hits searched inside the
        selected threads (`selected`: their trajectories), the messages the routed pages
        cite for the question's words, and those the threads' claims cite for them (each off
        when `w_routed` or `added_hits` is 0)."""
        qc = self.cfg.query
        lists: list[tuple[float, list[MessageRef]]] = []
        inside = None
        n = qc.added_hits
        if not (n and qc.w_routed):
            return lists
        if selected:
            inside = self.reader.search_messages(user_id, info.text, vector, n, "hybrid", selected)
        words = subject_free_stems(info)
        cited_refs: list[MessageRef] = []
        if pages:
            cited_refs = self._refs(user_id, page_citations(pages, words, n), hits)
        claimed = self._claim_cited(user_id, words, selected, hits)
        if inside is not None:
            lists.append((qc.w_routed, [h.record for h in inside]))
        if cited_refs:
            lists.append((qc.w_routed, cited_refs))
        if claimed:
            lists.append((qc.w_routed, claimed))
        return lists

    def _claim_cited(
        self, user_id: str, words: set[str], selected: list[str], hits: list[Hit[MessageRef]]
    ) -> list[MessageRef]:
        """The messages the selected threads' claims sharing the question's words cite."""
        if not selected:
            return []
        claims = self.reader.claims(user_id, selected)
        n = self.cfg.query.added_hits
        return self._refs(user_id, claim_citations(claims, words, n), hits)

    def _refs(
        self, user_id: str, message_ids: list[str], hits: list[Hit[MessageRef]]
    ) -> list[MessageRef]:
        """The messages of `message_ids`, in their order: the hits' refs, the rest read."""
        known = {h.record.message.message_id: h.record for h in hits}
        missing = [m for m in message_ids if m not in known]
        known |= {r.message.message_id: r for r in self.reader.messages(user_id, missing)}
        return [known[m] for m in message_ids if m in known]

    def evidence_hits(self, route: Route, budget_tokens: int) -> list[Hit[MessageRef]]:
        """The global hits fused with the routed lists. The routed lists' weight scales with
        the number of messages the budget holds (budget / mean hit length, against
        `full_weight_slots`): when only a handful of long messages fit, the most
        precise ranking (the global one) decides them; with room for dozens, the structure's
        candidates join."""
        qc = self.cfg.query
        slots = self._slots(route, budget_tokens)
        hits = route.hits
        if qc.full_weight_slots and len(route.hit_lists) >= 2 and self.embedder.static:
            # Few slots: the sharper ranking (full text) decides; many: the vectors join, and
            # the discount for long messages' blurred vectors fades with them (with room for
            # many messages a blurred hit costs one slot of many, not one of four).
            (w_text, texts), (w_dense, dense), *others = route.hit_lists
            v_scale = min(1.0, slots / qc.full_weight_slots)
            share = route.vector_length_share
            dense_scale = v_scale * (share + (1.0 - share) * v_scale) / share
            if v_scale < 1.0 or dense_scale != 1.0:  # else route.hits' own fusion
                lists = [(w_text, texts), (w_dense * dense_scale, dense)]
                lists += [(w * v_scale, refs) for w, refs in others]
                # static: no floor; few slots, no use for the deeper searches' tail
                hits = fuse_hits(lists, RRF_K, qc.message_hits)
        if route.dated:
            # A named day or month is the question's own constraint: its ranking joins the
            # global one at the global one's weight and every budget, not scaled away like
            # the structure's lists.
            ranked = [h.record for h in sorted(hits, key=lambda h: h.rank)]
            hits = fuse_hits([(1.0, ranked), (1.0, route.dated)], RRF_K)
        if not route.routed_lists:
            return hits
        scale = 1.0
        if qc.full_weight_slots:
            scale = min(1.0, slots / qc.full_weight_slots) ** qc.routed_weight_power
        ranked = [h.record for h in sorted(hits, key=lambda h: h.rank)]
        lists = [(1.0, ranked), *((w * scale, refs) for w, refs in route.routed_lists)]
        return fuse_hits(lists, RRF_K)

    def _floor(self) -> int:
        """Each ranking's top `list_floor` lead the hits, with a sentence embedder; a static
        vector's best hit over long messages is too often a blur to lead with (LoCoMo dev
        static: −2.0 points at 1K with the floor and reach weighting, pool a −4.7)."""
        return 0 if self.embedder.static else self.cfg.query.list_floor

    def _slots(self, route: Route, budget_tokens: int) -> float:
        """How many messages of the top hits' mean length the budget holds."""
        qc = self.cfg.query
        top = route.hits[: qc.full_weight_slots or None]
        if not top:
            return float(budget_tokens)
        mean = sum(h.record.tokens(TOKEN_RULE) for h in top)
        return budget_tokens / max(mean / len(top), 1.0)

    def _threads(self, user_id: str, trajectory_ids: list[str]) -> list[str]:
        """The trajectories and every other trajectory of their trees (core/query/threads)."""
        if not trajectory_ids:
            return []
        return thread_members(self.reader.all_trajectories(user_id), trajectory_ids)

    def expanded_trajectories(self, route: Route) -> list[str]:
        """Trajectories whose hits bring their reply and thread: the selected ones with the
        rest of their trees (also expanding the top hits' own trajectories was measured and
        gained nothing: benchmarks/results/quality_levers.md)."""
        return route.thread_trajectories

    def _no_replies(self, info: QuestionInfo) -> bool:
        """When replies would take the slots of further hits: "when" questions (the hit's own
        date answers)."""
        return asks_when(info.text)

    def admission(
        self, route: Route, budget_tokens: int, first: list[MessageRef] | None = None
    ) -> Callable[[int], Budget]:
        """Step 3: admit evidence messages (see core.query.evidence) within any number of
        tokens, the `first` messages (those the claim lines cite) before any other. The hits
        are ranked and their threads read once (for `budget_tokens`); each call admits."""
        hits = self.evidence_hits(route, budget_tokens)
        expanded = self.expanded_trajectories(route)
        neighbours = self._neighbours(route.user_id, hits, set(expanded))
        qc = self.cfg.query
        return partial(
            expand_evidence,
            hits,
            expanded,
            neighbours,
            rule=TOKEN_RULE,
            reply_hits=0 if self._no_replies(route.info) else qc.reply_hits,
            reply_max_tokens=qc.reply_max_tokens or None,
            first=first,
        )

    def _cited(self, user_id: str, ids: Sequence[str], room: int) -> list[MessageRef]:
        """The messages the claim lines cite, in their order, as many as fit `room` tokens:
        a claim line is the extractor's paraphrase, its source is what an answer can check
        (LoCoMo dev and the long set: coverage identical at every budget; the room keeps a
        250-token message from taking one of the four slots 1K holds on the long set, which
        cost 1.7 points there)."""
        if not ids:
            return []
        by_id = {r.message.message_id: r for r in self.reader.messages(user_id, list(ids))}
        fits = Budget(room, TOKEN_RULE)  # skips a repeat, and what no longer fits
        for m in ids:
            if m in by_id:
                fits.offer(by_id[m], "claim")
        return [a.ref for a in fits.admitted]

    def query(
        self, user_id: str, question: str, k: int | None = None, budget_tokens: int | None = None
    ) -> QueryResult:
        _at_least_one("budget_tokens", budget_tokens)  # before any search is spent on it
        return self.evidence(self.route(user_id, question, k), budget_tokens)

    def evidence(self, route: Route, budget_tokens: int | None = None) -> QueryResult:
        """Step 3 for a routed question: claim lines (changed and current beliefs) and the
        messages they cite first, together at most `claim_budget_share` of what the fact
        room (`_fact_room`) leaves, then evidence messages, then fact lines in the room,
        chosen knowing which messages are in (an undated fact whose message is there says
        nothing new); the room they leave goes back to messages. No model is called here:
        answering over this evidence is core.answer.Answerer.answer."""
        qc = self.cfg.query
        _at_least_one("budget_tokens", budget_tokens)
        budget_tokens = budget_tokens or qc.budget_tokens
        room = self._fact_room(budget_tokens)
        share = int((budget_tokens - room) * qc.claim_budget_share)
        claims, claim_tokens = self._claims(route, share)
        # The new value's source before the old one's: what holds now, if only one fits; an
        # unsure value's later mention before both.
        cited = [
            m
            for c in claims
            for m in (*c.named_again_message_ids, *c.replaced_by_message_ids, *c.source_message_ids)
        ]
        first = self._cited(route.user_id, cited, share - claim_tokens)
        rest = budget_tokens - claim_tokens
        admit = self.admission(route, rest, first)
        admitted = admit(rest - room)
        facts, fact_tokens = self._facts(route, room, [a.ref for a in admitted.admitted])
        if fact_tokens < room:  # the room fact lines left goes back to messages
            admitted = admit(rest - fact_tokens)
        user_id, question = route.user_id, route.info.text
        pages, chosen, trajectories = route.pages, route.chosen, route.trajectories
        by_id = {t.trajectory_id: t for t in trajectories}
        # Rank order, the order of admission: a client keeping the first n keeps the best n.
        rows = [
            {
                "message_id": a.ref.message.message_id,
                "speaker": a.ref.message.speaker,
                "timestamp": a.ref.message.timestamp,
                "text": a.ref.text,
                "trajectory_id": a.ref.trajectory_id,
                "why": a.why,
                "rank": i,
            }
            for i, a in enumerate(admitted.admitted)
        ]
        # One validation call in pydantic-core for all ~120 rows: about half the CPU of one
        # `EvidenceMessage(...)` a row (120 rows: 0.19 against 0.36 ms).
        evidence = EVIDENCE_ROWS.validate_python(rows)
        return QueryResult(
            user_id=user_id,
            question=question,
            pages=[
                PageRef(
                    page_id=p.record.page_id, kind=p.record.kind, title=p.record.title, rank=p.rank
                )
                for p in pages
            ],
            candidate_trajectories=route.candidate_count,
            trajectories=[
                SelectedTrajectory(
                    trajectory_id=s.candidate.trajectory_id,
                    title=by_id[s.candidate.trajectory_id].title,
                    score=round(s.total, 4),
                    parts={n: round(v, 4) for n, v in s.parts.items()},
                )
                for s in chosen
            ],
            evidence=evidence,
            claims=[*claims, *facts],
            context_tokens=admitted.used + claim_tokens + fact_tokens,
        )

    def _neighbours(
        self, user_id: str, hits: list[Hit[MessageRef]], selected: set[str]
    ) -> dict[str, list[MessageRef]]:
        snapshot_ids = sorted(
            {
                h.record.snapshot_id
                for h in hits
                if h.record.snapshot_id and h.record.trajectory_id in selected
            }
        )
        grouped: dict[str, list[MessageRef]] = defaultdict(list)
        for ref in self.reader.messages_in_snapshots(user_id, snapshot_ids):
            grouped[ref.snapshot_id or ""].append(ref)
        for members in grouped.values():
            members.sort(key=lambda r: r.message.turn_index)
        return grouped

    def _fact_room(self, budget_tokens: int) -> int:
        """Tokens for fact lines: `fact_budget_share` of the budget (scaling it down on small
        budgets measured level: benchmarks/results/fit_settings.md)."""
        return int(budget_tokens * self.cfg.query.fact_budget_share)

    def _facts(
        self, route: Route, budget_tokens: int, shown: Sequence[MessageRef]
    ) -> tuple[list[ClaimLine], int]:
        """Fact lines (core/query/facts.py), best first, while they fit `budget_tokens`: the
        claims of the routed pages' threads (the wiki's route into the context), and the
        dated claims of the `shown` messages (those in the context), whose line adds the day a
        relative date named ("yesterday", said on 8 May) that no message holds; for a "when"
        question, those of the first `when_fact_messages` shown ones whatever their words."""
        if budget_tokens <= 0:
            return [], 0
        order = [r.message.message_id for r in shown]  # rank order
        shown_ids = set(order)
        paged = {t for p in route.pages for t in p.record.trajectory_ids}
        wanted = paged | {r.trajectory_id for r in shown if r.trajectory_id}
        claims = [
            c
            for c in self.reader.claims(route.user_id, sorted(wanted))
            if c.trajectory_id in paged
            or (c.event_time is not None and shown_ids.intersection(c.source_message_ids))
        ]
        lines, used = [], 0
        top = self.cfg.query.when_fact_messages if asks_when(route.info.text) else 0
        for fact in ranked_facts(claims, subject_free_stems(route.info), order, top):
            line = ClaimLine(
                claim_id=fact.claim_id,
                text=fact.text,
                status="active",
                source_message_ids=fact.sources,
                kind="fact",
            )
            cost = count_tokens(line.labelled())
            if used + cost > budget_tokens:
                break
            lines.append(line)
            used += cost
        self._mark_unsure(route.user_id, lines, claims)
        return lines, used

    def _mark_unsure(self, user_id: str, lines: list[ClaimLine], claims: Sequence[Claim]) -> None:
        """An active line whose value its speaker named again later, unread, becomes
        `unsure`, citing that message (core/query/named_again.py)."""
        by_id = {c.claim_id: c for c in claims}
        active = [by_id[x.claim_id] for x in lines if x.status == "active" and x.claim_id in by_id]
        if not active:
            return
        messages = self.reader.all_messages(user_id)
        later = named_again(active, messages, self.reader.all_claims(user_id))
        for line in lines:
            ref = later.get(line.claim_id) if line.status == "active" else None
            if ref is not None:
                line.status = "unsure"
                line.named_again_message_ids = [ref.message.message_id]

    def _claims(self, route: Route, budget_tokens: int) -> tuple[list[ClaimLine], int]:
        """Revised or deprecated claims on the selected trajectories about what the question
        asks (`beliefs_about`), each with the claim that replaced it, so the answer uses the
        active value and sees what changed; then the current value of each one-value slot
        ("lives in", "works as") of the people the question names that it asks about
        (`current_beliefs`): the message that set it may say it in other words ("we're
        moving to Galway" for "Where does Aoife live now?")."""
        user_id, info = route.user_id, route.info
        named = {*info.entities, *route.speakers}
        if _FIRST_PERSON.search(info.text):  # "Where do I live now?", asked for the owner
            named |= self.reader.owner_names(user_id)
        asked = singular_forms(" ".join(info.tokens))  # "job" may name a trajectory entity too
        everyone = self.reader.all_claims(user_id) if named and asked else []
        changed = [
            c for c in self.reader.claims(user_id, route.selected_ids) if c.status != "active"
        ]
        words = subject_free_stems(info)
        relevant = beliefs_about(changed, words)
        seen = {c.claim_id for c in relevant}
        relevant += [c for c in changed_in_slots(everyone, named, asked) if c.claim_id not in seen]
        shown = {c.superseded_by for c in relevant}  # already there as "→ new value"
        current = [c for c in current_beliefs(everyone, named, asked) if c.claim_id not in shown]
        successors = {
            c.claim_id: c
            for c in self.reader.claims_by_id(
                user_id, [c.superseded_by for c in relevant if c.superseded_by]
            )
        }
        lines, used = [], 0
        for c in [*relevant, *current]:
            successor = successors.get(c.superseded_by or "")
            line = ClaimLine(
                claim_id=c.claim_id,
                text=compact_claim(c),
                status=c.status,
                source_message_ids=c.source_message_ids,
                replaced_by=compact_claim(successor) if successor else None,
                replaced_by_message_ids=successor.source_message_ids if successor else [],
            )
            cost = count_tokens(line.text + (line.replaced_by or ""))
            if used + cost > budget_tokens:
                break
            lines.append(line)
            used += cost
        self._mark_unsure(user_id, lines, [*relevant, *current])
        return lines, used

    # ---- online turn (localize a live turn in the forest) and belief history ----------
    def carry_forests(self, old: int, new: int, changed: set[str]) -> None:
        """`ForestCache.carry` for `localize`'s rebuilt forests (see storage/reader.py
        `follow`): the users an add did not touch keep theirs."""
        self._forests.carry(old, new, changed)

    @cached_property
    def _forests(self) -> ForestCache:
        # As many users' forests as the reader keeps users' rows, and no more snapshots than
        # it keeps rows: a replica serving more users than it keeps rebuilds a forest (every
        # node and snapshot of the user) per turn.
        store = self.cfg.store
        return ForestCache(store.reader_cache_users, store.reader_cache_rows)

    @cached_property
    def _extractor(self) -> Extractor:
        # Online turns always use the deterministic extractor: a few ms, no model call on the
        # serving path. When the store was built by an LLM extractor the turn's features
        # differ in kind from the stored ones; `localize` says so in its result's `note`.
        return RuleExtractor(self.cfg.extract)

    def localize(
        self, user_id: str, turn_text: str, session_id: str | None = None
    ) -> LocalizeResult:
        """Where the live turn belongs in the user's forest (no mutation), its branch-local
        context and other branches' evidence that shares words with it. `session_id`: the
        dialogue the turn is of; when it is the session of the user's latest stored message,
        the turn continues that dialogue's task unless it plainly turns to another."""
        if not user_id:
            raise ValueError("user_id is required")
        if not turn_text.strip():
            raise ValueError("turn text is empty")
        entry = self._forests.get(self.reader, user_id, self.cfg)
        forest, snapshots = entry.forest, entry.snapshots
        window = pseudo_window(user_id, turn_text, datetime.now(UTC), entry.owner)
        sigma = pseudo_snapshot(window, self._extractor, self.embedder)
        placement = place_turn(entry, sigma, turn_text, self.cfg, session_id)
        evidence = self.reader.evidence(user_id)
        title = next(  # the title as stored: what query results and pages show
            (
                t.title
                for t in self.reader.all_trajectories(user_id)
                if t.trajectory_id == placement.trajectory_id
            ),
            None,
        )
        return localize_result(
            user_id, turn_text, placement, forest, snapshots, evidence, self._extractor.name, title
        )

    def pages(self, user_id: str) -> PagesResult:
        """The user's Memory Wiki pages (none for a user this store does not hold)."""
        if not user_id:
            raise ValueError("user_id is required")
        return pages_result(user_id, self.reader.pages(user_id))

    def history(self, user_id: str, about: str, limit: int = HISTORY_CHAINS) -> HistoryResult:
        """The `limit` revision chains of the user's claims best matching `about` (the belief
        it asks about first), with source messages."""
        if not user_id:
            raise ValueError("user_id is required")
        if not about.strip():
            raise ValueError("about is empty")
        chains = history(self.reader.all_claims(user_id), about, limit)
        messages = self.reader.messages(user_id, source_ids(chains))
        return history_result(user_id, about, chains, messages)
