"""Slot beliefs read from a sentence's vocabulary, where no template of core/extract/changes.py
matched.

The templates read the phrasings they were written for and few others: a pool of everyday
phrasings written by someone who had never seen them (benchmarks/beliefs.py, `blind`) gave a
belief for 9 of its 78 first statements and changes. People vary the syntax of "where I live"
endlessly ("our flat's in Denver", "we're out in Denver", "Austin is where I call home") far
more than its words: a dwelling or a move, and a place. So this reader asks three things of a
speaker's clause:

- which slot its words are about: a cue word of the slot (`CUES`), or a value that names its
  own slot (a car make, a diet);
- whether it holds a value of that slot's type: a place after "in"/"to"/"from", an employer
  after "at"/"with"/"for", a car make and model, a partner's or a pet's name, a diet word, a
  weekday beside a standing meeting;
- whose state it is: the speaker's (a first person in the sentence, no one else's noun or
  pronoun nearer the value), now (not a question, a hypothetical, a trip, a plan or an
  episode of the past).

Two values of a one-value slot in a clause are a change: the one marked as left ("from",
"goodbye", "not", "used to", "no longer", "instead of") is the old and is said as ended, the
other is the current value. A sentence that only ends a state ("Sam and I separated") is
read here when it names a value of the slot; one that names none is left to the lifecycle
(`says_ended`), which ends only what the memory holds and the sentence names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from arborwiki.core.extract.changes import HYPOTHETICAL, Said, expand
from arborwiki.core.extract.lexicon import ENDING, MONTHS, RELATIONS, REQUEST_BREAK, WEEKDAYS
from arborwiki.core.slots import DIETS, PET_WORDS
from arborwiki.core.words import STOP_WORDS

CUES: dict[str, frozenset[str]] = {
    slot: frozenset(words.split())
    for slot, words in {
        "home": "live lives living lived home flat apartment house studio condo place address "
        "neighbours neighbors neighbourhood neighborhood moved move moving relocated relocating "
        "rent renting rented lease keys bedroom here settled hometown roots resident",
        "job": "job jobs work working worked employer employers employed role position payroll "
        "onboarding boss manager colleagues coworkers office shift shifts hired redundant "
        "company team career contract salary notice joined resigned promoted workplace sack offer "
        "sacked redundancy",
        "partner": "partner boyfriend girlfriend husband wife fiance fiancé fiancee fiancée "
        "together couple dating relationship anniversary engaged married separated divorced "
        "dumped split",
        "pet": "vet vets walkies adopted rescued rescue puppy kitten litter leash fed feeding "
        "pet pets " + " ".join(sorted(PET_WORDS)),
        "meeting": "club class practice group lesson lessons appointment meeting session "
        "rehearsal choir",
    }.items()
}
"""Words that say a clause is about a slot (lower-case). Cars and diets name their own slot."""

_CAR_MAKES = frozenset(
    "honda toyota tesla subaru mazda kia ford volkswagen vw bmw audi hyundai nissan chevy "
    "chevrolet jeep volvo mercedes lexus porsche fiat jaguar dodge rivian polestar skoda "
    "renault peugeot citroen vauxhall opel suzuki mitsubishi buick cadillac gmc chrysler acura "
    "infiniti saab".split()
)
"""Makes whose name is a car's: not Lincoln, Mini, Seat, Ram or Genesis, which name other
things as often ("Lincoln Elementary")."""
_MONTHS = MONTHS | frozenset("christmas easter lent ramadan".split())
_STARTERS = frozenset(
    "hey hi hello oops ugh sorry well so also anyway btw yes no okay ok thanks morning "
    "apologies note update quick random sad big good great heads fyi ps just please since "
    "after before when while once then still honestly".split()
)
"""Capitalised words at a sentence's start that are not names ("Honestly, …")."""

