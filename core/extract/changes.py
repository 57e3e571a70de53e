"""Belief claims from what a person says about their own states, and how those change.

The generic sentence rules (claims.py) read "I don't play chess anymore after I hurt my
shoulder" as `plays / chess anymore after I hurt my shoulder`: the negation and the aspect
are lost, so the old value reads as true. This module reads a speaker's own sentences for
the states of the belief slots (core/slots.py) and the ways people say they change:

- a state, held or denied: "I live in X", "I don't live in X anymore", "I no longer eat meat";
- aspect: "I used to live in X" (ended), "… X now", "… these days" (a change);
- events that start a state: moved to, started at, accepted a job at, bought, adopted,
  got engaged to, took up, went vegan, switched to;
- events that end one: laid off from, quit, left, retired, sold, gave up, stopped, broke up
  with, passed away, had to rehome;
- corrections: "Sorry, I meant Tuesday, not Monday" → a claim `corrects / Monday -> Tuesday`
  that the lifecycle applies to the latest claim holding "Monday";
- presuppositions: "since the move to X", "my new job at X", "now that I'm at X".

Hypotheticals ("I might move to X", "if I moved …", "I'm thinking about quitting"),
questions and other people's changes ("my sister moved to X": not the speaker's clause)
make no claim here. An ending is a claim with `negated` and `change_cue` set; a start or a
new value has `change_cue` set. Hand rules, not a parser: they run on every sentence of a
100K-message build, where a dependency parse would cost more than the whole extraction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from arborwiki.core.slots import CAR_WORDS, DIETS, PET_WORDS, fills_no_slot

_CONTRACTED = re.compile(
    r"(?i)\b(?:(?P<neg>ca|wo|do|does|did|is|are|was|were|have|has|had)n't"
    r"|(?P<host>i|we|they|you|it|that|there|home|he|she)'(?P<end>m|re|ve|d|ll|s))\b"
)
_ENDINGS = {"m": ("i",), "re": ("we", "they", "you"), "ve": ("i", "we", "they", "you"),
            "d": ("i", "we", "they", "you"), "ll": ("i", "we", "they", "you"),
            "s": ("it", "that", "there", "home", "he", "she")}  # fmt: skip
_SPELLED = {"m": "am", "re": "are", "ve": "have", "ll": "will", "s": "is"}
_BEEN_NEXT = re.compile(r"\s+been\b")


def _spell_out(m: re.Match[str]) -> str:
    """One contraction spelled out, or left as it was ("she'm" is none)."""
    if m["neg"]:
        word = m["neg"].lower()
        return {"ca": "cannot", "wo": "will not"}.get(word, f"{m['neg']} not")
    host, end = m["host"], m["end"].lower()
    if host.lower() not in _ENDINGS[end]:
        return m.group(0)
    if end == "d":
        return f"{host} had" if _BEEN_NEXT.match(m.string, m.end()) else f"{host} would"
    return f"{host} {_SPELLED[end]}"


_CLAUSES = re.compile(
    r"\s*(?:[;:]|\s[-–—]\s|[–—]|,\s*(?:but|and|so)\s|\bbut\s"
    r"|,\s*(?=(?:(?:and |but )?(?:now|these days|today)\s+)?(?:i|we)\s)"
    r"|\s(?:and|then)\s(?=(?:bought|sold|moved|started|got|switched|quit|left|joined|took"
    r"|adopted|gave|went|had to|joined)\b))\s*",
    re.I,
)
_ELIDED_WORDS = frozenset(
    "moved packed relocated started switched quit sold bought got gave took adopted left "
    "joined landed accepted broke stopped retired".split()
)
_ELIDED = re.compile(
    rf"^(?:just |finally |recently |also )?(?=(?:{'|'.join(sorted(_ELIDED_WORDS))}|had to)\b)",
    re.I,
)
"""A clause that opens with the speaker's verb, its "I" left out ("Switched from my Kia to
a Mazda last month", "… and bought a Mazda")."""
HYPOTHETICAL = re.compile(
    r"\b(?:if|might|may|could|would|should|wish|wishes|maybe|perhaps|someday|considering"
    r"|thinking|plan|plans|planning|want|wants|wanted|hope|hoping|dream|dreaming|going to"
    r"|will|tempted|whether|unless|supposed|trying to decide)\b",
    re.I,
)
_STOP = (
    r"(?=\s*(?:[,.!?()\"]|\s[-–—]\s|$|\b(?:but|and|because|since|after|before|when|while|so"
    r"|now|anymore|any more|these days|nowadays|for now|for good|on|last|about|around"
    r"|roughly|ago|this|next|yesterday|today|tonight|in (?:january|february|march|april"
    r"|may|june|july|august|september|october|november|december)|in the|in a|at the start"
    r"|at the end|every|twice|once|a week|a month|until|altogether|completely|entirely"
    r"|(?:a|one|two|three|four|five|six|a few|a couple of|several) (?:days?|weeks?|months?|years?)"
    r"|for today|full time|part time"
    r"|it was|it is|it broke|though|which|who|that|with my|as of|again|for|near|to be"
    r"|as well|most|usually|often|(?:i|we) (?:have|had|am|are|was|were|will|do|did))\b))"
)
_V = r"(?P<v>[^,.!?;()\"]+?)" + _STOP  # a value: the shortest run up to a stop
_NAME = r"(?P<v>(?-i:[A-Z][a-z'-]+))"
_ORG = r"(?P<e>(?-i:[A-Z][\w&'-]+(?:\s+(?:(?:&|and|of|the)\s+)?[A-Z][\w&'-]+)*))"
_THING = (
    r"(?P<e>the (?:[a-z-]+ ){0,3}(?:company|firm|store|shop|agency|startup|restaurant|office"
    r"|school|hospital|bank|factory))"
)
"""An employer said without a name ("the mechanical engineering company")."""
_ROLE = (
    r"(?:a |an )?(?P<r>[a-z][a-z-]*(?:\s+(?!(?:i|we|he|she|they|you)\b)[a-z][a-z-]*){0,3}?)"
    r"(?:(?=\s+(?:(?:over|down|up|out)\s+)?(?:at|for|with)\b)|" + _STOP + ")"
)
_PETS = "|".join(sorted(PET_WORDS))
_DIETS = "|".join(sorted(DIETS))
_FOODS = r"(?:meat|red meat|dairy|fish|pork|beef|chicken|eggs|gluten|sugar)"
_NO_OBJECT = r"(?! (?:the|a|an|my|our|his|her|their|its|this|that|these|those)\b)"
"""After a verb that ends a state ("broke up", "retired"): no object follows ("broke up the
meeting", "retired my old running shoes" end nothing)."""
_VISITED = frozenset({"by", "at"})  # "stopped by the store", "stopped at the bakery": a visit
_FIRST = r"(?:^|(?<=\s))(?:i|we)\b"
_AUX = (
    r"(?P<aux>(?:\s+(?:had to|do|does|did|am|are|was|were|have|has|had|not|no longer|never|just"
    r"|finally|recently|officially|actually|also|really|now|already|eventually|even|still"
    r"|currently|both|used to|been|usually|often|sometimes|always|normally|regularly"
    r"|typically|mostly|generally))*)\s+"
)


