"""Claim lifecycle C_t = Apply(C_{t−1}, O_t), O ⊆ {ADD, REVISE, DEPRECATE}.

Append-only: an outdated claim is marked "revised" or "deprecated" and points to the
claim that replaced it; nothing is deleted, so "what did the user believe before, and
which message changed it?" stays answerable. A claim of a belief slot (core/slots.py:
home, job, car, diet, relationship, pets, hobbies) is compared with the person's current
beliefs in that slot whichever thread said them (`slot_decision`); a correction ("I meant
Tuesday, not Monday") revises the latest claim holding the word it corrects
(`corrected`); any other claim only sees the claims of its own branch: its trajectory
and, for a fork, the path it was forked from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from arborwiki.core.config import LifecycleConfig
from arborwiki.core.extract.changes import HYPOTHETICAL, expand
from arborwiki.core.extract.lexicon import ENDING, RELATIONS, REQUEST_BREAK, WEEKDAYS
from arborwiki.core.extract.slot_vocabulary import ANY_DAY, SUBJECT_LEFT_OUT
from arborwiki.core.forest.node_index import GrowingArray, Postings
from arborwiki.core.records import Claim, ClaimOp, ClaimStatus, ForestNode, Snapshot
from arborwiki.core.slots import Slot, is_slot_attribute, slot_of
from arborwiki.core.words import (
    FUNCTION_WORDS,
    STOP_WORDS,
    can_be_noun,
    norm_term,
    past_tense_only,
    words,
)

CORRECTS = "corrects"
"""The attribute of a correction claim; its value is "wrong -> right"."""
CORRECTION_REACH = 40
"""How many of the latest claims a correction looks back through for the word it fixes."""
_WEEKDAY = re.compile(r"\b(?:" + "|".join(sorted(WEEKDAYS)) + r")\b", re.I)
_CLAUSE_BREAK = re.compile(
    r",\s*but\s|;\s|\s[—–-]\s|[.!]\s|" + REQUEST_BREAK + r"|,\s+(?=[^,.!?]*\?\s*$)"
)
"""Where a clause ends: a question after a comma ("With Luna no longer in the house, should I
…?") is its own clause, as in core/extract/slot_vocabulary.py."""
_SPEAKER_SUBJECT = re.compile(r"\b(?:i|we)\b", re.I)
_SPEAKERS = re.compile(r"\b(?:i|we|me|my|our|us)\b", re.I)
_THIRD_PERSON = re.compile(
    r"\b(?:he|she|they|his|her|their|him|them|" + "|".join(sorted(RELATIONS)) + r")\b", re.I
)
_OTHERS = re.compile(r"\bmy (?:" + "|".join(sorted(RELATIONS)) + r")\b", re.I)
_NAME = re.compile(r"\b(?!I\b)[A-Z][\w'-]+(?:\s+(?!I\b)[A-Z][\w'-]+)*")
"""A run of capitalised words ("Honda Civic", "Portland Marathon"), not the pronoun "I"."""


def names_in(text: str) -> set[str]:
    """The runs of capitalised words in `text`, less a capitalised stop word that opens one
    ("With Luna no longer in the house" names "Luna")."""
    out = set()
    for found in _NAME.finditer(text):
        parts = re.sub(r"['’]s\b", "", found.group(0)).split()  # "Robin's …" names Robin
        while parts and parts[0].lower() in STOP_WORDS:
            parts.pop(0)
        if parts:
            out.add(" ".join(parts))
    return out


def said_names(sentence: str) -> set[str]:
    """`names_in(sentence)`, and a run opening the sentence less its first word too ("Buried
    Miso under the apple tree" may name Miso: a capitalised verb opens it)."""
    out = names_in(sentence)
    opening = _NAME.match(sentence)
    if opening and len(words := opening.group(0).split()) > 1:
        out |= names_in(" ".join(words[1:]))
    return out


def value_words(value: str) -> set[str]:
    """A value's content words: what two values of one slot are compared by."""
    return words(value) - FUNCTION_WORDS - {"named", "called"}


def same_value(a: str, b: str) -> bool:
    """One value said twice ("Pixelwick Studio" / "Pixelwick Studio as a designer")."""
    x, y = value_words(a), value_words(b)
    return bool(x) and bool(y) and (x <= y or y <= x)


@dataclass(frozen=True)
class SlotDecision:
    """What a slot claim does to the person's current claims of its slot."""

    op: ClaimOp
    targets: tuple[Claim, ...] = ()  # superseded, latest first


def slot_decision(claim: Claim, slot: Slot, pool: list[Claim]) -> SlotDecision:
    """`pool`: the subject's active claims of `slot`, oldest first.

    - An ending (negated) DEPRECATEs the claims holding its value ("I gave up chess" ends
      "plays chess"); with no value, or none holding it, in a one-value slot, the latest
      affirmed claim ("I was laid off" ends the job); one naming a value none holds ("I left
      Google" while the memory holds a job at Acme) ends nothing it knows.
    - A new value of a one-value slot REVISEs every other value held ("I drive a Tesla now"
      revises "drives a Honda Civic"); the same value again is a restatement (ADD).
    - A set slot (pets, hobbies) only gains a member, unless the member had ended.
    """
    held = [c for c in pool if not c.negated]
    if claim.negated:
        hits = [c for c in held if same_value(c.value, claim.value) or _shares(c, claim)]
        if not hits and slot.single and held and not value_words(claim.value):
            hits = [held[-1]]
        return SlotDecision("DEPRECATE", tuple(reversed(hits))) if hits else SlotDecision("ADD")
    if any(same_value(c.value, claim.value) for c in held):
        return SlotDecision("ADD")
    targets = tuple(
        c
        for c in reversed(pool)
        if (c.negated and same_value(c.value, claim.value)) or (slot.single and not c.negated)
    )
    return SlotDecision("REVISE", targets) if targets else SlotDecision("ADD")


def _shares(old: Claim, ending: Claim) -> bool:
    """An ending naming part of the value: "Rex" ends "dog named Rex"."""
    said = value_words(ending.value)
    return bool(said) and said <= value_words(old.value)


def corrected(claim: Claim, recent: list[Claim]) -> Claim | None:
    """The claim a correction ("wrong -> right") fixes: the latest of `recent` (active,
    newest last) whose value holds the wrong word, the speaker's own first."""
    wrong, _, right = claim.value.partition(" -> ")
    if wrong == ANY_DAY:  # "I meant Wednesday": the latest weekday said, the speaker's first
        hits = [(c, d) for c in recent[-CORRECTION_REACH:] if (d := _WEEKDAY.search(c.value))]
        own = [h for h in hits if norm_term(h[0].subject) == norm_term(claim.subject)]
        if not hits:
            return None
        found, day = (own or hits)[-1]
        claim.value = f"{day.group(0)} -> {right}"
        return found
    wanted = value_words(wrong)
    if not wanted:
        return None
    hits = [c for c in recent[-CORRECTION_REACH:] if wanted <= value_words(c.value)]
    own = [c for c in hits if norm_term(c.subject) == norm_term(claim.subject)]
    return (own or hits or [None])[-1]


def apply_correction(claim: Claim, old: Claim) -> None:
    """`claim` becomes `old` with the wrong word replaced, and revises it."""
    wrong, _, right = claim.value.partition(" -> ")
    pattern = re.compile(rf"\b{re.escape(wrong.strip())}\b", re.IGNORECASE)
    claim.subject, claim.attribute = old.subject, old.attribute
    claim.value = pattern.sub(right.strip(), old.value, count=1)


_MEETING = re.compile(
    r"(?:at )?(?P<what>.+?) on (?P<day>" + "|".join(sorted(WEEKDAYS)) + r")s?", re.I
)
"""A standing meeting claim's value: "running group on Monday" (`has`: the extractor's form,
core/extract/slot_vocabulary.py `_meeting`) or "at book club on Fridays" (`is`)."""
_MEETING_ATTRIBUTES = frozenset({"has", "is"})


def _meeting_of(claim: Claim) -> re.Match[str] | None:
    """The activity and weekday of an affirmed standing-meeting claim, else None."""
    if claim.negated or norm_term(claim.attribute) not in _MEETING_ATTRIBUTES:
        return None
    return _MEETING.fullmatch(claim.value)


def moved_meeting(claim: Claim, held: list[Claim]) -> list[Claim]:
    """The held claims a standing meeting on another day replaces: "running group on
    Saturday" after "running group on Monday" (a meeting said with two days makes no claim,
    so one activity holds one day)."""
    new = _meeting_of(claim)
    if new is None:
        return []
    out = []
    for old in held:
        was = _meeting_of(old)
        if was is None:
            continue
        same = norm_term(was["what"]) == norm_term(new["what"])
        if same and was["day"].lower() != new["day"].lower():
            out.append(old)
    return out


def _head(value: str) -> str:
    """The first word of a claim value that is not a function word ("been playing Apex" →
    "playing")."""
    return next((w for w in norm_term(value).split() if w not in FUNCTION_WORDS), "")


def same_slot(old: Claim, new: Claim) -> bool:
    """Whether two claims with one subject and attribute fill one slot. An attribute with a
    content word names its slot ("lives in", "meets on"); a bare copula or auxiliary ("is",
    "has") does not, and the values say: the same head word ("allergic to cats" / "allergic
    to dogs"), or two nouns ("a teacher" / "a nurse", "Paris" / "Berlin") fill one slot;
    "keen on counseling" and "passionate about creating", or "been playing Apex" and "been
    trying out genres", are two states."""
    if words(new.attribute) - FUNCTION_WORDS:
        return True
    a, b = _head(old.value), _head(new.value)
    return a == b or (can_be_noun(a) and can_be_noun(b))


def replaces(old: Claim, new: Claim) -> bool:
    """Whether a change cue makes `new` replace `old` (one subject and attribute, another
    value). Not when the attribute is a past event ("made", "went to": a later one does not
    undo it), when the new value says the old one at more length ("help people" → "help
    people go through it"), or when the two values fill two slots (`same_slot`)."""
    verb = norm_term(new.attribute).split()[:1]
    if verb and past_tense_only(verb[0]):
        return False
    said = words(old.value) - FUNCTION_WORDS
    if said and said <= words(new.value):
        return False
    return same_slot(old, new)


def claim_tokens(claim: Claim) -> set[str]:
    """Subject/attribute/value word tokens: what the keyword prefilter compares."""
    return words(f"{claim.subject} {claim.attribute} {claim.value}")


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

    def wants_candidates(self, claim: Claim) -> bool:
        """Whether `decide` could say anything but ADD for `claim` (finding candidates
        reads every earlier claim: a judge that would not read them is not asked)."""
        ...


class RuleJudge:
    """REVISE the best candidate when the new claim signals a change ('now', 'switched
    to', 'actually') and talks about the same subject with an overlapping attribute (a
    shared word other than a function word: "taking on" and "working on" share only "on")
    whose value it `replaces`; otherwise the claim is a parallel fact (ADD)."""

    def wants_candidates(self, claim: Claim) -> bool:
        return claim.change_cue

    def decide(self, claim: Claim, candidates: list[Claim]) -> Decision:
        if not claim.change_cue:
            return Decision("ADD")
        attr = words(claim.attribute) - FUNCTION_WORDS
        for old in candidates:
            same_subject = norm_term(old.subject) == norm_term(claim.subject)
            if same_subject and attr & words(old.attribute) and replaces(old, claim):
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
       → REVISE the old one (with a change cue only when the new value `replaces` it);
    3. else the judge sees ≤ max_prefilter earlier claims with overlapping tokens.
    Claims see their own branch and its inherited path, except for single-valued attributes
    (where someone lives, works, ...): a person has one such state at a time whichever
    thread it was mentioned in, so those revise user-wide.
    Inputs are not mutated; claims come back as copies.

    Earlier claims are found through indexes (subject+attribute → claims, token → claims)
    and an ancestor test in O(1) (Euler tour of the forest), not by scanning every earlier
    claim: the result is the same as the scan's, in the same order.
    """
    judge = judge or RuleJudge()
    by_snapshot = {s.snapshot_id: s for s in snapshots}
    single = {norm_term(a) for a in cfg.single_valued_attributes}
    book = _ClaimBook(nodes)
    for node in sorted(nodes, key=lambda n: n.seq):
        for original in by_snapshot[node.snapshot_id].claims:
            # Only the scalars are set below; the one list is copied, the rest is immutable.
            claim = original.model_copy(
                update={
                    "trajectory_id": node.trajectory_id,
                    "source_message_ids": list(original.source_message_ids),
                }
            )
            _place(claim, node.node_id, book, single, cfg, judge)
            book.add(claim, node.node_id)
    return book.claims


class _ClaimBook:
    """Claims placed so far (time order) with what `_place` looks them up by."""

    def __init__(self, nodes: list[ForestNode]) -> None:
        self.claims: list[Claim] = []
        self.keys: list[tuple[str, str, str]] = []  # normalised subject, attribute, value
        self.by_id: dict[str, Claim] = {}
        self.index_of: dict[str, int] = {}
        self._by_key = Postings()  # (subject, attribute) → claim indexes
        self._by_slot = Postings()  # (subject, slot name) → claim indexes
        self._values: dict[str, int] = {}  # normalised value → a small int, for numpy
        self._value = GrowingArray(np.int64)
        self._negated = GrowingArray(np.bool_)
        self._by_token: dict[str, list[int]] = {}
        self._enter, self._leave = _euler_tour(nodes)
        self._node_enter = GrowingArray(np.int64)
        self._node_leave = GrowingArray(np.int64)
        self._active = GrowingArray(np.bool_)

    def add(self, claim: Claim, node_id: str) -> None:
        index = len(self.claims)
        subj, attr, value = (
            norm_term(claim.subject),
            norm_term(claim.attribute),
            norm_term(claim.value),
        )
        self.claims.append(claim)
        self.keys.append((subj, attr, value))
        self.by_id[claim.claim_id] = claim
        self.index_of[claim.claim_id] = index
        self._by_key.add((subj, attr), index)
        slot = slot_of(claim.attribute, claim.value)
        if slot is not None:
            self._by_slot.add((subj, slot.name), index)
        self._value.append(self._values.setdefault(value, len(self._values)))
        self._negated.append(claim.negated)
        for token in claim_tokens(claim):
            self._by_token.setdefault(token, []).append(index)
        self._node_enter.append(self._enter[node_id])
        self._node_leave.append(self._leave[node_id])
        self._active.append(claim.status == "active")

    def slot_pool(self, subj: str, slot: str) -> list[Claim]:
        """The subject's active claims of `slot`, user-wide, oldest first."""
        keyed = self._by_slot.get((subj, slot))
        keyed = keyed[self._active.view()[keyed]] if len(keyed) else keyed
        return [self.claims[i] for i in keyed]

    def active_of(self, subj: str) -> list[Claim]:
        """The subject's active claims, oldest first (a scan: asked only for the rare
        sentence that says something ended)."""
        active = self._active.view()
        return [c for i, c in enumerate(self.claims) if active[i] and self.keys[i][0] == subj]

    def recent_active(self, limit: int) -> list[Claim]:
        """The latest `limit` claims that are still active, oldest first."""
        active = np.flatnonzero(self._active.view())[-limit:]
        return [self.claims[i] for i in active]

    def deactivate(self, claim: Claim) -> None:
        self._active.set(self.index_of[claim.claim_id], False)

    def pool(self, subj: str, attr: str, node_id: str, elsewhere: bool) -> np.ndarray:
        """Indexes of the active claims of (subject, attribute) on `node_id`'s branch, in
        time order, then (`elsewhere`) those of other branches: numpy work over the key's
        claims, however many a long single-session history gives one key."""
        keyed = self._by_key.get((subj, attr))
        if not len(keyed):
            return keyed
        keyed = keyed[self._active.view()[keyed]]
        enter, leave = self._enter[node_id], self._leave[node_id]
        on = (self._node_enter.view()[keyed] <= enter) & (leave <= self._node_leave.view()[keyed])
        return np.concatenate([keyed[on], keyed[~on]]) if elsewhere else keyed[on]

    def last_with_value(self, pool: np.ndarray, value: str) -> int | None:
        """The last claim of `pool` whose normalised value is `value`."""
        vid = self._values.get(value)
        hits = pool[self._value.view()[pool] == vid] if vid is not None else pool[:0]
        return int(hits[-1]) if len(hits) else None

    def last_affirmed(self, pool: np.ndarray) -> int | None:
        """The last claim of `pool` that is not negated."""
        hits = pool[~self._negated.view()[pool]]
        return int(hits[-1]) if len(hits) else None

    def overlapping(self, claim: Claim, node_id: str, limit: int) -> list[Claim]:
        """≤ `limit` active claims of the branch sharing the most tokens with `claim`, later
        ones first on a tie (the scan's order: best overlap, then latest)."""
        counts = np.zeros(len(self.claims), dtype=np.int64)
        for token in claim_tokens(claim):
            hits = self._by_token.get(token)
            if hits:
                counts[hits] += 1
        enter, leave = self._enter[node_id], self._leave[node_id]
        eligible = (
            (counts > 0)
            & self._active.view()
            & (self._node_enter.view() <= enter)
            & (leave <= self._node_leave.view())
        )
        found = np.flatnonzero(eligible)
        order = np.lexsort((-found, -counts[found]))[:limit]
        return [self.claims[i] for i in found[order]]


def _euler_tour(nodes: list[ForestNode]) -> tuple[dict[str, int], dict[str, int]]:
    """Enter/leave times of a depth-first walk: a is an ancestor of (or is) b exactly when
    enter[a] ≤ enter[b] and leave[b] ≤ leave[a]."""
    children: dict[str | None, list[str]] = {}
    for node in sorted(nodes, key=lambda n: n.seq):
        children.setdefault(node.parent_id, []).append(node.node_id)
    enter: dict[str, int] = {}
    leave: dict[str, int] = {}
    clock = 0
    stack: list[tuple[str, bool]] = [(n, False) for n in reversed(children.get(None, []))]
    while stack:
        node_id, done = stack.pop()
        if done:
            leave[node_id] = clock
            clock += 1
            continue
        enter[node_id] = clock
        clock += 1
        stack.append((node_id, True))
        stack.extend((c, False) for c in reversed(children.get(node_id, [])))
    return enter, leave


def _place(
    claim: Claim,
    node_id: str,
    book: _ClaimBook,
    single: set[str],
    cfg: LifecycleConfig,
    judge: Judge,
) -> None:
    """The pool the scan saw — the branch's active claims (time order), then, for a
    single-valued attribute, active claims of other branches — read through the indexes."""
    if norm_term(claim.attribute) == CORRECTS:
        old = corrected(claim, book.recent_active(CORRECTION_REACH))
        if old is not None:
            apply_correction(claim, old)
            _supersede(claim, old, "REVISE", "revised", book)
        return
    subj, attr, value = norm_term(claim.subject), norm_term(claim.attribute), norm_term(claim.value)
    slot = slot_of(claim.attribute, claim.value)
    if slot is not None:
        decision = slot_decision(claim, slot, book.slot_pool(subj, slot.name))
        if decision.targets or not claim.negated:
            _apply_slot(claim, decision, book)
            return
    # An ending the extractor gave no slot, or one that ended nothing in the slot it guessed
    # ("I'm no longer with Tallyhawk" read as a partner): it ends the held values it names.
    ended = held_and_ended(claim, book.active_of(subj)) if says_ended(claim) else []
    if slot is not None and not ended:
        return  # an ADD: the ending of a value the memory does not hold
    if ended:
        claim.attribute, claim.value = ended[-1].attribute, ended[-1].value
        claim.negated = claim.change_cue = True
        for old in ended:
            _supersede(claim, old, "DEPRECATE", "deprecated", book)
        return
    moved = moved_meeting(claim, book.active_of(subj)) if attr in _MEETING_ATTRIBUTES else []
    for old in moved:
        _supersede(claim, old, "REVISE", "revised", book)
    if moved:
        return
    pool = book.pool(subj, attr, node_id, elsewhere=attr in single)
    literal = book.last_with_value(pool, value)
    changed = claim.negated or claim.change_cue
    if literal is not None and changed:
        _supersede(claim, book.claims[literal], "DEPRECATE", "deprecated", book)
        return
    if literal is not None:
        return  # a restatement: a parallel ADD, the earlier claim stays active
    if slot is None and is_slot_attribute(claim.attribute):
        return  # "lives in / the moment": a parallel fact, it revises no home by any path
    last = book.last_affirmed(pool)
    other = book.claims[last] if last is not None else None
    replaced = attr in single or (claim.change_cue and other and replaces(other, claim))
    if other is not None and not claim.negated and replaced:
        _supersede(claim, other, "REVISE", "revised", book)
        return
    if not judge.wants_candidates(claim):
        return  # ADD, and the judge would not read them
    candidates = book.overlapping(claim, node_id, cfg.max_prefilter)
    decision = judge.decide(claim, candidates)
    allowed = {c.claim_id for c in candidates}
    if decision.op != "ADD" and decision.target_id in allowed:
        status: ClaimStatus = "revised" if decision.op == "REVISE" else "deprecated"
        _supersede(claim, book.by_id[decision.target_id or ""], decision.op, status, book)


def _sentence(claim: Claim) -> str:
    return claim.text.partition(": ")[2] or claim.text


def says_ended(claim: Claim) -> bool:
    """Whether `claim`'s sentence says something of the speaker's ended: an ending word
    ("… anymore", "packed in", "ended things", "wrote it off"), said by the speaker, not a
    question, a hypothetical or a relative's news."""
    sentence = expand(_sentence(claim))  # "we aren't an item now": ENDING reads "are not"
    cue = ENDING.search(sentence)
    if cue is None:
        return False
    before = _CLAUSE_BREAK.split(sentence[: cue.start()])[-1]  # "Not sure if I said, but …"
    after = _CLAUSE_BREAK.split(sentence[cue.start() :])[0]  # "…, could you help me …?"
    if "?" in before + after or HYPOTHETICAL.search(before):
        return False
    if not _speakers(sentence):
        # "Luna slipped away": no person in it, a name ending: it tells of that name
        return _THIRD_PERSON.search(sentence) is None and bool(_named_subject(sentence, cue))
    return not (_OTHERS.search(sentence) and not _SPEAKER_SUBJECT.search(sentence))


def _speakers(sentence: str) -> bool:
    """A first person in the sentence, or its subject left out ("Called it quits on
    tennis"): the speaker's own."""
    return bool(_SPEAKERS.search(sentence) or SUBJECT_LEFT_OUT.match(sentence.strip()))


def _named_subject(sentence: str, cue: re.Match[str]) -> set[str]:
    """The name that opens the ending's clause ("Luna slipped away", "Rex was hit by a car
    and didn't pull through")."""
    before = _CLAUSE_BREAK.split(sentence[: cue.start()])[-1]
    run = _NAME.match(before.strip())
    return names_in(run.group(0)) if run else set()


def held_and_ended(claim: Claim, held: list[Claim]) -> list[Claim]:
    """The held claims (oldest first) whose value the ending sentence names: each of its
    names as a whole name there ("Honda Civic"; "Portland" is not named by "the Portland
    Marathon"), or for a value without names its one or two content words ("chess", "rock
    climbing"). Phrasings no rule reads still end what they name, and only what the memory
    holds."""
    sentence = _sentence(claim)
    said = said_names(sentence)
    lowered = {w.lower() for w in re.findall(r"[\w&'-]+", sentence)}
    if not _speakers(sentence):  # "Luna slipped away": only the name it tells of
        expanded = expand(sentence)
        cue = ENDING.search(expanded)
        said, lowered = (_named_subject(expanded, cue) if cue else set()), set()
    own = set(claim.source_message_ids)
    out = []
    for old in held:
        if old.negated or own & set(old.source_message_ids):
            continue
        names = names_in(old.value)
        content = value_words(old.value)
        if names and names <= said or not names and 0 < len(content) <= 2 and content <= lowered:
            out.append(old)
    return out


def _apply_slot(claim: Claim, decision: SlotDecision, book: _ClaimBook) -> None:
    """Every target superseded by `claim`; `claim.supersedes` names the latest."""
    status: ClaimStatus = "deprecated" if decision.op == "DEPRECATE" else "revised"
    for old in reversed(decision.targets):
        _supersede(claim, old, decision.op, status, book)


def _supersede(
    claim: Claim, old: Claim, op: ClaimOp, status: ClaimStatus, book: _ClaimBook
) -> None:
    old.status = status
    old.superseded_by = claim.claim_id
    claim.op = op
    claim.supersedes = old.claim_id
    book.deactivate(old)
