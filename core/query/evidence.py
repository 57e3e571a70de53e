"""Spend the token budget on evidence messages.

Flat hybrid retrieval is already strong (0.813 gold-ref coverage at 2.7K tokens on LoCoMo
dev, benchmarks/results/locomo_dev.md), so the structure must never
lose its hits; it decides which messages *join* them. Order of admission:
0. the messages the query's claim lines cite (a changed belief's new and old source, a
   current value's source), so each claim line's citation can be checked against the words
   the person used (QueryService.evidence gives them a small share of the budget);
1. the message hits in rank order; a hit ranked below `reply_hits` whose trajectory was
   selected brings the next turn of its thread right after it (the reply that usually
   holds the answer);
2. neighbours: the other turns of the snapshots of hits on selected trajectories, best
   hits first — a hit's own thread around it (nearest turns first was measured and lost:
   benchmarks/results/quality_levers.md).
Measured on LoCoMo dev (benchmarks/results/locomo_dev.md): re-ordering hits for thread
diversity (the best hit of each selected trajectory first) lost coverage at 1K tokens and
gained nothing at 2.7K/4K, so the selection decides which messages join a hit, not the
order of the hits themselves.
Only a hit that asks something brings its reply: the turn after a statement answers nothing
the hit said, and at small budgets such replies took the slots of further hits (LoCoMo dev
at 1K tokens: multi-hop 0.493 → 0.523, all 0.743 → 0.756; the long dev set, where replies
are long and rarely admitted, unchanged; every reply: LoCoMo −1.2 at 1K, fit_settings.md).
A reply longer than `reply_max_tokens` is not admitted as a reply: a long message carries
its own context, and on archives of long messages a reply costs a whole hit's slot.
Whole messages only; a message that does not fit is skipped, smaller ones may follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from arborwiki.core.query.reader import Hit, MessageRef
from arborwiki.core.tokens import TokenRule


@dataclass(frozen=True)
class Admitted:
    ref: MessageRef
    why: str
    tokens: int


class Budget:
    def __init__(self, budget_tokens: int, rule: TokenRule) -> None:
        self.budget_tokens, self.used, self.rule = budget_tokens, 0, rule
        self.admitted: list[Admitted] = []
        self._seen: set[str] = set()

    def offer(self, ref: MessageRef, why: str) -> None:
        mid = ref.message.message_id
        if mid in self._seen:
            return
        cost = ref.tokens(self.rule)
        if self.used + cost > self.budget_tokens:
            return
        self._seen.add(mid)
        self.used += cost
        self.admitted.append(Admitted(ref, why, cost))


def expand_evidence(
    hits: list[Hit[MessageRef]],
    selected: list[str],
    neighbours: dict[str, list[MessageRef]],
    budget_tokens: int,
    rule: TokenRule,
    reply_hits: int = 0,
    reply_max_tokens: int | None = None,
    first: list[MessageRef] | None = None,
) -> Budget:
    """Admit messages in the order above; `neighbours` maps snapshot id → its messages,
    `first` holds the messages the claim lines cite."""
    budget = Budget(budget_tokens, rule)
    for ref in first or []:
        budget.offer(ref, "claim")
    ranked = sorted(hits, key=lambda h: h.rank)
    chosen = set(selected)

    def offer_hit(hit: Hit[MessageRef]) -> None:
        budget.offer(hit.record, "hit")
        if not asks(hit.record):
            return
        if hit.rank < reply_hits and hit.record.trajectory_id in chosen:
            reply = _next_turn(hit.record, neighbours)
            if reply is not None and (
                reply_max_tokens is None or reply.tokens(rule) <= reply_max_tokens
            ):
                budget.offer(reply, "reply")

    for hit in ranked:
        offer_hit(hit)
    threaded = [h for h in ranked if h.record.trajectory_id in chosen and h.record.snapshot_id]
    # Each snapshot once, in its best hit's order: a second pass over it could admit nothing
    # (its turns are admitted, or did not fit a budget that has only filled since).
    for snapshot_id in dict.fromkeys(h.record.snapshot_id or "" for h in threaded):
        for ref in neighbours.get(snapshot_id, []):
            budget.offer(ref, "thread")
    return budget


def asks(ref: MessageRef) -> bool:
    """The message asks something (holds a question mark): the next turn may answer it."""
    return "?" in ref.text


def _next_turn(ref: MessageRef, neighbours: dict[str, list[MessageRef]]) -> MessageRef | None:
    thread = neighbours.get(ref.snapshot_id or "", [])
    turn = ref.message.turn_index
    later = [r for r in thread if r.message.turn_index > turn]
    return later[0] if later else None
