"""Evidence-coverage metrics per question, and their aggregation per variant/budget/category.

One meaning of "covered" for every variant: a gold message is *present* when its text is in
the context (an admitted message, or its text quoted on an admitted page). An id that the
context only points at (a page's or a claim line's citation) is not evidence delivered; it
is counted apart as `cited_not_present`.

gold_ref_cov = share of a question's (resolvable) gold ids present in the context;
answer_recall = share of the gold answer's terms the context's text holds (answers.py);
all_ref_rate = share of questions with every gold id present; cited_not_present = share of
gold ids cited by the context without their text; traj_recall = share of gold ids whose
trajectory was selected (None for flat variants).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from arborwiki.core.evaluation.answers import answer_recall, context_terms

_CITATIONS = re.compile(r"\[[^\[\]]*\]")


@dataclass(frozen=True)
class Item:
    """A unit of context admitted whole: its token cost, the message ids whose text it
    carries, and the ids it only cites (a page's links to its sources)."""

    tokens: int
    message_ids: tuple[str, ...]
    cited_ids: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()  # text it shows besides whole messages (a page, a claim)


@dataclass(frozen=True)
class Context:
    message_ids: frozenset[str]
    tokens: int
    candidates: int | None = None
    selected: tuple[str, ...] | None = None
    cited: frozenset[str] = frozenset()
    lines: tuple[str, ...] = ()  # claim lines, page text: read by answer recall


def admit(items: Iterable[Item], budget: int | None) -> tuple[list[Item], int]:
    """Admit items in order while they fit (a too-large item is skipped, later ones may fit)."""
    kept: list[Item] = []
    used = 0
    for item in items:
        if budget is not None and used + item.tokens > budget:
            continue
        used += item.tokens
        kept.append(item)
    return kept, used


def fill(items: Iterable[Item], budget: int | None) -> tuple[frozenset[str], int]:
    """The message ids whose text the admitted items carry, and the tokens they use."""
    kept, used = admit(items, budget)
    return frozenset(m for item in kept for m in item.message_ids), used


@dataclass(frozen=True)
class Score:
    variant: str
    budget: int
    category: int
    gold_ref_cov: float
    all_ref: bool
    cited_not_present: float
    traj_recall: float | None
    candidates: float | None
    tokens: int
    answer_recall: float | None = None


def score(
    variant: str,
    budget: int,
    category: int,
    gold: tuple[str, ...],
    context: Context,
    trajectory_of: dict[str, str | None],
    answer: frozenset[str] | None = None,
    terms_of: Callable[[str], frozenset[str]] | None = None,
) -> Score:
    """One question's scores in one context. `answer` (core/evaluation/answers.py) with
    `terms_of` (a message id → the terms of the message as the context shows it) adds
    answer recall; None where the answer is not scored."""
    present = [g in context.message_ids for g in gold]
    recall = None
    if context.selected is not None:
        chosen = set(context.selected)
        recall = sum(trajectory_of.get(g) in chosen for g in gold) / len(gold)
    pointed = [g in context.cited and g not in context.message_ids for g in gold]
    found = None
    if answer is not None and terms_of is not None:
        held = set().union(*(terms_of(m) for m in context.message_ids))
        held |= line_terms(context.lines)
        found = answer_recall(answer, frozenset(held))
    return Score(
        variant=variant,
        budget=budget,
        category=category,
        gold_ref_cov=sum(present) / len(gold),
        all_ref=all(present),
        cited_not_present=sum(pointed) / len(gold),
        traj_recall=recall,
        candidates=context.candidates,
        tokens=context.tokens,
        answer_recall=found,
    )


def line_terms(lines: tuple[str, ...]) -> frozenset[str]:
    """The terms of claim lines and page text, citations ("[D1:3]") left out."""
    return context_terms(_CITATIONS.sub(" ", "\n".join(lines))) if lines else frozenset()


def _mean(values: list[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return round(fmean(kept), 4) if kept else None


def aggregate(scores: list[Score]) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """{variant: {budget: {category|"all": metrics}}}, the metrics.json shape."""
    groups: dict[tuple[str, str, str], list[Score]] = defaultdict(list)
    for s in scores:
        groups[(s.variant, str(s.budget), str(s.category))].append(s)
        groups[(s.variant, str(s.budget), "all")].append(s)
    out: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for (variant, budget, category), group in sorted(groups.items()):
        out.setdefault(variant, {}).setdefault(budget, {})[category] = {
            "gold_ref_cov": _mean([s.gold_ref_cov for s in group]),
            "answer_recall": _mean([s.answer_recall for s in group]),
            "answer_n": sum(s.answer_recall is not None for s in group),
            "all_ref_rate": _mean([float(s.all_ref) for s in group]),
            "cited_not_present": _mean([s.cited_not_present for s in group]),
            "traj_recall": _mean([s.traj_recall for s in group]),
            "cand_universe": _mean([s.candidates for s in group]),
            "context_tokens": _mean([float(s.tokens) for s in group]),
            "n": len(group),
        }
    return out
