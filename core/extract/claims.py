"""Sentence-level claims (subject / attribute / value) from plain rules, no parser.

A claim is kept only when its subject is clear: the speaker ("I", "we", "my X is"), a named
person, or "he/she" right after a named non-speaker. Everything else (questions, greetings,
"that's cool") stays in the summary and keywords but makes no claim, because a wrong subject
would later REVISE someone else's facts. So is a value that is about the listener ("I'm here
for you", "I'll keep you posted") or ends on a word pointing outside the sentence ("I'm
obsessed with those", "I'm looking forward to it"): neither says what the subject is or has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from arborwiki.core.extract.changes import Said, belief_statements
from arborwiki.core.extract.dates import normalize_dates
from arborwiki.core.extract.features import Names, normalize_name
from arborwiki.core.extract.lexicon import INTERJECTIONS, RELATIONS, STOP_WORDS, TITLES
from arborwiki.core.extract.schema import ClaimDraft
from arborwiki.core.extract.slot_vocabulary import ended_mention, vocabulary_beliefs
from arborwiki.core.slots import slot_of
from arborwiki.core.words import only_adverb

MAX_VALUE_WORDS = 12
_MAX_PROPERTY_WORDS = 4
_TEXT_LIMIT = 400
_CONTRACTIONS = {"'m": "am", "'re": "are", "'s": "is", "'ve": "have", "'d": "would", "'ll": "will"}
_FIRST_PERSON = {"i", "we"}
_BE_PRESENT = {"am", "is", "are"}
_BE_PAST = {"was", "were"}
_HAVE = {"have", "has", "had"}
_DO = {"do", "does", "did"}
_MODALS = {"will", "would", "can", "could", "should", "might", "may", "must", "shall"}
_ADVERBS = set(
    "just really also finally recently still actually now already always never not even totally "
    "definitely absolutely only currently usually often sometimes ever so too both kinda pretty "
    "truly seriously officially been being be all each".split()
)
_PARTICLES = set("to in at on for with as from into about up out of by back over around".split())
_IRREGULAR_PARTICIPLES = set(
    "been gone got gotten done seen read made taken found met had bought thought become begun "
    "written given known left lost run won sold built kept brought taught sung drawn eaten flown "
    "driven ridden swum sat stood slept spent sent heard held paid worn caught fallen grown "
    "thrown chosen forgotten started come felt told said tried".split()
)
_IRREGULAR_PAST = _IRREGULAR_PARTICIPLES | set(
    "went saw took did ran came gave felt told said wrote began sang drew ate drank flew drove "
    "rode swam fell grew knew threw chose forgot".split()
)
_CHANGE_CUES = re.compile(
    r"(?i)\b(?:no\s+longer|used\s+to|switch(?:ed|ing)?\s+to|any\s?more"
    r"|mov(?:ed|ing)|relocat(?:ed|ing))\b"
    r"|\b(?:is|are|am|was)\s+now\b"
)
"""Words that say a value replaced an earlier one. A bare "now" or "actually" does not ("I'm
doing well now", "now that's motivation", "it actually changed my perspective" revised
unrelated beliefs on LoCoMo dev); "my favorite color is now green" does. The belief slots'
own change words are read in changes.py."""
_CLAUSE_END = re.compile(
    r"\s*(?:[,;:!?()\[\]]|"
    + "".join(rf"(?<!\b{t})" for t in sorted(TITLES))  # "Dr. Maya" goes on
    + r"\.(?:\s|$)|(?:\s|(?<=\w))[-–—]\s|\b(?:but|because|since|so\s+that|which|who"
    r"|when|though|although|whereas)\b|(?<!\ba\s)\bwhile\b"  # "for a while" goes on
    r"|(?<!\bthe\s)(?<!\ba\s)\bcause\b"  # "'cause", not "for the cause"
    r"|\band\s+(?:i|it|we|he|she|they|that|this|then|now|my|our|his|their)\b"
    r"|\band\s+(?=\w+ed\b))",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[\w’'-]+|[^\w\s]")
_LISTENER = re.compile(r"\b(you|your|yours|yourself|yourselves)\b", re.I)
_POINTS_BACK = re.compile(r"\b(it|them|those|these|that|this|him|her|us)[.!,]*$", re.I)
_PRONOUNS = {"he", "she"}
_DANGLING = re.compile(
    r"(?:\s+(?:the|a|an|this|that|for|of|on|in|at|to|from|by|since|until|during|about|around"
    r"|roughly|nearly|almost|over|approximately|after|before|is|are|was|were))+\s*$",
    re.I,
)
"""Words left hanging where a date was cut out of a value ("about five years ago")."""
_GOVERNS_CLAUSE = re.compile(
    r"(?:\s+(?:for|of|on|in|at|to|from|by|about|with|like|after|before|until))+\s*$", re.I
)
"""A preposition whose object was cut away: a clause ("a library for when I have kids") or a
trailing adverb ("mostly online for now")."""
_PERFECT = {"is": "has", "would": "had"}
""""'s been", "'d been": the contraction is "has"/"had" before a participle, not "is"/"would"."""
_PERFECT_NEXT = {"been", "got", "gotten"}
_NEW_CLAUSE = re.compile(
    r"(?i)[\s,;:-]*(?:(?:and|but|so|because|cause|since|though|although|while|when|whereas)\s+)?"
    r"(?:i|we|you|he|she|they|it|there|my|our|his|her|their)\b"
)
"""A rest of sentence that opens a clause of its own: a subject after the cut."""
_TRAILING_ADVERBS = re.compile(
    r"(?:\s+(?:any\s?more|lately|recently|again|though|too|now|either))+$", re.IGNORECASE
)
_CLAUSE_JOINS = {"so"}
_SUBORDINATORS = set(
    "since when whenever after before if although though while because as once until unless".split()
)
_MOVE = re.compile(r"(?:move|moves|moved|moving|relocat\w+) to")
"""A move says where the subject lives from then on: one slot with "lives in" (a plan to
move, "will move to", does not: it is no change yet)."""
_NEW_JOB_VERBS = {"got", "landed", "accepted", "started", "took", "gets", "starts", "takes"}
_NEW_JOB = re.compile(r"(?i)(?:the|a|my|this|that)?\s*(?:new\s+)?job\s+(as|at|with)\s+(.+)")
"""A new job says what the subject works as / where from then on ("I got the job at X")."""
_LEAD_ADVERBS = set("actually anyway btw also just recently finally lately plus and but".split())
_SLANG = {"gonna": ["going", "to"], "wanna": ["want", "to"], "gotta": ["have", "to"]}
_IS_HOSTS = set("it that he she what there here who this everything something".split())
_NEGATORS = {"not", "never", "n't", "cannot", "longer"}
_NOT_VERBS = set("and or but nor the a an of that this which who".split())
_TWO_WORD_AUX = {("used", "to"), ("no", "longer")}  # skipped before the verb; cues kept


@dataclass
class ClaimContext:
    """What the claim rules know about the window while walking it in turn order."""

    names: Names
    known: set[str] = field(default_factory=set)  # normalized entity names in the window
    last_person: str | None = None  # the latest named non-speaker, for "he/she"


def _expand(word: str) -> list[str]:
    """ "I'm" → ["I", "am"], "don't" → ["do", "n't"] so the rules see one word per slot."""
    if "'" not in word and "’" not in word and len(word) != 5:
        return [word]  # the common case: no contraction, not gonna/wanna/gotta
    low = word.lower().replace("’", "'")
    if low in _SLANG:
        return _SLANG[low]
    if low.endswith("n't"):
        stem = {"won't": "will", "can't": "can", "shan't": "shall"}.get(low, low[:-3])
        return [stem, "n't"]
    for suffix, full in _CONTRACTIONS.items():
        if suffix == "'s" and low[:-2] not in _IS_HOSTS:
            continue  # "Caroline's" is a possessive, "it's" is "it is"
        if low.endswith(suffix) and len(low) > len(suffix):
            return [word[: -len(suffix)], full]
    return [word]


def third_person(verb: str) -> str:
    """'like' → 'likes', 'have' → 'has': first-person verbs read as facts about the speaker."""
    if verb in {"have", "be", "am", "are"}:
        return {"have": "has"}.get(verb, "is")
    if verb.endswith("ed") or verb in _IRREGULAR_PAST or verb.endswith("s"):
        return verb
    if verb.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _strip_lead(words: list[str], names: Names) -> list[str]:
    """Drop leading interjections and vocatives ("Wow, Mel, I ..." → "I ...")."""
    while words:
        low = words[0].lower().strip(",.!")
        if low in INTERJECTIONS or low in _LEAD_ADVERBS or not low:
            words = words[1:]
        elif (
            len(words) > 1 and words[1] in {",", "!"} and names.is_speaker(normalize_name(words[0]))
        ):
            words = words[2:]
        else:
            break
    return words


def _subject(words: list[str], speaker: str, ctx: ClaimContext) -> tuple[str | None, list[str]]:
    """The subject and the words after it, or (None, ...) when it is not clear who."""
    if not words:
        return None, words
    head = words[0].lower()
    if head in _FIRST_PERSON:
        return speaker, words[1:]
    if head in {"my", "our"} and len(words) > 1 and words[1].lower() in RELATIONS:
        rest = words[2:]
        if rest and rest[0][:1].isupper() and rest[0].lower() not in STOP_WORDS:
            person = normalize_name(rest[0])
            ctx.last_person = person
            return person, rest[1:]
        return f"{speaker}'s {words[1].lower()}", rest
    if head in _PRONOUNS:
        return ctx.last_person, words[1:]
    if words[0][:1].isupper() and head not in STOP_WORDS:
        name = ctx.names.resolve(normalize_name(words[0]))
        if name in ctx.known and not words[0].lower().endswith(("'s", "’s")):
            if not ctx.names.is_speaker(name):
                ctx.last_person = name
            return name, words[1:]
    return None, words


def _predicate(words: list[str], first_person: bool) -> tuple[str, list[str], bool] | None:
    """Attribute (verb head + particles, normalized), the object words, and negation."""
    aux: list[str] = []
    i = 0
    while i < len(words):
        low = words[i].lower()
        is_have_aux = low in _HAVE and _participle_follows(words, i + 1)
        adverb = low in _ADVERBS or (low.endswith("ly") and only_adverb(low))
        if low in _BE_PRESENT | _BE_PAST | _DO | _MODALS or adverb or low == "n't" or is_have_aux:
            aux.append(low)
            i += 1
        elif i + 1 < len(words) and (low, words[i + 1].lower()) in _TWO_WORD_AUX:
            aux.append(words[i + 1].lower())
            i += 2
        else:
            break
    negated = any(a in _NEGATORS for a in aux)
    if i >= len(words) or not words[i][:1].isalpha():
        return None
    head = words[i].lower()
    be_forms = [a for a in aux if a in _BE_PRESENT | _BE_PAST]
    if be_forms and not head.endswith("ing"):
        return ("was" if be_forms[-1] in _BE_PAST else "is"), words[i:], negated
    if head in _NOT_VERBS:
        return None  # "My kids and I ...": no verb where one should be
    modal = next((a for a in aux if a in _MODALS), None)
    if modal:
        perfect = " have" if any(a in _HAVE for a in aux) else ""
        head = f"{modal}{perfect} {head}"
    elif "been" in aux and head.endswith("ing") and (have := [a for a in aux if a in _HAVE]):
        head = f"{have[0]} been {head}"  # "I'd been wanting to": "had been wanting to"
    elif first_person and not be_forms and not any(a in _HAVE | {"did"} for a in aux):
        head = third_person(head)
    i += 1
    particles = 0
    while i < len(words) and words[i].lower() in _PARTICLES and particles < 2:
        head = f"{head} {words[i].lower()}"
        i += 1
        particles += 1
    return head, words[i:], negated


def _own_property(words: list[str]) -> tuple[str, list[str], bool] | None:
    """'My favorite color is blue' → ('favorite color', ['blue'], False): the attribute is the
    property itself, so a later 'my favorite color is now green' can revise it."""
    if len(words) < 3 or words[0].lower() not in {"my", "our"} or words[1].lower() in RELATIONS:
        return None
    for i in range(2, min(len(words), _MAX_PROPERTY_WORDS + 2)):
        low = words[i].lower()
        if low in _BE_PRESENT | _BE_PAST:
            rest = words[i + 1 :]
            negated = bool(rest) and rest[0].lower() in _NEGATORS - {"longer"}
            while rest and rest[0].lower() in _ADVERBS | _NEGATORS:
                rest = rest[1:]
            attribute = " ".join(w.lower() for w in words[1:i])
            return attribute, rest, negated
        if not words[i][:1].isalpha():
            return None
    return None


def _participle_follows(words: list[str], start: int) -> bool:
    """'have (always) felt' is perfect aspect; 'have two dogs' is possession."""
    after_been = False
    for word in words[start:]:
        low = word.lower()
        if after_been and low.endswith("ing"):  # "had been wanting": perfect progressive
            return True
        after_been = after_been or low == "been"
        if low not in _ADVERBS and low != "n't":
            return low.endswith("ed") or low in _IRREGULAR_PARTICIPLES
    return False


def _value(words: list[str], date_spans: list[str]) -> tuple[str, str]:
    """The object's first clause, dates and trailing adverbs off, and the rest of the object
    (where a later clause's dates sit)."""
    text = _tidy(" ".join(words))
    end = _CLAUSE_END.search(text)
    rest = ""
    if end:
        text, rest = text[: end.start()], text[end.start() :]
        if end.group(0)[-1:].isalpha():  # cut before a word: no preposition left without it
            text = _GOVERNS_CLAUSE.sub("", text)
    for span in date_spans:
        cut = re.sub(rf"\s*\b(?:on\s+|in\s+)?{re.escape(span)}\b", "", text)
        if cut != text:  # "my trips for the next year" → "my trips", not "my trips for the"
            text = _DANGLING.sub("", cut)
    text, adverbs = _TRAILING_ADVERBS.subn("", text.strip(" .,!;:"))
    if adverbs:  # "playing mostly online for now" → "playing mostly online"
        text = _GOVERNS_CLAUSE.sub("", text)
    return " ".join(text.split()[:MAX_VALUE_WORDS]).strip(" .,!;:"), rest


def _own_clause_dates(dates: list[tuple[str, date]], rest: str) -> list[tuple[str, date]]:
    """The dates that belong to the claim: not those only in a later clause with a subject of
    its own ("I work at Tallyhawk, and they gave me a week off in February")."""
    if not _NEW_CLAUSE.match(rest):
        return dates
    return [(span, day) for span, day in dates if span not in rest]


def _perfect_aspect(words: list[str]) -> list[str]:
    """ "that's been" → "that has been", "I'd been" → "I had been" (`_expand` read "is" and
    "would", not seeing the participle after them)."""
    return [
        _PERFECT.get(w, w) if i + 1 < len(words) and words[i + 1].lower() in _PERFECT_NEXT else w
        for i, w in enumerate(words)
    ]


def _tidy(text: str) -> str:
    """Undo tokenization spacing: 'a " Big Fish " , too' → 'a "Big Fish", too'."""
    text = re.sub(r'"\s*([^"]*?)\s*"', r'"\1"', text)
    text = re.sub(r"\s+([,.!?;:%)\]”’])", r"\1", text)
    return re.sub(r"([(\[“])\s+", r"\1", text)


def _first_person_clause(words: list[str]) -> list[str]:
    """The words from a later first-person clause ("As of last week, I live in ...", "Ciarán
    got a job there, so we're moving"), if any: an "I"/"we" within the first few words of the
    sentence, or after a comma or dash (and "so"); not one that opens a subordinate clause
    ("Since we last spoke, I took my kids to a park": the claim is the park)."""
    for i, word in enumerate(words[1:], start=1):
        if word.lower() not in _FIRST_PERSON:
            continue
        before = words[i - 1].lower()
        if before in _SUBORDINATORS:  # "Since we last spoke, I took …": not the main clause
            continue
        if before in _CLAUSE_JOINS and i >= 2:
            before = words[i - 2]
        if before in {",", ";", ":", "-", "–", "—"} or i <= 4:
            return words[i:]
    return []


def sentence_claim(
    sentence: str, speaker: str, message_id: str, at: datetime | None, ctx: ClaimContext
) -> ClaimDraft | None:
    """One claim for a declarative sentence with a clear subject; None for everything else.
    `at` None (an undated session): no date is resolved."""
    if sentence.rstrip().endswith("?") or "\x00" in sentence:
        return None
    dates = normalize_dates(sentence, at) if at is not None else []
    body = sentence.strip()
    if dates and body.lower().startswith(dates[0][0].lower()):
        body = body[len(dates[0][0]) :]  # "Last Friday I went ..." → "I went ..."
    tokens = _TOKEN.findall(body)
    # `_expand` inlined for the common token (no apostrophe, not five letters): one call less
    # per word of every sentence read
    words = [
        w
        for raw in tokens
        for w in (_expand(raw) if "'" in raw or "’" in raw or len(raw) == 5 else (raw,))
    ]
    words = _perfect_aspect(_strip_lead(words, ctx.names))
    owner = ctx.names.resolve(normalize_name(speaker))
    predicate = _own_property(words)
    subject, rest = (owner, words) if predicate else _subject(words, owner, ctx)
    if not subject:
        words = _first_person_clause(words)
        subject, rest = _subject(words, owner, ctx) if words else (None, [])
    if not subject or not rest:
        return None
    if predicate is None:
        predicate = _predicate(rest, first_person=words[0].lower() in _FIRST_PERSON)
    if predicate is None:
        return None
    attribute, object_words, negated = predicate
    if _MOVE.fullmatch(attribute):
        attribute = "lives in"
    value, rest = _value(object_words, [span for span, _ in dates])
    job = _NEW_JOB.fullmatch(value) if attribute in _NEW_JOB_VERBS else None
    if job:
        attribute = "works as" if job.group(1).lower() == "as" else "works at"
        value = job.group(2)
    dates = _own_clause_dates(dates, rest)
    if value.lower().startswith("no "):
        value, negated = value[3:], True
    if not value:
        if not dates:
            return None
        value = dates[0][0]
    if _LISTENER.search(value) or _POINTS_BACK.search(value):
        return None
    if attribute in {"is", "was"} and ctx.names.resolve(normalize_name(value)) == subject:
        return None  # "I'm Aoife": the name, not a fact about its owner
    text = f"{speaker}: {sentence.strip()}"[:_TEXT_LIMIT]
    return ClaimDraft(
        text=" ".join(text.split()),
        subject=subject[:80],
        attribute=attribute[:80],
        value=value[:200],
        negated=negated,
        change_cue=bool(job) or bool(_CHANGE_CUES.search(sentence)),
        event_time=dates[0][1].isoformat() if dates else None,
        source_message_ids=[message_id],
    )


def beliefs_of(sentence: str, before: str = "") -> list[Said]:
    """The templates' beliefs (core/extract/changes.py), then what the slot vocabulary reads
    (core/extract/slot_vocabulary.py) of a slot they did not read, or of one they only ended
    ("I used to drive a Civic; my car now is a Niro"), or a correction."""
    said = belief_statements(sentence)
    held = {_slot_key(s) for s in said if not s.negated}
    ended = {_slot_key(s) for s in said if s.negated}
    seen = {s.value.lower() for s in said}
    gone = {w for s in said if s.negated for w in s.value.split() if w[:1].isupper()}
    out = list(said)
    for s in vocabulary_beliefs(sentence, before):
        key = _slot_key(s)
        if s.value.lower() in seen or key in held or key in ended and s.negated:
            continue
        if gone & set(s.value.split()):
            continue  # "Pepper" ended: not "cat named Pepper" held
        out.append(s)
    return out


def _slot_key(said: Said) -> str:
    slot = slot_of(said.attribute, said.value)
    return slot.name if slot is not None else said.attribute


def sentence_claims(
    sentence: str,
    speaker: str,
    message_id: str,
    at: datetime | None,
    ctx: ClaimContext,
    before: str = "",
) -> list[ClaimDraft]:
    """The claims of one sentence: the speaker's own beliefs and their changes when it states
    them (core/extract/changes.py: one claim a clause, "I used to live in Omaha, but home is
    Charleston" gives two), else `sentence_claim`'s one claim, if any."""
    said = beliefs_of(sentence, before) if "\x00" not in sentence else []
    if not said:
        claim = sentence_claim(sentence, speaker, message_id, at, ctx)
        if claim is not None:
            return [claim]
        mention = ended_mention(sentence) if "\x00" not in sentence else None
        if mention is None:
            return []
        said = [mention]
    owner = ctx.names.resolve(normalize_name(speaker))
    text = " ".join(f"{speaker}: {sentence.strip()}"[:_TEXT_LIMIT].split())
    drafts = []
    for s in said:
        dates = normalize_dates(s.clause or sentence, at) if at is not None else []
        drafts.append(
            ClaimDraft(
                text=text,
                subject=owner[:80],
                attribute=s.attribute[:80],
                value=s.value[:200],
                negated=s.negated,
                change_cue=s.change,
                event_time=dates[0][1].isoformat() if dates else None,
                source_message_ids=[message_id],
            )
        )
    return drafts
