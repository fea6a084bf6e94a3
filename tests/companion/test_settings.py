"""companion/settings.py as a server starts it (issue 10, items 4 and 8): each case runs a fresh Python with the
environment an operator would set, because the settings are read once, at start-up.

Every run keeps its SQLite database (and so its generated secret key) in the test's own folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.benchmarks.polling import ROOT


def run(tmp_path: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """``python3 ARGS`` in the checkout with only ``environ`` of the DJANGO_ variables, on a database in tmp_path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    env.update(
        DJANGO_SETTINGS_MODULE="companion.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"
    )
    env.update(environ)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )


# --- item 4: a server error leaves a trace ----------------------------------------------------------------------

_FORCED_ERROR = """
import django
django.setup()
from unittest import mock
from django.test import Client
with mock.patch("companion.views.home.render", side_effect=RuntimeError("forced for the log test")):
    response = Client(raise_request_exception=False).get("/")
print(response.status_code, response.content.decode())
"""


@pytest.mark.parametrize("environ", [{}, {"DJANGO_DEBUG": "1"}])
def test_a_server_error_is_logged_to_stderr_with_its_traceback(
    tmp_path: Path, environ: dict[str, str]
) -> None:
    done = run(tmp_path, "-c", _FORCED_ERROR, **environ)
    assert done.returncode == 0, done.stderr
    if not environ:  # the players see the friendly page, never the traceback
        assert done.stdout.startswith("500 ")
        assert "Something went wrong on our side" in done.stdout
        assert "forced for the log test" not in done.stdout
    assert re.search(r"\[ERROR\] django\.request: Internal Server Error: /\n", done.stderr), done.stderr
    assert "Traceback (most recent call last):" in done.stderr
    assert "RuntimeError: forced for the log test" in done.stderr


def test_answers_refused_with_a_4xx_are_not_logged(tmp_path: Path) -> None:
    code = "import django; django.setup(); from django.test import Client; Client().get('/no/such/page')"
    done = run(tmp_path, "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
