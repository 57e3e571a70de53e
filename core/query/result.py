"""What each call returns: the one declaration of the response shapes.

The CLI's `--json`, the HTTP ingress (its `response_model`s, hence `/openapi.json`), the
Python API (`arborwiki.open_store`) and the MCP tools all hand out these models, so a client
reads one contract; `docs/api.md` is generated from them (`scripts/api_docs.py`).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

QUESTION_SHOWN = 200  # characters of the question a bounded text repeats


def fit_lines(lines: list[str], max_chars: int | None, more: str = "") -> str:
    """`lines` joined, whole lines only, within `max_chars` (None: all), the last line
    saying how many were cut and, in `more`, how to see them: a result an agent's model
    holds, never a line cut in half."""
    text = "\n".join(lines)
    if max_chars is None or len(text) <= max_chars:
        return text
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        note = f"[… {len(lines) - i} more line(s) not shown{more}]"
        if used + len(line) + 1 + len(note) > max_chars:
            return "\n".join([*kept, note])
        kept.append(line)
        used += len(line) + 1
    return text  # unreachable: the text did not fit, so some line did not


def no_memory_line(user_id: str) -> str:
    """What a read of a user the store holds nothing of says: a new user reads the same as
    a mistyped id, so the text names the id and how ids match."""
    return f"no memory for user {user_id!r} here (user ids match exactly)"


class PageRef(BaseModel):
    """A wiki page the question was routed to."""

    page_id: str
    kind: str = Field(description="index, entity, topic or inventory")
    title: str
    rank: int = Field(description="0-based place in the page search")


class SelectedTrajectory(BaseModel):
    """A trajectory (one visit to a task or topic) the query selected, best first."""

    trajectory_id: str
    title: str
    score: float = Field(description="S(T), the selection score")
    parts: dict[str, float] = Field(description="the terms of S(T), by name")


class EvidenceMessage(BaseModel):
    """A stored message cited as evidence. The list is in rank order: the first item is the
    best evidence, so a client keeping "the top 5" keeps the 5 that matter most."""

    message_id: str = Field(description="the message's id in the archive: cite it as [id]")
    speaker: str = Field(description="who said it")
    timestamp: datetime = Field(description="when the message was said")
    text: str = Field(description="what was said (with an image's caption, if it had one)")
    trajectory_id: str | None = Field(description="the trajectory that holds it, if any")
    why: Literal["claim", "hit", "reply", "thread"] = Field(
        description="claim: a claim line cites it; hit: a search hit; reply: the turn after "
        "a hit; thread: another turn of a hit's snapshot"
    )
    rank: int = Field(0, description="0-based rank; equal to the item's place in the list")


class ClaimLine(BaseModel):
    """A changed belief in compact form: "alice lives in Portland" → "alice lives in Denver",
    or (status "active") the current value of a slot the question asks about (a `now:`
    line), or (kind "fact") a line of what the memory knows; status "unsure": its speaker
    named the value again later in words the memory did not read (core/query/named_again)."""

    claim_id: str
    text: str = Field(description="the belief in a compact form")
    status: str = Field(
        description="active (holds now), unsure (named again later, unread), revised or deprecated"
    )
    source_message_ids: list[str] = Field(description="the messages that stated it")
    replaced_by: str | None = Field(None, description="the belief that replaced it")
    replaced_by_message_ids: list[str] = Field([], description="the messages that replaced it")
    named_again_message_ids: list[str] = Field(
        [], description="unsure: the later message that names the value again"
    )
    kind: Literal["belief", "fact"] = Field(
        "belief", description="belief: changed or current (now:); fact: what the memory knows"
    )

    def render(self) -> str:
        line = f"[{', '.join(self.source_message_ids)}] {self.text} ({self.status}"
        if self.replaced_by:
            line += f" → {self.replaced_by} [{', '.join(self.replaced_by_message_ids)}]"
        if self.named_again_message_ids:
            line += f"; named again [{', '.join(self.named_again_message_ids)}]"
        return line + ")"

    def labelled(self) -> str:
        """The line as the evidence block shows it: "now:" for a current value, "changed:"
        for a belief that was revised or deprecated, "fact:" for a fact line, "unsure:" for
        a value its speaker named again later in words the memory did not read."""
        if self.status == "unsure":
            return f"unsure: {self.render()}"
        if self.kind == "fact":
            return f"fact: {self.text} {' '.join(f'[{m}]' for m in self.source_message_ids)}"
        return f"{'now' if self.status == 'active' else 'changed'}: {self.render()}"


class QueryResult(BaseModel):
    """A question's evidence: selected trajectories, cited messages in rank order, claim
    lines (changed beliefs, `now:` values, facts), and the wiki pages it was routed through
    (with the page route, off by default: `QueryService.route(use_pages=True)`)."""

    user_id: str = Field(description="the memory owner asked about")
    question: str = Field(description="the question as asked")
    pages: list[PageRef] = Field(
        description="wiki pages routed to, best first (empty unless the page route was asked for)"
    )
    candidate_trajectories: int = Field(description="trajectories the routing considered")
    trajectories: list[SelectedTrajectory] = Field(description="those selected, best first")
    evidence: list[EvidenceMessage] = Field(description="cited messages, best first")
    claims: list[ClaimLine] = Field(
        description="changed beliefs (old → new), current values, then fact lines"
    )
    context_tokens: int = Field(description="tokens the evidence and claim lines take")

    def cited_ids(self) -> set[str]:
        return {e.message_id for e in self.evidence}

    def now_lines(self) -> list[str]:
        """The `now:` lines: the current value of each slot the question asks about."""
        return [c.labelled() for c in self.claims if c.kind == "belief" and c.status == "active"]

    def chronological(self) -> list[EvidenceMessage]:
        """The evidence in time order (ties by id), as a dialogue reads."""
        return sorted(self.evidence, key=lambda e: (e.timestamp, e.message_id))

    def render(self) -> str:
        """The evidence block a caller hands to its own model, with [message_id] citations.
        Messages in time order: the model reads them as the dialogue they were (the answer
        prompt was measured so); the ranking is the `evidence` list itself."""
        lines = [f"Q: {self.question}"]
        for e in self.chronological():
            lines.append(f"  [{e.message_id}] {e.timestamp:%Y-%m-%d} {e.speaker}: {e.text}")
        for c in self.claims:
            lines.append(f"  {c.labelled()}")
        return "\n".join(lines)

    def text(self, max_chars: int | None = None) -> str:
        """What an agent's model reads (MCP `search_memory`): the evidence best first with
        [message_id] citations and dates, then the `now:`/changed/fact lines (kept to a third
        of `max_chars`, so evidence always has room), within `max_chars` in all."""
        asked = (
            self.question
            if len(self.question) <= QUESTION_SHOWN
            else self.question[:QUESTION_SHOWN] + "…"
        )
        head = f"Evidence for {asked!r} (best first; cite as [message_id]):"
        evidence = [
            f"[{e.message_id}] {e.timestamp:%Y-%m-%d} {e.speaker}: {e.text}" for e in self.evidence
        ] or [f"(no evidence in {self.user_id!r}'s memory)"]
        lines = [c.labelled() for c in self.claims]
        beliefs = fit_lines(lines, max_chars and max_chars // 3, "; ask a narrower question")
        room = max_chars and max_chars - len(head) - len(beliefs) - 2
        more = "; raise max_chars or lower budget_tokens"
        return "\n".join(filter(None, [head, fit_lines(evidence, room, more), beliefs]))


class PathStep(BaseModel):
    """One state on the branch-local context (root → located node)."""

    node_id: str
    snapshot_id: str
    summary: str = Field(description="what the state was about")
    timestamp: datetime = Field(description="when it was said")
    message_ids: list[str] = Field(description="the messages it was compiled from")


class CrossEvidence(BaseModel):
    """An evidence item of another trajectory that shares words with the turn."""

    evidence_id: str
    kind: str = Field(description="fact, event, artifact or state")
    text: str
    status: str = Field(description="active, revised or deprecated")
    trajectory_id: str = Field(description="the other trajectory that holds it")
    source_message_ids: list[str] = Field(description="the messages that stated it")
    shared: list[str] = Field(description="the words it shares with the turn")


class LocalizeResult(BaseModel):
    """The online turn: where the turn belongs and what it can reuse."""

    user_id: str = Field(description="the memory owner")
    turn: str = Field(description="the live turn as given")
    decision: Literal["CONTINUE", "NEW"] = Field(
        description="CONTINUE: the turn continues a stored state; NEW: none fits"
    )
    node_id: str | None = Field(description="the forest node it continues (CONTINUE)")
    trajectory_id: str | None = Field(description="that node's trajectory (CONTINUE)")
    title: str | None = Field(None, description="that trajectory's title (CONTINUE)")
    score: float = Field(description="the placement's score (higher: closer)")
    stage: str = Field(description="which step of the placement decided")
    reason: str = Field(description="why, in words")
    path: list[PathStep] = Field(description="the branch-local context, root → node")
    evidence: list[CrossEvidence] = Field(description="other branches' evidence it shares")
    turn_extractor: str = Field("rules", description="the extractor of the turn's features")
    stored_extractors: list[str] = Field([], description="the extractors of the stored states")
    note: str | None = Field(
        None, description="set when the turn's features and the stored ones differ in kind"
    )

    def text(self, max_chars: int | None = None) -> str:
        """Decision, then the branch path root → node, then other branches' evidence."""
        head = f"{self.decision} ({self.reason}, score {self.score:.3f})"
        if self.trajectory_id:
            titled = f" {self.title!r}" if self.title else ""
            head += f" trajectory{titled} {self.trajectory_id} node {self.node_id}"
        lines = [head] + ([f"note: {self.note}"] if self.note else [])
        if not self.stored_extractors:  # no stored state at all: a new user, or a typo
            lines.append(no_memory_line(self.user_id))
        for depth, step in enumerate(self.path):
            cites = ",".join(step.message_ids)
            lines.append(f"  {'  ' * depth}{step.timestamp:%Y-%m-%d} {step.summary} [{cites}]")
        if self.evidence:
            lines.append("evidence from other branches:")
            for e in self.evidence:
                cites = ",".join(e.source_message_ids)
                lines.append(f"  ({e.kind}, {e.status}) {e.text} [{cites}]")
        return fit_lines(lines, max_chars, "; raise max_chars")


