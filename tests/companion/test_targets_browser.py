"""Every page at 390x844 with a real table's data (issue 23, "390 px"): four players of twelve-character names and
three-digit scores. Every tap target is at least 44x44 px, and no page scrolls sideways: a table wider than the
phone scrolls inside its own box.

The data: a tracked IKI + Akebono game of four (running, and played to its end), a walk-through sheet with three-
digit totals and its result, the pad check with wrong numbers typed, the 2015 check, a Traders of Osaka game of four
(running and finished), a group holding both games' results, and every other page of companion/urls.py.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client

from companion.models.games import Game
from companion.models.osaka import OsakaGame
from companion.models.results import Group
from companion.scorepad.services import start_sheet
from companion.scorepad.steps import STEPS
from companion.services import osaka
from companion.services.results import file_result, record_osaka_result, record_result
from companion.services.tracker.changes import apply_change
from companion.services.tracker.games import NewPlayer, create_game
from scoring.calendar import due_reveals
from setupgen import Options, generate
from tests.companion.osaka.test_results_browser import _iki_games
from tests.companion.test_csp_browser import _html_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anaïs Lenoir", "David Martin", "Dominique Ro", "Ulric Fabian")  # twelve characters each
COLOURS = ("red", "blue", "green", "yellow")
HX = {"HTTP_HX_REQUEST": "true"}
PHONE_WIDTH = 390
#: Addresses that answer HTML but are no page a player opens: the health check, the live pages' swapped parts.
NOT_PAGES = ("healthz", "game-state", "osaka-game-state", "game-screen-state", "osaka-game-screen-state")
TAP = 44

#: What a thumb taps: links, buttons, fields, a details' summary, and a label that wraps its control or names a
#: checkbox or radio. A checkbox or radio that has such a label is reached through it: the label is measured, not
#: the box drawn beside it (a label[for] of a text field is not a target: the field is).
TARGETS = """
(tap) => {
  const out = [];
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(e);
    if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
    if (e.closest('.visually-hidden')) return false;  // read aloud, never seen or tapped
    return true;
  };
  const ticks = (e) => e && e.matches('input[type=checkbox], input[type=radio]');
  const labelOf = (e) => e.closest('label') || (e.id && document.querySelector(`label[for="${CSS.escape(e.id)}"]`));
  for (const e of document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, label')) {
    if (e.tagName === 'LABEL') {
      const control = e.querySelector('input, select, textarea') || (e.htmlFor && document.getElementById(e.htmlFor));
      if (!control || (!e.contains(control) && !ticks(control))) continue;
    } else if (e.tagName === 'INPUT' && ticks(e) && labelOf(e)) {
      continue;  // its label is the target
    } else if (e.closest('label') && ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName)) {
      continue;  // the label that wraps it is the target
    }
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width + 0.5 < tap || r.height + 0.5 < tap) {
      const text = (e.innerText || e.value || e.getAttribute('aria-label') || e.name || '').trim();
      out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} `
               + `"${text.slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}
"""

#: The elements that reach past the phone's right edge, outside a box that scrolls on its own.
WIDE = """
(width) => [...document.querySelectorAll('body *')].filter((e) => {
  const r = e.getBoundingClientRect();
  if (r.right <= width + 1 || r.width === 0) return false;
  for (let p = e.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX)) return false;
  }
  return true;
}).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}`
             + ` right ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 6)
"""


#: The checkboxes and radios drawn narrower or shorter than they are tall or wide: a flex row whose label wraps
#: squeezes its box (the Grand Master's beside its two lines of words looked smaller than the Akebono one above it).
SQUASHED = """
() => [...document.querySelectorAll('input[type=checkbox], input[type=radio]')].filter((e) => {
  const r = e.getBoundingClientRect();
  const drawn = getComputedStyle(e).appearance !== 'none';  // not a switch drawn by the app's own style
  return drawn && r.width > 0 && Math.abs(r.width - r.height) > 1;
}).map((e) => `${e.name || e.id} ${Math.round(e.getBoundingClientRect().width)}x${
  Math.round(e.getBoundingClientRect().height)}`)
