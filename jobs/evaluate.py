"""`arborwiki evaluate locomo FILE`: evidence coverage of every variant at equal budgets."""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

from rich.progress import track

from arborwiki.cluster.build import run_build
from arborwiki.cluster.local_service import load_locomo_json, open_service, read_locomo_qa
from arborwiki.core.config import AnswerConfig, Config, QueryConfig
from arborwiki.core.evaluation.answers import answer_terms
from arborwiki.core.evaluation.gold import QA
from arborwiki.core.evaluation.long_archive import archive_tokens, long_owner
from arborwiki.core.evaluation.metrics import aggregate, score
from arborwiki.core.evaluation.report import render_report
from arborwiki.core.evaluation.variants import VARIANTS, Variants
from arborwiki.core.tokens import TOKEN_RULE

LONG_OWNER = "long-dev"


def write_long_archive(file: str, out_file: str, merge_turns: int, cfg: Config) -> dict:
    """Join every sample of `file` into one owner (see core.evaluation.long_archive) and write
    it as LoCoMo JSON; returns its size."""
    owner = long_owner(load_locomo_json(file), LONG_OWNER, merge_turns)
    path = Path(out_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([owner], ensure_ascii=False))
    messages = sum(len(v) for v in owner["conversation"].values() if isinstance(v, list))
    tokens = archive_tokens(owner, TOKEN_RULE.words_factor, TOKEN_RULE.per_message)
    return {
        "file": str(path),
        "messages": messages,
        "tokens": tokens,
        "questions": len(owner["qa"]),
    }


def evaluate_locomo(
    file: str,
    out_dir: str,
    budgets: list[int],
    cfg: Config,
    store: str | None = None,
    variants: tuple[str, ...] = VARIANTS,
    command: str = "",
    reuse_store: bool = False,
) -> dict:
    started = time.time()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    store_dir = store or str(out / "store")
    build_seconds = build_or_reuse(file, store_dir, cfg, reuse_store)
    runner = Variants(open_service(store_dir, cfg))
    questions = read_locomo_qa(file)
    scored_qs, unresolved, no_gold, scores = 0, 0, 0, []
    for qa in track(questions, description="questions", transient=True):
        index = runner.user(qa.user_id)
        gold = tuple(g for g in qa.gold if g in index.refs)
        unresolved += len(qa.gold) - len(gold)
        if not gold:
            no_gold += 1
            continue
        scored_qs += 1
        resolved = QA(qa.user_id, qa.question, qa.category, gold, qa.answer)
        trajectory_of = index.trajectory_of()
        answer = answer_terms(qa.answer, qa.category)
        for name in variants:
            for budget, context in runner.get(name)(resolved, budgets).items():
                scores.append(
                    score(
                        name,
                        budget,
                        qa.category,
                        gold,
                        context,
                        trajectory_of,
                        answer,
                        index.terms_of,
                    )
                )
    if not scored_qs:
        why = (
            "it was built from another archive (drop --reuse-store, or pass another --store)"
            if reuse_store
            else "no gold id of the file names one of its messages"
        )
        raise ValueError(
            f"no question of {file} has a gold message in the store {store_dir}: {why}"
        )
    metrics = {
        "file": str(file),
        "questions": scored_qs,
        "unresolved_gold_ids": unresolved,
        "questions_without_gold": no_gold,
        "variants": aggregate(scores),
    }
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2))
    seconds = time.time() - started
    header = (
        f"# LoCoMo evidence coverage: {Path(file).name}\n\n"
        f"Command: `{command or 'arborwiki evaluate locomo ' + file}`  \n"
        f"Machine: {platform.machine()}, {_cores()} cores, {_gpus()}; "
        f"build {build_seconds:.0f} s{' (store reused)' if reuse_store else ''}, "
        f"total {seconds:.0f} s.  \n"
        f"Questions scored: {scored_qs} (categories 1–4); gold ids that resolve to no "
        f"message: {unresolved}; questions with no resolvable gold id: {no_gold}.  \n"
        "Tokens: ceil(1.3 × words) + 4 per message, for every variant. "
        "Coverage = share of a question's gold messages present in the context. "
        "Answer recall = share of the gold answer's content terms in the context's text "
        "(messages with their dates, claim lines, page text; core/evaluation/answers.py; "
        "yes/no answers left out)."
    )
    (out / "report.md").write_text(render_report(metrics["variants"], header))
    return metrics


def build_or_reuse(archive: str, store_dir: str, cfg: Config, reuse_store: bool) -> float:
    """Build `archive` into `store_dir` (seconds taken), or check it is built (0 s). The
    build reads neither the query nor the answer section: it gets their defaults, so
    evaluations that differ only in query settings reuse one built store."""
    if reuse_store:
        if not (Path(store_dir) / "messages.lance").exists():
            raise ValueError(f"--reuse-store: no built store at {store_dir}")
        return 0.0
    return run_build(archive, store_dir, build_config(cfg)).seconds


def build_config(cfg: Config) -> Config:
    """`cfg` with the query-time sections reset: what the build's cache key should see."""
    return cfg.model_copy(update={"query": QueryConfig(), "answer": AnswerConfig()})


def _gpus() -> str:
    """What `nvidia-smi -L` lists on this machine ("no GPU" when it is absent or lists none)."""
    import shutil
    import subprocess

    if not shutil.which("nvidia-smi"):
        return "no GPU"
    try:
        listed = subprocess.run(
            ["nvidia-smi", "-L"], capture_output=True, text=True, timeout=10
        ).stdout.splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return "no GPU"
    gpus = [line.split(" (UUID")[0] for line in listed if line.startswith("GPU ")]
    return "; ".join(gpus) if gpus else "no GPU"


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0))
