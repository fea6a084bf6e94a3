"""gunicorn server hooks timing each request on the server (``-c python:companion.benchmarks._server_time``), for
the scoring walk-through's benchmark (companion/benchmarks/scorepad.py, docs/benchmarks.md).

A request's server time is the CPU time of the thread serving it from gunicorn's ``pre_request`` hook to its
``post_request`` hook: the WSGI environ, Django (middleware, view, signals), writing the answer to the socket.
Each is appended to the file ``IKI_BENCH_TIMES`` names, one line per request: ``METHOD path microseconds``.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

_started = threading.local()
#: Open for the worker's whole life, one line written (and flushed) per request.
_times = open(os.environ["IKI_BENCH_TIMES"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115


def pre_request(worker: Any, req: Any) -> None:
    _started.at = time.thread_time()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    spent = time.thread_time() - _started.at
    _times.write(f"{req.method} {req.path} {spent * 1e6:.1f}\n")
