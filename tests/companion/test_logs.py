"""The log (issue 24, "Logs"; companion/logs.py): one record per server error with its traceback, nothing for what
any client can cause by asking (4xx, HEAD, a refused Host), a few lines a second at most, and never a token."""

from __future__ import annotations

import base64
import copy
import io
import logging
import logging.config
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from companion.logs import BURST, HIDDEN, Quiet, RateLimit, scrub
from companion.services.osaka import NewPlayer
from companion.services.osaka import create_game as create_osaka_game
from companion.tokens import TOKEN_BYTES
from tests.factories import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    """The settings' LOGGING as configured on every server, writing to a buffer the test reads."""
    stream = io.StringIO()
    config = copy.deepcopy(settings.LOGGING)
    config["handlers"]["stderr"]["stream"] = stream
    logging.config.dictConfig(config)
    try:
        yield stream
    finally:
        logging.config.dictConfig(settings.LOGGING)


def _break(monkeypatch: pytest.MonkeyPatch, render: str, secret: str) -> None:
    """The page's view (its render function, ``render``) fails with an exception whose message holds ``secret`` (as a careless one might)."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"could not show the page of {secret}")

    monkeypatch.setattr(render, broken)


def test_a_server_error_on_an_edit_link_is_one_record_with_its_traceback_and_no_token(
    log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game()
    _break(monkeypatch, "companion.views.tracker.pages.state_response", game.edit_token)
    client = Client(raise_request_exception=False)
    response = client.get(f"/games/{game.edit_token}/", {"from": game.view_token})
    assert response.status_code == 500
    text = log.getvalue()
    assert text.count("[ERROR]") == 1 and "Traceback (most recent call last)" in text, text
    assert "RuntimeError: could not show the page of <token>" in text
    assert f"/games/{HIDDEN}/" in text
    assert game.edit_token not in text and game.view_token not in text


def test_a_server_error_on_a_players_own_link_keeps_the_link_out_of_the_log(
    log: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_osaka_game(players=[NewPlayer("Anaïs", "white"), NewPlayer("David", "pink")])
    own = game.seats.get(seat=1).private_token
    _break(monkeypatch, "companion.views.osaka.games._state_response", own)
    response = Client(raise_request_exception=False).get(f"/osaka/games/{own}/")
    assert response.status_code == 500
    text = log.getvalue()
    assert text.count("[ERROR]") == 1 and "Traceback" in text
    assert own not in text and game.edit_token not in text


def test_what_any_client_can_cause_is_not_logged(log: io.StringIO, client: Client) -> None:
    game = make_game()
    client.get("/games/AAAAAAAAAAAAAAAAAAAAAAAA/")  # 404
    client.head(f"/games/{game.edit_token}/")
    client.head("/")
    client.post("/api/v1/score", "{", content_type="application/json")  # 400
    client.get("/", HTTP_HOST="bad host name")  # DisallowedHost (a 400) or answered: never logged
    Client(enforce_csrf_checks=True).post("/games/new/", {})  # 403, CSRF refused
    assert log.getvalue() == ""


def test_at_info_the_4xx_are_logged_demoted_and_scrubbed(client: Client) -> None:
    stream = io.StringIO()
    config = copy.deepcopy(settings.LOGGING)
    config["handlers"]["stderr"]["stream"] = stream
    config["filters"]["quiet"]["level"] = "INFO"
    logging.config.dictConfig(config)
    try:
        token = make_game().edit_token
        client.post(f"/games/{token}/change", {"op": "nonsense"})
    finally:
        logging.config.dictConfig(settings.LOGGING)
    text = stream.getvalue()
    assert "[INFO] django.request: Bad Request: /games/<token>/change" in text, text
    assert "[WARNING]" not in text and token not in text


def test_the_rate_limit_drops_beyond_the_burst_then_says_how_many() -> None:
    now = [0.0]
    limit = RateLimit(rate=5, burst=BURST, clock=lambda: now[0])

    def record() -> logging.LogRecord:
        return logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom %s", ("x",), None)

    passed = sum(limit.filter(record()) for _ in range(1000))
    assert passed == BURST
    now[0] += 1.0  # a second later: five more
    later = [record() for _ in range(10)]
    assert [limit.filter(r) for r in later] == [True] * 5 + [False] * 5
    assert later[0].getMessage() == "[980 earlier lines not logged: more than 5 a second] boom x"
    assert later[1].getMessage() == "boom x"


def test_the_threshold_is_a_known_level() -> None:
    with pytest.raises(ValueError, match="DJANGO_LOG_LEVEL"):
        Quiet("LOUD")


TOKEN = "k3Jq_Zx9-Pw2LmN8vB4tYc7R"


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (f"Internal Server Error: /games/{TOKEN}/change", "Internal Server Error: /games/<token>/change"),
        (f"/score/{TOKEN}", "/score/<token>"),
        (f"GET /games/x/?from={TOKEN}&v=2", "GET /games/x/?from=<token>&v=2"),
        (f"KeyError: '{TOKEN}'", "KeyError: '<token>'"),
        (f"no sheet {TOKEN} here", "no sheet <token> here"),
        (
            "the page of hreaX_OK_bwQXIfbEjXkEeQA",
            "the page of <token>",
        ),  # a token with no digit, seen in a run
        ("all-letters-but-in-a-link-aaaa", "all-letters-but-in-a-link-aaaa"),
        ("/plain/all_letters_in_a_link_path", "/plain/<token>"),
        ('File "/work/companion/views/test_games_table_browser.py", line 3', None),
        ("in _state_response_of_a_long_name", None),
        ("django.core.exceptions.SynchronousOnlyOperation: x", None),
        (f"/games/{TOKEN}x{TOKEN}x{TOKEN}/", None),  # 74 characters: no token is this long
    ],
)
def test_scrub(line: str, shown: str | None) -> None:
    assert scrub(line) == (line if shown is None else shown)


def test_scrub_hides_every_token_standing_alone() -> None:
    """Tokens as companion.tokens makes them (URL-safe base64 of random bytes), 20,000 of them: none left in a
    traceback's words, whatever letters it happens to hold."""
    draw = random.Random(21)
    for _ in range(20_000):
        token = base64.urlsafe_b64encode(draw.randbytes(TOKEN_BYTES)).rstrip(b"=").decode()
        assert (
            scrub(f"RuntimeError: the page of {token} failed") == "RuntimeError: the page of <token> failed"
        ), token
