"""Readable page text: titles name what sets a thread apart; unparseable facts stay off."""

from __future__ import annotations

from datetime import UTC, datetime

from arborwiki.core.records import Claim, Snapshot, Trajectory
from arborwiki.core.wiki.content import readable_fact
from arborwiki.core.wiki.titles import distinctive_phrases, noun_phrases, phrase_title
from arborwiki.core.words import can_be_adjective, can_be_noun, only_noun

T0 = datetime(2023, 5, 1, tzinfo=UTC)


def _snap(sid: str, summary: str, keywords: list[str] | None = None) -> Snapshot:
    return Snapshot(
        snapshot_id=sid,
        user_id="u",
        conversation_id="c",
        session_id="s",
        message_ids=[sid],
        timestamp=T0,
        summary=summary,
        keywords=keywords or [],
        entities=["anna", "ben"],
        terms=[],
        facets={},
        extractor="rules",
    )


def _traj(tid: str, sids: list[str], title: str) -> Trajectory:
    return Trajectory(
        trajectory_id=tid,
        user_id="u",
        title=title,
        summary="",
        keywords=[],
        entities=["anna", "ben"],
        facet_keys=[],
        snapshot_ids=sids,
        first_time=T0,
        last_time=T0,
    )


def test_noun_phrases_follow_determiners_and_skip_adjectives() -> None:
    text = "We went to the adoption agency. It was a great time with my pottery class."
    assert noun_phrases(text) == {"adoption", "adoption agency", "pottery", "pottery class"}


def test_a_title_is_headed_by_a_noun() -> None:
    # "gorgeous" and "easier" have no noun reading; "eye" and "reach" have one; a word the
    # lexicon does not know (a name, a typo) may be one.
    assert not can_be_noun("gorgeous") and not can_be_noun("easier") and not can_be_noun("found")
    assert can_be_noun("eye") and can_be_noun("reach") and can_be_noun("outting")
    assert only_noun("photography") and not only_noun("reach")
    text = "We watched a gorgeous sunset. It felt easier with the eye of an artist."
    assert noun_phrases(text) == {"gorgeous sunset", "eye", "artist"}


def test_a_modifier_or_an_idiom_alone_is_no_title() -> None:
    # "local" can be a noun ("the locals") but before "shelter" it is an adjective;
    # "pottery" is only a noun, so "the pottery class" still gives "pottery" alone too.
    text = "I volunteer at a local shelter. We had a blast at the pottery class."
    assert can_be_adjective("local") and not can_be_adjective("pottery")
    assert noun_phrases(text) == {"local shelter", "pottery", "pottery class"}
    assert noun_phrases("It made a difference; give it a try.") == frozenset()
    assert noun_phrases("She loves the local.") == {"local"}  # no noun after it: a noun


def test_a_thread_without_noun_phrases_is_named_by_its_keyword_nouns() -> None:
    # No determiner before anything it is about: its keywords that are only nouns name it
    # ("reach" is also a verb, "easier" never a noun), rarest among the threads first.
    snaps = {
        "s1": _snap("s1", "Anna: Loving photography, so much easier!", ["easier", "photography"]),
        "s2": _snap("s2", "Ben: Reach out any time, photography rocks.", ["reach", "photography"]),
        "s3": _snap("s3", "Anna: Reach out, talk soon.", ["reach", "talk"]),
    }
    photo = _traj("t1", ["s1", "s2"], "easier")
    other = _traj("t2", ["s3"], "reach")
    assert distinctive_phrases([photo], [photo, other], snaps) == ["photography"]
    assert distinctive_phrases([other], [photo, other], snaps) == []


def test_a_title_names_what_sets_the_group_apart() -> None:
    snaps = {
        "s1": _snap("s1", "Anna: I visited the adoption agency today. Ben: How was the agency?"),
        "s2": _snap("s2", "Anna: The adoption agency called back about the kids."),
        "s3": _snap("s3", "Anna: My pottery class made a bowl. Ben: Show me the bowl!"),
        "s4": _snap("s4", "Anna: The kids loved the pottery class."),
    }
    adoption = _traj("t1", ["s1", "s2"], "continue")
    pottery = _traj("t2", ["s3", "s4"], "put")
    both = [adoption, pottery]
    assert distinctive_phrases([adoption], both, snaps)[0] == "adoption agency"
    assert distinctive_phrases([pottery], both, snaps)[0] == "pottery class"
    assert phrase_title([], "continue") == "continue"


def test_names_given_are_no_title_words() -> None:
    # A person the user mentions ("my partner Ciarán") has an entity page: a topic is named by
    # what it is about, not who.
    snaps = {
        "s1": _snap("s1", "Aoife: Ciarán wants Patagonia.", ["ciarán", "patagonia", "beach"]),
        "s2": _snap("s2", "Aoife: The ice cave was blue.", ["ice", "cave"]),
    }
    trip = _traj("t1", ["s1"], "patagonia")
    both = [trip, _traj("t2", ["s2"], "ice")]
    assert distinctive_phrases([trip], both, snaps) == ["ciarán", "patagonia"]
    # ("beach" is also a verb: no keyword noun)
    assert distinctive_phrases([trip], both, snaps, names=frozenset({"ciarán"})) == ["patagonia"]


def _claim(attribute: str, value: str) -> Claim:
    return Claim(
        claim_id=f"c-{attribute}-{value}",
        user_id="u",
        trajectory_id="t",
        snapshot_id="s",
        subject="caroline",
        attribute=attribute,
        value=value,
        text=f"caroline {attribute} {value}",
        recorded_at=T0,
        source_message_ids=["D1:1"],
    )


def test_facts_that_do_not_parse_are_not_facts() -> None:
    assert readable_fact(_claim("went to", "a LGBTQ support group"))
    assert readable_fact(_claim("plays", "clarinet"))
    assert not readable_fact(_claim("lasts", "spoke"))
    assert not readable_fact(_claim("chose", "them '"))
    assert not readable_fact(_claim("will my", "best to make sure these kids have a home"))
    # A reply to the listener's news is about the listener (LoCoMo dev's conv-41, conv-43).
    assert not readable_fact(_claim("can imagine", "how tough it must be"))
    assert not readable_fact(_claim("can imagine", "the thrill of being in that atmosphere"))
    assert not readable_fact(_claim("understands", "how frustrating it can be"))
    assert readable_fact(_claim("understands", "French"))


def test_number_words_and_words_of_any_script_in_titles() -> None:
    assert noun_phrases("Any idea where the fifth will be? The eighteen months flew.") == set()
    assert noun_phrases("We met at the café with my señora") == {"café", "señora"}


def test_a_farewell_is_no_title_word() -> None:
    # conv-47's souvenir thread was titled "souvenir and bye" from its keyword nouns
    snaps = {
        "s1": _snap("s1", "Anna: Got souvenirs! Bye!", ["souvenir", "bye"]),
        "s2": _snap("s2", "Ben: The ice cave was blue.", ["ice", "cave"]),
    }
    trip = _traj("t1", ["s1"], "souvenir")
    both = [trip, _traj("t2", ["s2"], "ice")]
    assert distinctive_phrases([trip], both, snaps) == ["souvenir"]


def test_months_and_weekdays_are_no_title_words() -> None:
    assert noun_phrases("See you this Saturday, and the July heat!") == set()
    assert noun_phrases("My souvenir from the market") == {"souvenir", "market"}
