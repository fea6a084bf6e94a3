"""gunicorn server hooks for tests/companion/live: a worker dies (os._exit) right after a write whose client id
starts with "die" commits, before it answers, as a server killed at the worst moment. gunicorn starts a new
worker; the phone's retry, with the same client id and counter, must find the write stored once."""

from __future__ import annotations

import os
from typing import Any


def post_worker_init(worker: Any) -> None:
    from django.db import transaction

    from companion.live import engine

    stored = engine.store

    def store_then_die(thing: str, mid: engine.MutationId, answer: engine.Answer) -> None:
        stored(thing, mid, answer)
        if mid.client.startswith("die"):
            transaction.on_commit(lambda: os._exit(1))

    engine.store = store_then_die  # type: ignore[assignment]
