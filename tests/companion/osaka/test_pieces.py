"""A token tap of a tracked Traders of Osaka game costs the same on the first turn and the last (issue 21): the
write applies the change to the state the game keeps instead of replaying the log (companion/services/osaka.py),
and its answer, like a pull behind by token changes only, renders only the pieces a token change can alter
(companion/views/osaka/games.py ``AFTER_TOKEN``) and, of the log, its new line alone: each line is a piece of the
list ``log-lines`` (``data-live-in``), which live.js keeps to the last LOG_ON_PAGE versions. Any other write (an
undo, a restore, the start) and a pull behind by one renders every piece but passes the log through too, naming
its new lines (every line shown after an undo). Checked against the whole log's replay and the whole page's
render: the same state, the same pieces, the same lines in the same order as a reload shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.live.engine import Pieces
from companion.models.osaka import OsakaGame
from companion.presenters.osaka import LOG_ON_PAGE
from companion.services.osaka import record
from companion.views.osaka.games import PAGE_PIECES, SEAT_PIECES
from tests.companion.osaka.test_games import _begin, _draws, _game, _payday

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}
PIECE = re.compile(r'<\w+ data-h="([0-9a-f]+)"[^>]*? id="([^"]+)"')
LINE = re.compile(r'<li data-h="([0-9a-f]+)" id="event-(\d+)" data-live-in="log-lines" data-v="(\d+)"')
LOG = re.compile(r'<section data-h="[0-9a-f]+" class="card" id="log".*?</ul>', re.S)


def _pieces(markup: str) -> dict[str, str]:
    """Each piece's id and digest."""
    return {i: h for h, i in PIECE.findall(markup)}


def _lines(markup: str) -> list[tuple[int, str]]:
    """The log's lines in order: each one's version and digest."""
    found = [(int(v), h) for h, v, data_v in LINE.findall(markup) if v == data_v]
    assert len(found) == len(LINE.findall(markup))  # data-v is the line's version
    return found


def _all(client: Client, token: str) -> dict[str, str]:
    """Every piece as a page holding none gets them (a pull naming no digest)."""
    response = client.get(f"/osaka/games/{token}/state", **LIVE)
    assert response.status_code == 200
    return _pieces(response.content.decode())


