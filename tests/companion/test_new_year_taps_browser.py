"""New Year's Day and the resources in at most 12 taps a player, on three 390x844 phones (issue 23's budget).

New Year's Day (iki-rulebook.txt "13TH ROUND: NEW YEAR'S DAY"): each player places their Oyakata and does business
with a shop and/or one character; nothing is paid or fed (the last payday was month 12's). Then the resources
(iki-rulebook.txt "Resources": koban 3, wood 1, 4 mon 1; rice and sandals worth nothing, except to the Merchant
House's owner, per sandal, Appendix 2; RULINGS R9), one compact row a player, asking only what scores for them.
Every tap is counted: a choice in a picker, a button, a field tapped and each key typed in it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import QUICK_SCORES, Game
from companion.models.scoresheets import ScoreSheet
from companion.services.tracker.changes import apply_change
from tests.factories import make_game, play_to
from tests.phones import phone_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The taps New Year's Day and the resources may cost a player (issue 23's budget).
PLAYER_TAPS = 12
NAMES = ("Anaïs-Céline", "David Armand", "Dominique Lé")  # 12 characters each
SHIFTS = """() => { window.__shift = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__shift += e.value; }).observe({type: "layout-shift", buffered: false}); }"""
RESOURCES = {
    NAMES[0]: {"mon": "5", "koban": "1"},
    NAMES[1]: {"mon": "13", "koban": "2", "wood": "3"},
    NAMES[2]: {"mon": "9", "wood": "1", "sandals": "6"},
}
"""What each player types (a resource left blank is 0): Dominique built the Merchant House, so sandals are asked."""


def _phone(new_context: Any, url: str, who: str) -> Any:
    page = phone_as(new_context, url, who)
    page.evaluate(SHIFTS)
    return page


def test_new_years_day_and_the_resources_cost_at_most_12_taps_a_player(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = make_game(NAMES)  # base game: the Merchant House and the Inn are among its buildings
    assert {"merchant-house", "inn"} <= set(game.setup["buildings"])
    apply_change(
        game_id=game.pk, op="record-add", who="test", seat=3, field="buildings", key="merchant-house"
    )
    game = play_to(game, 13)
    url = live_server.url + game.edit_url()
    phones = [_phone(new_context, url, n) for n in NAMES]
    anais, david = phones[:2]
    taps = dict.fromkeys(NAMES, 0)

    def tap(n: int, selector: str) -> None:
        taps[NAMES[n]] += 1
        phones[n].click(selector)

    def choose(n: int, picker: str, value: str) -> None:
        taps[NAMES[n]] += 1
        phones[n].select_option(picker, value)

    def score(n: int, gain: int) -> None:
        phone, seat = phones[n], n + 1
        now = int(phone.inner_text(f"#score-{seat}")) + gain
        tap(n, f"#add-{seat}-{QUICK_SCORES.index(gain) + 1}")
        phone.locator(f"#score-{seat}:not([data-waiting])", has_text=str(now)).wait_for()

    # New Year's Day, in firefighting order: Anaïs builds the Inn and her Kabuki Actor gains 3 IKI; David buys a
    # Winter tobacco pouch; Dominique's business gains 5 IKI.
    assert anais.locator("#month-title").inner_text().startswith("New Year's Day")
    choose(0, "#record-buildings", "inn")
    tap(0, "#record-buildings-go")
    anais.locator("#answer-record-add-buildings", has_text="built Inn").wait_for()
    score(0, 3)
    tobacco = david.evaluate(
        "Array.from(document.querySelectorAll('#record-tokens optgroup[label=\"This season\"] option'),"
        " (o) => o.value).find((v) => v.startsWith('tobacco'))"
    )
    choose(1, "#record-tokens", tobacco)
    tap(1, "#record-tokens-go")
    david.locator("#answer-record-add-tokens", has_text="bought").wait_for()
    score(2, 5)
    # Each phone has seen the table's taps before its player types (a late poke's pull would otherwise clear the
    # answer a test then looks for: the answer is a moment's, the saved row stays).
    total = phones[2].inner_text("#score-3")
    for phone in phones:
        phone.locator("#score-3:not([data-waiting])", has_text=total).wait_for()
    # The resources: each phone its own row, one number each, blank for 0.
    asked = {
        name: phone.evaluate(
            f"Array.from(document.querySelectorAll('#part-res-{n} input[type=number]'), (i) => i.name)"
        )
        for n, (phone, name) in enumerate(zip(phones, NAMES, strict=True), start=1)
    }
    assert asked == {
        NAMES[0]: ["mon", "koban", "wood"],
        NAMES[1]: ["mon", "koban", "wood"],
        NAMES[2]: ["mon", "koban", "wood", "sandals"],
    }
    for n, (phone, name) in enumerate(zip(phones, NAMES, strict=True)):
        seat = n + 1
        for before in range(1, seat):  # the rows saved before on other phones are on this one
            phone.locator(f"#res-{before}-saved").wait_for()
        below = phone.evaluate(
            "document.querySelector('#part-month').getBoundingClientRect().top + window.scrollY"
        )
        for key, typed in RESOURCES[name].items():
            tap(n, f"#res-{seat}-{key}")
            taps[name] += len(typed)  # a key a digit
            phone.keyboard.type(typed)
        tap(n, f"#res-{seat}-go")
        phone.locator(f"#answer-res-{seat}", has_text=f"{name}'s resources").wait_for()
        phone.locator(f"#res-{seat}-saved").wait_for()
        after = phone.evaluate(
            "document.querySelector('#part-month').getBoundingClientRect().top + window.scrollY"
        )
        assert abs(after - below) <= 1, "the answer took space kept for it"
        if n == 0:
            screenshot(phone, "new-year-resources")
    for phone in phones:  # every phone shows every row saved, with what was typed
        for seat, name in enumerate(NAMES, start=1):
            phone.locator(f"#res-{seat}-saved").wait_for()
            for key, typed in RESOURCES[name].items():
                assert phone.input_value(f"#res-{seat}-{key}") == typed
        assert phone.evaluate("window.__shift") == 0
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    small = anais.evaluate(
        "Array.from(document.querySelectorAll('#part-resources input[type=number], #part-resources button'))"
        ".map((e) => e.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44).length"
    )
    assert small == 0, "every target of the rows is at least 44 px"
    # The table ends the game (Anaïs's phone: "End the game" and its question), and scores it.
    tap(0, "#next")
    tap(0, "#ask-go-on")
    anais.locator("#score-it").wait_for()
    tap(0, "#score-it")
    anais.wait_for_url("**/score/**")
    print(f"New Year's Day and the resources: {taps}")  # the measure, for the report
    assert all(n <= PLAYER_TAPS for n in taps.values()), taps
    game = Game.objects.get(pk=game.pk)
    assert game.finished
    players = {p["name"]: p for p in ScoreSheet.objects.get().table["players"]}
    assert {k: players[NAMES[0]][k] for k in ("mon", "koban", "wood")} == {"mon": 5, "koban": 1, "wood": 0}
    assert {k: players[NAMES[1]][k] for k in ("mon", "koban", "wood")} == {"mon": 13, "koban": 2, "wood": 3}
    assert (players[NAMES[2]]["sandals"], players[NAMES[2]]["rice"]) == (6, 0)
    assert players[NAMES[0]]["buildings"] == ["inn"] and players[NAMES[1]]["tobacco"] == [tobacco]
