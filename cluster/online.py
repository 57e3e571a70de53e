"""Online writes: an agent's turns stored, placed in the user's forest and served, between builds.

    add(user, rows) ──validate (the batch reader's row rules)──▶ queue
    queue ──one writer at a time (group commit)──▶ tombstone check, idempotency on ids
          ──▶ inbox append (durable: storage/online.py) ──▶ each user placed
          ──▶ the user's rows appended or replaced ──▶ one `online-…` run row
    adds pause ──▶ settle: the users placed live compiled in full ──▶ another run row

Two placements, one after the other. An add places live (core/live.py): when this writer
holds the user's compiled memory as of the current run and the new turns come after every
stored one, only the new turns are cut into windows, drafted, embedded and placed, by the
decision `localize` reports for a live turn, and the lifecycle runs over the user's claims
again; earlier messages, snapshots and nodes do not move, pages stay as they were. The
settle (`settle`, by itself once adds pause for `SETTLE_AFTER_S`) then compiles
each such user from everything it said, by `core.pipeline` with the configured extractor
and embedder, so episodes, threads, branches and roots are exactly what a build of the same
messages places, and pages catch up; a new turn's snapshot and node may change id then
(message ids never do). The settle compiles beside the adds and holds the commit only to
place the turns added meanwhile and replace the user's rows. Any other add (a user this
writer does not hold, a turn dated before the latest stored one) is compiled in full at
once. Users placed live and not yet settled are listed durably (`Unsettled`): a writer that
stops first leaves them to the next build's `fold_online`. Drafts and vectors of windows
and texts seen before come from this writer's memory; a forget (through this writer's
process at once, by another at the next commit) drops what it made of the user's text.
Readers never see half an add: tables are written first and the run row that readers
follow (LanceStore `follow_runs`) is appended last, in one commit.

Adds that arrive while a commit runs wait and go together in the next one (one inbox
commit, one commit per table, one run row for all of them), so a busy store makes a table
version per group, not per message. Online runs are not what `versions` lists or
`keep_runs` counts (storage/versions.py); every `store.online_compact_every` of them the
touched tables are compacted and their indexes brought up to date.
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import json
import logging
import threading
import time
import uuid
import weakref
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa

from arborwiki.backends.extractors import build_labeled_extractor
from arborwiki.cluster.stages import caches_vectors, embedder_identity, extraction_cache, uses_cache
from arborwiki.core.cached_embedder import CachedEmbedder
from arborwiki.core.config import Config
from arborwiki.core.embedding import embedder_for
from arborwiki.core.extract.base import Extraction, LabeledExtractor
from arborwiki.core.forest.forest import Forest
from arborwiki.core.live import LiveMemory
from arborwiki.core.pipeline import compile_with_forest, user_windows
from arborwiki.core.records import Message, QuarantineRow, RunRecord, UserMemory, Window
from arborwiki.storage import tombstones
from arborwiki.storage.archive.rows import RowValidator
from arborwiki.storage.embed_cache import EmbedCache
from arborwiki.storage.forget import stored_messages
from arborwiki.storage.lance_store import LanceStore, sql_in
from arborwiki.storage.online import RUN_PREFIX, Inbox, Unsettled, writer_lock
from arborwiki.storage.tables import USER_TABLES, memory_tables

MAX_ROWS_PER_ADD = 1000
log = logging.getLogger(__name__)
__all__ = ["RUN_PREFIX", "AddReport", "OnlineWriter", "fold_online", "validate_rows"]
MEMO_ENTRIES = 200_000
"""Drafts and vectors this writer keeps in memory (each a few KB at most)."""
LIVE_USERS = 16
"""Users whose compiled memory this writer keeps between adds (the ones written to last):
an add of one of them places only its new turns (core/live.py)."""
SETTLE_AFTER_S = 0.5
"""Seconds without an add before the writer settles the users it placed live (an agent's
turns come seconds apart: the settle runs between them); under adds that never pause, ten
times this at most."""
APPENDED = ("messages", "snapshots", "forest_nodes")
"""The tables a live add appends to (its rows are new); the others it rewrites for the user,
except the pages, which wait for the settle."""
FREEZE_AFTER = 1000
"""Drafts and vectors newly kept since the last freeze that make a commit end with one full
collection and `gc.freeze()` (see `_freeze_caches`)."""


@dataclass
class AddReport:
    """What one add did: the ids it stored now, those the store already held (an add is
    idempotent on (user, message id)), and the run that published them."""

    user_id: str
    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    run_id: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Add:
    user_id: str
    messages: list[Message]
    defaulted: set[int]  # positions whose turn_index the writer numbers
    done: threading.Event = field(default_factory=threading.Event)
    report: AddReport | None = None
    error: Exception | None = None


class _Memo:
    """A bounded least-recently-used map (drafts by window digest), each entry with the
    user whose text it was made of, so a forget can drop that user's."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> Any | None:
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[1]

    def put(self, key: str, value: Any, owner: str) -> None:
        self._items[key] = (owner, value)
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def drop_owner(self, owner: str) -> None:
        for key in [k for k, (who, _) in self._items.items() if who == owner]:
            del self._items[key]

    def owners(self) -> set[str]:
        return {who for who, _ in self._items.values()}


