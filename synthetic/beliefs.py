"""A seeded archive of everyday belief changes, with every change labelled.

Why: the claim lifecycle (ADD / REVISE / DEPRECATE) is what this memory promises beyond
retrieval, and no public set labels it. Each user states a few beliefs early (where they
live, their job, car, diet, partner, pets, hobbies, a weekly meeting day), chats about other
things with an assistant for 2–8 weeks, and later changes some beliefs in one of the
phrasing families people use ("I don't live in Phoenix anymore", "I used to …, but …",
"I was laid off from …", "Sorry, I meant Tuesday, not Monday", "Since the move to …"),
often in a session about something else. Controls restate a belief that never changes;
distractors must change nothing (hypotheticals, questions, other people's changes, trips).

Half the users carry a `speaker` (their name); the other half carry none, as chat exports
often do, and introduce themselves once ("Hi! I'm Hana").

`generate_beliefs(seed, users)` returns the archive rows (JSONL-ready dicts) and the labels;
`benchmarks/beliefs.py` writes both and `arborwiki evaluate beliefs` scores a store on them.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

NAMES = [
    "Priya", "Teodor", "Hugo", "Rosa", "Basil", "Hana", "Aisha", "Marcus", "Lena", "Omar",
    "Greta", "Kenji", "Ines", "Dmitri", "Nora", "Felix", "Sofia", "Tariq", "Yuki", "Bruno",
    "Clara", "Emeka", "Freya", "Gustav", "Ingrid", "Jonas", "Keiko", "Luis", "Mira", "Niall",
]  # fmt: skip
CITIES = [
    "Phoenix", "Raleigh", "Omaha", "Charleston", "Seattle", "Denver", "Austin", "Boise",
    "Tucson", "Madison", "Savannah", "Pittsburgh", "Sacramento", "Albany", "Spokane",
    "Richmond", "Lisbon", "Dublin", "Toronto", "Melbourne",
]  # fmt: skip
JOBS = [
    ("graphic designer", "Pixelwick Studio"), ("accountant", "Pell & Grant"),
    ("financial controller", "Bluefin Logistics"), ("nurse", "Mercy General"),
    ("data analyst", "Orbital Foods"), ("barista", "Copperline Coffee"),
    ("teacher", "Lincoln Elementary"), ("software engineer", "Tallyhawk"),
    ("paralegal", "Brandt & Moss"), ("project manager", "Greenway Builders"),
    ("pharmacist", "Cedar Pharmacy"), ("chef", "Salt House"),
]  # fmt: skip
CARS = [
    "Honda Civic", "Tesla Model 3", "Subaru Outback", "Toyota Corolla", "Mazda CX-5",
    "Kia Niro", "Ford Ranger", "Volkswagen Golf",
]  # fmt: skip
PARTNERS = ["Sam", "Jordan", "Alex", "Chris", "Taylor", "Morgan", "Jamie", "Robin"]
PETS = [("dog", "Rex"), ("cat", "Miso"), ("dog", "Biscuit"), ("cat", "Pepper"), ("dog", "Luna")]
HOBBIES = [
    ("play", "chess"), ("play", "tennis"), ("do", "pottery"), ("play", "guitar"),
    ("do", "yoga"), ("play", "basketball"), ("do", "rock climbing"), ("play", "the piano"),
]  # fmt: skip
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
MEETINGS = ["book club", "choir practice", "Spanish class", "pottery class", "running group"]

FILLER = [
    "Can you suggest something quick for dinner tonight?",
    "What is a good way to stay focused in the afternoon?",
    "I need ideas for a birthday gift for my niece.",
    "Could you explain how compound interest works?",
    "What are some easy houseplants that are hard to kill?",
    "Any tips for sleeping better when it is hot outside?",
    "How long should I boil an egg for a runny yolk?",
    "Can you recommend a podcast about history?",
    "Help me write a short thank-you note to a neighbour.",
    "What should I pack for a weekend of camping?",
    "How do I remove a coffee stain from a white shirt?",
    "Can you give me a ten-minute stretching routine?",
]
REPLIES = [
    "Sure, here are a few ideas you could try.",
    "Good question. Here is a short overview.",
    "That sounds exciting! How are you feeling about it?",
    "Thanks for telling me, I'll keep that in mind.",
    "Here is a simple plan you can adapt.",
    "That makes sense. Anything else on your mind?",
]


@dataclass
class Change:
    """One labelled belief change: the old state, what ended or replaced it, and where."""

    user_id: str
    subject: str
    slot: str
    kind: str  # "revise": a new value replaces the old; "end": the old value stops
    family: str  # the phrasing family of the changing message
    old: str
    new: str | None
    old_message_ids: list[str]
    change_message_ids: list[str]
    question: str
    history_about: str
    text: str = ""


@dataclass
class Probe:
    """A control (a belief restated, never changed) or a distractor (must change nothing)."""

    user_id: str
    kind: str  # "control" | "distractor"
    family: str
    message_ids: list[str]
    value: str
    text: str = ""


@dataclass
class BeliefSet:
    rows: list[dict[str, Any]] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)

    def labels(self) -> dict[str, Any]:
        return {
            "changes": [asdict(c) for c in self.changes],
            "probes": [asdict(p) for p in self.probes],
        }


# Each state: how it is first stated; each family: (kind, template), filled with old/new.
# Templates are the user's own words; {o} old value, {n} new value, {r} new role, {e} employer.
INITIAL: dict[str, list[str]] = {
    "home": [
        "I live in {o}, so the winters are a big deal for me.",
        "We live in {o} now, near the river.",
    ],
    "job": ["I work as a {r} at {e}.", "I'm a {r} at {e}, been there for three years."],
    "car": ["I drive a {o}, it's old but reliable.", "My car is a {o}."],
    "diet": [
        "I'm vegetarian, so no meat recipes please.",
        "I'm vegetarian, have been since college.",
    ],
    "meat": ["I eat meat, so any recipe is fine.", "I eat a lot of meat, honestly."],
    "partner": [
        "I'm dating {o}, we met at a concert.",
        "My partner {o} and I love hiking together.",
    ],
    "pet": ["I have a {k} named {o}.", "My {k} {o} keeps me company."],
    "hobby": ["I {v} {o} every Sunday.", "I {v} {o} twice a week."],
    "meeting": ["My {m} meets on {o}.", "I have {m} on {o} evenings."],
}
CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        ("revise", "now", "Big news, I live in {n} now!"),
        ("revise", "now", "We're settled in {n} now, finally unpacked."),
        ("revise", "negation", "I don't live in {o} anymore — we've been in {n} since March."),
        ("revise", "used_to", "I used to live in {o}, but home is {n} these days."),
        ("revise", "event", "I finally moved to {n} last weekend!"),
        ("revise", "event", "We relocated to {n} at the start of the month."),
        ("revise", "presupposition", "Since the move to {n}, my commute is way shorter."),
        ("revise", "presupposition", "Ever since we moved to {n}, I walk everywhere."),
        ("revise", "no_longer", "I no longer live in {o}; I'm renting a flat in {n}."),
    ],
    "job": [
        ("revise", "event", "I started at {e} on Monday as a {r}!"),
        ("revise", "event", "I accepted a job at {e} as a {r}."),
        ("revise", "now", "I work at {e} now, as a {r}."),
        ("revise", "presupposition", "My new job at {e} keeps me busy."),
        ("revise", "used_to", "I used to work at {oe}, but now I'm a {r} at {e}."),
        ("end", "event", "I was laid off from {oe} on Friday."),
        ("end", "event", "I quit my job at {oe} yesterday."),
        ("end", "negation", "I'm not working at {oe} anymore."),
        ("end", "no_longer", "I no longer work at {oe}."),
    ],
    "car": [
        ("revise", "now", "I drive a {n} now."),
        ("revise", "event", "I bought a {n} last week!"),
        ("revise", "event", "I traded in my {o} for a {n}."),
        ("revise", "switched", "I switched to a {n} after the old one broke down."),
        ("end", "event", "I sold my {o} yesterday, so I'm taking the bus for now."),
    ],
    "diet": [
        ("revise", "now", "I'm vegan now, so no dairy either."),
        ("revise", "event", "I went vegan last month."),
    ],
    "meat": [
        ("end", "no_longer", "Actually I no longer eat meat."),
        ("end", "negation", "I don't eat meat anymore."),
        ("end", "gave_up", "I gave up meat in January."),
    ],
    "partner": [
        ("end", "event", "{o} and I broke up last month."),
        ("end", "event", "I broke up with {o}."),
        ("end", "negation", "I'm not with {o} anymore."),
        ("revise", "event", "I'm engaged to {n}!"),
    ],
    "pet": [
        ("end", "event", "{o} passed away last week."),
        ("end", "event", "We had to rehome {o}, it broke my heart."),
    ],
    "hobby": [
        ("end", "negation", "I don't {v} {o} anymore after I hurt my shoulder."),
        ("end", "gave_up", "I gave up {o} last week."),
        ("end", "gave_up", "I quit {o}, it was taking too much time."),
        ("end", "gave_up", "I stopped {vg} {o} after my knee surgery."),
        ("end", "used_to", "I used to {v} {o}, but not since the move."),
    ],
    "meeting": [
        ("revise", "correction", "Sorry, I meant {n}, not {o}."),
        ("revise", "correction", "Wait, I got that wrong: it's {n}, not {o}."),
    ],
}
HELD_OUT_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        ("revise", "event", "We just finished moving into our new place in {n}."),
        ("revise", "now", "Home for me is {n} now."),
        ("revise", "negation", "{o} isn't home anymore, I'm in {n} now."),
        ("revise", "used_to", "I was living in {o} until last spring, now I'm in {n}."),
        ("revise", "event", "Packed everything up and moved out to {n} two weeks ago."),
        ("revise", "presupposition", "After relocating to {n}, I finally have a garden."),
        ("revise", "no_longer", "I'm no longer in {o} — I live in {n}."),
    ],
    "job": [
        ("revise", "event", "Today was my first day as a {r} at {e}!"),
        ("revise", "event", "I just got hired by {e} as a {r}."),
        ("revise", "now", "I'm now working as a {r} at {e}."),
        ("end", "event", "They let me go at {oe} last week."),
        ("end", "event", "I handed in my notice at {oe}, Friday was my last day."),
        ("end", "negation", "I don't work at {oe} anymore."),
        ("end", "no_longer", "I'm no longer employed at {oe}."),
        ("revise", "presupposition", "Since starting at {e}, I barely have time to cook."),
    ],
    "car": [
        ("revise", "event", "I finally got rid of my {o} and bought a {n}."),
        ("revise", "now", "I'm driving a {n} these days."),
        ("end", "event", "My {o} got totaled in an accident, so no car for now."),
        ("revise", "switched", "Switched from my {o} to a {n} last month."),
    ],
    "diet": [("revise", "event", "I've gone vegan since January.")],
    "meat": [
        ("end", "gave_up", "I've stopped eating meat altogether."),
        ("end", "negation", "Meat is off the menu for me now, I don't eat it anymore."),
    ],
    "partner": [
        ("end", "event", "{o} and I split up."),
        ("end", "event", "We broke up last week, {o} and I."),
        ("revise", "event", "I've started seeing someone new, {n}."),
    ],
    "pet": [
        ("end", "event", "Our {k} {o} died on Sunday."),
        ("end", "event", "We lost {o} last month, the vet couldn't do anything."),
    ],
    "hobby": [
        ("end", "gave_up", "I've given up {o} for good."),
        ("end", "gave_up", "I'm done with {o}, I gave it up."),
        ("end", "no_longer", "I no longer {v} {o}."),
        ("end", "used_to", "{o} used to be my thing, not anymore."),
    ],
    "meeting": [
        ("revise", "correction", "Oops, I mixed that up: it's on {n}, not {o}."),
        ("revise", "correction", "Correction: {n}, not {o}."),
    ],
}
"""Phrasings written apart from the rules and scored once before any rule saw them
(`generate_beliefs(phrasing="held_out")`); the first score is kept in the results."""
HELD_OUT_DISTRACTORS: list[tuple[str, str]] = [
    ("hypothetical", "We're considering a move to {c}."),
    ("hypothetical", "I could see myself living in {c} one day."),
    ("question", "Is {c} a good place to live?"),
    ("other_person", "My brother started at {x} last week."),
    ("other_person", "My neighbour's dog passed away, so sad."),
    ("trip", "We drove to {c} for the weekend."),
    ("past", "I lived in {c} for a year in college."),
]
QUESTIONS: dict[str, str] = {
    "home": "Where does {s} live now?",
    "job": "Where does {s} work now?",
    "car": "What car does {s} drive now?",
    "diet": "What diet does {s} follow now?",
    "meat": "Does {s} still eat meat?",
    "partner": "Is {s} still dating {o}?",
    "pet": "Does {s} still have {o}?",
    "hobby": "Does {s} still {v} {o}?",
    "meeting": "What day does {s}'s {m} meet?",
}
SLOT_OF = {"meat": "diet", "meeting": "schedule", "partner": "relationship"}
CONTROLS: dict[str, list[str]] = {
    "home": [
        "{o} has been so sunny lately, I love living here.",
        "I still live in {o}, no plans to leave.",
    ],
    "job": ["Still at {e}, the quarter-end rush is on.", "I still work at {e}, busy week."],
    "hobby": ["I still {v} {o}, it clears my head.", "I {v} {o} again this Sunday, as always."],
    "car": ["I still drive my {o}, it just passed inspection."],
}
DISTRACTORS: list[tuple[str, str]] = [
    ("hypothetical", "I might move to {c} next year, not sure yet."),
    ("hypothetical", "If I moved to {c}, I'd miss my friends."),
    ("hypothetical", "I'm thinking about quitting my job, honestly."),
    ("hypothetical", "Sometimes I wish I lived in {c}."),
    ("hypothetical", "I'd love to drive a {car} someday."),
    ("question", "Should I move to {c}?"),
    ("question", "Do you think I should sell my car?"),
    ("other_person", "My sister just moved to {c}."),
    ("other_person", "My coworker got laid off from {x} last week."),
    ("other_person", "My friend Tom gave up chess."),
    ("trip", "I visited {c} last weekend for a wedding."),
    ("trip", "I'm flying to {c} for a conference on Thursday."),
]


FRESH_INITIAL: dict[str, list[str]] = {
    "home": [
        "I'm based in {o}, so keep that in mind for any local suggestions.",
        "Quick context: I've lived in {o} for about six years.",
    ],
    "job": [
        "For context, I've been a {r} at {e} for five years.",
        "I work at {e} as a {r}, mostly remote.",
    ],
    "car": ["I drive an old {o}, so nothing fancy.", "I've had my {o} since 2019."],
    "diet": [
        "Heads up, I'm vegetarian.",
        "I've been vegetarian for years, so skip the meat dishes.",
    ],
    "meat": ["I eat meat, no restrictions.", "I'm a big meat eater, steak is my favourite."],
    "partner": [
        "My girlfriend {o} is coming along this weekend.",
        "I'm seeing {o}, it's been about a year now.",
    ],
    "pet": ["We have a {k} named {o}.", "I've got a {k} called {o} who sleeps all day."],
    "hobby": ["I {v} {o} most weekends.", "I {v} {o}, it's my favourite way to unwind."],
    "meeting": ["The {m} is on {o} this week.", "I have {m} every {o}."],
}
FRESH_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        ("revise", "event", "Quick update before my question: we moved to {n} last month."),
        ("revise", "now", "I live in {n} now, so local tips should be for there."),
        ("revise", "negation", "I'm not in {o} anymore, we moved to {n} in the spring."),
        ("revise", "event", "good news — we finally signed a lease in {n}!"),
        ("revise", "used_to", "I used to be in {o}; these days I'm living in {n}."),
        ("revise", "presupposition", "Since moving to {n} I've been biking to work."),
        ("revise", "no_longer", "We no longer live in {o}. We live in {n} now."),
    ],
    "job": [
        ("revise", "event", "Big news: I got a job at {e} as a {r}, starting next week."),
        ("revise", "now", "I'm a {r} at {e} now, so my schedule changed."),
        ("revise", "used_to", "I used to work at {oe}; now I work at {e}."),
        ("end", "event", "I got laid off at {oe} this week, so money is tight."),
        ("end", "event", "i left {oe} last month, taking some time off."),
        ("end", "negation", "I'm not at {oe} anymore."),
        ("end", "no_longer", "Just so you know, I no longer work for {oe}."),
        ("revise", "presupposition", "Since joining {e}, I've had way less free time."),
    ],
    "car": [
        ("revise", "event", "We bought a {n} on Saturday, finally!"),
        ("revise", "now", "I'm driving a {n} now, the {o} is gone."),
        ("end", "event", "I sold the {o} last week, I bike everywhere now."),
        ("revise", "switched", "I switched from the {o} to a {n} this spring."),
        ("end", "no_longer", "I no longer have a car, I sold my {o}."),
    ],
    "diet": [
        ("revise", "event", "I went fully vegan in February."),
        ("revise", "now", "I'm vegan these days, please no cheese in recipes."),
    ],
    "meat": [
        ("end", "gave_up", "I gave up eating meat last month."),
        ("end", "negation", "I don't eat meat anymore, so vegetarian recipes please."),
        ("end", "no_longer", "I no longer eat meat, for health reasons."),
        ("end", "used_to", "I used to eat meat, but I stopped in the spring."),
    ],
    "partner": [
        ("end", "event", "{o} and I broke up over the summer."),
        ("end", "negation", "I'm not seeing {o} anymore."),
        ("end", "event", "I broke up with {o} two weeks ago, it's been rough."),
        ("revise", "event", "I got engaged to {n} last weekend!"),
        ("revise", "now", "I'm dating {n} now, we met at a friend's party."),
    ],
    "pet": [
        ("end", "event", "Our {k} {o} passed away on Tuesday."),
        ("end", "event", "We had to put {o} down last week, I'm heartbroken."),
        ("end", "negation", "We don't have {o} anymore, she went to live with my parents."),
    ],
    "hobby": [
        ("end", "gave_up", "I gave up {o} this year, no time for it."),
        ("end", "negation", "I don't {v} {o} anymore since my wrist injury."),
        ("end", "gave_up", "I stopped {vg} {o} a few months ago."),
        ("end", "used_to", "I used to {v} {o} but I haven't in ages."),
        ("end", "no_longer", "i no longer {v} {o}, I lost interest."),
    ],
    "meeting": [
        ("revise", "correction", "Oh wait, my mistake: it's {n}, not {o}."),
        ("revise", "correction", "Sorry, I meant {n}, not {o}!"),
        ("revise", "correction", "Correction — the {m} is on {n}, not {o}."),
    ],
}
"""Phrasings written after the rules by the session that changed them, deliberately in
wordings the other pools do not use (other first statements, other controls, updates inside
longer messages), and scored once before any rule saw them (`phrasing="fresh"`); the first
score is kept in the results."""
FRESH_DISTRACTORS: list[tuple[str, str]] = [
    ("other_person", "My mom just moved to {c}, I'll visit her soon."),
    ("other_person", "My best friend started at {x} on Monday."),
    ("other_person", "My roommate sold her car last week."),
    ("question", "Would I like living in {c}?"),
    ("question", "Is it a good idea to switch jobs after a year?"),
    ("hypothetical", "If I ever quit, I'd open a bakery."),
    ("hypothetical", "I'd love to try living in {c} for a year."),
    ("trip", "I'm visiting {c} next month for my cousin's wedding."),
    ("plan", "Thinking about adopting a dog next year."),
    ("past", "I spent a summer in {c} when I was a kid."),
]
FRESH_CONTROLS: dict[str, list[str]] = {
    "home": ["Still loving {o}, the farmers market here is great."],
    "job": ["Another long week at {e}, but I like the team."],
    "hobby": ["Had a good week, and yes, I still {v} {o} every weekend."],
    "car": ["My {o} is still going strong, just did an oil change."],
}


APART_INITIAL: dict[str, list[str]] = {
    "home": [
        "I'm in {o} — been here since I finished school.",
        "My apartment in {o} is tiny, so I need small-space ideas.",
        "Living in {o}, I mostly shop at the little co-op down the street.",
    ],
    "job": [
        "I'm a {r} over at {e}, so weekdays are packed.",
        "My job is at {e}, where I'm a {r}.",
        "Been working at {e} as a {r} since before the pandemic.",
    ],
    "car": [
        "My daily driver is a {o}.",
        "I get around in a {o} — nothing fancy, but it starts every morning.",
        "Our only car is a {o}.",
    ],
    "diet": [
        "Just so you know, I'm vegetarian, so no meat in anything.",
        "As a vegetarian, I'm always hunting for new protein ideas.",
    ],
    "meat": [
        "I'm not picky at all, I eat meat and pretty much everything else.",
        "Chicken or beef recipes are great, I eat meat most days.",
    ],
    "partner": [
        "My boyfriend {o} and I are planning a weekend away.",
        "{o} and I have been together a couple of years now.",
        "I live with my partner, {o}, so dinner is usually for two.",
    ],
    "pet": [
        "Our {k}, {o}, is getting old but still loves attention.",
        "I share my apartment with a {k} named {o}.",
    ],
    "hobby": [
        "On weekends I usually {v} {o} with a couple of friends.",
        "In my free time I {v} {o}, it's how I switch off.",
    ],
    "meeting": [
        "My {m} is on {o} night, so I'm busy then.",
        "I can't do {o} evenings, that's my {m}.",
    ],
}

APART_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "Hey! Before anything else — we moved to {n} over "
            "the holidays, so everything's still in boxes.",
        ),
        (
            "revise",
            "now",
            "Hi again. I'm living in {n} now, so can you "
            "suggest some weekend activities around here?",
        ),
        ("revise", "negation", "We're not living in {o} anymore; the new place is in {n}."),
        (
            "revise",
            "used_to",
            "Back when I was in {o} I never needed a car, but now that I live in {n} I do.",
        ),
        (
            "revise",
            "presupposition",
            "My new neighbours in {n} are lovely, we had them over for dinner last night.",
        ),
        ("revise", "no_longer", "{o} is no longer home — I moved to {n} for work."),
        (
            "revise",
            "event",
            "thanks for the packing tips last time! we ended "
            "up relocating to {n} and the move went smoothly",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "Quick life update: I started as a {r} at {e} this "
            "week! Can you help me set up a to-do system?",
        ),
        ("revise", "now", "These days I'm a {r} with {e}, and I love it."),
        ("revise", "switched", "I switched jobs — I'm a {r} at {e} now, I left {oe} in May."),
        ("revise", "presupposition", "My first month at {e} has been a whirlwind."),
        ("end", "event", "Well, {oe} let half our team go on Tuesday, me included."),
        (
            "end",
            "event",
            "I resigned from {oe} — last Friday was my final day, and honestly I'm relieved.",
        ),
        (
            "end",
            "no_longer",
            "Not sure if I mentioned it, but I'm no longer with {oe}. Looking for something new.",
        ),
        ("end", "used_to", "I used to be at {oe}, but I'm between jobs right now."),
    ],
    "car": [
        (
            "revise",
            "event",
            "Picked up a used {n} yesterday — the {o} finally died on the highway.",
        ),
        (
            "revise",
            "switched",
            "We swapped our {o} for a {n}, so any car questions are about that now.",
        ),
        ("revise", "now", "heads up, my car's a {n} now, not the {o}."),
        (
            "end",
            "event",
            "Someone rear-ended my {o} and insurance wrote it off, so I'm carless for now.",
        ),
        (
            "end",
            "negation",
            "I don't have the {o} anymore — gave it to my nephew when he got his license.",
        ),
        ("revise", "used_to", "I used to drive a {o}; my car now is a {n}."),
    ],
    "diet": [
        ("revise", "event", "I made the jump from vegetarian to vegan about a month ago."),
        ("revise", "now", "Plant-based all the way now: I'm vegan, so no eggs, honey or dairy."),
        (
            "revise",
            "used_to",
            "I used to just be vegetarian, but I've been vegan since New Year's.",
        ),
        (
            "revise",
            "switched",
            "Hi! Small thing — I switched from vegetarian "
            "to vegan, so please keep recipes dairy-free.",
        ),
    ],
    "meat": [
        ("end", "gave_up", "I've cut out meat completely as of this month."),
        ("end", "no_longer", "Meat's no longer part of my diet, so please skip the chicken ideas."),
        ("end", "negation", "i'm not eating meat these days, so keep it veggie please"),
        (
            "end",
            "used_to",
            "I was a steak-every-Friday person once, but I haven't touched meat since March.",
        ),
        ("end", "gave_up", "Morning! Fyi I gave meat up for Lent and decided to stick with it."),
    ],
    "partner": [
        ("end", "event", "{o} and I ended things last weekend. I'm okay, mostly."),
        ("end", "negation", "{o} and I aren't together anymore, so it's just me on the trip."),
        ("end", "no_longer", "I'm no longer in a relationship with {o}."),
        (
            "revise",
            "event",
            "After {o} and I broke up, I met {n} — we've been dating for two months now.",
        ),
        ("revise", "now", "My partner is {n} now; {o} and I called it off in the spring."),
        ("end", "used_to", "{o} used to be my partner, but we broke up before the holidays."),
    ],
    "pet": [
        ("end", "event", "Sad news: {o} died on Thursday. The house feels so empty."),
        ("end", "event", "Our {k} {o} got really sick and didn't make it."),
        (
            "end",
            "negation",
            "We don't have our {k} anymore — my sister took {o} in since she has a big yard.",
        ),
        (
            "end",
            "no_longer",
            "We no longer have {o}; the new landlord doesn't "
            "allow pets, so we found {o} another family.",
        ),
        (
            "end",
            "event",
            "hi, a bit of a sad one today — we gave {o} away "
            "to a family with more space. Any tips for coping?",
        ),
    ],
    "hobby": [
        ("end", "gave_up", "I've packed in {o} — my back can't take it anymore."),
        ("end", "negation", "Honestly I'm not {vg} {o} anymore, work ate all my free time."),
        ("end", "no_longer", "Just a heads up, {o} is no longer a thing for me."),
        ("end", "used_to", "I used to {v} {o} every week, but I dropped it last fall."),
        ("end", "event", "After the injury in March I walked away from {o} for good."),
        (
            "end",
            "gave_up",
            "Random update: I stopped {vg} {o}, so my evenings are "
            "free. Anyway, what's a good book for a long flight?",
        ),
    ],
    "meeting": [
        ("revise", "correction", "Hang on, that's wrong — {m} is actually on {n}, not {o}."),
        ("revise", "correction", "Ugh, scratch that: {n}, not {o}."),
        ("revise", "correction", "sorry, typo! I meant {n} — the {m} has never been on {o}."),
        ("revise", "correction", "Let me fix that, it's {n} evenings, not {o}."),
        ("revise", "correction", "Actually no, {o} is wrong. My {m} is on {n}."),
    ],
}

APART_DISTRACTORS: list[tuple[str, str]] = [
    ("other_person", "My brother and his wife bought a house in {c}, we helped them move in."),
    ("other_person", "An old college friend of mine just got hired at {x}."),
    ("other_person", "My dad finally sold his truck and bought a {car}."),
    ("question", "What's the cost of living like in {c} compared to most places?"),
    ("question", "Is a {car} good on gas?"),
    ("hypothetical", "If I ever left my job, I'd probably try baking full time."),
    ("hypothetical", "Part of me would love to pack up and try {c} for a while."),
    ("trip", "Just got back from four days in {c}, the food was amazing."),
    ("trip", "Heading to {c} on Friday for a friend's birthday."),
    ("plan", "I'm planning to repaint the living room next month."),
    ("past", "Years ago I had a summer job in {c}, I loved it."),
    ("past", "When I was a teenager I worked at {x} for one summer."),
]

APART_CONTROLS: dict[str, list[str]] = {
    "home": [
        "Still here in {o} — the summer festival starts next week.",
        "Another gorgeous evening in {o}, I'm not going anywhere.",
    ],
    "job": [
        "Long day at {e} again; can you help me plan meals for the week?",
        "Still a {r} at {e}, still loving it.",
    ],
    "hobby": [
        "I'm still {vg} {o} on weekends, it keeps me sane.",
        "Still {vg} {o} whenever I get a free evening.",
    ],
    "car": [
        "Took the {o} in for new tires, it's still running great.",
        "Still driving my trusty {o}.",
    ],
}
"""The `apart` pool: written by a helper that had read neither the rules nor their tests
(only this module and benchmarks/beliefs.py), in wordings none of the other pools use;
scored once before any rule saw it (`phrasing="apart"`), its first score kept in the results."""

BLIND_INITIAL: dict[str, list[str]] = {
    "home": [
        "we're out in {o}, so whatever you suggest has to work with the weather here",
        "As someone who's lived in {o} most of my adult life, I'm spoilt for good coffee.",
        "Our flat's in {o}, about ten minutes' walk from the centre.",
    ],
    "job": [
        "Day job: {r} at {e}. Evenings are mine, though.",
        "I've been with {e} for a while now, as their {r}.",
        "Typing this on my lunch break at {e} — being a {r} doesn't leave much slack.",
    ],
    "car": [
        "We've got a {o} that does all the school runs.",
        "The {o} on my drive is the only thing I've ever bought on finance.",
        "I commute in my {o}, about forty minutes each way.",
    ],
    "diet": [
        "vegetarian here, so veggie options only pls",
        "I haven't eaten meat or fish in about ten years — vegetarian, though I do eat eggs "
        "and cheese.",
        "Being vegetarian, I lean on lentils and halloumi a lot.",
    ],
    "meat": [
        "We're a meat-and-two-veg household, so a Sunday roast is always welcome.",
        "Honestly I'm a total carnivore, bacon with everything.",
    ],
    "partner": [
        "{o} — my partner — keeps nagging me to take up running.",
        "We're coming up on five years together soon, {o} and me.",
        "Me and {o} share the cooking, so it has to be easy enough for both of us.",
    ],
    "pet": [
        "{o}, my {k}, has just knocked a plant off the windowsill again.",
        "Our household includes one very spoiled {k}: {o}.",
        "Feeding {o} is the first thing I do every morning — my {k} won't let me forget.",
    ],
    "hobby": [
        "Big fan of {vg} {o} — I try to fit it in a few times a week.",
        "weekends = {vg} {o}, no exceptions",
        "My whole calendar revolves around when I can {v} {o}.",
    ],
    "meeting": [
        "Every {o} evening I've got {m}, so don't book anything then.",
        "Note for the calendar: {m}, {o}, 7pm.",
        "My {o}s are taken up by {m}.",
    ],
}

BLIND_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "Got the keys to our flat in {n} on Saturday — goodbye {o}! Spent Sunday hauling "
            "boxes up three flights of stairs.",
        ),
        (
            "revise",
            "event",
            "I'm trying to find a GP who takes new patients, which has been harder than I "
            "expected since we came over to {n} from {o} in the spring.",
        ),
        (
            "revise",
            "now",
            "{n} is where I call home nowadays, so please aim any local recommendations there.",
        ),
        ("revise", "negation", "I haven't lived in {o} for a while — we rent a place in {n}."),
        (
            "revise",
            "used_to",
            "i used to rent a tiny studio in {o}; nowadays i've got a two-bed in {n}",
        ),
        (
            "revise",
            "presupposition",
            "Our first winter living in {n} has been way milder than anything we got in {o}.",
        ),
        (
            "revise",
            "no_longer",
            "As of last month my address is no longer in {o}: we bought a terraced house in {n}.",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "{e} offered me the {r} role and I said yes — I start on the 3rd. Could you help "
            "me draft a short hello for the team channel?",
        ),
        ("revise", "now", "currently a {r} at {e}, in case that changes your advice on pensions"),
        (
            "revise",
            "switched",
            "Changed employers over the summer: I left {oe} and joined {e} as a {r}.",
        ),
        (
            "revise",
            "presupposition",
            "Onboarding at {e} is so disorganised — three days in and I still don't have a "
            "laptop. How do I politely chase IT?",
        ),
        (
            "end",
            "event",
            "Got made redundant from {oe} on Thursday. Gutted. Can you help me work out a "
            "tight budget?",
        ),
        (
            "end",
            "event",
            "{oe} and I parted ways at the end of March — my decision, I'd had enough.",
        ),
        (
            "end",
            "no_longer",
            "I'm no longer on the payroll at {oe}, so ignore what I said about their pension "
            "scheme.",
        ),
        (
            "end",
            "used_to",
            "I used to put in sixty-hour weeks at {oe}; now I'm taking a few months off to "
            "recharge.",
        ),
    ],
    "car": [
        (
            "revise",
            "event",
            "Just drove a brand-new {n} home from the dealership — they took the old {o} off "
            "my hands as part of the deal.",
        ),
        (
            "revise",
            "switched",
            "We changed the {o} for a {n} in the end — mostly for the boot space.",
        ),
        ("revise", "now", "btw the motor's a {n} at the moment, not the {o}"),
        (
            "end",
            "event",
            "The {o} failed its MOT so badly it wasn't worth fixing; it got scrapped on Monday, "
            "so I'm on foot for now.",
        ),
        ("end", "negation", "The {o}'s not mine any more, my neighbour bought it off me."),
        (
            "revise",
            "used_to",
            "I used to get about in a {o}, but a {n} is what I'm driving at present.",
        ),
    ],
    "diet": [
        (
            "revise",
            "event",
            "I signed up for Veganuary on a whim and it stuck, so I'm vegan as of this year.",
        ),
        (
            "revise",
            "now",
            "currently eating fully plant-based — vegan — so nothing with butter, cheese or "
            "eggs please",
        ),
        (
            "revise",
            "used_to",
            "I used to eat eggs and cheese as a vegetarian, but I'm strictly vegan at this point.",
        ),
        (
            "revise",
            "switched",
            "swapped vegetarian for vegan a few weeks back, could you redo the shopping list "
            "without the feta?",
        ),
    ],
    "meat": [
        (
            "end",
            "gave_up",
            "Ditched meat entirely after watching that factory-farming documentary.",
        ),
        (
            "end",
            "gave_up",
            "so i've quit meat, doctor's orders re: cholesterol. what can I put in a stew "
            "instead of beef?",
        ),
        (
            "end",
            "no_longer",
            "This household no longer does meat at all (me included), so plan the week without it.",
        ),
        (
            "end",
            "negation",
            "Not a meat eater any more, so could you swap the chicken in that recipe for "
            "something else?",
        ),
        (
            "end",
            "used_to",
            "I used to live on burgers and bacon, but that's all behind me — no meat since the "
            "spring.",
        ),
    ],
    "partner": [
        (
            "end",
            "event",
            "So {o} and I separated after six years. Could you help me figure out how to split "
            "the furniture fairly?",
        ),
        (
            "end",
            "negation",
            "{o}'s not my partner any longer, though we're trying to stay friends.",
        ),
        (
            "end",
            "no_longer",
            "Please forget the anniversary ideas — {o} and I are no longer a couple.",
        ),
        (
            "revise",
            "event",
            "I met {n} at a friend's wedding in May and we made it official last week!",
        ),
        ("revise", "now", "My other half nowadays is {n}; {o} is very much in the past."),
        (
            "end",
            "used_to",
            "I used to share a flat with {o}, but since we split I've been living on my own.",
        ),
    ],
    "pet": [
        (
            "end",
            "event",
            "We said goodbye to {o} at the vet's on Saturday morning. Fourteen good years.",
        ),
        (
            "end",
            "event",
            "{o} slipped out through the gate last week and never came home; we've stopped "
            "searching now.",
        ),
        (
            "end",
            "event",
            "My parents took {o} in on their farm — with my hours I just couldn't look after a "
            "{k} properly.",
        ),
        ("end", "negation", "There's no {k} at ours any more — {o} lives with my ex now."),
        (
            "end",
            "no_longer",
            "Since {o} is no longer with us, could you help me write a few words for the little "
            "memorial we're planning?",
        ),
    ],
    "hobby": [
        (
            "end",
            "gave_up",
            "Called it quits on {o} in September, too many late nights. What's a calmer hobby "
            "I could try?",
        ),
        ("end", "gave_up", "i've jacked in {o}, the fees were daylight robbery"),
        ("end", "negation", "no more {vg} {o} for me, my wrist won't have it"),
        (
            "end",
            "no_longer",
            "Between the new baby and work I can no longer find the time to {v} {o}, so I've "
            "let it go.",
        ),
        (
            "end",
            "used_to",
            "Wednesday nights used to mean {vg} {o} at the leisure centre, but I haven't been "
            "since the summer.",
        ),
        (
            "end",
            "event",
            "Officially retired from {o} last weekend after ten years — threw a little party "
            "and everything.",
        ),
    ],
    "meeting": [
        ("revise", "correction", "Oops, {o} was a slip of the keyboard — {n}s are {m}."),
        (
            "revise",
            "correction",
            "no wait, {n}! i always mix those two up. the {m} has been on {n} for ages",
        ),
        (
            "revise",
            "correction",
            "Correcting myself: the {m} I go to runs on {n} evenings; {o} was a brain fade.",
        ),
        (
            "revise",
            "correction",
            "Apologies, I misspoke a moment ago. It's {n} for {m}; {o} is when I do the big "
            "food shop.",
        ),
        (
            "revise",
            "correction",
            "Did I say {o}? I meant {n}. Could you remind me to leave work early that day?",
        ),
    ],
}

BLIND_DISTRACTORS: list[tuple[str, str]] = [
    ("other_person", "My flatmate's been offered a transfer to {c} and she's going to take it."),
    (
        "other_person",
        "Dad's retiring from {x} in June after thirty years, so we're planning him a party.",
    ),
    (
        "other_person",
        "Our neighbours replaced their minivan with a {car} and haven't stopped talking about "
        "it since.",
    ),
    ("other_person", "My sister went vegan last year and won't shut up about oat milk."),
    ("question", "Roughly how long would it take to drive to {c} from here?"),
    ("question", "Would a {car} fit three car seats across the back?"),
    ("hypothetical", "In another life I'd have been a marine biologist living somewhere like {c}."),
    ("hypothetical", "If money were no object I'd buy a {car} tomorrow."),
    ("trip", "We've booked three nights in {c} over half-term — any must-sees?"),
    ("trip", "Spent all of Tuesday in {c} for a client meeting, I'm shattered."),
    ("plan", "Planning to apply to {x} when their graduate scheme opens in the autumn."),
    ("past", "Back in 2015 I had a Saturday job at {x}, stacking shelves."),
    ("past", "As a kid I spent every summer at my grandparents' place in {c}."),
]

BLIND_CONTROLS: dict[str, list[str]] = {
    "home": [
        "It's been chucking it down in {o} all week — any indoor ideas for the weekend?",
        "Seven years in {o} this month and I'm still finding new coffee spots.",
    ],
    "job": [
        "Payday at {e} at last! Can you help me split it between savings and bills?",
        "Our team at {e} got a new manager, but I'm still the {r} there, same as ever.",
    ],
    "hobby": [
        "Managed to {v} {o} three times this week, which is a personal best.",
        "Another great evening {vg} {o} yesterday; it's still the best part of my week.",
    ],
    "car": [
        "The {o} just ticked over 150,000 miles and it's still purring along.",
        "Gave the {o} a proper wash this morning — can you recommend a decent wax?",
    ],
}
"""The `blind` pool: written by a helper that had read neither the rules nor their tests
nor any score (only this module and benchmarks/beliefs.py), in wordings none of the other
pools use; scored once before any rule saw it (`phrasing="blind"`), its first score kept in
the results."""


SEALED_INITIAL: dict[str, list[str]] = {
    "home": [
        "fyi i'm {o}-based, so anything outdoorsy has to cope with the climate here",
        "Having put down roots in {o} about eight years ago, I know the neighbourhood pretty "
        "well — it's the council paperwork that baffles me.",
        "My little terraced cottage in {o} has the draughtiest windows imaginable. How do I "
        "keep the heat in?",
    ],
    "job": [
        "I'm the {r} on a small team at {e}, so my weeks are fairly predictable.",
        "Work-wise I'm employed by {e}, doing the {r} thing four days a week.",
        "As a {r} for {e}, I'm usually wiped out by Thursday, so keep suggestions low-effort.",
    ],
    "car": [
        "my {o} needs new wiper blades, which ones should I get",
        "Parked outside our house is a {o} we've had since the kids were small.",
        "I own a {o} and do a lot of motorway driving, so fuel-economy tips are welcome.",
    ],
    "diet": [
        "I've not touched meat since uni — veggie through and through, though dairy's fine.",
        "Please bear in mind that I follow a vegetarian diet when you suggest restaurants.",
        "lifelong vegetarian here lol, what do I bring to a bbq",
    ],
    "meat": [
        "We're big on grilling at ours — ribs, brisket, burgers, the lot.",
        "Meat's a staple for me, so feel free to build meals around chicken or pork.",
    ],
    "partner": [
        "Planning something for {o}'s birthday; we've been a couple since 2019, so it ought "
        "to be special.",
        "my other half {o} burns everything lol so dinner's always on me",
        "I share a home with my girlfriend, {o}, and we're hoping to redo the kitchen this year.",
    ],
    "pet": [
        "Is it normal for a {k} to sleep this much? Mine, {o}, barely leaves the sofa.",
        "I adopted {o} from a shelter three years ago, best {k} anyone could ask for.",
        "{o} (our {k}) is due a booster jab next week — what should I ask the vet?",
    ],
    "hobby": [
        "Thursdays after work I {v} {o} with some mates from uni.",
        "{vg} {o} is basically my therapy, I'd do it daily if I could",
        "I've been {vg} {o} since my teens and I'm still hooked.",
    ],
    "meeting": [
        "Can we keep {o} nights clear? That's when {m} happens.",
        "The {m} I belong to is a {o} thing, straight after work.",
        "I'm at {m} on {o}s, so I'd rather not book the dentist then.",
    ],
}

SEALED_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "We finally closed on a house in {n} and cleared out of {o} last weekend; what "
            "should I sort first in a new home?",
        ),
        (
            "revise",
            "event",
            "When we upped sticks from {o} to {n} in April, the removal firm lost two boxes. "
            "How do I file a claim?",
        ),
        (
            "revise",
            "now",
            "Heads-up that I'm a {n} resident these days — tailor the local suggestions to that.",
        ),
        (
            "revise",
            "negation",
            "Please don't bother with {o} listings; I don't reside there now — my flat's in {n}.",
        ),
        ("revise", "used_to", "Home used to be {o}; now it's a flat above a bakery in {n}."),
        (
            "revise",
            "presupposition",
            "The neighbours on my new street in {n} keep inviting us to barbecues — what's a "
            "polite way to turn some down?",
        ),
        (
            "revise",
            "no_longer",
            "My post no longer goes to {o}, it's all redirected to {n} after the move. Who else "
            "needs my new address?",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "signed the contract with {e} this morning — {r}, starting in two weeks!! what do "
            "I wear on day one",
        ),
        ("revise", "now", "Please update your notes: my current position is {r} with {e}."),
        (
            "revise",
            "switched",
            "After four years at {oe} I jumped ship to {e}; I'm their {r} now.",
        ),
        (
            "revise",
            "presupposition",
            "My manager at {e} wants a progress summary by Friday and I've only been their {r} "
            "for a month. Would you mind helping me structure it?",
        ),
        (
            "end",
            "event",
            "Well, that's that: {oe} axed my whole department this morning.",
        ),
        (
            "end",
            "event",
            "Now that I've resigned from {oe} and worked out my notice, my weekdays are free — "
            "what should I learn?",
        ),
        (
            "end",
            "no_longer",
            "{oe} is no longer my employer as of last Friday, so I'll need to sort out my own "
            "health insurance. Where do I start?",
        ),
        (
            "end",
            "used_to",
            "{oe} used to be where I clocked in every morning; these days I'm at home caring for "
            "my mum.",
        ),
    ],
    "car": [
        (
            "revise",
            "event",
            "Collected our new {n} from the garage on Friday, and the dealer gave us a fair "
            "price for the {o}.",
        ),
        (
            "revise",
            "switched",
            "We replaced the {o} with a {n} because insuring the old one was ridiculous.",
        ),
        (
            "revise",
            "now",
            "What tyre pressure should a {n} run at? That's what I'm driving these days, not "
            "the {o}.",
        ),
        (
            "end",
            "event",
            "My {o} got nicked off the driveway last week and the police reckon it's gone for "
            "good, so I'm getting the train.",
        ),
        (
            "end",
            "negation",
            "I don't own the {o} now; it went to my daughter when she passed her test.",
        ),
        (
            "revise",
            "used_to",
            "Back in my {o} days I was always at the mechanic, whereas the {n} hasn't given me "
            "a single problem.",
        ),
    ],
    "diet": [
        (
            "revise",
            "event",
            "took the plunge and went fully plant-based on New Year's Day — vegan!",
        ),
        (
            "revise",
            "now",
            "Could you make that recipe vegan? Eggs and dairy are off my plate at the moment.",
        ),
        (
            "revise",
            "used_to",
            "Cheese was the one thing I kept when I was vegetarian, but I've since gone the whole "
            "way to vegan.",
        ),
        (
            "revise",
            "switched",
            "After years as a vegetarian I've moved on to veganism, so no honey or whey either.",
        ),
    ],
    "meat": [
        (
            "end",
            "gave_up",
            "Cut meat out of my diet in February for the climate and haven't missed it.",
        ),
        (
            "end",
            "gave_up",
            "I've sworn off meat after reading a book on industrial farming — what's a good "
            "bean chilli?",
        ),
        (
            "end",
            "no_longer",
            "Meat no longer features in anything I cook or order, so leave it out of the meal "
            "plan please.",
        ),
        (
            "end",
            "negation",
            "not doing meat at all these days, so what would you put in a lasagne instead of mince",
        ),
        (
            "end",
            "used_to",
            "Pork chops were my go-to dinner once; I've been meat-free since the autumn though.",
        ),
    ],
    "partner": [
        (
            "end",
            "event",
            "{o} packed their things and moved out on Sunday; we've ended it for good. How do "
            "I tell my parents?",
        ),
        ("end", "negation", "Please don't mention {o} in the toast — we aren't an item now."),
        ("end", "no_longer", "Just so you're aware, I'm no longer dating {o}; it ended amicably."),
        (
            "revise",
            "event",
            "Months after things finished with {o}, a friend set me up with {n}, and last night "
            "we agreed to be exclusive!",
        ),
        (
            "revise",
            "now",
            "{n} is the one I'm with these days — {o} and I went our separate ways last year.",
        ),
        (
            "end",
            "used_to",
            "{o} and I used to do Sunday brunch every week, but that stopped when we split in "
            "March.",
        ),
    ],
    "pet": [
        (
            "end",
            "event",
            "We had {o} put to sleep on Tuesday; the kidney disease had got too much. I can't "
            "stop crying.",
        ),
        (
            "end",
            "event",
            "{o} got hit by a car yesterday and didn't survive. How do I explain it to a "
            "six-year-old?",
        ),
        (
            "end",
            "event",
            "A family down the road adopted {o} from us last week, because our newborn turned "
            "out to be allergic to the {k}.",
        ),
        (
            "end",
            "negation",
            "We haven't got a {k} at present — {o} moved in with my aunt in the countryside.",
        ),
        (
            "end",
            "no_longer",
            "With {o} no longer in the house, should I donate the leftover {k} food and the bed?",
        ),
    ],
    "hobby": [
        ("end", "gave_up", "I've knocked {o} on the head, it was eating every spare evening."),
        (
            "end",
            "gave_up",
            "After a lot of thought I've dropped {o} altogether. What's something low-key to "
            "fill my Saturdays?",
        ),
        ("end", "negation", "There's no {vg} {o} in my life now — the tendonitis saw to that."),
        (
            "end",
            "no_longer",
            "Since {vg} {o} no longer fits around the kids' bedtimes, I've let it lapse.",
        ),
        (
            "end",
            "used_to",
            "Back when I had more free time I'd {v} {o} most evenings; I haven't in over a year.",
        ),
        (
            "end",
            "event",
            "Bid farewell to {o} with one last session on Sunday; that's me done for good.",
        ),
    ],
    "meeting": [
        ("revise", "correction", "argh not {o}, {n}!! {m}'s always been {n}"),
        (
            "revise",
            "correction",
            "Let me amend that: {m} takes place on {n}, and {o} is actually free.",
        ),
        ("revise", "correction", "My mistake — swap {o} for {n} in what I just said about {m}."),
        (
            "revise",
            "correction",
            "Hmm, I've confused my days: {n} is {m}, not {o}. While you're at it, could you set "
            "a reminder for that evening?",
        ),
        ("revise", "correction", "{o}?? No, what am I saying — {m} is every {n}."),
    ],
}

SEALED_DISTRACTORS: list[tuple[str, str]] = [
    (
        "other_person",
        "My cousin is packing up and heading to {c} for good next month; what's a nice "
        "leaving gift?",
    ),
    ("other_person", "My brother-in-law has been poached by {x} and starts there on Monday."),
    ("other_person", "Our neighbour finally traded up to a {car} and keeps offering me lifts."),
    (
        "other_person",
        "My flatmate's cat died last night and she's in bits — what can I do to cheer her up?",
    ),
    ("question", "How does a {car} cope with snow, out of interest?"),
    ("question", "What's the job market like in {c} for someone in my line of work?"),
    ("hypothetical", "If I won the lottery I'd tell my boss where to stick it and retire to {c}."),
    ("hypothetical", "Were I ten years younger, I'd retrain and apply to {x} in a heartbeat."),
    ("trip", "Flying out to {c} on Thursday for my sister's hen do — what do I need to bring?"),
    ("trip", "Just landed home after a work trip to {c}; remind me to file my expenses tomorrow."),
    ("plan", "Thinking I might put in an application at {x} once my course wraps up in June."),
    (
        "past",
        "Twenty years ago I waited tables in {c} one summer, and I still dream about the food.",
    ),
    ("past", "My first ever car was a {car}, bought off a neighbour when I was seventeen."),
]

SEALED_CONTROLS: dict[str, list[str]] = {
    "home": [
        "Snowed in here in {o} again — what board games work for two adults?",
        "We'll have been living in {o} a decade come spring, and we've no intention of leaving.",
    ],
    "job": [
        "My annual review at {e} is on Friday. As the team's {r}, which achievements should I "
        "highlight?",
        "no changes on the work front — still {r}, still at {e}, still knackered",
    ],
    "hobby": [
        "Got up early to {v} {o} before work again today, best habit I've got.",
        "Still hooked on {vg} {o}; honestly can't imagine stopping.",
    ],
    "car": [
        "The {o} sailed through its service today, not bad for its age.",
        "Need a roof box for my {o} before the summer holiday — which ones fit?",
    ],
}
"""The `sealed` pool: written by a helper that read neither the rules, their tests, nor any
score (only this module and benchmarks/beliefs.py), in wordings none of the other pools use
(no four-word run shared with them); kept unscored until the rules of session 2026-12-06 were
done (`phrasing="sealed"`)."""


SEALED2_INITIAL: dict[str, list[str]] = {
    "home": [
        "born n raised in {o} and never left tbh, so give me a day out i haven't heard of",
        "Mind giving me a hand wording a complaint to the council? I've been on the same street "
        "in {o} for twelve years and the potholes have never been this bad.",
        "Our unit in {o} cops the full afternoon sun — reckon blockout blinds are worth it?",
    ],
    "job": [
        "Donkey's years I've been at {e} as the {r} — how do I stop Tuesdays dragging?",
        "{e} has just offered staff a pension top-up; as their {r}, should I opt in?",
        "I'm on the books at {e} as their {r}, so my arvos are pretty chockers — keep the meal "
        "ideas quick, yeah?",
    ],
    "car": [
        "how often should i get the oil changed on my {o}? it's done about 90k miles",
        "The {o} sitting on our drive is due an MOT next month; what tends to fail?",
        "Mostly I potter round town in my {o}; are winter tyres worth it for short hops?",
    ],
    "diet": [
        "Veggie household here (no meat or fish, eggs are fine), so any thoughts on a Sunday "
        "lunch?",
        "Given that I've kept to a vegetarian diet for a decade, where ought I to get my iron?",
        "I'm a vego, mate — chuck some halloumi on it and I'm happy.",
    ],
    "meat": [
        "Carnivore through and through — I'd eat steak nightly if my wallet let me. Marinade "
        "ideas?",
        "I won't call it dinner unless there's a chop or a sausage on my plate, so nothing too "
        "fancy please.",
    ],
    "partner": [
        "{o} and I hit five years together in May — any ideas for a romantic getaway?",
        "My boyfriend {o} snores like a freight train. Earplugs or separate rooms, what do you "
        "reckon?",
        "Me and {o} have been inseparable since sixth form, and now we're talking about getting a "
        "puppy.",
    ],
    "pet": [
        "what's a chew toy that'll survive a {k} like {o}? every single one has been wrecked",
        "Our {k}, {o}, turns ten next week and I want to throw a tiny party — too daft?",
        "I'm the proud owner of {o}, a rescue {k} with a vendetta against the postman.",
    ],
    "hobby": [
        "Wednesday nights I {v} {o} down at the community centre; it's the best bit of my week.",
        "Could you suggest some stretches for after I {v} {o}? I'm at it three times a week and "
        "always stiff.",
        "Weekends in our house mean {vg} {o}, rain or shine.",
    ],
    "meeting": [
        "My {m}'s on {o}, so that evening's a write-off.",
        "heads up, {o}s are {m} so i can't do anything after six",
        "Every {o} after work I head to {m}; it's what keeps me going.",
    ],
}

SEALED2_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "keys to the new house in {n} handed over yesterday, so that's {o} done with!! whats "
            "the process for changing my address at the bank",
        ),
        (
            "revise",
            "event",
            "We did the big move up to {n} about six weeks ago. Left {o} behind and haven't "
            "looked back once.",
        ),
        (
            "revise",
            "now",
            "{n}'s home now, so keep any weekend ideas round there please.",
        ),
        (
            "revise",
            "negation",
            "{o}? Nah, not there any more, mate — we shifted to {n} before Christmas.",
        ),
        (
            "revise",
            "used_to",
            "Used to rent in {o}; bought a little two-up two-down in {n} last year and love it.",
        ),
        (
            "revise",
            "presupposition",
            "The super in our new building in {n} won't let us hang anything on the walls. Is "
            "that even legal?",
        ),
        (
            "revise",
            "no_longer",
            "Kindly update your records: I no longer reside at my {o} address and am now "
            "domiciled in {n}.",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "Guess who's the new {r} at {e}?? Me!!! First shift was today.",
        ),
        (
            "revise",
            "now",
            "For the record, {e} pays my wages now — I'm their {r}.",
        ),
        (
            "revise",
            "switched",
            "Moved across from {oe} to {e}, where I'm the {r}; honestly should've done it years "
            "ago.",
        ),
        (
            "revise",
            "presupposition",
            "My colleagues at {e} keep calling me 'the new {r}'. How long before that wears off?",
        ),
        (
            "end",
            "event",
            "{oe} made my role redundant on Wednesday. Would you help me tidy up my CV?",
        ),
        (
            "end",
            "event",
            "So I walked out of {oe} yesterday after a blazing row with my boss. Never going back.",
        ),
        (
            "end",
            "no_longer",
            "Since {oe} no longer employs me, please stop suggesting I run things past their HR.",
        ),
        (
            "end",
            "used_to",
            "My whole life used to revolve around {oe}, but I retired a month ago and I'm loving "
            "every minute.",
        ),
    ],
    "car": [
        (
            "revise",
            "event",
            "picked up a secondhand {n} on the weekend, the old {o} finally went to the wreckers",
        ),
        (
            "revise",
            "switched",
            "Swapped out the {o}; I'm in a {n} now. How do I pair my phone with it?",
        ),
        (
            "revise",
            "now",
            "Since I'm behind the wheel of a {n} rather than the {o} these days, which dashcam "
            "would suit it?",
        ),
        (
            "end",
            "event",
            "Wrote off the {o} on the motorway on Saturday. I'm fine, just carless for now.",
        ),
        (
            "end",
            "negation",
            "I haven't got the {o} now, had to flog it to make rent.",
        ),
        (
            "revise",
            "used_to",
            "The {o} was my trusty runaround for years, but it's a {n} on the drive now and it "
            "parks itself.",
        ),
    ],
    "diet": [
        (
            "revise",
            "event",
            "Did Veganuary and never went back, so it's fully vegan for me now. Any decent cheese "
            "substitutes?",
        ),
        (
            "revise",
            "now",
            "honestly vegan these days, so if it came out of an animal i can't have it",
        ),
        (
            "revise",
            "used_to",
            "Used to be plain vegetarian; nowadays it's vegan all the way, eggs and milk included.",
        ),
        (
            "revise",
            "switched",
            "I've taken the leap from veggie to fully vegan — please swap the butter for oil in "
            "that recipe.",
        ),
    ],
    "meat": [
        (
            "end",
            "gave_up",
            "Kicked meat to the kerb after that documentary — what can I use instead of bacon?",
        ),
        (
            "end",
            "gave_up",
            "Decided to ditch meat during Lent and it stuck. Help me rethink the Christmas menu?",
        ),
        (
            "end",
            "no_longer",
            "Meat's no longer something I eat, so tofu instead of chicken in that stir-fry, if "
            "you would.",
        ),
        (
            "end",
            "negation",
            "nah i don't touch meat now, not even chicken. best protein for gym days?",
        ),
        (
            "end",
            "used_to",
            "The old me used to order a mixed grill wherever we ate out; six months now without "
            "any meat at all.",
        ),
    ],
    "partner": [
        (
            "end",
            "event",
            "Me and {o} pulled the plug on Friday. No idea how we're going to split the flat.",
        ),
        (
            "end",
            "negation",
            "{o} isn't my girlfriend now, so the anniversary dinner's off — can you cancel that "
            "reminder?",
        ),
        (
            "end",
            "no_longer",
            "We're no longer together, {o} and me. It's been a rough old month.",
        ),
        (
            "revise",
            "event",
            "Things with {o} fizzled out over the summer, and I've since started going out with "
            "{n}. Where should we go for our first weekend away?",
        ),
        (
            "revise",
            "now",
            "It's {n} I'm seeing now; {o} is well and truly in the past.",
        ),
        (
            "end",
            "used_to",
            "{o} and me used to be a thing, but we've been apart since spring and I'm doing fine.",
        ),
    ],
    "pet": [
        (
            "end",
            "event",
            "Held {o}'s paw while the vet did it this morning. Sixteen years with that {k}. How "
            "do I get through today?",
        ),
        (
            "end",
            "event",
            "{o} slipped away in the night on Thursday, peacefully at least. Should we get the "
            "kids another {k} straight away or wait?",
        ),
        (
            "end",
            "event",
            "Because we're emigrating and couldn't take a {k} with us, {o} went to a lovely "
            "family on a farm last weekend. We all miss the poor thing terribly.",
        ),
        (
            "end",
            "negation",
            "I don't have {o} now; my brother took the {k} when I started travelling for work.",
        ),
        (
            "end",
            "no_longer",
            "Now that {o}'s no longer with the family, would you write me a little poem about our "
            "{k}?",
        ),
    ],
    "hobby": [
        (
            "end",
            "gave_up",
            "Packed in {o} last month, could never find the time. Any cheap hobbies I can do from "
            "the sofa?",
        ),
        (
            "end",
            "gave_up",
            "Time to hang up my boots where {o} is concerned — I've called it a day.",
        ),
        (
            "end",
            "negation",
            "i don't really {v} {o} at all nowadays, haven't for months",
        ),
        (
            "end",
            "no_longer",
            "{vg} {o} doesn't feature in my week any longer, so Tuesdays are suddenly free. Fancy "
            "helping me fill them?",
        ),
        (
            "end",
            "used_to",
            "Was mad about {o} once upon a time, yet I've not gone near it since the baby arrived.",
        ),
        (
            "end",
            "event",
            "Friday was the last time I'll be {vg} {o}; I've cancelled the lot and I'm done.",
        ),
    ],
    "meeting": [
        (
            "revise",
            "correction",
            "nope, {n} not {o} — brain's fried today",
        ),
        (
            "revise",
            "correction",
            "Apologies, I misspoke: {m} is held on {n} evenings rather than {o}.",
        ),
        (
            "revise",
            "correction",
            "Hold on, {o} was wrong, it's {n}. Pencil {m} in for {n} for me, would you?",
        ),
        (
            "revise",
            "correction",
            "Oh hang on, {m} happens on {n}; {o} is my gym night, silly me.",
        ),
        (
            "revise",
            "correction",
            "Nah, my bad — {m}'s on a {n}, not a {o}.",
        ),
    ],
}

SEALED2_DISTRACTORS: list[tuple[str, str]] = [
    (
        "other_person",
        "My best mate's just landed a job at {x}. What's a good congratulations gift?",
    ),
    (
        "other_person",
        "Mum's finally selling up and moving to {c} to be near my aunt.",
    ),
    (
        "other_person",
        "My dad's gone vegan, of all people! What can I cook him for his birthday?",
    ),
    (
        "other_person",
        "My sister's boyfriend dumped her over text, can you believe it? How do I help her?",
    ),
    (
        "question",
        "Is a {car} any good on petrol, or would a hybrid be smarter?",
    ),
    (
        "question",
        "Are rents in {c} as steep as people make out?",
    ),
    (
        "hypothetical",
        "If {x} ever rang me with an offer, I'd bite their hand off.",
    ),
    (
        "hypothetical",
        "Imagine if we chucked it all in and bought a farmhouse outside {c} — madness, right?",
    ),
    (
        "trip",
        "Girls' weekend in {c} coming up — what's worth seeing?",
    ),
    (
        "trip",
        "Back from a week in {c} visiting the in-laws; so glad to be in my own bed.",
    ),
    (
        "plan",
        "We're booked in to test-drive a {car} on Saturday, purely out of curiosity.",
    ),
    (
        "past",
        "Back in uni I did a summer of temping at {x}, making tea and doing the filing.",
    ),
    (
        "past",
        "As a student I shared a grotty flat in {c} with four lads. Never again!",
    ),
]

SEALED2_CONTROLS: dict[str, list[str]] = {
    "home": [
        "Still loving life in {o} — the farmers' market here is unbeatable.",
        "It's a decade since we settled in {o}, and we've zero plans to budge. Fun ways to mark "
        "it?",
    ],
    "job": [
        "Manic few days at {e} as usual, but that's being the {r} for you.",
        "Yep, still {e}'s {r}. Mind drafting my out-of-office message for next week?",
    ],
    "hobby": [
        "Went to {v} {o} again last night and I'm still buzzing from it.",
        "{vg} {o} is still what gets me through a long week.",
    ],
    "car": [
        "Took the {o} through the car wash this weekend; the old girl's still going strong.",
        "the {o}'s still running like a dream, 200k on the clock",
    ],
}
"""The `sealed2` pool: written by a further helper that read neither the rules, their tests,
nor any score (only this module and benchmarks/beliefs.py), in wordings none of the other
pools use (no four-word run shared with them, FILLER or REPLIES); kept unscored until the end
of session 2026-12-06 (`phrasing="sealed2"`)."""


SEALED3_INITIAL: dict[str, list[str]] = {
    "home": [
        "Quick bit of background: my place is in {o}, so anything you suggest needs to be "
        "reachable from there.",
        "been renting the same apartment in {o} since 2017 lol, now the landlord wants more. "
        "how do i argue it down",
        "What's a decent hike within an hour of {o}? That's where I live, and I'm bored of the "
        "usual trails.",
        "Us {o} folk get about three sunny days a year, so indoor ideas please.",
    ],
    "job": [
        "I do the {r} job at {e} — nine to five, mostly stuck at a desk.",
        "Writing my self-assessment for {e} tonight; I've been their {r} going on four years. "
        "Where do I even start?",
        "im a {r}, work for {e}. any tricks for staying awake in 3pm meetings",
        "My employer is {e} and my title there is {r}, if that helps with the LinkedIn summary.",
    ],
    "car": [
        "Whats the best way to get dog hair off the back seats of my {o}?",
        "I've driven the same {o} since 2018 and it's never once let me down.",
        "The family runaround's a {o}, and the boot barely fits the pushchair. Any packing hacks?",
    ],
    "diet": [
        "Veggie for life over here — no meat, no fish, but I'll happily eat eggs.",
        "I'm vegetarian but my flatmates aren't, so dinners that work both ways would be great.",
        "been a vegetarian since i was 14, what's a filling lunch that isn't just cheese "
        "sandwiches",
    ],
    "meat": [
        "Honestly, a meal without meat feels incomplete to me — pulled pork, meatballs, bring "
        "it on.",
        "I'm a proper meat lover, so don't bother with the tofu versions.",
        "we eat meat pretty much every night at my house, whats a good cut for slow cooking",
    ],
    "partner": [
        "It's three years with {o} next month and I'm hopeless at gifts — help?",
        "my partner {o} wants to learn to cook, any beginner recipes we could try together?",
        "I've been seeing {o} for about eighteen months and we're wondering where to go this "
        "summer.",
    ],
    "pet": [
        "Any way to stop my {k}, {o}, begging at the table?",
        "{o} is my {k} — seven years old, very greedy, a total sweetheart.",
        "there's a {k} at home, {o}, who demands breakfast at 6am sharp. any way to shift that",
    ],
    "hobby": [
        "I {v} {o} on Tuesday and Thursday evenings; it's my one real hobby.",
        "Been {vg} {o} for years now — it's the thing I'd never skip.",
        "any tips for getting better at {o}? i {v} it most weekends but i've plateaued",
    ],
    "meeting": [
        "FYI {o} evenings are {m} for me.",
        "It's {m} every {o} at seven, so I'll be offline then.",
        "cant do {o}, got {m}",
        "I'm off to {m} on {o} as usual, so could the reminder be for the morning instead?",
    ],
}

SEALED3_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "We've moved out of {o} — officially living in {n} as of Tuesday. Which jobs should I "
            "tackle first after a big move?",
        ),
        (
            "revise",
            "event",
            "finally got the move done, bye {o}, hello {n}! sorry if i've been quiet. how do "
            "people find a dentist round here",
        ),
        (
            "revise",
            "now",
            "I'm a {n} local now, so anything back in {o} is too far to bother with.",
        ),
        (
            "revise",
            "negation",
            "Scratch {o} from your notes, I don't live there any more. It's {n} for me now.",
        ),
        (
            "revise",
            "used_to",
            "I used to call {o} home, but we packed up for {n} in the autumn.",
        ),
        (
            "revise",
            "presupposition",
            "Since our move to {n} I've put on half a stone — the bakeries here are lethal.",
        ),
        (
            "revise",
            "presupposition",
            "The commute from the new flat in {n} is brutal; any audiobook recs for the train?",
        ),
        (
            "revise",
            "no_longer",
            "I'm no longer a {o} resident, we bought a semi in {n} over the summer.",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "accepted the offer from {e} today!!! {r}, starting on the 1st. what should i read "
            "up on before then",
        ),
        (
            "revise",
            "event",
            "First week as {e}'s new {r} done and dusted. Exhausted but happy.",
        ),
        (
            "revise",
            "now",
            "I'm with {e} nowadays, their {r} — could you tweak my email signature to match?",
        ),
        (
            "revise",
            "switched",
            "Left {oe} and went over to {e} in the spring; I'm a {r} there now.",
        ),
        (
            "revise",
            "presupposition",
            "My new boss at {e} books meetings at 8am. As the newest {r} on the team, how do I "
            "push back politely?",
        ),
        (
            "revise",
            "used_to",
            "I used to clock in at {oe}; these days I'm {e}'s {r}.",
        ),
        (
            "end",
            "event",
            "Handed back my badge at {oe} this afternoon — they didn't renew my contract.",
        ),
        (
            "end",
            "event",
            "they cut 200 jobs at {oe} today and mine was one of them. what benefits can i claim",
        ),
        (
            "end",
            "negation",
            "Heads up, I'm not employed by {oe} now, so skip anything about their staff discount.",
        ),
        (
            "end",
            "no_longer",
            "I'm no longer working for {oe}; freelancing for the time being.",
        ),
        (
            "end",
            "used_to",
            "Mornings used to mean a packed train to {oe}. Not any more — I retired in June!",
        ),
    ],
    "car": [
        (
            "revise",
            "event",
            "Just bought a {n}! Sold the {o} privately for more than I expected.",
        ),
        (
            "revise",
            "switched",
            "Ditched the {o} and got a {n} — the finance was up and I fancied a change.",
        ),
        (
            "revise",
            "now",
            "Currently it's a {n} I'm driving, not the {o}. Does that change the insurance advice?",
        ),
        (
            "revise",
            "used_to",
            "I used to have a {o}, but I've had a {n} since July and it's so much nicer to drive.",
        ),
        (
            "end",
            "event",
            "Some idiot reversed into my {o} in the supermarket car park and it's been written "
            "off. Bus it is for now.",
        ),
        (
            "end",
            "negation",
            "I don't have a car at all now — the {o} went to the scrapyard last month.",
        ),
        (
            "end",
            "no_longer",
            "i no longer own the {o}, sold it to a guy from work. walking everywhere lol",
        ),
    ],
    "diet": [
        (
            "revise",
            "event",
            "Officially went vegan two weeks ago! Shopping list with zero animal products, please?",
        ),
        (
            "revise",
            "event",
            "My doctor suggested cutting out dairy, so I've gone the whole hog — vegan since "
            "Monday.",
        ),
        (
            "revise",
            "now",
            "vegan now btw so no eggs in the brownies pls",
        ),
        (
            "revise",
            "used_to",
            "I used to allow myself cheese and eggs, but I'm properly vegan these days.",
        ),
        (
            "revise",
            "switched",
            "Changed over from veggie to vegan in July, so honey's out too.",
        ),
    ],
    "meat": [
        (
            "end",
            "gave_up",
            "Gave up meat for good at New Year — what do I make for a roast dinner now?",
        ),
        (
            "end",
            "gave_up",
            "I've dropped meat completely, it was wrecking my stomach. Ideas for high-protein "
            "breakfasts?",
        ),
        (
            "end",
            "no_longer",
            "Just flagging that meat is no longer on my menu — plant-based mains only from here "
            "on.",
        ),
        (
            "end",
            "negation",
            "meat's not something i eat anymore, so can you redo the meal plan without it",
        ),
        (
            "end",
            "negation",
            "Not having any meat these days, on my GP's advice.",
        ),
        (
            "end",
            "used_to",
            "I used to man the barbecue at every party, but no meat has passed my lips since "
            "Easter.",
        ),
    ],
    "partner": [
        (
            "end",
            "event",
            "{o} ended it with me on Saturday. Didn't see it coming. How does anyone get over "
            "this?",
        ),
        (
            "end",
            "event",
            "we broke things off last week, me and {o}. mutual, but still sad",
        ),
        (
            "end",
            "negation",
            "Me and {o} are not a thing now, so plan the weekend for one.",
        ),
        (
            "end",
            "no_longer",
            "I'm single again, no longer seeing {o}.",
        ),
        (
            "revise",
            "event",
            "Once things ended with {o} I swore off dating, then {n} turned up at a pub quiz and "
            "now we're properly together.",
        ),
        (
            "revise",
            "now",
            "I'm with {n} now — {o}'s ancient history. Date night ideas?",
        ),
        (
            "end",
            "used_to",
            "I used to text {o} first thing every morning, but we've been broken up since March.",
        ),
    ],
    "pet": [
        (
            "end",
            "event",
            "We lost {o} this morning. The vet said it was the kindest thing. What do I tell the "
            "kids?",
        ),
        (
            "end",
            "event",
            "Bad news about {o} — the poor thing was hit on the main road last night and didn't "
            "pull through.",
        ),
        (
            "end",
            "event",
            "had to find {o} a new home, my landlord gave me an ultimatum. gutted",
        ),
        (
            "end",
            "event",
            "Buried {o} under the apple tree yesterday. Fifteen years of that silly {k}.",
        ),
        (
            "end",
            "negation",
            "There's no {o} at home now; the {k} stays with my grandparents these days.",
        ),
        (
            "end",
            "no_longer",
            "Now {o}'s gone I no longer need the pet insurance — can I cancel it mid-year?",
        ),
    ],
    "hobby": [
        (
            "end",
            "gave_up",
            "Finally admitted to myself that {o} isn't for me and quit.",
        ),
        (
            "end",
            "gave_up",
            "gave up on {o} in the end, couldnt justify the cost. whats a free hobby",
        ),
        (
            "end",
            "gave_up",
            "I've quit {o}. Too tiring, too pricey, too many niggles.",
        ),
        (
            "end",
            "negation",
            "Not {vg} {o} these days, my shoulder's shot.",
        ),
        (
            "end",
            "no_longer",
            "With the new shifts I no longer bother with {o}; cancelled the membership yesterday.",
        ),
        (
            "end",
            "used_to",
            "Sundays used to be for {o}; haven't bothered since last winter though.",
        ),
        (
            "end",
            "event",
            "Had one final go at {o} on Saturday and then hung it up for good.",
        ),
    ],
    "meeting": [
        (
            "revise",
            "correction",
            "ugh ignore me, {m} isn't {o}, it's {n}",
        ),
        (
            "revise",
            "correction",
            "Sorry, wrong day! My {m}'s a {n} thing, never {o}.",
        ),
        (
            "revise",
            "correction",
            "Small correction to my last message: {n}, not {o}, for {m}.",
        ),
        (
            "revise",
            "correction",
            "I typed {o} but meant {n}; it's always {n}s for {m}.",
        ),
        (
            "revise",
            "correction",
            "Wait, it's not {o} at all. {n}! Could you fix the reminder for {m}?",
        ),
        (
            "revise",
            "correction",
            "Actually, make that {n} — I always get {o} and {n} muddled. It's definitely {n} "
            "for {m}.",
        ),
    ],
}

SEALED3_DISTRACTORS: list[tuple[str, str]] = [
    (
        "other_person",
        "My best friend just packed up and moved to {c} — how do we keep in touch properly?",
    ),
    ("other_person", "my flatmate got let go from {x} today, what do i say to her"),
    ("other_person", "My uncle's traded his old banger in for a {car}, he's thrilled."),
    ("other_person", "Our neighbours' dog died on Sunday, and their kids are devastated."),
    (
        "other_person",
        "A colleague of mine has just gone vegetarian and keeps asking me what to cook.",
    ),
    ("question", "How's {c} for families? Schools, parks, that kind of thing."),
    ("question", "Do people actually like working at {x}? The reviews online are mixed."),
    ("question", "Is a {car} expensive to insure for a new driver?"),
    (
        "hypothetical",
        "If I ever upped and left, {c} would be top of my list. Never going to happen though.",
    ),
    ("hypothetical", "Suppose I went vegan — would I struggle to get enough protein?"),
    ("trip", "Heading off to {c} tomorrow for a long weekend, any packing tips?"),
    ("trip", "Got back from {c} last night — great conference, terrible hotel."),
    (
        "plan",
        "Planning on viewing a couple of flats in {c} next month, just to see what's out there.",
    ),
    ("past", "Fun fact: I spent my gap year working in a hostel in {c}."),
    ("past", "Years back I did an internship at {x}; the coffee was awful."),
]

SEALED3_CONTROLS: dict[str, list[str]] = {
    "home": [
        "Another scorcher in {o} today — tips for keeping the flat cool without AC?",
        "Ten years in {o} and I'd still not live anywhere else. What's a nice way to celebrate?",
        "still in {o}, still moaning about the parking lol",
    ],
    "job": [
        "Busy one at {e} today — being the {r} means every fire lands on my desk.",
        "still the {r} at {e}, not going anywhere. how should i ask for a raise?",
        "Three years as {e}'s {r} this week, and I'm still happy there.",
    ],
    "hobby": [
        "Had a great session — I {v} {o} tonight and still love it as much as on day one.",
        "Still {vg} {o} every week, haven't missed one since January.",
        "Heading out to {v} {o} tonight as usual; any tips for warming up properly first?",
    ],
    "car": [
        "The brake pads on my {o} are squealing — DIY job or garage job?",
        "Still driving the {o}, it's done 120k and counting.",
        "The {o}'s booked for its service on Friday, same old reliable car.",
    ],
}
"""The `sealed3` pool: written by a helper that read neither the rules, their tests, nor any
score (only this module and benchmarks/beliefs.py), in wordings none of the other pools use
(no four-word run shared with them, FILLER or REPLIES); kept unscored until scored once on
2026-12-06 evening (`phrasing="sealed3"`)."""


SEALED4_INITIAL: dict[str, list[str]] = {
    "home": [
        "Tap water in {o}, where our flat is, tastes like a swimming pool. Is a filter jug "
        "worth it?",
        "hey so i'm from {o} and still live there, whats a cheap weekend thing to do locally",
        "My rent here in {o} eats nearly half my salary, so any budgeting app recs?",
        "The kids go to the local primary in {o}, where we've had a house for nine years, and "
        "I'm after rainy-day activities.",
        "Mate, {o} in February is grim. I've lived here all my life and I still forget a brolly.",
    ],
    "job": [
        "Payroll at {e} messed up my overtime again (I'm their {r}). Best way to raise it "
        "without sounding petty?",
        "So I'm the {r} for {e}, and my manager wants a five-year plan from me by Friday. Help?",
        "I am working as {r} in {e} since 2019 only. Kindly suggest how to ask for work from home.",
        "{e} pays me to be their {r}, and honestly the pension scheme is the only perk. Is a "
        "SIPP worth it on top?",
        "Day job: {r}, {e}. Night job: trying to learn Python. Where should a total beginner "
        "start?",
    ],
    "car": [
        "My {o} has started making a clunking noise over speed bumps — what could that be?",
        "Reckon I can fit a roof box on my {o}? Heading up the coast next month.",
        "we have one car, a {o}, and my teenager wants to learn in it. nervous lol",
        "Fuel light came on in the {o} again, the one I've owned since uni — how far can you "
        "push it past empty?",
    ],
    "diet": [
        "Zero meat, zero fish for over a decade now — vegetarian, but cheese is my weakness.",
        "vegetarian here, whats a good protein source thats not beans every day",
        "Being vegetarian is part of my faith, so please keep every suggestion egg-free and "
        "meat-free.",
        "As the only vegetarian at the office potluck, what should I bring that everyone will eat?",
    ],
    "meat": [
        "Nothing beats a proper steak for me — medium rare, every Friday.",
        "proper carnivore over here lol, what goes well with lamb chops",
        "We're big meat eaters in this house, so hearty recipes with chicken or beef please.",
        "Bacon butty every Saturday morning is non-negotiable in my book.",
    ],
    "partner": [
        "Together with {o} since uni, and our anniversary's coming up — something special but "
        "not cheesy?",
        "{o}, my boyfriend, snores louder than a leaf blower — any fixes besides earplugs?",
        "me n {o} are going on our first holiday as a couple, where's good in Europe in May",
        "Long distance with {o} for now, me here and them interstate. Gift ideas that post well?",
    ],
    "pet": [
        "Every night {o}, my {k}, scratches the bedroom door at 3am. Ideas to break that habit?",
        "Shelter rescue {o} has been our {k} for four years — the best, but fussy with food.",
        "my {k}'s name is {o} and it's terrified of the hoover, any tips??",
        "{o} — that's my {k} — turns eleven on Sunday; is a birthday cake for pets a silly idea?",
    ],
    "hobby": [
        "Most Saturdays you'll find me {vg} {o} alongside some workmates.",
        "i {v} {o} pretty seriously, like 4-5 times a week. best thing to eat beforehand?",
        "Since primary school I've kept up {o}; nothing relaxes me more.",
        "Nothing gets in the way of me {vg} {o} each week — it's how I stay sane.",
    ],
    "meeting": [
        "Pop a reminder in for {m}; that's {o}, like always.",
        "Early dinner needed on {o} because of {m}.",
        "heads up, {o} night is {m} night for me",
        "Every {o} straight after work there's {m}, so leave that evening free.",
        "Put {m} in my calendar for {o}, please.",
    ],
}

SEALED4_CHANGES: dict[str, list[tuple[str, str, str]]] = {
    "home": [
        (
            "revise",
            "event",
            "Keys collected, boxes everywhere — {o} is behind us since Friday and the {n} house is "
            "officially ours! Which companies need my change of address?",
        ),
        (
            "revise",
            "event",
            "righto, the removal van has come and gone and {n} is home now. {o} feels like a "
            "lifetime ago",
        ),
        (
            "revise",
            "now",
            "These days home is a two-bedroom unit in {n}, so suggestions for {o} are no use to "
            "me.",
        ),
        (
            "revise",
            "now",
            "fyi im in {n} now not {o}, pls update the local stuff",
        ),
        (
            "revise",
            "negation",
            "{o}'s not where I live any more — we're in {n}. Mind redoing the weekend walks list?",
        ),
        (
            "revise",
            "negation",
            "Haven't been a resident of {o} since spring; it's {n} now and I'm still learning the "
            "bus routes.",
        ),
        (
            "revise",
            "used_to",
            "We used to be renters in {o} but bought our first house in {n} this year, so "
            "gardening tips please!",
        ),
        (
            "revise",
            "presupposition",
            "The people next door here in {n} are so much friendlier than anyone was back in {o}. "
            "Best housewarming snacks?",
        ),
        (
            "revise",
            "presupposition",
            "With {n} being where we've put down roots now, which I never thought would happen "
            "after twenty years in {o}, I'd like to find a local walking club.",
        ),
        (
            "revise",
            "no_longer",
            "I'm no longer based in {o}; work sent me to {n} and I've signed a twelve-month lease.",
        ),
    ],
    "job": [
        (
            "revise",
            "event",
            "Contract signed, lanyard issued — my first shift as {r} for {e} was today; my feet "
            "are killing me!",
        ),
        (
            "revise",
            "event",
            "I have joined {e} as {r} from this Monday itself, and resigned from {oe}. Kindly help "
            "me prepare for the first team meeting.",
        ),
        (
            "revise",
            "now",
            "Quick update for your notes: {e} is my employer these days ({r} role), not {oe}.",
        ),
        (
            "revise",
            "switched",
            "After six years I jumped ship — {oe} out, {e} in, and the {r} title there is a real "
            "step up for me.",
        ),
        (
            "revise",
            "presupposition",
            "Onboarding week at {e} was a blur. What do new starters usually get wrong in their "
            "first month?",
        ),
        (
            "revise",
            "presupposition",
            "Could you draft a message for my old team at {oe} — I want to thank them properly "
            "now that I've settled in at {e} — without it sounding cheesy?",
        ),
        (
            "revise",
            "used_to",
            "School runs used to be squeezed in before my shift at {oe}; since {e} took me on "
            "as {r} my hours are far more civilised.",
        ),
        (
            "end",
            "event",
            "{oe} made my whole department redundant on Thursday. What do I do first?",
        ),
        (
            "end",
            "event",
            "resigned from {oe} today, no job lined up, kinda terrified but relieved",
        ),
        (
            "end",
            "event",
            "Between handing in my laptop at {oe} on my last day yesterday and packing for the "
            "holiday, I completely forgot my mum's birthday — what can I send last minute?",
        ),
        (
            "end",
            "negation",
            "I'm not on {oe}'s books any longer, so please take their name off my CV draft.",
        ),
        (
            "end",
            "no_longer",
            "No longer on staff at {oe} — the contract ended in May — so I'm job hunting.",
        ),
        (
            "end",
            "used_to",
            "I used to pull twelve-hour days at {oe}; walked out four weeks back and zero regrets.",
        ),
    ],
    "car": [
        (
            "revise",
            "event",
            "Picked up the {n} from the dealership yesterday and waved goodbye to the {o}! It's "
            "mine now.",
        ),
        (
            "revise",
            "event",
            "part-exchanged my {o}, drove off in a shiny {n} over the weekend. any idea how "
            "bluetooth works on it",
        ),
        (
            "revise",
            "now",
            "The car on my driveway's a {n} nowadays — the {o} is long gone. Which tyres should I "
            "get?",
        ),
        (
            "revise",
            "switched",
            "Changed cars in March — out went the {o}, in came a {n}, mainly because the boot's "
            "huge.",
        ),
        (
            "revise",
            "used_to",
            "Used to swear by my {o}, but these days my wheels are a {n} and I'm not going back.",
        ),
        (
            "end",
            "event",
            "Mechanic took one look at the {o} and said it'd cost more to fix than it's worth, so "
            "it's been scrapped. Car-free for now!",
        ),
        (
            "end",
            "event",
            "Some bloke ploughed into the back of my {o} on the highway; insurer's declared it a "
            "total loss, so I've got no wheels for a bit.",
        ),
        (
            "end",
            "negation",
            "No car for me these days; my nephew inherited the {o} once he'd passed his driving "
            "test.",
        ),
        (
            "end",
            "no_longer",
            "Sold the {o} to my neighbour; car ownership is no longer for me; buses and "
            "bikes from here.",
        ),
    ],
    "diet": [
        (
            "revise",
            "event",
            "Fully plant-based since last week — I'm vegan, so skip eggs, milk and honey.",
        ),
        (
            "revise",
            "event",
            "Watched a documentary on dairy farming and that was it: vegan from Sunday onwards.",
        ),
        (
            "revise",
            "now",
            "i eat vegan now fyi, so cross the paneer and the yoghurt off that list",
        ),
        (
            "revise",
            "now",
            "For the dinner party on Saturday — and remember that I eat vegan these days, not just "
            "veggie — could you plan three courses for six?",
        ),
        (
            "revise",
            "used_to",
            "I was always the cheese-loving vegetarian of the group — used to be, anyway; strictly "
            "vegan since spring.",
        ),
        (
            "revise",
            "switched",
            "Vegetarian's not enough for me anymore — I've switched over to vegan, so butter and "
            "cream are out.",
        ),
    ],
    "meat": [
        (
            "end",
            "gave_up",
            "Cut meat out entirely three weeks ago and honestly I feel great. Lentil ideas?",
        ),
        (
            "end",
            "gave_up",
            "gave up eating animals after that farm visit. what about iron tho, do i need "
            "supplements",
        ),
        (
            "end",
            "gave_up",
            "Could you suggest a menu for Dad's seventieth — everyone else eats meat, whereas I "
            "stopped eating it in February — something that works for all of us?",
        ),
        (
            "end",
            "negation",
            "Meat doesn't touch my plate now, so the chilli needs to be a bean one.",
        ),
        (
            "end",
            "negation",
            "no more meat for me!! turns out i dont miss it",
        ),
        (
            "end",
            "no_longer",
            "Meat? Cut it — I no longer go near the stuff, for the planet mostly.",
        ),
        (
            "end",
            "used_to",
            "Burger every lunchtime, that used to be me; not a scrap of meat since Christmas "
            "though.",
        ),
    ],
    "partner": [
        (
            "end",
            "event",
            "{o} moved their stuff out at the weekend; we've called it quits after four years.",
        ),
        (
            "end",
            "event",
            "so {o} dumped me over text. over TEXT. anyway pls make me a breakup playlist",
        ),
        (
            "end",
            "event",
            "I need a weekend away somewhere quiet, because after {o} ended things on Thursday I "
            "just want to switch my phone off — any cabins near the coast?",
        ),
        (
            "end",
            "negation",
            "{o} isn't my partner anymore — we decided to go our separate ways.",
        ),
        (
            "end",
            "negation",
            "We're not together, me and {o}, not since the summer. Just so you stop asking after "
            "them!",
        ),
        (
            "end",
            "no_longer",
            "Me and {o}? We're no longer an item. It's been a few weeks and I'm doing okay.",
        ),
        (
            "end",
            "used_to",
            "I used to plan every weekend around {o}, but we broke it off a couple of months back.",
        ),
        (
            "revise",
            "event",
            "{n} asked me out a week after the breakup with {o}, and we're officially an item now!",
        ),
        (
            "revise",
            "now",
            "Seeing {n} now, it's early days but I really like them. Me and {o} ended it before "
            "Easter.",
        ),
    ],
    "pet": [
        (
            "end",
            "event",
            "{o} died in my arms last night. Fourteen years. I don't know what to do with the bowl "
            "and the bed.",
        ),
        (
            "end",
            "event",
            "We gave {o} to a farm family out in the country; the flat was just too small for a "
            "{k} like that.",
        ),
        (
            "end",
            "event",
            "had to let {o} go at the vets this morning. house is so quiet",
        ),
        (
            "end",
            "event",
            "I've got a pile of unopened food to donate since {o} passed, so could you find "
            "shelters near me that take {k} food?",
        ),
        (
            "end",
            "negation",
            "{o} isn't with us anymore — cancer, very sudden. How do you explain that to a "
            "five-year-old?",
        ),
        (
            "end",
            "negation",
            "We don't have a {k} now; {o} went to my sister's when the baby came.",
        ),
        (
            "end",
            "no_longer",
            "{o} no longer lives with me; Mum and Dad have the {k} full-time now that my job has "
            "me on the road.",
        ),
    ],
    "hobby": [
        (
            "end",
            "gave_up",
            "Packed {o} in — life's too busy with the new baby.",
        ),
        (
            "end",
            "gave_up",
            "officially quit {o} lol. my wallet is thanking me",
        ),
        (
            "end",
            "gave_up",
            "Now that {o} is behind me for good, my Saturdays are free — where can I volunteer "
            "locally?",
        ),
        (
            "end",
            "negation",
            "{o} isn't in my life any more, the old back won't allow it.",
        ),
        (
            "end",
            "negation",
            "Haven't been {vg} {o} in months and I'm not planning to start again.",
        ),
        (
            "end",
            "no_longer",
            "Work's so hectic I no longer make time for {o} at all — any five-minute hobbies?",
        ),
        (
            "end",
            "used_to",
            "{o} was my whole world once, used to live and breathe it, but that chapter's closed "
            "— stopped over the summer.",
        ),
        (
            "end",
            "event",
            "Friday marked my final ever go at {o}, and everything to do with it is now cancelled.",
        ),
    ],
    "meeting": [
        (
            "revise",
            "correction",
            "Hang on, scratch that: {m} meets {n}s. Never {o}s.",
        ),
        (
            "revise",
            "correction",
            "oops not {o}, {n}!! those two days always trip me up",
        ),
        (
            "revise",
            "correction",
            "Correcting myself: {n} for {m}; the {o} was me mistyping.",
        ),
        (
            "revise",
            "correction",
            "My bad — {n} is the {m} day, I had {o} in my head for some reason.",
        ),
        (
            "revise",
            "correction",
            "Sorry, scrap the {o} bit; {m} is {n} evenings, could you update that?",
        ),
        (
            "revise",
            "correction",
            "Small mistake from my side, {m} falls on {n} only, not {o}. Please note.",
        ),
        (
            "revise",
            "correction",
            "Also, mind drafting a note to the group — oh, and I got the day wrong before, {m} "
            "runs {n} rather than {o} — saying I'll bring snacks?",
        ),
    ],
}

SEALED4_DISTRACTORS: list[tuple[str, str]] = [
    (
        "other_person",
        "My daughter's just started uni in {c} and I'm already missing her — care package ideas?",
    ),
    ("other_person", "my cousin just got taken on by {x}, she wont shut up about it lol"),
    ("other_person", "Next door have bought themselves a {car}; is it any good in the snow?"),
    ("other_person", "My mate Dev has given up booze and meat in one go, madness."),
    (
        "other_person",
        "A friend's cat had to be put to sleep yesterday — what's a kind thing to say?",
    ),
    ("question", "Would my money stretch further in {c} than here?"),
    ("question", "Is {x} a decent employer, from what you know?"),
    ("question", "Would a {car} be a sensible first car for my son?"),
    (
        "hypothetical",
        "With a lottery win I'd snap up an apartment in {c} tomorrow, but that's never happening.",
    ),
    (
        "hypothetical",
        "What if I went vegan for a month, just as an experiment — would I feel different?",
    ),
    ("hypothetical", "part of me fantasises about quitting and running a B&B. not seriously tho"),
    ("trip", "Hen do in {c} this Friday for my best friend — three nights, how light can I pack?"),
    ("trip", "Long weekend in {c} just gone — the food was unreal."),
    ("plan", "Might look at a few houses in {c} come spring, just to get a feel for prices."),
    ("plan", "We're thinking of getting a puppy once the kids are older."),
    ("past", "One summer in 2015 I made coffee for the execs at {x}."),
    ("past", "I grew up just outside {c}, though I haven't been back in years."),
]

SEALED4_CONTROLS: dict[str, list[str]] = {
    "home": [
        "Still very much a {o} resident, and the potholes here are getting worse — who do I "
        "complain to?",
        "Love {o} more every year I live here — what's a good local charity to volunteer with?",
        "nearly five years in {o} now and i finally found a decent barber lol",
        "We're staying put in {o}, the kids love their school here — cheap half-term ideas?",
    ],
    "job": [
        "Another month-end close at {e}; being their {r} never gets quieter. Tips for late nights?",
        "tbh i still like being {r} at {e}. any advice on mentoring a junior without micromanaging",
        "My review at {e} went well — they want me to stay on as {r} and take on a bigger team.",
        "Five years at {e} this month, same {r} role, same desk. Is that too long?",
    ],
    "hobby": [
        "Off {vg} {o} again tonight; nothing else in my week comes close.",
        "yep, still {vg} {o} weekly, wouldnt give it up for anything",
        "Kept up {o} all through the winter, which I'm proud of. Any tips for staying motivated?",
        "My friends keep asking whether {o} is still my thing — yes, religiously, twice a week.",
    ],
    "car": [
        "My trusty {o} has now passed 200k. When should I change the timing belt?",
        "still got the {o}, not parting with it anytime soon. best wax for dark paint?",
        "Keeping my {o} for another few years, it's paid off and runs fine.",
        "Aircon in the {o} is blowing warm — regas or something worse?",
    ],
}
"""The `sealed4` pool: written by a helper that read neither the rules, their tests, the docs
nor any score (only this module), in wordings none of the other pools use (no four-word run
shared with them, FILLER or REPLIES); kept unscored (not in benchmarks/beliefs.py SETS) until a
later session scores it once, seed 37 (`phrasing="sealed4"`)."""


class _User:
    """One user's timeline: sessions of alternating user / assistant turns."""

    def __init__(self, rng: random.Random, user_id: str, name: str, named: bool, start: datetime):
        self.rng, self.user_id, self.name, self.named = rng, user_id, name, named
        self.sessions: list[list[tuple[str, str]]] = []  # (role, text)
        self.start = start
        self.marks: list[tuple[int, int, str]] = []  # (session, turn, tag) of tagged user turns

    def session(self, turns: list[tuple[str, str | None]]) -> None:
        """A session: each user text (tagged or not) followed by an assistant reply."""
        index = len(self.sessions)
        lines: list[tuple[str, str]] = []
        for text, tag in turns:
            if tag:
                self.marks.append((index, len(lines), tag))
            lines.append(("user", text))
            lines.append(("assistant", self.rng.choice(REPLIES)))
        self.sessions.append(lines)

    def rows(self) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
        """JSONL rows and the message ids of each tag."""
        rows, ids = [], {}
        days = sorted(self.rng.sample(range(1, 56), len(self.sessions)))
        tagged = {(s, t): tag for s, t, tag in self.marks}
        for s, (lines, day) in enumerate(zip(self.sessions, days, strict=True)):
            at = self.start + timedelta(days=day, hours=self.rng.randint(7, 21))
            for t, (role, text) in enumerate(lines):
                message_id = f"{self.user_id}-s{s:02d}-{t:02d}"
                row = {
                    "user_id": self.user_id,
                    "conversation_id": f"{self.user_id}-chat",
                    "session_id": f"s{s:02d}",
                    "message_id": message_id,
                    "turn_index": t,
                    "timestamp": (at + timedelta(seconds=45 * t)).isoformat(),
                    "role": role,
                    "text": text,
                }
                if role == "user" and self.named:
                    row["speaker"] = self.name
                elif role == "assistant":
                    row["speaker"] = "assistant"
                rows.append(row)
                if (s, t) in tagged:
                    ids.setdefault(tagged[(s, t)], []).append(message_id)
        return rows, ids


