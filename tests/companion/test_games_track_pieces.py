"""A tap on a track (+N IKI, F+1, T+1) of a tracked game renders only the pieces of ``#state`` it can change
(issue 21: companion/views/tracker/writes.py ``_after_track``). Checked against the whole render: the same tap on
the same state, with the page holding what the earlier answers gave it, sends the same pieces; and the answer
renders none of the pieces the tap cannot change."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from companion.live.engine import Pieces
from companion.models.games import Game
from companion.presenters.tracker.pieces import changed_since
from companion.views.tracker import pages, writes
from scoring.calendar import FIRE_MONTHS
from tests.factories import make_game, play_to

pytestmark = pytest.mark.django_db
LIVE = {"HTTP_X_LIVE": "1"}
PIECE = re.compile(r'<\w+ data-h="([0-9a-f]+)"[^>]*? id="([^"]+)"')
#: A log line's time: the same tap made twice may fall in two seconds.
TIME = re.compile(r"\b\d\d:\d\d:\d\d\b")


def _pieces(markup: str) -> dict[str, str]:
    return {i: h for h, i in PIECE.findall(markup)}


#: What differs between two renders of the same state (the digests leave them out, companion.live.engine).
VOLATILE = re.compile(r' data-h="[0-9a-f]+"|name="(?:csrfmiddlewaretoken|v)" value="[^"]*"')


def _comparable(markup: str) -> str:
    return TIME.sub("T", VOLATILE.sub("", markup))


LOG = re.compile(r'<div data-h="[0-9a-f]+" id="part-log".*?</ol>.*?</div>', re.S)
LINE = re.compile(r'<li data-h="([0-9a-f]+)" id="change-\d+".*?</li>', re.S)


def _as_sent(markup: str, held: set[str]) -> str:
    """The whole render as a track tap sends it: of the log, only the lines the page lacks (the new one, which
    live.js puts first in the list, dropping the one no longer among the last versions)."""
    return LOG.sub(
        lambda log: "".join(
            line.group(0) for line in LINE.finditer(log.group(0)) if line.group(1) not in held
        ),
        markup,
    )


class Page:
    """A phone's page of ``game``: the digests it holds (updated by each answer) and its open records."""

    def __init__(self, client: Client, game: Game) -> None:
        self.client, self.game = client, game
        self.held = _pieces(client.get(f"/games/{game.edit_token}/").content.decode())
        self.opened = ""

    def post(self, **form: Any) -> Any:
        data = {**form, "h": ".".join(self.held.values()), "open": self.opened}
        return self.client.post(f"/games/{self.game.edit_token}/change", data, **LIVE)

    def tap(self, **form: Any) -> Any:
        """A tap whose answer is put in place."""
        self.game.refresh_from_db()
        answer = self.post(v=self.game.version, **form)
        assert answer.status_code == 200, answer.content.decode()[:300]
        self.held |= _pieces(answer.content.decode())
        return answer

    def track(self, monkeypatch: pytest.MonkeyPatch, **form: Any) -> list[str]:
        """A track tap, first made (and rolled back) with the whole state rendered; its answer must be the same.
        Returns the ids of the pieces rendered."""
        with transaction.atomic(), monkeypatch.context() as patch:
            patch.setattr(writes, "_after_track", lambda *args: None)
            whole = self.post(**form)
            transaction.set_rollback(True)
        rendered: list[list[str]] = []
        missing = Pieces.missing

        def spy(pieces: Pieces, held: Any) -> list[Any]:
            rendered.append([p.id for p in pieces.found])
            return missing(pieces, held)

        with monkeypatch.context() as patch:
            patch.setattr(Pieces, "missing", spy)
            answer = self.post(**form)
        assert answer.status_code == whole.status_code == 200
        sent = _as_sent(whole.content.decode(), set(self.held.values()))
        assert _comparable(answer.content.decode()) == _comparable(sent)
        self.held |= _pieces(answer.content.decode())
        return rendered[0]


#: The named pieces of #state (games.html): a render may skip them.
NAMED = {
    *(
        f"part-{name}"
        for name in (
            "end",
            "head",
            "controls",
            "month",
            "plan",
            "order",
            "exact",
            "records",
            "steps",
            "resources",
        )
    ),
    *(f"part-row-{seat}" for seat in range(1, 5)),
    "part-log",
}
PLUS3, MINUS1 = {"op": "score-add", "value": 3}, {"op": "score-add", "value": -1}
FIRE, TRADE = {"op": "fire-add"}, {"op": "trade-add"}


