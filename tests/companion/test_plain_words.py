"""Plain words everywhere a player looks (issue 23): no ruling number or file name on any page, partial, PDF or
message; the seed has one name, "setup code"; a fire names its Nagaya by its shops (RULINGS R28).

Rulings and rulebook files are cited in code comments, docstrings, tests and docs, never in what a player reads.
The JSON API is left out of the crawl: it may carry a ruling id in a field of its own (docs/api.md).
"""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Callable, Iterable
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from pypdf import PdfReader

from companion.models.games import Game
from companion.models.scoresheets import ScoreSheet
from companion.scorepad.steps import STEPS
from companion.services import osaka
from companion.services.tracker.games import NewPlayer, create_game
from scoring.calendar import CalendarOptions, due_reveals, month_events
from scoring.examples import WORKED_EXAMPLE
from scoring.padcheck import check_pad
from scoring.rules import NAGAYA_SHOPS, nagaya_name
from scoring.table import read_table
from scoring.validate import validate
from setupgen import Options, checklist, generate

FORBIDDEN = ("RULINGS", ".txt")
HX = {"HTTP_HX_REQUEST": "true"}
TEMPLATES = Path(settings.BASE_DIR) / "templates"
#: Template comments a player never reads: {# ... #} and {% comment %} ... {% endcomment %}.
TEMPLATE_COMMENTS = re.compile(r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)


def forbidden_in(text: str) -> list[str]:
    """The forbidden words ``text`` holds, each with a little of what surrounds it."""
    found = []
    for word in FORBIDDEN:
        for m in re.finditer(re.escape(word), text):
            found.append(text[max(0, m.start() - 60) : m.end() + 20])
    return found


def seed_words(text: str) -> list[str]:
    """Where the visible text of a page or PDF calls the setup code a seed (its ``seed=`` links and fields are
    not words a player reads)."""
    if not re.search(r"seeds?\b", text, re.I):
        return []  # the word is nowhere, visible or not: the costlier reading below would find nothing
    visible = unescape(re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style)\b.*?</\1>", "", text)))
    return re.findall(r".{0,40}\bseeds?\b.{0,20}", visible, re.I)


def test_seed_words_reads_only_what_a_player_sees() -> None:
    assert seed_words('<a href="/setup/game?seed=K7MX2QPA">Setup code K7MX 2QPA</a>') == []
    assert seed_words("<p>Seed K7MX2QPA</p>") != []


def test_forbidden_in_finds_what_it_looks_for() -> None:
    assert forbidden_in("a rule (RULINGS R16) and iki-rulebook.txt") != []
    assert forbidden_in("The fire burns Nagaya 2, behind the firefighting and tobacco shops") == []


# --- (a) the templates ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: p.name)
def test_no_template_shows_a_ruling_or_a_file_name(path: Path) -> None:
    text = TEMPLATE_COMMENTS.sub("", path.read_text())
    assert forbidden_in(text) == []


def test_template_comments_are_left_out_of_the_scan() -> None:
    text = "{# RULINGS R6 #}<p>Fish</p>{% comment %}iki-rulebook.txt{% endcomment %}"
    assert forbidden_in(TEMPLATE_COMMENTS.sub("", text)) == []
    assert forbidden_in("<p>Fish (RULINGS R6)</p>") != []


# --- (b) every page of the app --------------------------------------------------------------------------------------


def body_text(response: Any) -> str:
    if response["Content-Type"].startswith("application/pdf"):
        reader = PdfReader(io.BytesIO(response.content))
        return " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    return response.content.decode()


def links_of(html: str) -> Iterable[str]:
    for href in re.findall(r'(?:href|hx-get)="([^"#]+)', html):
        url = unescape(href)
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver") or not parts.path.startswith("/"):
            continue
        if parts.path.startswith(("/static/", "/api/")):
            continue
        yield parts.path + (f"?{parts.query}" if parts.query else "")


#: How many addresses of one path (its query strings differing: options, re-rolls, house rules) the crawl reads
#: by following links; the pages it is given are always read.
QUERIES_PER_PATH = 6


