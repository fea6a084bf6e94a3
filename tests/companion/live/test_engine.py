"""companion.live.engine and the stream view, without a browser: write ids, a write applied once, the pieces a
pull gets, the stream's answers (docs/sync.md)."""

from __future__ import annotations

import datetime
import fcntl
import gzip
import os
import re
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from companion.live import engine
from companion.live.engine import Answer, Pieces, mutation_id, once
from companion.models.live import Mutation
from companion.services.osaka import NewPlayer, create_game
from companion.services.retention import purge

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_X_LIVE": "1"}


@pytest.mark.parametrize(
    ("lc", "ln", "expected"),
    [
        ("abcdefgh", "1", ("abcdefgh", 1)),
        ("a" * 32, "2147483647", ("a" * 32, 2147483647)),
        ("short", "1", None),  # a client id under 8 characters
        ("a" * 33, "1", None),  # over 32
        ("abc defgh", "1", None),  # not a letter, digit, - or _
        ("abcdefgh", "0", None),  # counters start at 1
        ("abcdefgh", "-1", None),
        ("abcdefgh", "2147483648", None),  # over 2**31 - 1
        ("abcdefgh", "１", None),  # not ASCII
        ("abcdefgh", "", None),
    ],
)
def test_a_write_id(lc: str, ln: str, expected: tuple[str, int] | None) -> None:
    found = mutation_id({"lc": lc, "ln": ln})
    assert (None if found is None else (found.client, found.counter)) == expected


def test_a_write_runs_once_per_id_and_a_replay_gets_the_first_answer() -> None:
    runs: list[int] = []

    def write() -> Answer:
        runs.append(1)
        return Answer(200, f"answer {len(runs)}", len(runs) + 1)

    mid = mutation_id({"lc": "phone-one", "ln": "1"})
    first, replay = once("osaka:1", mid, write)
    again, replayed = once("osaka:1", mid, write)
    assert (first.body, replay) == ("answer 1", False)
    assert (again.body, again.version, replayed) == ("answer 1", 2, True)
    assert runs == [1]
    other, _ = once("osaka:2", mid, write)  # the same id on another thing is another write
    assert other.body == "answer 2" and Mutation.objects.count() == 2
    once("osaka:1", None, write)  # no id: applied as sent, nothing kept
    assert runs == [1, 1, 1] and Mutation.objects.count() == 2


def test_old_answers_lose_their_pieces_but_their_writes_still_count_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stored answers do not grow with every tap ever made: kept whole KEEP_WRITES for a replay, then emptied by
    one write in PRUNE_EVERY (a LAN runs no purge) and by ``manage.py purge``. The row stays, so a write sent again
    a week later (an outbox kept offline) is still applied at most once (issue 21)."""
    counter = iter(range(1, 100))
    runs: list[str] = []

    def write(thing: str = "osaka:1", ln: int | None = None) -> tuple[Answer, bool]:
        def applied() -> Answer:
            runs.append(thing)
            return Answer(200, "ok", 2)

        n = next(counter) if ln is None else ln
        return once(thing, mutation_id({"lc": "phone-one", "ln": str(n)}), applied)

    for _ in range(3):
        write()
    past = timezone.now() - engine.KEEP_WRITES - datetime.timedelta(minutes=1)
    Mutation.objects.filter(counter__lte=2).update(at=past)  # two answers older than kept, one fresh
    monkeypatch.setattr(engine, "PRUNE_EVERY", 10**9)
    write()
    assert list(Mutation.objects.order_by("counter").values_list("body", flat=True)) == ["ok"] * 4
    monkeypatch.setattr(engine, "PRUNE_EVERY", 1)
    write("sheet:9")  # any thing's write empties every thing's old answers
    assert list(Mutation.objects.order_by("counter").values_list("counter", "body")) == [
        (1, ""),
        (2, ""),
        (3, "ok"),
        (4, "ok"),
        (5, "ok"),
    ]
    assert len(runs) == 5
    # A fresh answer still answers its replay with its pieces; an old one is not applied again either.
    again, replayed = write(ln=3)
    assert (again.body, replayed) == ("ok", True)
    old, replayed = write(ln=1)
    assert (old.status, old.version, replayed) == (200, 2, True) and "<h1>Already sent</h1>" in old.body
    assert old.response(replay=True)["X-Live-Replay"] == "1"
    assert len(runs) == 5 and Mutation.objects.count() == 5
    # The purge empties the same answers (a dry run counts them) and deletes no row of a thing it keeps.
    Mutation.objects.filter(counter=3).update(at=past)
    assert purge(400, dry_run=True).answers == 1 and Mutation.objects.filter(body="ok").count() == 3
    done = purge(400)
    assert (done.answers, done.writes) == (1, 0) and "1 stored answers of writes" in str(done)
    assert list(Mutation.objects.order_by("counter").values_list("counter", "body")) == [
        (1, ""),
        (2, ""),
        (3, ""),
        (4, "ok"),
        (5, "ok"),
    ]


def test_a_redirect_keeps_its_address_when_its_answer_is_forgotten() -> None:
    """A plain form's write answers with a redirect: the address is all its replay needs, so it is kept."""
    mid = mutation_id({"lc": "phone-one", "ln": "1"})
    once("sheet:1", mid, lambda: Answer(303, "", 2, "/sheets/abc/step/3"))
    Mutation.objects.update(at=timezone.now() - engine.KEEP_WRITES - datetime.timedelta(days=1))
    assert engine.prune() == 0
    again, replay = once("sheet:1", mid, lambda: Answer(200, "applied again", 3))
    assert (again.status, again.location, replay) == (303, "/sheets/abc/step/3", True)
    assert again.response(replay=True)["Location"] == "/sheets/abc/step/3"


