"""The ASGI handler ``manage.py table`` serves: Django's, with each request's thread taken from a small pool.

Django's ASGI handler runs each request's sync parts (the sync middleware, a sync view) on a thread of its own,
made for that request and joined after it (``asgiref.sync.ThreadSensitiveContext``). So every request started a
thread and, the database connection being per thread, opened a new SQLite connection (with its pragmas) and
closed it: most of a ``/healthz``'s 1.6-2 ms of CPU, and a share of every tap. Here a request borrows one of
:data:`THREADS` one-thread executors (waiting in the loop when all are busy), so the threads and their
connections last across requests, as a WSGI server's thread pool does (``CONN_MAX_AGE`` and
``close_old_connections`` at each request's start and end, as there). Nothing a request leaves on its thread is
read by the next but Django's connection. Each request still runs on one thread, alone on it while it runs.

An open stream gives its thread back once its sync middleware is done (:func:`release`): it waits in the event
loop (companion.live.stream), and a sync call it makes afterwards gets a thread of its own for the rest of it.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from asgiref.sync import SyncToAsync, ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

#: The most request threads of a process (each with its database connection, kept): a request arriving while all
#: are busy waits in the event loop for one, as under a WSGI server's fixed pool of threads. Overlapping requests
#: then no longer each make a thread and a connection just when the worker is busiest.
THREADS: Final = 6

_idle: list[ThreadPoolExecutor] = []
_made = [0]
_waiting: collections.deque[asyncio.Future[ThreadPoolExecutor]] = collections.deque()


async def _take() -> ThreadPoolExecutor:
    if _idle:
        return _idle.pop()
    if _made[0] < THREADS:
        _made[0] += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
    waiter: asyncio.Future[ThreadPoolExecutor] = asyncio.get_running_loop().create_future()
    _waiting.append(waiter)
    try:
        return await waiter
    except asyncio.CancelledError:
        if waiter.done() and not waiter.cancelled():
            _give(waiter.result())  # handed over just as the request was given up
        raise


def _give(executor: ThreadPoolExecutor) -> None:
    while _waiting:
        waiter = _waiting.popleft()
        if not waiter.done():
            waiter.set_result(executor)
            return
    _idle.append(executor)


class _Lease:
    """One request's thread: given back when the request ends, or earlier by :func:`release`."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self.executor = executor
        self.context = ThreadSensitiveContext(executor=self.executor)
        #: Set by release(): the executor for the request's later sync calls (no thread until one is made).
        self.spare: ThreadPoolExecutor | None = None

    def release(self) -> None:
        if self.spare is not None:
            return
        self.spare = ThreadPoolExecutor(max_workers=1, thread_name_prefix="request-late")
        SyncToAsync.context_to_thread_executor[self.context] = self.spare
        _give(self.executor)

    def end(self) -> None:
        if self.spare is None:
            _give(self.executor)
        else:
            self.spare.shutdown(wait=False)


_lease: contextvars.ContextVar[_Lease] = contextvars.ContextVar("request_thread")


def has_lease() -> bool:
    """Whether this request runs under :class:`Handler` (its thread borrowed from the pool)."""
    return _lease.get(None) is not None


def release() -> None:
    """Give this request's thread back to the pool now (a stream, once its body starts): the request goes on in
    the event loop alone."""
    lease = _lease.get(None)
    if lease is not None:
        lease.release()


class Handler(ASGIHandler):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # refused there, as Django does
            return
        lease = _Lease(await _take())
        token = _lease.set(lease)
        try:
            async with lease.context:
                await self.handle(scope, receive, send)
        finally:
            _lease.reset(token)
            lease.end()
