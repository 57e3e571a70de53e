"""A value named again later with words of doubt the memory did not read is shown as
`unsure:` (core/query/named_again.py), never stated as current; a plain mention, another
speaker's, an earlier one or one that a claim restates leaves it as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.query.named_again import named_again
from arborwiki.core.query.reader import MessageRef
from arborwiki.core.query.result import ClaimLine
from arborwiki.core.records import Claim, Message, UserMemory
from tests.core.test_belief_changes import chat

CELLO = "I play the cello in a quartet every weekend."


def _memory(*said: str) -> UserMemory:
    cfg = Config()
    extractor = Labeled(RuleExtractor(cfg.extract))
    return build_user_memory(chat(*said), cfg, extractor, load_embedder())


def _later(memory: UserMemory, messages: list[Message] | None = None) -> dict[str, str]:
    refs = [MessageRef(m, None, None) for m in messages or memory.messages]
    active = [c for c in memory.claims if c.status == "active"]
    return {
        next(c.value for c in active if c.claim_id == claim_id): ref.message.message_id
        for claim_id, ref in named_again(active, refs, memory.claims).items()
    }


def test_a_value_named_again_with_doubt_is_unsure() -> None:
    memory = _memory(
        CELLO,
        "Honestly the cello is not something I have touched since the move.",
        "Raleigh has been sunny, and the cello sounds great in our new flat.",
    )
    # the doubting mention, not the later plain one
    assert _later(memory) == {"the cello": "m1-1"}


@pytest.mark.parametrize(
    ("later", "unsure"),
    [
        ("The cello sounds great in our new flat.", False),  # a plain mention
        ("The cello is not too loud for the flat, is it?", True),  # words, not meaning
        # a doubt beside the sentence that names the value is about it
        ("The cello? I don't touch it these days.", True),
        # a doubt two sentences from the value is about something else (the sample
        # archive's "Miso pretends Clover does not exist. Here's Clover in her new pen.
        # [caption: a small brown and white rabbit …]" made its rabbit unsure)
        ("My neighbour does not sleep. The quartet met at noon. The cello sounded great.", False),
    ],
)
def test_only_words_of_doubt_make_a_mention_count(later: str, unsure: bool) -> None:
    assert _later(_memory(CELLO, later)) == ({"the cello": "m1-1"} if unsure else {})


def _claim(message: Message, claim_id: str = "c1") -> Claim:
    return Claim(
        claim_id=claim_id,
        user_id=message.user_id,
        snapshot_id="s",
        text=message.text,
        subject="priya",
        attribute="plays",
        value="the cello",
        source_message_ids=[message.message_id],
        recorded_at=message.timestamp,
    )


def test_another_speaker_or_an_earlier_mention_is_no_doubt() -> None:
    doubt, said = chat("I never liked the cello much, to be honest.", CELLO)[1::2]
    refs = [MessageRef(m, None, None) for m in (doubt, said)]
    assert named_again([_claim(said)], refs, [_claim(said)]) == {}  # the doubt came first
    said, doubt = chat(CELLO, "I don't play the cello these days.")[1::2]
    claim = _claim(said)
    sam = doubt.model_copy(update={"speaker": "Sam"})
    assert named_again([claim], [MessageRef(m, None, None) for m in (said, sam)], [claim]) == {}
    mine = [MessageRef(m, None, None) for m in (said, doubt)]
    assert set(named_again([claim], mine, [claim])) == {"c1"}  # Priya's own: unsure


def test_a_claim_restating_the_value_is_no_doubt() -> None:
    first, later = chat(CELLO, "No weekend without the cello for me.")[1::2]
    said = _claim(first)
    refs = [MessageRef(m, None, None) for m in (first, later)]
    assert set(named_again([said], refs, [said])) == {"c1"}  # "no": a doubt, unread
    again = said.model_copy(update={"claim_id": "c2", "source_message_ids": [later.message_id]})
    assert named_again([said], refs, [said, again]) == {}  # read as saying it again
    denied = again.model_copy(update={"negated": True})
    assert set(named_again([said], refs, [said, denied])) == {"c1"}  # a denial restates nothing


def test_an_unsure_line_reads_as_unsure_and_cites_the_later_message() -> None:
    line = ClaimLine(
        claim_id="c1",
        text="priya plays the cello",
        status="unsure",
        source_message_ids=["m0-1"],
        named_again_message_ids=["m1-1"],
    )
    assert line.labelled() == "unsure: [m0-1] priya plays the cello (unsure; named again [m1-1])"
    assert line.model_copy(update={"kind": "fact"}).labelled().startswith("unsure: ")


def test_a_query_shows_the_doubted_value_as_unsure(ray_local: None, tmp_path: Path) -> None:
    """Through a built store and `MemoryStore.query`: no `now:` line states the cello; an
    `unsure:` line does, and the doubting message is in the evidence."""
    from arborwiki.api import open_store
    from arborwiki.cluster.build import run_build
    from arborwiki.core.config import load_config

    messages = chat(CELLO, "Honestly the cello is not something I have touched since the move.")
    archive = tmp_path / "a.jsonl"
    archive.write_text("".join(json.dumps(m.model_dump(mode="json")) + "\n" for m in messages))
    assert run_build(str(archive), str(tmp_path / "store"), load_config()).committed
    found = open_store(tmp_path / "store").query("priya-1", "Does Priya play the cello?")
    lines = [c.labelled() for c in found.claims]
    assert not [x for x in lines if "cello" in x and not x.startswith("unsure:")], lines
    assert any(x.startswith("unsure:") and "[m1-1]" in x for x in lines), lines
    assert "m1-1" in found.cited_ids()
