"""A whole tracked Traders of Osaka game walked on every link (issue 20, "hidden stays hidden"): 3 and 4 players,
the start, the first tokens, then paydays one after another until one ends the game. After every write each page a
phone can open is fetched (the edit page, the view-only page, every player's own link, their live pull replies and
stream, the log, the share page, the tally sheet PDF) and searched for each player's running VP count.

RULINGS O6: a player's VP count shows only on that player's own link during play, and to everyone at the end.
RULINGS O8: the payday just played may show on every link as the table sees it (its VP cards are turned over in
front of everyone), but no running count, history or sum of anyone's sales, except on that player's own link.
The running count is worked out here from the game's recorded paydays (each take's VP cards plus the draw pile),
not read from the page."""

from __future__ import annotations

import html
import io
import re
from typing import Any

import pytest
from django.test import Client
from pypdf import PdfReader

from companion.models.osaka import OsakaGame, OsakaSeat
from tests.companion.osaka.test_games import _begin, _game, _payday

# long: a whole game on every link, 15 CPU seconds a game under coverage; started last it keeps a core busy alone.
pytestmark = [pytest.mark.django_db, pytest.mark.long]
LIVE = {"HTTP_X_LIVE": "1"}
SHIPS = ("red", "blue", "yellow", "green")
NUMBER_VP = re.compile(r"\b(\d+) VP\b")


def _text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _paydays(game: OsakaGame) -> list[dict[str, Any]]:
    events = game.events.filter(kind="payday", undone=False).order_by("version")
    return [e.result["payday"] for e in events if isinstance(e.result, dict) and e.result.get("applied")]


def _takes(player: dict[str, Any]) -> list[int]:
    """The VP cards each sale of one payday gave a player: the set's cards turned over plus the draw pile."""
    return [len(t["vp_cards"]) + int(t["from_pile"]) for t in player.get("take", [])]


def _running_vp(game: OsakaGame) -> list[int]:
    """Each seat's VP count so far: the sum of every recorded payday's takes (RULINGS O6's secret)."""
    vp = [0] * game.seats.count()
    for payday in _paydays(game):
        for i, player in enumerate(payday["players"]):
            vp[i] += sum(_takes(player))
    return vp


def _latest_box(page: str) -> tuple[str, str]:
    """The page split into the payday just played (shown to all, RULINGS O8) and everything else."""
    found = re.search(r'<div[^>]* id="latest-box"[^>]*>(?:</div>|.*?</section>\s*</div>)', page, re.S)
    if found is None:
        return "", page
    return found.group(0), page[: found.start()] + page[found.end() :]


def _assert_hidden(where: str, page: str, seats: list[OsakaSeat], vp: list[int], own: int | None,
                   latest: dict[str, Any] | None) -> None:  # fmt: skip
    """No running VP count of any player on ``page`` except the one of seat ``own`` in its own box."""
    box, rest = _latest_box(page)
    assert "final-vp-" not in page, where
    if own is None:
        # A bool, not `x not in page`: the walk expects this to fail on each own link (the leak check below), and
        # pytest explains a failed `not in` with a diff of the whole page, uncut where CI is set (seconds a page).
        shows_a_count = 'id="my-vp"' in page or 'id="me-title"' in page
        assert not shows_a_count, where
    else:
        me = seats[own - 1]
        shown = re.findall(r'id="my-vp"[^>]*>(\d+)<', page)
        assert shown == [str(vp[own - 1])], (where, shown, vp)  # the positive anchor: their own count
        title = re.search(r'<h2 id="me-title">(.*?)</h2>', page, re.S)
        assert title is not None and f"{me.name}, your VP cards" in _text(title.group(1)), where
        rest = re.sub(r'id="mine".*?id="my-vp"[^>]*>\d+<', "", rest, flags=re.S)
    # Outside the payday just played, no number of VP at all: no count, no history, no sum of anyone's sales.
    assert NUMBER_VP.findall(_text(rest)) == [], (where, NUMBER_VP.findall(_text(rest)))
    # The payday just played: each player's line names only what this payday gave them, never a running count.
    if latest is not None:
        assert "VP card" in box, where  # the payday just played is there, as the table saw it
        for seat, player in zip(seats, latest["players"], strict=True):
            line = re.search(
                rf"<li><strong>{re.escape(html.escape(seat.name))}:</strong>(.*?)</li>", box, re.S
            )
            words = _text(line.group(1)) if line else ""
            said = {int(n) for n in re.findall(r"\b(\d+) VP card", words)}
            assert said <= set(_takes(player)), (where, seat.name, said, _takes(player))
            assert bool(said) == any(_takes(player)), (where, seat.name)  # a seller's line is found
            if vp[seat.seat - 1] not in _takes(player):
                assert not re.search(rf"\b{vp[seat.seat - 1]} VP", words), where


