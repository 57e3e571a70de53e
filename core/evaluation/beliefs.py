"""Scoring the claim lifecycle against labelled belief changes (`arborwiki evaluate beliefs`).

A label names a user, the belief's old value, its new one (or none: the state ended), the
message(s) that stated the old state and the one(s) that changed it, and a question whose
answer is what holds now. Per change it asks what a reader of the store would get:

- event: a REVISE/DEPRECATE claim sourced at the changing message that supersedes a claim
  holding the old value (the lifecycle recorded *what changed* and *which turn changed it*);
  for an ended state that only the changing message states ("I lost my job at …"), a claim
  there that ends it (negated, with a change cue) in the label's slot;
- current: the question's evidence states the new value in a `now:`/`fact:` line (for an
  ended state: a `changed:` line shows the old value ended);
- stale: a `now:`/`fact:` line states the old value as current (the harm to avoid);
- history: `history --about <question>` holds the old → new chain in its first three.

Precision reads every REVISE/DEPRECATE of the labelled users: one sourced at no labelled
changing message is a false event; those sourced at a control or distractor are false
updates. Values are compared by their content words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from arborwiki.core.query.result import ClaimLine, HistoryResult, QueryResult
from arborwiki.core.records import Claim
from arborwiki.core.slots import slot_of
from arborwiki.core.words import content_words


def mentions(text: str, value: str | None) -> bool:
    """Whether `text` holds every content word of `value` (a value of none is never held)."""
    wanted = content_words(value or "")
    return bool(wanted) and wanted <= content_words(text)


@dataclass(frozen=True)
class ChangeLabel:
    user_id: str
    slot: str
    kind: str  # "revise" | "end"
    family: str
    old: str
    new: str | None
    old_message_ids: tuple[str, ...]
    change_message_ids: tuple[str, ...]
    question: str
    history_about: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> ChangeLabel:
        return cls(
            user_id=row["user_id"],
            slot=row["slot"],
            kind=row["kind"],
            family=row.get("family") or row["slot"],
            old=row["old"],
            new=row.get("new"),
            old_message_ids=tuple(row.get("old_message_ids") or ()),
            change_message_ids=tuple(row["change_message_ids"]),
            question=row["question"],
            history_about=row.get("history_about") or row["question"],
        )


@dataclass
class ChangeOutcome:
    label: ChangeLabel
    event: bool
    current: bool
    stale: bool
    history: bool
    history_chars: int
    said: list[str] = field(default_factory=list)  # the claim lines the question got


@dataclass
class BeliefScores:
    outcomes: list[ChangeOutcome]
    events: int  # REVISE/DEPRECATE claims of the labelled users
    false_events: list[Claim]
    probes: int
    false_updates: list[Claim]

    def table(self) -> list[dict[str, Any]]:
        """One row per phrasing family, then "all"."""
        groups: dict[str, list[ChangeOutcome]] = defaultdict(list)
        for o in self.outcomes:
            groups[o.label.family].append(o)
        rows = [_row(name, group) for name, group in sorted(groups.items())]
        return [*rows, _row("all", self.outcomes)]

    def summary(self) -> dict[str, Any]:
        n = len(self.outcomes)
        true_events = self.events - len(self.false_events)
        return {
            "changes": n,
            "event_recall": _share(sum(o.event for o in self.outcomes), n),
            "event_precision": _share(true_events, self.events) if self.events else None,
            "current_stated": _share(sum(o.current for o in self.outcomes), n),
            "stale_as_current": sum(o.stale for o in self.outcomes),
            "stale_share": _share(sum(o.stale for o in self.outcomes), n),
            "history_top3": _share(sum(o.history for o in self.outcomes), n),
            "history_max_chars": max((o.history_chars for o in self.outcomes), default=0),
            "events": self.events,
            "false_events": len(self.false_events),
            "probes": self.probes,
            "false_updates": len(self.false_updates),
            "false_update_share": _share(len(self.false_updates), self.probes),
        }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _row(name: str, group: list[ChangeOutcome]) -> dict[str, Any]:
    n = len(group)
    return {
        "family": name,
        "n": n,
        "event": _share(sum(o.event for o in group), n),
        "current": _share(sum(o.current for o in group), n),
        "stale": sum(o.stale for o in group),
        "history_top3": _share(sum(o.history for o in group), n),
    }


_DENIES = re.compile(r"\b(?:no longer|not|never)\b|n't\b", re.I)


def _stated(line: ClaimLine) -> bool:
    """A line that says its value holds: `now:` or `fact:`, and not "… no longer …"."""
    return line.status == "active" and not _DENIES.search(line.text)


def score_change(
    label: ChangeLabel,
    claims: list[Claim],
    result: QueryResult,
    history: HistoryResult,
    history_text: str,
) -> ChangeOutcome:
    by_id = {c.claim_id: c for c in claims}
    changed = set(label.change_message_ids)

    def ends_old(c: Claim) -> bool:
        old = by_id.get(c.supersedes or "")
        return (
            c.op in {"REVISE", "DEPRECATE"}
            and bool(changed & set(c.source_message_ids))
            and old is not None
            and mentions(f"{old.attribute} {old.value}", label.old)
        )

    def ends_unstated(c: Claim) -> bool:
        """An old state said only in the changing message ("I lost my job at …", "I used to
        play drums"): the change is a claim that ends it there, in the label's slot."""
        slot = slot_of(c.attribute, c.value)
        return (
            c.negated
            and c.change_cue
            and bool(changed & set(c.source_message_ids))
            and (
                mentions(f"{c.attribute} {c.value}", label.old)
                or bool(slot and slot.name == label.slot)
            )
        )

    unstated = set(label.old_message_ids) <= changed
    event = any(
        ends_old(c) or (unstated and label.kind == "end" and ends_unstated(c)) for c in claims
    )
    lines = result.claims
    stale = any(_stated(line) and mentions(line.text, label.old) for line in lines)
    if label.kind == "revise":
        current = any(_stated(line) and mentions(line.text, label.new) for line in lines)
        current = current or any(
            line.replaced_by is not None and mentions(line.replaced_by, label.new) for line in lines
        )
    else:
        current = any(not _stated(line) and mentions(line.text, label.old) for line in lines)
    top = history.chains[:3]
    in_history = any(
        any(mentions(f"{v.value} {v.text}", label.old) for v in chain.versions)
        and any(
            v.op in {"REVISE", "DEPRECATE"} and changed & set(v.source_message_ids)
            for v in chain.versions
        )
        for chain in top
    )
    return ChangeOutcome(
        label=label,
        event=event,
        current=current,
        stale=stale,
        history=in_history,
        history_chars=len(history_text),
        said=[line.labelled() for line in lines],
    )


def score_beliefs(
    labels: Iterable[ChangeLabel],
    probe_ids: dict[str, set[str]],
    claims_of: Callable[[str], list[Claim]],
    ask: Callable[[str, str], QueryResult],
    history: Callable[[str, str], tuple[HistoryResult, str]],
) -> BeliefScores:
    """Every label scored; `probe_ids` are each user's control and distractor message ids."""
    labels = list(labels)
    by_user: dict[str, list[ChangeLabel]] = defaultdict(list)
    for label in labels:
        by_user[label.user_id].append(label)
    outcomes, false_events, false_updates, events = [], [], [], 0
    probes = sum(len(ids) for ids in probe_ids.values())
    for user_id in sorted(set(by_user) | set(probe_ids)):
        claims = claims_of(user_id)
        changing = {m for label in by_user[user_id] for m in label.change_message_ids}
        probing = probe_ids.get(user_id, set())
        for c in claims:
            if c.op not in {"REVISE", "DEPRECATE"}:
                continue
            events += 1
            sources = set(c.source_message_ids)
            if not sources & changing:
                false_events.append(c)
            if sources & probing:
                false_updates.append(c)
        for label in by_user[user_id]:
            result = ask(user_id, label.question)
            found, text = history(user_id, label.history_about)
            outcomes.append(score_change(label, claims, result, found, text))
    return BeliefScores(outcomes, events, false_events, probes, false_updates)
