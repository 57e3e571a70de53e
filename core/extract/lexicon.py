"""Word lists the rule extractor reads: kept apart so rules.py stays logic, not vocabulary."""

from __future__ import annotations

import re

# STOP_WORDS and the date words live with the other word helpers; re-exported so extraction
# reads its lists here.
from arborwiki.core.words import DATE_WORDS, MONTHS, STOP_WORDS, WEEKDAYS  # noqa: F401

INTERJECTIONS: frozenset[str] = frozenset(
    """
    wow oh hey hi hello yeah yes yep no nope well so ok okay haha lol omg aw aww ah um hmm thanks
    thank sure totally honestly congrats congratulations cool great awesome amazing nice sweet
    """.split()
)

IMPERATIVES: frozenset[str] = frozenset(
    """
    add ask avoid book bring buy call check compare confirm consider draft eat focus follow get
    give keep let log make note pack pick plan practise practice prepare put remember review
    revise schedule send set share skip start stop stretch swap take tell track try update use
    visit write
    """.split()
)
"""Verbs that open advice ("Ask Priya about…", "Try Lakeview Park"): a capitalised span
starting with one names what follows it, not the verb. Words that are also common first
names (Mark, Will, Grace, …) are left out."""

TITLES: frozenset[str] = frozenset("dr mr mrs ms prof".split())
"""Honorifics: 'Dr' alone is nobody; the name after it is the entity."""


WEEKDAY_ABBREVIATIONS: frozenset[str] = frozenset(
    "mon tue tues wed thu thur thurs fri sat sun".split()
)

NUMBER_WORDS: dict[str, str] = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
    if i >= 2
} | {"dozen": "12", "couple": "2", "few": "3", "several": "3"}

_CARDINALS = """one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
ninety hundred thousand million billion""".split()
_ORDINALS = """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth
thirtieth fortieth fiftieth hundredth thousandth""".split()
NUMERALS: frozenset[str] = frozenset(_CARDINALS + _ORDINALS)
"""Number words, cardinal and ordinal: they count or order things, they name none."""

TIME_UNITS: frozenset[str] = frozenset(
    "second seconds minute minutes hour hours day days week weeks weekend weekends month months "
    "year years time times".split()
)

RELATIONS: frozenset[str] = frozenset(
    """
    friend friends sister brother mom mother dad father son daughter husband wife partner
    boyfriend girlfriend cousin aunt uncle grandma grandmother grandpa grandfather kid kids child
    children neighbor neighbour boss coworker colleague teacher mentor roommate fiance fiancee
    """.split()
)

# Words ending in -ies whose singular ends in -ie, not -y ("movies" → "movie").
IE_SINGULARS: frozenset[str] = frozenset(
    "movie cookie pie tie lie selfie brownie zombie rookie hoodie smoothie calorie genie freebie "
    "goodie indie veggie birdie newbie sweetie".split()
)
NOT_PLURAL: frozenset[str] = frozenset(
    "news series species always perhaps yes this his was has is its us bus gas plus lens "
    "christmas physics mathematics politics diabetes canvas chaos yoga thus".split()
)

# Event types (the snapshot facet `event_type`), found by word and word-pair lookup: a dictionary
# probe per word is ~50x faster than one regex alternation over the window text.
_EVENT_TRIGGERS: tuple[tuple[str, str], ...] = (
    ("outing", "went+to went+on went+out go+to go+on go+out going+to going+out been+to"),
    ("adoption", "adopt adopted adopting adoption"),
    ("concert", "concert concerts gig gigs"),
    ("trip", "trip trips travel traveled travelled traveling travelling vacation holiday"),
    ("race", "race races marathon 5k ran"),
    ("class", "class classes course workshop lesson lessons"),
    ("job", "job hired promoted promotion interview career"),
    (
        "relocation",
        "moved+to moved+in moved+out moved+into moved+from moving+to moving+in moving+out "
        "relocate relocated relocating relocation",
    ),
    ("purchase", "bought purchase purchased buying"),
    ("reading", "book books novel novels read"),
    ("painting", "paint painted painting paintings"),
    ("camping", "camping camped"),
    ("hike", "hike hiked hikes hiking"),
    ("party", "party parties birthday celebrate celebrated celebrating celebration"),
    ("wedding", "wedding engaged got+married"),
    ("meeting", "meeting conference support+group"),
    ("volunteering", "volunteer volunteered volunteering volunteers"),
    ("festival", "parade festival pride"),
    ("graduation", "graduate graduated graduation graduating"),
    ("health", "surgery hospital doctor"),
)
EVENT_ORDER: tuple[str, ...] = tuple(label for label, _ in _EVENT_TRIGGERS)
EVENT_WORDS: dict[str, str] = {
    w: label for label, words in _EVENT_TRIGGERS for w in words.split() if "+" not in w
}
EVENT_PAIRS: dict[tuple[str, str], str] = {
    (w.split("+")[0], w.split("+")[1]): label
    for label, words in _EVENT_TRIGGERS
    for w in words.split()
    if "+" in w
}

