"""The setup checklist's ticks kept on the server (issue 3; companion/models/setup_progress.py): a reload, a phone
that slept or a second phone with the share link sees them; two phones ticking at once both land; without
JavaScript the checklist is a form ("Save ticks", then back to the page). A setup is keyed by generator version,
options and seed (RULINGS R19), so another seed or other options start with no ticks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from benchmarks.polling import Browserless, served
from companion.models.live import Mutation
from companion.models.setup_progress import SetupProgress, change_ticks, stream_of, tick, ticked
from companion.setup_query import new_table, ticks_key
from setupgen import GENERATOR_VERSION, Options, checklist, generate
from tests.concurrency import THREADS, at_once, gunicorn_database_url
from tests.setupgen.helpers import named_hidden_draws

HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
LIVE: dict[str, Any] = {"HTTP_X_LIVE": "1"}  # the live script's requests (companion/static/companion/live.js)
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
        f"/setup/ticks?{query}&table={TABLE}", {"step": "general-board", "done": "general-board"}, **LIVE
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
    assert change_ticks(GM_KEY, add=["player-score"], remove=["general-fire"]).done == {
        "general-board",
        "player-score",
    }
    assert change_ticks(GM_KEY, add=["general-reserve"], remove=["general-reserve"]).done == {
        "general-board",
        "player-score",
        "general-reserve",
    }


# --- ticking with the live script (docs/sync.md "The setup page's ticks") ---------------------------------------

POLL = f"/setup/ticks/state?{GM}&seed={SEED}&table={TABLE}"
THING = f"setup:{stream_of(GM_KEY)}"


def digests(page: str) -> str:
    """What a page sends as ``h``: the digests of the pieces it holds."""
    return ".".join(re.findall(r'data-h="([0-9a-f]+)"', page))


def pieces(body: str) -> list[str]:
    """The ids of the pieces an answer holds, in order."""
    return re.findall(r'<[a-z]+ data-h="[0-9a-f]+"[^>]* id="([^"]+)"', body)


def tap(client: Client, step: str, done: bool, page: str = "", n: int = 1, lc: str = "phone-one") -> Any:
    form = {"step": step, "lc": lc, "ln": str(n), "h": digests(page)} | ({"done": step} if done else {})
    return client.post(TICKS, form, **LIVE)


def test_page_is_a_live_root_with_a_form_for_no_javascript(client: Client) -> None:
    page = html(client.get(PAGE))
    stream = f"{stream_of(GM_KEY):016x}"
    assert (
        f'<div id="setup" data-live="setup-{stream_of(GM_KEY)}" data-live-stream="/live/setup/{stream}" '
        f'data-live-pull="{POLL.replace("&", "&amp;")}" data-live-version="0">'
    ) in page
    assert "companion/live.js" in page
    assert "hx-" not in page.split('id="setup"')[1]  # no htmx left in the checklist: live.js sends and pulls
    assert f'<form id="setup-ticks" method="post" action="{TICKS.replace("&", "&amp;")}"' in page
    assert "data-live-change>" in page
    assert 'name="csrfmiddlewaretoken"' in page
    assert re.search(r'name="lc" value="[A-Za-z0-9_-]{24}"><input type="hidden" name="ln" value="1">', page)
    for step in STEPS:
        assert (
            f'class="setup-tick" id="box-{step}"><input type="checkbox" id="tick-{step}" name="done" '
            f'value="{step}" aria-describedby="text-{step}" data-live-as="step">'
        ) in page
    assert set(pieces(page)) == {f"box-{step}" for step in STEPS} | {"setup-progress"}
    assert re.search(
        r'<div role="status" aria-live="polite" id="setup-progress-status">\s*<p data-h="[0-9a-f]+" id="setup-progress"',
        page,
    )
    assert "<noscript>" in page
    assert ">Save ticks</button>" in page
    assert f"<strong>0 of {len(STEPS)}</strong> steps ticked." in page
    assert checked(page) == set()
    assert not SetupProgress.objects.exists()  # opening a page stores nothing


@pytest.mark.parametrize("step", ["general-board", "akebono-boats", "two-player-grand-master"])
def test_a_tap_saves_one_step_and_answers_only_its_pieces(client: Client, step: str) -> None:
    page = html(client.get(PAGE))
    response = tap(client, step, True, page)
    assert response.status_code == 200
    assert response["X-Live-Version"] == "1"
    assert "no-store" in response["Cache-Control"]
    body = html(response)
    assert pieces(body) == [f"box-{step}", "setup-progress"]  # the box and the count, never the page
    assert len(body) < 2048
    assert checked(body) == {step}
    assert f"<strong>1 of {len(STEPS)}</strong>" in body
    title = next(s.title for s in checklist(GM_SETUP) if s.id == step)
    assert f"Saved: “{title}” ticked." in body
    assert ticked(GM_KEY) == {step}
    assert Mutation.objects.get().thing == THING
    page = html(client.get(PAGE))
    assert checked(page) == {step}
    assert 'data-live-version="1"' in page
    assert f'<input type="hidden" name="seen" value="{step}">' in page
    assert f"<strong>1 of {len(STEPS)}</strong>" in page


def test_a_tap_unticks(client: Client) -> None:
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "general-fire", True)
    # An unticked box is not posted: only the step (and the other boxes of the form) arrive.
    response = client.post(TICKS, {"step": "general-board", "done": "general-fire"}, **LIVE)
    assert response.status_code == 200
    assert "Saved: “Main board” unticked." in html(response)
    assert checked(html(client.get(PAGE))) == {"general-fire"}


def test_a_tap_replayed_after_a_lost_answer_is_stored_once(client: Client) -> None:
    """The same client id and counter twice (a retry after a lost answer): applied once, answered the same."""
    page = html(client.get(PAGE))
    first = tap(client, "general-board", True, page)
    again = tap(client, "general-board", True, page)
    assert first.status_code == again.status_code == 200
    assert again["X-Live-Replay"] == "1"
    assert html(again) == html(first)
    assert again["X-Live-Version"] == first["X-Live-Version"] == "1"
    assert Mutation.objects.count() == 1
    assert SetupProgress.objects.get(key=GM_KEY).version == 1


def test_a_replay_does_not_undo_a_later_tap(client: Client) -> None:
    """Tick (1), untick (2), then tick (1) again from a retry: the untick stays."""
    tap(client, "general-board", True, n=1)
    tap(client, "general-board", False, n=2)
    assert tap(client, "general-board", True, n=1)["X-Live-Replay"] == "1"
    assert ticked(GM_KEY) == set()
    assert (
        tap(client, "general-board", True, n=1, lc="phone-two").status_code == 200
    )  # another phone: a write
    assert ticked(GM_KEY) == {"general-board"}


def test_htmx_checklist_partial_keeps_the_ticks(client: Client) -> None:
    tick(GM_KEY, "player-score", True)
    body = html(client.get(PAGE, **HX))
    assert "<html" not in body
    assert checked(body) == {"player-score"}


def test_the_page_is_not_cached(client: Client) -> None:
    response = client.get(PAGE)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_ticks_never_reveal_hidden_items(client: Client) -> None:
    """Ticking the steps that own hidden items shows none of them, in an answer, a pull or the page (the game
    tracker reveals them)."""
    answers = []
    for n, step in enumerate(
        ("general-fire", "akebono-personalities", "akebono-new-characters", "two-player-blocking-tiles"), 1
    ):
        response = tap(client, step, True, n=n)
        assert response.status_code == 200
        answers.append(html(response))
    answers.append(html(client.get(f"{POLL}&v=0", **LIVE)))
    page = html(client.get(PAGE))
    assert len(checked(page)) == 4
    for text in (page, *answers):
        assert named_hidden_draws(text, GM_SETUP) == []


# --- the pull: other phones' ticks -----------------------------------------------------------------------------


def test_pull_answers_204_while_the_version_is_the_same(client: Client) -> None:
    response = client.get(f"{POLL}&v=0", **LIVE)
    assert response.status_code == 204
    assert response.content == b""
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "akebono-tokens", True)
    response = client.get(f"{POLL}&v=2&h=abc", **LIVE)
    assert response.status_code == 204
    assert "no-store" in response["Cache-Control"]


def test_pull_answers_only_the_pieces_the_page_lacks(client: Client) -> None:
    """This phone shows Main board and Calendar ticked; another phone unticked Calendar and ticked Fire tiles."""
    tick(GM_KEY, "general-board", True)
    tick(GM_KEY, "general-calendar", True)
    page = html(client.get(PAGE))
    tick(GM_KEY, "general-calendar", False)
    tick(GM_KEY, "general-fire", True)
    response = client.get(f"{POLL}&v=2&h={digests(page)}", **LIVE)
    assert response.status_code == 200
    assert response["X-Live-Version"] == "4"
    body = html(response)
    assert "<html" not in body
    # Two boxes changed; the count did not (2 ticked before and after), so it is not sent.
    assert pieces(body) == ["box-general-calendar", "box-general-fire"]
    assert checked(body) == {"general-fire"}
    assert named_hidden_draws(body, GM_SETUP) == []
    # The pieces it brings have the page's digests: a second pull with them gets nothing more.
    fresh = digests(html(client.get(PAGE)))
    assert client.get(f"{POLL}&v=3&h={fresh}", **LIVE).content == b""


def test_pull_says_which_writes_of_the_page_landed(client: Client) -> None:
    """A tap whose answer was lost leaves the outbox when a pull says it landed (``X-Live-Done``)."""
    tap(client, "general-board", True, n=1)
    tap(client, "general-calendar", True, n=2)
    response = client.get(f"{POLL}&v=0&lc=phone-one.phone-two", **LIVE)
    assert response["X-Live-Done"] == "phone-one:2"


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        (f"{GM}&seed={SEED}&table=nope", 403, "no table code"),
        (f"{GM}&seed={SEED}", 403, "no table code"),
        (f"players=3&akebono=1&grand_master=1&seed={SEED}&table={TABLE}", 400, "for 2 players"),
        (f"{GM}&seed=K7M&table={TABLE}", 400, "has 3 characters"),
        (f"{GM}&table={TABLE}", 400, "the setup code"),
        (f"{GM}&seed={SEED}&table={TABLE}&v=x", 400, "must be a whole number"),
        (f"{GM}&seed={SEED}&table={TABLE}&v=-1", 400, "must be a whole number"),
        (f"{GM}&seed={SEED}&table={TABLE}&v=٣", 400, "must be a whole number"),
    ],
)
def test_pull_refuses_bad_input(client: Client, query: str, status: int, words: str) -> None:
    for headers in ({}, LIVE):
        response = client.get(f"/setup/ticks/state?{query}", **headers)
        assert response.status_code == status
        assert words in html(response).replace("&#x27;", "'")
    assert SetupProgress.objects.count() == 0


def test_pull_only_answers_get(client: Client) -> None:
    assert client.post(POLL).status_code == 405
    assert client.get(f"{POLL}&v=0").status_code == 204  # there, for a GET: nothing changed


def test_the_setups_stream_address(client: Client) -> None:
    """``/live/setup/<number>``: any well-formed number (a setup nobody ticked is at version 0); under the test
    client (WSGI) a found stream answers 204, so the page polls; a malformed one 404."""
    assert client.get(f"/live/setup/{stream_of(GM_KEY):016x}").status_code == 204
    for bad in ("0123456789ABCDEF", "0123456789abcde", "0123456789abcdefg", "x" * 16):
        assert client.get(f"/live/setup/{bad}").status_code == 404


def test_the_kind_reads_versions_by_the_setups_number() -> None:
    from companion.live.kinds import KINDS

    tick(GM_KEY, "general-board", True)
    found = KINDS["setup"].find(f"{stream_of(GM_KEY):016x}")
    assert found == (stream_of(GM_KEY), 1)
    assert KINDS["setup"].versions([stream_of(GM_KEY), 12]) == {stream_of(GM_KEY): 1}


# --- the view-only link: the ticks as they are made, no write ---------------------------------------------------


def view_link(client: Client) -> str:
    found = re.search(r'id="view-link" value="http://testserver([^"]+)"', html(client.get(PAGE)))
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def test_the_view_only_link_shows_the_ticks_and_offers_no_write(client: Client) -> None:
    tick(GM_KEY, "general-board", True)
    url = view_link(client)
    assert re.fullmatch(
        rf"/setup/game\?{re.escape(GM)}&seed={SEED}&watch=[0-9a-f]{{16}}\.[A-Za-z0-9_-]{{43}}", url
    )
    response = client.get(url)
    assert response.status_code == 200
    page = html(response)
    assert TABLE not in page and TABLE.split(".")[0] not in page  # no link carries the table's code
    assert "<form" not in page.split('id="setup"')[1]  # no tick, no re-roll
    assert "Track this game</a>" not in page
    assert "View only: this page shows the table's ticks as they are made." in page
    assert checked(page) == {"general-board"}
    assert page.count(" disabled") == len(STEPS)
    assert f'data-live="setup-{stream_of(GM_KEY)}"' in page  # the edit pages' thing and stream
    assert f'data-live-stream="/live/setup/{stream_of(GM_KEY):016x}"' in page
    assert named_hidden_draws(page, GM_SETUP) == []
    assert f'id="share-link" value="http://testserver{url.replace("&", "&amp;")}"' in page


def test_the_view_only_pull_answers_its_disabled_boxes(client: Client) -> None:
    url = view_link(client)
    page = html(client.get(url))
    pull = re.search(r'data-live-pull="([^"]+)"', page)
    assert pull is not None
    pull_url = pull.group(1).replace("&amp;", "&")
    assert client.get(f"{pull_url}&v=0", **LIVE).status_code == 204
    tap(client, "akebono-boats", True)
    response = client.get(f"{pull_url}&v=0&h={digests(page)}", **LIVE)
    assert response.status_code == 200
    body = html(response)
    assert pieces(body) == ["box-akebono-boats", "setup-progress"]
    assert checked(body) == {"akebono-boats"}
    assert " disabled checked" in body
    assert TABLE not in body


@pytest.mark.parametrize(
    "change",
    [
        lambda url: url.replace(f"seed={SEED}", "seed=22222222"),  # another setup's page
        lambda url: url.replace("players=2", "players=3").replace("&grand_master=1", ""),
        lambda url: url[:-4] + "AAAA",  # a forged signature
        lambda url: re.sub(r"watch=[0-9a-f]", "watch=z", url),
        lambda url: url + "x" * 200,
    ],
)
def test_a_view_only_code_of_another_setup_is_refused(client: Client, change: Callable[[str], str]) -> None:
    url = change(view_link(client))
    response = client.get(url)
    assert response.status_code == 403
    assert "not one of this setup&#x27;s" in html(response)
    pull = url.replace("/setup/game?", "/setup/ticks/state?") + "&v=0"
    assert client.get(pull, **LIVE).status_code == 403


def test_a_view_only_link_never_writes(client: Client) -> None:
    watch = view_link(client).partition("watch=")[2]
    for headers in ({}, LIVE):
        response = client.post(
            f"/setup/ticks?{GM}&seed={SEED}&watch={watch}",
            {"step": "general-board", "done": "general-board", "lc": "viewer-01", "ln": "1"},
            **headers,
        )
        assert response.status_code == 403
        assert "cannot save ticks" in html(response)
    assert not SetupProgress.objects.exists()
    assert not Mutation.objects.exists()


# --- without JavaScript: the form -----------------------------------------------------------------------------


def test_no_javascript_form_saves_and_redirects_back(client: Client) -> None:
    response = client.post(TICKS, {"done": ["general-board", "general-calendar"]})
    assert response.status_code == 303
    assert response["Location"] == f"{PAGE}&saved=1#step-general-calendar"  # the last box ticked, not the top
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
    assert response["Location"] == f"{PAGE}&saved=1#step-general-fire"
    page = html(client.get(response["Location"]))
    assert checked(page) == {"general-fire"}
    assert named_hidden_draws(page, GM_SETUP) == []


def test_no_javascript_single_step_redirects_to_that_step(client: Client) -> None:
    response = client.post(TICKS, {"step": "player-score", "done": "player-score"})
    assert response.status_code == 303
    assert response["Location"] == f"{PAGE}#step-player-score"


def test_no_javascript_form_sent_twice_counts_once(client: Client) -> None:
    """The form carries the write id the server rendered into it: sent again (a reload of the answer, a second
    tap on Save), it is answered the same and saves nothing more."""
    page = html(client.get(PAGE))
    found = re.search(r'name="lc" value="([^"]+)"', page)
    assert found is not None
    form = {"done": ["general-board"], "lc": found.group(1), "ln": "1"}
    first, again = client.post(TICKS, form), client.post(TICKS, form)
    assert first.status_code == again.status_code == 303
    assert first["Location"] == again["Location"] == f"{PAGE}&saved=1#step-general-board"
    assert Mutation.objects.count() == 1
    assert SetupProgress.objects.get(key=GM_KEY).version == 1


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
    for headers in ({}, LIVE):
        response = client.post(TICKS, form, **headers)
        assert response.status_code == 400
        body = html(response).replace("&#x27;", "'")
        assert words in body
        assert "nothing was saved" in body
        assert "<script>alert" not in body
        assert ("<html" in body) == (headers == {})  # the live script gets the count line with the message
        assert ticked(GM_KEY) == {"general-fire"}  # what was saved stays
    assert not Mutation.objects.exists()


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
    for headers in ({}, LIVE):
        response = client.post(f"/setup/ticks?{query}&table={TABLE}", {"step": "general-board"}, **headers)
        assert response.status_code == 400
        body = html(response).replace("&#x27;", "'")
        assert words in body
        assert "Nothing was saved." in body
        assert "X-Live-Version" not in response  # the live script says the tap was not saved
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
def test_orm_threads_ticking_at_once(name: str) -> None:
    SCENARIOS[name]()


@pytest.mark.django_db(transaction=True)
def test_phones_ticking_different_steps_over_httpat_once() -> None:
    """THREADS phones (gunicorn, 2 uvicorn workers) each tap a different box at the same moment (the live
    script): every tick lands, and a reload on any phone shows them all."""
    with served(gunicorn_database_url()) as (host, port):
        phones = [Browserless(host, port) for _ in range(THREADS)]
        for phone in phones:
            assert phone.request("GET", PAGE)[0] == 200  # the CSRF cookie

        def tap(i: int) -> int:
            status, _, _ = phones[i].request(
                "POST",
                TICKS,
                {"step": STEPS[i], "done": STEPS[i], "lc": f"phone-{i:04}", "ln": "1"},
                {"X-Live": "1"},
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
    assert not page.get_by_role("button", name="Save ticks").is_visible()  # live.js saves each tap

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
        if held or route.request.method != "POST":
            route.continue_()
        else:
            held.append(route)

    seen: list[str] = []  # the taps' requests and answers, in the order the browser saw them
    page.on("request", lambda r: seen.append("sent") if r.method == "POST" else None)
    page.on("response", lambda r: seen.append("answered") if r.request.method == "POST" else None)
    page.route("**/setup/ticks?*", hold_the_first)
    with page.expect_request(lambda r: r.method == "POST"):
        page.get_by_label("Boats", exact=True).check()
    page.get_by_label("Boats", exact=True).uncheck()
    assert len(held) == 1
    held[0].continue_()
    page.locator("#setup-progress").get_by_text("Saved: “Boats” unticked.").wait_for()
    assert seen[:3] == ["sent", "answered", "sent"]  # the second tap left only once the first was answered
    page.unroute("**/setup/ticks?*")
    assert "akebono-boats" not in ticked(GM_KEY)

    # The phone loses its connection: the tap stays on screen, waiting, and lands once the phone is back.
    page.route("**/setup/ticks?*", lambda route: route.abort())
    page.get_by_label("Reserve", exact=True).check()
    page.locator(".live-status").get_by_text("Not saved yet: 1 waiting.").wait_for()
    assert page.get_by_label("Reserve", exact=True).is_checked()
    screenshot(page, "setup-progress-offline")
    page.unroute("**/setup/ticks?*")
    page.locator("#setup-progress").get_by_text("Saved: “Reserve” ticked.").wait_for()
    assert page.locator(".live-status").is_hidden()
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
    page.wait_for_url(re.compile(r"/setup/game\?.*#step-akebono-trade$"))
    expect(
        page.get_by_label("Trade track", exact=True)
    ).to_be_in_viewport()  # where the player was, not the top
    expect(page.locator(".setup-saved")).to_be_in_viewport()  # and said so there, beside the button
    assert page.evaluate("window.scrollY") > 0
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


def test_no_javascript_form_comes_back_where_the_player_was(client: Client) -> None:
    """ "Save ticks" at the foot of a long list comes back at the last step it changed (ticked or unticked), not
    at the top; with nothing changed, at the count."""
    client.post(TICKS, {"done": ["general-board", "general-calendar"]})
    seen = ["general-board", "general-calendar"]
    response = client.post(TICKS, {"done": ["general-calendar"], "seen": seen})
    assert response["Location"].endswith("#step-general-board")  # unticked: still where the player was
    response = client.post(TICKS, {"done": ["general-calendar"], "seen": ["general-calendar"]})
    assert response["Location"].endswith("#setup-progress")