_PARTNERS = frozenset("partner boyfriend girlfriend husband wife fiance fiancee".split())
_DIET_ALIASES = {"plant-based": "vegan", "veggie": "vegetarian"}
"""Everyday names of a diet, read only as what someone is or went ("I've gone plant-based",
"I'm veggie"): not "a veggie burger", "plant-based milk"."""
_BECAME = frozenset("am is are 's been gone went going fully totally strictly now".split())
_PARTNER_NEAR = frozenset(
    "partner boyfriend girlfriend husband wife fiance fiancé fiancee fiancée half dating "
    "married engaged relationship".split()
)
_KINDS = PET_WORDS - {"pet", "pets"}
_PET_NEAR = _KINDS | frozenset("named called vet walk walked walking fed feeding adopted".split())
_CORRECTING = re.compile(
    r"\b(?:wrong|scratch that|typo|i meant|meant to say|misspoke|mixed up|mix up|my mistake"
    r"|my bad|no wait|got that wrong|brain fart|confused|slip of the"
    r"|correction|correcting|let me fix|slip)\b",
    re.I,
)
"""Words that say the speaker is correcting what they just said."""
_TOKEN = re.compile(r"[\w&][\w&'’.-]*[\w]|[\w&]|['’]s\b|[^\w\s]")
_SELF = frozenset("i we me us my our myself ourselves i'm we're i've we've im ive".split())
_THIRD = (
    frozenset("he she they his her their him them hers theirs".split())
    | RELATIONS
    | frozenset(
        "mum mate mates nan gran granny grandad bro sis auntie flatmate housemate colleagues "
        "parents parent folks in-laws".split()
    )
)
_PLACE_BEFORE = frozenset("in from near outside".split())
_PLACE_AFTER_MOVE = frozenset("to into".split())
_EMPLOYER_BEFORE = frozenset("at with for from joined left by".split())
_ENDED_BEFORE = r"(?:no longer|not|never|used to)\b(?:\s+\S+){0,3}"
_THEN_DETERMINER = r"(?:\s+(?:the|a|an|my|our|in))?"
_OLD_PHRASES = re.compile(
    rf"\b(?:{_ENDED_BEFORE}|(?:from|goodbye(?: to)?|bye|than|instead of|rather than|away from"
    rf"|out of|the old|our old|my old|ex){_THEN_DETERMINER})\s*$",
    re.I,
)
"""What marks a value as the one left, just before it ("from Denver", "not the Civic")."""
_PLAN = re.compile(
    r"\b(?:booked in|booked to|test-drive|test drive|thinking of|thinking about|looking at"
    r"|viewing|considering|hoping to|want to|would like to|going to)\b",
    re.I,
)
"""A plan says nothing of today's state ("we're booked in to test-drive a Kia")."""
_STRONG_OLD = re.compile(
    rf"\b(?:{_ENDED_BEFORE}|(?:goodbye(?: to)?|the old|our old|my old){_THEN_DETERMINER})\s*$",
    re.I,
)
"""The markers of `_OLD_PHRASES` that end a lone value ("not", "no longer", "the old")."""
_NOW = re.compile(
    r"\b(?:living|live|lives|now|currently|nowadays|present|is|new|brand-new)\b", re.I
)
"""A word just before a value that says it is the one now ("living in Austin", "our new
Corolla"), when a clause names two and marks neither as left."""
_MOVES = frozenset("moved move moving relocated relocating over back down up out".split())
_TRIP = re.compile(
    r"\b(?:trip|visit|visiting|vacation|got back from|heading to|flying to|fly to|conference"
    r"|layover|passing through|(?:holiday|weekend|week|days|nights?) in (?-i:[A-Z]))",
    re.I,
)
_PAST = re.compile(
    r"\b(?:years ago|when i was|as a (?:kid|child|teenager|student)|in college|at school"
    r"|one summer|summer job|back in (?:19|20)\d\d|growing up|first ever|when i was younger"
    r"|as a younger|my first (?:car|job"
    r"|flat|apartment|house))\b",
    re.I,
)
_PLAY = re.compile(
    r"\b(?P<verb>(?i:play|playing|plays|doing))\s+(?P<v>(?:the\s+)?[a-z][a-z-]+"
    r"(?:\s+(?!with|at|in|on|for|every|a|the|to|and|or|but|so|when)[a-z]+)?)\b"
)
_HOBBY_NOT = frozenset(
    "it that this with a an some games game around along catch up music tag host well fine "
    "okay ok good great much nothing anything something everything the my your our so what "
    "dishes laundry homework shopping work job best same things stuff more less not research "
    "different together again alright professionally".split()
)
"""Words that make "play …"/"do …" no hobby ("do the dishes", "doing well")."""


@dataclass(frozen=True)
class _Value:
    text: str
    start: int  # token index
    end: int  # token index after the value


def _tokens(clause: str) -> list[str]:
    """Words and marks; a possessive or "is" 's stands apart ("Meat's" → "Meat", "'s")."""
    return _TOKEN.findall(re.sub(r"(\w)['’]s\b", r"\1 's", clause))


