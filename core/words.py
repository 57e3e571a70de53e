"""Word helpers and stop words, one implementation each (extraction, forest, wiki, query).

- `norm_term`: one spelling per term (lowercase, single spaces): what terms, claim
  subjects/attributes/values and cue phrases are compared on.
- `normalize_name`: an entity mention as extraction matches it across snapshots
  ("Caroline’s " → "caroline": per-word edge punctuation and a trailing possessive go).
- `normalize_phrase`: a wiki name or item value, kept as said (lowercase, single spaces,
  edge punctuation only). Using `normalize_name` in the wiki would change LoCoMo dev pages
  (inventory items lose inner quotes and dashes), so the two stay two, named for what
  they do.
- `can_be_noun` / `only_noun` / `past_tense_only`: a word's parts of speech from lemminflect's
  lexicon (page titles are nouns; a claim's value head says which slot a bare "is" fills; a
  past-tense attribute is an event).
- `FUNCTION_WORDS` ⊂ `STOP_WORDS`: a question's content words keep "like", "time", "year"
  ("What did she like?"), so question analysis drops only the function words; extraction
  also drops conversational filler. "now" / "currently" ask for the latest state ("What is
  Jordan's job now?"); as search terms they only find other sentences with "for now" in them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from lemminflect import getAllInflections, getAllLemmas

from arborwiki.core.records import Snapshot

MODAL_VERBS = frozenset("can could may might must shall should will would".split())
# Words no clause ends on: an article, a determiner or a conjunction left at a value's end
# means the value was cut ("in hopes of growing the"); "it is", "deal with" end clauses.
NON_FINAL_WORDS: frozenset[str] = frozenset(
    """
    a an the my your our their its and or but nor because if than of whose
    """.split()
)
FUNCTION_WORDS: frozenset[str] = frozenset(
    """
    a an the and or of to in on at for with by from is are was were be been do does did
    what which who whom whose when where why how many much has have had i you he she they
    we it his her their our my your me him them this that these those as about would could
    should likely any some all ever now currently nowadays
    """.split()
)
# Function words plus chat filler and bare evaluations ("cool", "awesome"): in conversational
# archives these occur in nearly every window and would swamp keyword Jaccard.
STOP_WORDS: frozenset[str] = FUNCTION_WORDS | frozenset(
    """
    above after again against almost also although always am among another anybody anyone
    anything anyway anywhere aren around away back became because become before being below
    besides between both but can cannot couldn didn doesn doing don done down during each
    either else enough even every everybody everyone everything few further get gets
    getting got gotten hadn hasn haven having here hers herself himself however if into isn
    its itself just least less let lets like made make makes may maybe might mine more most
    must myself near need needs neither never next no nobody none nor not nothing now off
    often oh ok okay once one only onto other others otherwise ours ourselves out over own
    per perhaps quite rather really same several shall shouldn since so somebody someone
    something sometimes somewhat soon still such than theirs themselves then there thing
    things though through thus together too toward towards under until up upon us very via
    wasn way well weren whatever whether while will within without won wouldn yet yours
    yourself yourselves ll ve re im ive id youre youve dont cant didnt isnt wasnt thats
    theres whats lets gonna wanna gotta kinda sorta yeah yes yep yup nope hey hi hello wow
    oh ah aw aww haha hah lol omg hmm um uh thanks thank please sure totally definitely
    absolutely cool great awesome amazing nice good glad wonderful lovely fantastic super
    sweet incredible beautiful fun bad lot lots stuff bit pretty kind sort feel feeling
    felt think thought know knew see saw seen say said tell told sound sounds look looks
    looking want wanted going go goes went come came take took day time today yesterday
    tomorrow tonight week month year ago last recently lately actually anymore used able
    new old whole true right totally
    """.split()
)

MONTHS: frozenset[str] = frozenset(
    "january february march april may june july august september october november december".split()
)
WEEKDAYS: frozenset[str] = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split()
)

DATE_WORDS: frozenset[str] = MONTHS | WEEKDAYS | {f"{day}s" for day in WEEKDAYS}
"""Names of months and weekdays ("on Saturdays" too): they say when, never what (no page or
thread is titled by one)."""

LETTER = r"[^\W\d_]"
"""A letter of any script, for word patterns: "Ciarán", "Zoë" and "José" are one word each,
not "Ciar" + "n" as `[A-Za-z]+` reads them."""


class Words:
    """Words of letters and apostrophes, at least `least` characters long. ASCII text, most of
    any archive, is read by an `[A-Za-z]` pattern, 2–3× faster in `re` than the one whose
    letters are any script's, which reads the rest; both find the same words in ASCII."""

    def __init__(self, least: int = 1) -> None:
        more = f"{{{least - 1},}}"
        self._ascii = re.compile(rf"[A-Za-z][A-Za-z'’]{more}")
        self._any = re.compile(rf"{LETTER}(?:{LETTER}|['’]){more}")

    def findall(self, text: str) -> list[str]:
        return (self._ascii if text.isascii() else self._any).findall(text)