def _rendered(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The ids of the pieces each later render makes (answers and pulls)."""
    renders: list[list[str]] = []
    missing = Pieces.missing

    def spy(self: Pieces, held: Any) -> list[Any]:
        renders.append([p.id for p in self.found])
        return missing(self, held)

    monkeypatch.setattr(Pieces, "missing", spy)
    return renders


def _tap(client: Client, game: OsakaGame, held: dict[str, str], seat: int, colour: str, delta: int) -> Any:
    form = {"op": "token", "seat": seat, "colour": colour, "delta": delta, "h": ".".join(held.values())}
    return client.post(f"/osaka/games/{game.edit_token}/change", form, **LIVE)


def _state(game: OsakaGame) -> list[tuple[int, ...]]:
    return [(*s.tokens.values(), s.vp) for s in game.seats.order_by("seat")]


def _started(client: Client) -> OsakaGame:
    game = _begin(_game(3))
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 2, "p1-goods_red_3": 1})
    game.refresh_from_db()
    return game


def _sent(before: dict[str, str], after: dict[str, str]) -> dict[str, str]:
    """What a page holding ``before`` lacks of the whole render ``after``: every piece whose digest changed but the
    log's wrapper, passed through (its lines come one by one; the page keeps the wrapper's digest)."""
    return {i: h for i, h in after.items() if before.get(i) != h and i != "log"}


@pytest.mark.parametrize(
    ("seat", "colour", "delta", "status"),
    [(1, "red", 1, 200), (2, "green", -1, 200), (3, "blue", -1, 400), (2, "yellow", 1, 200)],
)
def test_a_token_taps_answer_holds_the_pieces_the_whole_render_would_send(
    client: Client, monkeypatch: pytest.MonkeyPatch, seat: int, colour: str, delta: int, status: int
) -> None:
    game = _started(client)
    before = _all(client, game.edit_token)
    assert "latest-box" in before and "seat-3" in before  # the payday just played shows until the next change
    rendered = _rendered(monkeypatch)
    answer = _tap(client, game, before, seat, colour, delta)
    assert answer.status_code == status
    game.refresh_from_db()
    line = [f"event-{game.version}"] if status == 200 else []  # a refusal adds no line
    # a refusal also renders the seat's fold, for the answer under its buttons
    said = [f"seat-change-{seat}", f"seat-said-{seat}"] if status == 400 else []
    assert rendered == [["state-msg", "latest-box", f"seat-{seat}", *said, *line]]  # not the page's 17 pieces
    after = _all(client, game.edit_token)
    sent = _pieces(answer.content.decode())
    assert set(sent) == set(_sent(before, after)) | set(said[1:])  # a refusal says why, and only that
    assert all(after[i] == h for i, h in sent.items() if i not in said)
    if status == 200:
        assert set(sent) == {f"seat-{seat}", "latest-box", *line}
        assert 'id="log"' not in answer.content.decode()  # the wrapper stays on the page


def test_a_pull_behind_by_token_taps_gets_what_the_whole_render_would_send(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _started(client)
    seen = game.version
    before = _all(client, game.view_token)
    for seat, colour in ((1, "red"), (3, "blue")):
        assert _tap(client, game, {}, seat, colour, 1).status_code == 200
    game.refresh_from_db()
    after = _all(client, game.view_token)
    query = {"v": seen, "h": ".".join(before.values())}
    rendered = _rendered(monkeypatch)
    pull = client.get(f"/osaka/games/{game.view_token}/state", query, **LIVE)
    lines = [f"event-{seen + 2}", f"event-{seen + 1}"]  # newest first, as the log shows them
    assert rendered == [["state-msg", "latest-box", "seat-1", "seat-3", *lines]]
    assert pull["X-Live-Version"] == str(game.version)
    sent = _pieces(pull.content.decode())
    assert sent == _sent(before, after)
    assert set(sent) == {"seat-1", "seat-3", "latest-box", *lines}
    # Behind an undo (not a token change), the pull renders every piece and every line, and sends what changed.
    last = game.events.filter(kind="token").first()
    assert last is not None
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    now = _all(client, game.view_token)
    pull = client.get(f"/osaka/games/{game.view_token}/state", {"v": game.version, "h": query["h"]}, **LIVE)
    assert _pieces(pull.content.decode()) == _sent(before, now)


def test_the_pieces_other_writes_render_are_every_piece_of_the_page(client: Client) -> None:
    """PAGE_PIECES and SEAT_PIECES name every piece of a whole render but the log and its lines: a write that
    renders them renders all that it may alter."""
    for game in (_game(2), _started(client)):
        seats = {f"{name}-{n}" for name in SEAT_PIECES for n in range(1, game.players + 1)}
        lines = {i for i in _all(client, game.edit_token) if i.startswith("event-")}
        # and the places a refused tap is answered, each inside a named piece
        said = {f"seat-said-{n}" for n in range(1, game.players + 1)} | (
            {"start-said"} if not game.start_seat else set()
        )
        assert set(_all(client, game.edit_token)) == PAGE_PIECES | seats | {"log"} | lines | said


class Phone:
    """A page of ``game`` as live.js keeps it: the digests it holds, the log's lines in order (the versions and
    digests), and its version. It taps and pulls with what it holds and puts the answer in place as live.js does."""

    def __init__(self, client: Client, token: str) -> None:
        self.client, self.token = client, token
        body = client.get(f"/osaka/games/{token}/").content.decode()
        version = re.search(r'data-live-version="(\d+)"', body)
        assert version is not None
        self.version = int(version.group(1))
        self.held = _pieces(body)
        self.lines = _lines(body)

    def put(self, answer: Any) -> None:
        """An answer's pieces in place: the log whole when it came, else each line put in by version (replaced
        when held), the lines older than the newest version minus LOG_ON_PAGE dropped."""
        body = answer.content.decode()
        log = LOG.search(body)
        self.held |= _pieces(body)
        if log:
            self.lines = _lines(log.group(0))
        for v, h in _lines(body if log is None else ""):
            self.lines = sorted([(w, g) for w, g in self.lines if w != v] + [(v, h)], reverse=True)
        newest = self.lines[0][0]
        for v, _ in [line for line in self.lines if line[0] <= newest - LOG_ON_PAGE]:
            self.lines.remove((v, self.held.pop(f"event-{v}")))

    def change(self, **form: Any) -> Any:
        """A write; a page that was behind (the answer's version is not its own plus one) keeps its version and
        pulls the rest."""
        form = {**form, "h": ".".join(self.held.values())}
        answer = self.client.post(f"/osaka/games/{self.token}/change", form, **LIVE)
        assert answer.status_code == 200, answer.content.decode()
        self.put(answer)
        if int(answer["X-Live-Version"]) == self.version + 1:
            self.version += 1
        else:
            self.pull()
        return answer

    def pull(self) -> Any:
        query = {"v": self.version, "h": ".".join(self.held.values())}
        answer = self.client.get(f"/osaka/games/{self.token}/state", query, **LIVE)
        if answer.status_code == 200:
            self.put(answer)
            self.version = int(answer["X-Live-Version"])
        return answer

    def matches_a_reload(self) -> None:
        """What the phone shows is what a fresh page shows: every piece (the log's wrapper may keep an older
        digest: its own markup did not change) and the log's lines in order."""
        fresh = Phone(self.client, self.token)
        assert self.lines == fresh.lines
        assert self.version == fresh.version
        shown = {i: h for i, h in self.held.items() if i != "log"}
        assert shown == {i: h for i, h in fresh.held.items() if i != "log"}


def _token(seat: int, colour: str, delta: int = 1) -> dict[str, Any]:
    return {"op": "token", "seat": seat, "colour": colour, "delta": delta}


def test_two_phones_writing_and_pulling_show_what_a_reload_shows(client: Client) -> None:
    """Taps, a tap from a page left behind, undos and a restore (which alter older lines), a payday entered on
    its own page, a pull further back than the log: after each, both phones show what a reload shows."""
    game = _begin(_game(3))
    ann, ben = Phone(client, game.edit_token), Phone(client, game.edit_token)
    for n in range(10):
        ann.change(**_token(1 + n % 3, "red"))
        ben.pull()
        ann.matches_a_reload()
        ben.matches_a_reload()
    ann.change(**_token(2, "blue"))
    assert len(ben.change(**_token(3, "blue")).content) > 0  # ben was behind: his answer and then a pull
    ben.matches_a_reload()
    ann.pull()
    ann.change(**_token(3, "yellow"))
    ann.change(**_token(3, "yellow", -1))
    game.refresh_from_db()
    took = game.events.get(version=game.version - 1)
    undo = ann.change(op="undo", target=took.version)
    assert f'id="event-{took.version}"' in undo.content.decode() and "answer-event" in undo.content.decode()
    gave = game.events.get(version=took.version + 1)
    assert gave.summary.startswith(
        "Dominique gave back a yellow token ("
    )  # a later line changed: not applied
    ben.pull()
    ben.matches_a_reload()
    ann.change(op="undo", target=took.version)  # restored: the line and the one after it change again
    ann.change(**_token(1, "blue"))  # the next tap
    ben.pull()
    ann.matches_a_reload()
    ben.matches_a_reload()
    _payday(client, game, {"edo1": "red", "p0-goods_red_5": 2, "p1-goods_red_3": 1})
    for phone in (ann, ben):
        phone.pull()
        phone.matches_a_reload()
    for n in range(LOG_ON_PAGE + 2):
        ann.change(**_token(2 + n % 2, "yellow", 1 if n // 2 % 2 == 0 else -1))
    ben.pull()  # behind by more lines than the log shows
    ann.matches_a_reload()
    ben.matches_a_reload()


def test_a_token_tap_applies_to_the_kept_state_without_reading_the_log(client: Client) -> None:
    game = _started(client)
    with CaptureQueriesContext(connection) as queries:
        record(game.pk, kind="token", data={"seat": 0, "colour": "red", "delta": 1}, who="t", cid="tap-1")
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    log_reads = [sql for sql in reads if '"companion_osakaevent"' in sql and '"cid" =' not in sql]
    # One read: the seats with their game (whether its client id was applied, the live write's stored answer)
    assert log_reads == [] and len(reads) == 1, reads
    assert "EXISTS" in reads[0] and '"cid" =' in reads[0], reads[0]
    record(game.pk, kind="token", data={"seat": 2, "colour": "blue", "delta": 1}, who="t")
    record(game.pk, kind="token", data={"seat": 1, "colour": "green", "delta": -1}, who="t")
    kept = _state(game)
    # Undo and restore the last tap: two whole replays of the log, which must find the state the taps kept.
    last = game.events.filter(kind="token").first()
    assert last is not None
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    assert _state(game) != kept
    record(game.pk, kind="undo", data={"target": last.version}, who="t")
    assert _state(game) == kept
    events = {e.version: (e.summary, e.result) for e in game.events.filter(kind="token")}
    assert events[last.version] == ("David gave back a green token", {"applied": True, "note": ""})


def test_a_refused_tap_is_answered_under_the_control_tapped(client: Client) -> None:
    """A refused tap was said in the message at the top of the page, off the screen of a player at the tokens or
    the start's "Who starts?": nothing seemed to happen. It is said under the control tapped now, as the only
    piece sent: the start's choices (its parent piece) are not sent again, so the hands entered stay."""
    game = _game(3)
    phone = Phone(client, game.edit_token)
    held = ".".join(phone.held.values())
    url = f"/osaka/games/{game.edit_token}/change"
    answer = client.post(url, {**_token(2, "yellow", -1), "h": held}, **LIVE)
    assert answer.status_code == 400
    body = answer.content.decode()
    assert list(_pieces(body)) == ["seat-said-2"]
    assert re.search(
        r'id="seat-said-2" data-answer role="alert">\s*David has no yellow token to give back\.', body
    )
    answer = client.post(url, {**_draws(game, (9, 2), (8, 3), (8, 2)), "h": held}, **LIVE)
    assert answer.status_code == 400
    body = answer.content.decode()
    assert list(_pieces(body)) == ["start-said"]
    assert re.search(
        r'id="start-said" data-answer role="alert">\s*Anaïs: 2 cards making 9 is not a hand', body
    )
    # without JavaScript the page comes back at its top: the refusal is said there
    page = client.post(url, _draws(game, (9, 2), (8, 3), (8, 2)))
    assert page.status_code == 400 and 'id="state-message">Anaïs: 2 cards making 9' in page.content.decode()
