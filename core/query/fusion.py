"""Weighted reciprocal-rank fusion of ranked message lists, and re-ranking with a lead."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from arborwiki.core.query.reader import Hit, MessageRef

K = TypeVar("K", bound=Hashable)
RRF_K = 60
"""Reciprocal-rank fusion's constant (Cormack, Clarke & Büttcher 2009; also Lance's hybrid
search): every fusion here uses it, never tuned on our sets."""


def reciprocal_rank(
    lists: Iterable[tuple[float, Sequence[K]]],
    k: int,
    first_rank: int = 0,
    unranked_at_end: bool = False,
) -> dict[K, float]:
    """Weighted reciprocal-rank fusion, the one implementation: each key's sum over the
    lists of weight / (k + rank), ranks counted from `first_rank`. The dict keeps the order
    in which keys first appear (earlier list, then better rank), so a stable sort of it
    breaks ties that way.

    `unranked_at_end`: a key a list does not hold counts as ranked just past that list's
    end (weight / (k + first_rank + len)), not as absent. A cut list says its own keys beat
    the rest, not that the rest score nothing: plain fusion lets a message two lists name
    low outrank one that a single list ranks near its top."""
    score: dict[K, float] = {}
    ends: list[tuple[float, set[K]]] = []
    for weight, ranked in lists:
        for rank, key in enumerate(ranked, first_rank):
            score[key] = score.get(key, 0.0) + weight / (k + rank)
        if unranked_at_end:
            ends.append((weight / (k + first_rank + len(ranked)), set(ranked)))
    for end, held in ends:
        for key in score:
            if key not in held:
                score[key] += end
    return score


def fuse_hits(
    lists: list[tuple[float, list[MessageRef]]],
    rrf_k: int,
    limit: int | None = None,
    unranked_at_end: bool = False,
) -> list[Hit[MessageRef]]:
    """Weighted reciprocal-rank fusion of ranked message lists (the first list wins ties),
    the best `limit` of them (all when None); `unranked_at_end` as in `reciprocal_rank`.

    Equal scores keep the order in which the messages first appeared — earlier list, then
    better rank — because the dict keeps insertion order and the sort is stable."""
    refs: dict[str, MessageRef] = {}
    for _, ranked in lists:
        for ref in ranked:
            refs.setdefault(ref.message.message_id, ref)
    score = reciprocal_rank(
        ((weight, [ref.message.message_id for ref in ranked]) for weight, ranked in lists),
        rrf_k,
        unranked_at_end=unranked_at_end,
    )
    order = sorted(score, key=score.__getitem__, reverse=True)[:limit]
    return [Hit(refs[m], i, score[m]) for i, m in enumerate(order)]


def fuse_with_floor(
    lists: list[tuple[float, list[MessageRef]]],
    floor: int,
    rrf_k: int,
    limit: int | None = None,
    unranked_at_end: bool = False,
) -> list[Hit[MessageRef]]:
    """`fuse_hits`, led by every weighted list's top `floor`, taken in turn (the first list's
    best, the second's best, …, then each one's second). Fusion lets a list that agrees with
    itself less than the other lose even its best hit; a floor keeps each ranking's surest
    answers in whatever the weights (question by question, `lexical_reach`) make of the
    rest."""
    fused = fuse_hits(lists, rrf_k, limit, unranked_at_end)
    ranked = [refs for weight, refs in lists if weight > 0]
    tops = [refs[i] for i in range(floor) for refs in ranked if i < len(refs)]
    return lead_with(tops, fused) if tops else fused


def lead_with(lead: list[MessageRef], hits: list[Hit[MessageRef]]) -> list[Hit[MessageRef]]:
    """`hits` ranked again with the `lead` messages first, in their order, and the rest after
    in theirs. Fusion sums agreement: a message two routed lists also name outranks the one
    message that matches the question best and that only the global search found."""
    first = list(dict.fromkeys(r.message.message_id for r in lead))
    by_id = {h.record.message.message_id: h for h in hits}
    ordered = [by_id[m] for m in first if m in by_id]
    leading = set(first)
    ordered += [h for h in hits if h.record.message.message_id not in leading]
    return [Hit(h.record, i, h.score) for i, h in enumerate(ordered)]


def with_tail(hits: list[Hit[MessageRef]], tail: list[MessageRef]) -> list[Hit[MessageRef]]:
    """`hits`, then the `tail` messages not among them, in their order, ranked after (score
    0: below any fused one)."""
    have = {h.record.message.message_id for h in hits}
    more = [r for r in tail if r.message.message_id not in have]
    return hits + [Hit(r, len(hits) + i, 0.0) for i, r in enumerate(more)]