@dataclass(frozen=True)
class Said:
    """A belief read from one clause: the slot's attribute, the value, and the change."""

    attribute: str
    value: str
    negated: bool = False
    change: bool = False
    clause: str = ""  # the clause it was read from: its dates are the claim's


def expand(sentence: str) -> str:
    """Contractions spelled out ("I don't" → "I do not"): one form for every rule."""
    if "'" not in sentence and "’" not in sentence:
        return sentence
    return _CONTRACTED.sub(_spell_out, sentence.replace("’", "'"))


def _car(value: str) -> bool:
    words = set(re.findall(r"[a-z0-9-]+", value.lower()))
    return bool(words & CAR_WORDS)


def _job(m: re.Match[str], negated: bool = False, change: bool = False) -> Said:
    """'works as / a financial controller at Bluefin Logistics', or 'works at / Bluefin
    Logistics' when no role was said (both fill the `job` slot)."""
    org, role = m.groupdict().get("e"), m.groupdict().get("r")
    article = "an" if role and role[0].lower() in "aeiou" else "a"
    if role and org:
        return Said("works as", f"{article} {role} at {org}", negated, change)
    if role:
        return Said("works as", f"{article} {role}", negated, change)
    return Said("works at", org or "", negated, change)


def _aux_state(aux: str) -> tuple[bool, bool]:
    """(negated, change) from the words between the subject and the verb."""
    low = f" {aux.lower()} "
    negated = any(w in low for w in (" not ", " no longer ", " never ", " used to "))
    change = any(w in low for w in (" no longer ", " used to ", " now "))
    return negated, change


Rule = tuple[re.Pattern[str], Callable[[re.Match[str], bool, bool], Said | None]]


