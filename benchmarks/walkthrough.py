"""The walk-through where a player feels it (issue 12, docs/benchmarks.md): Chromium at 390x844 against gunicorn.

- Taps: a 4-player Akebono sheet's characters step; 40 taps, each timed in the page from the click to the tapped
  piece replaced by the answer's (live.js; swap and settle are one moment now), beside an in-page ``fetch('/healthz')`` timed the same way in the same run.
  Targets: swap <= 2x the fetch, settle <= 2.5x (medians of 40).
- Bytes: each page's first load at 390 px with a cold cache (every response, gzip as served; target <= 30 KiB),
  and a tap's reply (target <= 2 kB).

Everything goes through HTTP, as a phone's browser does: nothing here reaches into the product's code.
"""

from __future__ import annotations

import re
import shutil
import statistics
from dataclasses import dataclass
from typing import Any

from benchmarks import Report
from benchmarks.polling import Browserless, new_osaka, served

TAPS = 40
SWAP_TARGET = 2.0
SETTLE_TARGET = 2.5
FIRST_LOAD_TARGET_KIB = 30
REPLY_TARGET_BYTES = 2000
PHONE = {"width": 390, "height": 844}
#: The characters step's cards tapped on and off in turn (player 1's street peddlers, an open group).
CARDS = ("salt-peddler", "book-lender", "sake-peddler", "cotton-peddler")

#: One tap, timed in the page: click -> the tapped piece replaced by the answer's (companion/static/companion/live.js
#: puts the pieces in; no settle step, so "settled" is the same moment), and when the request was sent and answered.
TAP_JS = """async (id) => {
  const old = document.getElementById(id);
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (document.getElementById(id) !== old) { watch.disconnect(); resolve(performance.now() - t0); }
    });
    watch.observe(document.getElementById('step'), {childList: true, subtree: true});
  });
  old.click();
  const swapped = await done;
  const sent = performance.getEntriesByType('resource').filter((e) => e.name.includes('/entry/')).pop();
  return [swapped, swapped, sent.requestStart - t0, sent.responseEnd - t0];
}"""
#: The floor: the smallest request a page can make, timed the same way.
FETCH_JS = """async () => {
  const t0 = performance.now();
  const r = await fetch('/healthz', {cache: 'no-store'});
  await r.text();
  return performance.now() - t0;
}"""
#: Everything a page load transferred (navigation and its resources), in bytes as sent (gzip, headers included).
LOADED_JS = """() => performance.getEntries()
  .filter((e) => e.entryType === 'navigation' || e.entryType === 'resource')
  .reduce((sum, e) => sum + e.transferSize, 0)"""
REPLIES_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => e.name.includes('/entry/'))
  .map((e) => [e.transferSize, e.encodedBodySize])"""


def new_sheet(
    client: Browserless,
    names: tuple[str, ...] = ("Anaïs", "David", "Chiyo", "Daichi"),
    edition: str = "akebono",
) -> str:
    """A scoring sheet made through the start page, as a phone does; returns its first step's address."""
    client.request("GET", "/score/")
    colours = ("red", "blue", "green", "yellow")
    form = {f"name-{i}": n for i, n in enumerate(names)} | {
        f"colour-{i}": colours[i] for i in range(len(names))
    }
    status, headers, body = client.request(
        "POST", "/score/", form | {"edition": edition, "setup_kind": "none"}
    )
    if status != 302 or not re.search(r"/score/[A-Za-z0-9_-]+/track/$", headers.get("location", "")):
        raise RuntimeError(f"starting a sheet failed: {status} {body[:300]!r}")
    return headers["location"]


def fill_sheet(client: Browserless, first_step: str, cards: int = 12) -> str:
    """Give each player ``cards`` characters, tapped in through HTTP as phones do (a sheet as a table has it at the
    end of a game: held cards, "X has it" hints); returns the filled sheet's first step."""
    page = first_step.replace("/track/", "/characters/")
    _status, _headers, body = client.request("GET", page)
    offered = [
        c
        for c in dict.fromkeys(re.findall(r'id="p0-characters-([a-z-]+)"', body.decode()))
        if not c.startswith("any-")
    ]
    for player in range(4):
        for card in offered[player * cards : (player + 1) * cards]:
            status, _headers, answer = client.request(
                "POST", page + "entry/", {"op": f"add|{player}|characters|{card}"}
            )
            if status != 302:
                raise RuntimeError(f"a tap while filling the sheet failed: {status} {answer[:300]!r}")
    return first_step


def _browser(playwright: Any) -> Any:
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    return playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])


def _context(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)


@dataclass
class Taps:
    """Milliseconds from each click to the piece replaced (twice: swap and settle are one moment), the request sent and answered; the floor
    fetches beside them; each reply's [transferred, body] bytes."""

    swaps: list[float]
    settles: list[float]
    fetches: list[float]
    sent: list[float]
    answered: list[float]
    replies: list[list[int]]


