"""Word lists the rule extractor reads: kept apart so rules.py stays logic, not vocabulary."""

from __future__ import annotations

# Function words plus chat filler and bare evaluations ("cool", "awesome"): in conversational
# archives these occur in nearly every window and would swamp keyword Jaccard.
STOP_WORDS: frozenset[str] = frozenset(
    """
    a about above after again against all almost also although always am among an and another
    any anybody anyone anything anyway anywhere are aren around as at away back be became because
    become been before being below besides between both but by can cannot could couldn did didn
    do does doesn doing don done down during each either else enough even ever every everybody
    everyone everything few for from further get gets getting got gotten had hadn has hasn have
    haven having he her here hers herself him himself his how however i if in into is isn it its
    itself just least less let lets like likely made make makes many may maybe me might mine more
    most much must my myself near need needs neither never next no nobody none nor not nothing now
    of off often oh ok okay on once one only onto or other others otherwise our ours ourselves out
    over own per perhaps quite rather really same several shall she should shouldn since so some
    somebody someone something sometimes somewhat soon still such than that the their theirs them
    themselves then there these they thing things this those though through thus to together too
    toward towards under until up upon us very via was wasn way we well were weren what whatever
    when where whether which while who whom whose why will with within without won would wouldn
    yet you your yours yourself yourselves ll ve re im ive id youre youve dont cant didnt isnt
    wasnt thats theres whats lets gonna wanna gotta kinda sorta yeah yes yep yup nope hey hi hello
    wow oh ah aw aww haha hah lol omg hmm um uh thanks thank please sure totally definitely
    absolutely cool great awesome amazing nice good glad wonderful lovely fantastic super sweet
    incredible beautiful fun bad lot lots stuff bit pretty kind sort feel feeling felt think
    thought know knew see saw seen say said tell told sound sounds look looks looking want wanted
    going go goes went come came take took day time today yesterday tomorrow tonight week month
    year ago last recently lately actually anymore used able new old whole true right ever totally
    """.split()
)

INTERJECTIONS: frozenset[str] = frozenset(
    """
    wow oh hey hi hello yeah yes yep no nope well so ok okay haha lol omg aw aww ah um hmm thanks
    thank sure totally honestly congrats congratulations cool great awesome amazing nice sweet
    """.split()
)

MONTHS: frozenset[str] = frozenset(
    "january february march april may june july august september october november december".split()
)
WEEKDAYS: frozenset[str] = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split()
)

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

# Event types (SPEC facet `event_type`), found by word and word-pair lookup: a dictionary
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