def _names(tokens: list[str]) -> Iterator[_Value]:
    """Runs of capitalised words ("Mercy General", "Pell & Grant"), not "I", weekdays or
    months, nor a sentence's first word unless a name's next word follows it."""
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if not t[:1].isupper() or t.lower() in _SELF or t.lower() in WEEKDAYS:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and (
            tokens[j][:1].isupper()
            or tokens[j] == "&"
            and j + 1 < len(tokens)
            and tokens[j + 1][:1].isupper()
            or tokens[j][:1].isdigit()
            and tokens[j - 1][:1].isupper()
        ):
            j += 1
        while j - i > 1 and tokens[i].lower() in {"the", "a", "an", "my", "our"}:
            i += 1  # "The Ford Ranger on my drive": the name is "Ford Ranger"
        words = [w for w in tokens[i:j] if w != "&"]
        first = tokens[i].lower()
        leading = i == 0 or tokens[i - 1] in {".", "!", "—", "-", ":", ";", "?"}
        bare = j - i == 1 and (
            first in STOP_WORDS or first in _STARTERS or first.endswith(("ly", "ing", "ed"))
        )
        if not (leading and bare) and first not in _MONTHS and words:
            yield _Value(" ".join(tokens[i:j]).replace(" & ", " & "), i, j)
        i = j


def _is_car(value: str) -> bool:
    return value.split()[0].lower() in _CAR_MAKES


def _owner_is_speaker(tokens: list[str], at: int, slot: str = "") -> bool:
    """Whether the nearest person word before token `at` (else after it) is the speaker's:
    "my brother … bought a house in Denver" is the brother's; with none, the speaker's."""
    low = [t.lower() for t in tokens]
    third = _THIRD - _PARTNERS if slot == "partner" else _THIRD  # "my partner, Sam"
    if slot == "home":  # "my new neighbours in Austin" live where the speaker does
        third = third - {"neighbour", "neighbor"}
    if slot == "job":  # "my manager at Copperline Coffee" works where the speaker does
        third = third - {"boss", "coworker", "colleague", "colleagues"}
    for i in range(at - 1, -1, -1):
        t = low[i]
        if t in _SELF or i == 2 and low[:2] in (["as", "a"], ["as", "an"]):
            return True  # opening "As a teacher for Lincoln Elementary, …": the speaker's
        if slot == "job" and i > 0 and low[i - 1] in {"a", "an"}:
            continue  # "im a teacher, work for X": a role, not a person
        if t in third or t.removesuffix("s") in third:  # "my neighbours"
            return False
    for t in low[at:]:
        if t in _SELF:
            return True
        if t in third or t.removesuffix("s") in third:
            return False
    return True  # no person named: a subject left out ("Picked up a used Kia yesterday")


def _old(tokens: list[str], value: _Value, strong: bool = False) -> bool:
    """Whether the clause marks `value` as the one left ("from Denver", "not the Civic"); a
    lone value only by a word that ends it ("not", "no longer", "used to": "I'm from Denver"
    says where someone grew up, not that they left)."""
    before = " ".join(tokens[max(0, value.start - 4) : value.start])
    after = " ".join(tokens[value.end : value.end + 4]).lower()
    marks = _STRONG_OLD if strong else _OLD_PHRASES
    return bool(marks.search(before)) or after.startswith(_OLD_AFTER)


_OLD_AFTER = (
    "was ",
    "is wrong",
    "is when",
    "is in the past",
    "is very much in the past",
    "is not",
    "'s in the past",
    "is ancient history",
    "'s ancient history",
)
"""What follows a value said as the one left ("Robin is very much in the past")."""


def _pick(tokens: list[str], values: list[_Value]) -> tuple[_Value | None, _Value | None]:
    """(current, old) among a clause's values of one slot: the unmarked one is current, the
    marked one old; two unmarked: the later is current, the earlier old."""
    distinct: dict[str, _Value] = {}
    for v in values:
        distinct.setdefault(v.text.lower(), v)
    found = list(distinct.values())
    if not found:
        return None, None
    if len(found) == 1:
        return (None, found[0]) if _old(tokens, found[0], strong=True) else (found[0], None)
    old = [v for v in found if _old(tokens, v)]
    new = [v for v in found if v not in old]
    if not old:  # "swapped our Civic for a Niro": the later is the one now, unless the
        # earlier is said as now ("living in Austin … than we got in Denver")
        now = [  # "living in Austin … than Denver", "a Phoenix local now … back in Denver"
            v
            for v in new
            if _NOW.search(" ".join(tokens[max(0, v.start - 3) : v.start]))
            or re.search(r"\b(?:now|currently|nowadays)\b", " ".join(tokens[v.end : v.end + 2]))
        ]
        current = now[0] if len(now) == 1 else new[-1]
        return current, next(v for v in new if v is not current)
    return (new[-1] if new else None), old[0]


def _preceded(tokens: list[str], value: _Value, words: frozenset[str]) -> bool:
    return value.start > 0 and tokens[value.start - 1].lower() in words


