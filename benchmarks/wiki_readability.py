"""Benchmark: does the Memory Wiki read well? Counted over a built store's pages.

Per store (e.g. LoCoMo dev built by `arborwiki evaluate locomo … --store S`), over every
non-index page's "Core facts" lines (the clause before its "(day)" and citations):

- ends on a function word: the issue's rule for a cut-off line ("… in hopes of growing
  the"); it also counts clauses English ends that way ("… what they believe in", "… it is");
- cut off: the clause ends on a word no clause ends on (an article, a possessive
  determiner, a conjunction, "of": core/words.py NON_FINAL_WORDS);
- first person: the clause holds "I", "me", "my", "mine", "we", "us", "our" or "ours";
- duplicate: the same clause (case-folded) twice on one page;
- empty page: no fact, no revision, no quantity and no inventory item (only the
  structural counts of trajectories and snapshots, "none recorded" everywhere else);
- inventory items (the "Counts and quantities" list of an inventory page, "- value (N
  mentions)"): those holding a first-person word, and those cut off as above;
- one-word title not a name: a page title of one word that the user's messages never
  write capitalized inside a sentence ("point", "spirit"; "Rome" is a name).

    python -m benchmarks.wiki_readability STORE [STORE ...] [--label L] [--write]
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from arborwiki.core.words import FUNCTION_WORDS, NON_FINAL_WORDS
from arborwiki.storage.lance_store import LanceStore

RESULTS = Path(__file__).resolve().parent / "results" / "wiki_readability.md"
FIRST_PERSON = re.compile(r"\b(i|me|my|mine|we|us|our|ours|i'm|i've|i'd|i'll)\b", re.I)
_DAY_AND_SOURCES = re.compile(r"\s*\(\d{4}-\d{2}-\d{2}\)(\s*\[[^\]]*\])*\s*$")
_SOURCES = re.compile(r"(\s*\[[^\]]*\])+\s*$")
_STRUCTURAL = re.compile(r"^- (trajectories|snapshots naming it|snapshots): \d+$")
_NOTHING = "- none recorded"
_LINE_WORD = re.compile(r"[\w'’]+")
_ITEM = re.compile(r"^- (.*) \(\d+ mentions?\)")
_MID_SENTENCE_CAPITAL = re.compile(r"(?<=[a-z,;:] )([A-Z][\w'’-]+)")


def sections(markdown: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = []
        elif current and line.startswith(("- ", "  - ")):
            out[current].append(line.strip())
    return out


def clause(line: str) -> str:
    """A fact line's clause: no bullet, day or citations."""
    text = _DAY_AND_SOURCES.sub("", line[2:] if line.startswith("- ") else line)
    return _SOURCES.sub("", text).strip()


def last_word(text: str) -> str:
    """The line's last word, lower-cased ("" for none): where a cut line shows."""
    found = _LINE_WORD.findall(text.lower())
    return found[-1] if found else ""


def is_empty(parts: dict[str, list[str]]) -> bool:
    facts = [x for x in parts.get("Core facts", []) if x != _NOTHING]
    history = [x for x in parts.get("Contradictions and uncertainty", []) if x != _NOTHING]
    counts = [
        x
        for x in parts.get("Counts and quantities", [])
        if x != _NOTHING and not _STRUCTURAL.match(x)
    ]
    return not (facts or history or counts)


def names_of(store: LanceStore, user: str) -> set[str]:
    """Words the user's messages write capitalized inside a sentence (lower-cased)."""
    found: set[str] = set()
    for row in store.rows("messages", user):
        found.update(w.lower() for w in _MID_SENTENCE_CAPITAL.findall(row["text"]))
    return found


def measure(path: str) -> dict[str, float]:
    store = LanceStore(path, create=False)
    pages = [p for p in store.table("wiki_pages").to_arrow().to_pylist() if p["kind"] != "index"]
    counts: Counter[str] = Counter()
    names: dict[str, set[str]] = {}
    for page in pages:
        parts = sections(page["markdown"])
        lines = [clause(x) for x in parts.get("Core facts", []) if x != _NOTHING]
        counts["pages"] += 1
        counts["fact lines"] += len(lines)
        for text in lines:
            last = last_word(text)
            counts["ends on a function word"] += last in FUNCTION_WORDS
            counts["cut off"] += last in NON_FINAL_WORDS
            counts["first person"] += bool(FIRST_PERSON.search(text))
        items = [
            m.group(1) for x in parts.get("Counts and quantities", []) if (m := _ITEM.match(x))
        ]
        counts["inventory items"] += len(items)
        for text in items:
            counts["items cut off"] += last_word(text) in NON_FINAL_WORDS
            counts["items in first person"] += bool(FIRST_PERSON.search(text))
        folded = Counter(x.lower() for x in lines)
        counts["duplicate facts"] += sum(n - 1 for n in folded.values() if n > 1)
        counts["empty pages"] += is_empty(parts)
        title = page["title"].strip()
        if len(title.split()) == 1:
            user = page["user_id"]
            if user not in names:
                names[user] = names_of(store, user)
            counts["one-word titles, not a name"] += title.lower() not in names[user]
    return dict(counts)


def _share(m: dict[str, float], key: str, lines: float) -> str:
    return f"{m.get(key, 0)} ({m.get(key, 0) / lines:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("stores", nargs="+")
    parser.add_argument("--label", default="")
    parser.add_argument("--write", action="store_true", help=f"append to {RESULTS.name}")
    args = parser.parse_args()
    header = (
        "| store | pages | fact lines | ends on a function word | cut off | first person | "
        "duplicate facts | empty pages | one-word titles, not a name | inventory items | "
        "items cut off | items in first person |"
    )
    rows = [header, "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for path in args.stores:
        m = measure(path)
        lines = max(m.get("fact lines", 0), 1)
        items = max(m.get("inventory items", 0), 1)
        rows.append(
            f"| {path} | {m.get('pages', 0)} | {m.get('fact lines', 0)} | "
            f"{_share(m, 'ends on a function word', lines)} | {_share(m, 'cut off', lines)} | "
            f"{_share(m, 'first person', lines)} | "
            f"{m.get('duplicate facts', 0)} | {m.get('empty pages', 0)} | "
            f"{m.get('one-word titles, not a name', 0)} | {m.get('inventory items', 0)} | "
            f"{_share(m, 'items cut off', items)} | {_share(m, 'items in first person', items)} |"
        )
    text = "\n".join(rows)
    print(text)
    if args.write:
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        with RESULTS.open("a") as out:
            out.write(f"\n## {args.label or 'run'} — {stamp}\n\n{text}\n")


if __name__ == "__main__":
    main()
