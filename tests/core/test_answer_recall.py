"""Answer recall (core/evaluation/answers.py) and fact lines (core/query/facts.py,
core/wiki/text.py), pinned on hand-made answers, contexts and claims."""

from __future__ import annotations

import pytest

from arborwiki.core.config import QueryConfig
from arborwiki.core.evaluation.answers import answer_recall, answer_terms, context_terms
from arborwiki.core.evaluation.metrics import Context, aggregate, score
from arborwiki.core.query.facts import ranked_facts
from arborwiki.core.wiki.content import readable_fact
from arborwiki.core.wiki.text import fact_line, fact_text, inventory_item, third_person
from tests.core.wiki_fixtures import claim


@pytest.mark.parametrize(
    ("answer", "terms"),
    [
        ("7 May 2023", {"2023x05x07"}),
        ("May 7, 2023", {"2023x05x07"}),
        ("2023-05-07", {"2023x05x07"}),
        ("The week before 25 August 2023", {"week", "2023x08x25"}),
        ("May 2023", {"2023x05"}),
        ("two times", {"2", "time"}),
        ("basic games and stories", {"basic", "game", "stori"}),
    ],
)
def test_answer_terms_fold_case_stem_drop_function_words_and_normalise_dates(
    answer: str, terms: set[str]
) -> None:
    assert answer_terms(answer, 1) == frozenset(terms)


@pytest.mark.parametrize(
    ("answer", "category"),
    [("Yes", 3), ("Likely no, she prefers dogs", 3), ("Most likely yes", 1), ("Rome", 5)],
)
def test_yes_no_answers_and_category_5_are_not_scored(answer: str, category: int) -> None:
    assert answer_terms(answer, category) is None


def test_a_context_date_also_counts_as_its_month_and_year() -> None:
    context = context_terms("2023-05-08 Caroline: I went to a support group yesterday")
    assert {"2023x05x08", "2023x05", "2023", "support", "group"} <= context
    assert answer_recall(answer_terms("May 2023", 2), context) == 1.0  # type: ignore[arg-type]
    assert answer_recall(answer_terms("2023", 2), context) == 1.0  # type: ignore[arg-type]
    # the day before is not in the context; a dated claim line brings it
    gold = answer_terms("7 May 2023", 2)
    assert gold is not None and answer_recall(gold, context) == 0.0
    line = context_terms("fact: Caroline went to a support group (2023-05-07)")
    assert answer_recall(gold, context | line) == 1.0


def test_score_reads_messages_and_lines_for_answer_recall() -> None:
    texts = {"a": context_terms("2023-05-08 Mel: we painted a sunset"), "b": frozenset()}
    answer = answer_terms("a sunset and a lake", 4)  # {sunset, lake}
    assert answer == frozenset({"sunset", "lake"})
    just_messages = Context(frozenset({"a"}), 10)
    with_line = Context(frozenset({"a"}), 20, lines=("fact: Mel painted a lake [D1:2]",))
    half = score("v", 100, 4, ("a",), just_messages, {}, answer, texts.__getitem__)
    full = score("v", 100, 4, ("a",), with_line, {}, answer, texts.__getitem__)
    assert half.answer_recall == 0.5 and full.answer_recall == 1.0
    unscored = score("v", 100, 4, ("a",), with_line, {}, None, texts.__getitem__)
    assert unscored.answer_recall is None
    out = aggregate([half, full, unscored])["v"]["100"]["all"]
    assert out["answer_recall"] == 0.75 and out["answer_n"] == 2 and out["n"] == 3


def test_fact_lines_are_third_person_clauses_with_day_and_sources() -> None:
    lost = claim("c1", "s1", "t1", "lost", "my job at Door Dash", 3, ["D6:4"], subject="gina")
    assert fact_text(lost) == "Gina lost their job at Door Dash (2023-01-03)"
    assert fact_line(lost, ["D6:4", "D1:3"]) == (
        "Gina lost their job at Door Dash (2023-01-03) [D1:3] [D6:4]"
    )
    goal = claim("c2", "s1", "t1", "goal", "to give kids a loving home", 1, ["D2:10"])
    assert fact_text(goal).startswith("User's goal is to give kids a loving home")
    going = claim("c3", "s1", "t1", "going to", "find someone", 1, ["D1:1"], subject="sam")
    assert fact_text(going).startswith("Sam is going to find someone")
    assert third_person("I'm sure my mom and I will") == "They're sure their mom and they will"


def test_ranked_facts_keep_claims_that_share_the_question_words_one_line_a_fact() -> None:
    first = claim("c1", "s1", "t1", "lost", "my job at Door Dash", 3, ["D1:3"], subject="gina")
    again = claim("c2", "s2", "t1", "lost", "my job at Door Dash", 9, ["D6:4"], subject="gina")
    other = claim("c3", "s3", "t1", "opened", "a clothing store", 5, ["D2:1"], subject="gina")
    undated = claim("c4", "s4", "t1", "lost", "a bet", 2, ["D3:1"], subject="gina")
    undated = undated.model_copy(update={"event_time": None})
    claims = [first, again, other, undated]
    facts = ranked_facts(claims, {"job", "lost"})
    job = "Gina lost their job at Door Dash (2023-01-09)"
    assert [f.text for f in facts] == [job, "Gina lost a bet (2023-01-02)"]  # 2 words, then 1
    assert facts[0].sources == ["D6:4", "D1:3"]  # the newer saying first, then the older
    # An undated claim whose message is in the context says nothing new; a dated one adds
    # the day its relative date named.
    shown = ["D3:1", "D1:3", "D6:4"]
    assert [f.text for f in ranked_facts(claims, {"job", "lost"}, shown)] == [job]
    # The facts of the messages in the context come first, whatever words they share.
    store = "Gina opened a clothing store (2023-01-05)"
    got = ranked_facts(claims, {"job", "lost", "opened"}, ["D2:1"])
    assert [f.text for f in got] == [store, job, "Gina lost a bet (2023-01-02)"]


