"""When a kept result's game was played (issue 25, "Play length"): a selector, read-only.

A tracked game's log (:class:`companion.models.games.Change`) holds its start and its end: the first entry
("Game created") and the end entry (the "next" change that closed New Year's Day and finished the game; an undone
one does not count, the one made again after it does). A result scored from a tracked game ("Score the game")
therefore knows when the game started, when it ended and how long it took.

A result with no tracked game behind it knows only about when it ended: a walk-through sheet was started when the
game had ended (its ``created``), and a checked paper pad was typed in after the game (the result's ``updated``,
written when it was kept; filing and removing do not move it). Neither knows a start, so neither has a length.

A tracked Traders of Osaka game (issue 23) started when it was created and ended with the payday that ended it (the
last applied payday of an ended game: the rules refuse a payday after the end); its first player is the start
player its log chose.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from companion.models.games import Change, Game
from companion.models.osaka import OsakaEvent
from companion.models.results import Result


@dataclass(frozen=True)
class PlayTime:
    """``ended``: when the game ended (or the best the companion knows of it); ``started`` only for a tracked game
    that ended, with ``first_player`` its first player's seat (1 = the first seat)."""

    ended: datetime
    started: datetime | None = None
    first_player: int | None = None

    @property
    def minutes(self) -> int | None:
        """The game's length in whole minutes (rounded), or None when its start is not known."""
        if self.started is None:
            return None
        return max(0, round((self.ended - self.started).total_seconds() / 60))


def play_times(results: Iterable[Result]) -> dict[int, PlayTime]:
    """Each result's :class:`PlayTime`, by the result's pk, in three queries whatever the number of results."""
    results = list(results)
    sheet_ids = [r.sheet_id for r in results if r.sheet_id is not None]
    games = (
        {g.scoresheet_id: g for g in Game.objects.filter(scoresheet_id__in=sheet_ids)} if sheet_ids else {}
    )
    started: dict[int, datetime] = {}
    ended: dict[int, datetime] = {}
    finished = [g.pk for g in games.values() if g.finished]
    if finished:
        log = Change.objects.filter(game_id__in=finished).filter(op__in=("create", "next"), undone=False)
        for game_id, op, at in log.order_by("version").values_list("game_id", "op", "at"):
            if op == "create":
                started.setdefault(game_id, at)
            else:  # the last "next" of a finished game is the one that ended it: "next" is refused after it
                ended[game_id] = at
    osaka = {r.osaka_game_id: r.osaka_game for r in results if r.osaka_game is not None}
    osaka_ended: dict[int, datetime] = {}
    if osaka:
        paydays = OsakaEvent.objects.filter(game_id__in=list(osaka), kind="payday", undone=False)
        for game_id, at, outcome in paydays.order_by("version").values_list("game_id", "at", "result"):
            if isinstance(outcome, dict) and outcome.get("applied"):
                osaka_ended[game_id] = at
    times: dict[int, PlayTime] = {}
    for r in results:
        if r.osaka_game is not None:
            ended_at = osaka_ended.get(r.osaka_game.pk)
            started_at = r.osaka_game.created if ended_at is not None else None
            times[r.pk] = PlayTime(ended_at or r.updated, started_at, r.osaka_game.start_seat)
            continue
        game = games.get(r.sheet_id) if r.sheet_id is not None else None
        if game is not None and game.pk in started and game.pk in ended:
            times[r.pk] = PlayTime(ended[game.pk], started[game.pk], game.first_player)
        elif r.ended is not None:
            times[r.pk] = PlayTime(r.ended, r.started)
        elif r.sheet is not None:
            times[r.pk] = PlayTime(r.sheet.created)
        else:
            times[r.pk] = PlayTime(r.updated)
    return times


def play_time(result: Result) -> PlayTime:
    """One result's :class:`PlayTime` (:func:`play_times`)."""
    return play_times([result])[result.pk]


def duration_words(minutes: int | None) -> str:
    """A length as a player reads it: "1 h 25 min", "40 min"; "" when unknown."""
    if minutes is None:
        return ""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h {rest} min" if rest else f"{hours} h"


__all__ = ["PlayTime", "duration_words", "play_time", "play_times"]
