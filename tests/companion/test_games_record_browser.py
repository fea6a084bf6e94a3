"""Recording a Pub in the browser (issue 19, RULINGS R25): the tracker asks which fish paid, on a 390x844 phone.

Two editing phones on one Akebono game (seed K7MX2QPA, 3 players: the Pub is in play). The first records two fish
for Anaïs, then the Pub: the answer is a question with her fish as big buttons, nothing saved yet; one tap answers
it, the fish leaves her tokens, and the other phone sees it within a poll. Undo brings the fish back.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import Game
from companion.services.tracker.games import NewPlayer, create_game
from tests.factories import play_to

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAP_PX = 44


def _game() -> Game:
    from setupgen import Options, generate

    setup = generate(Options(players=3, akebono=True), seed="K7MX2QPA").to_json()
    assert "pub-izakaya" in setup["buildings"]
    players = [NewPlayer("Anaïs", "red"), NewPlayer("David", "blue"), NewPlayer("Dominique", "green")]
    return create_game(players=players, akebono=True, grand_master=False, setup=setup, who="test")


def _record(page: Any, field: str, seat: str, key: str, answer: str) -> None:
    """Record ``key`` for ``seat`` with the ``field`` form and wait for the answer next to the forms; the page
    does not move under the thumb."""
    page.evaluate(f"document.querySelector('#record-{field}').scrollIntoView({{block: 'center'}})")
    page.select_option(f"#record-{field} >> xpath=../select[@name='seat']", seat)
    page.select_option(f"#record-{field}", key)
    top = page.evaluate(f"document.querySelector('#record-{field}-go').getBoundingClientRect().top")
    page.click(f"#record-{field}-go")
    page.locator(".slot:has(#record-tokens) [data-answer]", has_text=answer).wait_for()
    after = page.evaluate(f"document.querySelector('#record-{field}-go').getBoundingClientRect().top")
    assert abs(after - top) <= 1


def _screens(page: Any, screenshot: Any, name: str) -> None:
    """What the phone shows (the viewport, first: a full-page capture moves the scroll), then the whole page."""
    from tests.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-screen.png"))
    screenshot(page, name)


def test_recording_a_pub_asks_which_fish_paid(live_server: Any, new_context: Any, screenshot: Any) -> None:
    game = play_to(_game(), 4)  # summer: its bonus fish is on offer (the pickers offer no season not reached)
    one, two = new_context().new_page(), new_context().new_page()
    one.goto(live_server.url + game.edit_url())
    two.goto(live_server.url + game.edit_url())
    _record(one, "tokens", "1", "fish-spring", "Anaïs bought Spring fish")
    _record(one, "tokens", "1", "fish-summer-bonus", "Anaïs bought Summer fish")
    _record(one, "buildings", "1", "pub-izakaya", "Anaïs: which fish paid for the Pub?")
    question = one.locator("#record-question")
    question.wait_for()
    # The question stands under the form tapped (issue 23).
    assert "warning" in one.locator("#answer-record-add-buildings .answer").get_attribute("class")
    buttons = question.locator("button")
    assert [b.strip() for b in buttons.all_inner_texts()] == ["Spring fish", "Summer fish (+7)"]
    for box in (buttons.nth(i).bounding_box() for i in range(buttons.count())):
        assert box is not None and box["height"] >= TAP_PX
    assert game.seats.get(seat=1).record == {
        "fish": ["fish-spring", "fish-summer-bonus"]
    }  # nothing saved yet
    question.scroll_into_view_if_needed()
    _screens(one, screenshot, "tracker-pub-question")

    buttons.first.click()
    one.locator(".slot:has(#record-tokens) [data-answer]", has_text="paid with Spring fish").wait_for()
    assert one.locator("#record-question").count() == 0
    record = game.seats.get(seat=1).record
    assert record["fish"] == ["fish-summer-bonus"] and record["spent"] == ["fish-spring"]
    assert record["buildings"] == ["pub-izakaya"]
    # The other phone shows it within a poll: the fish under "Spent", the Pub no longer offered as "Built".
    two.click("#record-seat-1 summary")
    two.locator("#record-seat-1", has_text="Spent").wait_for()
    assert two.locator("#record-buildings option[value=pub-izakaya]").count() == 0
    one.click("#record-seat-1 summary")
    one.locator("#record-seat-1").scroll_into_view_if_needed()
    _screens(one, screenshot, "tracker-pub-paid")

    one.evaluate("document.querySelector('#undo').scrollIntoView({block: 'center'})")
    one.click("#undo")
    two.locator("#record-buildings option[value=pub-izakaya]").wait_for(state="attached")
    assert game.seats.get(seat=1).record == {"fish": ["fish-spring", "fish-summer-bonus"]}


def test_a_loss_offers_fire_not_fed_and_the_doctor_token_as_big_buttons(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    from companion.services.tracker.changes import apply_change

    game = _game()
    for field, key in (("characters", "monk"), ("retirement_tokens", "doctor")):
        apply_change(game_id=game.pk, op="record-add", who="test", seat=2, field=field, key=key)
    page.goto(live_server.url + game.edit_url())
    page.click("#record-seat-2 summary")
    row = page.locator("#record-seat-2 li", has_text="Monk")
    buttons = row.locator("button")
    assert [b.strip() for b in buttons.all_inner_texts()] == ["Fire", "Not fed", "Doctor", "×"]
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= TAP_PX and box["width"] >= TAP_PX
    assert row.locator("span").first.bounding_box()["width"] >= 60  # the name keeps room to be read
    row.scroll_into_view_if_needed()
    _screens(page, screenshot, "tracker-loss-buttons")
    page.click("#lose-doctor-2-monk")
    page.locator("#record-seat-2", has_text="Spent").wait_for()
    assert game.seats.get(seat=2).record["characters"] == ["monk"]
