"""Bad input is one line on stderr, exit code 2, the message as written (quotes kept)."""

from __future__ import annotations

import pytest
import typer

from arborwiki.jobs.common import one_line_errors


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            ValueError("store /s holds no messages of user 'nobody'"),
            "store /s holds no messages of user 'nobody'",
        ),
        (KeyError("no such table: 'runs'"), "no such table: 'runs'"),
        (
            FileNotFoundError("archive not found: /a.jsonl\nmore detail"),
            "archive not found: /a.jsonl",
        ),
    ],
)
def test_the_error_line_is_the_message(
    error: Exception, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    @one_line_errors
    def command() -> None:
        raise error

    with pytest.raises(typer.Exit) as exit_info:
        command()
    assert exit_info.value.exit_code == 2
    assert capsys.readouterr().err == f"error: {line}\n"


def _raises(error: Exception) -> None:
    raise error


def test_bad_input_raised_in_a_ray_task_is_its_own_line_and_a_bug_keeps_its_traceback(
    ray_local: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ray wraps what a task raises in a RayTaskError that subclasses its type and whose text
    is a traceback: the line is the cause's message, and a bug is not cut to one line."""
    import ray

    task = ray.remote(_raises)

    @one_line_errors
    def command(error: Exception) -> None:
        ray.get(task.remote(error))

    with pytest.raises(typer.Exit):
        command(ValueError("row 7 has no user_id"))
    assert capsys.readouterr().err == "error: row 7 has no user_id\n"
    with pytest.raises(RuntimeError) as raised:
        command(RuntimeError("a bug in commit"))
    assert "a bug in commit" in str(raised.value)  # the whole traceback, raised again


def test_a_retired_or_renamed_setting_is_one_warning_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from arborwiki.jobs.common import config_from

    cfg = config_from(None, ["query.global_lead=3", "query.routed_hits=30"])
    assert cfg.query.added_hits == 30
    assert capsys.readouterr().err.splitlines() == [
        "warning: query.global_lead was retired and is ignored",
        "warning: query.routed_hits is deprecated: use query.added_hits",
    ]