def _slot_said(
    slot: str, tokens: list[str], names: list[_Value], ended: bool, near: set[str]
) -> list[tuple[str, _Value, bool]]:
    """(attribute, value, is_old) of one slot read from the clause's names."""
    if slot == "home":
        places = [
            _Value(v.text.removesuffix("-based"), v.start, v.end)
            for v in names
            if not _is_car(v.text) and _place(tokens, v)
        ]
        if len(places) == 1 and _preceded(tokens, places[0], {"from"}):
            return []  # "I'm from Denver", "not far from McGee's": no home said
        return _said_pair("lives in", tokens, places, ended)
    if slot == "job":
        employers = [v for v in names if not _is_car(v.text) and _employer(tokens, v)]
        return _said_pair("works at", tokens, employers, ended)
    if slot in {"partner", "pet"}:
        single = [
            v
            for v in names
            if v.end - v.start == 1
            and not _is_car(v.text)
            and not _preceded(tokens, v, _PLACE_BEFORE | {"at", "to"})
            and v.text in near
        ]
        if len(single) != 1:
            return []  # no name beside the slot's words, or several: whose, it does not say
        value = single[0]
        if slot == "pet":
            kind = next((t.lower() for t in tokens if t.lower() in _KINDS), None)
            text = f"{kind.rstrip('s')} named {value.text}" if kind else value.text
            return [("has a pet", _Value(text, value.start, value.end), ended)]
        return [("is with", value, ended)]
    return []


def _place(tokens: list[str], v: _Value) -> bool:
    """A place: after "in"/"from"/"near", after a move's "to", or before "is (where I call)
    home"."""
    if _preceded(tokens, v, _PLACE_BEFORE):
        return True
    if _preceded(tokens, v, _PLACE_AFTER_MOVE) and v.start > 1:
        return tokens[v.start - 2].lower() in _MOVES
    after = [t.lower() for t in tokens[v.end : v.end + 1]]
    if v.text.endswith("-based") or after in (["resident"], ["residents"], ["local"]):
        return True  # "i'm Phoenix-based", "I'm a Richmond resident these days"
    if after == ["home"] and _preceded(tokens, v, frozenset({"call", "calls", "called"})):
        return True  # "I used to call Raleigh home"
    if _preceded(tokens, v, frozenset({"bye", "goodbye", "hello"})):
        return _NEW_HOME.search(" ".join(tokens)) is not None  # "bye Sacramento, hello Raleigh"
    return " ".join(tokens[v.end : v.end + 5]).lower().startswith(("is where", "is home"))


def _employer(tokens: list[str], v: _Value) -> bool:
    """An employer: after "at"/"from", or after "with"/"for"/"joined"/"by"/"left" when a job
    word stands within three words before it ("work for X", "a job with X")."""
    if _preceded(tokens, v, {"at", "from"}):
        return True
    if _preceded(tokens, v, frozenset({"is"})) and tokens[v.start - 2].lower() == "employer":
        return True  # "My employer is Salt House"
    if not _preceded(tokens, v, _EMPLOYER_BEFORE):
        return False
    window = {t.lower() for t in tokens[max(0, v.start - 5) : v.start]}
    after = " ".join(tokens[v.end : v.end + 8]).lower()
    if re.search(r"\bas (?:a|an|their|the|its) ", after):
        return True  # "I've been with Salt House for years, as their chef"
    if _preceded(tokens, v, {"with"}):  # "worked with Python" is a tool, "a job with X" a job
        return bool(window & _JOB_NOUNS)
    if _preceded(tokens, v, {"for"}):  # "work for X", not "a program for LGBTQ youth"
        role = " ".join(tokens[max(0, v.start - 6) : v.start - 1]).lower()
        if re.search(r"\bas (?:a|an|the|their) ", role):
            return True  # "As a teacher for Lincoln Elementary, …"
        return v.start > 1 and tokens[v.start - 2].lower() in {"work", "works", "working", "worked"}
    return bool(window & CUES["job"])


_JOB_NOUNS = frozenset("job jobs role position contract employed employer payroll".split())


def _near(tokens: list[str], v: _Value, words: frozenset[str]) -> bool:
    """A name within three words of one of `words` ("my partner, Sam", "Sam and I", "a dog
    named Rex"): a name elsewhere in the sentence may be anyone's."""
    low = [t.lower() for t in tokens]
    window = low[max(0, v.start - 4) : v.start] + low[v.end : v.end + 4]
    if set(window) & words:
        return True
    return v.end + 1 < len(low) and low[v.end] == "and" and low[v.end + 1] in {"i", "me"}