def validate_rows(user_id: str, rows: list[dict[str, Any]]) -> tuple[list[Message], set[int]]:
    """The batch reader's row rules (storage/archive/rows.py) on an add's rows: the user id
    is the call's (a row naming another user is refused), a missing timestamp is now, a
    missing message id a digest of the row. Refused rows raise one ValueError naming them;
    nothing of the add is stored then. Also returns the rows without a turn_index."""
    if not user_id or not isinstance(user_id, str):
        raise ValueError("user_id must be a non-empty string")
    if not rows:
        raise ValueError("an add needs at least one message")
    if len(rows) > MAX_ROWS_PER_ADD:
        raise ValueError(f"an add holds at most {MAX_ROWS_PER_ADD} messages (got {len(rows)})")
    validator = RowValidator()
    out: list[Message] = []
    defaulted: set[int] = set()
    problems: list[str] = []
    now = datetime.now(UTC).isoformat()
    for i, given in enumerate(rows):
        if not isinstance(given, dict):
            problems.append(f"message {i}: not an object")
            continue
        row = dict(given)
        if row.get("user_id") not in (None, user_id):
            problems.append(f"message {i}: user_id {row['user_id']!r} is not {user_id!r}")
            continue
        row["user_id"] = user_id
        row.setdefault("timestamp", now)
        if row.get("message_id") in (None, ""):
            digest = hashlib.blake2b(repr(sorted(row.items())).encode(), digest_size=8)
            row["message_id"] = f"online-{digest.hexdigest()}"
        if row.get("turn_index") is None:
            defaulted.add(i)
        result = validator.validate(row, "online add", f"message {i}")
        if isinstance(result, QuarantineRow):
            problems.append(f"message {i}: {result.reason}")
        else:
            out.append(result)
    if problems:
        raise ValueError("refused, nothing stored: " + "; ".join(problems[:5]))
    return out, defaulted


