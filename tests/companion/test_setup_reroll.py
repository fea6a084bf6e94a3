"""Issue 26 through the Django test client: re-roll one part, house bans and requirements, one code everywhere
(/setup/, /games/new/, /score/, the API, the command), the table's names carried along."""

from __future__ import annotations

import json
import re
from html import unescape
from io import StringIO
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from companion import links
from companion.models.games import Game
from companion.models.scoresheets import ScoreSheet
from companion.setup_query import new_table
from setupgen import Options, applicable_parts, generate, parse_code
from tests.companion.test_checks_views import RULEBOOK_PAD
from tests.companion.test_links import LAN, LOCAL, decode_qr
from tests.companion.test_setup_link import form_of
from tests.companion.test_setup_pdf import pdf_text
from tests.setupgen.helpers import named_hidden_draws
from tests.setupgen.test_code import draws, owned

pytestmark = pytest.mark.django_db
TABLE = new_table()
SEED = "K7MX2QPA"
OPTIONS = [Options(3), Options(2), Options(4, akebono=True), Options(2, akebono=True, grand_master=True)]


def query_of(options: Options, **extra: str | list[str]) -> str:
    params: dict[str, Any] = {"players": options.players}
    if options.akebono:
        params["akebono"] = 1
    if options.grand_master:
        params["grand_master"] = 1
    return urlencode({**params, **extra}, doseq=True)


def params(location: str) -> dict[str, list[str]]:
    return parse_qs(urlparse(location).query)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_each_re_roll_keeps_every_other_part_and_says_which(options: Options) -> None:
    client = Client()
    before = generate(options, SEED)
    for part in applicable_parts(options):
        response = client.get(f"/setup/game?{query_of(options, seed=SEED, table=TABLE, reroll=part)}")
        assert response.status_code == 302
        got = params(response["Location"])
        code = got["seed"][0]
        assert got["table"] == [TABLE] and got["drawn"] == [part]
        assert parse_code(code).rerolls.keys() == {part}
        after = generate(options, code)
        kept = {k: v for k, v in draws(before).items() if not owned(k, part)}
        assert {k: draws(after)[k] for k in kept} == kept
        page = client.get(response["Location"]).content.decode()
        assert 'id="drawn-line"' in page and "drawn again, keeping every other part" in page
        # The API gives the page's setup from the new code, and the page names no hidden draw.
        assert client.get(f"/api/v1/setup?{query_of(options, seed=code)}").json() == after.to_json()
        assert named_hidden_draws(page, after) == [], part


@pytest.mark.parametrize("part", ["buildings", "first-player", "all"])
def test_a_re_roll_keeps_the_ticks_of_the_steps_it_left_alone(client: Client, part: str) -> None:
    """The table set up the board and the buildings, then drew one part again: the steps that read the same keep
    their ticks (the main board is still on the table); a step whose draws changed starts unticked."""
    from setupgen.checklist import checklist

    options, table = Options(4, akebono=True), new_table()
    ticked = ["general-board", "akebono-buildings", "player-first-player", "akebono-new-characters"]
    client.post(f"/setup/ticks?{query_of(options, seed=SEED, table=table)}", {"done": ticked})
    moved = client.get(f"/setup/game?{query_of(options, seed=SEED, table=table, reroll=part)}")
    assert moved.status_code == 302 and params(moved["Location"])["table"] == [table]
    code = params(moved["Location"])["seed"][0]
    page = client.get(moved["Location"]).content.decode()
    kept = set(re.findall(r'id="tick-([\w-]+)"[^>]* checked', page))

    def shown(options: Options, code: str) -> dict[str, tuple[str, ...]]:
        return {s.id: (s.title, s.text, *s.details) for s in checklist(generate(options, code))}

    before, after = shown(options, SEED), shown(options, code)
    assert kept == {step for step in ticked if before[step] == after[step]}
    assert {"general-board", "akebono-new-characters"} <= kept  # never drawn again by these re-rolls
    # The other phones still show the old code: the page says the table needs its link again.
    said = re.search(r'id="drawn-line">([^<]+)<', page)
    assert said is not None and unescape(said.group(1)).endswith(
        "The other phones still show the old setup: share this page's link with them again."
    )