class SourceMessage(BaseModel):
    """A message that stated a belief version."""

    message_id: str
    speaker: str
    timestamp: datetime = Field(description="when the message was said")
    text: str


class BeliefVersion(BaseModel):
    """One claim in a revision chain, with the messages that stated it."""

    claim_id: str
    op: str = Field(description="ADD, REVISE or DEPRECATE: what this version did")
    status: str = Field(description="active (holds now), revised or deprecated")
    value: str = Field(description="the belief's value in this version")
    text: str = Field(description="the claim as a sentence")
    recorded_at: datetime = Field(description="when it was said")
    event_time: date | None = Field(description="the date it is about, when one was said")
    source_message_ids: list[str]
    sources: list[SourceMessage] = Field(description="those messages, with their text")


class HistoryChain(BaseModel):
    """One belief (a subject's attribute) through its versions."""

    subject: str = Field(description="whom or what the belief is about")
    attribute: str = Field(description='what of it ("lives in", "works as")')
    versions: list[BeliefVersion] = Field(description="oldest first")


class HistoryResult(BaseModel):
    """How beliefs about `about` changed, oldest version first in each chain."""

    user_id: str = Field(description="the memory owner")
    about: str = Field(description="what was asked about")
    chains: list[HistoryChain] = Field(description="each belief that matched")

    def text(self, max_chars: int | None = None) -> str:
        """Each chain, version by version: op, date, value, [message ids] and what was said."""
        if not self.chains:
            return f"no beliefs about {self.about!r} for user {self.user_id!r}"
        lines = []
        for i, chain in enumerate(self.chains, 1):
            lines.append(f"chain {i}: {chain.subject} / {chain.attribute}")
            for v in chain.versions:
                when = v.event_time or v.recorded_at.date()
                cites = ",".join(v.source_message_ids)
                value = f"no longer: {v.value}" if v.op == "DEPRECATE" else v.value  # an ending
                lines.append(f"  {v.op:<9} {when:%Y-%m-%d} [{v.status}] {value} [{cites}]")
                lines += [
                    f"      {m.message_id} {m.timestamp:%Y-%m-%d} {m.speaker}: {m.text}"
                    for m in v.sources
                ]
        return fit_lines(lines, max_chars, "; raise max_chars or ask about one belief")