class Crawl:
    """Every page reachable by a player's GET from the pages given, each page and its htmx partial once."""

    def __init__(self, client: Client, limit: int = 600) -> None:
        self.client, self.limit = client, limit
        self.seen: set[str] = set()
        self.bad: dict[str, list[str]] = {}
        self.queries: dict[str, int] = {}

    def visit(self, *urls: str, follow: bool = True) -> None:
        given = set(urls)
        queue = list(urls)
        while queue:
            url = queue.pop(0)
            path = url.partition("?")[0]
            if url in self.seen:
                continue
            if url not in given and (
                len(self.seen) >= self.limit or self.queries.get(path, 0) >= QUERIES_PER_PATH
            ):
                continue
            self.seen.add(url)
            self.queries[path] = self.queries.get(path, 0) + 1
            response = self.client.get(url)
            if response.status_code in (301, 302, 303):
                queue.append(response["Location"])
                given.add(response["Location"])
                continue
            if response["Content-Type"].startswith("application/json"):
                continue
            self.check(url, body_text(response))
            if response["Content-Type"].startswith("text/html"):
                self.check(url + " (htmx)", self.client.get(url, **HX).content.decode())
                if follow:
                    queue.extend(links_of(response.content.decode()))

    def check(self, url: str, text: str) -> None:
        found = forbidden_in(text) + seed_words(text)
        if found:
            self.bad[url] = found


def _game(players: int, akebono: bool, grand_master: bool = False) -> Game:
    setup = generate(Options(players=players, akebono=akebono, grand_master=grand_master), seed="K7MX2QPA")
    names = [NewPlayer("Anaïs", "red"), NewPlayer("David", "blue"), NewPlayer("Dominique", "green")]
    return create_game(
        players=names[:players], akebono=akebono, grand_master=grand_master, setup=setup.to_json(), who="test"
    )


def _play_through(client: Client, crawl: Crawl, game: Game) -> None:
    """The game from month 1 to its end, each due draw revealed and a score added at every step, each answer
    read; then undone once, scored and its pages read. Its pages at every step (page, partial, log, edit and view
    link) are read for these words by the whole-game walk of tests/companion/test_games_hidden.py, which reads
    them anyway for draws not yet revealed, with these games' editions and player counts."""
    change = f"/games/{game.edit_token}/change"
    while not game.finished:
        due = due_reveals(game.month, game.phase_enum, game.options, game.setup)
        hidden = [k for k in due if k not in game.revealed]
        if hidden:
            revealed = client.post(change, {"op": "reveal", "key": " ".join(hidden)}, **HX)
            assert revealed.status_code == 200
            crawl.check(f"reveal in month {game.month}", revealed.content.decode())
        answer = client.post(change, {"op": "score-add", "seat": 1, "value": 2}, **HX)
        crawl.check(f"answer in month {game.month}", answer.content.decode())
        game.refresh_from_db()
        moved = client.post(change, {"op": "next", "v": game.version}, **HX)
        assert moved.status_code == 200
        crawl.check(f"next in month {game.month}", moved.content.decode())
        game.refresh_from_db()
    undone = client.post(change, {"op": "undo", "v": game.version}, **HX)
    crawl.check("undo", undone.content.decode())
    game.refresh_from_db()
    client.post(change, {"op": "next", "v": game.version}, **HX)
    response = client.post(f"/games/{game.edit_token}/end")
    assert response.status_code == 302
    crawl.visit(f"/games/{game.edit_token}/", f"/games/{game.view_token}/", response["Location"])


