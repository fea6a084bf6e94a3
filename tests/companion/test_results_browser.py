"""Results on a 390x844 phone (issue 14): a scored sheet filed under a new group from its result page, the group
page's statistics and chart readable at phone width, and its view-only link."""

from __future__ import annotations

import copy
import datetime
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.services.results import keep_checked_pad
from scoring.examples import AKEBONO_FOUR_PLAYERS, WORKED_EXAMPLE
from tests.companion.test_targets_browser import TAP, TARGETS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _earlier_games(group: Group) -> None:
    """Two earlier evenings of the same table, so the chart has a line to draw."""
    for day, totals in ((datetime.date(2026, 1, 8), (88, 52)), (datetime.date(2026, 1, 15), (71, 79))):
        sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
        ranks = (1, 2) if totals[0] > totals[1] else (2, 1)
        Result.objects.create(
            sheet=sheet, group=group, edition="iki", played=day, sheet_version=1,
            players=[
                {"name": n, "colour": c, "lines": {"score_track": t - 20, "variety": 9, "fish": 11}, "total": t,
                 "rank": r, "buildings": ["inn"] if r == 1 else [], "personalities": []}
                for n, c, t, r in zip(("Anaïs", "David"), ("red", "blue"), totals, ranks, strict=True)
            ],
        )  # fmt: skip


