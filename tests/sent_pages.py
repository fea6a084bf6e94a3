"""What the templates send, page by page: a record of a broad walk, and a later walk compared with it.

Reformatting the templates (djlint, issue 22 item 5) must change nothing a phone receives but whitespace, and the
bytes must not grow. Not collected by the suite (its name): run it by path, before and after a reformat::

    SENT_PAGES=/tmp/sent-before python -m pytest tests/sent_pages.py -p no:randomly -q   # records (no directory yet)
    ...reformat...
    SENT_PAGES=/tmp/sent-before python -m pytest tests/sent_pages.py -p no:randomly -q   # compares with the record

The walk: every page of the plain-words crawl (tests/companion/test_plain_words.py), each page and its htmx
partial, an IKI game's page, partial and log at every month with each tap's answer, the walk-through's steps of a
pad with problems and without, its result, results, and a Traders of Osaka game. Tokens are made in order (the
same pages get the same addresses each run) and the CSRF token is masked.

The comparison (:func:`differences`) reads both as the browser would lay them out: the same elements with the same
attributes, the same words, and the same spaces between inline content; whitespace that a browser drops (around
block elements, a run collapsed to one space) may differ. It does not know the stylesheets, so it also flags a space
that shows nowhere (between the items of a flex row, say): the second test opens one page of each kind it flags,
before and after, in Chromium at 390x844 (scripts off, the app's stylesheets) and compares where every element is
and the text a player reads::

    SENT_PAGES=/tmp/sent-before python -m pytest tests/sent_pages.py -p no:randomly -q   # both tests
"""

from __future__ import annotations

import copy
import difflib
import itertools
import json
import os
import re
import secrets
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from companion.models.scoresheets import ScoreSheet
from companion.scorepad.steps import STEPS
from companion.templating import BLOCK  # the elements around which a browser shows no whitespace
from scoring.calendar import due_reveals
from scoring.examples import WORKED_EXAMPLE
from tests.companion.test_plain_words import HX, PAD_2015, WRONG_PAD, Crawl, _game, visit_an_osaka_game

#: Elements whose content is shown (or read by a program) with its whitespace as written.
RAW = frozenset({"pre", "textarea", "script", "style"})
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
#: What differs between two walks whatever the templates: the clock, and the live pieces' digests of their markup
#: (companion/live/engine.py: whitespace counts in them).
VARYING = re.compile(
    r"(?:\d{4}-\d\d-\d\d )?\b\d\d:\d\d(?::\d\d)?\b|\d\d%3A\d\d(?:%3A\d\d)?|(?<= data-h=\")[0-9a-f]+"
)


def masked(html: str) -> str:
    return VARYING.sub(lambda m: "0" * len(m.group()), html)


