"""Belief timelines: per subject (entity), every claim in time order, and the chains of
claims linked by REVISE / DEPRECATE (append-only lifecycle: never deleted) with the messages
that caused each step."""

from __future__ import annotations

from dataclasses import dataclass, field

from arborwiki.core.records import Claim, Message
from arborwiki.core.viewer.inputs import SiteInputs
from arborwiki.core.viewer.names import safe_name
from arborwiki.core.wiki.text import claim_day, normalize_phrase, sorted_ids


@dataclass(frozen=True)
class SourceView:
    message_id: str
    anchor_file: str  # snapshot page + #anchor, "" when the message is not stored
    speaker: str
    day: str
    text: str


@dataclass(frozen=True)
class VersionView:
    claim: Claim
    day: str
    snapshot_file: str
    sources: list[SourceView]

    @property
    def value(self) -> str:
        return f"not {self.claim.value}" if self.claim.negated else self.claim.value


@dataclass
class ChainView:
    subject: str
    attribute: str
    versions: list[VersionView]

    @property
    def changed(self) -> bool:
        return len(self.versions) > 1 or self.versions[0].claim.status != "active"


@dataclass
class SubjectTimeline:
    subject: str
    file: str
    chains: list[ChainView] = field(default_factory=list)

    @property
    def changes(self) -> list[ChainView]:
        return [c for c in self.chains if c.changed]

    @property
    def attributes(self) -> dict[str, list[VersionView]]:
        """Attribute → every version of every chain about it, in time order."""
        out: dict[str, list[VersionView]] = {}
        for chain in self.chains:
            out.setdefault(chain.attribute, []).extend(chain.versions)
        for versions in out.values():
            versions.sort(key=lambda v: (v.day, v.claim.recorded_at, v.claim.claim_id))
        return dict(sorted(out.items()))

    def op_counts(self) -> dict[str, int]:
        counts = {"ADD": 0, "REVISE": 0, "DEPRECATE": 0}
        for chain in self.chains:
            for v in chain.versions:
                counts[v.claim.op] += 1
        return counts


def timeline_file(subject: str) -> str:
    return f"timeline/{safe_name(normalize_phrase(subject) or 'unnamed')}.html"


def chains_of(claims: list[Claim]) -> list[list[Claim]]:
    """Every claim in exactly one chain, oldest → newest along supersedes/superseded_by."""
    by_id = {c.claim_id: c for c in claims}
    chains: list[list[Claim]] = []
    placed: set[str] = set()
    order = sorted(claims, key=lambda c: (c.recorded_at, c.claim_id))
    for claim in order:
        if claim.claim_id in placed:
            continue
        head = claim
        while head.supersedes in by_id and head.supersedes not in placed:
            head = by_id[head.supersedes or ""]
            if head.claim_id == claim.claim_id:
                break  # a cycle in bad data: start here
        chain = [head]
        placed.add(head.claim_id)
        while chain[-1].superseded_by in by_id and chain[-1].superseded_by not in placed:
            chain.append(by_id[chain[-1].superseded_by or ""])
            placed.add(chain[-1].claim_id)
        chains.append(chain)
    return chains


def source_views(ids: list[str], inputs: SiteInputs, root: str) -> list[SourceView]:
    out = []
    for mid in sorted_ids(ids):
        message: Message | None = inputs.message_by_id.get(mid)
        snap = inputs.snapshot_of_message.get(mid)
        href = f"{root}snapshots/{safe_name(snap)}.html#m-{safe_name(mid)}" if snap else ""
        if message is None:
            out.append(SourceView(mid, href, "", "", ""))
        else:
            day = message.timestamp.date().isoformat()
            out.append(SourceView(mid, href, message.speaker, day, message.full_text))
    return out


def build_timelines(inputs: SiteInputs) -> list[SubjectTimeline]:
    """One timeline per subject (normalized name), subjects with changes first."""
    subjects: dict[str, SubjectTimeline] = {}
    for chain in chains_of(inputs.claims):
        last = chain[-1]
        name = normalize_phrase(last.subject) or "unnamed"
        timeline = subjects.setdefault(name, SubjectTimeline(name, timeline_file(name)))
        versions = [
            VersionView(
                c,
                claim_day(c),
                f"../snapshots/{safe_name(c.snapshot_id)}.html#c-{safe_name(c.claim_id)}",
                source_views(c.source_message_ids, inputs, "../"),
            )
            for c in chain
        ]
        timeline.chains.append(ChainView(last.subject, last.attribute, versions))
    for t in subjects.values():
        t.chains.sort(key=lambda c: (c.versions[0].day, c.versions[0].claim.claim_id))
    return sorted(subjects.values(), key=lambda t: (-len(t.changes), -len(t.chains), t.subject))