def test_ranked_facts_match_verbs_by_lemma_and_give_a_when_question_its_days() -> None:
    """LoCoMo's "When did Maria meet Jean?": the claim that holds the day says "met this
    amazing woman" — no stem in common with the question, one lemma ("met" → "meet")."""
    met = claim("c1", "s1", "t1", "met", "this amazing woman", 24, ["D7:1"], subject="maria")
    class_ = claim("c2", "s2", "t1", "took", "a writing class", 20, ["D7:1"], subject="maria")
    hike = claim("c3", "s3", "t1", "went on", "a hike", 22, ["D9:2"], subject="maria")
    late = claim("c4", "s4", "t1", "joined", "a gym", 26, ["D3:1"], subject="maria")
    claims = [met, class_, hike, late]
    words = {"meet", "jean"}
    assert [f.text for f in ranked_facts(claims, words)] == [
        "Maria met this amazing woman (2023-01-24)"
    ]
    # A "when" question: after the claims that share a word, the dated claims of the first
    # `dated_of_top` shown messages in their rank order, then nothing of the messages below.
    shown = ["D9:2", "D7:1", "D3:1"]
    got = [f.text for f in ranked_facts(claims, words, shown, dated_of_top=2)]
    assert got == [
        "Maria met this amazing woman (2023-01-24)",
        "Maria went on a hike (2023-01-22)",
        "Maria took a writing class (2023-01-20)",
    ]
    assert [f.text for f in ranked_facts(claims, {"jean"}, shown, dated_of_top=0)] == []
    # The query path's `query.when_fact_messages` (3): the third shown message's day too.
    top = QueryConfig().when_fact_messages
    got = [f.text for f in ranked_facts(claims, words, shown, dated_of_top=top)]
    assert top == 3 and got[-1] == "Maria joined a gym (2023-01-26)" and len(got) == 4


def test_a_deprecating_claim_reads_as_the_end_of_the_belief() -> None:
    ended = claim("c9", "s9", "t1", "plays", "drums", 5, ["D24:13"], subject="john", op="DEPRECATE")
    assert fact_text(ended) == "John no longer plays drums (2023-01-05)"


@pytest.mark.parametrize(
    ("attribute", "value", "negated", "text"),
    [
        ("worked", "with any other languages", True, "James did not work with any other languages"),
        ("likes", "spicy food", True, "James does not like spicy food"),
        ("can", "swim", True, "James cannot swim"),
        ("need", "an outlet for my thoughts", False, "James needs an outlet for their thoughts"),
        ("thinks", "it will n't be hard", False, "James thinks it won't be hard"),
        ("loves", "how uncomplicated it is", False, "James loves how uncomplicated it is"),
        ("hopes", "to grow the", False, "James hopes to grow"),
        # "I'll be teaching coding": the extractor keeps the modal and the -ing form
        ("will teaching", "coding", False, "James will be teaching coding"),
        ("will teaching", "coding", True, "James will not be teaching coding"),
        ("can bring", "snacks", False, "James can bring snacks"),  # "bring" is no -ing form
        # a quoted title at the value's end keeps its closing mark
        ("loves", '"Home Alone".', False, 'James loves "Home Alone"'),
        ("watches", "“Elf” and “Home Alone”", False, "James watches “Elf” and “Home Alone”"),
    ],
)
def test_a_fact_clause_conjugates_negates_and_ends_whole(
    attribute: str, value: str, negated: bool, text: str
) -> None:
    said = claim("c1", "s1", "t1", attribute, value, 3, ["D1:1"], subject="james", negated=negated)
    assert fact_text(said) == f"{text} (2023-01-03)"


def test_a_value_cut_at_the_word_cap_ends_at_its_last_clause_or_is_no_fact() -> None:
    long = "a trip to the beach with my kids, and then we went to the"  # 13 words
    trip = claim("c1", "s1", "t1", "took", long, 3, ["D1:1"], subject="mel")
    assert fact_text(trip) == "Mel took a trip to the beach with their kids (2023-01-03)"
    cut = "to help promote understanding among the young people in our town every"  # 12
    assert not readable_fact(claim("c2", "s1", "t1", "want", cut, 3, []))
    assert not readable_fact(claim("c3", "s1", "t1", "do-s", "Oscar", 3, []))  # "I do- Oscar"
    assert readable_fact(claim("c4", "s1", "t1", "adopted", "a guinea pig", 3, []))


@pytest.mark.parametrize(
    ("value", "item"),
    [
        # LoCoMo conv-43's hobbies, as the extractor cut them from the messages
        (
            "painting in my room to remind me to stay true and",
            "painting in their room to remind them to stay true",
        ),
        (
            "and train every day to stay in shape and improve",
            "train every day to stay in shape and improve",
        ),
        ("playing and pushing myself", "playing and pushing themself"),
        ("My dog", "dog"),
        ("and my dog", "dog"),
        ("this inspiring book", "inspiring book"),
        ("it a while back", ""),
        ("them yet", ""),
        ('"Charlotte\'s Web"', "charlotte's web"),
    ],
)
def test_an_inventory_item_is_a_whole_phrase_in_the_third_person(value: str, item: str) -> None:
    assert inventory_item(value) == item
