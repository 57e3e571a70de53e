"""File names, anchors and colours for ids: any id (hostile or not) becomes a safe name."""

from __future__ import annotations

import colorsys
import hashlib
import re

from arborwiki.core.wiki.text import slugify

_SAFE = re.compile(r"[A-Za-z0-9_-]{1,80}")


def _digest(value: str, size: int = 4) -> str:
    return hashlib.blake2b(value.encode(), digest_size=size).hexdigest()


def safe_name(value: str) -> str:
    """The id itself when it is a plain token, else slug + hash: never a path separator,
    never a dot segment, and two different ids never share a name in practice."""
    if _SAFE.fullmatch(value):
        return value
    return f"{slugify(value)[:48]}-{_digest(value)}"


def colour_for(trajectory_id: str) -> str:
    """A stable, readable colour per trajectory (hue from the id's hash)."""
    hue = int(_digest(trajectory_id, 2), 16) / 0xFFFF
    r, g, b = colorsys.hls_to_rgb(hue, 0.42, 0.62)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
