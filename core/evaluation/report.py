"""The readable report: one table per budget, best variant in bold, losses stated."""

from __future__ import annotations

from typing import Any

from arborwiki.core.evaluation.gold import CATEGORIES

Metrics = dict[str, dict[str, dict[str, dict[str, Any]]]]


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def render_report(metrics: Metrics, header: str) -> str:
    variants = list(metrics)
    budgets = sorted({b for v in metrics.values() for b in v}, key=int)
    cats = [str(c) for c in CATEGORIES]
    lines = [header, ""]
    for budget in budgets:
        rows = {v: metrics[v][budget]["all"] for v in variants if budget in metrics[v]}
        best = max(rows, key=lambda v: (rows[v]["gold_ref_cov"] or 0.0, v != "full_context"))
        lines += [
            f"### Budget {int(budget):,} tokens",
            "",
            "| variant | gold ref cov | all-ref rate | "
            + " | ".join(CATEGORIES[int(c)] for c in cats)
            + " | cited, not present | traj recall | cand. universe | context tokens | n |",
            "|---" * (8 + len(cats)) + "|",
        ]
        for v in variants:
            if budget not in metrics[v]:
                continue
            m = metrics[v][budget]
            name = f"**{v}**" if v == best else v
            per_cat = " | ".join(_fmt(m.get(c, {}).get("gold_ref_cov")) for c in cats)
            a = m["all"]
            lines.append(
                f"| {name} | {_fmt(a['gold_ref_cov'])} | {_fmt(a['all_ref_rate'])} | {per_cat} | "
                f"{_fmt(a.get('cited_not_present'))} | {_fmt(a['traj_recall'])} | "
                f"{_fmt(a['cand_universe'])} | {_fmt(a['context_tokens'])} | {a['n']} |"
            )
        lines += ["", *_answer_table(metrics, variants, budget, cats), ""]
    lines += ["### Where arborwiki loses", ""] + (_losses(metrics, budgets) or ["- nowhere"])
    return "\n".join(lines) + "\n"


def _answer_table(metrics: Metrics, variants: list[str], budget: str, cats: list[str]) -> list[str]:
    """Answer recall per variant and category at one budget (where it was scored)."""
    rows = [v for v in variants if metrics[v].get(budget, {}).get("all", {}).get("answer_recall")]
    if not rows:
        return []
    out = [
        "| variant | answer recall | "
        + " | ".join(CATEGORIES[int(c)] for c in cats)
        + " | answers scored |",
        "|---" * (3 + len(cats)) + "|",
    ]
    for v in rows:
        m = metrics[v][budget]
        per_cat = " | ".join(_fmt(m.get(c, {}).get("answer_recall")) for c in cats)
        out.append(
            f"| {v} | {_fmt(m['all']['answer_recall'])} | {per_cat} | "
            f"{m['all'].get('answer_n', 'n/a')} |"
        )
    return out


def _losses(metrics: Metrics, budgets: list[str]) -> list[str]:
    """Every (budget, category, baseline) where a budgeted variant beats arborwiki."""
    out = []
    ours = metrics.get("arborwiki", {})
    for budget in budgets:
        for cat in ["all", *[str(c) for c in CATEGORIES]]:
            mine = ours.get(budget, {}).get(cat, {}).get("gold_ref_cov")
            if mine is None:
                continue
            for v, per_budget in metrics.items():
                if v in ("arborwiki", "full_context"):
                    continue
                theirs = per_budget.get(budget, {}).get(cat, {}).get("gold_ref_cov")
                if theirs is not None and theirs > mine:
                    label = "all" if cat == "all" else CATEGORIES[int(cat)]
                    out.append(
                        f"- budget {budget}, {label}: {v} {theirs:.3f} > arborwiki {mine:.3f}"
                    )
    return out
