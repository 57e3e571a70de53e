"""Compose a pool's hand-written arcs and fillers into per-user chats (LoCoMo JSON)."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from importlib import import_module
from types import ModuleType
from typing import Any

from benchmarks.ua_devset.model import KINDS, Arc, Filler

POOLS = ("a", "b")
USERS_PER_POOL = 4
_SLOT = re.compile(r"<<([a-z_0-9:]+)>>")
_MONTHS = (
    "January February March April May June July August September October November December"
).split()
ARC_KEEP = 0.9  # share of a pool's arcs each user gets (the rest differ between users)
FILLER_KEEP = 0.9
PER_SESSION = 2  # arc parts a session holds at most


def pool_module(pool: str) -> ModuleType:
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r} (one of {', '.join(POOLS)})")
    return import_module(f"benchmarks.ua_devset.pool_{pool}")


def _fill(text: str, values: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise KeyError(f"no value for <<{key}>> in: {text[:80]!r}")
        return values[key]

    return _SLOT.sub(one, text)


def _date_text(when: datetime) -> str:
    hour = when.hour % 12 or 12
    half = "am" if when.hour < 12 else "pm"
    return f"{hour}:{when.minute:02d} {half} on {when.day} {_MONTHS[when.month - 1]}, {when.year}"


def _dates(rng: random.Random, n: int) -> list[datetime]:
    day = datetime(2024, 1, 8) + timedelta(days=rng.randrange(0, 330))
    out = []
    for _ in range(n):
        day += timedelta(days=rng.randint(2, 8))
        out.append(day.replace(hour=rng.randint(7, 22), minute=rng.choice(range(0, 60, 5))))
    return out


def _place(rng: random.Random, arc: Arc, n: int, load: list[int]) -> list[int]:
    """Session indices for the arc's parts: increasing, `min_gap` apart, part 0 in the first
    third for an `early` arc, preferring sessions with room."""
    k = len(arc.parts)
    best: list[int] | None = None
    for _ in range(60):
        last_start = n - 1 - (k - 1) * arc.min_gap
        top = min(last_start, max(1, n // 3) - 1) if arc.early else last_start
        at = [rng.randint(0, max(0, top))]
        for _ in range(1, k):
            room = n - 1 - at[-1] - arc.min_gap * (k - len(at))
            at.append(at[-1] + arc.min_gap + rng.randint(0, max(0, room // 2)))
        if all(load[s] < PER_SESSION for s in at):
            best = at
            break
        best = best or at
    assert best is not None
    return best


def build_user(pool: str, seed: int, index: int) -> dict[str, Any]:
    """One sample: a user's sessions and questions, the same for the same (pool, seed, index)."""
    mod = pool_module(pool)
    rng = random.Random(f"ua-devset/{pool}/{seed}/{index}")
    persona = dict(mod.PERSONAS[index % len(mod.PERSONAS)])
    arcs: list[Arc] = [a for a in mod.ARCS if rng.random() < ARC_KEEP]
    fillers: list[Filler] = [f for f in mod.FILLERS if rng.random() < FILLER_KEEP]
    parts = sum(len(a.parts) for a in arcs)
    n = max(25, min(40, round((parts + len(fillers)) / 2.4)))
    load = [0] * n
    sessions: list[list[tuple[list[tuple[str, str]], str, int]]] = [[] for _ in range(n)]
    placed: dict[str, tuple[list[int], dict[str, str]]] = {}
    order = sorted(arcs, key=lambda a: (not a.early, -len(a.parts), rng.random()))
    for a in order:
        values = persona | rng.choice(a.slots)
        at = _place(rng, a, n, load)
        written = list(range(len(a.parts)))
        if a.permute:
            rng.shuffle(written)
            at = [at[written.index(j)] for j in range(len(a.parts))]  # at[j]: part j's session
        for j, s in enumerate(at):
            turns = [(t.speaker, _fill(t.text, values)) for t in a.parts[j]]
            sessions[s].append((turns, a.name, j))
            load[s] += 1
        placed[a.name] = (at, values)
    rng.shuffle(fillers)
    for f in fillers:
        empty = [s for s in range(n) if not sessions[s]]
        light = [s for s in range(n) if len(sessions[s]) <= 1]
        s = rng.choice(empty or light or list(range(n)))
        values = persona | rng.choice(f.slots)
        sessions[s].append(([(t.speaker, _fill(t.text, values)) for t in f.turns], f.name, -1))
    dates = _dates(rng, n)
    conversation: dict[str, Any] = {"speaker_a": "User", "speaker_b": "Assistant"}
    where: dict[tuple[str, int], list[str]] = {}
    for s, items in enumerate(sessions, start=1):
        rng.shuffle(items)
        turns_out = []
        for turns, name, j in items:
            ids = []
            for speaker, text in turns:
                dia = f"D{s}:{len(turns_out) + 1}"
                turns_out.append({"speaker": speaker, "dia_id": dia, "text": text})
                ids.append(dia)
            if j >= 0:
                where[(name, j)] = ids
        conversation[f"session_{s}_date_time"] = _date_text(dates[s - 1])
        conversation[f"session_{s}"] = turns_out
    qa = []
    for a in arcs:
        at, values = placed[a.name]
        for question in a.questions:
            assert question.kind in KINDS, (a.name, question.kind)
            evidence = [where[(a.name, p)][t] for p, t in question.ev()]
            refs = sorted({p for p, _ in question.ev()})
            extra = {f"date:{j}": _month(dates[at[j]]) for j in range(len(a.parts))}
            if a.labels:
                extra["first"] = a.labels[min(refs, key=lambda j: at[j])]
            qa.append(
                {
                    "question": _fill(rng.choice(question.phrasings), values),
                    "answer": _fill(question.answer, values | extra),
                    "evidence": evidence,
                    "category": question.category,
                    "kind": question.kind,
                    "arc": a.name,
                }
            )
    sample_id = f"ua-{pool}-s{seed}-u{index + 1}"
    return {"sample_id": sample_id, "conversation": conversation, "qa": qa}


def _month(when: datetime) -> str:
    return f"{_MONTHS[when.month - 1]} {when.year}"


def build_pool(pool: str, seed: int = 1, users: int = USERS_PER_POOL) -> list[dict[str, Any]]:
    return [build_user(pool, seed, i) for i in range(users)]


def stats(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Sizes: sessions, messages, words, ~tokens (1.3 × words), questions by kind."""
    out: dict[str, Any] = {"samples": len(samples), "per_sample": []}
    kinds: dict[str, int] = {}
    for s in samples:
        conv = s["conversation"]
        sessions = [v for k, v in conv.items() if re.fullmatch(r"session_\d+", k)]
        words = sum(len(t["text"].split()) for v in sessions for t in v)
        for item in s["qa"]:
            kinds[item["kind"]] = kinds.get(item["kind"], 0) + 1
        out["per_sample"].append(
            {
                "sample_id": s["sample_id"],
                "sessions": len(sessions),
                "messages": sum(len(v) for v in sessions),
                "words": words,
                "tokens": round(1.3 * words),
                "questions": len(s["qa"]),
            }
        )
    for key in ("sessions", "messages", "words", "tokens", "questions"):
        out[key] = sum(p[key] for p in out["per_sample"])
    out["by_kind"] = dict(sorted(kinds.items()))
    return out