def _said_pair(
    attribute: str, tokens: list[str], values: list[_Value], ended: bool
) -> list[tuple[str, _Value, bool]]:
    current, old = _pick(tokens, values)
    out = []
    if old is not None:
        out.append((attribute, old, True))
    if current is not None:
        out.append((attribute, current, ended and old is None))
    return out


def _days(tokens: list[str]) -> list[_Value]:
    return [
        _Value(
            t.capitalize().rstrip("s") if t.lower().endswith("days") else t.capitalize(), i, i + 1
        )
        for i, t in enumerate(tokens)
        if t.lower().rstrip("s") in WEEKDAYS or t.lower() in WEEKDAYS
    ]


def _meeting(clause: str, tokens: list[str]) -> Said | None:
    """A standing meeting and its weekday ("Every Monday evening I've got book club"); two
    weekdays, one marked as the wrong one, in a correction ("Friday, not Monday")."""
    low = [t.lower() for t in tokens]
    days = _days(tokens)
    if not days:
        return None
    current, old = _pick(tokens, days)
    if current is not None and old is not None and current.text != old.text:
        return Said("corrects", f"{old.text} -> {current.text}", False, True, clause)
    at = next((i for i, t in enumerate(low) if t in CUES["meeting"]), None)
    if at is None or current is None or len(days) > 1:
        return None
    if current.start > 0 and low[current.start - 1] in {"last", "next", "this", "that"}:
        return None  # "last Friday I went to a council meeting": a date, not a standing day
    start = at
    while (
        start > max(0, at - 2)
        and low[start - 1].isalpha()
        and low[start - 1] not in STOP_WORDS | _NOT_IN_MEETING
        and low[start - 1].rstrip("s") not in WEEKDAYS
    ):
        start -= 1
    return Said("has", f"{' '.join(low[start : at + 1])} on {current.text}", False, False, clause)


SUBJECT_LEFT_OUT = re.compile(
    r"^(?:just |finally |recently |also |so |officially |actually |honestly )?"
    r"(?:\w+ed|got|took|sold|bought|gave|left|made|met|drove|had|found|been|swapped|wrote|went"
    r"|currently|now|still|these days|not an?)\b",
    re.I,
)
"""A sentence whose subject is left out ("Picked up a used Kia yesterday", "Not a meat eater
any more"): the speaker's."""
_MEANT = re.compile(r"\b(?:i meant|i mean|no wait|meant to say)\b", re.I)
ANY_DAY = "a weekday"
"""A correction's wrong word when only the right weekday was said."""
_TRIGGERS = frozenset(
    """vegan vegetarian pescatarian keto paleo gluten-free flexitarian meat carnivore steak bacon
    burgers play playing plays doing monday tuesday wednesday thursday friday saturday sunday
    mondays tuesdays wednesdays thursdays fridays saturdays sundays wrong scratch typo meant
    misspoke mix mixed mistake bad correction correcting wait slip anymore longer more gave
    given quit quitting stopped dropped ditched packed walked stepped cut rid sold swapped
    traded wrote written scrapped totaled totalled rehomed re-homed died passed put goodbye
    broke split separated divorced parted ended called together behind done finished resigned
    laid let redundant fired touched make retired farewell stolen sacked sack bust conked ghost
    bridge hung part-exchanged plant-based veggie brain confused separate item ditch fizzled
    plug kerb curb jacked chucked knocked swore sworn kicked jumped axed slipped thing
    ancient past buried gone broken survive pull""".split()
)
_TRIGGERS |= frozenset().union(*CUES.values()) - frozenset("here place team move".split())
_TRIGGERS |= _CAR_MAKES | {"came", "come", "half"}
"""What a sentence must hold for this reader to find anything: one of `_TRIGGERS` (a slot's
cue but the commonest, a car make, a diet, meat, a hobby verb, a weekday, a word of an
ending or a correction). A name alone reads nothing: most sentences of a chat hold none and
cost a split."""


def _may_read(sentence: str) -> bool:
    low = sentence.lower()
    found = re.findall(r"[^\W\d_][\w'-]*", low)
    if not _TRIGGERS.isdisjoint(found) or "-based" in low or " local" in low:
        return True
    return " as their " in low or _ROLE_AT.search(low) is not None


_ROLE_AT = re.compile(r"\b(?:as|i'm|i am) (?:a|an|the|their) [a-z -]{1,40}?\b(?:at|for|with) ")
"""A role held somewhere ("as a teacher for X", "I'm the paralegal on a small team at X"):
the sentence may say where the speaker works."""