@pytest.mark.parametrize("akebono", [False, True])
def test_a_track_tap_on_a_fresh_game_renders_its_row_the_controls_the_exact_values_and_the_log(
    client: Client, monkeypatch: pytest.MonkeyPatch, akebono: bool
) -> None:
    page = Page(client, make_game(akebono=akebono))
    rendered = set(page.track(monkeypatch, seat=1, **PLUS3))
    # The log is passed through: of it, only the new line (the change of the game's version) is rendered.
    assert rendered & NAMED == {"part-row-1", "part-controls"}
    page.game.refresh_from_db()
    assert {r for r in rendered if r.startswith("change-")} == {f"change-{page.game.version}"}
    # Of the exact values (passed through, not rendered as a whole), only the tapped player's score form.
    assert {r for r in rendered if r.startswith(("part-set-", "part-top-"))} == {"part-set-score-1"}
    fire = set(page.track(monkeypatch, seat=2, **FIRE))
    assert "part-order" in fire  # the order follows firefighting
    # Their firefighting form, and every player's "On top" (the stacks moved).
    assert {r for r in fire if r.startswith(("part-set-", "part-top-"))} == {
        "part-set-fire-2",
        *(f"part-top-{s}" for s in range(1, page.game.players + 1)),
    }
    page.track(monkeypatch, seat=1, **MINUS1)
    if akebono:
        trade = set(page.track(monkeypatch, seat=3, **TRADE))
        assert "part-month" not in trade
        assert {r for r in trade if r.startswith(("part-set-", "part-top-"))} == {"part-set-trade-3"}


