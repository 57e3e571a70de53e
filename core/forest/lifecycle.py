"""Claim lifecycle C_t = Apply(C_{t−1}, O_t), O ⊆ {ADD, REVISE, DEPRECATE} (SPEC §4).

Append-only: an outdated claim is marked "revised" or "deprecated" and points to the
claim that replaced it; nothing is deleted, so "what did the user believe before, and
which message changed it?" stays answerable. A claim only sees the claims of its own
branch: its trajectory and, for a fork, the path it was forked from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.records import Claim, ClaimOp, ClaimStatus, ForestNode, Snapshot


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def claim_tokens(claim: Claim) -> set[str]:
    """Subject/attribute/value word tokens: what the keyword prefilter compares."""
    text = f"{claim.subject} {claim.attribute} {claim.value}".lower()
    return set(re.findall(r"\w+", text))


@dataclass(frozen=True)
class Decision:
    op: ClaimOp
    target_id: str | None = None


class Judge(Protocol):
    """Decides ADD (a parallel fact) or REVISE (a correction of one candidate).

    `candidates` are at most `max_prefilter` earlier active claims, best overlap first.
    An LLM judge with a JSON schema can implement this later; `RuleJudge` is the default.
    """

    def decide(self, claim: Claim, candidates: list[Claim]) -> Decision: ...


class RuleJudge:
    """REVISE the best candidate when the new claim signals a change ('now', 'switched
    to', 'actually') and talks about the same subject with an overlapping attribute;
    otherwise the claim is a parallel fact (ADD)."""

    def decide(self, claim: Claim, candidates: list[Claim]) -> Decision:
        if not claim.change_cue:
            return Decision("ADD")
        attr = set(re.findall(r"\w+", claim.attribute.lower()))
        for old in candidates:
            same_subject = _norm(old.subject) == _norm(claim.subject)
            if same_subject and attr & set(re.findall(r"\w+", old.attribute.lower())):
                return Decision("REVISE", old.claim_id)
        return Decision("ADD")


def apply_lifecycle(
    snapshots: list[Snapshot],
    nodes: list[ForestNode],
    cfg: LifecycleConfig,
    judge: Judge | None = None,
) -> list[Claim]:
    """Every claim of every placed snapshot, in time order, with trajectory, op and status.

    1. literal match (same subject+attribute+value) of an earlier active claim whose state
       changed (now negated, or a change cue) → DEPRECATE the old one;
    2. same subject+attribute, other value, and a change cue or a single-valued attribute
       → REVISE the old one;
    3. else the judge sees ≤ max_prefilter earlier claims with overlapping tokens.
    Claims see their own branch and its inherited path, except for single-valued attributes
    (where someone lives, works, ...): a person has one such state at a time whichever
    thread it was mentioned in, so those revise user-wide.
    Inputs are not mutated; claims come back as copies.
    """
    judge = judge or RuleJudge()
    by_snapshot = {s.snapshot_id: s for s in snapshots}
    by_node = {n.node_id: n for n in nodes}
    single = {_norm(a) for a in cfg.single_valued_attributes}
    claims_of_node: dict[str, list[Claim]] = {}
    out: list[Claim] = []
    by_id: dict[str, Claim] = {}
    for node in sorted(nodes, key=lambda n: n.seq):
        visible = [c for a in _ancestors(node, by_node) for c in claims_of_node.get(a, [])]
        own: list[Claim] = []
        for original in by_snapshot[node.snapshot_id].claims:
            claim = original.model_copy(deep=True)
            claim.trajectory_id = node.trajectory_id
            active = [c for c in visible + own if by_id[c.claim_id].status == "active"]
            seen = {c.claim_id for c in active}
            states = [c for c in out if _norm(c.attribute) in single and c.claim_id not in seen]
            _place(
                claim,
                active,
                [c for c in states if c.status == "active"],
                single,
                cfg,
                judge,
                by_id,
            )
            own.append(claim)
            by_id[claim.claim_id] = claim
            out.append(claim)
        claims_of_node[node.node_id] = own
    return out


def _ancestors(node: ForestNode, by_node: dict[str, ForestNode]) -> list[str]:
    """Node ids strictly above `node`, root first: the claims its branch inherited."""
    chain: list[str] = []
    current = node.parent_id
    while current is not None:
        chain.append(current)
        current = by_node[current].parent_id
    return chain[::-1]


def _place(
    claim: Claim,
    active: list[Claim],
    states: list[Claim],
    single: set[str],
    cfg: LifecycleConfig,
    judge: Judge,
    by_id: dict[str, Claim],
) -> None:
    subj, attr, value = _norm(claim.subject), _norm(claim.attribute), _norm(claim.value)
    pool = active + states if attr in single else active
    same_sa = [c for c in pool if (_norm(c.subject), _norm(c.attribute)) == (subj, attr)]
    literal = [c for c in same_sa if _norm(c.value) == value]
    changed = claim.negated or claim.change_cue
    if literal and changed:
        _supersede(claim, literal[-1], "DEPRECATE", "deprecated")
        return
    if literal:
        return  # a restatement: a parallel ADD, the earlier claim stays active
    others = [c for c in same_sa if not c.negated]
    if others and not claim.negated and (claim.change_cue or attr in single):
        _supersede(claim, others[-1], "REVISE", "revised")
        return
    mine = claim_tokens(claim)
    overlap = [(len(mine & claim_tokens(c)), i, c) for i, c in enumerate(active)]
    ranked = sorted((o for o in overlap if o[0] > 0), key=lambda o: (-o[0], -o[1]))
    candidates = [c for _, _, c in ranked[: cfg.max_prefilter]]
    decision = judge.decide(claim, candidates)
    allowed = {c.claim_id for c in candidates}
    if decision.op != "ADD" and decision.target_id in allowed:
        status: ClaimStatus = "revised" if decision.op == "REVISE" else "deprecated"
        _supersede(claim, by_id[decision.target_id or ""], decision.op, status)


def _supersede(claim: Claim, old: Claim, op: ClaimOp, status: ClaimStatus) -> None:
    old.status = status
    old.superseded_by = claim.claim_id
    claim.op = op
    claim.supersedes = old.claim_id