def _rules() -> list[Rule]:
    """First-person rules: each pattern starts after the subject and its auxiliaries."""
    r: list[tuple[str, Callable[[re.Match[str], bool, bool], Said | None]]] = [
        # States, held or denied ("do not … anymore", "no longer", "used to").
        (
            r"(?P<how>live|lives|living|lived) in " + _V,
            lambda m, n, c: _lives(m, n, c),
        ),
        (
            r"in (?P<v>(?-i:[A-Z][\w'-]+(?: [A-Z][\w'-]+)*))" + _STOP,
            lambda m, n, c: Said("lives in", m["v"], n, c) if (n or c) and _is_be(m) else None,
        ),
        (r"(?:be|been) (?:living )?in " + _V, lambda m, n, c: Said("been in", m["v"], n, c)),
        (r"(?:based|settled) in " + _V, lambda m, n, c: Said("lives in", m["v"], n, True)),
        (
            r"(?:renting|rent|bought|own|found) (?:a |an |our |my )?(?:new )?(?:flat|apartment"
            r"|house|place|condo|home) in " + _V,
            lambda m, n, c: Said("lives in", m["v"], n, True),
        ),
        (
            r"(?:work|works|working|employed) at " + _ORG + r"(?: now)?,? as " + _ROLE,
            lambda m, n, c: _job(m, n, c),
        ),
        (
            r"(?:work|works|working|employed) (?:as " + _ROLE + r" )?(?:at|for|with|by) " + _ORG,
            lambda m, n, c: _job(m, n, c),
        ),
        (
            r"(?:work|works|working) as " + _ROLE,
            lambda m, n, c: Said("works as", f"a {m['r']}", n, c),
        ),
        (
            r"(?:a|an) " + _ROLE + r" (?:(?:over|down|up|out) )?(?:at|with|for) " + _ORG,
            lambda m, n, c: _job(m, n, c) if _is_be(m) or _perfect(m) else None,  # not "had"
        ),
        (
            r"(?:drive|drives|driving) (?:a |an |my |the )?" + _V,
            lambda m, n, c: Said("drives", m["v"], n, c) if _car(m["v"]) else None,
        ),
        (
            r"(?:eat|eats|eating) (?:a lot of |much |any )?(?P<v>" + _FOODS + r")\b(?![-'])",
            lambda m, n, c: Said("eats", m["v"], n, c),
        ),
        (r"(?:a |an )?(?P<v>" + _DIETS + r")\b", lambda m, n, c: Said("is", m["v"], n, c)),
        (
            r"(?:unemployed|between jobs|out of work|jobless)\b",
            lambda m, n, c: None if n else Said("works at", "", True, True),
        ),
        (
            r"(?:single|divorced|separated)\b" + _NO_OBJECT,
            lambda m, n, c: None if n else Said("is dating", "", True, True),
        ),
        (
            r"(?:have|own) (?:a |an |my )?(?P<v>car|truck)\b",
            lambda m, n, c: Said("drives", "", True, True) if n else None,
        ),
        (
            r"(?P<how>dating|seeing|with) " + _NAME + r"\b(?! and\b)(?!\s+(?-i:[A-Z&]))",
            lambda m, n, c: (
                None if m["how"].lower() == "with" and not n else Said("is dating", m["v"], n, c)
            ),
        ),
        (
            r"(?:started|begun|began) (?:seeing|dating) (?:someone(?: new)?,? )?" + _NAME,
            lambda m, n, c: Said("is dating", m["v"], n, True),
        ),
        (
            r"(?:got |was |been )?promoted to " + _ROLE,
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:got|just got|recently got) (?P<v>married|engaged|divorced)\b(?! to)",
            lambda m, n, c: Said("is", m["v"].lower(), n, True),
        ),
        (
            r"(?:graduated|finished (?:my|the) degree)(?: from " + _ORG + ")?",
            lambda m, n, c: Said("studies at", m["e"] or "", True, True),
        ),
        (
            r"(?:got )?(?P<how>married|engaged) to " + _NAME,
            lambda m, n, c: Said(f"is {m['how']} to", m["v"], n, True),
        ),
        (
            r"(?P<held>have|has|had) (?:a|an|two|three) (?P<k>"
            + _PETS
            + r") (?:named |called )?"
            + _NAME,
            lambda m, n, c: _pet_held(m, n, c),
        ),
        (
            r"(?P<verb>play|plays|do|does|practice|practices) (?P<v>(?:the )?[a-z][a-z -]*?)"
            + _STOP,
            lambda m, n, c: _hobby(m["verb"], m["v"], n, c),
        ),
        # Events that start a state.
        (
            r"(?:moved|relocated|moving|relocating|move) (?:back |over |out )?to " + _V,
            lambda m, n, c: Said("lives in", m["v"], n, True),
        ),
        (
            r"(?:started|start|starting) (?:a new job |my new job |working |work )?(?:at|with) "
            + _ORG
            + r"(?:[^,.!?]*? as "
            + _ROLE
            + ")?",
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:started|start|starting|began|begin) (?:work |working )?as "
            + _ROLE
            + r" (?:at|with|for) "
            + _ORG,
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:accepted|took|got|landed|started|have) (?:a |an |the |my )?(?:new )?"
            r"(?:job|position|role|offer)(?: offer)? (?:at|with) "
            + _ORG
            + r"(?: as "
            + _ROLE
            + ")?",
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:got|landed|accepted|took|found) (?:a |the )?(?:new )?(?:job|position|role) as "
            + _ROLE
            + r"(?: (?:at|with) "
            + _ORG
            + ")?",
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:got hired|was hired|joined|hired) (?:at |by )?" + _ORG + r"(?: as " + _ROLE + ")?",
            lambda m, n, c: _job(m, n, True),
        ),
        (
            r"(?:bought|got(?! rid)|leased|picked up) (?:a |an |my )?(?:new |used |second-hand )?"
            r"(?:car,? (?:a |an )?)?" + _V,
            lambda m, n, c: Said("drives", m["v"], n, True) if _car(m["v"]) else None,
        ),
        (
            r"switched (?:over )?(?:from (?:my |our |a |an |the )?[^,.!?]+? )?to (?:a |an )?" + _V,
            lambda m, n, c: _switched(m["v"], n),
        ),
        (
            r"(?:went|became|turned|gone|become|going) (?:fully |full |completely |totally )?(?P<v>"
            + _DIETS
            + r")\b",
            lambda m, n, c: Said("is", m["v"], n, True),
        ),
        (
            r"(?:adopted|got|rescued) (?:a |an |our |my )?(?:new )?(?P<k>" + _PETS + r")\b(?![-'])"
            r"(?:,? (?:named |called )?" + _NAME + ")?",
            lambda m, n, c: Said("has a pet", f"{m['k']} named {m['v']}" if m["v"] else m["k"]),
        ),
        (
            r"(?:took up|started (?P<verb>playing|doing|learning)|picked up) " + _V,
            lambda m, n, c: Said("plays" if m["verb"] == "playing" else "does", m["v"], n, True),
        ),
        # Events that end one.
        (
            r"(?:got )?(?:laid off|let go|fired|made redundant)(?: (?:from|at|by) " + _ORG + ")?",
            lambda m, n, c: Said("works at", m["e"] or "", True, True),
        ),
        (
            r"(?:quit|left|resigned from|lost) (?:my |the )?(?:job|position|role)"
            r"(?: (?:at|with) (?:" + _ORG + "|" + _THING.replace("?P<e>", "?:") + "))?",
            lambda m, n, c: Said("works at", m["e"] or "", True, True),
        ),
        (r"(?:left|resigned from|retired from) " + _ORG, lambda m, n, c: _left(m)),
        (r"retired\b(?! from)" + _NO_OBJECT, lambda m, n, c: Said("works at", "", True, True)),
        (
            r"(?:sold|got rid of|totaled|wrecked|donated|gave away) (?:my |our |the )?" + _V,
            lambda m, n, c: _sold(m["v"]),
        ),
        (
            r"traded in (?:my |our |the )?(?P<o>[^,.!?]+?) for (?:a |an )?" + _V,
            lambda m, n, c: Said("drives", m["v"], n, True),
        ),
        (
            r"(?:gave up|give up|given up|giving up|quit|stopped|stop|done with|finished with"
            r"|(?:take|took|taking|taken) a break from)"
            r" (?:playing |doing |going to |eating )?"
            r"(?:my |the )?" + _V,
            lambda m, n, c: _ended(m["v"]),
        ),
        (
            r"(?:broke up|split up|separated|divorced)"
            + _NO_OBJECT
            + r"(?: with| from)?(?: "
            + _NAME
            + ")?",
            lambda m, n, c: Said("is dating", m["v"] or "", True, True),
        ),
        (
            r"(?:lost|buried|put down) (?:our |my )?(?:(?:"
            + _PETS
            + r") )?"
            + _NAME
            + r"(?! (?:at|in|on)\b)",
            lambda m, n, c: None if _month(m["v"]) else Said("has a pet", m["v"], True, True),
        ),
        (
            r"put " + _NAME + r" (?:down|to sleep)",
            lambda m, n, c: Said("has a pet", m["v"], True, True),
        ),
        (
            r"had to (?:rehome|put down|give away|give up|say goodbye to) (?:our |my )?"
            r"(?:(?:" + _PETS + r") )?" + _NAME,
            lambda m, n, c: Said("has a pet", m["v"], True, True),
        ),
        # Held states said another way.
        (
            r"(?:had|owned) (?:my|our|a|an|the|this) (?:old |trusty )?" + _V,
            lambda m, n, c: Said("drives", m["v"], n, c) if _car(m["v"]) and _perfect(m) else None,
        ),
        (
            r"signed a lease (?:on (?:a |an |our |my )?(?:new )?(?:flat|apartment|house|place"
            r"|condo|home) )?in " + _V,
            lambda m, n, c: Said("lives in", m["v"], n, True),
        ),
        (
            r"at " + _ORG + _STOP,
            lambda m, n, c: Said("works at", m["e"], True, True) if n and _is_be(m) else None,
        ),
        (
            r"(?:a )?(?:big |huge |real )?meat[- ]eater\b",
            lambda m, n, c: Said("eats", "meat", n, c),
        ),
    ]
    return [(re.compile(_FIRST + _AUX + p, re.I), f) for p, f in r]