_APPOSITIVE = re.compile(r"\s+[—–]\s+((?:my|our) [\w' ]{1,24}?)\s+[—–]\s+", re.I)
"""'Sam — my partner — keeps nagging me': an aside between dashes is not a clause break."""
_NOT_IN_MEETING = frozenset("my our the got have at is are by up for".split())
_SPLIT = re.compile(
    r"(?<=[.!?;:])\s+|\s+[—–]\s+|\s+-\s+|" + REQUEST_BREAK + r"|,\s+(?=[^,.!?]*\?\s*$)"
)
"""Clause breaks; a request or a closing question after a comma is a clause of its own
("Since Luna is no longer with us, could you help me …?", "Our house in Asheville needs a
new roof, any tips?": the question is the request's)."""
_MEAT = frozenset("meat carnivore meat-eater steak bacon burgers".split())
_EAT = frozenset("eat eats eating ate eater meat-eater carnivore lover lovers".split())


def vocabulary_beliefs(sentence: str, before: str = "") -> list[Said]:
    """The slot beliefs a speaker's sentence states by its words, in clause order; a value a
    clause ends is not held again by a later clause of the same sentence ("We no longer have
    Biscuit; … we found Biscuit another family"). `before`: the same message's sentence
    before it, read for a correction it began ("Actually no, Friday is wrong. My running
    group is on Thursday.")."""
    carried = _carried_correction(before, sentence) or _carried_home(before, sentence)
    if carried is not None:
        return [carried]
    if not _may_read(sentence):
        return []
    text = _APPOSITIVE.sub(r", \1, ", expand(sentence.strip()))
    tokens = _tokens(text)
    words = {t.lower() for t in tokens}
    if _CORRECTING.search(text):
        days = _days(tokens)
        current, old = _pick(tokens, days)
        if current is not None and old is not None and current.text != old.text:
            return [Said("corrects", f"{old.text} -> {current.text}", False, True, text)]
        if len(days) == 1 and _MEANT.search(text) and "?" not in text:
            # "I meant Wednesday.": the weekday said last is the wrong one (the lifecycle
            # finds it: core/forest/lifecycle.py `corrected`)
            return [Said("corrects", f"{ANY_DAY} -> {days[0].text}", False, True, text)]
    if not (words & _SELF or SUBJECT_LEFT_OUT.match(text) or _NEW_HOME.search(text)):
        return []
    cue = ENDING.search(text)
    away = (
        _TRIP.search(text) is not None
        or _PLAN.search(text) is not None
        or _PAST.search(text) is not None
        and cue is None
    )
    beside = _beside(tokens)
    out: list[Said] = []
    clauses = _SPLIT.split(text)
    for clause in clauses:
        if "?" in clause:
            continue
        if (maybe := HYPOTHETICAL.search(clause)) is not None:
            # what follows a hypothetical is not so ("I might move to Denver"); what comes
            # before it still is ("My manager at Copperline Coffee wants a summary")
            clause = clause[: maybe.start()]
        out += _clause_beliefs(clause, words, away, beside)
    held = [s for s in out if not s.negated]
    if (
        cue is not None
        and len(held) == 1
        and held[0].attribute in {"drives", "has a pet", "is with"}
        and not any(cue.group(0) in s.clause for s in out)
        # "…; Robin is very much in the past": the ending is Robin's, not the one value's
        and not _someone_named(next((c for c in clauses if cue.group(0) in c), ""))
    ):
        # "There's no dog at ours any more — Biscuit lives with my ex now", "The Niro failed
        # its test; it got scrapped": the ending is of the one value the sentence names.
        one = held[0]
        out = [
            Said(one.attribute, one.value, True, True, one.clause) if s is one else s for s in out
        ]
    ended = {(s.attribute, s.value.lower()) for s in out if s.negated}
    out = [s for s in out if s.negated or (s.attribute, s.value.lower()) not in ended]
    return out


def _someone_named(clause: str) -> bool:
    """A name in the clause, not a capitalised common word ("There's no dog …")."""
    return any(v.text.lower() not in STOP_WORDS for v in _names(_tokens(clause)))


_COMMON_NAMES = {w.capitalize() for w in PET_WORDS} | {"Pets", "Pet"}
"""Capitalised words that are a kind, not a name ("Dogs always cheer us up")."""


def _beside(tokens: list[str]) -> dict[str, set[str]]:
    """Per slot, the sentence's names said beside its words ("Sam, my partner", "a dog named
    Rex", "no dog at ours any more — Biscuit …"): only those can be a partner or a pet."""
    names = list(_names(tokens))
    low = {t.lower() for t in tokens}
    return {
        "partner": {v.text for v in names if _near(tokens, v, _PARTNER_NEAR)},
        "pet": (
            {v.text for v in names if _near(tokens, v, _PET_NEAR)}
            | (
                {v.text for v in names if v.end - v.start == 1}
                if low & _KINDS and len(names) == 1
                else set()
            )
        )
        - _COMMON_NAMES,
    }