def test_re_roll_all_keeps_the_house_rules_and_an_unknown_part_is_refused() -> None:
    client = Client()
    code = "K7MX2QPA.XF"  # the Pub banned
    response = client.get(
        f"/setup/game?{query_of(Options(4, akebono=True), seed=code, table=TABLE, reroll='all')}"
    )
    new = parse_code(params(response["Location"])["seed"][0])
    assert new.seed != SEED and new.house == parse_code(code).house and not new.rerolls
    bad = client.get(f"/setup/game?{query_of(Options(4), seed=SEED, table=TABLE, reroll='boat-sides')}")
    assert bad.status_code == 400 and "no part" in bad.content.decode()


def test_a_ban_goes_into_the_code_the_page_and_the_sheet() -> None:
    client = Client()
    options = Options(4, akebono=True)
    response = client.get(
        f"/setup/game?{query_of(options, seed=SEED, house=['ban:pub-izakaya', 'require:tea-house'])}"
    )
    assert response.status_code == 302
    code = params(response["Location"])["seed"][0]
    assert code == "K7MX2QPA.XF.YK"
    setup = generate(options, code)
    assert "pub-izakaya" not in setup.buildings and "tea-house" in setup.buildings
    page = client.get(response["Location"]).content.decode()
    assert "House rules: no Pub (Izakaya); always Tea House" in unescape(page)
    sheet = client.get(f"/setup/sheet.pdf?{query_of(options, seed=code)}")
    assert sheet.status_code == 200
    assert "House rules: no Pub (Izakaya); always Tea House" in pdf_text(sheet.content)[1]
    # "Change options" brings the choices back to the form.
    options_url = unescape(re.search(r'href="(/setup/\?[^"]+)">Change options', page).group(1))  # type: ignore[union-attr]
    form = client.get(options_url).content.decode()
    assert 'value="ban:pub-izakaya" selected' in form and 'value="require:tea-house" selected' in form


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ({"ban": "well,inn,shrine,farmhouse,restaurant"}, "ban", "too few buildings left"),
        (
            {"require": "farmhouse,tea-house,inn-for-sailors", "akebono": "1"},
            "require",
            "at most 2 stay in play",
        ),
        ({"ban": "nobody"}, "ban", "not a building or a personality"),
        ({"require": "pub-izakaya"}, "require", "only in play with Akebono"),
        ({"seed": "K7MX2QPA.Q2"}, "seed", "starting with 'Q'"),
    ],
)
def test_impossible_house_rules_are_a_400_naming_the_field(
    query: dict[str, str], field: str, words: str
) -> None:
    client = Client()
    api = client.get(f"/api/v1/setup?{urlencode({'players': 4, **query})}")
    assert api.status_code == 400
    body = api.json()
    assert body["error"]["field"] == field and words in body["error"]["message"], body
    page = client.get(f"/setup/game?{urlencode({'players': 4, **query})}")
    assert page.status_code == 400 and words.lower() in unescape(page.content.decode()).lower()


def test_the_api_takes_ban_require_and_codes() -> None:
    client = Client()
    data = client.get("/api/v1/setup?players=3&seed=K7MX2QPA&ban=well&require=shrine").json()
    assert data["seed"] == "K7MX2QPA.XB.Y9"
    assert "well" not in data["buildings"] and "shrine" in data["buildings"]
    assert data["house_rules"]["banned_buildings"] == ["well"]
    again = client.get("/api/v1/setup?players=3&seed=k7mx-2qpa.xb.y9").json()
    assert again == data
    plain = client.get("/api/v1/setup?players=3&seed=K7MX2QPA").json()
    assert plain == generate(Options(3), SEED).to_json() and plain["redrawn"] == []