_NOT_DONE = frozenset("the my some well too much anything everything nothing".split())


def _lives(m: re.Match[str], negated: bool, change: bool) -> Said | None:
    """'live in X' and 'I've lived in X for years' hold now; 'lived in X' is a past state (no
    claim: "I lived in Austin for a year in college" says nothing of today); 'was living in
    X' ended."""
    past = re.search(r"\b(?:was|were)\b", m["aux"], re.I) is not None
    perfect = re.search(r"\b(?:have|has)\b", m["aux"], re.I) is not None
    if m["how"].lower() == "lived" and not negated and not perfect:
        return None
    if past and m["how"].lower() == "living":
        return Said("lives in", m["v"], True, True)
    return Said("lives in", m["v"], negated, change)


def _perfect(m: re.Match[str]) -> bool:
    """A present perfect ("I've had my Civic since 2019"): the state still holds."""
    return re.search(r"\b(?:have|has)\b", m["aux"], re.I) is not None


def _is_be(m: re.Match[str]) -> bool:
    """The auxiliaries hold a present "be": "I'm in Toronto now", "I'm no longer in Boise"."""
    return re.search(r"\b(?:am|are)\b", m["aux"], re.I) is not None


def _hobby(verb: str, value: str, negated: bool, change: bool) -> Said | None:
    """'play chess', 'do yoga': a hobby, not 'do it' or 'play with the kids'."""
    value = re.split(r"\s+(?:with|at|in|on|every|after|before|whenever)\s", value.strip())[0]
    words = value.lower().split()
    if not words or words[0] in {"it", "that", "this", "so", "not", "with", "a", "some", "what"}:
        return None
    if len(words) > 3 or verb.lower() in {"do", "does"} and words[0] in _NOT_DONE:
        return None
    attribute = "plays" if verb.lower().startswith("play") else "does"
    return Said(attribute, value, negated, change)