def _sheet(client: Client, token: str) -> tuple[list[str], list[str]]:
    """The tally sheet's paydays table and its end table, one cell a line (pypdf reads the cells in order)."""
    response = client.get(_url_of(token, "sheet.pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    lines = [" ".join(line.split()) for p in pages for line in p.extract_text().splitlines()]
    paydays = lines[lines.index("Paydays (one row per ship reaching Edo, in order)") : lines.index("The end")]
    end = lines[lines.index("The end") : lines.index("The rules in numbers")]
    return paydays, end


def _url_of(token: str, what: str = "") -> str:
    return f"/osaka/games/{token}/{what}"


def _walk_every_link(client: Client, game: OsakaGame, where: str) -> None:
    """Fetch every page of every link and check RULINGS O6/O8 against the game's true running counts."""
    game.refresh_from_db()
    seats = list(game.seats.order_by("seat"))
    vp = _running_vp(game)
    assert vp == [s.vp for s in seats], where  # the game's state agrees with its recorded paydays
    paydays = _paydays(game)
    latest = paydays[-1] if paydays else None
    links: list[tuple[str, int | None]] = [(game.edit_token, None), (game.view_token, None)]
    links += [(s.private_token, s.seat) for s in seats]
    for token, own in links:
        label = f"{where} {'own link of seat ' + str(own) if own else token[:6]}"
        page = client.get(_url_of(token))
        assert page.status_code == 200
        _assert_hidden(f"{label} page", page.content.decode(), seats, vp, own, latest)
        if own is not None:  # the check can fail: the same page served on another link would be a leak
            with pytest.raises(AssertionError):
                _assert_hidden("leak", page.content.decode(), seats, vp, None, latest)
        pull = client.get(_url_of(token, f"state?v={max(game.version - 1, 0)}"), **LIVE)
        assert pull.status_code == 200 and pull["X-Live-Version"] == str(game.version)
        _assert_hidden(f"{label} pull", pull.content.decode(), seats, vp, own, latest)
        partial = client.get(_url_of(token, "state"), HTTP_HX_REQUEST="true")
        _assert_hidden(f"{label} htmx", partial.content.decode(), seats, vp, own, latest)
        assert client.get(f"/live/osaka/{token}").content == b""  # a stream says a version, never a count
    for token in (game.edit_token, game.view_token):
        for what in ("log", "share"):
            response = client.get(_url_of(token, what))
            assert response.status_code == 200
            _assert_hidden(f"{where} {what}", response.content.decode(), seats, vp, None, None)
        paydays_table, end_table = _sheet(client, token)
        # During play the paydays table holds its row numbers and ships, no VP cards of anyone's sales; the end
        # table names the players and no VP count or place.
        numbers = [int(line) for line in paydays_table if line.isdigit()]
        assert numbers == list(range(1, len(numbers) + 1)), (where, paydays_table)
        assert not any(re.search(r"\d", line) for line in end_table), (where, end_table)


def _payday_form(k: int, n: int) -> dict[str, Any]:
    """Payday ``k``: the ship of one colour reaches Edo; one player sells two 5s, the next one a 3."""
    colour = SHIPS[k % len(SHIPS)]
    return {"edo1": colour, f"p{k % n}-goods_{colour}_5": 2, f"p{(k + 1) % n}-goods_{colour}_3": 1}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.walk
def test_a_whole_game_never_shows_a_running_vp_count_but_on_its_own_link(
    client: Client, players: int
) -> None:
    game = _game(players)
    _walk_every_link(client, game, "created")
    game = _begin(game)  # the start player and each player's first token
    _walk_every_link(client, game, "started")
    k = 0
    while not game.finished:
        assert k < 60, "the game never ended"
        response = _payday(client, game, {**_payday_form(k, players), "cid": f"walk-payday-{k:03}"})
        assert response.status_code == 302, response.content.decode()
        k += 1
        game.refresh_from_db()
        if not game.finished:
            _walk_every_link(client, game, f"after payday {k}")
    assert k >= 4 and game.end
    seats = list(game.seats.order_by("seat"))
    vp = _running_vp(game)
    assert sorted(vp, reverse=True)[0] > 0 and len(set(vp)) > 1  # a game in which the counts differ
    for token in (game.edit_token, game.view_token, *[s.private_token for s in seats]):
        page = client.get(_url_of(token)).content.decode()
        assert 'id="my-vp"' not in page  # the ranking shows it now, to all
        for seat in seats:
            assert re.search(rf'id="final-vp-{seat.seat}">{vp[seat.seat - 1]}<', page), (token[:6], seat.name)
        pull = client.get(_url_of(token, f"state?v={game.version - 1}"), **LIVE).content.decode()
        assert all(f'id="final-vp-{s.seat}">{vp[s.seat - 1]}<' in pull for s in seats)
    # The sheet now prints every payday's VP cards and each player's count and place, for all.
    paydays_table, end_table = _sheet(client, game.view_token)
    header_end = max(i for i, line in enumerate(paydays_table) if line.endswith(seats[-1].name))
    cells = paydays_table[header_end + 1 :]
    rows = [cells[i : i + 3 + players] for i in range(0, len(cells), 3 + players)]
    assert len(rows) == k and [r[0] for r in rows] == [str(i) for i in range(1, k + 1)]
    assert [sum(int(r[3 + i]) for r in rows) for i in range(players)] == vp
    at = end_table.index("VP cards")
    assert end_table[at + 1 : at + 1 + players] == [str(v) for v in vp], end_table
