"""Small text rules the wiki shares: entity names, item values, slugs, id order, dates."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from arborwiki.core.extract.claims import MAX_VALUE_WORDS
from arborwiki.core.records import Claim
from arborwiki.core.words import (
    MODAL_VERBS,
    NON_FINAL_WORDS,
    normalize_phrase,
    noun_word,
    third_singular,
    verb_lemma,
)

# Determiners dropped from item values so "a dog" and "dog" count as one item.
LEADING_DETERMINERS = frozenset("a an the my our his her their some this that these those".split())


def normalize_item(text: str) -> str:
    """An inventory item value: a normalized name without a leading determiner."""
    words = normalize_phrase(text).split()
    while len(words) > 1 and words[0] in LEADING_DETERMINERS:
        words = words[1:]
    return " ".join(words)


_LEADING_CONJUNCTIONS = ("and", "but", "or", "so")
# A value that starts with a pronoun is the rest of a clause ("it a while back", "them yet"),
# not a thing to list.
_PRONOUNS = frozenset("i me we us you he him she it they them".split())


def inventory_item(value: str) -> str:
    """An item as its inventory lists it: a whole phrase said of the user in the third person
    ("painting in my room to remind me to stay true and" → "painting in their room to remind
    them to stay true"), normalized so each item is counted once; none for the rest of a
    clause that starts with a pronoun ("it a while back")."""
    words = third_person(_whole(value)).split()
    while len(words) > 1 and words[0].lower() in _LEADING_CONJUNCTIONS:
        words = words[1:]  # before the determiners: "and the dog" is "dog"
    item = normalize_item(" ".join(words))
    return "" if item.split(" ", 1)[0] in _PRONOUNS else item


def slugify(text: str) -> str:
    """ASCII, lowercase, hyphens: a file name both Obsidian and plain Markdown follow."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "page"


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Order ids the way people read them: D1:3 before D1:10."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def sorted_ids(ids: Iterable[str]) -> list[str]:
    """Distinct ids in natural order, so output never depends on input order."""
    return sorted(set(ids), key=natural_key)


def claim_day(claim: Claim) -> str:
    """When a claim held: its event time, else the day it was recorded."""
    return (claim.event_time or claim.recorded_at.date()).isoformat()


@lru_cache(maxsize=256)
def trigger_pattern(triggers: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled regex per lexicon: any trigger as a whole word or phrase, plural 's' allowed
    ("dogs" matches "dog"). Texts must be passed through `normalize_phrase` first."""
    words = sorted({normalize_phrase(t) for t in triggers} - {""}, key=lambda w: (-len(w), w))
    if not words:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")s?\b")


# First person in a claim's value, said of its subject in the third person. The subject's
# gender is not known, so singular "they".
THIRD_PERSON = {
    "i": "they",
    "me": "them",
    "my": "their",
    "mine": "theirs",
    "myself": "themself",
    "we": "they",
    "us": "them",
    "our": "their",
    "ours": "theirs",
    "ourselves": "themselves",
    "i'm": "they're",
    "i've": "they've",
    "i'd": "they'd",
    "i'll": "they'll",
    "we're": "they're",
    "we've": "they've",
}
_TOKEN = re.compile(r"[\w'’]+|[^\w\s]")


def third_person(text: str) -> str:
    """`text` with first-person words said of someone else ("my daughter" → "their
    daughter"); other words and spacing as they were."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        new = THIRD_PERSON.get(word.lower().replace("’", "'"))
        if new is None:
            return word
        return new.capitalize() if word[0].isupper() and word.lower() != "i" else new

    return re.sub(r"[\w'’]+", swap, text)


# Where a value the extractor cut at MAX_VALUE_WORDS can end: before its last clause.
_CLAUSE_BREAK = re.compile(r",|;|\s(?:and|but|because|so|which|when|while|with)\s")


def value_was_cut(value: str) -> bool:
    """Whether the extractor cut `value` at its word cap mid-phrase, with no earlier clause
    break to end it on ("we can build a strong"): not a whole fact."""
    return len(value.split()) >= MAX_VALUE_WORDS and not _clause_prefix(value)


def _clause_prefix(value: str) -> str:
    """`value` up to its last clause break, where that leaves at least three words."""
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(value)]
    head = value[: breaks[-1]] if breaks else ""
    return head if len(head.split()) >= 3 else ""


def _whole(value: str) -> str:
    """A value as a whole phrase: a value cut at the extractor's word cap ends at its last
    clause break; no article, determiner or conjunction left at its end ("in hopes of
    growing the" → "in hopes of growing"); no closing punctuation."""
    if len(value.split()) >= MAX_VALUE_WORDS:
        value = _clause_prefix(value) or value
    words = value.strip().rstrip(".,;:!?\"'”’-–— ").split()
    while len(words) > 1 and words[-1].lower().strip(",;:") in NON_FINAL_WORDS:
        words.pop()
    return _closed_quotes(" ".join(words).rstrip(",;:"))


def _closed_quotes(text: str) -> str:
    """A title quoted at the value's end keeps its closing mark: `loves "Home Alone"`, not
    `loves "Home Alone`."""
    if text.count('"') % 2:
        return f'{text}"'
    return f"{text}”" if text.count("“") > text.count("”") else text


def display_name(subject: str) -> str:
    """A claim subject as a reader writes it: "caroline's dad" → "Caroline's dad"."""
    words = subject.split()
    return " ".join([words[0][:1].upper() + words[0][1:], *words[1:]]) if words else subject


# "will n't" → "won't", "ca n't" → "can't"; "do n't" → "don't".
_CONTRACTED = re.compile(r"\b(\w+) n't\b")
_CONTRACTIONS = {"will": "wo", "wo": "wo", "can": "ca", "ca": "ca", "shall": "sha"}


def _verb(attribute: str, negated: bool) -> str:
    """The claim's verb said of its subject: "need" → "needs"; negated, "is not",
    "did not work" (said "worked"), "does not like" (said "likes")."""
    words = attribute.split()
    if not words:
        return attribute
    if words[0] in MODAL_VERBS and len(words) > 1 and _progressive(words[1]):
        words.insert(1, "be")  # "I'll be teaching" kept as "will teaching"
    if not negated:
        return " ".join([third_singular(words[0]), *words[1:]])
    if words[0] in {"is", "was", "are", "were", "has", "have", "had", *MODAL_VERBS}:
        head = "cannot" if words[0] == "can" else f"{words[0]} not"
        return " ".join([head, *words[1:]])
    lemma = verb_lemma(words[0])
    aux = "does" if words[0].endswith("s") and lemma != words[0] else "did"
    return " ".join([aux, "not", lemma, *words[1:]])


def _progressive(word: str) -> bool:
    """An -ing form of a verb ("teaching"), not a word that ends so ("bring", "thing")."""
    return word.endswith("ing") and verb_lemma(word) != word


def no_longer(attribute: str, ended: bool = True) -> str:
    """An attribute said of a state that stopped ("is no longer dating", "no longer works
    at"), or, `ended` False, of one denied ("is not dating", "not works at")."""
    word = "no longer" if ended else "not"
    head, _, rest = attribute.partition(" ")
    if head in {"is", "are", "was"}:
        return f"{head} {word} {rest}".rstrip()
    return f"{word} {attribute}"


def fact_text(claim: Claim) -> str:
    """A claim as a whole clause in the third person with its day: "Caroline went to an
    LGBTQ+ counseling workshop (2023-06-23)"; a noun attribute reads as a possession
    ("Caroline's goal is to give kids a loving home"); the claim that deprecated a belief
    as its end ("John no longer plays drums", said as "I used to play drums")."""
    subject = display_name(claim.subject)
    value = third_person(_whole(claim.value))
    attribute = third_person(claim.attribute.strip())
    if attribute.split(" ")[0].endswith("ing"):  # "going to", "meeting": said with "am"
        attribute = f"is {attribute}"
    if attribute and " " not in attribute and noun_word(attribute):
        clause = f"{subject}'s {attribute} is {'not ' if claim.negated else ''}{value}"
    elif claim.op == "DEPRECATE" or claim.negated and claim.change_cue:  # an ended belief
        clause = f"{subject} {no_longer(attribute)} {value}"
    else:
        clause = f"{subject} {_verb(attribute, claim.negated)} {value}"
    clause = _CONTRACTED.sub(
        lambda m: _CONTRACTIONS.get(m.group(1).lower(), m.group(1)) + "n't",
        " ".join(clause.split()),
    )
    return f"{clause} ({claim_day(claim)})"


def fact_line(claim: Claim, sources: Iterable[str] | None = None) -> str:
    """`fact_text` with its sources cited: "… (2023-06-23) [D4:13]"."""
    ids = sorted_ids(claim.source_message_ids if sources is None else sources)
    return f"{fact_text(claim)} {' '.join(f'[{m}]' for m in ids)}".rstrip()