def _carried_correction(before: str, sentence: str) -> Said | None:
    """A correction whose wrong weekday one sentence marks and whose right one the next
    says."""
    if not before or not _CORRECTING.search(before) or _CORRECTING.search(sentence):
        return None
    wrong, right = _days(_tokens(before)), _days(_tokens(sentence))
    if len(wrong) != 1 or len(right) != 1 or wrong[0].text == right[0].text:
        return None
    if not _old(_tokens(before), wrong[0]):
        return None
    return Said("corrects", f"{wrong[0].text} -> {right[0].text}", False, True, sentence)


_NEW_HOME = re.compile(
    r"\b(?:the|our) new (?:flat|house|apartment|place|home|condo) in (?-i:[A-Z])"
    r"|\bbye,?\s+(?-i:[A-Z])\w+\s*[,!]?\s*hello,?\s+(?-i:[A-Z])",
    re.I,
)
"""A home said without a person: "the commute from the new flat in Toronto", "bye
Sacramento, hello Raleigh"."""
_THATS_HOME = re.compile(
    r"^(?:and |so )?that is (?:where (?:i|we) (?:live|are based)|(?:my|our) home(?:town)?)\b",
    re.I,
)


def _carried_home(before: str, sentence: str) -> Said | None:
    """ "What's a decent hike near Boise? That's where I live.": the place the sentence
    before names last is the speaker's home."""
    if not before or not _THATS_HOME.match(expand(sentence.strip())):
        return None
    places = [v.text for v in _names(_tokens(before)) if v.text.lower() not in STOP_WORDS]
    places = [p for p in places if not _is_car(p) and not p.lower().startswith("what")]
    return Said("lives in", places[-1], False, False, sentence) if places else None


def ended_mention(sentence: str) -> Said | None:
    """A sentence that says something of the speaker's ended and names what, where nothing
    else read a claim ("tennis is no longer a thing for me", "I've packed in rock
    climbing"): a "no longer" claim the lifecycle matches against the held values the
    sentence names (core/forest/lifecycle.py `held_and_ended`)."""
    text = expand(sentence.strip())
    cue = ENDING.search(text)
    if cue is None:
        return None
    clause = next((c for c in _SPLIT.split(text) if cue.group(0) in c), text)
    before = clause[: clause.find(cue.group(0))]
    if "?" in clause or HYPOTHETICAL.search(before):
        return None
    if not _owner_is_speaker(_tokens(clause), len(_tokens(before))):
        return None
    what = _ended_thing(clause, cue.group(0))
    return Said("no longer", what, True, True, clause) if what else None


def _clause_beliefs(
    clause: str, sentence_words: set[str], away: bool, beside: dict[str, set[str]]
) -> list[Said]:
    """One clause's beliefs; slot cue words count anywhere in the sentence. `away`: the
    sentence tells of a trip or of the past ("Years ago I had a summer job in Reno"), which
    says nothing of where the speaker lives or works now."""
    tokens = _tokens(clause)
    low = {t.lower() for t in tokens}
    ended = bool(ENDING.search(clause))
    meeting = _meeting(clause, tokens) if low & CUES["meeting"] else None
    if meeting is not None:
        return [meeting]
    out: list[Said] = []

    def add(attribute: str, value: _Value, is_old: bool, slot: str = "") -> None:
        if _owner_is_speaker(tokens, value.start, slot):
            out.append(Said(attribute, value.text, is_old, is_old or ended, clause))

    names = list(_names(tokens))
    if away:  # a trip or the past ("my first ever car was …"): only an ending of today's
        for slot in ("partner", "pet"):
            if ended and sentence_words & CUES[slot]:
                for said in _slot_said(slot, tokens, names, ended, beside.get(slot, set())):
                    add(*said, slot)
        return out
    for said in _said_pair("drives", tokens, [v for v in names if _is_car(v.text)], ended):
        add(*said)
    diets = [
        _Value(_DIET_ALIASES.get(t.lower(), t.lower()), i, i + 1)
        for i, t in enumerate(tokens)
        if t.lower() in DIETS
        or t.lower() in _DIET_ALIASES
        and {w.lower() for w in tokens[max(0, i - 2) : i]} & _BECAME
        and (i + 1 == len(tokens) or tokens[i + 1].lower() in STOP_WORDS | {",", ".", "!", ";"})
    ]
    for said in _said_pair("is", tokens, diets, ended):
        add(*said)
    for slot in ("home", "job", "partner", "pet"):
        if sentence_words & CUES[slot] or _cued(slot, clause, tokens, ended):
            for said in _slot_said(slot, tokens, names, ended, beside.get(slot, set())):
                add(*said, slot)
    if out:
        return out
    meat = next((i for i, t in enumerate(tokens) if t.lower() in _MEAT), None)
    if meat is not None and (ended or low & _EAT):
        add("eats", _Value("meat", meat, meat + 1), ended)
        return out
    play = _PLAY.search(clause)
    if play and _hobby(play["v"]):
        attribute = "plays" if play["verb"].lower().startswith("play") else "does"
        add(attribute, _Value(play["v"], len(_tokens(clause[: play.start()])), 0), ended)
    return out


