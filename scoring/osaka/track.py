"""A tracked game as the fold of its entries (issue 15): the start player, token changes and paydays, in order.

The tracker stores what the table entered, never the running totals alone: the state is :func:`replay` of the
entries not undone. Undoing any entry (a payday in the middle of the game) is replaying without it: the later
paydays are played again with the tokens the players then held, the end comes where the rules put it, and an entry
the rules no longer allow (a payday after the end) is kept in the log with no effect and a reason. Pure: the
randomness of the start player comes from ``seed`` (RULINGS R19's habit: one seeded generator per decision).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from scoring.osaka.components import END_TOKENS, ByColour, Colour, no_cards, no_tokens
from scoring.osaka.rules import (
    Draw,
    Holding,
    Moment,
    PaydayResult,
    StartPlayer,
    payday,
    possible_draws,
    start_player,
    total,
)
from scoring.osaka.validate import check_payday
from scoring.problems import join

#: Tokens a player may hold after a change entered by hand: 8 is reached only in a payday's step 2, which ends the
#: game there (rulebook "the game ends immediately"); a hand-made 8th token would skip that end check.
HAND_TOKENS_MAX: Final = END_TOKENS - 1
#: Why a payday entered before the game's start has no effect (rulebook "PREPARATION": the start player is
#: chosen, then "each player takes one Achievement token of their choice"; RULINGS O7: each player starts with 1).
NOT_STARTED: Final = (
    "not played: the game has not started yet (choose the start player, then each player takes a first "
    "achievement token)"
)

#: Why an entry after the payday that ended the game has no effect.
ENDED: Final = "no effect: the game had already ended"
#: The note of an entry undone: replayed as if it were not there.
UNDONE: Final = "undone"


@dataclass(frozen=True, slots=True)
class TokenChange:
    """One achievement token taken (+1, e.g. each player's first token at the start) or given back (-1, a fix)."""

    seat: int
    colour: Colour
    delta: int


@dataclass(frozen=True, slots=True)
class StartDraws:
    """Each player's initial hand as drawn ("PREPARATION"), seat by seat."""

    draws: tuple[Draw, ...]


@dataclass(frozen=True, slots=True)
class Cards:
    """One player's cards entered for a payday: goods, goods already insured, insurance cards now (by colour)."""

    goods: ByColour[tuple[int, ...]]
    insured: ByColour[tuple[int, ...]]
    insurance: ByColour[tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class PaydayEntry:
    """A moment's paydays as entered: the ships and each seat's cards; the tokens come from the game's state."""

    arrived: tuple[Colour, ...]
    sunk: tuple[Colour, ...]
    cards: tuple[Cards, ...]


Entry = TokenChange | StartDraws | PaydayEntry


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one entry did when replayed: ``applied``, or why not (``note``); a payday's result; a start choice."""

    applied: bool
    note: str = ""
    payday: PaydayResult | None = None
    start: StartPlayer | None = None


@dataclass(frozen=True, slots=True)
class TableState:
    """The game after its entries: tokens and VP cards by seat, the start player, and the end (the index of the
    payday entry that ended the game, and the words)."""

    tokens: tuple[ByColour[int], ...]
    vp: tuple[int, ...]
    start: StartPlayer | None
    draws: tuple[Draw, ...]
    ended_by: int | None
    end: str | None

    @property
    def finished(self) -> bool:
        return self.ended_by is not None


def no_cards_entry() -> Cards:
    return Cards(no_cards(), no_cards(), no_cards())


def draw_problem(draw: Draw) -> str | None:
    """Why a drawn hand cannot be ("PREPARATION": draw until the sum is 8 or more), or None."""
    if draw in possible_draws():
        return None
    return (
        f"{draw.cards} cards making {draw.total} is not a hand drawn until the sum reaches 8: two cards make 8 or "
        "10, three or four cards make 8 to 12"
    )


def replay(
    names: Sequence[str], entries: Sequence[Entry | None], seed: str
) -> tuple[TableState, tuple[Outcome, ...]]:
    """Fold the entries (None: undone, skipped) over a new game of ``names``; every entry gets an outcome."""
    n = len(names)
    tokens = [no_tokens() for _ in range(n)]
    vp = [0] * n
    start: StartPlayer | None = None
    draws: tuple[Draw, ...] = ()
    ended_by: int | None = None
    end: str | None = None
    outcomes: list[Outcome] = []
    for i, entry in enumerate(entries):
        if entry is None:
            outcomes.append(Outcome(False, UNDONE))
            continue
        if ended_by is not None:
            outcomes.append(Outcome(False, ENDED))
            continue
        if isinstance(entry, TokenChange):
            outcome = _token(entry, names, tokens)
        elif isinstance(entry, StartDraws):
            outcome = _start(entry, names, random.Random(f"{seed}:{i}"))
            if outcome.start is not None:
                start, draws = outcome.start, entry.draws
        elif start is None or min(total(t) for t in tokens) < 1:
            outcome = Outcome(False, NOT_STARTED)
        else:
            outcome = _payday(entry, names, tokens)
            if outcome.payday is not None:
                for s, out in enumerate(outcome.payday.players):
                    tokens[s] = out.tokens
                    vp[s] += out.vp
                if outcome.payday.game_over:
                    ended_by, end = i, outcome.payday.end_sentence
        outcomes.append(outcome)
    return TableState(tuple(tokens), tuple(vp), start, draws, ended_by, end), tuple(outcomes)


def take_token(
    entry: TokenChange, names: Sequence[str], tokens: list[ByColour[int]], *, ended: bool
) -> Outcome:
    """A token change entered after every other entry, applied to the tokens those entries left (``tokens``,
    changed in place when it applies; ``ended``: whether they ended the game): what :func:`replay` of the whole
    log with it at the end does, without replaying the log."""
    return Outcome(False, ENDED) if ended else _token(entry, names, tokens)


def _token(entry: TokenChange, names: Sequence[str], tokens: list[ByColour[int]]) -> Outcome:
    if not 0 <= entry.seat < len(names) or entry.delta not in (1, -1):
        return Outcome(False, "no such player or change")
    held = tokens[entry.seat]
    now = held[entry.colour] + entry.delta
    name = names[entry.seat]
    if now < 0:
        return Outcome(False, f"{name} has no {entry.colour.value} token to give back")
    if entry.delta > 0 and total(held) + 1 > HAND_TOKENS_MAX:
        return Outcome(
            False,
            f"{name} would hold {total(held) + 1} tokens: the {END_TOKENS}th comes only from a payday, which ends "
            "the game; enter the payday instead",
        )
    tokens[entry.seat] = held.set(entry.colour, now)
    return Outcome(True)


def _start(entry: StartDraws, names: Sequence[str], rng: random.Random) -> Outcome:
    if len(entry.draws) != len(names):
        return Outcome(False, "every player's draw is needed")
    for name, draw in zip(names, entry.draws, strict=True):
        problem = draw_problem(draw)
        if problem:
            return Outcome(False, f"{name}: {problem}")
    return Outcome(True, start=start_player(entry.draws, rng))


def moment_of(entry: PaydayEntry, names: Sequence[str], tokens: Sequence[ByColour[int]]) -> Moment:
    """The payday's moment with each seat's name and tokens as the game holds them now."""
    return Moment(
        entry.arrived,
        entry.sunk,
        tuple(
            Holding(name, c.goods, t, insured=c.insured, insurance=c.insurance)
            for name, c, t in zip(names, entry.cards, tokens, strict=True)
        ),
    )


def _payday(entry: PaydayEntry, names: Sequence[str], tokens: list[ByColour[int]]) -> Outcome:
    if len(entry.cards) != len(names):
        return Outcome(False, "every player's cards are needed")
    moment = moment_of(entry, names, tokens)
    report = check_payday(moment)
    if not report.valid:
        return Outcome(False, "no effect: " + join([p.message.rstrip(".") for p in report.errors]))
    return Outcome(True, payday=payday(moment))