ENDING = re.compile(
    r"\b(?:anymore|any more|any longer|no longer|no more|gave (?:\w+ )?up|given (?:\w+ )?up"
    r"|quit|quitting|stopped(?! by| in| for)|dropped(?! off| by| in)|ditch(?:ed|ing)?|packed in"
    r"|jacked in|chucked in|knocked (?:\w+ )?on the head|sw(?:ore|orn) off|kicked the habit"
    r"|jumped ship|axed|hung (?:it|them) up|not a thing|buried|ended it"
    r"|(?:find|found|finding) (?:\w+ )?a new home"
    r"|(?:is|'s) gone(?=\s*(?:[,.;:!?—–-]|$|now\b|and\b|I\b|for good\b))|broken up"
    r"|there(?: is|'s) no (?=(?-i:[A-Z]))|did(?: not|n't) (?:pull through|survive)"
    r"|did(?: not|n't) renew (?:my|our) contract|bro(?:ke|ken) (?:it|things) off"
    r"|not \w+ing\b[^.!?]{0,30}?\b(?:these days|nowadays|at the moment|at present)"
    r"|walked away|stepped away|stepped down|cut out|got rid of|sold|swapped|traded in"
    r"|wrote (?:it|her|him) off|wrote off|written off|slipped away|scrapped|totaled|totalled"
    r"|gave (?:\w+ )?away"
    r"|rehomed|re-homed|died|passed away|put (?:\w+ )?down(?! roots)|put to sleep|said goodbye"
    r"|broke up"
    r"|split up|separated|divorced|parted ways|ended things|called it off|called it quits"
    r"|not together|(?:is|are|all) behind me|done with|finished with|resigned|laid off"
    r"|let (?:me |us )?go(?! of)|made (?:(?:my|our) (?:\w+ )?(?:role|job|position|post) )?redundant"
    r"|(?:got|was|been) fired"
    r"|have(?: not|n't) touched|did(?: not|n't) make it|retired|farewell"
    r"|(?:gone|done|over|ended(?: it)?|quit|away|closed) for good"
    r"|moved on from|got stolen|was stolen|been stolen|sacked|got the sack|handed in (?:my )?notice"
    r"|lost (?:my|the|our) job|went bust|conked out|gave up the ghost|rainbow bridge"
    r"|hung up (?:my|the)|lost interest in|fell out of love with|not seeing each other"
    r"|part-exchanged|off meat|separate ways|called it a day|not an item|over between us"
    r"|used to be (?:my|our|where)|lost (?:my|our) (?:old |dear |beloved )?(?:dog|cat|puppy"
    r"|kitten|pet|bunny|rabbit|horse|parrot|hamster)|fizzled out|pulled the plug"
    r"|walked out (?:of|on)|to the (?:kerb|curb)|(?:is|are|am) not (?:my|our) \w+ now)\b",
    re.I,
)
"""Words that end a state ("I've packed in chess", "Sam and I ended things", "we parted
ways"): the lifecycle ends a held value a sentence with one of them names
(core/forest/lifecycle.py `says_ended`), and core/extract/slot_vocabulary.py reads the value
it names as ended. Not "left" or "lost" ("I left Denver at six", "I lost to Sam"): too often
no ending."""

REQUEST_BREAK = r",\s+(?=(?:so |and )?(?:could|can|would|will) you\b)"
"""A clause break before a request ("Since Luna is gone, could you help me …?"): the
question mark is the request's, not the statement's."""
