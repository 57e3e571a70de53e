"""`arborwiki` command line: thin wiring of config → jobs."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from arborwiki.jobs.common import ConfigOpt, FormatOpt, SetOpt, config_from, one_line_errors

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
REPO = Path(__file__).resolve().parent.parent
AllowHostOpt = typer.Option(
    None,
    "--allow-host",
    help="a Host name HTTP answers to besides its own (the name a DNS or proxy gives it; "
    "repeatable)",
)
AllowForgetOpt = typer.Option(
    False,
    "--allow-forget",
    help="let agents forget memory (HTTP POST /forget, MCP forget_memory); off: refused",
)


@app.command("build")
@one_line_errors
def build_cmd(
    input: str = typer.Option(
        ..., "--input", "-i", help="JSONL/Parquet file, dir or glob; LoCoMo .json"
    ),
    store: str = typer.Option(..., "--store", "-s", help="Lance store directory"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as one JSON object"),
    fmt: str | None = FormatOpt,
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Compile an archive into per-user memory in a Lance store (Ray stages, one commit).

    Exit 1 when the share of users that failed passes build.max_failed_share (the others
    are committed all the same); 2 for bad input.
    """
    from arborwiki.jobs.build import build, too_many_failures

    cfg = config_from(config, set)
    if too_many_failures(build(input, store, cfg, as_json, fmt), cfg):
        raise SystemExit(1)  # not typer.Exit: one_line_errors maps RuntimeErrors to exit 2


