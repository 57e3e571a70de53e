"""False beliefs from idioms: sentences whose verb looks like a belief slot's ("I live in the
moment", "I drive my kids to school") but that state no home, job, car, diet, partner,
school or pet of the speaker.

    python -m benchmarks.belief_idioms [--out benchmarks/results/belief_idioms.md]

Each sentence is said by a user who stated one value of every slot a week before (home,
employer, car, partner, school, a pet, a diet), through the default build (rules extractor,
claim lifecycle). A sentence *fires* when a claim it is the source of fills a slot, or when
one of the earlier values stops being active. `probed.txt` holds the sentences that found
the false beliefs fixed in session 56 (the rules were changed until they read as nothing);
`unseen.txt` was written apart from them and scored once with them (the later fixes read
its firings: see its header).
"""

from __future__ import annotations

import argparse
import platform
from datetime import UTC, datetime, timedelta
from pathlib import Path

from arborwiki.core.config import Config
from arborwiki.core.embedding import load_embedder
from arborwiki.core.extract.base import Labeled
from arborwiki.core.extract.rules import RuleExtractor
from arborwiki.core.pipeline import build_user_memory
from arborwiki.core.records import Message
from arborwiki.core.slots import slot_of

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent / "results" / "belief_idioms.md"
HISTORY = "<!-- history -->"
STATED = [
    "I live in Denver.",
    "I work at Pell & Grant as an accountant.",
    "I drive a Honda Civic.",
    "I'm dating Sam.",
    "I study at Oxford.",
    "I have a dog named Rex.",
    "I'm vegetarian.",
]
T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)


def sentences(path: Path) -> list[str]:
    return [s.strip() for s in path.read_text().splitlines() if s.strip() and s[0] != "#"]


def _message(i: int, text: str, day: int) -> Message:
    return Message(
        user_id="idioms-1",
        conversation_id="c",
        session_id=f"s{day}",
        message_id=f"m{i}",
        turn_index=i,
        speaker="Priya",
        role="user",
        text=text,
        timestamp=T0 + timedelta(days=7 * day, minutes=i),
    )


def fired(sentence: str, cfg: Config, extractor: Labeled, embedder: object) -> list[str]:
    """What the sentence changed: the slot claims it is the source of, and the earlier
    values it made inactive."""
    said = [_message(i, text, 0) for i, text in enumerate(STATED)]
    said.append(_message(len(STATED), sentence, 1))
    claims = build_user_memory(said, cfg, extractor, embedder).claims  # type: ignore[arg-type]
    last = said[-1].message_id
    out = [
        f"{slot.name}: {c.attribute} {c.value!r}{' (ended)' if c.negated else ''}"
        for c in claims
        if last in c.source_message_ids and (slot := slot_of(c.attribute, c.value))
    ]
    out += [
        f"ended: {c.attribute} {c.value!r}"
        for c in claims
        if c.status != "active" and last not in c.source_message_ids
    ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(RESULTS))
    args = parser.parse_args()
    cfg = Config()
    extractor, embedder = Labeled(RuleExtractor(cfg.extract)), load_embedder()
    lines = [
        "# False beliefs from idioms (`python -m benchmarks.belief_idioms`)",
        "",
        f"{platform.machine()}; default config, CPU rules extractor. A sentence fires when it",
        "fills a belief slot or ends a value stated before (see the module docstring).",
        "",
        "| set | sentences | fired |",
        "|---|---|---|",
    ]
    details: list[str] = []
    for name in ("probed", "unseen"):
        found = [(s, fired(s, cfg, extractor, embedder)) for s in sentences(HERE / f"{name}.txt")]
        wrong = [(s, f) for s, f in found if f]
        lines.append(f"| {name} | {len(found)} | {len(wrong)} |")
        details += [f'- {name}: "{s}" → {"; ".join(f)}' for s, f in wrong]
    text = "\n".join([*lines, "", *(details or ["Nothing fired."])]) + "\n"
    out = Path(args.out)
    previous = out.read_text() if out.exists() else ""
    kept = previous.split(HISTORY, 1)[1] if HISTORY in previous else "\n"
    out.write_text(f"{text}\n{HISTORY}{kept}")  # what follows the marker: earlier runs' notes
    print(text)


if __name__ == "__main__":
    main()