class OnlineWriter:
    """Adds to one store, group-committed (see the module doc). Thread-safe; one per
    process and store is enough (the writer lock orders processes)."""

    def __init__(self, store_path: str, cfg: Config, settle_after: float = SETTLE_AFTER_S) -> None:
        self.store_path = store_path
        self.cfg = cfg
        self.settle_after = settle_after
        self._queue: list[_Add] = []
        self._queue_lock = threading.Lock()
        self._commit_lock = threading.Lock()
        self._draft_lock = threading.Lock()  # the drafts memo and the extractor
        self._adding = 0  # adds between queued and committed (a settle steps aside)
        self._aside_until = 0.0  # until when the settle in progress steps aside
        self._drafts = _Memo(MEMO_ENTRIES)
        self._vectors: dict[str, Any] = {}
        self._extractor: LabeledExtractor | None = None
        self._draft_cache = extraction_cache(cfg, store_path) if uses_cache(cfg) else None
        self._vector_cache: EmbedCache | None = None  # opened at the first compile (its dim)
        self._seeded: set[str] = set()  # users whose cached vectors this writer has read
        self.made: Counter[str] = Counter()
        """Windows drafted and texts embedded by this writer ("drafted", "embedded"), and
        those read from the build's caches instead ("cached drafts", "cached vectors")."""
        self._live: dict[str, tuple[str, LiveMemory]] = {}  # user: (run it is true at, memory)
        self._to_settle: set[str] = set()
        self._last_add = 0.0
        self._settle_wake = threading.Event()
        self._closed = threading.Event()
        atexit.register(_close_at_exit, weakref.ref(self))
        self._settler: threading.Thread | None = None
        self.settle_error: Exception | None = None
        """Why the latest background settle failed (None: it did not); the users stay
        listed for the next settle or build (storage/online.py `Unsettled`)."""
        self._kept_at_freeze = 0
        self.commits = 0
        self._forgets_seen = tombstones.Tombstones()
        """The tombstones as of this writer's latest commit: a forget since, by any process,
        drops what this writer made of that user's text (`_drop_user`)."""

    def add(self, user_id: str, rows: list[dict[str, Any]]) -> AddReport:
        """Store, place and publish `rows` as `user_id`'s messages; returns once they are
        durable and readers following runs can see them. ValueError: refused, nothing
        stored (a bad row, a forgotten user or message, no built store)."""
        started = time.perf_counter()
        messages, defaulted = validate_rows(user_id, rows)
        request = _Add(user_id, messages, defaulted)
        with self._queue_lock:
            self._queue.append(request)
            self._adding += 1
        try:
            with self._commit_lock:
                if not request.done.is_set():
                    with self._queue_lock:
                        batch, self._queue = self._queue, []
                    self._commit(batch)
        finally:
            with self._queue_lock:
                self._adding -= 1
        if request.error is not None:
            raise request.error
        assert request.report is not None
        request.report.seconds = round(time.perf_counter() - started, 4)
        return request.report

    def forgot(self, user_id: str) -> None:
        """A forget of `user_id` (all or some of their messages) ran in this process: hold
        nothing made of their text from now, not only from the next commit on."""
        with self._commit_lock:
            self._drop_user(user_id)

    def _drop_user(self, user_id: str) -> None:
        """The user's live memory and drafts go, and every vector: a vector is keyed by its
        text's digest, not by whose text it was (the next compile embeds again, or reads
        the build's cache, which the forget cleared of the user). Under the commit lock."""
        self._live.pop(user_id, None)
        with self._draft_lock:
            self._drafts.drop_owner(user_id)
        self._vectors = {}
        self._seeded = set()

    def _freeze_caches(self) -> None:
        """Freeze what this writer keeps once it has grown by `FREEZE_AFTER` entries. A
        user's history drafted and embedded cold leaves ~200K long-lived objects that every
        full collection would scan again: about one warm add in two paid 170-260 ms for it
        (2,000-message user, 2-core box). Collected once here and frozen, they are out of the
        cyclic collector's reach (refcounting still frees what the caches drop), so warm adds
        only collect their own garbage. Paid on the add that grew the caches: a cold one."""
        held = sum(len(live.memory.messages) for _, live in self._live.values())
        kept = len(self._drafts) + len(self._vectors) + held
        if kept - self._kept_at_freeze < FREEZE_AFTER:
            return
        gc.collect()
        gc.freeze()
        self._kept_at_freeze = kept

    # ------------------------------------------------------------------ commit
    def _commit(self, batch: list[_Add]) -> None:
        try:
            with writer_lock(self.store_path):
                self._commit_locked(batch)
        except Exception as exc:  # every waiter learns why; none is left hanging
            self._live.clear()  # a live memory may hold turns the store does not
            for request in batch:
                if not request.done.is_set():
                    request.error = exc
        finally:
            for request in batch:
                request.done.set()
        self._freeze_caches()

    def _open(self) -> tuple[LanceStore, dict[str, Any] | None]:
        """The store and its latest run (None: nothing committed yet), with what a writer
        killed mid-commit left discarded (not ours to publish). Under the writer lock."""
        store = LanceStore(self.store_path, create=False)
        previous = store.latest_run()
        if previous is not None:
            store.discard_uncommitted(previous)
            self._catch_up(store, previous["run_id"])
        return store, previous

    def _catch_up(self, store: LanceStore, run_id: str) -> None:
        """Carry the live memories this writer holds to `run_id` across the runs that did
        not rewrite their user (another writer's adds and settles of other users, from
        another process or query replica; a forget of another user; a nightly that rebuilt
        others); drop the rest (a full build or a rollback, a nightly that rebuilt their
        user, a forget of their user, another writer's add to them).
        Without it, any run this writer did not write made every user's next add a full
        compile."""
        stale = {at for at, _ in self._live.values() if at != run_id}
        rewritten = {at: store.users_rewritten_since(at) for at in stale}
        for user, (at, memory) in list(self._live.items()):
            if at == run_id:
                continue
            changed = rewritten[at]
            if changed is None or user in changed:
                del self._live[user]
            else:
                self._live[user] = (run_id, memory)

    def _commit_locked(self, batch: list[_Add]) -> None:
        store, previous = self._open()
        if previous is None:
            raise ValueError(f"store {self.store_path} has no committed run: build it first")
        stones = tombstones.load(self.store_path)
        for user in tombstones.newly_forgotten(self._forgets_seen, stones):
            self._drop_user(user)  # a forget by another process, or one this one missed
        self._forgets_seen = stones
        inbox = Inbox(store)
        known: dict[str, dict[str, Message]] = {}
        fresh: dict[str, list[Message]] = defaultdict(list)
        accepted: list[_Add] = []
        for request in batch:
            user = request.user_id
            if (error := _forgotten(stones, request)) is not None:
                request.error = error
                request.done.set()
                continue
            if user not in known:
                known[user] = self._held(store, inbox, previous, user)
            request.report = AddReport(user)
            _number_turns(request, known[user])
            for message in request.messages:
                if message.message_id in known[user]:
                    request.report.already.append(message.message_id)
                else:
                    known[user][message.message_id] = message
                    fresh[user].append(message)
                    request.report.added.append(message.message_id)
            accepted.append(request)
        if not fresh:
            return
        inbox.append([m for ms in fresh.values() for m in ms])  # durable from here on
        live = {u: ms for u, ms in fresh.items() if self._follows(u, previous["run_id"], ms)}
        full = {u: _unforgotten(stones, u, known[u].values()) for u in fresh if u not in live}
        if live:
            Unsettled(self.store_path).add(live)
        run_id = self._publish(store, previous, full, live)
        for request in accepted:
            assert request.report is not None
            request.report.run_id = run_id if request.report.added else ""
        self._last_add = time.monotonic()
        if live:
            self._schedule_settle(set(live))

    def _follows(self, user: str, run_id: str, new: list[Message]) -> bool:
        """Whether an add of `new` can be placed live: this writer holds the user's memory
        as of `run_id` (nothing else rewrote the user since: `_catch_up`) and `new` only
        appends turns."""
        at, live = self._live.get(user, ("", None))
        return live is not None and at == run_id and live.follows(new)

    def _held(
        self, store: LanceStore, inbox: Inbox, current: dict[str, Any], user: str
    ) -> dict[str, Message]:
        """The user's stored and inbox messages by id: read from the store, or this writer's
        live memory when it holds the user as of the current run (nothing rewrote the user
        since its own last run: no build, forget, rollback, nor another writer's add to
        it), which skips re-reading a long history on every add."""
        run_id, live = self._live.get(user, ("", None))
        if live is not None and run_id == current["run_id"]:
            return {m.message_id: m for m in live.memory.messages}
        return _stored_then_inbox(store, inbox, user)

    def republish(self, users: list[str]) -> str:
        """Place `users` again from their stored and inbox messages (`fold_online`)."""
        with writer_lock(self.store_path):
            store, previous = self._open()
            if previous is None or not users:
                return ""
            stones, inbox = tombstones.load(self.store_path), Inbox(store)
            everything = {}
            for user in users:
                held = _stored_then_inbox(store, inbox, user)
                if user not in stones.users and held:
                    everything[user] = _unforgotten(stones, user, held.values())
            run_id = (
                self._publish(store, previous, everything, {}, keep=False) if everything else ""
            )
            Unsettled(self.store_path).remove(users)
            return run_id

    # ------------------------------------------------------------------ settle
    def settle(self) -> list[str]:
        """Compile in full, now, every user an add of this writer placed live: a build's
        placement (the new turns may move to another trajectory) and pages brought up to
        date. Returns them. One user a commit, and the compile runs outside the commit:
        adds go on meanwhile and wait only for the settled rows' writes. Runs by itself
        once adds pause (`_settle_loop`)."""
        with self._commit_lock:
            users, self._to_settle = sorted(self._to_settle), set()
        done = []
        for user in users:
            if self._closed.is_set():
                break  # the rest stay listed (`Unsettled`) for the next build
            self._aside_until = time.monotonic() + 10 * self.settle_after
            self._yield_to_adds()
            if not self._settle_aside(user):
                with self._commit_lock:
                    self._settle_user(user)
            done.append(user)
        return done

    def _settle_aside(self, user: str) -> bool:
        """Settle `user` from the live memory this writer holds: compiled with no lock
        held, then, under the commit, the turns added meanwhile placed live on top (the
        user stays to settle again) and the rows replaced. False (nothing published) when
        the writer does not hold the user, or, checked under the commit, it no longer holds
        it as of the current run (`_catch_up`: something other than its own live adds
        rewrote the user meanwhile): the caller settles it from the store, under the
        commit."""
        with self._commit_lock:
            _, live = self._live.get(user, ("", None))
        if live is None:
            return False
        base = live.memory.messages
        cached = _StepAside(self._cached_embedder(), self._yield_to_adds)
        settled = LiveMemory.of(*self._compile(base, cached))
        self._yield_to_adds()
        cached.step_aside = _stay  # from here on the settle holds the commit: adds wait
        with self._commit_lock, writer_lock(self.store_path):
            store, previous = self._open()
            now_at, now_live = self._live.get(user, ("", None))
            if previous is None or now_live is not live or now_at != previous["run_id"]:
                return False  # a build, forget, rollback or full compile came between
            said = {m.message_id for m in base}
            new = [m for m in live.memory.messages if m.message_id not in said]
            if new and not settled.follows(new):
                return False
            if new:
                settled.extend(new, self._drafts_of, self.cfg, cached)  # type: ignore[arg-type]
            self._remember(cached)
            self._publish(store, previous, {}, {}, settled={user: settled})
            if new:  # those turns are placed live on the settled forest: settle them too
                self._schedule_settle({user})
            else:
                Unsettled(self.store_path).remove([user])
        return True

    def _yield_to_adds(self) -> None:
        """Wait while an add is queued or committing: a settle's compile shares the
        interpreter with the adds, so it steps aside between its stages; under adds that
        never pause, for ten times the settle pause at most in all, then it goes on beside
        them (a settle that never ran would leave the forest to live placement alone)."""
        while self._adding and time.monotonic() < self._aside_until:  # queued ones count
            time.sleep(0.002)

    def _settle_user(self, user: str) -> None:
        """The settle of a user this writer does not hold live: read from the store and
        the inbox, compiled under the commit."""
        with writer_lock(self.store_path):
            store, previous = self._open()
            if previous is None:
                return
            stones = tombstones.load(self.store_path)
            if user not in stones.users:
                held = self._held(store, Inbox(store), previous, user).values()
                if messages := _unforgotten(stones, user, held):
                    self._publish(store, previous, {user: messages}, {})
            Unsettled(self.store_path).remove([user])

    def _schedule_settle(self, users: set[str]) -> None:
        self._to_settle |= users
        if self._settler is None or not self._settler.is_alive():
            self._settler = threading.Thread(
                target=self._settle_loop, name="arborwiki-settle", daemon=True
            )
            self._settler.start()
        self._settle_wake.set()

    def close(self, timeout: float = 60.0) -> None:
        """Settle no more: a settle in progress finishes its user (for `timeout` seconds
        at most); users not settled stay listed for the next build (`Unsettled`). Called
        at exit: a process that ends mid-settle must not stop with the store in use."""
        self._closed.set()
        self._settle_wake.set()
        if self._settler is not None and self._settler is not threading.current_thread():
            self._settler.join(timeout)

    def _settle_loop(self) -> None:
        """Settle once no add has come for `settle_after` seconds, or once ten times that
        has passed under adds that never pause (`SETTLE_AFTER_S`); until `close`."""
        quiet, settled_at = self.settle_after, 0.0
        while not self._closed.is_set():
            self._settle_wake.wait()
            self._settle_wake.clear()
            started = time.monotonic()
            # quiet counts from the last settle too: adds slowed by a settle are no pause
            while (idle := time.monotonic() - max(self._last_add, settled_at)) < quiet and (
                time.monotonic() - started < 10 * quiet
            ):
                if self._closed.wait(quiet - idle):
                    return
            try:
                self.settle()
                self.settle_error = None
            except Exception as exc:  # kept for whoever asks; the users stay listed
                log.warning("settle of %s failed: %s", self.store_path, exc)
                self.settle_error = exc
            settled_at = time.monotonic()

    def _publish(
        self,
        store: LanceStore,
        previous: dict[str, Any],
        full: dict[str, list[Message]],
        live: dict[str, list[Message]],
        keep: bool = True,
        settled: dict[str, LiveMemory] | None = None,
    ) -> str:
        """Compile each `full` user from all its messages and replace its rows; place each
        `live` user's new messages in its live memory (core/live.py) and append or replace
        the rows that changed; each `settled` user's memory (compiled by the settle) replaces
        its rows; then append the run row. Every user is kept live (`keep`: a writer that
        adds; a one-off republish keeps none, it would only pay for the placement
        profiles)."""
        started = datetime.now(UTC)
        cached = self._cached_embedder()
        dim = cached.dim
        settled = settled or {}
        replaced: dict[str, list[pa.Table]] = defaultdict(list)
        appended: dict[str, list[pa.Table]] = defaultdict(list)
        owners: dict[str, list[str]] = defaultdict(list)
        kept: dict[str, LiveMemory] = dict(settled)
        for user, messages in full.items():
            memory, forest = self._compile(messages, cached)
            if keep:
                kept[user] = LiveMemory.of(memory, forest)
            self._tables(memory, dim, user, replaced, owners)
        for user, whole in settled.items():
            self._tables(whole.memory, dim, user, replaced, owners)
        for user, new in live.items():
            kept[user] = self._live[user][1]
            _, written = kept[user].extend(new, self._drafts_of, self.cfg, cached)  # type: ignore[arg-type]
            self._tables(written, dim, user, replaced, owners, appended)
        self._remember(cached)

        def write(name: str) -> None:
            if replaced[name]:
                data = pa.concat_tables(replaced[name]).to_reader()
                store.replace_users(name, data, dim, sorted(owners[name]))
            if appended[name]:
                store.replace_users(name, pa.concat_tables(appended[name]).to_reader(), dim, [])

        # The tables are independent until the run row names their versions: written side
        # by side (Lance does the work outside the GIL), an add waits for the slowest table,
        # not for all seven in turn.
        names = [name for name in USER_TABLES if replaced[name] or appended[name]]
        with ThreadPoolExecutor(len(USER_TABLES)) as pool:
            list(pool.map(write, names))
        run_id = f"{RUN_PREFIX}{uuid.uuid4().hex[:12]}"
        users = sorted([*full, *live, *settled])
        added = sum(len(m) for m in [*live.values(), *full.values()])
        added += sum(len(s.memory.messages) for s in settled.values())
        store.record_run(
            RunRecord(
                run_id=run_id,
                started_at=started,
                finished_at=datetime.now(UTC),
                input=f"online add for {len(users)} users",
                fingerprint=previous.get("fingerprint") or "",
                counts={
                    "online_users": len(users),
                    "online_users_live": len(live),
                    "online_messages_now": added,
                },
                watermark=_watermark(previous),
                users=users,
            )
        )
        still = {
            u: m
            for u, (r, m) in self._live.items()
            if r == previous["run_id"] and u not in kept and u not in full  # live ⊆ kept
        }
        still |= kept
        self._live = {u: (run_id, m) for u, m in list(still.items())[-LIVE_USERS:]}
        self.commits += 1
        if self.commits % self.cfg.store.online_compact_every == 0:
            for name in USER_TABLES:
                if store.has(name):
                    store.compact(name)
            store.build_indexes(USER_TABLES)
        return run_id

    @staticmethod
    def _tables(
        memory: UserMemory,
        dim: int,
        user: str,
        replaced: dict[str, list[pa.Table]],
        owners: dict[str, list[str]],
        appended: dict[str, list[pa.Table]] | None = None,
    ) -> None:
        """A whole compile's tables replace the user's rows; a live add's (`appended` given)
        append its new rows and replace the rest, pages left as they are."""
        for name, table in memory_tables(memory, dim).items():
            if appended is not None and name in APPENDED:
                appended[name].append(table)
            elif appended is None or name != "wiki_pages":
                replaced[name].append(table)
                owners[name].append(user)

    def _compile(
        self, messages: list[Message], cached: CachedEmbedder
    ) -> tuple[UserMemory, Forest]:
        """One user's whole memory and forest, as a build compiles it."""
        if messages:
            self._seed_vectors(messages[0].user_id, cached)
        uw = user_windows(messages, self.cfg)
        drafts = self._drafts_of(uw.windows, uw.keys)
        return compile_with_forest(uw, drafts, self.cfg, cached)  # type: ignore[arg-type]

    def _seed_vectors(self, user: str, cached: CachedEmbedder) -> None:
        """The vectors the build's cache holds for a user this writer has not compiled yet
        (when the config caches them: `caches_vectors`), so its first add in a process
        embeds what is new, not the whole history again (a transformer on the CPU: ~10 ms a
        text)."""
        if user in self._seeded or not caches_vectors(self.cfg.embed):
            return
        if self._vector_cache is None:
            identity = embedder_identity(self.cfg.embed)
            self._vector_cache = EmbedCache(self.store_path, identity, cached.dim)
        stored = self._vector_cache.vectors([user]).get(user, {})
        self._vectors.update(stored)
        cached.known.update(stored)
        self._seeded.add(user)
        self.made["cached vectors"] += len(stored)

    def _cached_embedder(self) -> CachedEmbedder:
        """The configured embedder over the vectors this writer made before."""
        embedder = embedder_for(self.cfg.embed)
        return CachedEmbedder(embedder.embed, embedder.dim, embedder.static, self._vectors)

    def _drafts_of(self, windows: list[Window], keys: list[str]) -> list[Extraction]:
        """The windows' drafts: from this writer's memory by window key, the configured
        extractor asked only for windows it has not drafted before (one caller at a time:
        a settle compiles beside the adds)."""
        with self._draft_lock:
            return self._drafts_locked(windows, keys)

    def _drafts_locked(self, windows: list[Window], keys: list[str]) -> list[Extraction]:
        known = {k: e for k in keys if (e := self._drafts.get(k)) is not None}
        missing = [i for i, k in enumerate(keys) if k not in known]
        if missing and self._draft_cache is not None:  # what a build (or a run) drafted
            stored = self._draft_cache.get(keys[i] for i in missing)
            owner = {keys[i]: windows[i].user_id for i in missing}
            for key, extraction in stored.items():
                known[key] = extraction
                self._drafts.put(key, extraction, owner[key])
            missing = [i for i in missing if keys[i] not in known]
            self.made["cached drafts"] += len(stored)
        if missing:
            self.made["drafted"] += len(missing)
            if self._extractor is None:
                self._extractor = build_labeled_extractor(self.cfg.extract)
            made = self._extractor.extract_labeled([windows[i] for i in missing])
            for i, extraction in zip(missing, made.extractions, strict=True):
                known[keys[i]] = extraction
                self._drafts.put(keys[i], extraction, windows[i].user_id)
        return [known[k] for k in keys]

    def _remember(self, cached: CachedEmbedder) -> None:
        self.made["embedded"] += len(cached.fresh)
        self._vectors.update(cached.fresh)
        while len(self._vectors) > MEMO_ENTRIES:
            self._vectors.pop(next(iter(self._vectors)))