def test_the_command_takes_the_same_options() -> None:
    out = StringIO()
    call_command(
        "setup", "--players", "3", "--seed", SEED, "--ban", "well", "--require", "shrine", stdout=out
    )
    assert json.loads(out.getvalue()) == Client().get("/api/v1/setup?players=3&seed=K7MX2QPA.XB.Y9").json()
    out = StringIO()
    call_command("setup", "--players", "3", "--seed", SEED, "--reroll", "fires", stdout=out)
    made = json.loads(out.getvalue())
    assert parse_code(made["seed"]).rerolls.keys() == {"fires"} and made["buildings"] == list(
        generate(Options(3), SEED).buildings
    )
    with pytest.raises(CommandError, match="too few buildings left"):
        call_command("setup", "--players", "3", "--ban", "well,inn,shrine,farmhouse,restaurant")


NAMES = ["Aiko", "Bunta", "Chiyo", "Daisuke"]


def test_names_and_the_code_travel_into_the_tracker_and_the_score() -> None:
    client = Client()
    options = Options(4, akebono=True)
    start = client.get(f"/setup/game?{query_of(options, house=['ban:pub-izakaya'], name=NAMES)}", follow=True)
    page = start.content.decode()
    assert "Seats, clockwise: 1 Aiko, 2 Bunta, 3 Chiyo, 4 Daisuke" in page
    code = params(start.redirect_chain[-1][0])["seed"][0]
    track = unescape(re.search(r'href="(/games/new/\?[^"]+)">Track this game', page).group(1))  # type: ignore[union-attr]
    form_page = client.get(track).content.decode()
    hidden, _ = form_of(form_page)
    assert hidden["seed"] == code and "House rules: no Pub (Izakaya)" in unescape(form_page)
    assert "/setup/?players=4&akebono=1&ban=pub-izakaya" in unescape(
        form_page
    )  # "Change the players or options"
    for i, name in enumerate(NAMES):
        assert f'name="name-{i}" value="{name}"' in form_page
    players = {f"name-{i}": n for i, n in enumerate(NAMES)} | {
        f"colour-{i}": c for i, c in enumerate(["red", "blue", "green", "yellow"])
    }
    response = client.post("/games/new/", {**hidden, **players})
    assert response.status_code == 302, response.content.decode()
    game = Game.objects.get()
    assert game.setup == generate(options, code).to_json()
    assert "pub-izakaya" not in game.setup["buildings"]
    score = unescape(re.search(r'href="(/score/\?[^"]+)">Score the end of the game', page).group(1))  # type: ignore[union-attr]
    score_page = client.get(score).content.decode()
    assert f'value="{code}"' in score_page
    for i, name in enumerate(NAMES):
        assert f'name="name-{i}" value="{name}"' in score_page
    posted = client.post(
        "/score/",
        {**players, "edition": "akebono", "setup_kind": "seed", "seed": code},
    )
    assert posted.status_code == 302, posted.content.decode()


def test_the_names_line_holds_the_seats_names_only() -> None:
    """The options form sends its four name fields, blank ones too: "Players: Aiko, Bunta, Chiyo, " had a
    trailing comma, and a 2-player setup listed four names where the tracker then seats two. Each name stands
    with its seat number: the steps say "Seat 2 is the first player", and the tracker seats the names in this
    order, so the table sits down as the line says."""
    client = Client()
    three = client.get(f"/setup/game?{query_of(Options(3), name=[*NAMES[:3], ''])}", follow=True)
    assert "Seats, clockwise: 1 Aiko, 2 Bunta, 3 Chiyo<" in three.content.decode()
    two = client.get(f"/setup/game?{query_of(Options(2), name=NAMES)}", follow=True).content.decode()
    assert "Seats, clockwise: 1 Aiko, 2 Bunta<" in two
    track = unescape(re.search(r'href="(/games/new/\?[^"]+)">Track this game', two).group(1))  # type: ignore[union-attr]
    assert params(track)["name"] == ["Aiko", "Bunta"]


