"""The worker ``manage.py table`` runs under gunicorn (README "Serving a table"): uvicorn's, on ``companion/asgi.py``,
which also stops when its master is gone."""

from __future__ import annotations

import os
import signal

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]  # it ships no types


class TableWorker(UvicornWorker):  # type: ignore[misc]  # an untyped base
    """uvicorn's gunicorn worker, stopping when its master is gone, as gunicorn's own workers do. Killed hard
    (SIGKILL, the out-of-memory killer), the master left its worker serving the port alone, and ``manage.py table``
    started again could not listen ("Connection in use") until someone found that process."""

    async def callback_notify(self) -> None:
        """Every ``--timeout`` seconds (uvicorn's tick): with the master gone, uvicorn's own graceful stop."""
        if os.getppid() != self.ppid:
            os.kill(os.getpid(), signal.SIGTERM)
        await super().callback_notify()
