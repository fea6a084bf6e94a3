"""Without JavaScript the answer stands beside the control tapped too (issue 23: "the answer names who recorded
what, under the form tapped, with Undo"): a plain form's write comes back to the page opened at that answer."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.games import Game
from tests.factories import make_game
from tests.phones import phone_as

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _in_view(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box


def test_without_javascript_the_answer_names_who_did_what_beside_the_control(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = make_game(("Anaïs", "Ben", "Chie"))
    url = live_server.url + game.edit_url()
    ben = phone_as(new_context, url, "Ben", java_script_enabled=False)  # no script
    ben.click("#add-3-2")  # +2 for Chie
    ben.wait_for_url(lambda u: "at=row-3" in u)
    expect(ben.locator("#answer-row-3")).to_have_text("Saved: +2 IKI for Chie (now 2).")
    _in_view(ben, "#add-3-2")  # the page opens where the thumb was
    ben.locator("#record-characters-seat").select_option("2")
    ben.locator("#record-characters").select_option("monk")
    ben.click("#record-characters-go")
    ben.wait_for_url(lambda u: "at=record-add-characters" in u)
    said = ben.locator("#answer-record-add-characters")
    expect(said).to_contain_text("Saved: Ben hired Monk")
    _in_view(ben, "#undo-entry-characters")  # its Undo beside it, on screen
    _in_view(ben, "#record-characters-go")  # and the form tapped, above it
    from tests.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ben.screenshot(path=str(SCREENSHOTS / "answer-no-script-record-screen.png"))  # what the phone shows
    screenshot(ben, "answer-no-script-record")
    ben.click("#undo-entry-characters")
    ben.wait_for_url(lambda u: "at=record-add-characters" in u)
    expect(ben.locator("#answer-record-add-characters")).to_contain_text("Saved: Ben undid “Ben hired Monk")
    assert not Game.objects.get(pk=game.pk).seats.get(seat=2).record.get("characters")


def test_a_record_from_another_players_phone_names_both(live_server: Any, new_context: Any) -> None:
    """Issue 23: Anaïs's phone records Ben's hire; the answer under the form names who recorded what."""
    game = make_game(("Anaïs", "Ben", "Chie"))
    url = live_server.url + game.edit_url()
    anais = phone_as(new_context, url, "Anaïs")
    anais.locator("#record-characters-seat").select_option("2")
    anais.locator("#record-characters").select_option("monk")
    anais.click("#record-characters-go")
    said = anais.locator("#answer-record-add-characters")
    expect(said).to_contain_text("Saved: Ben hired Monk (now firefighting 1), recorded by Anaïs.")
    _in_view(anais, "#undo-entry-characters")
    anais.click("#undo-entry-characters")
    expect(said).to_contain_text("Saved: Anaïs undid “Ben hired Monk (now firefighting 1)”.")
    assert not Game.objects.get(pk=game.pk).seats.get(seat=2).record.get("characters")
