"""A tracked game's creation and reads (issue 5): the token's game, its seats and last changes, what its setup
says (the scoring JSON's setup, the checklist's steps) and the order of play."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction

from companion.models.games import Change, Game, Seat
from companion.models.setup_progress import locked_progress
from scoring.calendar import (
    NEW_YEAR,
    CalendarOptions,
    Phase,
    firefighting_seats,
    initial_markers,
    phase_a_order,
)


@dataclass(frozen=True)
class NewPlayer:
    name: str
    colour: str


def create_game(
    *,
    players: Sequence[NewPlayer],
    akebono: bool,
    grand_master: bool,
    setup: Mapping[str, Any],
    who: str,
    ticks: Sequence[str] = (),
    setup_key: str = "",
) -> Game:
    """A new game at month 1, phase A: markers stacked as the base "PLAYER SETUP" says (first player on top).
    ``ticks``: the setup checklist's steps already ticked; ``setup_key``: the setup page's ticks
    (companion.setup_query.ticks_key) whose game this is, its ticks taken with it. One game a setup page: when
    "Track this game" already made one of ``setup_key`` (another phone of the table), that game is returned and
    none is made, so the table is never split in two games."""
    n = len(players)
    options = CalendarOptions(players=n, akebono=akebono, grand_master=grand_master)
    with transaction.atomic():
        progress = locked_progress(setup_key) if setup_key else None
        if progress is not None and progress.game is not None:
            return progress.game
        if progress is not None:
            ticks = [*ticks, *progress.done]
        game = Game.objects.create(
            players=options.players,
            akebono=akebono,
            grand_master=grand_master,
            setup=dict(setup),
            generator_version=str(setup.get("generator_version", "")),
            ticks=sorted(set(ticks)),
        )
        stacks = {m.seat: m.stack for m in initial_markers(n, game.first_player)}
        Seat.objects.bulk_create(
            Seat(game=game, seat=i + 1, name=p.name, colour=p.colour, stack=stacks[i + 1])
            for i, p in enumerate(players)
        )
        Change.objects.create(game=game, version=game.version, who=who, op="create", summary="Game created")
        if progress is not None:
            progress.game = game
            progress.save(update_fields=["game"])
    return game


def recent_changes(game: Game, count: int) -> list[Change]:
    """The game's ``count`` newest changes, newest first: those a write read and made, else one query."""
    if game.recent and (len(game.recent) >= count or game.recent[-1].op == "create"):
        return game.recent[:count]
    return list(game.changes.all()[:count])


def removals_before(game: Game, version: int) -> list[Change]:
    """The game's record removals standing (not undone) older than ``version``, newest first: each can still be
    undone (companion.services.tracker.undo), so its "Removed" line stays in the record past the page's last
    changes (issue 23)."""
    return list(game.changes.filter(op="record-remove", undone=False, version__lt=version))


def seats_of(game: Game) -> list[Seat]:
    """The game's seats, in seat order: those a change just stored, else one query."""
    if game.seat_list is None:
        game.seat_list = list(game.seats.all())
    return game.seat_list


def setup_steps(game: Game) -> dict[str, str]:
    """The setup checklist's step ids and titles (setupgen.checklist), regenerated from the game's seed and
    options (RULINGS R19); none when the stored setup was made by another generator version."""
    from setupgen import Options, OptionsError, SeedError, checklist, generate

    try:
        setup = generate(
            Options(players=game.players, akebono=game.akebono, grand_master=game.grand_master),
            seed=game.seed or None,
        )
    except (OptionsError, SeedError):
        return {}
    if not game.seed or str(setup.generator_version) != game.generator_version:
        return {}
    return {step.id: step.title for step in checklist(setup)}


def game_by_token(token: str) -> tuple[Game, bool] | None:
    """The game of an edit or view token and whether the token may edit; None when there is no such game."""
    game = Game.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token)).first()
    if game is None:
        return None
    return game, secrets.compare_digest(game.edit_token, token)


def scoring_setup(game: Game) -> dict[str, Any]:
    """What the scoring JSON's ``setup`` holds of a tracked game's setup: its buildings, and with Akebono its
    personalities and boat sides (docs/api.md)."""
    setup = game.setup if isinstance(game.setup, dict) else {}
    ake = setup.get("akebono") or {}
    personalities = [p for pair in (ake.get("personalities") or {}).values() for p in pair]
    data: dict[str, Any] = {"buildings": list(setup.get("buildings") or [])}
    if game.akebono:
        data["personalities"] = personalities
        data["boat_sides"] = dict(ake.get("boat_sides") or {})
    return data


def version_of(token: str) -> int | None:
    """The current version of a token's game: the polling endpoint's fast path (docs/sync.md), one indexed query
    on the thread's persistent connection (CONN_MAX_AGE, companion/settings.py)."""
    return (
        Game.objects.filter(models.Q(edit_token=token) | models.Q(view_token=token))
        .values_list("version", flat=True)
        .first()
    )


def turn_order(game: Game, seats: Sequence[Seat]) -> tuple[int, ...] | None:
    """Seats in the order the phase on is played (issue 19): phase A of month 1 clockwise from the first player;
    phase B in the order of the Ikizama spaces (RULINGS R26), which the tracker does not know: None; else (phase C,
    the next phase A, New Year's Day) the firefighting order ("From month 2 on, players take turns in descending
    order of firefighting power")."""
    markers = [s.marker for s in seats]
    if game.month < NEW_YEAR and game.phase_enum is Phase.B:
        return None
    if game.phase_enum is Phase.A:
        return phase_a_order(game.month, markers, game.first_player)
    return firefighting_seats(markers)