class _StepAside(CachedEmbedder):
    """A settle's embedder: each call first waits for the adds in flight (the compile's
    stages each embed, so the settle steps aside between them)."""

    def __init__(self, cached: CachedEmbedder, step_aside: Callable[[], None]) -> None:
        super().__init__(cached.make, cached.dim, cached.static)
        self.known, self.step_aside = cached.known, step_aside

    def embed(self, texts: list[str]) -> np.ndarray:
        self.step_aside()
        return super().embed(texts)


def _close_at_exit(writer: weakref.ref[OnlineWriter]) -> None:
    if (alive := writer()) is not None:
        alive.close()


def _stay() -> None:
    """A settle that holds the commit does not step aside (the adds wait for it)."""


def _watermark(previous: dict[str, Any]) -> dict[str, Any]:
    """What the archive reads so far: an online run keeps it (a nightly after it reads only
    what is new)."""
    return json.loads(previous.get("watermark") or "{}")


def fold_online(store_path: str, cfg: Config) -> list[str]:
    """After a build or nightly commit: the users whose inbox holds messages the current
    tables lack (an add that landed while the run read or compiled, whose rows the commit
    replaced; or an add cut short between its inbox commit and its run row), and those an
    add placed live that no settle compiled since (a writer that stopped first), placed
    again. Returns them, sorted."""
    store = LanceStore(store_path, create=False)
    written = Inbox(store).read()
    if written.num_rows == 0 or store.latest_run() is None:
        return []
    stones = tombstones.load(store_path)
    unsettled = Unsettled(store_path).read() - set(stones.users)
    pending: dict[str, set[str]] = defaultdict(set)
    users = written.column("user_id").to_pylist()
    for user, message_id in zip(users, written.column("message_id").to_pylist(), strict=True):
        if not stones.names(user, message_id):
            pending[user].add(message_id)
    if store.has("messages") and pending:
        held = store.scan("messages", sql_in("user_id", pending), ["user_id", "message_id"])
        owners, ids = held.column("user_id").to_pylist(), held.column("message_id").to_pylist()
        for user, message_id in zip(owners, ids, strict=True):
            pending[user].discard(message_id)
    lagging = sorted({u for u, ids in pending.items() if ids} | unsettled)
    if lagging:
        OnlineWriter(store_path, cfg).republish(lagging)
    return lagging


