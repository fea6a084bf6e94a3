"""gunicorn server hooks timing each request on the server (``-c python:companion.benchmarks._server_time``), for
the scoring walk-through's benchmark (companion/benchmarks/scorepad.py, docs/benchmarks.md).

A request's server time is the CPU time of the thread serving it from gunicorn's ``pre_request`` hook to its
``post_request`` hook: the WSGI environ, Django (middleware, view, signals), writing the answer to the socket.
Each is appended to the file ``IKI_BENCH_TIMES`` names, one line per request: ``METHOD path microseconds``.

Before an entry (a POST to a step), and outside the timed span, the worker's caches of players read and scored are
left as the previous tap at a real table leaves them: holding the sheet as it is now, not the earlier states the
benchmark's entries come back to (:func:`companion.benchmarks.scorepad.as_before`).
"""

from __future__ import annotations

import os
import re
import threading
import time
from typing import Any

_STEP_POST = re.compile(r"/score/([A-Za-z0-9_-]+)/([a-z]+)/$")
_started = threading.local()
#: Open for the worker's whole life, one line written (and flushed) per request.
_times = open(os.environ["IKI_BENCH_TIMES"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115


def pre_request(worker: Any, req: Any) -> None:
    if req.method == "POST" and (m := _STEP_POST.search(req.path)):
        from companion.benchmarks.scorepad import as_before

        as_before(m[1], m[2])
    _started.at = time.thread_time()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    spent = time.thread_time() - _started.at
    _times.write(f"{req.method} {req.path} {spent * 1e6:.1f}\n")
