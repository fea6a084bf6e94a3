"""The Server-Sent Events stream of one shared thing: ``GET /live/<kind>/<token>`` (``live-stream-<kind>``) (docs/sync.md "Push").

The stream sends the thing's version when it opens and each time it moves (``data: 12``); the page then pulls the
pieces it lacks. Every :data:`KEEPALIVE_S` without a move it sends the version again: proxies keep an idle stream
open, and the page knows its stream still answers (live.js opens a stream silent far longer anew). An open stream is
a waiting coroutine (Django async view under an ASGI server): no thread (its one query, the token's lookup, runs in
the loop's shared pool), and no database query while it waits:

- PostgreSQL: one ``LISTEN live`` connection per process (psycopg 3, async) hears every write's ``NOTIFY``
  (companion.live.engine.poke) and wakes the streams of that thing. A ``NOTIFY`` sent before the ``LISTEN`` began,
  or before a stream was watched, reaches nobody: so the versions are read once more when the ``LISTEN`` begins
  (every thing watched) and when a stream is watched while it listens (that thing), and a move found wakes them.
- SQLite (one machine): a write wakes the streams of its own process as it commits (companion.live.pokes.local_poke, no
  query); one task per process asks every :data:`CHECK_S` whether anything was committed (``PRAGMA
  data_version`` on a connection of its own, from the loop), and only then reads the versions of every thing with an open stream, one query per kind, and
  wakes the streams whose thing moved in another process.

Served by a WSGI server (``runserver``), the view answers 204: the browser stops trying and the page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

from asgiref.sync import SyncToAsync, sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections, connection
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path
from django.utils.cache import add_never_cache_headers

from companion.live.kinds import KINDS, key
from companion.live.pokes import CHANNEL, HUBS
from companion.live.threads import has_lease, release
from companion.tokens import ANY_TOKEN_RE

log = logging.getLogger(__name__)
KEEPALIVE_S: Final = 20.0
CHECK_S: Final = 0.05
RETRY_MS: Final = 2000


class Hub:
    """This process's open streams by thing, and the one task that learns when a thing moves."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queues: dict[str, set[asyncio.Queue[int]]] = {}
        self.versions: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None
        #: A stream opened since the version check last looked (SQLite: it then reads the versions again).
        self.fresh = False
        #: PostgreSQL: whether the ``LISTEN`` is on (a stream watched from then on reads its version once more).
        self.listening = False
        #: The version reads started for streams watched while listening (held until done).
        self.rereads: set[asyncio.Task[None]] = set()

    def publish(self, thing: str, version: int) -> None:
        """Wake the streams of ``thing`` with ``version``, unless they were told of it already."""
        if thing not in self.queues or version <= self.versions.get(thing, 0):
            return  # nobody here follows it, or its streams were told already (a check or a read after a poke)
        self.versions[thing] = version
        for queue in self.queues.get(thing, ()):
            queue.put_nowait(version)

    @contextlib.contextmanager
    def watch(self, thing: str, version: int) -> Any:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.queues.setdefault(thing, set()).add(queue)
        self.versions.setdefault(thing, version)
        self.fresh = True
        if self.task is None or self.task.done():
            # Its own context: not the request's that opened it (asgiref ties that one's sync calls to the request).
            work = self._listen() if _postgres() else self._check()
            self.task = asyncio.create_task(work, context=contextvars.Context())
        elif self.listening:  # a write committed since its version was read poked before it was watched
            reread = asyncio.create_task(self._reread([thing]), context=contextvars.Context())
            self.rereads.add(reread)
            reread.add_done_callback(self.rereads.discard)
        try:
            yield queue
        finally:
            waiting = self.queues.get(thing, set())
            waiting.discard(queue)
            if not waiting:
                self.queues.pop(thing, None)
                self.versions.pop(thing, None)

    async def _check(self) -> None:
        """SQLite: every CHECK_S, ask the database whether anything was committed since the last look
        (:class:`_Commits`, from the loop: no table read, no thread), and only then read the versions of every
        thing with an open stream, one statement per kind, on the check's own thread; stops when no stream is
        open."""
        loop = asyncio.get_running_loop()
        checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-check")
        commits = _Commits(str(connection.settings_dict["NAME"]))
        seen: int | None = None
        try:
            while self.queues:
                things, self.fresh = list(self.queues), False
                now = commits.count()
                if now is None or now != seen:
                    try:
                        found = await loop.run_in_executor(checker, _versions, things)
                        seen = now
                    except DatabaseError as exc:  # a locked or lost database: the next check asks again
                        log.warning("live: version check failed (%s)", exc)
                        found = {}
                    for thing, version in found.items():
                        if version != self.versions.get(thing):
                            self.publish(thing, version)
                await asyncio.sleep(CHECK_S)
                if self.fresh:
                    seen = None  # a stream opened since: its version was read before that look, so read again
        finally:
            commits.close()
            checker.shutdown(wait=False)

    async def _listen(self) -> None:
        """PostgreSQL: LISTEN on one connection, then read the versions of every thing watched: a write committed
        before the LISTEN began poked nobody. On a lost connection, connect again and read them again."""
        import psycopg

        while self.queues:
            try:
                async with await psycopg.AsyncConnection.connect(_conninfo(), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    await self._reread(list(self.queues))
                    async for note in conn.notifies():
                        name, _, moved = note.payload.rpartition(" ")
                        self.publish(name, int(moved))
            except (psycopg.Error, OSError, ValueError) as exc:
                log.warning("live: LISTEN connection lost (%s); again in 1 s", exc)
                await asyncio.sleep(1)
            finally:
                self.listening = False

    async def _reread(self, things: list[str]) -> None:
        """PostgreSQL: read the versions of ``things`` (on the lookups' threads) and wake the streams of those that
        moved past what they were told."""
        try:
            found = await _looked_up(_versions, things)
        except DatabaseError as exc:  # the LISTEN goes on: the next write's poke still reaches the streams
            log.warning("live: version read failed (%s)", exc)
            return
        for thing, version in found.items():
            self.publish(thing, version)


class _Commits:
    """SQLite's ``PRAGMA data_version`` on a connection of its own that never writes: it changes whenever any
    other connection (of this process or another) commits. Asked from the event loop: it reads no table, and with
    no busy timeout it never waits (a locked database answers None: read the versions then)."""

    def __init__(self, name: str) -> None:
        self.db: sqlite3.Connection | None = None
        if name and name != ":memory:" and not name.startswith("file:"):
            with contextlib.suppress(sqlite3.Error):
                self.db = sqlite3.connect(name, timeout=0, check_same_thread=False)

    def count(self) -> int | None:
        if self.db is None:
            return None
        try:
            return int(self.db.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


def _versions(things: list[str]) -> dict[str, int]:
    """The versions of ``things``, one statement per kind (on the check's or the lookups' thread, its connection
    kept)."""
    by_kind: dict[str, list[int]] = {}
    for thing in things:
        kind, _, pk = thing.partition(":")
        by_kind.setdefault(kind, []).append(int(pk))
    found: dict[str, int] = {}
    try:
        for kind, pks in by_kind.items():
            found.update((key(kind, number), v) for number, v in KINDS[kind].versions(pks).items())
    except DatabaseError:
        connection.close()  # the next look connects again
        raise
    return found


def _postgres() -> bool:
    return connection.vendor == "postgresql"


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    s = connection.settings_dict
    parts = {"dbname": s["NAME"], "user": s["USER"], "password": s["PASSWORD"], "host": s["HOST"]}
    parts["port"] = str(s["PORT"] or "")
    return make_conninfo(**{k: v for k, v in parts.items() if v})


def hub() -> Hub:
    """The hub of the running event loop (one per ASGI worker process, kept in companion.live.pokes.HUBS, where a
    write's commit finds it)."""
    loop = asyncio.get_running_loop()
    found = HUBS.get(id(loop))
    if not isinstance(found, Hub) or found.loop is not loop:
        found = Hub(loop)
        HUBS[id(loop)] = found
    return found


def _release_request_thread() -> None:
    """Let go of the thread this request was given for its sync middleware (csp, the host check, WhiteNoise, the
    create limit): under Django's ASGI handler each request's thread-sensitive calls run on a thread of its own,
    kept until the request ends, so every open stream held an idle thread (1,230 threads for 1,200 streams). The
    middleware is done once the body is sent; asgiref makes a new thread if the request needs one again. Under
    ``companion.asgi`` (companion.live.threads) the thread goes back to the pool of request threads."""
    if has_lease():
        release()
        return
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context is not None else None
    if executor is not None:
        executor.shutdown(wait=False)


async def events(thing: str, version: int) -> AsyncIterator[str]:
    _release_request_thread()
    yield f"retry: {RETRY_MS}\ndata: {version}\n\n"
    with hub().watch(thing, version) as queue:
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
            except TimeoutError:
                yield f"data: {version}\n\n"  # still here (a comment line would not reach the page)
                continue
            while not queue.empty():
                version = max(version, queue.get_nowait())
            yield f"data: {version}\n\n"


_LOOKUP_THREADS: Final = 2
_lookup_pool: list[ThreadPoolExecutor] = []


def _lookups() -> ThreadPoolExecutor:
    """The threads that look a stream's token up (made at the first stream)."""
    if not _lookup_pool:
        _lookup_pool.append(ThreadPoolExecutor(_LOOKUP_THREADS, thread_name_prefix="live-lookup"))
    return _lookup_pool[0]


Asked = TypeVar("Asked")
Found = TypeVar("Found")


async def _looked_up(lookup: Callable[[Asked], Found], argument: Asked) -> Found:
    """``lookup(argument)`` on a lookup thread (:func:`_lookups`)."""

    def run() -> Found:
        close_old_connections()  # a pool thread's connection outlives requests: drop it when broken or too old
        return lookup(argument)

    return await asyncio.get_running_loop().run_in_executor(_lookups(), run)


async def stream(request: HttpRequest, kind: str, token: str) -> HttpResponse | StreamingHttpResponse:
    """The stream of the thing ``token`` opens (any of its links: a stream only says a version)."""
    if kind not in KINDS or not ANY_TOKEN_RE.fullmatch(token):
        return HttpResponse("No such game or sheet.", status=404, content_type="text/plain")
    if isinstance(request, ASGIRequest):
        # Not the request's thread: its connection would be opened for this one query (a stream's thread is
        # given back at once; one made for a request outside the pool would end with it). A few threads kept
        # for these lookups run it on connections that last.
        found = await _looked_up(KINDS[kind].find, token)
    else:
        found = await sync_to_async(KINDS[kind].find)(token)
    if found is None:
        return HttpResponse("No such game or sheet.", status=404, content_type="text/plain")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # a WSGI server holds a thread per stream: the page polls instead
    pk, version = found
    response = StreamingHttpResponse(events(key(kind, pk), version), content_type="text/event-stream")
    add_never_cache_headers(response)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response["Content-Encoding"] = "identity"  # GZipMiddleware would hold the small events back
    return response


#: ``live-stream-sheet``, ``live-stream-osaka``...: one address per kind of shared thing.
urlpatterns = [
    path(f"live/{kind}/<str:token>", stream, {"kind": kind}, name=f"live-stream-{kind}") for kind in KINDS
]
