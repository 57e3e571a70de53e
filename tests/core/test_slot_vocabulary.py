"""The slot-vocabulary reader: beliefs read from a sentence's words where no template
matched, and the lifecycle around them. Sentences are written here, in wordings none of the
benchmark pools use."""

from __future__ import annotations

import pytest

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.changes import belief_statements
from arborwiki.core.extract.claims import beliefs_of
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.extract.slot_vocabulary import ANY_DAY, ended_mention, vocabulary_beliefs
from arborwiki.core.pipeline import build_user_memory
from tests.core.test_belief_changes import change, chat, ended


@pytest.fixture(scope="module")
def build():
    cfg = Config()
    extractor, embedder = Labeled(RuleExtractor(cfg.extract)), load_embedder()
    return lambda messages: build_user_memory(messages, cfg, extractor, embedder).claims


def read(sentence: str) -> list[tuple[str, str, bool]]:
    return [(s.attribute, s.value, s.negated) for s in beliefs_of(sentence)]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # first statements, said in passing
        ("Our little house in Asheville needs a new roof.", ("lives in", "Asheville", False)),
        (
            "Our little house in Asheville needs a new roof, any tips?",
            ("lives in", "Asheville", False),
        ),
        ("Having grown up here, Flagstaff feels like home to me.", None),
        ("My commute to Harlow Analytics takes an hour, such is the job.", None),
        (
            "I've been with Harlow Analytics for ages, as their bookkeeper.",
            ("works at", "Harlow Analytics", False),
        ),
        (
            "Our family car is a Subaru Forester with a roof box.",
            ("drives", "Subaru Forester", False),
        ),
        ("Leo, my fiancé, cooks on weekends.", ("is with", "Leo", False)),
        (
            "We adore Mochi — our cat — even when she sheds.",
            ("has a pet", "cat named Mochi", False),
        ),
        ("Most evenings I end up playing badminton at the club.", ("plays", "badminton", False)),
        # changes
        (
            "We traded our Subaru Forester for a Hyundai Kona last spring.",
            ("drives", "Hyundai Kona", False),
        ),
        ("Leo isn't my fiancé any longer, sadly.", ("is with", "Leo", True)),
        ("I've gone plant-based this year.", ("is", "vegan", False)),
        ("Got the sack from Harlow Analytics on Monday.", ("works at", "Harlow Analytics", True)),
        (
            "Fetched our new Mazda CX-5 today and got a fair trade-in price for the Hyundai Kona.",
            ("drives", "Mazda CX-5", False),
        ),
    ],
)
def test_the_vocabulary_reads_a_slot_value_beside_its_words(sentence, expected):
    said = read(sentence)
    if expected is None:
        assert not [s for s in said if s[0] in {"lives in", "works at"}], said
    else:
        assert expected in said, said


@pytest.mark.parametrize(
    "sentence",
    [
        "My uncle just bought a Hyundai Kona.",  # someone else's
        "Is a Hyundai Kona any good in snow?",  # a question
        "If we ever moved to Asheville I'd want a porch.",  # a hypothetical
        "Back from a long weekend in Asheville, what a town.",  # a trip
        "Years ago I had a paper round in Asheville.",  # the past
        "I've worked with Python and Rust for years.",  # a tool, not an employer
        "Last Friday I went to a planning meeting downtown.",  # a date, not a standing day
        "Music always brings us together.",  # a capitalised first word, no partner
        "We only buy plant-based milk now.",  # a product, not a diet
        "My mum is moving to Asheville next spring.",  # someone else's (British kin word)
        "We're booked in to test-drive a Hyundai Kona on Sunday.",  # a plan
    ],
)
def test_the_vocabulary_reads_nothing_of_others_questions_plans_trips_or_the_past(sentence):
    assert vocabulary_beliefs(sentence) == [], vocabulary_beliefs(sentence)


@pytest.mark.parametrize(
    ("sentence", "what"),
    [
        ("Badminton is no longer a thing I do.", "Badminton"),
        ("Decided to ditch badminton over the winter.", "badminton"),
        ("I've walked away from rock climbing for good.", "rock climbing"),
        ("I tried my best but didn't make it.", None),  # names nothing
        ("My neighbours have stopped gardening.", None),  # someone else's ending
    ],
)
def test_an_ending_no_slot_reads_names_what_ended(sentence, what):
    mention = ended_mention(sentence)
    assert (mention.value if mention else None) == what
    assert mention is None or (mention.negated and mention.change)


