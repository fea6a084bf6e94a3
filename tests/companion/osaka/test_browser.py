"""Traders of Osaka in a phone-sized browser (headless Chromium, 390x844, tests/conftest.py): the payday calculator
with htmx and without JavaScript; the tracked game on several phones (a change shows on the others within 3 s),
taps that update in place without moving the page, the outbox of a phone that lost its connection, the view-only
phone, each player's own phone with their VP count (RULINGS O6), and the end with the ranking."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.osaka import OsakaGame
from companion.services.osaka import NewPlayer, create_game, record
from scoring.osaka.components import TRADERS
from tests.companion.osaka.test_games import _begin
from tests.phones import select_room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The smallest target a thumb should get (the CSS asks 48 px; a few controls are 40-44).
MIN_TARGET = 40


def _settled(page: Any) -> None:
    """Wait until htmx (the calculator) has nothing in flight and nothing being swapped (see
    test_scorepad_browser), and no tap of the game page waits for its answer (live.js marks it)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added, .live-waiting')"
    )


def _fits_the_phone(page: Any) -> None:
    """No sideways scrolling, and every visible button and field is big enough for a thumb (a segmented choice's
    target is its label; its input is hidden)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    small = page.evaluate(
        """(min) => [...document.querySelectorAll(
                'main button, main input:not([type=hidden]):not(.segmented input), main select, .segmented > label')]
             .filter((el) => el.offsetParent !== null)
             .map((el) => [el.name || el.id, el.getBoundingClientRect().height])
             .filter(([, h]) => h < min)""",
        MIN_TARGET,
    )
    assert small == []


def test_the_calculator_as_you_type(live_server: Any, page: Any, screenshot: Any) -> None:
    page.goto(live_server.url + "/osaka/payday/")
    page.get_by_text("2", exact=True).click()  # players
    _settled(page)
    page.select_option("#id_edo1", "yellow")
    _settled(page)
    page.select_option("#id_edo2", "red")
    _settled(page)
    page.locator(".osaka-sunk label").filter(has_text="Blue").click()  # on the waves
    _settled(page)
    page.fill("[name=p0-name]", "Ann")
    page.get_by_label('Yellow goods "5"').first.fill("1")
    page.get_by_label('Yellow goods "3"').first.fill("1")
    page.get_by_label('Yellow goods "2"').first.fill("1")
    page.locator("[name=p0-tokens_yellow]").fill("1")
    page.locator("[name=p0-goods_blue_2]").fill("2")
    page.locator("[name=p0-insurance_blue_2]").fill("1")
    page.locator("[name=p1-goods_red_2]").fill("3")
    page.locator("[name=p1-goods_red_3]").fill("1")
    expect(page.locator("#vp-0")).to_have_text("4 VP cards")
    expect(page.locator("#osaka-result-p0")).to_contain_text("take 2, 3, 5 and 1 from the draw pile")
    expect(page.locator("#osaka-result-p0")).to_contain_text("insures 2, 2; nothing lost")
    expect(page.locator("#vp-1")).to_have_text("3 VP cards")
    expect(page.locator("#osaka-result tbody tr").first.locator("th, td")).to_have_text(
        ["Ann", "4", "+1", "0"]
    )
    assert page.locator("[name=p0-tokens_yellow]").input_value() == "1"  # typing was never swapped away
    _fits_the_phone(page)
    screenshot(page, "osaka-calculator")


def test_the_calculator_without_javascript(live_server: Any, new_context: Any, screenshot: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + "/osaka/payday/")
    page.select_option("#id_edo1", "green")
    page.click("#work-it-out")  # reloads with the green blocks
    page.locator("[name=p0-goods_green_5]").fill("2")
    page.locator("[name=p0-tokens_green]").fill("6")
    page.locator("[name=p0-tokens_red]").fill("1")
    page.click("#work-it-out")
    expect(page.locator("#vp-0")).to_have_text("5 VP cards")  # (5 + 6) x 2 = 22 -> 25
    expect(page.locator("#osaka-end")).to_contain_text("The game ends after the green payday: White has 8")
    screenshot(page, "osaka-calculator-no-js")


def _game(players: int = 3) -> OsakaGame:
    names = [NewPlayer("Anaïs", "white"), NewPlayer("David", "pink"), NewPlayer("Dominique", "gray")]
    return create_game(players=names[:players])


def test_a_game_from_creation_to_the_first_payday(live_server: Any, page: Any, screenshot: Any) -> None:
    page.goto(live_server.url + "/osaka/games/new/")
    page.fill("#id_name1", "Anaïs")
    page.fill("#id_name2", "David")
    page.fill("#id_name3", "Dominique")
    screenshot(page, "osaka-game-new")
    page.click("#create")
    page.wait_for_url("**/share")
    assert page.locator(".qr svg >> visible=true").count() == 2  # the own links wait behind their names
    screenshot(page, "osaka-game-share")
    page.click("text=Go to the game")
    page.wait_for_load_state()  # live.js binds the game's forms on load: a tap before that would post the page
    for seat, (total, cards) in enumerate([("9", "3"), ("8", "3"), ("10", "2")], start=1):
        page.select_option(f"#total{seat}", total)
        page.select_option(f"#cards{seat}", cards)
    page.click("#who-starts")
    expect(page.locator("#start-text")).to_have_text("David starts: the smallest total drawn (8).")
    page.click("#change-2 summary")
    page.click("#take-2-red-go")
    expect(page.locator("#tok-2-red")).to_have_text("1")
    expect(page.locator("#change-2")).to_have_attribute("open", "")  # the swap kept it open
    for seat in (1, 3):  # each player takes a first token before the first payday (RULINGS O7)
        page.click(f"#change-{seat} summary")
        page.click(f"#take-{seat}-green-go")
        expect(page.locator(f"#tok-{seat}-green")).to_have_text("1")
    _fits_the_phone(page)
    screenshot(page, "osaka-game-start")
    page.click("#enter-payday")
    page.wait_for_load_state()  # htmx binds the ships' change on load: a choice made before that sends nothing
    with page.expect_response(lambda r: "/payday?" in r.url and r.request.method == "GET"):
        page.select_option("#id_edo1", "red")
    _settled(page)
    page.locator("[name=p1-goods_red_5]").fill("2")
    page.locator("[name=p2-goods_red_2]").fill("1")
    expect(page.locator("#vp-1")).to_have_text("3 VP cards")  # (5 + 1) x 2 = 12 -> 15
    _fits_the_phone(page)
    screenshot(page, "osaka-game-payday")
    page.click("#work-it-out")  # "Record this payday"
    page.wait_for_url("**/#latest")
    expect(page.locator("#latest")).to_contain_text("Payday: red. Tokens: David +1 red, Dominique +1 red.")
    expect(page.locator("#tok-2-red")).to_have_text("2")
    screenshot(page, "osaka-game-after-payday")


#: Set in the page when the goods' preview fires (htmx's ``htmx:trigger``, 350 ms after the last key: its
#: ``delay``), whether or not htmx then sends it.
PREVIEW_FIRED = """() => document.querySelector('.osaka-players').addEventListener(
  'htmx:trigger', () => { window.__previewFired = true; })"""


def test_record_tapped_before_the_preview_of_the_last_number_still_records(
    live_server: Any, page: Any
) -> None:
    """A player types the last number and taps "Record this payday" at once, on a slow connection: the preview
    of that number fires (350 ms after the key) while the payday is on its way. The payday lands, and the page
    goes to the game; the preview does not cancel it (htmx's ``replace`` did, inherited from the form)."""
    game = _begin(_game())
    page.goto(live_server.url + f"/osaka/games/{game.edit_token}/payday")
    page.wait_for_load_state()  # htmx binds the ships' change on load
    with page.expect_response(lambda r: "/payday?" in r.url and r.request.method == "GET"):
        page.select_option("#id_edo1", "red")
    _settled(page)
    page.evaluate(PREVIEW_FIRED)
    held: list[Any] = []
    page.route(
        "**/payday", lambda route: held.append(route) if route.request.method == "POST" else route.fallback()
    )
    page.locator("[name=p1-goods_red_5]").fill("2")
    page.click("#work-it-out")  # "Record this payday", before the preview's delay is over
    # The preview fired; the payday still waits for the route.
    page.wait_for_function("() => window.__previewFired === true")
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_url("**/#latest")
    expect(page.locator("#latest")).to_contain_text("Payday: red. Tokens: David +1 red.")
    assert OsakaGame.objects.get(pk=game.pk).events.filter(kind="payday").count() == 1


def test_phones_follow_each_other_and_vp_stays_on_its_own_phone(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = _begin(_game(), first=["yellow"] * 3)
    table = new_context().new_page()
    onlooker = new_context().new_page()
    david = new_context().new_page()
    table.goto(live_server.url + game.edit_url())
    onlooker.goto(live_server.url + game.view_url())
    david.goto(live_server.url + game.seats.get(seat=2).private_url())
    assert onlooker.locator("#state form").count() == 0 and onlooker.locator("#view-only").is_visible()
    table.click("#change-1 summary")
    table.click("#take-1-green-go")
    onlooker.wait_for_function("document.querySelector('#tok-1-green').textContent === '1'")
    record(game.pk, kind="payday", who="test", seen=OsakaGame.objects.get(pk=game.pk).version,
           data={"arrived": ["blue"], "sunk": [], "players": [{}, {"goods": {"blue": [5, 3]}}, {}]})  # fmt: skip
    expect(david.locator("#my-vp")).to_have_text("2")  # 5 x 2 = 10: 2 VP cards
    expect(onlooker.locator("#latest")).to_contain_text("Payday: blue")
    assert table.locator("#my-vp").count() == 0 and onlooker.locator("#my-vp").count() == 0
    screenshot(david, "osaka-game-own-phone")
    # A forged write from the view-only page is refused.
    status = onlooker.evaluate(
        """async (url) => {
            const headers = JSON.parse(document.body.getAttribute('hx-headers'));
            headers['Content-Type'] = 'application/x-www-form-urlencoded';
            const r = await fetch(url, {method: 'POST', headers, body: 'op=token&seat=1&colour=red&delta=1'});
            return r.status;
        }""",
        live_server.url + f"/osaka/games/{game.view_token}/change",
    )
    assert status == 403 and game.seats.get(seat=1).red == 0


def test_a_tap_updates_in_place(live_server: Any, page: Any) -> None:
    game = _begin(_game())
    page.goto(live_server.url + game.edit_url())
    page.click("#change-3 summary")
    button = page.locator("#take-3-yellow-go")
    button.evaluate(
        "b => b.scrollIntoView({block: 'center'})"
    )  # wholly on screen: a focused button stays put
    before = button.bounding_box()["y"]
    button.click()
    expect(page.locator("#tok-3-yellow")).to_have_text("1")
    _settled(page)
    assert abs(page.locator("#take-3-yellow-go").bounding_box()["y"] - before) <= 2
    # Another phone's payday adds the "Payday just now" card above: this phone's page stays where it was.
    record(game.pk, kind="payday", who="test", seen=OsakaGame.objects.get(pk=game.pk).version,
           data={"arrived": ["red"], "sunk": [], "players": [{"goods": {"red": [5]}}, {}, {}]})  # fmt: skip
    expect(page.locator("#latest")).to_be_attached()
    _settled(page)
    assert abs(page.locator("#take-3-yellow-go").bounding_box()["y"] - before) <= 2


def test_a_tap_without_connection_waits_in_the_outbox(live_server: Any, new_context: Any) -> None:
    """The outbox of companion/static/companion/live.js, one per game (tests/companion/live has the rest)."""
    game = _game()
    context = new_context()
    page = context.new_page()
    page.goto(live_server.url + game.edit_url())
    page.click("#change-1 summary")
    context.set_offline(True)
    page.click("#take-1-blue-go")
    expect(page.locator(".live-status")).to_have_text("Not saved yet: 1 waiting.")
    assert game.seats.get(seat=1).blue == 0
    waiting = page.evaluate(f"() => JSON.parse(localStorage.getItem('live-outbox:osaka-{game.pk}'))[0]")
    context.set_offline(False)  # the "online" event sends it
    expect(page.locator(".live-status")).to_be_hidden()
    expect(page.locator("#tok-1-blue")).to_have_text("1")
    # The same write once more (its answer was lost, say): its client id and counter make it count once.
    replay = page.evaluate(
        """async (item) => {
            const r = await fetch(item.url, {method: 'POST', body: item.body,
                headers: {'X-Live': '1', 'Content-Type': 'application/x-www-form-urlencoded'}});
            return [r.status, r.headers.get('X-Live-Replay')];
        }""",
        waiting,
    )
    assert replay == [200, "1"]  # the first answer again; nothing applied again
    assert game.seats.get(seat=1).blue == 1
    assert game.events.filter(kind="token").count() == 1


def test_the_end_and_the_ranking_on_every_phone(live_server: Any, new_context: Any, screenshot: Any) -> None:
    game = _begin(_game(2), first=["red", "red"])
    for colour in ("blue", "yellow", "green", "red", "blue", "yellow"):
        record(game.pk, kind="token", who="test", data={"seat": 0, "colour": colour, "delta": 1})
    onlooker = new_context().new_page()
    onlooker.goto(live_server.url + game.view_url())
    record(game.pk, kind="payday", who="test", seen=OsakaGame.objects.get(pk=game.pk).version,
           data={"arrived": ["green"], "sunk": [], "players": [{"goods": {"green": [2]}}, {"goods": {"green": [3]}}]})  # fmt: skip
    expect(onlooker.locator("#final")).to_contain_text("Game over")
    expect(onlooker.locator("#final")).to_contain_text(
        "The game ends after the green payday: Anaïs has 8 or more achievement tokens."
    )
    expect(onlooker.locator("#tie-1")).to_contain_text(
        "Tied with David on 1 VP; more achievement tokens rank first"
    )
    screenshot(onlooker, "osaka-game-over")


def test_an_anchored_part_opens_below_the_two_rows_of_the_top_bar(live_server: Any, page: Any) -> None:
    """Osaka's top bar took two rows at 390 px (one since it keeps to one row): an answer opened at its anchor
    (the log, the start player's form) sat under it, its first lines hidden."""
    game = _begin(_game())
    page.goto(live_server.url + game.edit_url() + "#log")
    bar = page.locator(".topbar").bounding_box()
    log = page.locator("#log").bounding_box()
    assert bar is not None and log is not None
    assert log["y"] >= bar["y"] + bar["height"]


def test_the_ship_pickers_show_their_words_whole(live_server: Any, page: Any) -> None:
    """The 1st ship's picker showed "Choos" at 390 px: every choice of the four pickers fits inside its box (the
    text's width measured in the picker's own font, its padding and arrow taken off)."""
    page.goto(live_server.url + "/osaka/payday/")
    room = select_room(page, ".osaka-edo select")
    assert len(room) == 4 and min(room) >= 0, room


def test_text_doubled_by_the_page_keeps_the_names_and_the_ships_readable(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """Text doubled by a page zoom or a reader's style sheet (the root's font size, which the em of a media query
    does not follow): the first hands' names took no room (four rows of "Total" and "Cards" with nobody's name), and
    the ship pickers shrank to their arrows. The large-text layout asks the card's width in rem now."""
    game = create_game(
        players=[
            NewPlayer(n, c) for n, c in zip(("Anaïs", "Benedikt", "Dominique", "Ulric"), TRADERS, strict=True)
        ]
    )
    page.goto(live_server.url + game.edit_url())
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    names = page.evaluate(
        "[...document.querySelectorAll('.osaka-draw-name')].map((e) => [e.clientWidth, e.scrollWidth])"
    )
    assert len(names) == 4 and all(0 < shown >= whole for shown, whole in names), names  # each name whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "osaka-text-doubled-start")
    page.goto(live_server.url + game.edit_url() + "payday?edo1=red")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    room = select_room(page, ".osaka-edo select")
    assert len(room) == 4 and min(room) >= 0, room  # "Choose" and every colour whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "osaka-text-doubled-payday")
