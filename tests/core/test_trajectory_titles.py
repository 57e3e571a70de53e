"""Trajectory titles: what the thread repeats, else its topic anchor."""

from __future__ import annotations

from arborwiki.core.config import AttachConfig
from arborwiki.core.forest.state import TrajectoryState
from arborwiki.core.forest.summaries import trajectory_title


def _cfg(specific_idf: float) -> AttachConfig:
    return AttachConfig(specific_idf=specific_idf)


def _state(counts: dict[str, int], anchor: str = "") -> TrajectoryState:
    return TrajectoryState("t", keyword_counts=counts, topic_key=anchor)


def test_recurring_specific_nouns_by_count_times_idf() -> None:
    counts = {"pottery": 3, "put": 1, "bowl": 2, "show": 2, "kiln": 2, "gorgeous": 2}
    counts |= {"caroline": 4, "harry potter": 2}
    idf = {"pottery": 2.0, "put": 3.0, "bowl": 2.2, "show": 1.6, "kiln": 1.9, "gorgeous": 3.0}
    idf |= {"caroline": 1.0, "harry potter": 1.8}
    # pottery 3 × 2.0 = 6.0, bowl 4.4, kiln 3.8, harry potter 3.6, show 3.2; "put" is said
    # once, "gorgeous" cannot be a noun, "caroline" is generic (idf 1.0 < 1.5)
    assert trajectory_title(_state(counts, "put"), idf, _cfg(1.5)) == "pottery, bowl, kiln"
    assert trajectory_title(_state(counts, "put"), idf, _cfg(2.1)) == "bowl"


def test_a_thread_that_repeats_nothing_keeps_its_anchor() -> None:
    idf = {"put": 3.0, "kiln": 3.0, "bowl": 3.0}
    once = _state({"put": 1, "kiln": 1, "bowl": 1}, "put")
    assert trajectory_title(once, idf, _cfg(1.5)) == "put"
    # no anchor either: its commonest terms, ties alphabetical
    assert trajectory_title(_state({"kiln": 1, "bowl": 1}), idf, _cfg(1.5)) == "bowl, kiln"
    assert trajectory_title(_state({}), {}, _cfg(1.5)) == "untitled"


def test_a_phrase_and_its_own_words_title_once() -> None:
    """'portland, marathon, portland marathon' says one thing three times."""
    counts = {"portland": 4, "marathon": 3, "portland marathon": 2, "mile": 2, "pace": 2}
    idf = {"portland": 2.0, "marathon": 2.0, "portland marathon": 2.5, "mile": 1.8, "pace": 1.6}
    # by count × idf: portland 8.0, marathon 6.0, portland marathon 5.0, mile 3.6, pace 3.2
    title = trajectory_title(_state(counts), idf, _cfg(1.5))
    assert title == "portland marathon, mile, pace"
    # a word of a phrase already chosen is left out, whichever comes first
    counts = {"portland marathon": 4, "portland": 2, "mile": 2}
    assert trajectory_title(_state(counts), idf, _cfg(1.5)) == "portland marathon, mile"


def test_words_of_one_name_title_as_the_name() -> None:
    """'Project Hail Mary by Andy Weir': the thread is titled by the book, not 'hail, mary'."""
    counts = {"goal": 3, "hail": 2, "mary": 2, "book": 2}
    idf = {"goal": 2.0, "hail": 2.5, "mary": 2.5, "book": 1.6}
    state = _state(counts)
    state.entities = {"project hail mary", "andy weir", "mary"}
    assert trajectory_title(state, idf, _cfg(1.5)) == "goal, project hail mary"
    state.entities = {"mary"}  # one word of a name is not the name
    assert trajectory_title(state, idf, _cfg(1.5)) == "goal, hail, mary"


def test_a_month_or_weekday_titles_no_thread() -> None:
    """'We're launching a new fraud dashboard in April': the thread is the launch, not April."""
    idf = {"april": 3.0, "saturday": 3.0, "dashboard": 2.5, "fraud": 2.8, "launch": 2.0}
    idf |= {"aoife": 1.0}
    repeated = _state({"april": 3, "saturday": 2, "dashboard": 2}, "april")
    assert trajectory_title(repeated, idf, _cfg(1.5)) == "dashboard"
    # the anchor is a month: the rarest specific term instead (fraud 2.8 > launch 2.0; the
    # user's own name is generic, 1.0 < 1.5)
    once = _state({"april": 1, "launch": 1, "fraud": 1, "aoife": 1}, "april")
    assert trajectory_title(once, idf, _cfg(1.5)) == "fraud"
    assert trajectory_title(_state({"friday": 1}, "friday"), idf, _cfg(1.5)) == "untitled"
    # "I tutored kids at the library on Saturdays": a weekday said in the plural is one too
    idf |= {"saturdays": 3.0, "library": 2.0}
    plural = _state({"saturdays": 1, "library": 1}, "saturdays")
    assert trajectory_title(plural, idf, _cfg(1.5)) == "library"