def _sold(value: str) -> Said | None:
    """'sold my Honda', 'donated my old car to a shelter': the car, not where it went."""
    value = re.split(r"\s+(?:to|for|at)\s", value)[0]
    return Said("drives", value, True, True) if _car(value) else None


def _month(word: str) -> bool:
    return word.lower() in {
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december", "monday", "tuesday", "wednesday",
        "thursday", "friday", "saturday", "sunday", "track", "touch",
    }  # fmt: skip


def _switched(value: str, negated: bool) -> Said | None:
    words = set(value.lower().split())
    if _car(value):
        return Said("drives", value, negated, True)
    if words & DIETS:
        return Said("is", next(w for w in value.lower().split() if w in DIETS), negated, True)
    return None


def _ended(value: str) -> Said | None:
    """What 'gave up X' / 'stopped X' ends: a diet's food or a hobby (not "my job", which the
    job rules read, nor "it")."""
    food = re.match(_FOODS + r"\b", value.lower())
    if food:
        return Said("eats", food.group(0), True, True)
    value = re.sub(r"^on\b\s*", "", value, flags=re.I)  # "gave up on chess" gave up chess
    words = value.lower().split()
    if words[:1] in ([], ["job"], ["work"], ["it"], ["that"]) or words[0] in _VISITED:
        return None
    return Said("does", value, True, True)


def _pet_held(m: re.Match[str], negated: bool, change: bool) -> Said | None:
    """'I have a dog named Rex', 'I've had a cat called Miso for years'; 'I had a dog named
    Rex when I was a kid' is a past state: no claim (as 'lived in' makes none)."""
    if m["held"].lower() == "had" and not _perfect(m) and not negated:
        return None
    return Said("has a pet", f"{m['k']} named {m['v']}", negated, change)


def _left(m: re.Match[str]) -> Said | None:
    return Said("works at", m["e"], True, True)


