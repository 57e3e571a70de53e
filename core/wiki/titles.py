"""Page titles a person would read: the noun phrase that sets a group of threads apart.

Trajectory titles are single salient words (`continue`, `put`, `drew`): often verbs. A title
here is taken from the group's own messages: noun phrases are the words right after a
determiner or possessive ("my pottery class", "the adoption agency") whose head can be a
noun (lemminflect's lexicon: "gorgeous", "easier", "found" cannot), skipping generic nouns.
Each phrase is scored by how many of the group's snapshots use it times how rare it is
among the other threads (tf·idf over the trajectories compared), so the title says what sets
the group apart from its neighbours.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

from arborwiki.core.extract.lexicon import DATE_WORDS, NUMERALS, STOP_WORDS
from arborwiki.core.records import Snapshot, Trajectory
from arborwiki.core.words import LETTER, can_be_adjective, can_be_noun, only_noun

_PHRASE = re.compile(
    r"\b(?:a|an|the|my|our|your|his|her|their|this|these|those|some|new)\s+"
    rf"({LETTER}(?:{LETTER}|['\-])+)(?:\s+({LETTER}(?:{LETTER}|['\-])+))?"
)
# Words that follow a determiner but name nothing: generic nouns, and adjectives the lexicon
# also lists as nouns ("a nice one", "the old days").
NOT_A_SUBJECT = frozenset(
    """great good new big little lot lots few same other whole best first last next huge real
    nice amazing awesome special tough hard long bit different important beautiful fun
    wonderful safe strong positive lovely perfect cool happy old young small short time times
    way ways thing things day days moment moments kind sort part end idea ideas stuff one ones
    people person world life week weeks weekend year years month months hour hours today
    tonight coming upcoming place piece love
    support feeling feelings experience reminder chance journey lot bunch couple memories
    memory amount rest pic pics photo photos picture pictures bye blast difference try shot
    look""".split()
)  # the last five: objects of idioms ("had a blast", "make a difference", "give it a try")
# Snapshots of the group that must use a phrase before it can name the group (groups of
# fewer than SMALL_GROUP snapshots: one use is enough).
MIN_USES = 2
SMALL_GROUP = 3


def _words_ok(word: str) -> bool:
    """A word that may name a subject: no stop word, generic noun, number word ("the
    fifth", "eighteen months" titled a travel thread "eighteen and fifth"), month or weekday
    ("february and flight")."""
    return (
        len(word) > 2
        and "'" not in word
        and word not in STOP_WORDS
        and word not in NOT_A_SUBJECT
        and word not in NUMERALS
        and word not in DATE_WORDS
    )


@lru_cache(maxsize=1 << 12)
def noun_phrases(text: str) -> frozenset[str]:
    """Head nouns after a determiner, and the two-word phrase when its second word is a noun
    ("gorgeous sunset", "pottery class"). Cached: a user's wiki asks again for each page
    group that compares against the snapshot's trajectory (topics, entity shards)."""
    found = set()
    for first, second in _PHRASE.findall(text.lower()):
        if not _words_ok(first):
            continue
        pair = (
            second
            and _words_ok(second)
            and not second.endswith(("ed", "ly", "ing"))
            and can_be_noun(second)
        )
        if pair:
            found.add(f"{first} {second}")
        # Before a noun, a word that can be an adjective modifies it: "a local dog shelter"
        # is about the shelter, not about "local".
        if can_be_noun(first) and not (pair and can_be_adjective(first)):
            found.add(first)
    return frozenset(found)


def _phrases_of(t: Trajectory, snapshots: dict[str, Snapshot]) -> list[frozenset[str]]:
    return [noun_phrases(snapshots[s].summary) for s in t.snapshot_ids if s in snapshots]


def _keyword_nouns(t: Trajectory, snapshots: dict[str, Snapshot]) -> list[frozenset[str]]:
    """The nouns among each snapshot's keywords: title material for a thread whose messages
    put no determiner before what they are about ("loving the photography, so much easier")."""
    return [
        frozenset(w for w in snapshots[s].keywords if _words_ok(w) and only_noun(w))
        for s in t.snapshot_ids
        if s in snapshots
    ]


PhraseSource = Callable[[Trajectory, dict[str, Snapshot]], list[frozenset[str]]]


def distinctive_phrases(
    group: Iterable[Trajectory],
    universe: Iterable[Trajectory],
    snapshots: dict[str, Snapshot],
    limit: int = 2,
    names: frozenset[str] = frozenset(),
) -> list[str]:
    """The group's best noun phrases by tf·idf against `universe` (trajectories as documents);
    when its messages hold none, its best keyword nouns the same way. No phrase holds a word
    of the group's entities or of `names`: those have pages of their own."""
    group, universe = list(group), list(universe)
    for source in (_phrases_of, _keyword_nouns):
        chosen = _distinctive(group, universe, snapshots, source, limit, names)
        if chosen:
            return chosen
    return []


def _distinctive(
    group: list[Trajectory],
    universe: list[Trajectory],
    snapshots: dict[str, Snapshot],
    source: PhraseSource,
    limit: int,
    names: frozenset[str],
) -> list[str]:
    per_traj = {t.trajectory_id: source(t, snapshots) for t in universe}
    df: Counter[str] = Counter()
    for snaps in per_traj.values():
        df.update(set().union(*snaps) if snaps else set())
    uses: Counter[str] = Counter()
    size = 0
    for t in group:
        for phrases in per_traj.get(t.trajectory_id) or source(t, snapshots):
            uses.update(phrases)
            size += 1
    least = MIN_USES if size >= SMALL_GROUP else 1
    n = max(len(per_traj), 1)
    names = names | {w for t in group for e in t.entities for w in e.lower().split()}
    usable = {p: c for p, c in uses.items() if not names & set(p.split())}
    if not any(c >= least for c in usable.values()):
        least = 1  # a thread whose phrases are all used once: its rarest one still says more
    scored = sorted(
        (-(c * math.log(1 + n / max(df[p], 1)) * (1.5 if " " in p else 1.0)), p)
        for p, c in usable.items()
        if c >= least
    )
    chosen: list[str] = []
    for _, phrase in scored:
        if any(phrase in c or c in phrase for c in chosen):
            continue
        chosen.append(phrase)
        if len(chosen) == limit:
            break
    return chosen


def phrase_title(phrases: list[str], fallback: str) -> str:
    return " and ".join(phrases) if phrases else fallback
