"""Belief slots: which state of a person a claim is about, so a newer value has something to
supersede whatever words said it.

"I moved to Seattle", "we live in Seattle now" and "home is Seattle these days" are one
slot, `home`; a claim of a one-value slot (where someone lives, their job, car, diet,
partner) replaces the person's earlier value in that slot whichever thread said it; a claim
of a set slot (pets, hobbies) adds a member, and only an ending ("I gave up chess", "Rex
passed away") removes one. Claims of no slot (the open remainder: "loves painting",
"went to a concert") are parallel facts, as before. The extractor writes slot claims with
the attribute listed first for their slot ("lives in", "works at", "drives" …), so a
`now:` line reads as a sentence; an LLM extractor is asked for the same attributes.

Documented in docs/beliefs.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arborwiki.core.words import DATE_WORDS, STOP_WORDS, UPPER, unknown_word


@dataclass(frozen=True)
class Slot:
    name: str
    single: bool  # one value at a time (a new one revises) or a set (only an ending removes)
    attributes: frozenset[str]  # claim attributes that fill it
    question_words: frozenset[str]  # words of a question that ask about it


def _slot(name: str, single: bool, attributes: str, words: str) -> Slot:
    return Slot(name, single, frozenset(attributes.split("|")), frozenset(words.split()))


SLOTS: dict[str, Slot] = {
    s.name: s
    for s in [
        _slot(
            "home",
            True,
            "lives in|is based in",
            "live lives living lived home reside resides city town move moved moving based",
        ),
        _slot(
            "job",
            True,
            "works at|works as|works for",
            "work works working job employer career occupation profession company hired fired "
            "quit laid employed",
        ),
        _slot("car", True, "drives", "car cars drive drives driving vehicle truck"),
        _slot(
            "diet",
            True,
            "eats|diet is",
            "diet eat eats eating vegetarian vegan pescatarian meat dairy",
        ),
        _slot(
            "relationship",
            True,
            "is dating|is with|is married to|is engaged to",
            "dating date partner boyfriend girlfriend married engaged single relationship "
            "husband wife fiance fiancee seeing together",
        ),
        _slot(
            "school",
            True,
            "studies at|is studying|studies",
            "study studies studying school college university degree student graduate",
        ),
        _slot("pet", False, "has a pet", "pet pets dog dogs cat cats puppy kitten"),
        _slot(
            "hobby",
            False,
            "plays|does|practices",
            "play plays playing hobby hobbies practice practices doing",
        ),
    ]
}
_SLOT_ATTRIBUTES = frozenset(a for slot in SLOTS.values() for a in slot.attributes)
STATUSES = frozenset("single married engaged divorced separated widowed".split())
"""Relationship states said with "is" ("I'm married now"): the `relationship` slot."""
DIETS = frozenset("vegetarian vegan pescatarian keto paleo gluten-free flexitarian".split())
CAR_WORDS = frozenset(
    "car truck van suv pickup minivan hatchback sedan honda toyota tesla subaru mazda kia ford "
    "volkswagen vw bmw audi hyundai nissan chevy chevrolet jeep volvo mercedes lexus porsche "
    "fiat mini jaguar dodge rivian polestar prius civic corolla camry".split()
)
"""Vehicle words and car makes and models, as people write them in lower case too."""
WORKPLACE_WORDS = frozenset(
    "company firm store shop agency startup restaurant office school hospital bank factory "
    "bakery cafe clinic warehouse hotel bar pub salon studio lab library garage farm "
    "university college council charity nonprofit".split()
)
"""Employers said without a name ("a bakery", "the hospital")."""
SCHOOL_WORDS = frozenset("school college university uni academy institute".split())
DIET_FOODS = frozenset("meat dairy fish pork beef chicken eggs gluten sugar seafood".split())
"""What a diet is about ("I don't eat meat anymore"): other food eaten ("I eat my words", "I
eat a lot of lentils") revises no diet."""
_AFTER_A_PET = frozenset({"named", "called"})
_PUNCTUATION = ",.;:!?()\"'"
_NOT_A_CAR_START = frozenset("for to from with by in on at".split())  # "drive for Uber"
PET_WORDS = frozenset(
    "dog dogs cat cats puppy kitten hamster rabbit bunny parrot turtle pet pets horse".split()
)
_WORD = re.compile(r"[a-z][a-z'-]*")


def slot_of(attribute: str, value: str) -> Slot | None:
    """The slot a claim fills, from its attribute and (for "is"/"has") its value."""
    attribute = " ".join(attribute.lower().split())
    for slot in SLOTS.values():
        if attribute in slot.attributes:
            if not _names_what_fills(slot.name, attribute, value):
                return None
            return slot
    words = set(_WORD.findall(value.lower()))
    if attribute == "is" and words & DIETS:
        return SLOTS["diet"]
    if attribute == "is" and len(words) == 1 and words & STATUSES:
        return SLOTS["relationship"]
    if attribute in {"has", "adopted"} and _keeps_a_pet(value):
        return SLOTS["pet"]
    return None


def is_slot_attribute(attribute: str) -> bool:
    """Whether `attribute` is one a slot lists ("lives in", "drives", …)."""
    return " ".join(attribute.lower().split()) in _SLOT_ATTRIBUTES


def fills_no_slot(attribute: str, value: str) -> bool:
    """A slot's attribute with a value that cannot fill it ("lives in / the moment"): a
    parallel fact, which must not revise the slot's value by its attribute either."""
    return is_slot_attribute(attribute) and slot_of(attribute, value) is None


def _keeps_a_pet(value: str) -> bool:
    """A pet word said as the animal, not as a modifier: "a dog named Rex", "a dog, Rex",
    "two cats and a rabbit", not "a pet peeve" or "a dog bed" (a lower-case content word
    right after it)."""
    tokens = value.split()
    for i, token in enumerate(tokens):
        if token.lower().strip(_PUNCTUATION) not in PET_WORDS:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        word = after.lower().strip(_PUNCTUATION)
        if not after or token[-1] in _PUNCTUATION or after[0].isupper():
            return True
        if word in _AFTER_A_PET or word in STOP_WORDS:
            return True
    return False


def _names_what_fills(slot: str, attribute: str, value: str) -> bool:
    """Whether a value can fill the slot its attribute names: a car, a home, an employer, a
    school (`_names_a`), a diet's food, or an ending's empty value. Generic claims read any
    object as one ("I drive my kids to school", "I live in the moment", "I eat my words"),
    and a one-value slot would take it as the new car, home or diet."""
    if slot == "car":
        return _drives_a_vehicle(value)
    if slot == "home":
        return _names_a(value, frozenset())
    if attribute == "eats":
        return not value.strip() or bool(set(_WORD.findall(value.lower())) & DIET_FOODS)
    if attribute in ("works at", "works for"):
        return _names_a(value, WORKPLACE_WORDS)
    if attribute == "studies at":
        return _names_a(value, SCHOOL_WORDS)
    return True


def _names_a(value: str, kinds: frozenset[str]) -> bool:
    """An empty value (an ending), a name ("Pell & Grant", "Oxford"; "denver" typed in lower
    case: a word the lexicon does not know) or a kind of place ("a bakery", "the community
    college")."""
    words = set(re.findall(r"[a-z]+", value.lower()))
    if not words or words & kinds:
        return True
    names = re.findall(UPPER + r"[\w'&-]+", value)  # "plan B" names nothing
    typed_low = [
        w for w in words - DATE_WORDS if len(w) > 2 and w not in STOP_WORDS and unknown_word(w)
    ]
    return any(n.lower() not in DATE_WORDS for n in names) or bool(typed_low)


def _drives_a_vehicle(value: str) -> bool:
    """A car is named ("a Golf", "Tesla Model 3") or said as one ("my old honda", "a van"),
    or left unsaid by an ending ("I don't have a car at all now"); "I drive my kids to
    school" and "I drive myself crazy" name no car to revise."""
    words = value.lower().split()
    if not words:
        return True
    if words[0] in _NOT_A_CAR_START:
        return False
    return bool(set(words) & CAR_WORDS) or re.search(UPPER, value) is not None


def asked_slots(words: set[str]) -> set[str]:
    """The slots a question's (lower-case) words ask about."""
    return {s.name for s in SLOTS.values() if words & s.question_words}