def test_the_purge_deletes_the_writes_of_what_it_deletes_only() -> None:
    """The record of a thing's writes goes with the thing (companion.services.retention), not before."""
    kept, gone = (create_game(players=[NewPlayer("Ann", "white"), NewPlayer("Ben", "pink")]) for _ in "ab")
    for game in (kept, gone):
        once(f"osaka:{game.pk}", mutation_id({"lc": "phone-one", "ln": "1"}), lambda: Answer(200, "ok", 2))
    long_ago = timezone.now() - datetime.timedelta(days=500)
    type(gone).objects.filter(pk=gone.pk).update(created=long_ago)
    gone.events.update(at=long_ago)
    done = purge(400)
    assert (done.osaka_games, done.writes) == (1, 1) and "1 writes recorded for them" in str(done)
    assert list(Mutation.objects.values_list("thing", flat=True)) == [f"osaka:{kept.pk}"]


def test_a_refused_write_is_kept_as_refused() -> None:
    mid = mutation_id({"lc": "phone-one", "ln": "7"})
    once("sheet:1", mid, lambda: Answer(400, "no", 1))
    answer, replay = once("sheet:1", mid, lambda: Answer(200, "yes", 2))
    assert (answer.status, answer.body, replay) == (400, "no", True)


PAGE = Template(
    '{% load live once %}{% piece %}<section id="outer"><h2>{{ title }}</h2>'
    '{% piece %}<p id="inner">{{ n }}</p>{% endpiece %}'
    '<input type="hidden" name="csrfmiddlewaretoken" value="{{ token }}">{% once %}</section>{% endpiece %}'
    '{% piece %}<p id="other">{{ other }}</p>{% endpiece %}'
)


def _render(**values: Any) -> Pieces:
    pieces = Pieces()
    PAGE.render(Context({**values, "live_pieces": pieces}))
    return pieces


def test_a_pull_gets_only_the_pieces_whose_data_changed() -> None:
    held = {p.h for p in _render(title="A", n=1, other="x", token="t1").found}
    # the CSRF token and a form's one-time code ({% once %}) differ on every render: a pull does not send them
    assert [p.id for p in _render(title="A", n=1, other="x", token="t2").missing(held)] == []
    assert [p.id for p in _render(title="A", n=2, other="x", token="t1").missing(held)] == ["inner"]
    assert [p.id for p in _render(title="B", n=2, other="y", token="t1").missing(held)] == ["outer", "other"]
    sent = _render(title="A", n=2, other="x").missing(held)[0]
    assert sent.html == f'<p data-h="{sent.h}" id="inner">2</p>'


