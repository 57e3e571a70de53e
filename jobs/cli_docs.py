"""docs/cli.md, generated from the typer app (`jobs/cli.py`): every command with its
arguments, options and help as `--help` prints them. A test keeps the committed page equal
to this output (`python scripts/write_cli_docs.py` rewrites it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

HEADER = """\
# Command line

Generated from the typer app in `jobs/cli.py` by `python scripts/write_cli_docs.py`; a
test keeps this page equal to its output, so edit the commands' docstrings and help texts,
not this file. Every command also takes `--help`. `--config FILE` (YAML, default
`configs/default.yaml`) and `--set section.key=value` (repeatable) are the settings of
[`configs/default.yaml`](../configs/default.yaml), described in [`config.md`](config.md).
"""


def commands(app: typer.Typer) -> Iterator[tuple[str, Any, typer.Context]]:
    """(command path, command, its context) for every command and group, in the order
    `--help` lists them; the root (`arborwiki`) first."""
    root = typer.main.get_command(app)

    def walk(cmd: Any, ctx: typer.Context) -> Iterator[tuple[str, Any, typer.Context]]:
        yield ctx.command_path, cmd, ctx
        for name in getattr(cmd, "list_commands", lambda _: [])(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from walk(sub, typer.Context(sub, info_name=name, parent=ctx))

    yield from walk(root, typer.Context(root, info_name="arborwiki"))


def flags(cmd: Any) -> list[str]:
    """Every option string of a command (`--store`, `-s`, `--no-reuse-store`, …)."""
    return [o for p in cmd.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _usage(path: str, cmd: Any) -> str:
    arguments = [p.name.upper() for p in cmd.params if not any(o.startswith("-") for o in p.opts)]
    sub = " COMMAND [ARGS]..." if hasattr(cmd, "list_commands") else ""
    return " ".join([path, "[OPTIONS]", *arguments]) + sub


def _section(path: str, cmd: Any, ctx: typer.Context) -> list[str]:
    level = "##" if path.count(" ") <= 1 else "###"  # the root and its commands; sub-commands
    lines = [f"{level} `{path}`", "", (cmd.help or "").strip(), "", "```text", _usage(path, cmd)]
    lines += ["```", ""]
    records = [p.get_help_record(ctx) for p in cmd.params if not p.hidden]
    if records:
        lines += ["| argument or option | help |", "|---|---|"]
        lines += [f"| `{_cell(names)}` | {_cell(text)} |" for names, text in records if names]
        lines.append("")
    if hasattr(cmd, "list_commands"):
        subs = [(n, cmd.get_command(ctx, n)) for n in cmd.list_commands(ctx)]
        lines += ["| command | what it does |", "|---|---|"]
        lines += [
            f"| [`{path} {n}`](#{_anchor(f'{path} {n}')}) | {_cell(sub.get_short_help_str(200))} |"
            for n, sub in subs
            if sub is not None and not sub.hidden
        ]
        lines.append("")
    return lines


def _anchor(path: str) -> str:
    """GitHub's anchor of the heading `` `path` ``: lower case, spaces to hyphens."""
    return "".join(c for c in path.lower() if c.isalnum() or c in " -_").replace(" ", "-")


def render(app: typer.Typer) -> str:
    lines = [HEADER]
    for path, cmd, ctx in commands(app):
        lines += _section(path, cmd, ctx)
    return "\n".join(lines).rstrip("\n") + "\n"
