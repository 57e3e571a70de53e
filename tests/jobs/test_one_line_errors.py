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