_LATIN_GREEK_CYRILLIC = [chr(c) for c in range(0x41, 0x530)]
UPPER = "[" + "".join(re.escape(c) for c in _LATIN_GREEK_CYRILLIC if c.isupper()) + "]"
"""A capital letter, accented included ("Élodie", "Łukasz", "Åsa"): `[A-Z]` misses them, so
their names were no entities. Latin, Greek and Cyrillic: the scripts that capitalise names."""
LOWER = "[" + "".join(re.escape(c) for c in _LATIN_GREEK_CYRILLIC if c.islower()) + "]"
_WORD = re.compile(r"\w+")
_NOUN = frozenset({"NOUN", "PROPN"})
_EDGE_PUNCTUATION = " \t\n.,;:!?\"'()[]"
POSSESSIVE = re.compile(r"['’]s?$")


@lru_cache(maxsize=1 << 16)  # pure; the same terms come back for every comparison
def norm_term(term: str) -> str:
    """One spelling per term, so 'Boston ' and 'boston' count as the same entity."""
    return " ".join(term.lower().split())


def clitic_off(word: str) -> str:
    """A word without its clitic, either apostrophe: "it’s" → "it", "don't" → "don"."""
    return word.replace("’", "'").split("'")[0]


def norm_set(terms: Iterable[str]) -> set[str]:
    out = set(map(norm_term, terms))  # map, not a generator: called a million times a shard
    out.discard("")
    return out


def snapshot_terms(sigma: Snapshot) -> set[str]:
    """K ∪ E ∪ X: every literal handle a snapshot offers for matching."""
    return norm_set([*sigma.keywords, *sigma.entities, *sigma.terms])


@lru_cache(maxsize=1 << 16)  # pure, and called on the same few names again and again
def normalize_name(text: str) -> str:
    """'Caroline’s ' → 'caroline': the form entities are matched on across snapshots."""
    words = [w.strip('.,;:!?()[]"“”-') for w in text.replace("’", "'").split()]
    name = " ".join(w for w in words if w).lower()
    return POSSESSIVE.sub("", name).strip()


@lru_cache(maxsize=1 << 16)  # pure; the wiki normalises the same names for every category
def normalize_phrase(text: str) -> str:
    """One spelling per wiki name or item: lowercase, single spaces, no edge punctuation;
    inner punctuation and possessives stay ("reading \"charlotte's web\"" keeps its words
    as said). Distinct from `normalize_name`, which folds an entity mention to its owner."""
    return " ".join(text.lower().split()).strip(_EDGE_PUNCTUATION)


def words(text: str) -> set[str]:
    """Every lower-cased word (`\\w+`) of `text`, stop words included."""
    return set(_WORD.findall(text.lower()))


