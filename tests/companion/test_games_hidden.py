"""Nothing hidden is named before it is revealed (issue 20, "Done when", first bullet; RULINGS R16-R18).

A whole tracked game is walked month by month, phase by phase, with an edit phone and a view phone (the Django test
client), the table revealing every due draw except a few it never reveals. At each phase every page, partial, poll
reply, answer and log of the tracker is read and must not name a draw not yet revealed. The setup's draws come
from setupgen, and the hidden texts from the calendar's own events seen with nothing hidden, so every secret is
searched for: a fire's Nagaya, a blocking tile (and the Grand Master's move), a season's Personalities and river
tokens, a month's New Character.

The same walk reads each of those pages for plain words too (issue 23, tests/companion/test_plain_words.py): no
ruling number or file name, and the seed called the setup code. Reading every tracker page at every phase is the
costliest thing the suite does, so it is done once, for both.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from companion.models.games import Game
from companion.services.tracker.games import NewPlayer, create_game
from scoring.calendar import NEW_YEAR, due_reveals, month_events, season_reveal
from scoring.catalogue import (
    BOAT_BY_ID,
    BUILDING_BY_ID,
    CHARACTER_BY_ID,
    PERSONALITY_BY_ID,
    RETIREMENT_TOKEN_BY_ID,
    TOKEN_BY_ID,
)
from scoring.components import SEASONS
from setupgen import Options, generate
from tests.companion.test_plain_words import forbidden_in, seed_words

pytestmark = [pytest.mark.django_db, pytest.mark.long]
HX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Anaïs", "Ben", "Chie", "Dai")
NEVER_REVEALED = frozenset(
    {"season-autumn", "new-character-5", "new-character-12", "fire-8", "blocking-tile-6", "blocking-tile-7"}
)
"""Draws the table of this test never reveals: they must stay unnamed to the end of the game."""
PUBLIC_NAMES = frozenset(
    x.name
    for by_id in (BUILDING_BY_ID, BOAT_BY_ID, TOKEN_BY_ID, RETIREMENT_TOKEN_BY_ID)
    for x in by_id.values()  # type: ignore[attr-defined]
)
"""Names every page may show (a New Character whose name is in one, e.g. the Doctor or the Express Messenger of
the retirement tokens, is looked for by its id in the characters' picker)."""


def _secrets(game: Game) -> dict[str, set[str]]:
    """Every hidden text of the game by its reveal key: the calendar's secrets seen with nothing hidden, and the
    bare names a picker or list would show (Personalities of a later season, New Characters)."""
    found: dict[str, set[str]] = {}
    for month in range(1, NEW_YEAR + 1):
        for event in month_events(month, game.options, game.setup):
            if event.reveal and event.secret:
                found.setdefault(event.reveal, set()).update(event.secret)
    akebono = game.setup.get("akebono") or {}
    for season in SEASONS[1:]:
        for pid in (akebono.get("personalities") or {}).get(season.value) or []:
            found.setdefault(season_reveal(season), set()).add(PERSONALITY_BY_ID[pid].name)
    for month, cid in (akebono.get("new_characters") or {}).items():
        name = CHARACTER_BY_ID[cid].name
        # then only its id is looked for: a name in a public one, or month 12's pair, which the rules text of the
        # end of Winter names together (RULINGS R26), giving nothing away
        public = any(name in text for text in PUBLIC_NAMES) or month == "12"
        found[f"new-character-{month}"] = {f'value="{cid}"'} | (set() if public else {name})
    return found


def _characters_offered(html: str) -> str:
    """The "Hired or drafted" picker (where a New Character is looked for by its id)."""
    found = re.search(r'<select id="record-characters" name="key">(.*?)</select>', html, re.S)
    return found.group(1) if found else ""


class Table:
    """The two phones of one tracked game, and what the table revealed so far."""

    def __init__(self, client: Client, game: Game) -> None:
        self.client = client
        self.game = game
        self.secrets = _secrets(game)
        self.version = game.version
        self.read = 0

    def check(self, what: str, html: str) -> None:
        """``html`` names no draw the table has not revealed (a text shared with a revealed one is not looked for:
        the tiles 1-4 repeat, two fires may burn the same Nagaya)."""
        self.game.refresh_from_db()
        assert forbidden_in(html) + seed_words(html) == [], (
            f"{what} at month {self.game.month} {self.game.phase}"
        )
        revealed = set(self.game.revealed)
        shown = {text for key in revealed for text in self.secrets.get(key, ())}
        pickers = _characters_offered(html)
        for key, texts in self.secrets.items():
            if key in revealed:
                continue
            for text in texts - shown:
                where = pickers if text.startswith("value=") else html
                assert text not in where, (
                    f"{what} at month {self.game.month} {self.game.phase} names {text!r} ({key} not revealed)"
                )
        self.read += 1

    def look(self) -> None:
        """Every page, partial, poll reply and log of the tracker, on the edit and the view phone."""
        for token in (self.game.edit_token, self.game.view_token):
            phone = "edit" if token == self.game.edit_token else "view"
            for what, url, headers in (
                ("page", f"/games/{token}/", {}),
                ("partial", f"/games/{token}/state", HX),
                ("poll reply", f"/games/{token}/state?v={self.version}", HX),
                ("log", f"/games/{token}/log", {}),
            ):
                response = self.client.get(url, **headers)
                assert response.status_code in (200, 204), (what, response.status_code)
                self.check(f"{phone} phone's {what}", response.content.decode())
        self.version = self.game.version

    def post(self, what: str, **form: Any) -> Any:
        response = self.client.post(f"/games/{self.game.edit_token}/change", form, **HX)
        assert response.status_code == 200, (what, response.content.decode()[:300])
        self.check(f"the answer to {what}", response.content.decode())
        return response

    def reveal_due(self) -> list[str]:
        g = self.game
        due = due_reveals(g.month, g.phase_enum, g.options, g.setup)
        made = []
        for key in due:
            if key not in g.revealed and key not in NEVER_REVEALED:
                self.post(f"reveal {key}", op="reveal", key=key)
                made.append(key)
        return made

    def next(self) -> None:
        g = self.game
        where = (g.month, g.phase)
        self.post("Next", op="next", v=g.version, was=f"{g.month}{g.phase}")
        g.refresh_from_db()
        assert (g.month, g.phase) != where or g.finished, f"Next did not move on from {where}"


#: Every edition and player count whose draws differ: 2 players (fires of 2-player strength, a blocking tile each
#: month: RULINGS R17), 3-4 players (fires of 3-4-player strength), Akebono (a season's Personalities, a month's
#: New Character) and the Grand Master's moves. Base at 2 and 4 players, Akebono at 3 (the plain-words crawl's
#: game) and 2 with the Grand Master. Akebono at 2 without the Grand Master and at 4 were walked too until their
#: draws were seen to be the same kinds as these: 2-player fires and tiles (base-2, the Grand Master's game),
#: 3-4-player fires (base-4, akebono-3), Akebono's draws (akebono-3, the Grand Master's game).
GAMES = [
    pytest.param(2, False, False, id="base-2"),
    pytest.param(4, False, False, id="base-4"),
    pytest.param(3, True, False, id="akebono-3"),
    pytest.param(2, True, True, id="akebono-2-grand-master"),
]


@pytest.mark.parametrize(("players", "akebono", "grand_master"), GAMES)
@pytest.mark.walk
def test_a_whole_game_names_no_draw_before_it_is_revealed(
    client: Client, players: int, akebono: bool, grand_master: bool
) -> None:
    setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed="K7MX2QPA")
    game = create_game(
        players=[
            NewPlayer(n, c) for n, c in zip(NAMES, ("red", "blue", "green", "yellow")[:players], strict=False)
        ],
        akebono=akebono,
        grand_master=grand_master,
        setup=setup.to_json(),
        who="test",
    )
    table = Table(client, game)
    assert table.secrets, "the setup has hidden draws"
    table.check("the share page", client.get(f"/games/{game.edit_token}/share").content.decode())
    revealed: list[str] = []
    while not game.finished:
        table.look()
        made = table.reveal_due()
        if (
            made
        ):  # what the table sees after its reveals (when it revealed nothing, the same state was just read)
            table.look()
        revealed += made
        table.next()
    table.look()
    for token in (game.edit_token, game.view_token):
        table.check("the share page", client.get(f"/games/{token}/share").content.decode())
    game.refresh_from_db()
    assert game.month == NEW_YEAR and game.finished
    assert set(revealed) == set(table.secrets) - NEVER_REVEALED  # every other draw was revealed on its way
    assert table.read > 150