_FIRST_RULES = _rules()
"""First-person rules are tried where a subject stands (`match`), not searched for along the
whole clause: 40 rules searched on every sentence made a 100K build 55 % slower."""
_OWN: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Said | None]]] = [
    (
        re.compile(r"\bhome (?:for (?:me|us) )?is (?:now )?" + _V, re.I),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(
            r"^(?P<v>(?-i:[A-Z][\w'-]+(?: [A-Z][\w'-]+)*)) (?P<neg>is not|is no longer|is) "
            r"(?:my |our )?home\b",
            re.I,
        ),
        lambda m: Said("lives in", m["v"], m["neg"].lower() != "is", True),
    ),
    (
        re.compile(
            r"\b(?:since|after|ever since) (?:(?:the|our|my) (?:move|relocation)|moving"
            r"|relocating) (?:back |out |over )?to " + _V,
            re.I,
        ),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(
            r"\b(?:since|after) (?:starting|joining|i started|i joined|we started) (?:at |with )?"
            + _ORG,
            re.I,
        ),
        lambda m: _job(m, False, True),
    ),
    (
        re.compile(
            r"\bmy first (?:day|week|shift|month|year|few (?:days|weeks|months)) (?:as "
            + _ROLE
            + r" )?(?:at|with) "
            + _ORG,
            re.I,
        ),
        lambda m: _job(m, False, True),
    ),
    (
        re.compile(
            r"\b(?:let me go|laid me off|fired me|my last day|handed in my notice"
            r"|gave my notice|put in my notice)(?: (?:at|from|with) " + _ORG + ")?",
            re.I,
        ),
        lambda m: Said("works at", m["e"] or "", True, True),
    ),
    (
        re.compile(
            r"\b(?:after|since) (?:the|that|my|our|a) (?:\w+ )?(?:breakup|break-up|divorce"
            r"|split)\b",
            re.I,
        ),
        lambda m: Said("is dating", "", True, True),
    ),
    (
        re.compile(r"\b(?P<v>" + _FOODS + r") is off the (?:menu|table)", re.I),
        lambda m: Said("eats", m["v"].lower(), True, True),
    ),
    (
        re.compile(
            r"\bmy (?P<v>[^,.!?]{2,30}?) (?:got|was) (?:totaled|stolen|wrecked|written off"
            r"|repossessed)",
            re.I,
        ),
        lambda m: Said("drives", m["v"], True, True) if _car(m["v"]) else None,
    ),
    (
        re.compile(
            r"^(?P<v>[\w -]{2,30}?) used to be (?:my|our) (?:thing|hobby|passion|jam|life)", re.I
        ),
        lambda m: Said("does", m["v"], True, True),
    ),
    (
        re.compile(
            r"\b(?:since|after) (?:the|our|my) (?:move|relocation|moving) (?:back )?to " + _V,
            re.I,
        ),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(r"\b(?:ever )?since (?:we|i) (?:moved|relocated) (?:back )?to " + _V, re.I),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(r"\bsince moving (?:back )?to " + _V, re.I),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(
            r"\b(?:my|our) new (?:place|apartment|flat|house|home) (?:in|is in) " + _V, re.I
        ),
        lambda m: Said("lives in", m["v"], False, True),
    ),
    (
        re.compile(
            r"\bmy new (?:job|position|role) (?:at|with) " + _ORG + r"(?: as " + _ROLE + ")?",
            re.I,
        ),
        lambda m: _job(m, False, True),
    ),
    (
        re.compile(r"\bnow that (?:i am|i'm|we are) (?:working )?(?:at|with) " + _ORG, re.I),
        lambda m: _job(m, False, True),
    ),
    (
        re.compile(r"\bnow that (?:i am|i'm) (?:a|an) " + _ROLE, re.I),
        lambda m: _job(m, False, True),
    ),
    (
        re.compile(r"\bmy (?:new )?car is (?:now )?(?:a |an )?" + _V, re.I),
        lambda m: Said("drives", m["v"]) if _car(m["v"]) else None,
    ),
    (
        re.compile(r"\bmy new car,? (?:a |an |the )?" + _V, re.I),
        lambda m: Said("drives", m["v"], False, True) if _car(m["v"]) else None,
    ),
    (
        re.compile(
            r"\bmy (?:partner|boyfriend|girlfriend|husband|wife|fianc[ée]e?) " + _NAME, re.I
        ),
        lambda m: Said("is with", m["v"]),
    ),
    (
        re.compile(
            r"(?<!lost )(?<!buried )\b(?:my|our) (?P<k>"
            + _PETS
            + r") "
            + _NAME
            + r"\b(?! (?:passed|died|ran))"
            r"(?![^,.!?]{0,40}\b(?:passed away|died|did not make it)\b)",
            re.I,
        ),
        lambda m: Said("has a pet", f"{m['k']} named {m['v']}"),
    ),
    (
        re.compile(
            r"^(?:and )?" + _NAME + r" and i (?:broke up|split up|separated|divorced)", re.I
        ),
        lambda m: Said("is dating", m["v"], True, True),
    ),
    (
        re.compile(
            r"\b(?:my|our) (?P<k>" + _PETS + r")(?: " + _NAME + r")? (?:[^,.!?]{0,30}? )?"
            r"(?:passed away|died|ran away|did not make it)",
            re.I,
        ),
        lambda m: Said("has a pet", m["v"] or m["k"], True, True),
    ),
    (
        re.compile(r"^" + _NAME + r" (?:passed away|died|ran away)\b"),
        lambda m: Said("has a pet", m["v"], True, True),
    ),
    (
        re.compile(
            r"\b(?:my|our|the) (?P<t>(?:[a-z]+ ){0,2}(?:club|class|practice|group|lessons?"
            r"|appointment|meeting|session|rehearsal)) (?:meets|is|happens|starts|runs) "
            r"(?:on )?(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
            re.I,
        ),
        lambda m: Said("has", f"{m['t']} on {m['d']}"),
    ),
    (
        re.compile(
            r"\bi (?:have|go to) (?P<t>(?:[a-z]+ ){0,2}(?:club|class|practice|group|lessons?"
            r"|appointment|meeting|session|rehearsal)) (?:on|every) "
            r"(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b",
            re.I,
        ),
        lambda m: Said("has", f"{m['t']} on {m['d']}"),
    ),
]
_MEETINGS = "club class practice group lesson lessons appointment meeting session rehearsal"
_OWN_NEEDS: list[tuple[str, ...]] = [
    ("home is", "home for"),
    ("home",),
    ("move to", "move back", "move out", "move over", "relocation", "moving", "relocating"),
    ("starting", "joining", "started", "joined"),
    ("my first",),
    ("let me go", "laid me off", "fired me", "my last day", "my notice"),
    ("breakup", "break-up", "divorce", "split"),
    ("off the menu", "off the table"),
    ("totaled", "stolen", "wrecked", "written off", "repossessed"),
    ("used to be my", "used to be our"),
    ("move to", "move back", "relocation", "moving to", "moving back"),
    ("moved to", "moved back", "relocated"),
    ("since moving",),
    ("new place", "new apartment", "new flat", "new house", "new home"),
    ("my new job", "my new position", "my new role"),
    ("now that",),
    ("now that",),
    ("car is",),
    ("new car",),
    tuple(
        f"my {who}"
        for who in "partner boyfriend girlfriend husband wife fiance fiancé fiancee fiancée".split()
    ),
    tuple(f"{who} {pet}" for who in ("my", "our") for pet in sorted(PET_WORDS)),
    ("broke up", "split up", "separated", "divorced"),
    ("passed away", "died", "ran away", "make it"),
    ("passed away", "died", "ran away"),
    tuple(_MEETINGS.split()),
    tuple(_MEETINGS.split()),
]
"""Per `_OWN` pattern (in order), the phrases (lower-case) one of which it cannot match
without: a clause holding none of them is not searched for it. Each phrase is looked up by
its longest word first (`_RULES_OF`), then as a substring."""
assert len(_OWN_NEEDS) == len(_OWN)
_RULES_OF: dict[str, list[tuple[int, str]]] = {}
for _index, _needs in enumerate(_OWN_NEEDS):
    for _need in _needs:
        _RULES_OF.setdefault(max(_need.split(), key=len), []).append((_index, _need))