WRAPPED = Template(
    '{% load live %}{% piece "wrap" %}<section id="wrap"><h2>{{ title }}</h2>{% for s in seats %}'
    '{% piece "form" s %}<p id="form-{{ s }}">{{ n }}</p>{% endpiece %}'
    '{% piece %}<p id="said-{{ s }}">{{ said }}</p>{% endpiece %}{% endfor %}</section>{% endpiece %}'
    '{% piece "row" %}<p id="row">{{ n }}</p>{% endpiece %}'
)


def _wrapped(only: set[str] | None, through: set[str], **values: Any) -> Pieces:
    pieces = Pieces(only=only, through=through)
    WRAPPED.render(Context({"seats": [1, 2, 3], "title": "T", **values, "live_pieces": pieces}))
    return pieces


@pytest.mark.parametrize(
    ("only", "through", "rendered"),
    [
        # passed through: the wrapper is not kept; its named pieces in only and its unnamed ones are, alone
        ({"form-2", "row"}, {"wrap"}, ["said-1", "form-2", "said-2", "said-3", "row"]),
        # not passed through: a wrapper not in only is not rendered at all
        ({"form-2", "row"}, set(), ["row"]),
        # a wrapper rendered renders every piece in it, named or not, so its digest is right
        ({"wrap"}, {"wrap"}, ["wrap", "form-1", "said-1", "form-2", "said-2", "form-3", "said-3"]),
    ],
)
def test_a_wrapper_passed_through_renders_the_pieces_named_in_it(
    only: set[str], through: set[str], rendered: list[str]
) -> None:
    pieces = _wrapped(only, through, n=1, said="")
    assert [p.id for p in pieces.found] == rendered
    if "wrap" not in rendered:  # each counts on its own, as at the top
        assert all(p.parent is None for p in pieces.found)


def test_a_piece_sent_from_a_wrapper_passed_through_is_the_whole_renders_piece() -> None:
    """The same change rendered whole and passed through sends the same pieces: the wrapper's digest holds its
    children by id only, so it is unchanged and not sent either way."""
    held = {p.h for p in _wrapped(None, set(), n=1, said="Saved.").found}
    whole = _wrapped(None, set(), n=2, said="").missing(held)
    passed = _wrapped({"form-2", "row"}, {"wrap"}, n=2, said="").missing(held)
    assert [(p.id, p.html) for p in whole if p.id in {"form-2", "row"} or p.id.startswith("said-")] == [
        (p.id, p.html) for p in passed
    ]
    assert "wrap" not in [p.id for p in whole]


def test_the_stream_of_a_thing() -> None:
    game = create_game(players=[NewPlayer("Ann", "white"), NewPlayer("Ben", "pink")])
    client = Client()
    assert client.get(f"/live/osaka/{game.view_token}").status_code == 204  # WSGI: the page polls instead
    assert client.get(f"/live/osaka/{'x' * 24}").status_code == 404
    assert client.get(f"/live/nothing/{game.edit_token}").status_code == 404


@pytest.mark.parametrize("kind", ["game", "sheet", "osaka", "setup"])
@pytest.mark.parametrize("token", ["A%00" * 8, "%E2%80%AE" * 6 + "x" * 10, "a.b" * 8, "x" * 65])
def test_a_stream_token_no_link_has_is_a_404_before_the_database(
    client: Client, django_assert_num_queries: Any, kind: str, token: str
) -> None:
    """A NUL in a token reached PostgreSQL, which answered with an error: a 500 (and an error logged) for any
    stranger's request. A token is refused by its shape, as the pages' tokens are."""
    with django_assert_num_queries(0):
        response = client.get(f"/live/{kind}/{token}")
    assert response.status_code == 404
    assert response.content == b"No such game or sheet."