@app.command("nightly")
@one_line_errors
def nightly_cmd(
    input: str = typer.Option(..., "--input", "-i", help="the archive the last run read, grown"),
    store: str = typer.Option(..., "--store", "-s", help="Lance store directory"),
    dry_run: bool = typer.Option(False, "--dry-run", help="print what would change, write nothing"),
    as_json: bool = typer.Option(False, "--json", help="print the report as one JSON object"),
    fmt: str | None = FormatOpt,
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Rebuild only the users touched by data new since the last run's watermark.

    New files and appended JSONL lines are read; a changed config or a file changed in
    place makes it a full build (said in the output). Exit codes as for `build`.
    """
    from arborwiki.jobs.build import too_many_failures
    from arborwiki.jobs.nightly import nightly

    cfg = config_from(config, set)
    report = nightly(input, store, cfg, dry_run, as_json, fmt)
    if report.build is not None and too_many_failures(report.build, cfg):
        raise SystemExit(1)


@app.command("serve")
@one_line_errors
def serve_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    http_port: int | None = typer.Option(None, "--http-port", help="also serve HTTP here"),
    http_host: str = typer.Option("127.0.0.1", "--http-host", help="HTTP bind address"),
    token_file: str | None = typer.Option(
        None,
        "--token-file",
        help="bearer token every HTTP route but /health asks for (else ARBORWIKI_TOKEN); "
        "required when --http-host is not loopback",
    ),
    allow_host: list[str] | None = AllowHostOpt,
    allow_forget: bool = AllowForgetOpt,
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Start the detached query actors (and HTTP with --http-port) on a running Ray cluster."""
    from arborwiki.jobs.serve import serve

    cfg = config_from(config, set)
    serve(store, cfg, http_port, http_host, token_file, allow_host or [], allow_forget)


@app.command("stop")
@one_line_errors
def stop_cmd(
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Stop what `serve` started: the HTTP ingress and the query actors of the namespace."""
    from arborwiki.jobs.serve import stop

    cfg = config_from(config, set)
    stopped = stop(cfg)
    where = f"in namespace {cfg.ray.namespace!r}"
    print(f"stopped {', '.join(stopped)} {where}" if stopped else f"nothing serving {where}")


@app.command("query")
@one_line_errors
def query_cmd(
    question: str = typer.Argument(..., help="the question"),
    user: str = typer.Option(..., "--user", "-u", help="memory owner (always required)"),
    store: str = typer.Option(..., "--store", "-s"),
    k: int | None = typer.Option(None, help="trajectories to select (default query.k)"),
    budget_tokens: int | None = typer.Option(
        None, "--budget-tokens", "--budget", help="evidence token budget (--budget: old name)"
    ),
    local: bool = typer.Option(False, "--local", help="run in-process instead of via the actor"),
    as_json: bool = typer.Option(False, "--json", help="print the full result as JSON"),
    answer: bool = typer.Option(
        False, "--answer", help="also answer with the configured LLM (answer.backend), checked"
    ),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Ask one user's memory a question; prints cited evidence (and a checked answer)."""
    from arborwiki.jobs.query import ask
    from arborwiki.jobs.render import render_result

    result = ask(store, user, question, k, budget_tokens, local, config_from(config, set), answer)
    if as_json:
        print(json.dumps(result, indent=2))
    elif answer:
        from arborwiki.core.answer.check import CheckedAnswer

        print(render_result(result["result"]))
        print(CheckedAnswer.model_validate(result["answer"]).render())
        if result.get("rewritten_query"):
            print(f"  rewritten query: {result['rewritten_query']}")
    else:
        print(render_result(result))


@app.command("mcp")
@one_line_errors
def mcp_cmd(
    store: str = typer.Option(..., "--store", "-s", help="Lance store directory or URI"),
    user: str | None = typer.Option(
        None, "--user", "-u", help="serve only this user (calls naming another are refused)"
    ),
    ray_address: str | None = typer.Option(
        None,
        "--ray-address",
        help="ask the query actors `serve` started there (host:port, or auto: the one "
        "cluster running on this machine)",
    ),
    allow_forget: bool = AllowForgetOpt,
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Serve the memory as MCP tools over stdio: search_memory, add_memory, localize_turn,
    belief_history, read_page (and forget_memory with --allow-forget). Without --user
    every call must name its user."""
    from arborwiki.jobs.mcp import serve_mcp

    serve_mcp(store, user, config_from(config, set), ray_address, allow_forget)


@app.command("demo")
@one_line_errors
def demo_cmd(
    store: str = typer.Option("demo-store", "--store", "-s", help="Lance directory to build into"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Build the bundled sample archive on local Ray, start the query actor, ask questions."""
    from arborwiki.jobs.demo import demo

    demo(REPO / "examples", store, config_from(config, set))


@app.command("history")
@one_line_errors
def history_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    user: str = typer.Option(..., "--user", "-u", help="memory owner (always required)"),
    about: str = typer.Option(..., "--about", "-a", help="what the belief is about"),
    limit: int = typer.Option(3, "--limit", min=1, max=50, help="chains shown, best first"),
    as_json: bool = typer.Option(False, "--json", help="print the full result as JSON"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """How a user's beliefs about something changed, and which message changed them: the
    chains of the belief asked about (where someone lives, their job …), best first."""
    from arborwiki.jobs.history import belief_history

    result = belief_history(store, user, about, config_from(config, set), limit)
    text = result.text()
    print(json.dumps(result.model_dump(mode="json"), indent=2) if as_json else text)


@app.command("localize")
@one_line_errors
def localize_cmd(
    turn: str = typer.Argument(..., help="the live turn's text"),
    store: str = typer.Option(..., "--store", "-s"),
    user: str = typer.Option(..., "--user", "-u", help="memory owner (always required)"),
    session: str | None = typer.Option(
        None, "--session", help="the session the turn is of (its dialogue in progress)"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the full result as JSON"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Which stored state a live turn continues, its branch path and cross-branch evidence."""
    from arborwiki.jobs.localize import localize_turn

    result = localize_turn(store, user, turn, config_from(config, set), session)
    text = result.text()
    print(json.dumps(result.model_dump(mode="json"), indent=2) if as_json else text)


@app.command("export-wiki")
@one_line_errors
def export_wiki_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    user: str = typer.Option(..., "--user", "-u", help="memory owner (always required)"),
    out: str = typer.Option(..., "--out", "-o", help="directory for the Markdown files"),
) -> None:
    """Write one user's Memory Wiki as Markdown files (every link resolves)."""
    from arborwiki.jobs.export_wiki import export_wiki

    written = export_wiki(store, user, out)
    print(f"wrote {len(written)} files to {out}")


@app.command("export-html")
@one_line_errors
def export_html_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    user: str = typer.Option(..., "--user", "-u", help="memory owner (always required)"),
    out: str = typer.Option(..., "--out", "-o", help="directory for the site"),
    page_nodes: int | None = typer.Option(
        None,
        "--page-nodes",
        min=1,
        help="snapshots per forest page (one time window: keeps each drawing small; 80)",
    ),
) -> None:
    """Write one user's wiki, forest and belief timelines as a static HTML site."""
    from arborwiki.core.viewer.options import ViewerOptions
    from arborwiki.jobs.export_html import export_html

    options = ViewerOptions() if page_nodes is None else ViewerOptions(page_nodes)
    count = export_html(store, user, out, options)
    print(f"wrote {count} files to {out}; open {out}/index.html")


@app.command("versions")
@one_line_errors
def versions_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    as_json: bool = typer.Option(False, "--json", help="print the runs as JSON"),
) -> None:
    """List the store's runs (time, input, counts, table versions); the last is current."""
    from arborwiki.jobs.versions import render_runs, runs

    rows = runs(store)
    print(json.dumps(rows, indent=2) if as_json else render_runs(rows))


@app.command("rollback")
@one_line_errors
def rollback_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    to: str = typer.Option(..., "--to", help="run id to go back to (see `arborwiki versions`)"),
    as_json: bool = typer.Option(False, "--json", help="print the new run as JSON"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Restore every table to a run's versions, as one switch readers follow (a new run).
    What a tombstone names is forgotten again at once (the config's extractor rebuilds a
    user who keeps other messages)."""
    from arborwiki.jobs.versions import render_rollback, rollback

    row = rollback(store, to, config_from(config, set))
    print(json.dumps(row, indent=2) if as_json else render_rollback(row))


MessageOpt = typer.Option(
    None, "--message", "-m", help="forget only this source message (repeatable)"
)


@app.command("forget")
@one_line_errors
def forget_cmd(
    store: str = typer.Option(..., "--store", "-s"),
    user: str = typer.Option(..., "--user", "-u", help="the user to forget (or whose messages)"),
    message: list[str] | None = MessageOpt,
    as_json: bool = typer.Option(False, "--json", help="print what was removed as JSON"),
    undo: bool = typer.Option(
        False, "--undo", help="drop the tombstone: the next build of the archive stores it again"
    ),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Remove a user, or some of their messages, and everything built from them, from every
    table and every retained version (older versions are deleted; a run is recorded). A
    tombstone keeps them out of every later build and nightly until `--undo`."""
    from arborwiki.jobs.forget import forget, render_forget, unforget

    if undo:
        done = unforget(store, user, message or [])
        text = f"tombstones removed: {done['tombstones_removed']} (user {user!r})"
        print(json.dumps(done) if as_json else text)
        return
    report = forget(store, user, message or [], config_from(config, set))
    print(json.dumps(report, indent=2) if as_json else render_forget(report))


evaluate_app = typer.Typer(no_args_is_help=True, help="Benchmarks against gold evidence.")
app.add_typer(evaluate_app, name="evaluate")


@evaluate_app.command("locomo")
@one_line_errors
def evaluate_locomo_cmd(
    file: str = typer.Argument(..., help="a LoCoMo-format JSON file"),
    out: str = typer.Option(..., "--out", "-o", help="directory for metrics.json and report.md"),
    budgets: str = typer.Option("1000,2700,4000", help="comma-separated token budgets"),
    k: int | None = typer.Option(None, help="trajectories selected (default query.k)"),
    store: str | None = typer.Option(None, help="reuse or build this store (default OUT/store)"),
    variants: str | None = typer.Option(
        None, help="comma-separated variants (default: all but the ablations); 'all' adds them"
    ),
    reuse_store: bool = typer.Option(
        False, help="evaluate --store as it is, without a build (its build settings apply)"
    ),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Gold-evidence coverage of arborwiki vs ablations and flat baselines, per budget."""
    _evaluate(file, out, budgets, k, store, variants, config, set, reuse_store)


@evaluate_app.command("long")
@one_line_errors
def evaluate_long_cmd(
    file: str = typer.Argument(..., help="a LoCoMo-format JSON file (e.g. the dev file)"),
    out: str = typer.Option(..., "--out", "-o", help="directory for the set, metrics, report"),
    merge_turns: int = typer.Option(8, help="consecutive turns merged into one long message"),
    budgets: str = typer.Option("1000,2700,8000", help="comma-separated token budgets"),
    k: int | None = typer.Option(None, help="trajectories selected (default query.k)"),
    store: str | None = typer.Option(None, help="reuse or build this store (default OUT/store)"),
    variants: str | None = typer.Option(None, help="as for `evaluate locomo`"),
    only_write: bool = typer.Option(False, help="write OUT/long_archive.json and stop"),
    reuse_store: bool = typer.Option(False, help="as for `evaluate locomo`"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """The long-archive dev set: every sample of FILE joined into one owner (sessions by
    date, ids kept unique, gold ids mapped), written to OUT/long_archive.json, evaluated."""
    from arborwiki.jobs.evaluate import write_long_archive

    made = write_long_archive(
        file, f"{out}/long_archive.json", merge_turns, config_from(config, set)
    )
    print(
        f"long archive: {made['messages']} messages, {made['tokens']} tokens, "
        f"{made['questions']} questions -> {made['file']}"
    )
    if not only_write:
        _evaluate(made["file"], out, budgets, k, store, variants, config, set, reuse_store)


ByOpt = typer.Option(
    None,
    "--by",
    help="a labelling: a label column, or columns joined by commas (repeatable; default "
    "'domain' and 'dialogue,domain'); localize is scored on the first",
)


@evaluate_app.command("threads")
@one_line_errors
def evaluate_threads_cmd(
    archive: str = typer.Argument(..., help="the archive (any format `build` reads)"),
    labels: str = typer.Argument(..., help="JSONL: user_id, message_id and label columns"),
    out: str = typer.Option(..., "--out", "-o", help="directory for metrics.json and report.md"),
    by: list[str] | None = ByOpt,
    localize: str | None = typer.Option(
        None, help="JSONL of live turns (user_id, text, the first labelling's columns)"
    ),
    store: str | None = typer.Option(None, help="reuse or build this store (default OUT/store)"),
    reuse_store: bool = typer.Option(False, help="as for `evaluate locomo`"),
    online: bool = typer.Option(
        False,
        "--online",
        help="replay every session after each user's first through `add` (JSONL archive), "
        "localizing each user turn before it is written (jobs/evaluate_online.py)",
    ),
    users: int | None = typer.Option(None, "--users", help="with --online: the first N users"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """Trajectories and trees against labelled messages (purity, inverse purity, ARI,
    V-measure, with baselines), and `localize` against the nearest-message baseline; with
    --online, `localize` turn by turn as an agent writes."""
    import sys

    from arborwiki.jobs.evaluate_threads import DEFAULT_LABELLINGS, evaluate_threads

    labellings = tuple(by) if by else DEFAULT_LABELLINGS
    if online:
        from arborwiki.jobs.evaluate_online import SCORES, replay_online

        command = "arborwiki " + " ".join(sys.argv[1:])
        found = replay_online(
            archive, labels, out, config_from(config, set), labellings[0], users, command
        )
        for key in ("all", "switch_or_return"):
            row = found[key]
            print(f"{key}: " + ", ".join(f"{s} {row[s]}/{row['turns']}" for s in SCORES))
        print(f"add p50 {found['add_ms'].get('p50')} ms p95 {found['add_ms'].get('p95')} ms")
        print(f"-> {out}/report.md")
        return
    metrics = evaluate_threads(
        archive,
        labels,
        out,
        config_from(config, set),
        labellings,
        localize,
        store,
        reuse_store,
        command="arborwiki " + " ".join(sys.argv[1:]),
    )
    for labelling, block in metrics["labellings"].items():
        t, r = block["mean"]["trajectories"], block["mean"]["trees"]
        print(
            f"{labelling}: trajectories ARI {t['ari']:.3f} purity {t['purity']:.3f} "
            f"({t['groups']:.1f}/user); trees ARI {r['ari']:.3f} purity {r['purity']:.3f}"
        )
    if "localize" in metrics:
        loc = metrics["localize"]
        print(
            f"localize {loc['correct']}/{loc['turns']} (NEW {loc['new']}); "
            f"TF-IDF-nearest message {loc['baseline_correct']}/{loc['turns']}"
        )
    print(f"-> {out}/report.md")


@evaluate_app.command("beliefs")
@one_line_errors
def evaluate_beliefs_cmd(
    archive: str = typer.Argument(..., help="the archive (any format `build` reads)"),
    labels: str = typer.Argument(..., help="JSON: labelled changes (benchmarks/beliefs.py)"),
    out: str = typer.Option(..., "--out", "-o", help="directory for metrics.json and report.md"),
    store: str | None = typer.Option(None, help="reuse or build this store (default OUT/store)"),
    reuse_store: bool = typer.Option(False, help="as for `evaluate locomo`"),
    config: str | None = ConfigOpt,
    set: list[str] | None = SetOpt,
) -> None:
    """The claim lifecycle on labelled belief changes: change-event recall and precision,
    current value stated, old value stated as current, `history` top 3, per phrasing."""
    import sys

    from arborwiki.jobs.evaluate_beliefs import evaluate_beliefs

    m = evaluate_beliefs(
        archive,
        labels,
        out,
        config_from(config, set),
        store,
        reuse_store,
        command="arborwiki " + " ".join(sys.argv[1:]),
    )
    print(
        f"changes={m['changes']} event recall {m['event_recall']} precision "
        f"{m['event_precision']} current {m['current_stated']} stale {m['stale_as_current']} "
        f"history top3 {m['history_top3']} false updates {m['false_updates']}/{m['probes']}"
        f" -> {out}/report.md"
    )


def _evaluate(
    file: str,
    out: str,
    budgets: str,
    k: int | None,
    store: str | None,
    variants: str | None,
    config: str | None,
    overrides: list[str] | None,
    reuse_store: bool = False,
) -> None:
    import sys

    from arborwiki.core.evaluation.variants import ALL_VARIANTS, VARIANTS
    from arborwiki.jobs.evaluate import evaluate_locomo

    cfg = config_from(config, overrides)
    if k:
        cfg.query.k = k
    sizes = [int(b) for b in budgets.split(",") if b.strip()]
    if not sizes or min(sizes) <= 0:
        raise ValueError(f"budgets must be positive integers, got {budgets!r}")
    chosen = (
        ALL_VARIANTS
        if variants == "all"
        else tuple(v.strip() for v in variants.split(",") if v.strip())
        if variants
        else VARIANTS
    )
    unknown = sorted(set(chosen) - set(ALL_VARIANTS))
    if unknown or "arborwiki" not in chosen:
        raise ValueError(f"variants must include arborwiki and be among {', '.join(ALL_VARIANTS)}")
    command = "arborwiki " + " ".join(sys.argv[1:])
    metrics = evaluate_locomo(
        file, out, sizes, cfg, store, variants=chosen, command=command, reuse_store=reuse_store
    )
    best = metrics["variants"]["arborwiki"]
    line = " ".join(f"@{b}={best[str(b)]['all']['gold_ref_cov']:.3f}" for b in sizes)
    print(f"questions={metrics['questions']} arborwiki gold_ref_cov {line} -> {out}/report.md")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