_TOKEN = re.compile(r"[a-zé'-]+")
_LEADS = frozenset({"not", "meant", *_ELIDED_WORDS})
_FIRST_HEADS = """live lives living lived | in | be been | based settled
| renting rent bought own found | work works working employed | work works working employed
| work works working | a an | drive drives driving | eat eats eating
| a an flexitarian gluten-free keto paleo pescatarian vegan vegetarian
| unemployed between out jobless | single divorced separated | have own | dating seeing with
| started begun began | got was been promoted | got just recently | graduated finished
| got married engaged | have has had | play plays do does practice practices
| moved relocated moving relocating move | started start starting
| started start starting began begin | accepted took got landed started have
| got landed accepted took found
| got was joined hired | bought got leased picked | switched
| went became turned gone become going | adopted got rescued | took started picked
| got laid let fired made | quit left resigned lost | left resigned retired | retired
| sold got totaled wrecked donated gave | traded
| gave give given giving quit stopped stop done finished take took taking taken
| broke split separated divorced | lost buried put | put | had
| had owned | signed | at | a big huge real meat""".split("|")
"""Per first-person rule (in `_FIRST_RULES` order), the words it can start with after the
subject (an auxiliary among them: "been" for "I have been in …"): a rule is tried only
where the subject is followed by one of its words."""
assert len(_FIRST_HEADS) == len(_FIRST_RULES)
_RULES_BY_HEAD: dict[str, list[int]] = {}
for _index, _heads in enumerate(_FIRST_HEADS):
    for _head in _heads.split():
        _RULES_BY_HEAD.setdefault(_head, []).append(_index)
_SUBJECT_VERB = re.compile(_FIRST + _AUX + r"(?P<next>[\w'-]+)", re.I)
_ANY_SUBJECT_VERB = re.compile(r"\b(?:i|we)\b" + _AUX + r"(?P<next>[\w'-]+)", re.I)


def _own_rules(words: set[str], low: str) -> set[int]:
    """The `_OWN` rules whose needed phrase the (lower-case) text holds."""
    return {
        index for word in words & _RULES_OF.keys() for index, need in _RULES_OF[word] if need in low
    }


def _may_state(text: str) -> bool:
    """Whether any rule could read a belief in `text`: a word an `_OWN` rule needs, a
    correction's "not"/"meant", a first person before a rule's verb, or a verb whose "I" may
    be left out. Most sentences have none (asked 16K sentences of a synthetic chat: 96 %);
    they skip the clause split and every rule."""
    low = text.lower()
    words = set(_TOKEN.findall(low))
    if words & _LEADS or "had to" in low or _own_rules(words, low):
        return True
    if "i" not in words and "we" not in words:
        return False
    return any(_heads_after(s) & _RULES_BY_HEAD.keys() for s in _ANY_SUBJECT_VERB.finditer(text))


def _heads_after(subject: re.Match[str]) -> set[str]:
    """The words a rule may start with after this subject: its auxiliaries and the next."""
    return {*subject["aux"].lower().split(), subject["next"].lower()}