def test_the_names_go_with_every_link_of_the_page_and_its_saved_ticks() -> None:
    """The names were typed on one phone only: its share link, view-only link and QR code left them out, so the
    other phones showed no seat names and their "Track this game" asked for them again, and the no-JavaScript
    "Save ticks" came back to the page without them."""
    client = Client()
    start = client.get(f"/setup/game?{query_of(Options(3), name=NAMES[:3])}", follow=True)
    page = start.content.decode()
    seats = "Seats, clockwise: 1 Aiko, 2 Bunta, 3 Chiyo<"
    share = unescape(re.search(r'id="share-link" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    view = unescape(re.search(r'id="view-link" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    for link in (share, view):
        assert params(link)["name"] == NAMES[:3]
        assert seats in client.get(link.removeprefix("http://testserver")).content.decode()
    other = client.get(share.removeprefix("http://testserver")).content.decode()
    track = unescape(re.search(r'href="(/games/new/\?[^"]+)">Track this game', other).group(1))  # type: ignore[union-attr]
    assert params(track)["name"] == NAMES[:3]
    qr = unescape(re.search(r'<img src="(/setup/qr\.svg\?[^"]+)"', page).group(1))  # type: ignore[union-attr]
    assert decode_qr(client.get(qr).content.decode()) == [share]
    action = unescape(re.search(r'id="setup-ticks"\s+method="post"\s+action="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    saved = client.post(action, {"done": ["general-board"]})
    assert saved.status_code == 303 and params(saved["Location"])["name"] == NAMES[:3]
    assert seats in client.get(saved["Location"]).content.decode()


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's interfaces, as on a laptop at the table (tests/companion/test_links.py)."""
    monkeypatch.setattr(links, "interface_addresses", lambda: list(LAN))


@pytest.mark.usefixtures("lan")
def test_the_qr_code_reads_back_as_the_share_link() -> None:
    """Opened at a loopback address, the QR code carries the LAN address (companion/links.py), as the game's share
    page does; the page loads it only when asked (the first load's budget)."""
    client = Client()
    query = query_of(Options(4, akebono=True), seed="K7MX2QPA.XF", table=TABLE)
    page = client.get(f"/setup/game?{query}", **LOCAL).content.decode()
    link = unescape(re.search(r'id="share-link" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    assert link.startswith("http://192.168.1.20:8000/setup/game?")
    qr = unescape(re.search(r'<img src="(/setup/qr\.svg\?[^"]+)" loading="lazy"', page).group(1))  # type: ignore[union-attr]
    response = client.get(qr, **LOCAL)
    assert response["Content-Type"] == "image/svg+xml"
    assert decode_qr(response.content.decode()) == [link]
    assert client.get(qr.replace(TABLE, "forged"), **LOCAL).status_code == 400
    assert client.get(qr.replace("K7MX2QPA.XF", "K7MX2QPA.XF.XF"), **LOCAL).status_code == 400


def test_the_pad_check_reads_a_code_with_house_rules() -> None:
    """/check/ reads the seed through setupgen.generate, the one reader of codes: a code with a ban and a
    requirement narrows the pad to that setup's buildings, and the walk keeps the code."""
    client = Client()
    code = "K7MX2QPA.XB.Y9"  # the Well banned, the Shrine required
    query = urlencode({**RULEBOOK_PAD, "seed": code, "p0-variety": "12"})
    assert client.get(f"/check/?{query}").status_code == 200
    assert client.post("/check/walk/", {"q": query, "line": "0:variety"}).status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.seed == code
    made = generate(Options(2), code)
    assert "well" not in made.buildings and "shrine" in made.buildings
    assert sorted(sheet.table["setup"]["buildings"]) == sorted(made.buildings)
