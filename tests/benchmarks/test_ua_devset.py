"""The long user–assistant dev set's builder: deterministic, gold ids exist, kinds recorded,
every answer's content terms in its evidence messages (with their dates, as a reader sees
them), and readable by the LoCoMo reader with the user as the memory's owner."""

from __future__ import annotations

import json
import re

import pytest

from arborwiki.core.evaluation.answers import answer_terms, context_terms
from arborwiki.storage.archive.locomo import parse_locomo_datetime, sample_messages
from benchmarks.ua_devset.build import POOLS, build_pool
from benchmarks.ua_devset.model import KINDS


def _turns(sample: dict) -> dict[str, tuple[str, str]]:
    conv = sample["conversation"]
    out = {}
    for key, turns in conv.items():
        if re.fullmatch(r"session_\d+", key):
            when = parse_locomo_datetime(conv[f"{key}_date_time"])
            for t in turns:
                out[t["dia_id"]] = (f"{when:%Y-%m-%d}", t["text"])
    return out


@pytest.mark.parametrize("pool", POOLS)
def test_pool_is_well_formed(pool: str) -> None:
    samples = build_pool(pool, seed=1, users=2)
    assert json.dumps(samples) == json.dumps(build_pool(pool, seed=1, users=2))
    assert json.dumps(samples) != json.dumps(build_pool(pool, seed=2, users=2))
    for sample in samples:
        turns = _turns(sample)
        assert len(turns) == len(set(turns))
        assert sample["qa"], sample["sample_id"]
        for item in sample["qa"]:
            where = f"{sample['sample_id']}: {item['question']}"
            assert item["kind"] in KINDS, where
            assert item["category"] in (1, 2, 3, 4), where
            assert item["evidence"] and all(e in turns for e in item["evidence"]), where
            assert "<<" not in item["question"] + item["answer"], where
            wanted = answer_terms(item["answer"], item["category"])
            assert wanted, where
            have = context_terms(" ".join(" ".join(turns[e]) for e in item["evidence"]))
            assert wanted <= have, f"{where}: {sorted(wanted - have)} not in the evidence"
        messages = sample_messages(sample)
        assert {m.role for m in messages if m.speaker == "User"} == {"user"}
        assert {m.role for m in messages if m.speaker == "Assistant"} == {"other"}


def test_pools_share_no_text() -> None:
    a, b = (build_pool(p, seed=1, users=1)[0] for p in POOLS)
    texts = [{t for _, t in _turns(s).values()} for s in (a, b)]
    assert not texts[0] & texts[1]