def test_file_a_result_and_read_the_group_at_phone_width(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page.goto(f"{live_server.url}/score/{sheet.token}/result/")
    expect(page.locator("#keep")).to_contain_text("Send to BG Stats")
    expect(page.locator("#share-result")).to_be_visible()  # Web Share or its copy fallback, with JavaScript
    page.get_by_label("Your group's link, or a name for a new group").fill("Thursday table")
    page.get_by_role("button", name="File it").click()
    page.wait_for_url(re.compile(r"/result/"))
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday table")
    screenshot(page, "results-kept")
    assert page.evaluate(TARGETS, TAP) == []  # the way to the group is a tap target, a short name or not
    group = Group.objects.get()
    _earlier_games(group)
    page.get_by_role("link", name="Open the group").click()
    page.wait_for_url(re.compile(r"/groups/"))
    expect(page.locator("h1")).to_have_text("Thursday table")
    expect(page.locator(".rs-edition h2").first).to_have_text("IKI: 3 games")
    expect(page.locator("svg.rs-chart polyline")).to_have_count(2)
    wide = page.evaluate(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 392)"
        ".map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide  # nothing wider than the phone
    chart = page.locator(".rs-plot").bounding_box()
    assert chart is not None and chart["width"] >= 300  # the chart and its totals fill the phone's width
    screenshot(page, "results-group")
    page.goto(page.locator("#group-view-link").get_attribute("href") or "")
    expect(page.locator(".rs-edition h2").first).to_have_text("IKI: 3 games")
    expect(page.get_by_role("button", name="Rename")).to_have_count(0)
    screenshot(page, "results-group-view-only")


TWICE_THE_TEXT = (
    "(h => h.style.fontSize = 2 * parseFloat(getComputedStyle(h).fontSize) + 'px')(document.documentElement)"
)
CHART_WORDS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const words = [...document.querySelectorAll('.rs-x li, .rs-y span')]
    .filter((e) => e.textContent.trim() && getComputedStyle(e).visibility !== 'hidden');
  const dates = words.filter((e) => e.matches('.rs-x li')).map((e) => {
    const range = document.createRange(); range.selectNodeContents(e); return range.getBoundingClientRect();
  });
  return {
    texts: words.map((e) => e.textContent.trim()),
    size: Math.min(...words.map((e) => parseFloat(getComputedStyle(e).fontSize))),
    overlaps: dates.slice(1).filter((d, i) => d.left < dates[i].right).length,
    right: Math.max(...dates.map((d) => d.right)),
    chart: box(document.querySelector('svg.rs-chart')).width,
  };
}"""


def test_the_chart_names_its_games_and_grows_with_the_text(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """The chart's dates and totals are words a player reads: under each game's dot its date, beside the lines the
    highest and lowest totals; at twice the text size they are twice as large and none runs into the next."""
    group = Group.objects.create(name="Thursday table")
    _earlier_games(group)  # 8 and 15 Jan
    for day in (22, 29):
        Result.objects.create(
            group=group, edition="iki", played=datetime.date(2026, 1, day), sheet_version=1,
            players=copy.deepcopy(group.results.first().players),  # type: ignore[union-attr]
        )  # fmt: skip
    page.goto(live_server.url + group.get_absolute_url())
    usual = page.evaluate(CHART_WORDS)
    assert usual["texts"] == ["88", "52", "8 Jan", "15 Jan", "22 Jan", "29 Jan"]
    assert usual["overlaps"] == 0 and usual["size"] >= 12
    screenshot(page, "group-chart")
    page.evaluate(TWICE_THE_TEXT)  # about the phone's largest text
    large = page.evaluate(CHART_WORDS)
    assert large["size"] >= 2 * usual["size"] - 0.5
    assert {"88", "52", "8 Jan", "29 Jan"} <= set(large["texts"])  # first and last games named at any size
    assert large["overlaps"] == 0 and large["right"] <= 390
    assert large["chart"] >= 150  # the lines keep room beside the larger words
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "group-chart-large-text")


#: Waits (in the page, a bounded number of checks) until a service worker keeps this page: false if none comes.
KEPT_JS = """async () => {
  for (let i = 0; i < 300; i++) {
    const reg = await navigator.serviceWorker.getRegistration();
    if (reg && reg.active && await caches.match(location.href)) return reg.scope;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}"""


def test_the_group_page_registers_the_service_worker(live_server: Any, page: Any) -> None:
    """A phone that opens its group's page first (from the home screen) gets the worker, as a game's page gives
    it, and the page is kept for a reload while the server is away."""
    group = Group.objects.create(name="Thursday table")
    _earlier_games(group)
    page.goto(live_server.url + group.get_absolute_url())
    assert page.evaluate("window.isSecureContext")  # localhost, as HTTPS
    assert page.evaluate(KEPT_JS) == live_server.url + "/"


def test_an_akebono_group_page_at_phone_width(live_server: Any, page: Any, screenshot: Any) -> None:
    group = Group.objects.create(name="Akebono nights")
    sheet = ScoreSheet.objects.create(
        table=copy.deepcopy(AKEBONO_FOUR_PLAYERS), colours=["red", "blue", "green", "yellow"]
    )
    from companion.services.results import file_result, record_result

    result = record_result(sheet=sheet)
    assert result is not None
    file_result(result=result, group=group)
    page.goto(live_server.url + group.get_absolute_url())
    expect(page.locator(".rs-edition h2").first).to_have_text("IKI + Akebono: 1 game")
    expect(page.locator(".rs-edition")).to_contain_text("Personalities that came with wins")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "results-group-akebono")


def test_download_everything_and_restore_it_as_a_new_group(
    live_server: Any, page: Any, screenshot: Any, tmp_path: Any
) -> None:
    """Issue 24: a group's file downloaded from its page and restored from another group's page."""
    group = Group.objects.create(name="Thursday table")
    _earlier_games(group)
    page.goto(f"{live_server.url}{group.get_absolute_url()}")
    section = page.locator("section", has=page.get_by_role("heading", name="Keep a copy"))
    with page.expect_download() as download:
        section.get_by_role("link", name="Download everything").click()
    file = tmp_path / "iki-group.json"
    download.value.save_as(file)
    for control in (
        section.get_by_role("button", name="Restore as a new group"),
        section.locator("input[type=file]"),
    ):
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44
    screenshot(page, "group-keep-a-copy")
    other = Group.objects.create(name="Friday")
    page.goto(f"{live_server.url}{other.get_absolute_url()}")
    page.get_by_label("Restore a group from its file").set_input_files(str(file))
    page.get_by_role("button", name="Restore as a new group").click()
    page.wait_for_url(lambda url: other.token not in url and "/groups/" in url)
    expect(page.locator("h1")).to_have_text("Thursday table")
    expect(page.locator(".rs-edition h2").first).to_have_text("IKI: 2 games")
    expect(page.locator("#restored")).to_contain_text("a new group with links of its own")
    expect(
        page.get_by_label("New name for the group")
    ).to_be_visible()  # to tell it from the group it came from
    screenshot(page, "group-restored")
    assert Group.objects.filter(name="Thursday table").count() == 2
    # the same file changed by hand is refused, and nothing is made
    file.write_text(file.read_text().replace('"total": 88', '"total": 98'))
    page.goto(f"{live_server.url}{other.get_absolute_url()}")
    page.get_by_label("Restore a group from its file").set_input_files(str(file))
    page.get_by_role("button", name="Restore as a new group").click()
    refused = page.locator("#restore-refused")
    expect(refused).to_contain_text("was changed after it was made")
    expect(refused).to_contain_text("Choose another file to try again.")
    expect(page.locator("h1")).to_have_text("Friday")  # back on the page the file was sent from, at its form
    assert refused.bounding_box()["y"] < 844  # type: ignore[index]
    screenshot(page, "group-restore-refused")
    assert Group.objects.count() == 3
    # and it tries again there, with the file as it was downloaded
    file.write_text(file.read_text().replace('"total": 98', '"total": 88'))
    page.get_by_label("Restore a group from its file").set_input_files(str(file))
    page.get_by_role("button", name="Restore as a new group").click()
    page.wait_for_url(lambda url: other.token not in url and "/groups/" in url)
    expect(page.locator("h1")).to_have_text("Thursday table")
    assert page.evaluate("scrollY") == 0 and "#" not in page.url  # the new group opens at its top
    assert Group.objects.count() == 4


def test_a_removed_result_is_restored_from_its_page(live_server: Any, page: Any, screenshot: Any) -> None:
    """Issue 20: "Remove from the results" can be taken back: the result page offers "Restore it" and says until
    when; restored, it is back in its group's games."""
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page.goto(f"{live_server.url}/score/{sheet.token}/result/")
    page.get_by_label("Your group's link, or a name for a new group").fill("Thursday table")
    page.get_by_role("button", name="File it").click()
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday table")
    expect(page.locator("#keep")).to_contain_text("can be restored from this page for 30 days")
    page.click("#remove-result")
    expect(page.locator("#removed-note")).to_contain_text("This result was removed from your results")
    expect(page.locator("#removed-note")).to_contain_text("(30 days after its removal)")
    restore = page.locator("#restore-result")
    box = restore.bounding_box()
    assert box is not None and box["height"] >= 44
    screenshot(page, "results-removed")
    group = Group.objects.get()
    assert Result.objects.get().removed
    restore.click()
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday table")
    result = Result.objects.get()
    assert not result.removed and result.group == group
    page.goto(f"{live_server.url}{group.get_absolute_url()}")
    expect(page.locator(".rs-games li")).to_have_count(1)


def test_the_home_page_lists_this_phones_groups_and_checked_pads(live_server: Any, page: Any) -> None:
    """Next week's evening starts from the home page: the group opened last week and a checked pad kept without a
    group (its page is the only way back to file, correct or remove it) are in this phone's list."""
    group = Group.objects.create(name="Thursday table")
    _earlier_games(group)
    pad = keep_checked_pad(
        edition="iki",
        players=[
            {"name": "Zoé", "colour": "red", "lines": {"score_track": 30}, "total": 30, "rank": 1},
            {"name": "Yann", "colour": "blue", "lines": {"score_track": 20}, "total": 20, "rank": 2},
        ],
        query="",
    )
    page.goto(live_server.url + group.get_absolute_url())
    page.goto(live_server.url + pad.edit_url())
    page.goto(live_server.url + "/")
    page.wait_for_function(
        "(keys) => keys.every((k) => (localStorage.getItem('iki-recent') || '').includes(k))",
        arg=[group.get_absolute_url(), pad.edit_url()],
    )
    page.reload()
    recent = page.locator("#recent")
    expect(recent).to_contain_text("Group: Thursday table")
    expect(recent).to_contain_text("2 games kept · ")  # the page's line, without its full stop
    expect(recent).to_contain_text("Checked pad: Zoé, Yann")
    expect(recent).to_contain_text("Zoé 30 IKI, Yann 20 IKI")
    page.locator("#recent a", has_text="Group: Thursday table").click()
    page.wait_for_url("**" + group.get_absolute_url())


def test_next_weeks_game_is_filed_in_this_phones_group_in_one_tap(live_server: Any, page: Any) -> None:
    """A phone that opened its group's edit link offers that group on the next result page: one tap files the
    game there, where typing the group's name would have made a second group of that name."""
    group = Group.objects.create(name="Thursday table")
    viewed = Group.objects.create(name="Friends' table")
    page.goto(live_server.url + group.get_absolute_url())
    page.goto(live_server.url + viewed.view_url())  # a view-only link cannot file: not offered
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page.goto(f"{live_server.url}/score/{sheet.token}/result/")
    expect(page.get_by_role("button", name="File it in Friends' table")).to_have_count(0)
    page.get_by_role("button", name="File it in Thursday table").click()
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday table")
    assert Group.objects.count() == 2 and Result.objects.get().group == group
    assert page.evaluate(TARGETS, TAP) == []


#: This phone's recent list (recent.js): each entry's address and the name it shows.
RECENT_TITLES = "() => Object.fromEntries(JSON.parse(localStorage.getItem('iki-recent') || '[]').map((i) => [i.url, i.title]))"


def test_rename_the_group_and_this_phone_knows_it_by_its_new_name(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """From the edit link "Thursday crew" becomes "Thursday games": the page opens at its top saying so, and this
    phone's recent list (the home page's, and the result page's "File it in …") names the group anew, its
    view-only entry too. Before, a restored copy and its original showed the same name, with no way to rename."""
    group = Group.objects.create(name="Thursday crew")
    _earlier_games(group)
    page.goto(live_server.url + group.view_url())
    expect(page.locator("summary", has_text="Rename the group")).to_have_count(0)  # not on the view-only link
    page.goto(live_server.url + group.get_absolute_url())
    edit, view = group.get_absolute_url(), group.view_url()
    page.wait_for_function(f"() => Object.keys(({RECENT_TITLES})()).length === 2")
    assert page.evaluate(RECENT_TITLES) == {edit: "Thursday crew", view: "Thursday crew"}
    page.locator("summary", has_text="Rename the group").click()
    page.get_by_label("New name for the group").fill("Thursday games")
    assert page.evaluate(TARGETS, TAP) == []
    page.get_by_role("button", name="Rename the group").click()
    page.wait_for_url(re.compile(r"\?named="))
    expect(page.locator("h1")).to_have_text("Thursday games")
    done = page.locator("#named")
    expect(done).to_have_text("Done: the group is now called Thursday games.")
    box = done.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844 and page.evaluate("scrollY") == 0  # at the top
    screenshot(page, "group-renamed")
    page.wait_for_function(f"() => ({RECENT_TITLES})()[{edit!r}] === 'Thursday games'")
    assert page.evaluate(RECENT_TITLES) == {edit: "Thursday games", view: "Thursday games"}
    page.goto(live_server.url + "/")
    recent = page.locator("#recent")
    expect(recent.locator("a", has_text="Group: Thursday games")).to_have_count(2)
    expect(recent).not_to_contain_text("Thursday crew")
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    page.goto(f"{live_server.url}/score/{sheet.token}/result/")
    page.get_by_role("button", name="File it in Thursday games").click()
    expect(page.locator("#keep")).to_contain_text("Kept in your group Thursday games")
    assert Result.objects.get(sheet=sheet).group == group
