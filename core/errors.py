"""Errors that mean "the input or the request is wrong": the CLI shows them as one line."""

from __future__ import annotations


class InputError(Exception):
    """Bad input the user must fix (a path, an archive, a store, an argument): exit code 2."""