def test_two_values_of_a_slot_the_one_marked_as_left_is_the_old():
    said = [
        (s.attribute, s.value, s.negated)
        for s in vocabulary_beliefs(
            "heads up: my car is a Hyundai Kona these days, not the Subaru Forester"
        )
    ]
    assert ("drives", "Hyundai Kona", False) in said
    assert ("drives", "Subaru Forester", True) in said


def test_a_value_the_templates_ended_is_not_read_again_as_held():
    said = read("Our cat Mochi got very ill and didn't make it.")
    assert said == [("has a pet", "Mochi", True)], said


def test_a_correction_that_names_only_the_right_weekday():
    said = vocabulary_beliefs("No wait, I meant Thursday.")
    assert [(s.attribute, s.value) for s in said] == [("corrects", f"{ANY_DAY} -> Thursday")]


def test_the_templates_still_read_first():
    assert belief_statements("I live in Asheville now.")[0].value == "Asheville"
    assert read("I live in Asheville now.") == [("lives in", "Asheville", False)]


def test_a_first_statement_in_passing_is_revised_by_a_move(build):
    claims = build(chat("Our little house in Asheville needs a new roof.", "We moved to Boise!"))
    assert ended(claims, "m1-1").value == "Asheville"


def test_an_ending_in_the_wrong_slot_still_ends_the_value_it_names(build):
    """'no longer with Harlow Analytics' reads as a partner ending; the memory holds it as a
    job: the job ends (before: a new partner claim, the job stated as current)."""
    claims = build(
        chat(
            "I'm a bookkeeper at Harlow Analytics.",
            "Funny story, but I'm no longer with Harlow Analytics. Job hunting!",
        )
    )
    assert "Harlow Analytics" in ended(claims, "m1-1").value


def test_a_hobby_given_up_in_its_own_words(build):
    claims = build(
        chat("Most evenings I end up playing badminton at the club.", "I've packed in badminton.")
    )
    assert ended(claims, "m1-1").value == "badminton"


def test_retiring_from_a_hobby_does_not_end_the_job(build):
    claims = build(
        chat(
            "I'm a bookkeeper at Harlow Analytics.",
            "Most evenings I end up playing badminton at the club.",
            "I officially retired from badminton this week.",
        )
    )
    assert ended(claims, "m2-1").value == "badminton"
    job = [c for c in claims if "Harlow" in c.value]
    assert job and all(c.status == "active" for c in job), [(c.value, c.status) for c in job]


def test_i_meant_corrects_the_weekday_said_last(build):
    claims = build(chat("Choir practice is on Tuesday evenings for me.", "Oops, I meant Thursday."))
    fixed = change(claims, "m1-1")
    assert fixed.value.endswith("Thursday") and "Tuesday" not in fixed.value, fixed.value


def test_a_correction_begun_in_one_sentence_and_ended_in_the_next(build):
    claims = build(
        chat(
            "Choir practice is on Tuesday evenings for me.",
            "Hmm, Tuesday is wrong. Choir practice is on Thursday.",
        )
    )
    fixed = change(claims, "m1-1")
    assert fixed.value.endswith("Thursday") and "Tuesday" not in fixed.value, fixed.value


@pytest.mark.parametrize(
    ("old", "end", "value"),
    [
        ("My partner Jo and I cook together.", "Jo and I went our separate ways in June.", "Jo"),
        ("My partner Jo and I cook together.", "Jo is not my partner now, sadly.", "Jo"),
        ("I have a dog named Rex.", "We lost our dog Rex last week.", "dog named Rex"),
        (
            "I work at Salt House as a chef.",
            "Salt House used to be where I worked; now I teach.",
            "a chef at Salt House",
        ),
    ],
)
def test_everyday_endings_end_what_they_name(build, old, end, value):
    claims = build(chat(old, end))
    assert ended(claims, "m1-1").value == value