def test_an_osaka_pull_answers_only_what_changed_and_the_writes_done() -> None:
    game = create_game(players=[NewPlayer("Ann", "white"), NewPlayer("Ben", "pink")])
    client = Client()
    url = f"/osaka/games/{game.edit_token}/state"
    assert client.get(f"{url}?v=1", **LIVE).status_code == 204
    whole = client.get(f"{url}?v=0", **LIVE).content.decode()
    held = ".".join(re.findall(r'data-h="([0-9a-f]+)"', whole))
    client.get(f"/osaka/games/{game.edit_token}/")
    r = client.post(
        f"/osaka/games/{game.edit_token}/change",
        {"op": "token", "seat": 1, "colour": "red", "delta": 1, "lc": "phone-one", "ln": "3", "h": held},
        **LIVE,
    )
    assert r.status_code == 200 and r["X-Live-Version"] == "2"
    assert 'id="seat-1"' in r.content.decode() and 'id="seat-2"' not in r.content.decode()
    assert len(gzip.compress(r.content)) < 2048  # pieces, not the page: under 2 kB on the wire (issue 21)
    pulled = client.get(f"{url}?v=1&h={held}&lc=phone-one", **LIVE)
    assert pulled["X-Live-Done"] == "phone-one:3"
    assert 'id="seat-1"' in pulled.content.decode() and 'id="start-first"' not in pulled.content.decode()


@pytest.mark.parametrize("live", [True, False], ids=["live", "plain form"])
def test_an_osaka_tap_sent_again_a_week_later_counts_once(live: bool) -> None:
    """An outbox kept offline for days (or a plain form sent again) after the answer's pieces were forgotten: the
    write is not applied a second time, and the phone gets a page it can read."""
    game = create_game(players=[NewPlayer("Ann", "white"), NewPlayer("Ben", "pink")])
    client = Client()
    client.get(f"/osaka/games/{game.edit_token}/")
    tap = {"op": "token", "seat": 1, "colour": "red", "delta": 1, "lc": "phone-one", "ln": "1"}
    url, headers = f"/osaka/games/{game.edit_token}/change", LIVE if live else {}
    first = client.post(url, tap, **headers)
    Mutation.objects.update(at=timezone.now() - datetime.timedelta(days=7))
    engine.prune()
    again = client.post(url, tap, **headers)
    assert (again.status_code, again["X-Live-Replay"]) == (first.status_code, "1")
    if live:
        assert "Already sent" in again.content.decode()
    else:
        assert again["Location"] == first["Location"]
    assert game.seats.get(seat=1).red == 1 and Mutation.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_processes_sqlite_writes_take_turns_on_a_lock() -> None:
    """On SQLite a write waits for the process's lock, not in SQLite's busy handler that sleeps between tries (an
    ASGI worker runs each request on a thread of its own); inside a transaction already open it takes no lock."""
    held: list[bool] = []

    def write() -> Answer:
        held.append(engine._ONE_WRITER.locked())
        return Answer(200, "", 1)

    once("osaka:1", None, write)
    assert held == [connection.vendor == "sqlite"]
    with transaction.atomic():
        once("osaka:1", None, write)
    assert held[1] is False and not engine._ONE_WRITER.locked()


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL's writers wait on its row locks")
@pytest.mark.django_db(transaction=True)
def test_sqlite_writes_of_two_processes_take_turns_on_a_file_lock() -> None:
    """Another process holding the writer's file lock (here: another open file, which flock treats as another
    holder) holds this process's write until it lets go; the write then runs at once, not after a busy sleep."""
    path = str(connection.settings_dict["NAME"]) + engine.WRITER_FILE_SUFFIX
    other = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(other, fcntl.LOCK_EX)
    started, done = threading.Event(), threading.Event()
    order: list[str] = []

    def write() -> Answer:
        order.append("write")
        return Answer(200, "", 1)

    def tap() -> None:
        started.set()
        try:
            once("osaka:1", None, write)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=tap)
    thread.start()
    started.wait()
    assert not done.wait(0.3)  # still waiting: the other process holds the lock
    order.append("let go")
    os.close(other)
    thread.join()
    assert order == ["let go", "write"]
