"""Seeded synthetic conversation archives with known threads and evolving facts.

Why: attaching, lifecycle and retrieval need ground truth that real archives lack. Each
user talks about a few interleaved threads (a house move, marathon training, a book
club, a sick pet, a job change, …), each with its own names and words; facts are stated
and later revised ("my goal is 4 hours" → "actually I now aim for 3:45"), and sessions
switch threads and return to earlier ones ("Back to the house move…").

Truth rides along in `Message.extra`: "thread" on every turn, "fact" ("subject | attribute
| value") and "fact_op" (ADD / REVISE) only where a fact is stated. A session covers one
thread or two; a switch happens at the middle turn, so with windows of half a session
(WindowConfig.max_turns = 4, 8 turns) each window carries one thread. Messages are
built with `model_construct` (every field is made here, typed): validation would triple
the time of a 100k-message archive.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from arborwiki.core.records import Message

NAMES = [
    "Maya",
    "Priya",
    "Tomas",
    "Lena",
    "Omar",
    "Greta",
    "Kenji",
    "Rosa",
    "Felix",
    "Ines",
    "Dmitri",
    "Nora",
    "Hugo",
    "Aisha",
]
CITIES = [
    "Denver",
    "Austin",
    "Portland",
    "Seattle",
    "Raleigh",
    "Tucson",
    "Madison",
    "Boise",
    "Omaha",
    "Savannah",
]


@dataclass(frozen=True)
class Thread:
    """A storyline template: slots filled per user, user/assistant lines, one evolving fact."""

    key: str
    title: str
    slots: dict[str, list[str]]
    user_lines: list[str]
    assistant_lines: list[str]
    fact: tuple[str, str, str, str]  # subject, attribute, first value slot, revised value slot
    fact_line: str
    revise_line: str


THREADS = [
    Thread(
        "house_move",
        "house move",
        {"city": CITIES, "city2": CITIES, "agent": NAMES, "street": ["Elm", "Birch", "Cedar"]},
        [
            "The movers for the {city} house quoted me again, the boxes are piling up.",
            "Our realtor {agent} found a place on {street} Street in {city}.",
            "The mortgage paperwork for the move is due Friday.",
            "I still need to pack the kitchen before the move to {city}.",
        ],
        [
            "Moving checklists help: label boxes by room before the movers arrive.",
            "Ask {agent} about closing costs on the {street} Street house.",
        ],
        ("i", "lives in", "city", "city2"),
        "We signed the lease, so I live in {city} starting next month.",
        "Change of plans: actually I now live in {city2} instead of {city}.",
    ),
    Thread(
        "marathon",
        "marathon training",
        {
            "race": ["Chicago Marathon", "Berlin Marathon", "Twin Cities Marathon"],
            "coach": NAMES,
            "goal": ["4 hours", "4:10", "3:55"],
            "goal2": ["3:45", "3:50"],
        },
        [
            "My long run with coach {coach} was 18 miles at an easy pace.",
            "Training for the {race} is eating my weekends, my calves are sore.",
            "{coach} wants intervals on the track on Tuesday.",
            "I bought new running shoes for the {race} training block.",
        ],
        [
            "Taper the last three weeks before the {race} and keep easy runs easy.",
            "Hydrate on long runs; practise race-day gels with {coach}.",
        ],
        ("my marathon goal", "is", "goal", "goal2"),
        "My marathon goal is {goal} for the {race}.",
        "Actually I now aim for {goal2} at the {race}, training went well.",
    ),
    Thread(
        "book_club",
        "book club",
        {
            "book": ["Middlemarch", "The Overstory", "Piranesi", "Beloved"],
            "host": NAMES,
            "day": ["Tuesday", "Wednesday"],
            "day2": ["Thursday", "Sunday"],
        },
        [
            "Book club at {host}'s place: we argued about chapter nine of {book}.",
            "I'm halfway through {book}, the author's prose is dense.",
            "{host} picked {book} for the club this month.",
            "Our reading group wants a shorter novel after {book}.",
        ],
        [
            "For discussion, note the themes of {book} chapter by chapter.",
            "Ask {host} to share questions before the club meets.",
        ],
        ("book club", "meets on", "day", "day2"),
        "Our book club meets on {day} evenings at {host}'s.",
        "The book club now meets on {day2}, it switched from {day}.",
    ),
    Thread(
        "sick_pet",
        "sick pet",
        {
            "pet": ["Biscuit", "Luna", "Pepper", "Mochi"],
            "vet": NAMES,
            "med": ["amoxicillin", "prednisone"],
            "med2": ["gabapentin", "metronidazole"],
        },
        [
            "{pet} the cat is off her food again, the vet visit is tomorrow.",
            "Dr. {vet} ran bloodwork on {pet}; we wait for the results.",
            "{pet} threw up twice, I'm worried about her kidneys.",
            "Giving {pet} her pills wrapped in treats works.",
        ],
        [
            "Track {pet}'s appetite and water intake daily for Dr. {vet}.",
            "Call the clinic if {pet} stops drinking.",
        ],
        ("{pet}", "takes", "med", "med2"),
        "Dr. {vet} put {pet} on {med} twice a day.",
        "{pet} switched to {med2} now, the {med} upset her stomach.",
    ),
    Thread(
        "job_change",
        "job change",
        {
            "company": ["Acme Robotics", "Northwind", "Globex", "Initech"],
            "company2": ["Umbrella Labs", "Hooli", "Vandelay"],
            "manager": NAMES,
        },
        [
            "The recruiter from {company2} wants a second interview.",
            "I updated my resume and portfolio for the {company2} offer.",
            "My manager {manager} at {company} doesn't know I'm interviewing.",
            "Salary negotiation with {company2} is next week.",
        ],
        [
            "Compare the {company2} offer on salary, equity and commute.",
            "Give {manager} two weeks' notice once the offer is signed.",
        ],
        ("i", "works at", "company", "company2"),
        "I work at {company} as a data analyst.",
        "Big news: I now work at {company2}, I left {company}.",
    ),
    Thread(
        "garden",
        "vegetable garden",
        {
            "plant": ["tomatoes", "zucchini", "peppers"],
            "plant2": ["kale", "beans"],
            "neighbor": NAMES,
        },
        [
            "The {plant} seedlings need more sun, the raised bed is shady.",
            "{neighbor} gave me compost for the garden soil.",
            "Aphids are on the {plant} leaves again.",
            "I set up drip irrigation for the vegetable beds.",
        ],
        [
            "Mulch keeps garden soil moist; water {plant} early in the morning.",
            "Neem oil works on aphids; ask {neighbor} what worked for them.",
        ],
        ("i", "grows", "plant", "plant2"),
        "This year I grow {plant} in the raised bed.",
        "I switched the bed to {plant2} now, the {plant} failed.",
    ),
]

RETURN_OPENERS = ["Back to the {title}: ", "Remember when we talked about the {title}? "]
CONTINUE_OPENERS = ["Also, ", "Anyway, "]


def _fill(rng: random.Random, thread: Thread) -> dict[str, str]:
    values = {slot: rng.choice(pool) for slot, pool in thread.slots.items()}
    for slot in thread.slots:  # a revised value must differ from the first one
        first = slot.rstrip("2")
        while slot.endswith("2") and values[slot] == values.get(first):
            values[slot] = rng.choice(thread.slots[slot])
    return values


def _user_messages(
    user_id: str, rng: random.Random, sessions: int, threads: int, turns: int, start: datetime
) -> list[Message]:
    chosen = rng.sample(THREADS, min(threads, len(THREADS)))
    fills = {t.key: _fill(rng, t) for t in chosen}
    fact_stage = {t.key: 0 for t in chosen}  # 0: not stated, 1: stated, 2: revised
    stated_in: dict[str, int] = {}
    visited: set[str] = set()
    out: list[Message] = []
    when, last_thread = start, None
    for s in range(sessions):
        when += timedelta(days=rng.randint(1, 4), hours=rng.randint(0, 8))
        split = rng.random() < 0.5 and len(chosen) > 1 and turns > 1
        first = rng.choice(chosen)
        plan = [first] if not split else [first, rng.choice([t for t in chosen if t != first])]
        seg_len = turns if not split else turns // 2
        for seg, thread in enumerate(plan):
            values = fills[thread.key] | {"title": thread.title}
            length = seg_len if seg < len(plan) - 1 else turns - seg_len * seg
            for i in range(length):
                turn = seg * seg_len + i
                role = "user" if turn % 2 == 0 else "assistant"
                extra = {"thread": thread.key}
                lines = thread.user_lines if role == "user" else thread.assistant_lines
                text = rng.choice(lines)
                stage = fact_stage[thread.key]
                if role == "user" and i > 0 and stage < 2 and rng.random() < 0.5:
                    subj, attr, v1, v2 = thread.fact
                    if stage == 0 or s > stated_in[thread.key] and rng.random() < 0.5:
                        value = values[v1] if stage == 0 else values[v2]
                        text = thread.fact_line if stage == 0 else thread.revise_line
                        extra["fact"] = f"{subj.format(**values)} | {attr} | {value}"
                        extra["fact_op"] = "ADD" if stage == 0 else "REVISE"
                        fact_stage[thread.key] = stage + 1
                        stated_in[thread.key] = s
                opener = ""
                returning = thread.key in visited and last_thread != thread.key
                if role == "user" and i == 0 and returning:
                    opener = rng.choice(RETURN_OPENERS) if rng.random() < 0.4 else ""
                elif role == "user" and i > 0 and rng.random() < 0.15:
                    opener = rng.choice(CONTINUE_OPENERS)
                body = text.format(**values)
                out.append(
                    Message.model_construct(
                        user_id=user_id,
                        conversation_id=f"{user_id}-c0",
                        session_id=f"{user_id}-s{s:03d}",
                        message_id=f"{user_id}-m{len(out):05d}",
                        turn_index=turn,
                        speaker=user_id if role == "user" else "assistant",
                        role=role,
                        text=(opener.format(**values) + body) if opener else body,
                        timestamp=when + timedelta(minutes=turn),
                        extra=extra,
                    )
                )
            last_thread = thread.key
            visited.add(thread.key)
    return out


def generate_archive(
    n_users: int,
    seed: int,
    sessions: int = 12,
    threads: int = 4,
    turns_per_session: int = 8,
    start: datetime = datetime(2024, 1, 1, tzinfo=UTC),
) -> list[Message]:
    """Messages of `n_users` users ("user-0001", …); the same seed gives the same archive."""
    out: list[Message] = []
    for u in range(n_users):
        user_id = f"user-{u + 1:04d}"
        rng = random.Random(f"{seed}:{user_id}")
        out += _user_messages(user_id, rng, sessions, threads, turns_per_session, start)
    return out