#: A pad with wrong lines and a wrong total: every kind of problem the check shows, at once.
WRONG_PAD = {
    "name-0": "Anaïs", "colour-0": "red", "name-1": "David", "colour-1": "blue", "edition": "base", "seed": "K7MX2QPA",
    "p0-score_track": "28", "p0-variety": "12", "p0-fish": "2", "p0-tobacco": "15", "p0-buildings": "94",
    "p0-resources": "4", "p0-total": "150", "p0-rank": "2", "p0-pipe": "yes", "p0-firefighting": "6",
    "p1-score_track": "40", "p1-variety": "1", "p1-total": "41", "p1-firefighting": "6", "p1-pipe": "no",
}  # fmt: skip
PAD_2015 = {
    "name-0": "Anaïs", "colour-0": "red", "name-1": "David", "colour-1": "blue",
    "p0-score_track": "31", "p0-types": "6", "p0-fish_seasons": "3", "p0-bonito": "5", "p0-pouches": "2, 3",
    "p0-pipes": "1", "p0-constructions": "5 8", "p0-koban": "2", "p0-lumber": "1", "p0-mon": "11",
    "p0-firefighting": "4", "p1-score_track": "70", "p1-types": "2", "p1-pouches": "4 4 4", "p1-mon": "4",
    "p1-firefighting": "4",
}  # fmt: skip


def visit_an_osaka_game(client: Client, crawl: Crawl) -> Any:
    """A Traders of Osaka game, begun, its pages read (each seat's own too); the answer to a payday refused."""
    game = osaka.create_game(players=[osaka.NewPlayer("Anaïs", "white"), osaka.NewPlayer("David", "pink")])
    osaka.record(game.pk, kind="start", data={"draws": [[9, 3], [8, 3]]}, who="t", seen=game.version)
    game.refresh_from_db()
    crawl.visit(f"/osaka/games/{game.edit_token}/", f"/osaka/games/{game.view_token}/")
    for seat in game.seats.all():
        crawl.visit(f"/osaka/games/{seat.private_token}/", follow=False)
    return client.post(f"/osaka/games/{game.edit_token}/payday", {"v": game.version, "nonsense": "1"})


@pytest.mark.django_db
@pytest.mark.long
@pytest.mark.walk
def test_no_page_shows_a_ruling_or_a_file_name(client: Client) -> None:
    crawl = Crawl(client)
    crawl.visit(
        "/",
        "/setup/",
        "/setup/game?players=2&akebono=1&grand_master=1&seed=K7MX2QPA",
        "/setup/game?players=4&seed=K7MX2QPA",
        "/setup/game?players=3&akebono=1&seed=K7MX2QPA",
        "/setup/game?players=9&seed=0OIL",  # a refusal says what is wrong in words too
        "/setup/sheet.pdf?players=3&akebono=1&seed=K7MX2QPA",
        "/games/new/",
        "/score/",
        "/score/pads/",
        "/check/",
        "/check/?" + urlencode(WRONG_PAD),
        "/check/2015/",
        "/check/2015/?" + urlencode(PAD_2015),
        "/osaka/",
        "/osaka/payday/",
        "/osaka/games/new/",
        "/osaka/sheet.pdf",
        "/find/",
    )
    for players, akebono, gm in ((3, True, False), (2, True, True), (4, False, False)):
        _play_through(client, crawl, _game(players, akebono, gm))
    # the walk-through of a sheet with a problem in every step, its result, then a group of results
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue"])
    for step in STEPS:
        crawl.visit(f"/score/{sheet.token}/{step.slug}/", follow=False)
    wrong = copy.deepcopy(WORKED_EXAMPLE)
    wrong["players"][0].update(firefighting=14, trade=12, fish=["fish-spring-bonus"] * 3)
    broken = ScoreSheet.objects.create(table=wrong, colours=["red", "blue"], seed="K7MX2QPA")
    crawl.visit(*(f"/score/{broken.token}/{step.slug}/" for step in STEPS), f"/score/{broken.token}/result/")
    crawl.visit(f"/score/{sheet.token}/result/")
    assert client.post(f"/results/{sheet.token}/group", {"group": "Thursday table"}).status_code == 302
    crawl.visit(f"/results/{sheet.token}/", f"/score/{sheet.token}/pad.pdf")
    crawl.check("osaka payday refused", visit_an_osaka_game(client, crawl).content.decode())
    assert len(crawl.seen) > 100, sorted(crawl.seen)
    assert crawl.bad == {}


# --- (c) every message over a sample of tables ---------------------------------------------------------------------


