"""The validate → repair once → rules fallback loop, independent of any LLM engine.

Every backend only has to turn tagged chat requests into tagged texts; this loop makes
sure each window gets exactly one draft (never dropped), in input order, and records
which path produced it. Keeping it engine-free lets CPU tests drive it with a script.
"""

from __future__ import annotations

from collections.abc import Sequence

from arborwiki.core.chat import GenerateTagged, TaggedOutput, TaggedRequest
from arborwiki.core.extract.base import Extraction, ExtractionBatch, Extractor
from arborwiki.core.extract.prompts import (
    DraftParseError,
    build_messages,
    parse_draft,
    repair_messages,
)
from arborwiki.core.extract.schema import SnapshotDraft
from arborwiki.core.records import Window

OK, REPAIRED, FALLBACK = "ok", "repaired", "fallback"


class IndexMismatchError(RuntimeError):
    """The engine answered a request twice, not at all, or one never asked: results are unsafe."""


def untag(requests: Sequence[TaggedRequest], outputs: Sequence[TaggedOutput]) -> dict[int, str]:
    """Match answers to requests by tag; any missing, duplicated or stray tag raises."""
    asked = [index for index, _ in requests]
    answers: dict[int, str] = {}
    for index, text in outputs:
        if index in answers:
            raise IndexMismatchError(f"window {index} came back twice")
        answers[index] = text
    missing = sorted(set(asked) - answers.keys())
    stray = sorted(answers.keys() - set(asked))
    if missing or stray:
        raise IndexMismatchError(f"missing windows {missing}, unexpected windows {stray}")
    return answers


def _try_parse(text: str) -> tuple[SnapshotDraft | None, str]:
    try:
        return parse_draft(text), ""
    except DraftParseError as err:
        return None, str(err)


def guarded_extract(
    windows: list[Window], generate: GenerateTagged, fallback: Extractor, llm_name: str = "vllm"
) -> tuple[list[SnapshotDraft], list[str], dict[str, int]]:
    """One draft per window: the LLM's, its one repair, or the fallback extractor's.

    Returns the drafts, a parallel list of extractor names (`llm_name`,
    `f"{llm_name}-repaired"`, `f"{fallback.name}-fallback"`) and counts per path.
    """
    drafts: list[SnapshotDraft | None] = [None] * len(windows)
    names: list[str] = [""] * len(windows)
    stats = {OK: 0, REPAIRED: 0, FALLBACK: 0}
    if not windows:
        return [], [], stats

    first = [(i, build_messages(w)) for i, w in enumerate(windows)]
    to_repair: list[tuple[int, str, str]] = []
    for i, text in sorted(untag(first, generate(first)).items()):
        draft, error = _try_parse(text)
        if draft is None:
            to_repair.append((i, text, error))
        else:
            drafts[i], names[i] = draft, llm_name
            stats[OK] += 1

    failed: list[int] = []
    if to_repair:
        second = [(i, repair_messages(windows[i], text, err)) for i, text, err in to_repair]
        for i, text in sorted(untag(second, generate(second)).items()):
            draft, _ = _try_parse(text)
            if draft is None:
                failed.append(i)
            else:
                drafts[i], names[i] = draft, f"{llm_name}-repaired"
                stats[REPAIRED] += 1

    if failed:
        rule_drafts = fallback.extract([windows[i] for i in failed])
        if len(rule_drafts) != len(failed):
            raise IndexMismatchError(
                f"fallback returned {len(rule_drafts)} drafts for {len(failed)} windows"
            )
        for i, draft in zip(failed, rule_drafts, strict=True):
            drafts[i], names[i] = draft, f"{fallback.name}-fallback"
            stats[FALLBACK] += 1

    done = [d for d in drafts if d is not None]
    if len(done) != len(windows):  # unreachable while untag() holds; never drop silently
        raise IndexMismatchError(f"{len(windows) - len(done)} windows got no draft")
    return done, names, stats


def guarded_batch(
    windows: list[Window], generate: GenerateTagged, fallback: Extractor, llm_name: str = "vllm"
) -> ExtractionBatch:
    """`guarded_extract` as an ExtractionBatch, counting engine calls and prompts sent."""
    usage = {"engine_calls": 0, "engine_prompts": 0}

    def counted(requests: list[TaggedRequest]) -> list[TaggedOutput]:
        usage["engine_calls"] += 1
        usage["engine_prompts"] += len(requests)
        return generate(requests)

    drafts, names, stats = guarded_extract(windows, counted, fallback, llm_name)
    extractions = [Extraction(d, n) for d, n in zip(drafts, names, strict=True)]
    return ExtractionBatch(extractions, {**stats, **usage})
