"""Who may ask the HTTP ingress: the Host and Origin a request names, its bearer token, its size.

Why every route: the memory of every user sits behind the same port. A page on any web site
can make a browser send requests to 127.0.0.1 by rebinding its own name to it (DNS
rebinding); such a request names the attacker's Host, so a Host that is not one of this
server's names is refused (421) on every route, and so is a foreign Origin (403). Beyond
loopback anyone who reaches the port may ask, so there a bearer token is required
(`arborwiki serve --token-file FILE`, or `ARBORWIKI_TOKEN`); on loopback it is opt-in. The
token reaches the cluster only as its SHA-256 digest (a Serve deployment's arguments are
kept by its controller). `Authorization: Basic` with the token as password is accepted too,
so a browser asks for it on `/ui` (any user name). `/health` answers without a token (probes
hold none) but not to a foreign Host. Bodies larger than a request can be (`MAX_BODY_BYTES`)
are refused (413) before any route reads them. Every refusal is a JSON `{"error": ...}`.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import ipaddress
import json
import os
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from arborwiki.core.errors import InputError

TOKEN_ENV = "ARBORWIKI_TOKEN"
MIN_TOKEN_CHARS = 16
"""A shorter token is guessable by anyone who can send requests (`openssl rand -hex 32`
makes a good one)."""
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
OPEN_PATHS = frozenset({"/health"})
"""Answered without a token: liveness probes hold none, and it tells nothing of any user."""
MAX_BODY_BYTES = 64 * 1024
"""Far above any request that validates (a 1,024-character user id and an 8,000-character
text, even with every character escaped as \\uXXXX, are under 60 KB): a larger body is
refused before anything reads it into memory."""
DRAIN_BYTES = 16 * MAX_BODY_BYTES
"""How much of a body over the limit is read and dropped before the 413 (see `read_body`)."""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def read_token(
    token_file: str | None, environ: MutableMapping[str, str] = os.environ
) -> str | None:
    """The token from `token_file`, else from `ARBORWIKI_TOKEN`; None when neither is given."""
    if token_file is not None:
        try:
            token = Path(token_file).expanduser().read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read the token file {token_file}: {err}") from err
        where = f"the token file {token_file}"
    elif environ.get(TOKEN_ENV):
        token, where = environ[TOKEN_ENV].strip(), TOKEN_ENV
    else:
        return None
    if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
        raise InputError(
            f"{where} must hold one token of at least {MIN_TOKEN_CHARS} characters and no "
            "spaces (make one with `openssl rand -hex 32`)"
        )
    return token


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def machine_names() -> set[str]:
    """The names and addresses this machine answers to (for a wildcard bind)."""
    names = {socket.gethostname(), socket.getfqdn()}
    with contextlib.suppress(OSError):
        names.update(socket.gethostbyname_ex(socket.gethostname())[2])
    return {n.lower() for n in names if n}


@dataclass(frozen=True)
class Access:
    """The rules of one ingress; built on the driver, checked in every Serve replica."""

    hosts: frozenset[str]  # Host names (no port) this server answers to; "*": any
    token_digest: str | None  # SHA-256 of the bearer token; None: no token needed

    @classmethod
    def for_bind(
        cls, bind_host: str, token: str | None, allow_hosts: list[str] | tuple[str, ...] = ()
    ) -> Access:
        """Loopback: its names; a wildcard bind: this machine's names and addresses; a
        named address: that one; plus `allow_hosts` (the name a proxy or DNS gives it).
        Beyond loopback a token is required."""
        if not is_loopback(bind_host) and token is None:
            raise InputError(
                f"HTTP on {bind_host or '0.0.0.0'} is reachable from other machines: give a "
                f"bearer token (--token-file FILE or {TOKEN_ENV}), or bind 127.0.0.1"
            )
        hosts = set(LOOPBACK_NAMES) | {h.lower().strip("[]") for h in allow_hosts}
        if is_wildcard(bind_host):
            hosts |= machine_names()
        elif not is_loopback(bind_host):
            hosts.add(bind_host.lower().strip("[]"))
        return cls(frozenset(hosts), None if token is None else digest(token))

    def host_allowed(self, host_header: str | None) -> bool:
        if "*" in self.hosts:
            return True
        return host_header is not None and host_name(host_header) in self.hosts

    def origin_allowed(self, origin: str | None) -> bool:
        """No Origin (not a browser's cross-site call) passes; else its host must be ours."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        return "*" in self.hosts or parts.hostname.lower() in self.hosts

    def authorized(self, authorization: str | None) -> bool:
        if self.token_digest is None:
            return True
        given = presented_token(authorization)
        return given is not None and hmac.compare_digest(digest(given), self.token_digest)


def host_name(host_header: str) -> str:
    """ "Example.org:8000" → "example.org"; "[::1]:8000" → "::1"."""
    value = host_header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def presented_token(authorization: str | None) -> str | None:
    """The token of `Bearer TOKEN`, or the password of `Basic base64(user:TOKEN)`."""
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() == "bearer":
        return value.strip() or None
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None
        return decoded.partition(":")[2] or None
    return None


class Guard:
    """ASGI middleware: open requests, Host, Origin, token and body size, checked before any
    route runs (beyond `limit()` open requests: 503).

    The rules come from `rules()` at each request: a Serve replica's constructor sets them
    after the app (and this middleware) was built. With none set, every request is refused
    (503): a replica never serves unguarded."""

    def __init__(
        self, app: Asgi, rules: Callable[[], Access | None], limit: Callable[[], int | None]
    ) -> None:
        self.app, self.rules, self.limit = app, rules, limit
        self.open = 0  # requests being answered now (one event loop: no lock needed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = self.limit()
        if most is not None and self.open >= most:
            await respond(send, 503, f"busy: {most} requests open at once; try again")
            return
        self.open += 1
        try:
            await self.checked(scope, receive, send)
        finally:
            self.open -= 1

    async def checked(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope.get("path", ""), headers)
        if refusal is not None:
            await respond(send, *refusal)
            return
        if (int_or_none(headers.get("content-length")) or 0) > MAX_BODY_BYTES:
            await respond(send, 413, f"request body over {MAX_BODY_BYTES} bytes")
            return
        if scope.get("method") in ("POST", "PUT", "PATCH"):
            body = await read_body(receive)
            if body is None:
                await respond(send, 413, f"request body over {MAX_BODY_BYTES} bytes")
                return
            receive = replay(body, receive)
        await self.app(scope, receive, send)

    def refusal(self, path: str, headers: dict[str, str]) -> tuple[int, str, dict[str, str]] | None:
        access = self.rules()
        if access is None:
            return 503, "not ready: the ingress has no access rules yet", {}
        if not access.host_allowed(headers.get("host")):
            return 421, "refused: the Host header does not name this server", {}
        if not access.origin_allowed(headers.get("origin")):
            return 403, "refused: requests from another site's pages are not answered", {}
        if path not in OPEN_PATHS and not access.authorized(headers.get("authorization")):
            scheme = "Basic" if path.startswith("/ui") else "Bearer"
            challenge = {"www-authenticate": f'{scheme} realm="arborwiki"'}
            return 401, "a valid bearer token is required (Authorization: Bearer TOKEN)", challenge
        return None


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


async def read_body(receive: Receive) -> bytes | None:
    """The whole body (None: it passed `MAX_BODY_BYTES`). A body over the limit is still read
    and dropped up to `DRAIN_BYTES`, so a client that sends a chunked body a little too large
    reads the 413 rather than a connection reset mid-send; past that the connection is cut."""
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        more = message.get("more_body", False)
        if size > DRAIN_BYTES:
            return None
        if size <= MAX_BODY_BYTES:
            chunks.append(chunk)
    return b"".join(chunks) if size <= MAX_BODY_BYTES else None


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the route the body read already, then listens on."""
    sent = False

    async def again() -> MutableMapping[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def respond(
    send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    payload = json.dumps({"error": message}, ensure_ascii=True).encode("ascii")
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    raw += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": payload})