class MemoryPage(BaseModel):
    """A Memory Wiki page as Markdown, its links and the trajectories it cites."""

    page_id: str
    kind: Literal["index", "entity", "topic", "inventory"]
    title: str
    file: str = Field(description="its file name: other pages link to it by this name")
    markdown: str = Field(description="the page, its links to other pages by file name")
    trajectory_ids: list[str] = Field(description="the trajectories this page links")
    links: list[str] = Field(description="page ids this page links to")
    items: list[str] = Field(description="inventory items or entity names")
    parent_page_id: str | None = Field(description="the page split into parts, for a part")
    part: int = Field(description="0-based part of a split page")
    parts: int = Field(description="parts of the split page; 1: not split")


class PagesResult(BaseModel):
    """A user's Memory Wiki: the index page first, then by kind, title and part."""

    user_id: str = Field(description="the memory owner")
    pages: list[MemoryPage] = Field(description="none for a user the store does not hold")


class AddResult(BaseModel):
    """What an online add did (cluster/online.py): ids stored now, ids the store already
    held (an add is idempotent on (user, message id)), the run that published them."""

    user_id: str
    added: list[str] = Field(description="message ids stored and placed by this add")
    already: list[str] = Field(description="message ids the store held before: left as they were")
    run_id: str = Field(description="the online commit readers now follow ('' when none)")
    seconds: float

    def text(self) -> str:
        done = f"stored {len(self.added)} new message(s) for {self.user_id!r}"
        if self.already:
            done += f"; {len(self.already)} already stored ({', '.join(self.already[:5])})"
        return done + (f"; searchable now (run {self.run_id})" if self.run_id else "")


class ForgetResult(BaseModel):
    """What a forget removed (cluster/forget.py): rows per table whose key went."""

    user_id: str
    message_ids: list[str] = Field(description="forgotten messages; empty: the whole user")
    run_id: str
    removed: dict[str, int]

    def text(self) -> str:
        what = f"{len(self.message_ids)} message(s) of" if self.message_ids else "all memory of"
        return f"forgot {what} {self.user_id!r}: {sum(self.removed.values())} rows removed"


RESPONSES: dict[str, type[BaseModel]] = {
    "query": QueryResult,
    "localize": LocalizeResult,
    "history": HistoryResult,
    "pages": PagesResult,
}
"""The response model of each call, by the call's name (HTTP route, CLI command, method)."""

WRITES: dict[str, type[BaseModel]] = {"add": AddResult, "forget": ForgetResult}
"""The calls that change a store, by name, and what each answers."""