class Layout(HTMLParser):
    """A page as a list of items a browser would lay out: tags with sorted attributes, words, and a space where
    whitespace between inline content shows; raw elements' text as written."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[str] = []
        self.raw: str | None = None

    def _tag(self, item: str, name: str) -> None:
        if name in BLOCK:
            while self.items and self.items[-1] == " ":
                self.items.pop()
            self.items.append(item)
            self.items.append("")  # a block's start: whitespace after it does not show
        else:
            self.items.append(item)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        shown = " ".join(f"{k}={' '.join((v or '').split())!r}" for k, v in sorted(attrs))
        self._tag(f"<{tag} {shown}>", tag)
        if tag in RAW:
            self.raw = tag

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.raw = None
        self._tag(f"</{tag}>", tag)

    def handle_data(self, data: str) -> None:
        if self.raw is not None:
            self.items.append(data)
            return
        for word in re.split(r"(\s+)", data):
            if not word:
                continue
            if word.isspace():
                if self.items and self.items[-1] not in ("", " "):
                    self.items.append(" ")
            else:
                self.items.append(word)

    @classmethod
    def of(cls, html: str) -> list[str]:
        parser = cls()
        parser.feed(html)
        parser.close()
        return [item for item in parser.items if item != ""]


def differences(before: str, after: str) -> list[str]:
    """Where ``after`` lays out differently from ``before`` (at most a few places, each with its surroundings)."""
    a, b = Layout.of(masked(before)), Layout.of(masked(after))
    if a == b:
        return []
    found = []

    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            found.append(
                f"{op}: {''.join(a[max(0, i1 - 4) : i2 + 4])!r} -> {''.join(b[max(0, j1 - 4) : j2 + 4])!r}"
            )
    return found[:5]


def _walk(client: Client) -> dict[str, str]:
    """Every page of the walk (see the module's docstring) by a name that is the same each run."""
    pages: dict[str, str] = {}

    def keep(name: str, response: Any) -> None:
        if response["Content-Type"].startswith("text/html"):
            pages[name] = CSRF.sub(r"\1csrf", response.content.decode())

    class Recording(Crawl):
        def check(self, url: str, text: str) -> None:
            if not text.startswith("%PDF"):
                pages[url] = CSRF.sub(r"\1csrf", text)

    crawl = Recording(client)
    crawl.visit(
        "/", "/setup/", "/setup/game?players=2&akebono=1&grand_master=1&seed=K7MX2QPA",
        "/setup/game?players=4&seed=K7MX2QPA", "/setup/game?players=3&akebono=1&seed=K7MX2QPA",
        "/setup/game?players=9&seed=0OIL", "/games/new/", "/score/", "/score/pads/", "/check/",
        "/check/?" + "&".join(f"{k}={v}" for k, v in WRONG_PAD.items()), "/check/2015/",
        "/check/2015/?" + "&".join(f"{k}={v}" for k, v in PAD_2015.items()), "/osaka/", "/osaka/payday/",
        "/osaka/games/new/", "/find/", "/no-such-page/",
    )  # fmt: skip
    for n, (players, akebono, gm) in enumerate(((3, True, False), (2, True, True), (4, False, False))):
        game = _game(players, akebono, gm)
        edit, view = f"/games/{game.edit_token}/", f"/games/{game.view_token}/"
        change = edit + "change"
        while not game.finished:
            at = f"game {n} month {game.month} {game.phase}"
            for url, name in ((edit, "edit"), (view, "view"), (edit + "log", "log")):
                keep(f"{at} {name}", client.get(url))
                keep(f"{at} {name} (htmx)", client.get(url, **HX))
            due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
            hidden = [k for k in due if k not in game.revealed]
            if hidden:
                keep(f"{at} reveal", client.post(change, {"op": "reveal", "key": " ".join(hidden)}, **HX))
            keep(f"{at} score", client.post(change, {"op": "score-add", "seat": 1, "value": 2}, **HX))
            game.refresh_from_db()
            keep(f"{at} next", client.post(change, {"op": "next", "v": game.version}, **HX))
            game.refresh_from_db()
        keep(f"game {n} undo", client.post(change, {"op": "undo", "v": game.version}, **HX))
        game.refresh_from_db()
        client.post(change, {"op": "next", "v": game.version}, **HX)
        response = client.post(edit + "end")
        crawl.visit(edit, view, response["Location"])
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    wrong = copy.deepcopy(WORKED_EXAMPLE)
    wrong["players"][0].update(firefighting=14, trade=12, fish=["fish-spring-bonus"] * 3)
    broken = ScoreSheet.objects.create(table=wrong, colours=["red", "blue"], seed="K7MX2QPA")
    for s in (sheet, broken):
        crawl.visit(
            *(f"/score/{s.token}/{step.slug}/" for step in STEPS), f"/score/{s.token}/result/", follow=False
        )
    client.post(f"/results/{sheet.token}/group", {"group": "Thursday table"})
    crawl.visit(f"/results/{sheet.token}/")
    keep("osaka payday refused", visit_an_osaka_game(client, crawl))
    return pages


@pytest.mark.django_db
def test_sent_pages(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count()
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=32: f"tok{next(counter):021d}")
    pages = _walk(client)
    record = Path(os.environ["SENT_PAGES"])
    if not record.exists():
        record.mkdir(parents=True)
        (record / "pages.json").write_text(json.dumps(pages, ensure_ascii=False, indent=0))
        print(f"recorded {len(pages)} pages, {sum(len(p.encode()) for p in pages.values())} bytes")
        return
    (record / "last.json").write_text(json.dumps(pages, ensure_ascii=False, indent=0))
    before: dict[str, str] = json.loads((record / "pages.json").read_text())
    both = sorted(set(before) & set(pages))
    assert len(both) > 100, (len(before), len(pages))
    changed = [name for name in both if Layout.of(masked(before[name])) != Layout.of(masked(pages[name]))]
    size_before = sum(len(before[n].encode()) for n in both)
    size_after = sum(len(pages[n].encode()) for n in both)
    print(f"{len(both)} pages compared ({len(set(before) ^ set(pages))} in one walk only): "
          f"{size_before} bytes before, {size_after} after ({size_after - size_before:+d})")  # fmt: skip
    grew = {n: len(pages[n].encode()) - len(before[n].encode()) for n in both}
    (record / "flagged.json").write_text(json.dumps(changed))
    assert size_after <= size_before, sorted(grew.items(), key=lambda x: -x[1])[:10]


#: Where every element of a page is (tag, id, box) at 390x844.
BOXES = """() => Array.from(document.querySelectorAll('body *')).map(e => { const r = e.getBoundingClientRect();
  return [e.tagName, e.id, r.x, r.y, r.width, r.height]; })"""


@pytest.mark.browser
def test_flagged_pages_lay_out_the_same() -> None:
    """One page of each kind :func:`test_sent_pages` flagged, before and after, in Chromium: every element in the
    same place and the same text (the clock masked in both)."""
    import mimetypes
    import shutil

    from django.contrib.staticfiles import finders
    from playwright.sync_api import Route, sync_playwright

    from tests.conftest import CHROMIUM_ARGS

    record = Path(os.environ["SENT_PAGES"])
    before = json.loads((record / "pages.json").read_text())
    after = json.loads((record / "last.json").read_text())
    kinds: dict[str, str] = {}
    for name in json.loads((record / "flagged.json").read_text()):
        kinds.setdefault(re.sub(r"tok\d+|\d+", "N", name), name)
    shown: dict[str, str] = {}

    def serve(route: Route) -> None:
        path = route.request.url.removeprefix("http://t")
        found = (
            finders.find(path.removeprefix("/static/").split("?")[0]) if path.startswith("/static/") else None
        )
        if isinstance(found, str):
            route.fulfill(path=found, content_type=mimetypes.guess_type(found)[0] or "text/plain")
        elif path == "/page":
            route.fulfill(body=shown["html"], content_type="text/html; charset=utf-8")
        else:
            route.fulfill(status=404, body="")

    moved = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        page = browser.new_context(
            viewport={"width": 390, "height": 844}, java_script_enabled=False
        ).new_page()
        page.route("http://t/**", serve)
        for name in kinds.values():
            seen = []
            for html in (before[name], after[name]):
                shown["html"] = masked(html)
                page.goto("http://t/page", wait_until="load")
                seen.append((page.evaluate(BOXES), page.inner_text("body")))
            if seen[0] != seen[1]:
                moved[name] = [(a, b) for a, b in zip(seen[0][0], seen[1][0], strict=False) if a != b][:3]
        browser.close()
    print(f"{len(kinds)} kinds of flagged pages opened, {len(moved)} with something moved")
    assert moved == {}