def taps(page: Any, base: str, first_step: str) -> Taps:
    """TAPS taps on the characters step of player 2, each followed by a floor fetch."""
    page.goto(base + first_step.replace("/track/", "/characters/") + "?p=1")
    page.evaluate("() => { document.getElementById('p1-group-street-peddler').open = true; }")
    for _ in range(5):  # warm up: connections, the first swap
        page.evaluate(FETCH_JS)
    swaps, settles, fetches, sent, answered = [], [], [], [], []
    for n in range(TAPS):
        card = CARDS[(n // 2) % len(CARDS)]
        swap, settle, to_send, to_answer = page.evaluate(TAP_JS, f"p1-characters-{card}")
        swaps.append(swap)
        settles.append(settle)
        sent.append(to_send)
        answered.append(to_answer)
        fetches.append(page.evaluate(FETCH_JS))
    return Taps(swaps, settles, fetches, sent, answered, page.evaluate(REPLIES_JS))


#: A 4-player Akebono pad typed whole (scoring.examples.AKEBONO_FOUR_PLAYERS as the scorer writes it): the pad
#: check's heaviest first load, with its verdict and every line.
CHECKED_PAD = (
    "edition=akebono&name-0=Ana%C3%AFs&colour-0=red&p0-score_track=41&p0-variety=9&p0-fish=7&p0-tobacco=10"
    "&p0-buildings=19&p0-resources=7&p0-personalities=0&p0-total=93&p0-rank=3&name-1=David&colour-1=blue"
    "&p1-score_track=52&p1-variety=9&p1-fish=7&p1-tobacco=3&p1-buildings=30&p1-resources=0&p1-personalities=6"
    "&p1-total=107&p1-rank=2&name-2=Dominique&colour-2=green&p2-score_track=38&p2-variety=9&p2-fish=13"
    "&p2-tobacco=8&p2-buildings=2&p2-resources=3&p2-personalities=5&p2-total=78&p2-rank=4&name-3=Ulric"
    "&colour-3=yellow&p3-score_track=66&p3-variety=25&p3-fish=4&p3-tobacco=22&p3-buildings=38&p3-resources=8"
    "&p3-personalities=7&p3-total=170&p3-rank=1"
)


def first_loads(
    browser: Any, base: str, first_step: str, game: str, filled: str, osaka: str
) -> dict[str, int]:
    """Bytes each page's first load transferred, each in a fresh (cold) browser context; ``filled``: a sheet whose
    players hold cards (:func:`fill_sheet`), for the heaviest step as a table sees it."""
    sheet = first_step.removesuffix("track/")
    steps = ("track", "characters", "fish", "tobacco", "buildings", "boats", "personalities", "resources",
             "firefighting")  # fmt: skip
    pages = {
        "home": "/",
        "setup": "/setup/",
        "track: new game": "/games/new/",
        "track: a game": f"/games/{game}/",
        "track: the table screen": f"/games/{game}/screen",
        "osaka: a game": f"/osaka/games/{osaka}/",
        "osaka: a payday": f"/osaka/games/{osaka}/payday",
        "osaka: the table screen": f"/osaka/games/{osaka}/screen",
        "score: start": "/score/",
        "score: pads": "/score/pads/",
        **{f"score: {slug} step": f"{sheet}{slug}/" for slug in steps},
        "score: result": f"{sheet}result/",
        "score: characters, 12 cards each": filled.replace("/track/", "/characters/"),
        "score: result, 12 cards each": filled.replace("/track/", "/result/"),
        "check: start": "/check/",
        "check: a pad, 4 players typed": f"/check/?{CHECKED_PAD}",
        "check: a 2015 pad": "/check/2015/",
    }
    out = {}
    for name, path in pages.items():
        context = _context(browser)
        page = context.new_page()
        page.goto(base + path, wait_until="load")
        out[name] = page.evaluate(LOADED_JS)
        context.close()
    return out


def run(report: Report) -> None:
    from playwright.sync_api import sync_playwright

    with served() as (host, port), sync_playwright() as playwright:
        base = f"http://{host}:{port}"
        client = Browserless(host, port)
        first_step = new_sheet(client)
        filled = fill_sheet(client, new_sheet(client))
        game = client.new_game(("Anaïs", "David", "Chiyo", "Daichi"))
        osaka = new_osaka(client, ("Anaïs", "David", "Chiyo", "Daichi"))
        browser = _browser(playwright)
        try:
            context = _context(browser)
            tapped = taps(context.new_page(), base, first_step)
            context.close()
            loads = first_loads(browser, base, first_step, game, filled, osaka)
        finally:
            browser.close()
    floor, swap, settle = (statistics.median(x) for x in (tapped.fetches, tapped.swaps, tapped.settles))
    replies = tapped.replies
    report("in-page fetch('/healthz'), the floor (median of 40)", floor, "ms")
    report("tap -> its piece replaced, characters step (median of 40)", swap, "ms")
    report("tap -> settled (the same moment: no settle step)", settle, "ms")
    report("  of which click -> request sent (median)", statistics.median(tapped.sent), "ms")
    report("  of which click -> answer in hand (median)", statistics.median(tapped.answered), "ms")
    report("swap / floor", swap / floor, "ratio", f"target <= {SWAP_TARGET}")
    report("settle / floor", settle / floor, "ratio", f"target <= {SETTLE_TARGET}")
    report(
        "tap reply, transferred (median; gzip, headers included)",
        statistics.median(r[0] for r in replies),
        "bytes",
        f"target <= {REPLY_TARGET_BYTES}",
    )
    report("tap reply, body (median; gzip)", statistics.median(r[1] for r in replies), "bytes")
    for name, size in loads.items():
        report(f"first load, cold, 390 px: {name}", size / 1024, "KiB", f"target <= {FIRST_LOAD_TARGET_KIB}")