def _cued(slot: str, clause: str, tokens: list[str], ended: bool) -> bool:
    """Cues of more than a word: "my other half", a move to a place ("came over to Dublin"),
    an employer's role ("with Salt House … as their chef"), "Sam and I" ending something."""
    low = clause.lower()
    if slot == "partner":
        return "other half" in low or "significant other" in low or ended and _and_i(tokens)
    if slot == "home":
        move = r"\b(?:moved|move|moving|came|come|relocated) (?:\w+ )?to (?-i:[A-Z])"
        local = r"|\ban? (?-i:[A-Z])[\w-]* local\b"  # "I'm a Phoenix local now"
        return re.search(move + r"|\b(?-i:[A-Z])[\w-]*-based\b" + local, clause) is not None
    if slot == "job":
        return re.search(r"\bas (?:a|an|their|the|its) [a-z]", low) is not None
    return False


_PARTICLES = frozenset(
    "from on with the my our a an up in doing playing it quits of to at for away do does did"
    " have has had".split()
)
_NOT_A = re.compile(r"\bnot an? ((?:[a-z][\w-]* )?[a-z][\w-]*)\s*$", re.I)
"""A role said ended before its cue: "Not a meat eater any more" names "meat eater"."""


def _ended_thing(clause: str, cue: str) -> str:
    """What an ending names beside its cue: the name it follows ("Luna slipped away"), else
    the words after it ("packed in rock climbing", "walked away from chess"), else a role
    ("not a meat eater any more") or the subject before "is no longer" ("tennis is no longer
    a thing for me"); "" when it names nothing ("I tried my best but didn't make it")."""
    at = clause.find(cue)
    # "Copperline Coffee made my role redundant", "Luna slipped away": the name it follows
    subject = re.search(r"((?:(?!I\s)[A-Z][\w&'-]*\s+)+)$", clause[:at].rstrip() + " ")
    named = subject.group(1).split() if subject else []
    if named:  # "Robin's ancient history", "Now Miso's gone"
        named[-1] = re.sub(r"['’]s$", "", named[-1])
    while named and named[0].lower() in STOP_WORDS:  # "Since Copperline Coffee no longer …"
        named.pop(0)
    if named:
        return " ".join(named)
    after = [w for w in re.findall(r"[A-Za-z][\w'-]*", clause[at + len(cue) :])]
    words: list[str] = []
    for w in after:
        if not words and w.lower() in _PARTICLES:
            continue
        if w.lower() in STOP_WORDS or len(words) == 2:
            break
        words.append(w)
    if not words:
        role = _NOT_A.search(clause[:at])
        if role:
            return role.group(1)
        before = re.findall(r"[A-Za-z][\w'-]*", clause[:at])
        if len(before) >= 2 and before[-1].lower() in {"is", "are", "was"}:
            head = before[-2]
            words = [] if head.lower() in STOP_WORDS else [head]
    if not words:  # "Rex was hit by a car and didn't pull through": the clause's subject
        first = next((v.text for v in _names(_tokens(clause[:at]))), "")
        words = [first] if first and first.lower() not in STOP_WORDS else []
    return " ".join(words)


def _hobby(value: str) -> bool:
    """ "chess", "the piano", "rock climbing"; not "for", "lately", "not last", "research"."""
    words = value.lower().split()
    head = words[1] if words[0] == "the" and len(words) > 1 else words[0]
    return not (
        set(words) & _HOBBY_NOT
        or head in STOP_WORDS
        or head.endswith("ly")
        or any(w in STOP_WORDS and w != "the" for w in words)
    )


def _and_i(tokens: list[str]) -> bool:
    """ "Sam and I …": a name paired with the speaker."""
    low = [t.lower() for t in tokens]
    return any(
        low[i] == "and" and low[i + 1] in {"i", "me"} and tokens[i - 1][:1].isupper()
        for i in range(1, len(low) - 1)
    )