def test_a_track_tap_clears_an_answer_left_beside_another_players_exact_values(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer slots of the exact values are pieces of their own inside the wrapper passed through: rendered
    on every track tap, so an answer an earlier Set left there goes as it does with the whole state rendered."""
    page = Page(client, make_game())
    page.tap(op="score-set", seat=2, value=4, was=0)
    assert "answer-exact-2" in page.track(monkeypatch, seat=1, **PLUS3)
    answer = page.post(v=page.game.version, seat=1, **PLUS3).content.decode()
    assert 'id="answer-exact-2"' not in answer  # already empty on the page: not sent again


def test_firefighting_onto_a_taken_space_moves_the_on_top_buttons(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F+1 onto a space another player stands on makes a stack ("On top of space 1" appears for both), and
    leaving it takes the button away again: the same pieces as the whole render, each time."""
    page = Page(client, make_game())
    first = page.track(monkeypatch, seat=1, **FIRE)
    assert "part-top-1" in first and "part-set-fire-1" in first
    page.track(monkeypatch, seat=2, **FIRE)
    assert "On top of space 1" in client.get(f"/games/{page.game.edit_token}/").content.decode()
    page.track(monkeypatch, seat=2, **FIRE)
    assert "On top of space" not in client.get(f"/games/{page.game.edit_token}/").content.decode()


def test_trade_while_the_month_lists_its_income_renders_the_month(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(akebono=True)
    Game.objects.filter(pk=game.pk).update(month=min(FIRE_MONTHS), phase="C")
    page = Page(client, game)
    assert "part-month" in page.track(monkeypatch, seat=2, **TRADE)


def test_a_track_tap_on_new_years_day_keeps_the_resource_rows_as_they_stand(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The resources' rows (New Year's Day) read the record, which a track tap does not change: not rendered."""
    page = Page(client, play_to(make_game(akebono=True), 13))
    assert 'id="part-resources"' in client.get(f"/games/{page.game.edit_token}/").content.decode()
    assert "part-resources" not in page.track(monkeypatch, seat=1, **PLUS3)


def test_an_answer_or_question_left_in_the_record_or_checklist_is_cleared_as_before(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = Page(client, make_game(akebono=True))
    page.tap(op="record-add", seat=1, field="characters", key="firefighter")  # "Saved: ..." and its Undo
    assert "part-records" in page.track(monkeypatch, seat=2, **PLUS3)
    assert "part-records" not in page.track(monkeypatch, seat=2, **PLUS3)  # nothing left there now
    page.tap(op="record-remove", ask=1, seat=1, field="characters", key="firefighter")  # "Remove ...?"
    page.opened = "record-seat-1"
    assert "part-records" in page.track(monkeypatch, seat=3, **PLUS3)
    page.opened = ""
    page.tap(op="record-add", seat=2, field="tokens", key="fish-spring")
    page.track(monkeypatch, seat=2, **MINUS1)
    steps = re.findall(r'id="tick-([^"]+)"', client.get(f"/games/{page.game.edit_token}/").content.decode())
    page.tap(op="tick", key=steps[0])
    assert "part-steps" in page.track(monkeypatch, seat=1, **PLUS3)
    assert "part-steps" not in page.track(monkeypatch, seat=1, **PLUS3)


def test_a_track_tap_that_changes_the_records_flags_renders_the_record(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULINGS R13: the firefighting marker stands at least at the hires' gains; F+1 lifts it back there."""
    page = Page(client, make_game())
    page.tap(op="record-add", seat=1, field="characters", key="firefighter")
    page.tap(op="fire-set", seat=1, value=0)
    page.track(monkeypatch, seat=2, **PLUS3)  # the record's answer is gone
    held = None
    while "firefighting-below-gains" in client.get(f"/games/{page.game.edit_token}/").content.decode():
        held = "part-records" in page.track(monkeypatch, seat=1, **FIRE)
    assert held  # the tap that lifted the flag sent the record
    assert "part-records" not in page.track(monkeypatch, seat=1, **FIRE)


def _pull(client: Client, game: Game, seen: int, held: dict[str, str]) -> Any:
    query = {"v": seen, "h": ".".join(held.values())}
    return client.get(f"/games/{game.edit_token}/state", query, **LIVE)


@pytest.mark.parametrize("akebono", [False, True])
def test_a_pull_after_track_taps_gets_what_a_pull_rendering_everything_sends(
    client: Client, monkeypatch: pytest.MonkeyPatch, akebono: bool
) -> None:
    """Another phone, behind by track taps only, pulls: the render names what those taps can alter
    (companion.presenters.tracker.pieces ``changed_since``) and sends what the whole render sends (of the log, the
    new lines), whatever mix of +N, F+1 (stacks, the order) and T+1 came since, however far behind."""
    game = make_game(akebono=akebono)
    if akebono:
        Game.objects.filter(pk=game.pk).update(month=min(FIRE_MONTHS), phase="C")  # T+1 shows in the month
    tapper, other = Page(client, game), Client()
    tapper.tap(op="record-add", seat=1, field="characters", key="firefighter")  # flags that read the tracks
    tapper.tap(op="fire-set", seat=1, value=0)
    watcher = Page(other, game)
    taps = [(1, PLUS3), (2, FIRE), (1, FIRE), (3, TRADE), (1, MINUS1), (2, FIRE), (3, PLUS3)]
    behind = [1, 3, 2, 1]
    for count in behind:
        seen = Game.objects.get(pk=game.pk).version
        for seat, tap in taps[:count]:
            tapper.tap(seat=seat, **tap)
        taps = taps[count:] + taps[:count]
        with monkeypatch.context() as patch:
            patch.setattr(pages, "changed_since", lambda *args: None)
            whole = _pull(other, game, seen, watcher.held)
        pulled = _pull(other, game, seen, watcher.held)
        assert pulled.status_code == whole.status_code == 200
        sent = _as_sent(whole.content.decode(), set(watcher.held.values()))
        assert _comparable(pulled.content.decode()) == _comparable(sent)
        assert 'id="part-exact"' not in pulled.content.decode()
        watcher.held |= _pieces(pulled.content.decode())


@pytest.mark.parametrize(
    "other",
    [
        {"op": "next"},
        {"op": "record-add", "seat": 1, "field": "characters", "key": "firefighter"},
        {"op": "score-set", "seat": 2, "value": 4, "was": 0},
    ],
    ids=["next phase", "record", "set"],
)
def test_a_pull_behind_by_any_other_change_renders_everything(
    client: Client, monkeypatch: pytest.MonkeyPatch, other: dict[str, Any]
) -> None:
    game = make_game()
    tapper = Page(client, game)
    seen = Game.objects.get(pk=game.pk).version
    tapper.tap(seat=1, **PLUS3)
    tapper.tap(**other)
    game.refresh_from_db()
    assert changed_since(game, seen) is None
    assert changed_since(game, game.version - 1) is None
    assert changed_since(game, seen) is None and changed_since(game, None) is None
    assert changed_since(game, game.version) is None  # not behind: a pull at its version is answered 204
    rendered: list[Pieces] = []
    render = pages.state_pieces

    def spy(*args: Any) -> Pieces:
        rendered.append(render(*args))
        return rendered[-1]

    monkeypatch.setattr(pages, "state_pieces", spy)
    assert _pull(client, game, seen, tapper.held).status_code == 200
    assert rendered[0].only is None


def test_a_pull_after_one_track_tap_is_narrowed(client: Client) -> None:
    """The record section is left out while its flags stand as the page shows them (nothing recorded here)."""
    game = make_game()
    tapper = Page(client, game)
    seen = Game.objects.get(pk=game.pk).version
    tapper.tap(seat=2, **PLUS3)
    game.refresh_from_db()
    expected = {"part-row-2", "part-controls", "part-set-score-2", f"change-{game.version}"}
    assert changed_since(game, seen) == expected


def test_a_pull_after_track_taps_that_lift_a_records_flag_sends_the_record(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULINGS R13: the firefighting marker stands at least at the hires' gains; another phone's F+1 lifting it
    back there takes the flag off this phone's record section too."""
    game = make_game()
    tapper = Page(client, game)
    tapper.tap(op="record-add", seat=1, field="characters", key="firefighter")
    tapper.tap(op="fire-set", seat=1, value=0)
    other = Client()
    watcher = Page(other, game)
    assert "firefighting-below-gains" in other.get(f"/games/{game.edit_token}/").content.decode()
    seen = Game.objects.get(pk=game.pk).version
    while "firefighting-below-gains" in client.get(f"/games/{game.edit_token}/").content.decode():
        tapper.tap(seat=1, **FIRE)
    with monkeypatch.context() as patch:
        patch.setattr(pages, "changed_since", lambda *args: None)
        whole = _pull(other, game, seen, watcher.held).content.decode()
    game.refresh_from_db()
    assert "part-records" in (changed_since(game, seen) or ())
    pulled = _pull(other, game, seen, watcher.held).content.decode()
    assert _comparable(pulled) == _comparable(_as_sent(whole, set(watcher.held.values())))
    record = re.search(r'<div data-h="[0-9a-f]+" id="part-record-1".*?</div>', pulled, re.S)
    assert record is not None and "firefighting-below-gains" not in record.group(0)
