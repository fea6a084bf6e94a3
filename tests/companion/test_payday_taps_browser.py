"""A payday month in at most 20 taps across a table of three phones at 390x844 (issue 23's budget).

What an Akebono table records in month 3 (iki-rulebook.txt "Months 3, 6, 9 and 12: Payday"; iki-akebono-rulebook.txt
"END OF A SEASON"): the month's New Character revealed at its start (RULINGS R17), each player's hire in phase B,
a fish bought and a Personality met, then in phase C the payday's IKI (salary and Nagaya harmony, on the score
track) and the next season's Personalities and river tokens revealed at the end of Spring (RULINGS R18). Every tap
is counted: a choice in a picker, a button, an answer to a question "Next" asks."""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import QUICK_SCORES, Game
from tests.factories import make_game, play_to
from tests.phones import phone_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The taps a payday month may cost across the table (issue 23's budget).
PAYDAY_TAPS = 20
NAMES = ("Anaïs-Céline", "David Armand", "Dominique Lé")  # 12 characters each
PAYDAY_IKI = dict(zip(NAMES, [(5, 2), (3,), (1,)], strict=True))
"""Each player's payday IKI (salary in IKI and Nagaya harmony), as quick-score taps: 7, 3 and 1."""


def test_a_payday_month_costs_at_most_20_taps_across_the_table(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = play_to(make_game(NAMES, akebono=True), 3)
    url = live_server.url + game.edit_url()
    phones = [phone_as(new_context, url, n) for n in NAMES]
    first = phones[0]
    taps = 0
    tapped: list[str] = []  # what each tap was, for the report

    def tap(page: Any, selector: str) -> None:
        nonlocal taps
        taps += 1
        tapped.append(selector)
        page.click(selector)

    def choose(page: Any, picker: str, value: str) -> None:
        """Choosing in a picker is one tap."""
        nonlocal taps
        page.locator(f"{picker} option[value='{value}']").wait_for(state="attached")
        taps += 1  # counted even when the picker already shows it: the player still checks it
        tapped.append(f"{picker}={value}")
        page.select_option(picker, value)

    def next_step(heading: str) -> None:
        """ "Next" until the table is at ``heading``, answering what it asks (reveal what is due)."""
        while not first.locator("#month-title", has_text=heading).count():
            tap(first, "#next")
            first.locator(f"#next-ask, #month-title:has-text('{heading}')").first.wait_for()
            if first.locator("#next-ask").count():  # "Next" asked first: one more tap answers it
                if heading == "phase B":
                    screenshot(first, "payday-taps-ask")
                    box = first.locator("#ask-reveal-next").bounding_box()
                    assert box is not None and min(box["height"], box["width"]) >= 44
                revealing = first.locator("#ask-reveal-next").count() > 0
                tap(first, "#ask-reveal-next" if revealing else "#ask-go-on")
                first.locator(f"#next:not([disabled]), #month-title:has-text('{heading}')").first.wait_for()
                first.locator("#next-ask").wait_for(state="detached")

    next_step("phase B")
    offered = first.evaluate(
        "Array.from(document.querySelectorAll('#record-characters optgroup[label=\"Offered now\"] option'),"
        " (o) => [o.value, o.text])"
    )
    assert len(offered) >= len(NAMES)
    for n, (phone, name) in enumerate(zip(phones, NAMES, strict=True), start=1):
        card, title = offered[n - 1]
        choose(phone, "#record-characters", card)
        tap(phone, "#record-characters-go")
        phone.locator("#answer-record-add-characters", has_text=f"{name} hired {title}").wait_for()
        for later in phones[n:]:  # the next phone sees the card gone before it picks
            later.locator(f"#record-characters option[value='{card}']").wait_for(state="detached")
    anais, david = phones[0], phones[1]
    fish = anais.evaluate(
        "Array.from(document.querySelectorAll('#record-tokens optgroup[label=\"This season\"] option'),"
        " (o) => o.value).find((v) => v.startsWith('fish'))"
    )
    choose(anais, "#record-tokens", fish)
    tap(anais, "#record-tokens-go")
    anais.locator("#answer-record-add-tokens", has_text=f"{NAMES[0]} bought").wait_for()
    met = david.evaluate("document.querySelector('#record-personalities option').value")
    choose(david, "#record-personalities", met)
    tap(david, "#record-personalities-go")
    david.locator("#answer-record-add-personalities", has_text=f"{NAMES[1]} met").wait_for()
    next_step("phase C")
    for n, (phone, name) in enumerate(zip(phones, NAMES, strict=True), start=1):
        score = int(phone.inner_text(f"#score-{n}"))
        for gain in PAYDAY_IKI[name]:
            score += gain
            tap(phone, f"#add-{n}-{QUICK_SCORES.index(gain) + 1}")
            phone.locator(f"#score-{n}:not([data-waiting])", has_text=str(score)).wait_for()
        for other in phones:  # every phone shows the payday before the table moves on
            other.locator(f"#score-{n}", has_text=str(score)).wait_for()
    screenshot(first, "payday-taps-phase-c")
    next_step("Month 4")
    print(f"a payday month: {taps} taps across the table: {tapped}")  # the measure, for the report
    assert taps <= PAYDAY_TAPS, f"{taps} taps for a payday month"
    game = Game.objects.get(pk=game.pk)
    assert (game.month, game.phase) == (4, "A")
    assert {"new-character-3", "season-summer"} <= set(game.revealed)  # both asked, both answered in one tap
    seats = {s.name: s for s in game.seats.all()}
    assert all(seats[n].record.get("characters") for n in NAMES)
    assert seats[NAMES[0]].record.get("fish") and seats[NAMES[1]].record.get("personalities")
    assert seats[NAMES[2]].score >= 1 and seats[NAMES[0]].score >= 7
    for phone in phones:
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