def _messages_of_rule_rows() -> Iterable[tuple[str, str]]:
    from tests.scoring import test_validate as iki_rows
    from tests.scoring.osaka import test_validate as osaka_rows

    for name, change, *_ in iki_rows.CASES:
        table = iki_rows.valid_table()
        if isinstance(change, iki_rows.OnRead):
            change.before(table)
            report = validate(change.change(read_table(table)))
        else:
            change(table)
            report = validate(read_table(table))
        for p in (*report.errors, *report.warnings):
            yield f"validator {name}", p.message
    for name, osaka_change, *_ in osaka_rows.CASES:
        data = osaka_rows.valid_payday()
        osaka_change(data)
        for p in (*osaka_rows.report_of(data).errors, *osaka_rows.report_of(data).warnings):
            yield f"osaka {name}", p.message


def _messages_of_pads() -> Iterable[tuple[str, str]]:
    from tests.scoring import test_padcheck as pads

    for line, value, _facts, _words in pads.IMPOSSIBLE:
        for p in check_pad(pads.pad_of(WORKED_EXAMPLE, Anaïs={line: value})).problems:
            yield f"pad {line}={value}", p.message


def _messages_of_calendars() -> Iterable[tuple[str, str]]:
    for players, akebono, gm in ((2, False, False), (3, True, False), (2, True, True), (4, True, False)):
        options = Options(players=players, akebono=akebono, grand_master=gm)
        setup = generate(options, seed="K7MX2QPA")
        calendar = CalendarOptions(players=players, akebono=akebono, grand_master=gm)
        for month in range(1, 14):
            for e in month_events(month, calendar, setup.to_json()):
                for text in (e.title, e.asks, e.source, *e.details, *e.secret):
                    yield f"calendar month {month} {e.key}", text
        for step in checklist(setup):
            for text in (
                step.title,
                step.text,
                step.tracker_note,
                *step.details,
                *(h.text for h in step.hidden),
            ):
                yield f"setup step {step.id}", text


SOURCES: dict[str, Callable[[], Iterable[tuple[str, str]]]] = {
    "rules": _messages_of_rule_rows,
    "pads": _messages_of_pads,
    "calendars": _messages_of_calendars,
    "walk-through": lambda: ((s.slug, s.rule) for s in STEPS),
}


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_no_message_shows_a_ruling_or_a_file_name(source: str) -> None:
    messages = list(SOURCES[source]())
    assert len(messages) > 5
    assert [(where, text) for where, text in messages if forbidden_in(text)] == []


# --- one name for the seed; a fire's Nagaya by its shops (RULINGS R28) -----------------------------------------------


@pytest.mark.parametrize(
    ("nagaya", "words"),
    [
        (1, "Nagaya 1, behind the sandal and rice shops"),
        (2, "Nagaya 2, behind the firefighting and tobacco shops"),
        (3, "Nagaya 3, behind the exchange and building shops"),
        (4, "Nagaya 4, behind the fish market and the money changer"),
    ],
)
def test_a_nagaya_is_named_by_its_two_shops(nagaya: int, words: str) -> None:
    assert nagaya_name(nagaya) == words


@pytest.mark.django_db
def test_the_setup_page_and_sheet_number_the_nagayas_by_their_shops(client: Client) -> None:
    query = "players=3&seed=K7MX2QPA"
    page = unescape(client.get(f"/setup/game?{query}", follow=True).content.decode())
    sheet = body_text(client.get(f"/setup/sheet.pdf?{query}"))
    for n, shops in NAGAYA_SHOPS.items():
        assert f"{n} behind {shops}" in page
        assert f"{n} behind {shops}" in sheet


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/setup/", "/setup/game?players=3&seed=K7MX2QPA", "/games/new/", "/score/", "/check/",
     "/setup/sheet.pdf?players=3&seed=K7MX2QPA"],
)  # fmt: skip
def test_the_seed_is_called_the_setup_code(client: Client, url: str) -> None:
    text = re.sub(r"<[^>]+>", " ", body_text(client.get(url, follow=True)))
    text = re.sub(r'\b(?:name|id|for|aria-describedby)="seed[^"]*"', "", text)
    assert "Setup code" in text or "setup code" in text
    assert not re.search(r"\bseed\b", text, re.I), re.findall(r".{40}\bseed\b.{20}", text, re.I)
