"""What every entry point shares: config loading and one-line errors instead of tracebacks."""

from __future__ import annotations

import contextlib
import functools
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import typer
from pydantic import ValidationError
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from arborwiki.core.config import Config, load_config
from arborwiki.core.errors import InputError

F = TypeVar("F", bound=Callable[..., Any])

ConfigOpt = typer.Option(None, "--config", "-c", help="YAML config (default configs/default.yaml)")
SetOpt = typer.Option(None, "--set", help="override, e.g. --set query.k=10 (repeatable)")
FormatOpt = typer.Option(
    None,
    "--format",
    "-f",
    help="archive format of every input file: jsonl, parquet, locomo or json "
    "(default: by suffix; a .json by content)",
)


def config_from(path: str | None, overrides: list[str] | None) -> Config:
    """The config; a renamed or retired setting it names is one line on stderr
    (`warning: query.routed_hits is deprecated: use query.added_hits`), not a source line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", FutureWarning)
        cfg = load_config(path, overrides or [])
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    return cfg


def one_line_errors(func: F) -> F:
    """Bad input → `error: <reason>` on stderr and exit code 2; bugs still show a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            check_text_arguments(kwargs)
            return func(*args, **kwargs)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            kind = "request" if exc.title.endswith("Request") else "config"  # core/query/requests
            _fail(f"invalid {kind}: {where}: {first['msg']}")
        except KeyError as exc:  # str() of a KeyError is the repr of its key: unquote it
            _fail(str(exc.args[0]) if exc.args else "missing key")
        except (InputError, FileNotFoundError, ValueError, RuntimeError) as exc:
            cause = remote_cause(exc)
            if cause is None:
                _fail(str(exc))
            if isinstance(cause, (InputError, FileNotFoundError, ValueError)):
                _fail(str(cause))
            raise  # a bug in a Ray task: its traceback, not the first line of Ray's wrapper

    return wrapper  # type: ignore[return-value]


def remote_cause(exc: BaseException) -> BaseException | None:
    """What a Ray task raised, under Ray's wrapper (a RayTaskError subclasses the cause's
    type, so it lands here, but its text is a multi-line traceback); None when `exc` did not
    come from a task."""
    cause = getattr(exc, "cause", None)
    while isinstance(getattr(cause, "cause", None), BaseException):
        cause = cause.cause  # type: ignore[union-attr]
    return cause if isinstance(cause, BaseException) else None


def check_text_arguments(arguments: dict[str, Any]) -> None:
    """Reject an argument with bytes that are not UTF-8 (Python keeps them as lone surrogates).

    Such a string fails deep inside (tokenizer, Arrow, JSON) with a TypeError traceback;
    here it is one line naming the argument.
    """
    for name, value in arguments.items():
        for text in value if isinstance(value, list | tuple) else [value]:
            if isinstance(text, str) and not _utf8(text):
                raise ValueError(f"{name} is not valid UTF-8 text ({text!r})")


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fail(message: str) -> None:
    print(f"error: {message.splitlines()[0] if message else 'failed'}", file=sys.stderr)
    raise typer.Exit(2)


@contextlib.contextmanager
def shard_progress() -> Iterator[Callable[[int, int], None]]:
    """A transient progress bar over shards (stderr); yields the build's progress callback."""
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    ) as bar:
        task = bar.add_task("shards", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def print_failures(failures: list[dict[str, Any]]) -> None:
    """One stderr line per user whose build failed."""
    for failure in failures:
        print(
            f"failed: user {failure['user_id']!r} at {failure['stage']}: {failure['error']}",
            file=sys.stderr,
        )


def print_input_notes(summary: Any) -> None:
    """One stderr line per input file that was not built from: unreadable (quarantined
    whole) or skipped (no archive format claims it)."""
    for path, why in sorted(summary.unreadable_files.items()):
        print(f"unreadable: {path}: {why} (one quarantine row)", file=sys.stderr)
    for path in summary.skipped_files:
        print(f"skipped: {path} (not an archive format: .jsonl[.gz|.zst], .parquet, .json)",
              file=sys.stderr)  # fmt: skip