"""


#: Every fold of the page's main part opened, as a tap on its summary opens it (no script of the app listens for
#: the tap: a fold's content is in the page), in one call rather than one Playwright round trip a fold.
OPEN_FOLDS = "() => { for (const d of document.querySelectorAll('main details:not([open])')) d.open = true; }"

#: The tracker's player rows whose counts are not on the name's line, or whose name takes two lines (the row wrapped).
ONE_LINE = """
() => [...document.querySelectorAll('.row-head')].filter((head) => {
  const strong = head.querySelector('strong');
  const name = strong.getBoundingClientRect();
  const tracks = head.querySelector('.tracks').getBoundingClientRect();
  const lines = name.height / parseFloat(getComputedStyle(strong).lineHeight);
  return tracks.top >= name.bottom || tracks.bottom <= name.top || lines > 1.5;
}).map((head) => head.innerText.replace(/\\s+/g, ' '))
"""


def _tracked_game(client: Client, *, to_the_end: bool) -> Game:
    """Four players, three-digit scores (Dominique Ro at 108, Ulric Fabian at 120); played to its end if asked."""
    setup = generate(Options(players=4, akebono=True), seed="K7MX2QPA").to_json()
    game = create_game(
        players=[NewPlayer(n, c) for n, c in zip(NAMES, COLOURS, strict=True)],
        akebono=True,
        grand_master=False,
        setup=setup,
        who="test",
    )
    for seat, score in ((1, 71), (2, 99), (3, 108), (4, 120)):
        apply_change(game_id=game.pk, op="score-set", who="test", seat=seat, value=score, seen=game.version)
        game.refresh_from_db()
    apply_change(game_id=game.pk, op="fire-add", who="test", seat=2)
    apply_change(game_id=game.pk, op="record-add", who="test", seat=1, field="tokens", key="fish-spring")
    game.refresh_from_db()
    change = f"/games/{game.edit_token}/change"
    while to_the_end and not game.finished:
        due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
        hidden = [k for k in due if k not in game.revealed]
        if hidden:
            assert client.post(change, {"op": "reveal", "key": " ".join(hidden)}, **HX).status_code == 200
        game.refresh_from_db()
        assert client.post(change, {"op": "next", "v": game.version}, **HX).status_code == 200
        game.refresh_from_db()
    return game


def _osaka_game(client: Client, *, finished: bool) -> OsakaGame:
    """Four traders; Anaïs Lenoir at 7 tokens, so that a payday in which she gains one ends the game."""
    game = osaka.create_game(
        players=[osaka.NewPlayer(n, c) for n, c in zip(NAMES, ("white", "pink", "gray", "tan"), strict=True)]
    )
    draws = [[9, 3], [8, 3], [10, 2], [11, 3]]
    osaka.record(game.pk, kind="start", data={"draws": draws}, who="t", seen=game.version)
    for seat in range(4):
        osaka.record(game.pk, kind="token", data={"seat": seat, "colour": "green", "delta": 1}, who="t")
    for colour in ("red", "blue", "yellow", "red", "blue", "yellow"):
        osaka.record(game.pk, kind="token", data={"seat": 0, "colour": colour, "delta": 1}, who="t")
    game.refresh_from_db()
    if finished:
        form = {"v": game.version, "edo1": "yellow", "p0-goods_yellow_3": 1, "p1-goods_yellow_5": 2}
        client.post(f"/osaka/games/{game.edit_token}/payday", form)
        game.refresh_from_db()
        assert game.finished
    return game


#: A pad of four with wrong lines and totals: the check shows its problems, every tab and table filled.
WRONG_PAD = {
    **{f"name-{i}": n for i, n in enumerate(NAMES)},
    **{f"colour-{i}": c for i, c in enumerate(COLOURS)},
    "edition": "akebono",
    **{f"p{i}-score_track": str(60 + 10 * i) for i in range(4)},
    **{f"p{i}-variety": "12" if i == 0 else "9" for i in range(4)},
    **{f"p{i}-buildings": "40" for i in range(4)},
    **{f"p{i}-total": str(105 + 3 * i) for i in range(4)},
}
#: The payday calculator answered for four traders (its table of tokens and VP beside each name).
PAYDAY = {
    "players": "4", "edo1": "yellow", "edo2": "red", "sunk": "blue",
    **{f"p{i}-name": n for i, n in enumerate(NAMES)},
    "p0-tokens_yellow": "1", "p0-goods_yellow_2": "1", "p0-goods_yellow_3": "1", "p0-goods_yellow_5": "1",
    "p1-goods_red_2": "3", "p1-goods_red_3": "1", "p2-goods_yellow_5": "2", "p3-goods_red_5": "1",
}  # fmt: skip
PAD_2015 = {
    **{f"name-{i}": n for i, n in enumerate(NAMES)},
    **{f"colour-{i}": c for i, c in enumerate(COLOURS)},
    **{f"p{i}-score_track": str(90 + i) for i in range(4)},
    **{f"p{i}-types": "4" for i in range(4)},
    **{f"p{i}-mon": "11" for i in range(4)},
}


def phone_pages(base: str) -> dict[str, str]:
    """Every page of the app, by a short name, filled as a table of four would fill it."""
    client = Client()
    pages = {f"route {name}": url for name, url in _html_pages(base).items() if name not in NOT_PAGES}
    running = _tracked_game(client, to_the_end=False)
    ended = _tracked_game(client, to_the_end=True)
    sheet = start_sheet(
        names=NAMES,
        colours=COLOURS,
        akebono=True,
        prefill={n: {"score_track": 100 + 7 * i, "firefighting": 3 + i} for i, n in enumerate(NAMES)},
    )
    result = record_result(sheet=sheet)
    assert result is not None
    group = Group.objects.create(name="Thursday evenings at the club")
    file_result(result=result, group=group)
    _iki_games(group)  # two Akebono evenings of the same four names, every line of the pad
    playing = _osaka_game(client, finished=False)
    over = _osaka_game(client, finished=True)
    kept = record_osaka_result(game=over)
    assert kept is not None
    file_result(result=kept, group=group)
    pages |= {
        "game": running.edit_url(),
        "game view": running.view_url(),
        "game log": f"/games/{running.edit_token}/log",
        "game share": f"/games/{running.edit_token}/share",
        "game ended": ended.edit_url(),
        "game ended view": ended.view_url(),
        **{f"sheet {step.slug}": f"/score/{sheet.token}/{step.slug}/" for step in STEPS},
        "sheet result": f"/score/{sheet.token}/result/",
        "sheet view": f"/score/view/{sheet.view_token}/",
        "result": f"/results/{sheet.token}/",
        "check typed": "/check/?" + urlencode(WRONG_PAD),
        "check 2015 typed": "/check/2015/?" + urlencode(PAD_2015),
        "check 2015 worked": "/check/2015/work/?" + urlencode(PAD_2015),
        "osaka calculator answered": "/osaka/payday/?" + urlencode(PAYDAY),
        "osaka game": f"/osaka/games/{playing.edit_token}/",
        "osaka game view": f"/osaka/games/{playing.view_token}/",
        "osaka own link": playing.seats.get(seat=1).private_url(),
        "osaka payday": f"/osaka/games/{playing.edit_token}/payday",
        "osaka log": f"/osaka/games/{playing.edit_token}/log",
        "osaka ended": f"/osaka/games/{over.edit_token}/",
        "osaka ended view": f"/osaka/games/{over.view_token}/",
        "group": group.get_absolute_url(),
        "group view": group.view_url(),
        "not found": "/no/such/page/",
    }
    return {name: url if url.startswith("http") else base + url for name, url in pages.items()}


def _visit(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")


def test_the_measures_find_what_they_look_for(page: Any) -> None:
    page.set_content(
        '<main><p><a href="/x">small link</a></p><button style="min-height:48px">Big enough</button>'
        '<label><input type="checkbox"> a label</label><div style="width:500px">wide</div>'
        '<p class="row-head"><strong style="display:block">Name</strong><span class="tracks">9</span></p>'
        '<p class="row-head" style="display:flex"><strong style="width:3ch;line-height:20px">Two words</strong>'
        '<span class="tracks">9</span></p></main>'
    )
    assert [t.split(" ")[0] for t in page.evaluate(TARGETS, TAP)] == ["a.", "label."]  # the button is big
    assert page.evaluate(WIDE, PHONE_WIDTH) != [] and page.evaluate(ONE_LINE) == ["Name 9", "Two words 9"]
    page.set_content(
        '<label style="display:flex;width:120px"><input type="checkbox" name="gm" style="width:22px;height:22px">'
        " Two lines of words here</label>"
    )
    assert [s.split(" ")[0] for s in page.evaluate(SQUASHED)] == ["gm"]


#: Pages saved as screenshots (out/screens/wide-*.png) for a person to look at.
LOOK_AT = ("game", "game ended", "osaka ended", "osaka game", "sheet characters", "sheet result", "group",
           "check typed", "route setup-game", "route scorepad-new")  # fmt: skip


@pytest.mark.long  # the longest browser tests of the suite (20-50 s in CI): started first
def test_no_page_scrolls_sideways_and_every_tap_target_is_44_px(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """One visit a page (the data and the page loads are most of the cost): its width as it opens, then every fold
    opened and every tap target measured, what is inside the folds included."""
    wide, wrapped, small, squashed = {}, {}, {}, {}
    pages = phone_pages(live_server.url)
    assert len(pages) >= 50, sorted(pages)
    for name, url in pages.items():
        _visit(page, url)
        if name in LOOK_AT:
            screenshot(page, "wide-" + name.replace(" ", "-"))
        if name in ("game", "game view", "game ended", "game ended view"):  # the tracker's scoreboard
            assert page.locator(".row-head").count() == len(NAMES), name
            wrapped[name] = page.evaluate(ONE_LINE)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE_WIDTH:
            wide[name] = (width, page.evaluate(WIDE, PHONE_WIDTH))
        page.evaluate(OPEN_FOLDS)
        found = page.evaluate(TARGETS, TAP)
        if found:
            small[name] = found
        squashed[name] = page.evaluate(SQUASHED)
    failures = {
        "rows that wrapped": {name: rows for name, rows in wrapped.items() if rows},
        "pages wider than the phone": wide,
        "tap targets under 44 px": small,
        "checkboxes squeezed out of square": {name: boxes for name, boxes in squashed.items() if boxes},
    }
    assert all(not found for found in failures.values()), "\n".join(
        f"{kind}, {name}: {found}" for kind, by_page in failures.items() for name, found in by_page.items()
    )
