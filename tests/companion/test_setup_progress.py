"""The setup checklist's ticks kept on the server (issue 3; companion/models/setup_progress.py): a reload, a phone
that slept or a second phone with the share link sees them; two phones ticking at once both land; without
JavaScript the checklist is a form ("Save ticks", then back to the page). A setup is keyed by generator version,
options and seed (RULINGS R19), so another seed or other options start with no ticks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from benchmarks.polling import Browserless, served
from companion.models.setup_progress import SetupProgress, change_ticks, tick, ticked
from companion.views.setup import POLL_MS, new_table, ticks_key
from setupgen import GENERATOR_VERSION, Options, checklist, generate
from tests.concurrency import THREADS, at_once, gunicorn_database_url, run_scenario
from tests.setupgen.helpers import named_hidden_draws

HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
TABLE = new_table()  # the table's own code: the ticks are saved under it, never under the seed alone
GM = "players=2&akebono=1&grand_master=1"
SEED = "K7MX2QPA"
PAGE = f"/setup/game?{GM}&seed={SEED}&table={TABLE}"
TICKS = f"/setup/ticks?{GM}&seed={SEED}&table={TABLE}"
GM_SETUP = generate(Options(2, akebono=True, grand_master=True), SEED)
GM_KEY = ticks_key(TABLE, GM_SETUP)
STEPS = [step.id for step in checklist(GM_SETUP)]

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


def html(response: Any) -> str:
    return response.content.decode()


def checked(page: str) -> set[str]:
    """The step ids rendered as checked boxes."""
    found = set()
    for tag in re.findall(r"<input[^>]*type=\"checkbox\"[^>]*>", page):
        if re.search(r"\schecked[\s>]", tag):
            match = re.search(r'value="([^"]+)"', tag)
            assert match is not None
            found.add(match.group(1))
    return found


# --- the key --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("players=4&seed=k7mx-2qpa", "players=4&seed=K7MX2QPA"),
        ("players=3&akebono=true&seed=K7MX 2QPA", "players=3&akebono=1&seed=K7MX2QPA"),
        (f"{GM}&seed={SEED}", f"{GM}&seed={SEED}"),
        ("players=2&akebono=on&grand_master=yes&seed=k7mx2qpa", f"{GM}&seed={SEED}"),
    ],
)
def test_ticks_are_keyed_by_version_normalized_options_and_seed(client: Client, query: str, key: str) -> None:
    """Spellings of the same setup share their ticks (RULINGS R19: options + seed reproduce a setup)."""
    response = client.post(
        f"/setup/ticks?{query}&table={TABLE}", {"step": "general-board", "done": "general-board"}, **HX
    )
    assert response.status_code == 200
    assert SetupProgress.objects.get().key == f"{TABLE}|v{GENERATOR_VERSION}?{key}"


def test_other_seeds_and_options_have_their_own_ticks(client: Client) -> None:
    client.post(TICKS, {"step": "general-board", "done": "general-board"})
    assert checked(html(client.get(PAGE))) == {"general-board"}
    assert checked(html(client.get(f"/setup/game?{GM}&seed=22222222&table={TABLE}"))) == set()
    assert checked(html(client.get(f"/setup/game?players=2&akebono=1&seed={SEED}&table={TABLE}"))) == set()


# --- the model ------------------------------------------------------------------------------------------------


def test_tick_and_untick_one_step_at_a_time() -> None:
    assert ticked(GM_KEY) == frozenset()
    assert tick(GM_KEY, "general-board", True) == {"general-board"}
    assert tick(GM_KEY, "general-calendar", True) == {"general-board", "general-calendar"}
    assert tick(GM_KEY, "general-board", True) == {"general-board", "general-calendar"}  # twice: same
    assert tick(GM_KEY, "general-board", False) == {"general-calendar"}
    assert tick(GM_KEY, "general-fire", False) == {"general-calendar"}  # never ticked: nothing to undo
    assert ticked(GM_KEY) == {"general-calendar"}
    row = SetupProgress.objects.get(key=GM_KEY)
    assert row.version == 3  # the two no-op calls changed nothing
    assert row.done == ["general-calendar"]


def test_change_ticks_only_touches_the_named_ids() -> None:
    change_ticks(GM_KEY, add=["general-board", "general-fire"])
    assert change_ticks(GM_KEY, add=["player-score"], remove=["general-fire"]) == {
        "general-board",
        "player-score",
    }
    assert change_ticks(GM_KEY, add=["general-reserve"], remove=["general-reserve"]) == {
        "general-board",
        "player-score",
        "general-reserve",
    }


# --- ticking with htmx ----------------------------------------------------------------------------------------


def test_page_has_htmx_checkboxes_and_a_form_for_no_javascript(client: Client) -> None:
    page = html(client.get(PAGE))
    assert f'<form id="setup-ticks" method="post" action="{TICKS.replace("&", "&amp;")}"' in page
    assert 'name="csrfmiddlewaretoken"' in page
    for step in STEPS:
        assert f'id="tick-{step}" name="done" value="{step}"' in page
        assert f'hx-vals=\'{{"step": "{step}"}}\'' in page
    assert page.count('hx-trigger="change"') == len(STEPS)
    assert f'hx-post="{TICKS.replace("&", "&amp;")}"' in page
    assert re.search(
        r'<div role="status" aria-live="polite" id="setup-progress-status">\s*<p id="setup-progress"', page
    )
    assert "<noscript>" in page
    assert ">Save ticks</button>" in page
    assert f"<strong>0 of {len(STEPS)}</strong> steps ticked." in page
    assert checked(page) == set()


@pytest.mark.parametrize("step", ["general-board", "akebono-boats", "two-player-grand-master"])
def test_htmx_tick_saves_one_step_and_answers_the_count(client: Client, step: str) -> None:
    response = client.post(TICKS, {"step": step, "done": step}, **HX)
    assert response.status_code == 200
    body = html(response)
    assert "<html" not in body
    assert body.count('id="setup-progress"') == 1  # swapped inside the page's live region (role="status")
    assert 'role="status"' not in body
    assert f"<strong>1 of {len(STEPS)}</strong>" in body
    title = next(s.title for s in checklist(GM_SETUP) if s.id == step)
    assert f"Saved: “{title}” ticked." in body
    assert ticked(GM_KEY) == {step}
    page = html(client.get(PAGE))
    assert checked(page) == {step}
    assert f'<input type="hidden" name="seen" value="{step}">' in page
    assert f"<strong>1 of {len(STEPS)}</strong>" in page


def test_htmx_untick(client: Client) -> None:
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "general-fire", True)
    # An unticked box is not posted: only the step (and the other boxes of the form) arrive.
    response = client.post(TICKS, {"step": "general-board", "done": "general-fire"}, **HX)
    assert response.status_code == 200
    assert "Saved: “Main board” unticked." in html(response)
    assert checked(html(client.get(PAGE))) == {"general-fire"}


def test_htmx_checklist_partial_keeps_the_ticks(client: Client) -> None:
    tick(GM_KEY, "player-score", True)
    body = html(client.get(PAGE, **HX))
    assert "<html" not in body
    assert checked(body) == {"player-score"}


def test_the_page_is_not_cached(client: Client) -> None:
    response = client.get(PAGE)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_ticks_never_reveal_hidden_items(client: Client) -> None:
    """Ticking the steps that own hidden items shows none of them (the game tracker reveals them)."""
    for step in (
        "general-fire",
        "akebono-personalities",
        "akebono-new-characters",
        "two-player-blocking-tiles",
    ):
        assert client.post(TICKS, {"step": step, "done": step}, **HX).status_code == 200
    page = html(client.get(PAGE))
    assert len(checked(page)) == 4
    assert named_hidden_draws(page, GM_SETUP) == []


# --- the poll: other phones' ticks -----------------------------------------------------------------------------

POLL = f"/setup/ticks/state?{GM}&seed={SEED}&table={TABLE}"


def test_the_page_polls_for_other_phones_ticks(client: Client) -> None:
    page = html(client.get(PAGE))
    assert f'hx-get="{POLL.replace("&", "&amp;")}"' in page
    assert 'hx-include="#setup-ticks input[type=checkbox]"' in page
    assert 'hx-swap="none"' in page
    # Every POLL_MS; setup_share.js skips a poll while the page is hidden or a tap is being saved (no trigger
    # filter: the Content-Security-Policy allows no eval).
    assert f'hx-trigger="every {POLL_MS}ms"' in page
    assert "companion/setup_share.js" in page


def test_poll_answers_204_while_nothing_changed(client: Client) -> None:
    response = client.get(POLL)
    assert response.status_code == 204
    assert response.content == b""
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "akebono-tokens", True)
    response = client.get(f"{POLL}&done=general-board&done=akebono-tokens", **HX)
    assert response.status_code == 204
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_poll_answers_only_the_boxes_that_differ(client: Client) -> None:
    """This phone shows Main board and Calendar ticked; another phone unticked Calendar and ticked Fire tiles."""
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "general-fire", True)
    response = client.get(f"{POLL}&done=general-board&done=general-calendar", **HX)
    assert response.status_code == 200
    body = html(response)
    assert "<html" not in body
    boxes = re.findall(r'<input type="checkbox" id="tick-([a-z0-9-]+)"[^>]*>', body)
    assert sorted(boxes) == ["general-calendar", "general-fire"]
    assert checked(body) == {"general-fire"}
    assert body.count('hx-swap-oob="true"') == 2
    assert f'hx-post="{TICKS.replace("&", "&amp;")}"' in body  # the swapped box still saves a tap
    assert 'hx-swap-oob="innerHTML:#setup-progress-status"' in body
    assert f"<strong>2 of {len(STEPS)}</strong> steps ticked." in body
    assert named_hidden_draws(body, GM_SETUP) == []


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        (f"{GM}&seed={SEED}&table=nope", 403, "no table code"),
        (f"{GM}&seed={SEED}", 403, "no table code"),
        (f"players=3&akebono=1&grand_master=1&seed={SEED}&table={TABLE}", 400, "for 2 players"),
        (f"{GM}&seed=K7M&table={TABLE}", 400, "has 3 characters"),
        (f"{GM}&table={TABLE}", 400, "the setup code"),
        (f"{GM}&seed={SEED}&table={TABLE}&done=fire-5", 400, "no step 'fire-5'"),
    ],
)
def test_poll_refuses_bad_input(client: Client, query: str, status: int, words: str) -> None:
    for headers in ({}, HX):
        response = client.get(f"/setup/ticks/state?{query}", **headers)
        assert response.status_code == status
        assert words in html(response).replace("&#x27;", "'")
    assert SetupProgress.objects.count() == 0


def test_poll_only_answers_get(client: Client) -> None:
    assert client.post(POLL).status_code == 405
    assert client.get(POLL).status_code == 204  # there, for a GET: nothing changed


# --- without JavaScript: the form -----------------------------------------------------------------------------


def test_no_javascript_form_saves_and_redirects_back(client: Client) -> None:
    response = client.post(TICKS, {"done": ["general-board", "general-calendar"]})
    assert response.status_code == 303
    assert response["Location"] == f"{PAGE}&saved=1#setup-progress"
    assert ticked(GM_KEY) == {"general-board", "general-calendar"}
    page = html(client.get(response["Location"]))
    assert checked(page) == {"general-board", "general-calendar"}
    assert "Ticks saved." in page
    assert "Ticks saved." not in html(client.get(PAGE))
    assert "saved=1" not in page.split('id="share-link"')[1].split(">")[0]  # the share link stays clean
    # Untick one: the page said both were ticked (seen), the form now has one.
    response = client.post(
        TICKS, {"done": ["general-calendar"], "seen": ["general-board", "general-calendar"]}
    )
    assert response.status_code == 303
    assert ticked(GM_KEY) == {"general-calendar"}


def test_no_javascript_form_keeps_ticks_another_phone_made_meanwhile(client: Client) -> None:
    """Phone A loaded the page with nothing ticked; phone B then ticks a step; A saves its own tick: both stay."""
    tick(GM_KEY, "player-score", True)  # phone B, after A loaded the page
    client.post(TICKS, {"done": ["general-board"]})  # phone A: seen is empty, it never saw B's tick
    assert ticked(GM_KEY) == {"general-board", "player-score"}


def test_no_javascript_save_ignores_an_old_show_field(client: Client) -> None:
    """A page from when this page revealed items posts ``show``: the ticks are saved, nothing is revealed."""
    response = client.post(TICKS, {"done": ["general-fire"], "show": "fire-8"})
    assert response.status_code == 303
    assert response["Location"] == f"{PAGE}&saved=1#setup-progress"
    page = html(client.get(response["Location"]))
    assert checked(page) == {"general-fire"}
    assert named_hidden_draws(page, GM_SETUP) == []


def test_no_javascript_single_step_redirects_to_that_step(client: Client) -> None:
    response = client.post(TICKS, {"step": "player-score", "done": "player-score"})
    assert response.status_code == 303
    assert response["Location"] == f"{PAGE}#step-player-score"


def test_htmx_form_save_answers_the_count(client: Client) -> None:
    response = client.post(TICKS, {"done": ["general-board"]}, **HX)
    assert response.status_code == 200
    assert "Ticks saved." in html(response)
    assert f"<strong>1 of {len(STEPS)}</strong>" in html(response)


# --- bad input: 400, nothing saved ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"step": "general-nothing", "done": "general-nothing"}, "no step 'general-nothing'"),
        ({"step": ""}, "no step ''"),
        ({"step": "<script>alert(1)</script>"}, "no step"),
        ({"done": ["general-board", "player-colour"]}, "no step 'player-colour'"),
        ({"done": ["general-board"], "seen": ["nope"]}, "no step 'nope'"),
        # Base-game steps are not steps of an Akebono setup (it replaces them).
        ({"step": "general-buildings", "done": "general-buildings"}, "no step 'general-buildings'"),
    ],
)
def test_unknown_steps_are_refused(client: Client, form: dict[str, Any], words: str) -> None:
    tick(GM_KEY, "general-fire", True)
    for headers in ({}, HX):
        response = client.post(TICKS, form, **headers)
        assert response.status_code == 400
        body = html(response).replace("&#x27;", "'")
        assert words in body
        assert "nothing was saved" in body
        assert "<script>alert" not in body
        assert ("<html" in body) == (headers == {})
        assert ticked(GM_KEY) == {"general-fire"}  # what was saved stays


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (f"players=5&seed={SEED}", "2 to 4 players, not 5"),
        (f"players=3&akebono=1&grand_master=1&seed={SEED}", "Grand Master variant is for 2 players"),
        ("players=4&seed=K7MX2QP0", "never use 0, O, 1, I, L or U"),
        ("players=4&seed=K7M", "has 3 characters"),
        ("players=4", "Give the setup code"),
        ("players=4&akebono=maybe&seed=K7MX2QPA", "Akebono must be 1 or 0"),
        (f"seed={SEED}", "how many players"),
    ],
)
def test_bad_options_or_seed_are_refused(client: Client, query: str, words: str) -> None:
    for headers in ({}, HX):
        response = client.post(f"/setup/ticks?{query}&table={TABLE}", {"step": "general-board"}, **headers)
        assert response.status_code == 400
        body = html(response).replace("&#x27;", "'")
        assert words in body
        assert "Nothing was saved." in body
        assert ("<html" in body) == (headers == {})
    assert not SetupProgress.objects.exists()


def test_ticks_only_take_post(client: Client) -> None:
    assert client.get(TICKS).status_code == 405


def test_csrf_is_required(client: Client) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(TICKS, {"step": "general-board", "done": "general-board"}).status_code == 403
    page = html(strict.get(PAGE))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    form = {"step": "general-board", "done": "general-board", "csrfmiddlewaretoken": token.group(1)}
    assert strict.post(TICKS, form).status_code == 303
    assert ticked(GM_KEY) == {"general-board"}


# --- two phones at once ---------------------------------------------------------------------------------------


def scenario_ticks_of_different_steps_all_land() -> None:
    """THREADS phones each tick a different step at the same moment, twice over (a first tick creates the row)."""
    key = "v0?test-concurrency"
    results = at_once(lambda i: tick(key, STEPS[i], True))
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert ticked(key) == set(STEPS[:THREADS])
    results = at_once(lambda i: tick(key, STEPS[i], False) if i % 2 else tick(key, STEPS[THREADS + i], True))
    assert [r for r in results if isinstance(r, BaseException)] == []
    expected = {STEPS[i] for i in range(0, THREADS, 2)} | {STEPS[THREADS + i] for i in range(0, THREADS, 2)}
    assert ticked(key) == expected
    assert SetupProgress.objects.get(key=key).version == 2 * THREADS


SCENARIOS: dict[str, Callable[[], None]] = {"different-steps": scenario_ticks_of_different_steps_all_land}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_orm_threads_ticking_at_once(name: str, tmp_path: Path) -> None:
    run_scenario(__name__, name, tmp_path)


@pytest.mark.django_db(transaction=True)
def test_phones_ticking_different_steps_over_httpat_once() -> None:
    """THREADS phones (gunicorn, 2 workers x 4 threads) each tap a different box at the same moment (htmx): every
    tick lands, and a reload on any phone shows them all."""
    with served(gunicorn_database_url()) as (host, port):
        phones = [Browserless(host, port) for _ in range(THREADS)]
        for phone in phones:
            assert phone.request("GET", PAGE)[0] == 200  # the CSRF cookie

        def tap(i: int) -> int:
            status, _, _ = phones[i].request(
                "POST", TICKS, {"step": STEPS[i], "done": STEPS[i]}, {"HX-Request": "true"}
            )
            return status

        assert at_once(tap) == [200] * THREADS
        status, _, page = Browserless(host, port).request("GET", PAGE)
        assert status == 200
        assert checked(page.decode()) == set(STEPS[:THREADS])
        assert f"<strong>{THREADS} of {len(STEPS)}</strong>" in page.decode()


# --- in a browser ---------------------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_tick_reload_and_a_second_phone_sees_it(
    live_server: Any, page: Any, new_context: Any, screenshot: Any
) -> None:
    url = live_server.url + PAGE
    page.goto(url)
    box = page.get_by_label("Main board", exact=True)
    box.check()
    page.locator("#setup-progress").get_by_text("Saved: “Main board” ticked.").wait_for()
    page.get_by_label("Sailors", exact=True).check()
    page.locator("#setup-progress").get_by_text("Saved: “Sailors” ticked.").wait_for()
    page.get_by_label("Sailors", exact=True).uncheck()
    page.locator("#setup-progress").get_by_text("Saved: “Sailors” unticked.").wait_for()
    assert page.locator("noscript").count() == 1
    assert not page.get_by_role("button", name="Save ticks").is_visible()  # htmx saves each tap

    page.reload()
    assert page.get_by_label("Main board", exact=True).is_checked()
    assert not page.get_by_label("Sailors", exact=True).is_checked()
    assert "1 of" in page.locator("#setup-progress").inner_text()
    screenshot(page, "setup-progress-reloaded")

    other = new_context().new_page()
    other.goto(url)
    assert other.get_by_label("Main board", exact=True).is_checked()
    other.get_by_label("Calendar", exact=True).check()
    other.locator("#setup-progress").get_by_text("Saved: “Calendar” ticked.").wait_for()
    page.reload()
    assert page.get_by_label("Calendar", exact=True).is_checked()
    assert page.get_by_label("Main board", exact=True).is_checked()
    # Where the fires' Nagayas were: the tracker reveals them; nothing to reveal here.
    assert "the game tracker reveals each fire's Nagaya" in page.locator("#hidden-general-fire").inner_text()
    assert page.get_by_label("Calendar", exact=True).is_checked()
    assert ticked(GM_KEY) == {"general-board", "general-calendar"}

    # Tick then untick before the first answer came back: the second tap waits for the first, not dropped.
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    seen: list[str] = []  # the taps' requests and answers, in the order the browser saw them
    page.on("request", lambda r: seen.append("sent") if r.method == "POST" else None)
    page.on("response", lambda r: seen.append("answered") if r.request.method == "POST" else None)
    page.route("**/setup/ticks*", hold_the_first)
    with page.expect_request("**/setup/ticks*"):
        page.get_by_label("Boats", exact=True).check()
    page.get_by_label("Boats", exact=True).uncheck()
    assert len(held) == 1
    held[0].continue_()
    page.locator("#setup-progress").get_by_text("Saved: “Boats” unticked.").wait_for()
    assert seen[:3] == ["sent", "answered", "sent"]  # the second tap left only once the first was answered
    page.unroute("**/setup/ticks*")
    assert "akebono-boats" not in ticked(GM_KEY)

    # The phone loses its connection: the tap is undone on screen and the table is told it was not saved.
    page.route("**/setup/ticks*", lambda route: route.abort())
    page.get_by_label("Reserve", exact=True).click()  # not check(): the box may be unticked again at once
    page.locator("#setup-progress").get_by_text("Not saved: no connection").wait_for()
    assert not page.get_by_label("Reserve", exact=True).is_checked()
    screenshot(page, "setup-progress-offline")
    page.unroute("**/setup/ticks*")
    page.get_by_label("Reserve", exact=True).check()
    page.locator("#setup-progress").get_by_text("Saved: “Reserve” ticked.").wait_for()
    assert ticked(GM_KEY) == {"general-board", "general-calendar", "general-reserve"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_save_ticks_without_javascript(live_server: Any, new_context: Any, screenshot: Any) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + PAGE)
    page.get_by_label("Main board", exact=True).check()
    page.get_by_label("Trade track", exact=True).check()
    save = page.get_by_role("button", name="Save ticks")
    assert save.is_visible()
    save.click()
    page.wait_for_url(re.compile(r"/setup/game\?.*#setup-progress$"))
    assert page.get_by_label("Main board", exact=True).is_checked()
    assert page.get_by_label("Trade track", exact=True).is_checked()
    assert "2 of" in page.locator("#setup-progress").inner_text()
    assert "Ticks saved." in page.locator("#setup-progress").inner_text()
    screenshot(page, "setup-progress-no-js")
    page.get_by_label("Main board", exact=True).uncheck()
    page.get_by_role("button", name="Save ticks").click()
    page.wait_for_load_state()
    assert not page.get_by_label("Main board", exact=True).is_checked()
    assert ticked(GM_KEY) == {"akebono-trade"}
