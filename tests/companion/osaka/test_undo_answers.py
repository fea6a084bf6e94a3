"""A Traders of Osaka undo says who undid what (issue 23, "every answer says who did what"): a player's own link
(the phone signs as that player) is answered "Saved: David undid “…”" or "… restored “…”" (a full stop after the
closing quote when the line has none of its own), beside the log line whose Undo was tapped, by the live script,
htmx and a plain form (sent back to the page saying so); the table's phone signs as nobody and keeps the log's own
words ("Undid: …."). The line undone is stored in the undo's data; an undo saved before that is read from its own
line."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from companion.models.osaka import OsakaEvent, OsakaGame
from companion.services.osaka import record
from companion.views.osaka.answers import said_of_undo
from tests.companion.osaka.test_games import _begin, _game, _payday, _seat

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}
HX = {"HTTP_HX_REQUEST": "true"}
LINE = "Payday: red. Tokens: Anaïs +1 red."


def _paid(client: Client) -> tuple[OsakaGame, OsakaEvent]:
    """A game after one payday (Anaïs: 5 -> 1 VP, +1 red token), and that payday's entry."""
    game = _begin(_game())
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 1})
    payday = game.events.get(kind="payday")
    assert payday.summary == LINE
    return game, payday


def _said(body: str) -> tuple[str, str]:
    """The answer beside a log line (its words, the line's version), or at the top of the state."""
    found = re.search(
        r'<li[^>]*? id="event-(\d+)"(?:(?!</li>).)*?<p class="answer small ok"[^>]*id="answer-event">(.*?)</p>',
        body,
        re.S,
    )
    if found is not None:
        return html.unescape(found.group(2)), found.group(1)
    top = re.search(r'id="state-message">(.*?)</p>', body, re.S)
    return (html.unescape(top.group(1)), "top") if top else ("", "")


def _undo(client: Client, game: OsakaGame, token: str, transport: str, target: int) -> str:
    url = f"/osaka/games/{token}/change"
    form = {"op": "undo", "target": target}
    if transport == "live":
        answer = client.post(url, form, **LIVE)
    elif transport == "htmx":
        answer = client.post(url, form, **HX)
    else:
        answer = client.post(url, form)
        game.refresh_from_db()
        assert answer.status_code == 302
        assert answer["Location"] == f"/osaka/games/{token}/?did={game.version}#event-{target}"
        answer = client.get(answer["Location"].split("#")[0])
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
def test_a_players_own_link_names_who_undid_and_restored_which_line(client: Client, transport: str) -> None:
    game, payday = _paid(client)
    david = _seat(game, 2).private_token
    body = _undo(client, game, david, transport, payday.version)
    assert _said(body) == (f"Saved: David undid “{LINE}”", str(payday.version))
    made = game.events.first()
    assert made is not None and (made.who, made.summary) == ("David", f"Undid: {LINE}")  # the log's line
    assert made.data == {"target": payday.version, "restore": False, "line": LINE}
    body = _undo(client, game, david, transport, payday.version)
    # The line as the log showed it undone (its tokens no longer given), as the log's "Restored: …" says.
    assert _said(body) == ("Saved: David restored “Payday: red”.", str(payday.version))
    assert (_seat(game, 1).vp, _seat(game, 1).red) == (1, 1)


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
def test_a_line_without_its_own_full_stop_gets_one_after_the_quote(client: Client, transport: str) -> None:
    game, _ = _paid(client)
    record(game.pk, kind="token", data={"seat": 0, "colour": "blue", "delta": 1}, who="Anaïs")
    took = game.events.first()
    assert took is not None and took.summary == "Anaïs took a blue token"
    body = _undo(client, game, _seat(game, 2).private_token, transport, took.version)
    assert _said(body) == ("Saved: David undid “Anaïs took a blue token”.", str(took.version))


@pytest.mark.parametrize("transport", ["live", "htmx", "plain"])
def test_the_tables_phone_signs_as_nobody_and_keeps_the_logs_words(client: Client, transport: str) -> None:
    game, payday = _paid(client)
    body = _undo(client, game, game.edit_token, transport, payday.version)
    assert _said(body) == (f"Undid: {LINE}", str(payday.version))


def test_the_answer_goes_to_the_top_when_the_line_is_off_the_page(client: Client) -> None:
    """The whole log's Undo of a line the game page no longer shows (8 lines): the answer stands at the top."""
    game, payday = _paid(client)
    for delta in (1, -1) * 4:
        record(game.pk, kind="token", data={"seat": 0, "colour": "blue", "delta": delta}, who="Anaïs")
    body = _undo(client, game, _seat(game, 3).private_token, "plain", payday.version)
    assert _said(body) == (f"Saved: Dominique undid “{LINE}”", "top")


def test_only_an_undo_is_answered_so(client: Client) -> None:
    game, _ = _paid(client)
    body = client.get(f"/osaka/games/{game.edit_token}/?did={game.version}").content.decode()
    assert _said(body) == ("", "")  # the payday is no undo: nothing said


@pytest.mark.parametrize("query", ["?did=x", "?did=0", "?did=" + "9" * 11])
def test_a_malformed_answer_address_is_a_400(client: Client, query: str) -> None:
    game, _ = _paid(client)
    response = client.get(f"/osaka/games/{game.edit_token}/{query}")
    assert response.status_code == 400 and "version number" in response.content.decode()


@pytest.mark.parametrize(
    ("who", "summary", "data", "words"),
    [
        # An undo saved before it stored its line: read from its own line.
        ("David", f"Undid: {LINE}", {"target": 5, "restore": False}, f"Saved: David undid “{LINE}”"),
        ("David", f"Restored: {LINE}", {"target": 5, "restore": True}, f"Saved: David restored “{LINE}”"),
        ("the table's phone", f"Restored: {LINE}", {"target": 5, "restore": True}, f"Restored: {LINE}"),
        ("David", "Something else", {"target": 5}, "Something else."),
        # A line without a final full stop: the sentence ends after the closing quote; one with its own (or ! or
        # ?) takes no other.
        (
            "David",
            "Undid: Anaïs took a red token",
            {"target": 5, "restore": False, "line": "Anaïs took a red token"},
            "Saved: David undid “Anaïs took a red token”.",
        ),
        ("David", "Undid: Go!", {"target": 5, "restore": False, "line": "Go!"}, "Saved: David undid “Go!”"),
        ("David", "Restored: Go?", {"target": 5, "restore": True}, "Saved: David restored “Go?”"),
        ("the table's phone", "Undid: Go?", {"target": 5, "restore": False, "line": "Go?"}, "Undid: Go?"),
        (
            "the table's phone",
            "Undid: +1 red",
            {"target": 5, "restore": False, "line": "+1 red"},
            "Undid: +1 red.",
        ),  # a line that reads otherwise
        # The stored line wins over a line cut short.
        (
            "David",
            "Undid: Pay",
            {"target": 5, "restore": False, "line": LINE},
            f"Saved: David undid “{LINE}”",
        ),
    ],
)
def test_an_undo_reads_its_stored_line_else_its_own(
    who: str, summary: str, data: dict[str, Any], words: str
) -> None:
    assert said_of_undo(OsakaEvent(who=who, kind="undo", summary=summary, data=data)) == words
