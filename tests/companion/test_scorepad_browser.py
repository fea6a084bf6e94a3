"""The scoring walk-through in a phone-sized browser (issue 4; one player at a time since issue 12): the rulebook's
worked example end to end (Anaïs scores 100, iki-rulebook.txt "END OF THE GAME AND SCORING"), an impossible entry
blocking the result (RULINGS R6), the same walk-through without JavaScript, and two phones on one sheet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.scoresheets import ScoreSheet
from setupgen import Options, generate
from tests.companion.test_targets_browser import TAP, TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _start(page: Any, base: str, names: tuple[str, str] = ("Anaïs", "David")) -> str:
    page.goto(base + "/score/")
    page.get_by_label("Player 1", exact=True).fill(names[0])
    page.get_by_label("Player 2", exact=True).fill(names[1])
    page.locator("#colour-1").select_option("blue")
    page.get_by_role("button", name="Start scoring").click()
    page.wait_for_url(re.compile(r"/score/[A-Za-z0-9_-]{20,}/track/$"))
    return page.url


def _settled(page: Any) -> None:
    """Wait until htmx has no request in flight and has finished swapping and settling what came back: only then
    does a freshly swapped-in control listen for its events (a person is never that quick; a robot is)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def _number(page: Any, html_id: str, value: int) -> None:
    """Type a number and leave the field: htmx saves it and swaps the step in."""
    _settled(page)
    field = page.locator(f"#{html_id}")
    field.fill(str(value))
    field.press("Tab")
    expect(page.locator(f"input[name='was-{html_id}']")).to_have_value(str(value))


def _tap(page: Any, html_id: str) -> None:
    _settled(page)
    button = page.locator(f"#{html_id}")
    button.click()
    expect(page.locator(f"#{html_id}")).to_have_attribute("aria-pressed", "true")


def _card(page: Any, player: int, group: str, card: str) -> None:
    details = page.locator(f"#p{player}-group-{group}")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    _tap(page, f"p{player}-characters-{card}")


def _next(page: Any, where: str) -> None:
    """Next: the next player of this line, or the first of the next line (``where``: the address's end)."""
    _settled(page)
    page.get_by_role("button", name=re.compile(r"→$")).click()
    page.wait_for_url(re.compile(rf"/{re.escape(where)}$"))
    _settled(page)


def test_worked_example_end_to_end(live_server: Any, page: Any, screenshot: Any) -> None:
    _start(page, live_server.url)
    screenshot(page, "scorepad-track")
    _number(page, "p0-score_track", 28)
    _next(page, "track/?p=1")  # one player at a time: David next
    expect(page.get_by_role("tab", selected=True)).to_contain_text("David")
    _number(page, "p1-score_track", 40)
    expect(page.locator(".sp-totals")).to_contain_text("David 40")
    expect(page.locator("#tab-p1")).to_contain_text("40")
    _next(page, "characters/")

    for group, card in [
        ("street-peddler", "salt-peddler"),
        ("street-peddler", "book-lender"),
        ("street-peddler", "sake-peddler"),
        ("artisan", "dice-maker"),
        ("master-craftsman", "carpenter"),
        ("special", "puppeteer"),
    ]:
        _card(page, 0, group, card)
    page.locator("#p0-group-tokens summary").click()
    page.locator("#p0-retirement_tokens-puppeteer-more").click()
    wild = page.locator("#wild-p0-puppeteer")
    expect(wild).to_be_visible()
    # The retired Puppeteer asks for its type (RULINGS R5) until one is chosen.
    expect(page.locator("#p0-characters-puppeteer-msg")).to_contain_text("choose one")
    _settled(page)
    wild.select_option("shop-seller")
    expect(page.locator("input[name='was-wild-p0-puppeteer']")).to_have_value("shop-seller")
    expect(page.locator("#p0-head")).to_contain_text("16")
    screenshot(page, "scorepad-characters")
    _next(page, "characters/?p=1")
    _card(page, 1, "street-peddler", "cotton-peddler")
    _next(page, "fish/")

    for token in ("fish-spring-bonus", "fish-summer-bonus", "fish-autumn"):
        _tap(page, f"p0-fish-{token}")
    expect(page.locator("#p0-head")).to_contain_text("18")
    screenshot(page, "scorepad-fish")
    _next(page, "fish/?p=1")
    _next(page, "tobacco/")

    page.locator("#p0-group-pipes summary").click()
    for token in ("pipes-pipe-spring-1", "tobacco-tobacco-autumn-2", "tobacco-tobacco-winter-1"):
        _tap(page, f"p0-{token}")
    expect(page.locator("#p0-head")).to_contain_text("16")
    _next(page, "tobacco/?p=1")
    _next(page, "buildings/")

    _tap(page, "p0-buildings-restaurant")
    _next(page, "buildings/?p=1")
    _next(page, "resources/")

    _number(page, "p0-mon", 5)
    page.locator("#p0-koban-more").click()
    expect(page.locator("input[name='was-p0-koban']")).to_have_value("1")
    screenshot(page, "scorepad-resources")
    _next(page, "resources/?p=1")
    _next(page, "firefighting/")

    _number(page, "p0-firefighting", 6)
    _next(page, "firefighting/?p=1")
    _number(page, "p1-firefighting", 3)
    expect(page.locator(".sp-totals")).to_contain_text("Anaïs 100")
    screenshot(page, "scorepad-firefighting")
    _next(page, "result/")

    ranking = page.locator(".sp-rank").first
    expect(ranking).to_contain_text("Anaïs")
    expect(ranking).to_contain_text("100")
    expect(ranking).to_contain_text("3 fish 10 + spring bonus 1 + summer bonus 7 = 18")
    screenshot(page, "scorepad-result")
    pdf = page.get_by_role("link", name="PDF, A4").get_attribute("href")
    response = page.request.get(live_server.url + pdf)
    assert response.status == 200
    assert response.body().startswith(b"%PDF")