def _stored_then_inbox(store: LanceStore, inbox: Inbox, user: str) -> dict[str, Message]:
    """The user's stored messages by id, then inbox messages the store lacks: an id in both
    keeps the stored copy (the archive's, when an export also held an agent's write)."""
    held = {m.message_id: m for m in stored_messages(store, user)}
    held |= {m.message_id: m for m in inbox.messages(user) if m.message_id not in held}
    return held


def _unforgotten(stones: tombstones.Tombstones, user_id: str, messages: Any) -> list[Message]:
    return [m for m in messages if not stones.names(user_id, m.message_id)]


def _forgotten(stones: tombstones.Tombstones, request: _Add) -> ValueError | None:
    """Why a tombstone refuses the add (None: it does not)."""
    if request.user_id in stones.users:
        return ValueError(f"refused: user {request.user_id!r} was forgotten (forget --undo first)")
    named = [m.message_id for m in request.messages if stones.names(request.user_id, m.message_id)]
    if named:
        return ValueError(f"refused: message {named[0]!r} of {request.user_id!r} was forgotten")
    return None


def _number_turns(request: _Add, known: dict[str, Message]) -> None:
    """A message sent without a turn_index follows the last turn of its session."""
    if not request.defaulted:
        return
    last: dict[tuple[str, str], int] = {}
    for m in known.values():
        group = (m.conversation_id, m.session_id)
        last[group] = max(last.get(group, -1), m.turn_index)
    for i, message in enumerate(request.messages):
        group = (message.conversation_id, message.session_id)
        if i in request.defaulted:
            message.turn_index = last.get(group, -1) + 1
        last[group] = max(last.get(group, -1), message.turn_index)