_NOT_SWAPPED = frozenset("i we you he she they it will would can could should".split())
"""Words no correction swaps: "hopefully it won't happen again" corrects nothing."""
_SHORT = r"[\w'-]+(?: [\w'-]+){0,2}?"
"""What a correction swaps: a word or three ("Tuesday", "on Monday", "the Honda Civic")."""
_CORRECTIONS = [
    re.compile(lead + rf"\s*(?P<x>{_SHORT}),? (?:and )?not (?P<y>{_SHORT})\s*[.!]*$", re.I)
    for lead in (
        r"\bi meant",
        r"\bi mean",
        r"\bit (?:is|was)",
        r"^(?:oh,? )?(?:sorry|oops|correction|wait|my mistake)\b[^,:]*[,:]",
        r"^(?:oh,? )?(?:sorry|oops|correction|wait)\b.*?\b(?:is|are|was|meets) (?:on )?",
    )
]
_CORRECTION_START = re.compile(
    r"^\s*(?:oh,? )?(?:sorry|oops|correction|wait|actually|my bad|my mistake|no)\b", re.I
)
_SAID_MEANT = re.compile(
    rf"\bi said (?P<y>{_SHORT}),? but (?:i )?meant (?P<x>{_SHORT})\s*[.!]*$", re.I
)
_TRAIL = re.compile(r"\s+(?:now|anymore|any more|these days|nowadays)$", re.I)
_LEAD = re.compile(r"^(?:the|a|an|my|our|on|at|in)\s+", re.I)


_CAR_AGE = re.compile(r"^(?:old|new|used|trusty|second-hand)\s+", re.I)
_PRONOUNS = frozenset("it that this them those these him her something anything".split())


def _clean(value: str) -> str:
    value = _TRAIL.sub("", value.strip(" .,!;:'\"-"))
    return " ".join(value.split()[:8])


_CHANGE_WORDS = re.compile(r"\b(?:now|anymore|any more|these days|nowadays)\b", re.I)
_ANYMORE = re.compile(r"\b(?:anymore|any more)\b", re.I)
_NOT = re.compile(r"\bnot\b", re.I)


def read_clause(clause: str, topic: str | None) -> Said | None:
    """The belief one clause states about its speaker, if any."""
    change_words = _CHANGE_WORDS.search(clause)
    low = clause.lower()
    found = _own_rules(set(_TOKEN.findall(low)), low)
    for index in sorted(found):
        pattern, make = _OWN[index]
        m = pattern.search(clause)
        if m and not HYPOTHETICAL.search(clause[: m.start()]):
            said = make(m)
            if said is not None:
                return said
    starts, heads = [], set()
    for s in _SUBJECT_VERB.finditer(clause):
        starts.append(s.start())
        heads |= _heads_after(s)
    for index in sorted({i for head in heads for i in _RULES_BY_HEAD.get(head, ())}):
        pattern, rule = _FIRST_RULES[index]
        m = next((found for at in starts if (found := pattern.match(clause, at))), None)
        if not m or HYPOTHETICAL.search(clause[: m.start()]):
            continue
        negated, change = _aux_state(m["aux"])
        anymore = _ANYMORE.search(clause)
        negated = negated or (bool(anymore) and _NOT.search(m["aux"]) is not None)
        said = rule(m, negated, change or bool(change_words) or bool(anymore))
        if said is None:
            continue
        if said.attribute == "been in":  # "I've been in a slump": a place only after a move
            if topic != "home" and not re.search(r"\bliving\b", m.group(0), re.I):
                continue
            said = Said("lives in", said.value, said.negated, said.change)
        return said
    return None


def belief_statements(sentence: str) -> list[Said]:
    """The beliefs a speaker's sentence states about themselves, in clause order; a question
    states nothing, but a statement before it does ("Quick one: I moved to Denver, so which
    spices survive altitude?")."""
    text = expand(sentence.strip())
    if not _may_state(text):
        return []
    low = text.lower()
    correction = None
    if "not " in low or "meant" in low:
        correction = _SAID_MEANT.search(text) or next(
            (m for c in _CORRECTIONS if (m := c.search(text))), None
        )
    if correction and "?" not in text and (_CORRECTION_START.search(text) or "meant" in text):
        if HYPOTHETICAL.search(text[: correction.start()]):
            return []
        x, y = _clean(correction["x"]), _clean(correction["y"])
        x = re.sub(r"^(?:it is|it was|it's)\s+", "", x, flags=re.I)
        swapped = {*x.lower().split(), *y.lower().split()}
        if x and y and x.lower() != y.lower() and not swapped & _NOT_SWAPPED:
            return [Said("corrects", f"{_LEAD.sub('', y)} -> {_LEAD.sub('', x)}", False, True)]
    out: list[Said] = []
    topic: str | None = None
    for clause in _CLAUSES.split(text):
        if "?" in clause:
            continue
        if _ELIDED.match(clause):
            clause = "I " + clause[0].lower() + clause[1:]
        said = read_clause(clause, topic)
        if said is not None and said.value.lower() in _PRONOUNS:
            continue
        if said is None or not _clean(said.value) and not said.negated:
            continue
        value = _clean(said.value)
        if said.attribute == "lives in" and fills_no_slot(said.attribute, value):
            continue  # "I live in the moment", "we moved to a new approach": no place named
        if said.attribute == "drives":  # "an old Golf" and "the Golf" are one car
            value = _CAR_AGE.sub("", value)
        said = Said(said.attribute, value, said.negated, said.change, clause)
        out.append(said)
        topic = "home" if said.attribute == "lives in" else topic
    return out
