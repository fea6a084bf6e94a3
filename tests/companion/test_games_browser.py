"""Browser tests of a shared game (issue 5): two phones on one game, and a view-only phone.

Headless Chromium on a 390x844 phone screen (tests/conftest.py). A change on one phone must show on the other
within 3 seconds without a reload (htmx polling, docs/sync.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.models.games import Game
from companion.services.tracker.games import NewPlayer, create_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _game(akebono: bool = True) -> Game:
    from setupgen import Options, generate

    setup = generate(Options(players=3, akebono=akebono), seed="K7MX2QPA").to_json()
    players = [NewPlayer("Anaïs", "red"), NewPlayer("David", "blue"), NewPlayer("Dominique", "green")]
    return create_game(players=players, akebono=akebono, grand_master=False, setup=setup, who="test")


def test_create_share_and_track_in_the_browser(live_server: Any, page: Any, screenshot: Any) -> None:
    page.goto(live_server.url + "/games/new/")
    page.fill("#name-0", "Anaïs")
    page.fill("#name-1", "David")
    page.fill("#name-2", "Dominique")
    page.check("input[name=akebono]")
    screenshot(page, "games-new")
    page.click("text=Create the game")
    page.wait_for_url("**/share")
    assert page.locator(".qr svg").count() == 2
    screenshot(page, "games-share")
    page.click("text=Go to the game")
    page.click("button[aria-label='plus 3 IKI for Anaïs']")
    page.wait_for_function("document.querySelector('#score-1').textContent.trim() === '3'")
    page.click("#next")
    page.click("#ask-go-on")  # the month's New Character is due: Next asks first (issue 20)
    page.wait_for_selector(".phase-steps li.current:has-text('B · Actions')")
    screenshot(page, "games-page")


def test_a_change_on_one_phone_shows_on_the_other(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = _game()
    one = new_context().new_page()
    two = new_context().new_page()
    one.goto(live_server.url + game.edit_url())
    two.goto(live_server.url + game.edit_url())
    one.click("button[aria-label='plus 5 IKI for David']")
    # The other phone sees it without a reload, within 3 s (polling every 1.5 s).
    two.wait_for_function("document.querySelector('#score-2').textContent.trim() === '5'")
    two.click("#exact-3 summary")
    two.select_option("#set-fire-3", "4")
    two.click("#set-fire-go-3")
    one.wait_for_function("document.querySelector('#fire-3').textContent.trim() === '4'")
    assert one.locator(".order li").first.inner_text().startswith("Anaïs") or game.first_player != 1
    screenshot(two, "games-two-phones")


def test_a_view_only_phone_shows_no_controls_and_is_refused(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    game = _game()
    editor = new_context().new_page()
    viewer = new_context().new_page()
    viewer.goto(live_server.url + game.view_url())
    assert viewer.locator("#view-only").is_visible()
    assert viewer.locator("#state form, #state button").count() == 0
    editor.goto(live_server.url + game.edit_url())
    editor.click("button[aria-label='plus 2 IKI for Dominique']")
    viewer.wait_for_function("document.querySelector('#score-3').textContent.trim() === '2'")
    screenshot(viewer, "games-view-only")
    # A POST from the view-only page, forged with the page's own CSRF header, is refused.
    status = viewer.evaluate(
        """async (url) => {
            const headers = JSON.parse(document.body.getAttribute('hx-headers'));
            headers['Content-Type'] = 'application/x-www-form-urlencoded';
            const r = await fetch(url, {method: 'POST', headers, body: 'op=score-add&seat=1&value=5'});
            return r.status;
        }""",
        live_server.url + f"/games/{game.view_token}/change",
    )
    assert status == 403
    game.refresh_from_db()
    assert game.seats.get(seat=1).score == 0


@pytest.mark.parametrize("path", ["/games/new/", "/score/"])
def test_a_refused_start_form_shows_why_where_the_player_looks(
    live_server: Any, page: Any, path: str
) -> None:
    """Issue 10, item 5: one form on every start page; a refusal is swapped in (htmx) or shown (no JS), and the
    page moves to the messages instead of leaving the player at the button with nothing seen."""
    page.goto(live_server.url + path)
    page.fill("#name-0", "A" * 24)
    page.fill("#name-1", "Ben\u202e")
    page.locator("form button[type=submit]").last.click()
    errors = page.locator("[role=alert]").first
    errors.wait_for()
    assert "Player 2: the name holds a direction-override character (U+202E)" in errors.inner_text()
    box = errors.bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    assert page.locator("#name-0").input_value() == "A" * 24  # what was typed is kept


@pytest.mark.parametrize(
    ("path", "names"),
    [("/games/new/", ("#name-0", "#name-1")), ("/osaka/games/new/", ("#id_name1", "#id_name2"))],
)
def test_a_start_form_refused_for_a_lost_cookie_says_so(
    live_server: Any, page: Any, path: str, names: tuple[str, str]
) -> None:
    """A form sent by htmx and refused with a status other than 400 or 409 (here 403: the phone's cookies were
    cleared since the page loaded) showed nothing: the tap looked lost. The error page's words replace the page's,
    where the player looks."""
    page.goto(live_server.url + path)
    page.fill(names[0], "Anaïs")
    page.fill(names[1], "Ben")
    page.context.clear_cookies()
    with page.expect_response(lambda r: r.request.method == "POST") as sent:
        page.locator("form button[type=submit]").last.click()
    assert sent.value.status == 403
    refusal = page.locator("[role=alert]:has-text('Reload the page and try again.')")
    refusal.wait_for()
    box = refusal.bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    assert page.locator("main").count() == 1