def test_two_fish_of_one_season_blocks_the_result(live_server: Any, page: Any, screenshot: Any) -> None:
    url = _start(page, live_server.url)
    page.goto(url.replace("/track/", "/fish/"))
    _tap(page, "p0-fish-fish-spring")
    _tap(page, "p0-fish-fish-spring-bonus")
    message = page.locator("#p0-fish-fish-spring-bonus-msg")
    expect(message).to_contain_text("two spring fish")
    expect(page.locator("#p0-fish-fish-spring-bonus")).to_have_attribute(
        "aria-describedby", "p0-fish-fish-spring-bonus-msg"
    )
    expect(page.locator(".sp-totals")).to_contain_text("1 to fix")
    screenshot(page, "scorepad-fish-error")

    page.get_by_role("button", name="Go to the result").click()
    page.wait_for_url(re.compile(r"/result/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Not scored yet")
    expect(page.locator(".sp-ranking")).to_have_count(0)
    fix = page.locator(".sp-fix").first
    expect(fix).to_contain_text("two spring fish")
    screenshot(page, "scorepad-result-blocked")
    fix.click()
    page.wait_for_url(re.compile(r"/fish/#p0-fish-fish-spring-bonus$"))
    _tap_off = page.locator("#p0-fish-fish-spring")
    _tap_off.click()
    expect(_tap_off).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#p0-fish-fish-spring-bonus-msg")).to_have_count(0)


def test_walk_through_without_javascript(live_server: Any, new_context: Any, screenshot: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    url = _start(page, live_server.url, ("Aya", "Ben"))
    token = url.rstrip("/").split("/")[-2]
    page.locator("#p0-score_track").fill("30")
    page.get_by_role("button", name="Next: Ben →").click()  # Next: the next player, the typed number saved
    page.wait_for_url(re.compile(r"/track/\?p=1$"))
    page.locator("#p1-score_track").fill("12")
    page.get_by_role("button", name="Next: Characters →").click()
    page.wait_for_url(re.compile(r"/characters/$"))
    sheet = ScoreSheet.objects.get(token=token)
    assert [p["score_track"] for p in sheet.table["players"]] == [30, 12]

    # A <details> group opens without JavaScript; a tap posts the form and the page comes back with it open.
    page.locator("#p0-group-artisan summary").click()
    page.locator("#p0-characters-dice-maker").click()
    page.wait_for_url(re.compile(r"open=p0-group-artisan"))
    expect(page.locator("#p0-characters-dice-maker")).to_have_attribute("aria-pressed", "true")
    page.locator("#p0-group-street-peddler summary").click()
    page.locator("#p0-characters-any-street-peddler-more").click()
    expect(page.locator("#p0-characters-any-street-peddler output")).to_have_text("1")
    screenshot(page, "scorepad-nojs-characters")

    page.goto(url.replace("/track/", "/fish/?p=1"))
    page.locator("#p1-fish-fish-winter").click()
    page.locator("#p1-fish-fish-winter-bonus").click()
    expect(page.locator("#p1-fish-fish-winter-bonus-msg")).to_contain_text("two winter fish")
    page.locator("#p1-fish-fish-winter").click()
    expect(page.locator("#p1-fish-fish-winter-bonus-msg")).to_have_count(0)

    page.goto(url.replace("/track/", "/firefighting/"))
    page.locator("#p0-firefighting").fill("4")
    page.locator("#p0-firefighting").press(
        "Enter"
    )  # Enter saves (the form's default button), no other change
    page.get_by_role("tab", name=re.compile("Ben")).click()
    page.locator("#p1-firefighting").fill("4")
    page.locator("#p1-firefighting").press("Enter")
    expect(page.locator("#stack-p0")).to_be_visible()  # shared space: the stack order is asked
    page.locator("#stack-p1").select_option("1")
    page.locator("#stack-p0").select_option("2")
    screenshot(page, "scorepad-nojs-stack")
    page.get_by_role("button", name="See the result").click()
    page.wait_for_url(re.compile(r"/result/$"))
    text = page.locator("main").inner_text()
    assert "Aya" in text
    assert "Ben" in text
    sheet.refresh_from_db()
    assert sheet.table["firefighting_order"] == ["Ben", "Aya"]
    assert sheet.table["players"][0]["characters"] == ["dice-maker", "any-street-peddler"]
    screenshot(page, "scorepad-nojs-result")


def test_akebono_with_a_seed_offers_only_what_was_in_play(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    setup = generate(Options(players=2, akebono=True), seed="K7MX2QPA")
    assert setup.akebono is not None
    page.goto(live_server.url + "/score/")
    page.get_by_label("Player 1", exact=True).fill("Aya")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.locator("#colour-1").select_option("green")
    page.get_by_text("IKI + Akebono").click()
    page.get_by_label("The setup code").check()
    page.locator("#seed").fill("k7mx 2qpa")
    screenshot(page, "scorepad-start")
    page.get_by_role("button", name="Start scoring").click()
    url = page.url
    assert url.endswith("/track/")

    page.goto(url.replace("/track/", "/personalities/"))
    met = setup.akebono.personalities["autumn"][0]
    offered = page.locator("[id^='p0-personalities-']").evaluate_all("els => els.map(e => e.id)")
    assert sorted(offered) == sorted(
        f"p0-personalities-{p}" for pair in setup.akebono.personalities.values() for p in pair
    )
    _tap(page, f"p0-personalities-{met}")
    page.locator("#p0-trade-more").click()
    expect(page.locator("input[name='was-p0-trade']")).to_have_value("1")
    screenshot(page, "scorepad-personalities")

    page.goto(url.replace("/track/", "/boats/?p=1"))
    _tap(page, "p1-boats-houseboat")
    side = setup.akebono.boat_sides["houseboat"]
    expect(page.locator("#p1-boats-houseboat")).to_contain_text(f"Side {side}")
    screenshot(page, "scorepad-boats")

    page.goto(url.replace("/track/", "/buildings/"))
    offered = page.locator("[id^='p0-buildings-']").evaluate_all("els => els.map(e => e.id)")
    assert sorted(offered) == sorted(f"p0-buildings-{b}" for b in setup.buildings)
    page.goto(url.replace("/track/", "/tobacco/"))
    screenshot(page, "scorepad-tobacco")


def test_a_malformed_entry_gets_its_message_swapped_in(live_server: Any, page: Any, screenshot: Any) -> None:
    url = _start(page, live_server.url)
    page.goto(url.replace("/track/", "/resources/"))
    field = page.locator("#p0-mon")
    field.fill("99999")
    field.press("Tab")
    expect(page.locator("#bad-input")).to_contain_text("far beyond anything")
    expect(page.locator("input[name='was-p0-mon']")).to_have_value("0")  # nothing was saved
    _number(page, "p0-mon", 9)
    expect(page.locator("#bad-input")).to_have_count(0)
    screenshot(page, "scorepad-bad-input")


def test_partial_replies_move_messages_between_columns(live_server: Any, page: Any, screenshot: Any) -> None:
    """An htmx entry swaps in only what it changed: a typed number keeps the focus where Tab took it, and a
    message that another player's tap raises or clears appears or goes in that player's column (RULINGS R8)."""
    url = _start(page, live_server.url)
    field = page.locator("#p0-score_track")
    field.fill("28")
    field.press("Tab")
    expect(page.locator("input[name='was-p0-score_track']")).to_have_value("28")
    expect(page.locator("#p0-score_track-more")).to_be_focused()
    expect(page.locator(".sp-totals")).to_contain_text("Anaïs 28")

    page.goto(url.replace("/track/", "/buildings/"))
    _tap(page, "p0-buildings-inn")
    page.get_by_role("tab", name=re.compile("David")).click()
    expect(page.locator("#p1-buildings-inn")).to_contain_text("Anaïs has it")
    _tap(page, "p1-buildings-inn")
    expect(page.locator("#p1-buildings-inn-msg")).to_contain_text("held by Anaïs and David")
    expect(page.locator(".sp-totals")).to_contain_text("1 to fix")
    expect(page.locator("#sp-nav a[aria-current=step]")).to_contain_text("1 to fix")
    expect(page.locator("#tab-p1 .sp-bad")).to_contain_text("1")
    screenshot(page, "scorepad-partial-problem")
    page.locator("#p1-buildings-inn").click()
    expect(page.locator("#p1-buildings-inn")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#p1-buildings-inn-msg")).to_have_count(0)
    expect(page.locator(".sp-totals")).not_to_contain_text("to fix")
    expect(page.locator("#tab-p1 .sp-bad")).to_have_count(0)
    expect(page.locator("input[name='v']")).to_have_value("5")
    screenshot(page, "scorepad-partial-cleared")


def test_two_phones_on_one_sheet_see_each_other_and_keep_what_they_type(
    live_server: Any, new_context: Any, screenshot: Any
) -> None:
    """Issue 12: each player enters on their own phone; each phone sees the others' entries within 2 s (the
    step polls ``?v=``, 204 while nobody wrote) and never loses what it is typing."""
    aya = new_context().new_page()
    url = _start(aya, live_server.url, ("Aya", "Ben"))
    ben = new_context().new_page()
    ben.goto(url.replace("/track/", "/resources/?p=1"))
    aya.goto(url.replace("/track/", "/resources/"))
    _number(ben, "p1-mon", 9)  # Ben, on his phone
    expect(aya.locator("#tab-p1")).to_contain_text("2")  # 9 mon = 2 IKI, seen by Aya's phone
    expect(aya.locator(".sp-totals")).to_contain_text("Ben 2")
    # Aya types her koban and has not left the field when Ben's next entry lands: her typing stays.
    field = aya.locator("#p0-koban")
    field.fill("3")
    ben.locator("#p1-wood-more").click()
    expect(ben.locator("input[name='was-p1-wood']")).to_have_value("1")
    for _ in range(2):  # a poll or two come and go (Ben's phone, not typing, polls on the same beat)
        with ben.expect_response(lambda r: r.request.method == "GET" and "p=1" in r.url):
            pass
    expect(field).to_have_value("3")
    expect(field).to_be_focused()
    field.press("Tab")  # leaving the field saves it, on top of Ben's entries
    expect(aya.locator("input[name='was-p0-koban']")).to_have_value("3")
    expect(aya.locator(".sp-totals")).to_contain_text("Aya 9")
    expect(aya.locator(".sp-totals")).to_contain_text("Ben 3")
    expect(ben.locator(".sp-totals")).to_contain_text("Aya 9")
    screenshot(aya, "scorepad-two-phones-aya")
    screenshot(ben, "scorepad-two-phones-ben")
    sheet = ScoreSheet.objects.get(token=url.rstrip("/").split("/")[-2])
    assert [(p["mon"], p["koban"], p["wood"]) for p in sheet.table["players"]] == [(0, 3, 0), (9, 0, 1)]


def test_a_warnings_way_to_its_step_is_a_tap_target(live_server: Any, page: Any) -> None:
    """A tie the stack has not settled (RULINGS R12) is said on the result page with the step that settles it:
    that link is a 44 px target like every other, not a word in the sentence."""
    url = _start(page, live_server.url)
    sheet = ScoreSheet.objects.get()
    for player in sheet.table["players"]:
        player.update(score_track=30)
    sheet.save()
    page.goto(url.replace("/track/", "/result/"))
    warning = page.locator(".message.warning", has_text="share the place")
    expect(warning.first).to_be_visible()
    assert page.evaluate(TARGETS, TAP) == []
    warning.first.get_by_role("link", name="Firefighting").click()
    page.wait_for_url(re.compile(r"/firefighting/"))