def content_words(text: str) -> set[str]:
    """Lower-cased words minus stop words and single letters."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 1}


def content_tokens(text: str) -> list[str]:
    """`content_words` in order with repeats, digits-only tokens, months and weekdays out
    (they say when, not what about) and a plural "s" dropped as `singular_forms` does: the counts
    behind a TF-IDF vector of what a turn is about."""
    return [
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in _WORD.findall(text.lower())
        if w not in STOP_WORDS and len(w) > 1 and not w.isdigit() and w not in DATE_WORDS
    ]


def singular_forms(text: str) -> set[str]:
    """Content words with a plural/3rd-person "s" dropped, so "live" finds "lives in"."""
    return {
        w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        for w in content_words(text)
    }


@lru_cache(maxsize=1 << 16)
def can_be_noun(word: str) -> bool:
    """Whether the lexicon lists a noun reading of `word`, or does not know it (names, brands,
    typos): "eye", "reach", "Berlin" can be; "gorgeous", "easier", "found" cannot."""
    readings = getAllLemmas(word)
    return not readings or bool(_NOUN & readings.keys())


@lru_cache(maxsize=1 << 16)
def unknown_word(word: str) -> bool:
    """A word the lexicon does not list: a name typed in lower case ("denver", "pell"), a
    brand, a typo."""
    return not getAllLemmas(word)


@lru_cache(maxsize=1 << 16)
def can_be_adjective(word: str) -> bool:
    """Whether the lexicon lists an adjective reading of `word` ("local", "country"; not
    "pottery", "adoption")."""
    return "ADJ" in getAllLemmas(word)


@lru_cache(maxsize=1 << 16)
def only_noun(word: str) -> bool:
    """Whether every reading the lexicon lists is a noun ("photography", not "reach"): for a
    word with no determiner before it to say which reading it is."""
    return _NOUN.issuperset(getAllLemmas(word).keys())


def noun_word(word: str) -> bool:
    """A word the lexicon knows and knows only as a noun ("goal"; not "retooks", unknown)."""
    return bool(getAllLemmas(word)) and only_noun(word)


@lru_cache(maxsize=1 << 16)
def verb_lemma(word: str) -> str:
    """The verb a word inflects ("worked" → "work", "likes" → "like"); `word` if none."""
    lemmas = getAllLemmas(word.lower()).get("VERB")
    return lemmas[0] if lemmas else word


@lru_cache(maxsize=1 << 16)
def verb_form_lemma(word: str) -> str:
    """The verb a word can only be a form of ("met" → "meet", "bought" → "buy", "went" →
    "go"); any other word as it is ("left", "saw", "painting" also name things). A stemmer
    folds "hiked" into "hike" but not "met" into "meet": irregular forms need the lexicon."""
    readings = getAllLemmas(word)
    if readings.keys() != {"VERB"}:
        return word
    return readings["VERB"][0]


@lru_cache(maxsize=1 << 16)
def lemma_stems(text: str) -> frozenset[str]:
    """`stems` with a verb's form read as the verb: how a question's words meet a claim's
    (fact lines, claim citations). Cached: a thread's claims come back question after
    question."""
    return frozenset(verb_form_lemma(w) for w in singular_forms(text))


@lru_cache(maxsize=1 << 16)
def third_singular(word: str) -> str:
    """A bare verb said of one other person ("need" → "needs"); other words as they are
    ("needs", "worked", "can", "goal")."""
    low = word.lower()
    if low in MODAL_VERBS or getAllLemmas(low).get("VERB", ("",))[0] != low:
        return word
    forms = getAllInflections(low, upos="VERB").get("VBZ")
    return forms[0] if forms else word


@lru_cache(maxsize=1 << 16)
def only_adverb(word: str) -> bool:
    """Whether the lexicon knows `word` as an adverb and nothing else ("slowly", "honestly";
    not "early", "reply"): a word between a subject and its verb that is not the verb."""
    return getAllLemmas(word).keys() == {"ADV"}


@lru_cache(maxsize=1 << 16)
def past_tense_only(word: str) -> bool:
    """Whether `word` is a verb's past tense and no other form of it: "made", "went",
    "visited"; not "put" or "read" (also present), nor "feels"."""
    lemmas = getAllLemmas(word, upos="VERB").get("VERB", ())
    forms = [getAllInflections(lemma, upos="VERB") for lemma in lemmas]
    past = any(word in f.get("VBD", ()) for f in forms)
    other = word in lemmas or any(
        word in f.get(tag, ()) for f in forms for tag in ("VB", "VBP", "VBZ", "VBG")
    )
    return past and not other


def has_cue(text: str, cues: list[str]) -> bool:
    """Whole-word, case-insensitive match of any cue phrase (so 'also' ≠ 'alsoran')."""
    pattern = _cue_pattern(tuple(cues))
    return pattern is not None and pattern.search(norm_term(text)) is not None


@lru_cache(maxsize=64)
def _cue_pattern(cues: tuple[str, ...]) -> re.Pattern[str] | None:
    """One alternation for a cue list (callers ask for the same few lists)."""
    words = [re.escape(c.lower()) for c in cues if c]
    return re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)") if words else None
