"""An owner labelled "user" who says their name gets one page under that name."""

from __future__ import annotations

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.identity import owner_name
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.records import Message, UserMemory
from tests.builders import make_message


def chat(*turns: tuple[str, str], user_id: str = "user-4") -> list[Message]:
    return [
        make_message(
            f"m{i}",
            text,
            user_id=user_id,
            speaker=speaker,
            role="assistant" if speaker == "assistant" else "user",
            turn_index=i,
        )
        for i, (speaker, text) in enumerate(turns)
    ]


def memory(messages: list[Message]) -> UserMemory:
    cfg = Config()
    return build_user_memory(messages, cfg, Labeled(RuleExtractor(cfg.extract)), load_embedder())


def subjects(messages: list[Message]) -> list[tuple[str, str, str]]:
    return [(c.subject, c.attribute, c.value) for c in memory(messages).claims]


def test_a_user_who_gives_a_name_others_use_is_that_name() -> None:
    messages = chat(
        ("user", "Hi! I'm Jordan. I work as a barista in Austin."),
        ("assistant", "Nice to meet you, Jordan. How is the coffee?"),
        ("user", "I adopted two goldfish last week."),
    )
    assert subjects(messages) == [
        ("jordan", "works as", "a barista in Austin"),
        ("jordan", "adopted", "two goldfish"),
    ]
    pages = {p.title for p in memory(messages).pages if p.kind == "entity"}
    assert "jordan" in pages and "user" not in pages


def test_my_name_is_needs_no_one_else() -> None:
    messages = chat(("user", "My name is Sam Lee. I live in Oslo."), ("assistant", "Hello!"))
    assert subjects(messages) == [("sam lee", "lives in", "Oslo")]


def test_im_american_names_no_one_and_named_speakers_keep_their_name() -> None:
    american = chat(("user", "I'm American. I live in Oslo."), ("assistant", "Hello!"))
    # no name given: the owner is their user id, never the role word "user"
    assert subjects(american) == [("user-4", "is", "American"), ("user-4", "lives in", "Oslo")]
    named = chat(("Ann", "I'm Annie. I live in Oslo."), ("assistant", "Hi Annie!"))
    assert owner_name(named) is None
    assert ("ann", "lives in", "Oslo") in subjects(named)


def test_a_greeting_gives_the_name_no_one_else_uses() -> None:
    """'Hi! I'm Hana.' in a chat with an assistant that never says her name: the claims are
    Hana's (the role subject "user" once stood for her)."""
    hana = chat(("user", "Hi! I'm Hana. I live in Kyoto."), ("assistant", "Welcome!"))
    assert owner_name(hana) == ("user", "hana")
    assert subjects(hana) == [("hana", "lives in", "Kyoto")]
    mid_chat = chat(("user", "Thanks. I'm Hana, I think, on the form."), ("assistant", "Ok."))
    assert owner_name(mid_chat) == ("user", "user-4")  # no greeting: the id
