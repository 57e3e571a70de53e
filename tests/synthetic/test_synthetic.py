"""The synthetic archive: seeded, labelled, evolving facts, fast enough for benchmarks."""

from __future__ import annotations

import time
from collections import Counter

from arborwiki.core.records import Message
from arborwiki.synthetic import generate_archive


def test_same_seed_same_archive_and_unique_ids() -> None:
    a, b = generate_archive(3, seed=7), generate_archive(3, seed=7)
    assert a == b and a != generate_archive(3, seed=8)
    assert {m.user_id for m in a} == {"user-0001", "user-0002", "user-0003"}
    assert len({(m.user_id, m.message_id) for m in a}) == len(a) == 3 * 12 * 8


def test_threads_interleave_and_facts_evolve() -> None:
    messages = generate_archive(20, seed=1)
    assert all("thread" in m.extra for m in messages)
    per_user = Counter(m.user_id for m in messages if m.extra.get("fact_op") == "REVISE")
    assert sum(per_user.values()) > 20  # most users revise some fact
    facts = [m for m in messages if "fact" in m.extra]
    assert all(len(m.extra["fact"].split(" | ")) == 3 and m.role == "user" for m in facts)
    returns = [m for m in messages if m.text.startswith(("Back to the", "Remember when"))]
    assert returns
    first_user = [m for m in messages if m.user_id == "user-0001"]
    assert len({m.extra["thread"] for m in first_user}) == 4


def test_a_revision_follows_its_statement() -> None:
    messages = generate_archive(30, seed=2)
    stated: dict[tuple[str, str], int] = {}
    for i, m in enumerate(messages):
        key = (m.user_id, m.extra["thread"])
        if m.extra.get("fact_op") == "ADD":
            stated[key] = i
        if m.extra.get("fact_op") == "REVISE":
            assert key in stated and stated[key] < i


def test_thousand_users_generate_in_under_five_seconds() -> None:
    started = time.process_time()  # CPU time: robust to a busy machine
    messages = generate_archive(1000, seed=0)
    assert len(messages) == 1000 * 96
    assert time.process_time() - started < 5.0
    assert Message.model_validate(messages[-1].model_dump()) == messages[-1]
