"""The table screen (issue 25, "The big screen"; companion/views/screen.py): the page and its pull for a tracked IKI
game and a Traders of Osaka game, bad tokens and versions, and that it never offers a write nor names what is
hidden (RULINGS R16-R18 for IKI; O6 and O8 for Osaka)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from companion.services.tracker.games import NewPlayer, create_game
from scoring.calendar import NEW_YEAR, season_of
from scoring.catalogue import PERSONALITY_BY_ID
from scoring.components import Season
from scoring.rules import FIRE_MONTHS
from setupgen import Options, generate
from tests.companion.osaka.test_games import _begin, _payday
from tests.companion.osaka.test_games import _game as _osaka_game
from tests.companion.osaka.test_hidden_walk import _assert_hidden, _payday_form, _running_vp
from tests.companion.test_games_hidden import HX, NAMES
from tests.companion.test_games_hidden import Table as HiddenTable
from tests.factories import db_snapshot, make_game

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}
WRITES = re.compile(r"<form|<button|method=\"post\"|hx-post|data-live-form", re.I)


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert "no-store" in response["Cache-Control"]
    return response.content.decode()


# --- IKI ----------------------------------------------------------------------------------------------------------


def test_the_iki_screen_shows_the_scoreboard_the_month_and_the_join_code(client: Client) -> None:
    game = make_game(akebono=True)
    client.post(f"/games/{game.edit_token}/change", {"op": "score-add", "seat": 2, "value": 5})
    page = _page(client, f"/games/{game.view_token}/screen")
    assert 'id="screen-score-2">5<' in page and 'id="screen-score-1">0<' in page
    assert "swatch-red" in page and "swatch-blue" in page and 'id="screen-trade-1"' in page
    assert "Month 1" in page and 'aria-current="step"' in page
    assert f'data-live="screen-game-{game.pk}"' in page  # an outbox of its own, always empty
    assert f'data-live-stream="/live/game/{game.view_token}"' in page
    assert f'data-live-pull="/games/{game.view_token}/screen/state"' in page
    assert "<svg" in page and f"/games/{game.view_token}/" in page  # the QR code of the view link
    assert game.edit_token not in page
    assert not WRITES.search(page.split('<main id="main"', 1)[1])


def test_the_edit_link_s_screen_redirects_to_the_view_link_s(client: Client) -> None:
    game = make_game()
    response = client.get(f"/games/{game.edit_token}/screen")
    assert response.status_code == 302 and response["Location"] == f"/games/{game.view_token}/screen"


def test_each_game_page_links_its_table_screen(client: Client) -> None:
    game = make_game()
    for token in (game.edit_token, game.view_token):
        assert f'href="/games/{token}/screen" id="table-screen"' in _page(client, f"/games/{token}/")


def test_the_iki_pull_answers_204_at_the_same_version_and_the_pieces_that_changed(client: Client) -> None:
    game = make_game()
    url = f"/games/{game.view_token}/screen/state"
    assert client.get(f"{url}?v={game.version}", **LIVE).status_code == 204
    first = client.get(f"{url}?v=0", **LIVE)
    assert first.status_code == 200 and first["X-Live-Version"] == str(game.version)
    held = re.findall(r'data-h="([0-9a-f]+)"', first.content.decode())
    assert len(held) == 4  # the head, the scores, now, the order
    client.post(f"/games/{game.edit_token}/change", {"op": "score-add", "seat": 1, "value": 3})
    pulled = client.get(f"{url}?v={game.version}&h={'.'.join(held)}", **LIVE)
    body = pulled.content.decode()
    assert pulled.status_code == 200 and pulled["X-Live-Version"] == str(game.version + 1)
    assert re.findall(r'^<\w+ data-h="\w+" id="([\w-]+)"', body, re.M) == ["screen-scores"]
    assert 'id="screen-score-1">3<' in body
    assert client.get(f"{url}?v={game.version + 1}", **LIVE).status_code == 204
    plain = client.get(url)  # without the live script: the whole screen partial
    assert plain.status_code == 200 and 'id="screen"' in plain.content.decode()


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/games/" + "x" * 24 + "/screen", 404),
        ("/games/short/screen", 404),
        ("/games/" + "x" * 24 + "/screen/state?v=1", 404),
        ("/games/" + "x" * 24 + "/screen/state", 404),
        ("/osaka/games/" + "x" * 24 + "/screen", 404),
        ("/osaka/games/short/screen/state", 404),
        ("/osaka/games/" + "x" * 24 + "/screen/state?v=3", 404),
    ],
)
def test_a_bad_token_is_404(client: Client, url: str, status: int) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert "There is no game at this address" in response.content.decode()


@pytest.mark.parametrize("v", ["abc", "1.5", "", "-1", "9999999999"])
def test_a_bad_version_is_400(client: Client, v: str) -> None:
    game = make_game()
    osaka = _osaka_game(2)
    for url in (f"/games/{game.view_token}/screen/state", f"/osaka/games/{osaka.view_token}/screen/state"):
        response = client.get(f"{url}?v={v}", **LIVE)
        assert response.status_code == 400 and "whole number" in response.content.decode()


def test_the_screen_never_writes(client: Client) -> None:
    """Every method but GET and HEAD is refused on the screen and its pull, and nothing in the database moves."""
    game = make_game()
    osaka = _osaka_game(2)
    before = db_snapshot()
    for url in (
        f"/games/{game.view_token}/screen",
        f"/games/{game.edit_token}/screen/state",
        f"/osaka/games/{osaka.edit_token}/screen",
        f"/osaka/games/{osaka.view_token}/screen/state",
    ):
        for method in ("post", "put", "delete", "patch"):
            response = getattr(client, method)(url, {"op": "score-add", "seat": 1, "value": 3})
            assert response.status_code == 405, (method, url)
        assert client.head(url).status_code in (200, 302)
    assert db_snapshot() == before


class ScreenTable(HiddenTable):
    """The hidden-information walk (tests/companion/test_games_hidden.py), reading the screen and its pull. The
    tracker's own pages of this very game (2 players, Akebono, the Grand Master, the same setup code) are read at
    every phase by that test's ``akebono-2-grand-master`` walk: here only the screen's are, so the walk costs a
    quarter of what reading both twice did. The edit link's screen is the view link's (a redirect:
    ``test_the_edit_link_s_screen_redirects_to_the_view_link_s``), so it is read once; its pull on both links."""

    def look(self) -> str:
        """Reads the screen and its pulls; returns the screen."""
        screen = _page(self.client, f"/games/{self.game.view_token}/screen")
        self.check("screen", screen)
        for token in (self.game.edit_token, self.game.view_token):
            pull = self.client.get(f"/games/{token}/screen/state?v=0", **LIVE)
            assert pull.status_code == 200
            self.check("screen pull", pull.content.decode())
        return screen


@pytest.mark.walk
def test_a_whole_game_on_the_screen_names_no_draw_before_it_is_revealed(client: Client) -> None:
    setup = generate(Options(players=2, akebono=True, grand_master=True), seed="K7MX2QPA")
    game = create_game(
        players=[NewPlayer(n, c) for n, c in zip(NAMES, ("red", "blue"), strict=False)],
        akebono=True,
        grand_master=True,
        setup=setup.to_json(),
        who="test",
    )
    table = ScreenTable(client, game)
    revealed_seen = False
    while not game.finished:
        table.look()
        made = table.reveal_due()
        if made:  # a reveal the table made shows on the screen, under "Now" while it is due
            screen = table.look()  # (without one, the same state was just read)
            texts = {t for key in made for t in table.secrets.get(key, ())}
            revealed_seen |= any(t in screen for t in texts if not t.startswith("value="))
        table.next()
    game.refresh_from_db()
    assert game.month == NEW_YEAR and revealed_seen
    assert "game over" in _page(client, f"/games/{game.view_token}/screen")


def test_the_iki_screen_shows_what_is_overdue_the_bridge_the_income_and_the_order(client: Client) -> None:
    """A table that reveals nothing (its tracker's Next goes on without). In month 2 the screen lists each reveal
    still due since month 1, hidden, and Spring's Personalities on the bridge (public from the start; later
    seasons' hidden until revealed, RULINGS R18); in its phase B, that the order is read on the board. In the first
    fire month's phase C (Summer): each player's trade track income, the firefighting order, and the bridge saying
    its Personalities are not revealed yet, naming none of them."""
    game = make_game(NAMES[:2], akebono=True)
    drawn = game.setup["akebono"]["personalities"]

    def next_until(reached: Any) -> str:
        while not reached(game):
            form = {"op": "next", "v": game.version, "was": f"{game.month}{game.phase}"}
            assert client.post(f"/games/{game.edit_token}/change", form).status_code == 302
            game.refresh_from_db()
        return _page(client, f"/games/{game.view_token}/screen")

    screen = next_until(lambda g: g.month == 2)
    assert re.search(
        r"Due and not revealed yet</strong>\s*<span class=\"screen-due\">[^<]*New Character of month 1[;<]",
        screen,
    )
    spring = ", ".join(PERSONALITY_BY_ID[p].name for p in drawn[Season.SPRING.value])
    assert f"On the Nihonbashi bridge:</strong> {spring}" in screen
    screen = next_until(lambda g: g.phase == "B")  # phase B is played in the order of the Ikizama spaces
    assert "In the order of the Ikizama spaces: read it on the board." in screen
    screen = next_until(lambda g: g.month == FIRE_MONTHS[0] and g.phase == "C")
    assert season_of(game.month) is Season.SUMMER
    assert re.search(r"Trade track income now:</strong>\s*nothing yet, for anyone.", screen)
    order = screen.split('id="screen-order"', 1)[1].split("</section>", 1)[0]
    assert "Firefighting order" in order and all(n in order for n in NAMES[:2])
    assert "On the Nihonbashi bridge:</strong> not revealed yet." in screen
    months = ", ".join(str(m) for m in range(1, game.month))  # one line for them all, a kind at a time
    assert f"he New Characters of months {months} and {game.month};" in screen  # this month's, due in phase A
    summer = drawn[Season.SUMMER.value]
    assert summer and not any(PERSONALITY_BY_ID[p].name in screen for p in summer)


def test_the_htmx_header_changes_nothing(client: Client) -> None:
    game: Game = make_game()
    page = client.get(f"/games/{game.view_token}/screen", **HX)
    assert page.status_code == 200 and "<html" in page.content.decode()


# --- Traders of Osaka ---------------------------------------------------------------------------------------------


def test_the_osaka_screen_shows_tokens_and_the_start_player_and_links_back(client: Client) -> None:
    game = _begin(_osaka_game(3), ["green", "red", "blue"])
    page = _page(client, f"/osaka/games/{game.view_token}/screen")
    assert 'id="screen-tok-1-green">1<' in page and 'id="screen-tok-2-red">1<' in page
    assert 'id="screen-total-3">1<' in page
    assert "Start player" in page and "David" in page
    assert f'data-live-stream="/live/osaka/{game.view_token}"' in page and "<svg" in page
    assert game.edit_token not in page
    assert not WRITES.search(page.split('<main id="main"', 1)[1])
    for token in (game.edit_token, game.view_token, game.seats.first().private_token):  # type: ignore[union-attr]
        assert f'href="/osaka/games/{token}/screen" id="table-screen"' in _page(
            client, f"/osaka/games/{token}/"
        )
        response = client.get(f"/osaka/games/{token}/screen")
        if token != game.view_token:
            assert response["Location"] == f"/osaka/games/{game.view_token}/screen"


@pytest.mark.parametrize("players", [3])
def test_a_whole_osaka_game_on_the_screen_shows_no_running_vp_count(client: Client, players: int) -> None:
    """RULINGS O6, O8: during play the screen shows the payday just played as the table saw it and no running
    count; at the end every count and place."""
    game = _osaka_game(players)
    game = _begin(game)
    k = 0
    paydays: list[Any] = []
    while not game.finished:
        assert k < 60
        response = _payday(client, game, {**_payday_form(k, players), "cid": f"screen-payday-{k:03}"})
        assert response.status_code == 302
        k += 1
        game.refresh_from_db()
        paydays = [
            e.result["payday"] for e in game.events.filter(kind="payday", undone=False).order_by("version")
        ]
        if game.finished:
            break
        seats = list(game.seats.order_by("seat"))
        vp = _running_vp(game)
        for where, url, headers in (
            ("screen", f"/osaka/games/{game.view_token}/screen", {}),
            ("pull", f"/osaka/games/{game.edit_token}/screen/state?v={game.version - 1}", LIVE),
        ):
            html = client.get(url, **headers).content.decode()
            _assert_hidden(f"{where} after payday {k}", html, seats, vp, None, paydays[-1])
    vp = _running_vp(game)
    page = _page(client, f"/osaka/games/{game.view_token}/screen")
    for seat in game.seats.all():
        assert f'id="screen-vp-{seat.seat}">{vp[seat.seat - 1]}<' in page
    assert game.end in page


# --- the service worker -------------------------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_never_cached_for_long(
    client: Client, settings: Any
) -> None:
    settings.STATIC_URL = "/files/"
    from companion.views import offline

    response = client.get("/sw.js")
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert 'const STATIC = "/files/";' in body and offline.PLACEHOLDER not in body
    assert 'addEventListener("fetch"' in body
    assert client.post("/sw.js").status_code == 405