def _values(rng: random.Random, state: str) -> dict[str, str]:
    """Old and new values of one state, and the words its templates need."""
    if state == "home":
        o, n = rng.sample(CITIES, 2)
        return {"o": o, "n": n}
    if state == "job":
        (orole, oemp), (role, emp) = rng.sample(JOBS, 2)
        return {"o": oemp, "n": emp, "r": role, "e": emp, "or": orole, "oe": oemp}
    if state == "car":
        o, n = rng.sample(CARS, 2)
        return {"o": o, "n": n}
    if state == "diet":
        return {"o": "vegetarian", "n": "vegan"}
    if state == "meat":
        return {"o": "meat", "n": ""}
    if state == "partner":
        o, n = rng.sample(PARTNERS, 2)
        return {"o": o, "n": n}
    if state == "pet":
        kind, o = rng.choice(PETS)
        return {"o": o, "k": kind, "n": ""}
    if state == "hobby":
        verb, o = rng.choice(HOBBIES)
        return {"o": o, "v": verb, "vg": verb + "ing", "n": ""}
    o, n = rng.sample(DAYS, 2)
    return {"o": o, "n": n, "m": rng.choice(MEETINGS)}


def generate_beliefs(seed: int = 7, users: int = 40, phrasing: str = "dev") -> BeliefSet:
    """`users` users, each with 2–3 labelled changes, one control, two distractors.
    `phrasing`: "dev" (the phrasings the rules were written against), "held_out" or
    "fresh" or "apart" or "blind" (each scored once before the rules saw it), "sealed"
    (kept unscored until the rules of session 2026-12-06 were done), "sealed2" (written by
    a helper that read neither the rules, their tests nor any score; kept unscored until the
    end of session 2026-12-06), "sealed3" (written by a helper that read neither the rules,
    their tests nor any score; kept unscored until scored once on 2026-12-06 evening), or
    "sealed4" (written by a helper that read neither the rules, their tests, the docs nor any
    score; kept unscored until a later session scores it once, seed 37)."""
    pools = {
        "dev": (CHANGES, DISTRACTORS, INITIAL, CONTROLS),
        "held_out": (HELD_OUT_CHANGES, HELD_OUT_DISTRACTORS, INITIAL, CONTROLS),
        "fresh": (FRESH_CHANGES, FRESH_DISTRACTORS, FRESH_INITIAL, FRESH_CONTROLS),
        "apart": (APART_CHANGES, APART_DISTRACTORS, APART_INITIAL, APART_CONTROLS),
        "blind": (BLIND_CHANGES, BLIND_DISTRACTORS, BLIND_INITIAL, BLIND_CONTROLS),
        "sealed": (SEALED_CHANGES, SEALED_DISTRACTORS, SEALED_INITIAL, SEALED_CONTROLS),
        "sealed2": (SEALED2_CHANGES, SEALED2_DISTRACTORS, SEALED2_INITIAL, SEALED2_CONTROLS),
        "sealed3": (SEALED3_CHANGES, SEALED3_DISTRACTORS, SEALED3_INITIAL, SEALED3_CONTROLS),
        "sealed4": (SEALED4_CHANGES, SEALED4_DISTRACTORS, SEALED4_INITIAL, SEALED4_CONTROLS),
    }
    if phrasing not in pools:
        raise ValueError(f"phrasing must be one of {sorted(pools)}, got {phrasing!r}")
    changes, distractor_pool, initial, control_pool = pools[phrasing]
    rng = random.Random(seed)
    out = BeliefSet()
    families = [(state, i) for state, options in changes.items() for i in range(len(options))]
    rng.shuffle(families)
    cursor = 0
    for u in range(users):
        name = NAMES[u % len(NAMES)]
        user_id = f"{name.lower()}-{u:02d}"
        named = u % 2 == 0
        user = _User(rng, user_id, name, named, datetime(2024, 3, 1, tzinfo=UTC))
        picked: list[tuple[str, int]] = []
        while len(picked) < rng.choice([2, 2, 3]):
            state, i = families[cursor % len(families)]
            cursor += 1
            if state not in {s for s, _ in picked} and not (
                {state, *(s for s, _ in picked)} >= {"diet", "meat"}
            ):
                picked.append((state, i))
        controls = [s for s in control_pool if s not in {p for p, _ in picked}]
        control = rng.choice(controls)
        states = [*(s for s, _ in picked), control]
        values = {s: _values(rng, s) for s in states}
        if control == "job":
            values["job"]["e"] = values["job"]["oe"]
            values["job"]["r"] = values["job"]["or"]
        # Session 0: introductions and the initial states.
        intro = [] if named else [(f"Hi! I'm {name}. I could use some help this month.", None)]
        first = []
        for s in states:
            if s == "meeting":
                continue  # said in the session of its correction, just before it
            v = dict(values[s])
            if s == "job":
                v = {**v, "r": v["or"], "e": v["oe"]}
            first.append((rng.choice(initial[s]).format(**v), f"old:{s}"))
        user.session([*intro, *first[:2]])
        if first[2:]:
            user.session([(rng.choice(FILLER), None), *first[2:]])
        # Middle: filler, the control restated, distractors.
        distractors = rng.sample(distractor_pool, 2)
        other_city = rng.choice([c for c in CITIES if c not in values.get("home", {}).values()])
        fill = {"c": other_city, "car": rng.choice(CARS), "x": rng.choice(JOBS)[1]}
        user.session([(rng.choice(FILLER), None), (distractors[0][1].format(**fill), "dis:0")])
        v = values[control]
        user.session(
            [(rng.choice(control_pool[control]).format(**v), "control"), (rng.choice(FILLER), None)]
        )
        # Changes, each in a session about something else.
        for s, i in picked:
            kind, family, template = changes[s][i]
            text = template.format(**values[s])
            before = (rng.choice(FILLER), None)
            if s == "meeting":  # a correction follows the slip it corrects
                before = (rng.choice(initial[s]).format(**values[s]), f"old:{s}")
            user.session([before, (text, f"change:{s}")])
        user.session([(distractors[1][1].format(**fill), "dis:1"), (rng.choice(FILLER), None)])
        rows, ids = user.rows()
        out.rows.extend(rows)
        for s, i in picked:
            kind, family, template = changes[s][i]
            v = values[s]
            out.changes.append(
                Change(
                    user_id=user_id,
                    subject=name,
                    slot=SLOT_OF.get(s, s),
                    kind=kind,
                    family=family,
                    old=v["oe"] if s == "job" else v["o"],
                    new=(v["e"] if s == "job" else v["n"]) if kind == "revise" else None,
                    old_message_ids=ids[f"old:{s}"],
                    change_message_ids=ids[f"change:{s}"],
                    question=QUESTIONS[s].format(s=name, **v),
                    history_about=QUESTIONS[s].format(s=name, **v),
                    text=template.format(**v),
                )
            )
        out.probes.append(Probe(user_id, "control", control, ids["control"], values[control]["o"]))
        for k, (family, template) in enumerate(distractors):
            out.probes.append(
                Probe(user_id, "distractor", family, ids[f"dis:{k}"], "", template.format(**fill))
            )
    return out
