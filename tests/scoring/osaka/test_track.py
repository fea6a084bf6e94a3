"""A tracked game as the replay of its entries (scoring/osaka/track.py): tokens, the start, paydays with the tokens
then held, the end, and undo of any entry as a replay without it (hypothesis: undoing equals never entering)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.osaka.components import COLOURS, ByColour, Colour
from scoring.osaka.read import read_moment
from scoring.osaka.rules import Draw, StartRule
from scoring.osaka.track import (
    NOT_STARTED,
    Cards,
    Entry,
    PaydayEntry,
    StartDraws,
    TokenChange,
    draw_problem,
    replay,
    take_token,
)

R, B, Y, G = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
NAMES = ("Ann", "Bo", "Cy")


def day(arrived: list[str], sunk: list[str], *players: dict[str, Any]) -> PaydayEntry:
    moment = read_moment({"arrived": arrived, "sunk": sunk, "players": [{"name": f"p{i}", **p} for i, p in
                                                                       enumerate(players)]})  # fmt: skip
    return PaydayEntry(
        moment.arrived, moment.sunk, tuple(Cards(h.goods, h.insured, h.insurance) for h in moment.players)
    )


#: The game's start ("PREPARATION"): the start player chosen, then each player's first token (green here).
BEGIN: list[Entry | None] = [
    StartDraws((Draw(9, 3), Draw(8, 3), Draw(10, 2))),
    *(TokenChange(i, G, 1) for i in range(3)),
]


def test_tokens_start_and_a_payday() -> None:
    entries: list[Entry | None] = [
        StartDraws((Draw(9, 3), Draw(8, 3), Draw(10, 2))),
        TokenChange(1, R, 1),
        TokenChange(2, G, 1),
        TokenChange(0, R, 1),
        day(["red"], [], {"goods": {"red": [5, 2]}}, {"goods": {"red": [3]}}, {}),
    ]
    state, outcomes = replay(NAMES, entries, "seed")
    assert all(o.applied for o in outcomes)
    assert state.start is not None and state.start.index == 1 and state.start.rule is StartRule.TOTAL
    # Ann: (5 + 1 token) x 2 = 12 -> 15: 3 VP; Bo: (3 + 1) x 1 = 4 -> 5: 1 VP
    assert state.vp == (3, 1, 0)
    assert [t[R] for t in state.tokens] == [2, 2, 0] and state.tokens[2][G] == 1
    assert not state.finished


def test_undoing_an_early_token_replays_the_later_payday_without_its_bonus() -> None:
    token = TokenChange(0, R, 1)
    later = day(["red"], [], {"goods": {"red": [5, 2]}}, {}, {})
    with_token, _ = replay(NAMES, [*BEGIN, token, later], "s")
    without, outcomes = replay(NAMES, [*BEGIN, None, later], "s")
    assert (with_token.vp[0], without.vp[0]) == (3, 2)  # 12 -> 15 with the token; 10 without
    assert outcomes[4].note == "undone"


def test_the_end_and_what_comes_after_it() -> None:
    to_seven = [*BEGIN, *(TokenChange(0, c, 1) for c in (R, R, B, B, Y, Y))]  # Ann: a green first, then 6
    ending = day(["green"], ["blue"], {"goods": {"green": [2], "blue": [5]}}, {}, {})
    after = day(["red"], [], {}, {"goods": {"red": [5]}}, {})
    state, outcomes = replay(NAMES, [*to_seven, ending, after], "s")
    assert state.finished and state.ended_by == 10
    assert state.end == (
        "The game ends after the green payday: Ann has 8 or more achievement tokens. Nothing after it happens: "
        "the blue ship on the waves does not sink."
    )
    assert outcomes[11].applied is False and outcomes[11].note == "no effect: the game had already ended"
    assert state.vp == (1, 0, 0)  # (2 + her green token) x 1 = 3 -> 5
    # Undo the ending payday: the game goes on and the later payday counts.
    state, outcomes = replay(NAMES, [*to_seven, None, after], "s")
    assert not state.finished and outcomes[11].applied and state.vp == (0, 1, 0)


@pytest.mark.parametrize(
    ("entry", "note"),
    [
        (TokenChange(0, R, -1), "Ann has no red token to give back"),
        (TokenChange(5, R, 1), "no such player or change"),
        (StartDraws((Draw(8, 3), Draw(7, 2), Draw(9, 3))), "Bo: 2 cards making 7 is not a hand drawn"),
        (StartDraws((Draw(8, 3),)), "every player's draw is needed"),
        (day(["red"], ["red"], {}, {}, {}), "no effect: The red ship cannot reach Edo and sink at once"),
    ],
)
def test_entries_the_rules_refuse(entry: Entry, note: str) -> None:
    _, outcomes = replay(NAMES, [*BEGIN, entry], "s")
    assert not outcomes[-1].applied and outcomes[-1].note.startswith(note)


#: RULINGS O7 (each player starts with 1 token): a payday before the start player is chosen, or before every
#: player took a first token, is not played (it was before).
BEFORE_THE_START = [
    ("no start player", BEGIN[1:]),
    ("a player without a first token", BEGIN[:3]),
    ("nothing entered", []),
]


@pytest.mark.parametrize(("case", "before"), BEFORE_THE_START, ids=[c for c, _ in BEFORE_THE_START])
def test_a_payday_before_the_start_is_not_played(case: str, before: list[Entry | None]) -> None:
    red = day(["red"], [], {"goods": {"red": [5]}}, {}, {})
    state, outcomes = replay(NAMES, [*before, red], "s")
    assert not outcomes[-1].applied and outcomes[-1].note == NOT_STARTED
    assert state.vp == (0, 0, 0)
    assert replay(NAMES, [*BEGIN, red], "s")[1][-1].applied


def test_an_eighth_token_only_from_a_payday() -> None:
    seven = [TokenChange(0, c, 1) for c in (R, R, B, B, Y, Y, G)]
    state, outcomes = replay(NAMES, [*seven, TokenChange(0, G, 1)], "s")
    assert not outcomes[-1].applied and "comes only from a payday" in outcomes[-1].note
    assert sum(state.tokens[0].values()) == 7


def test_draws() -> None:
    assert draw_problem(Draw(8, 2)) is None and draw_problem(Draw(12, 4)) is None
    assert draw_problem(Draw(9, 2)) is not None and draw_problem(Draw(13, 3)) is not None


def test_the_random_start_is_reproduced_by_the_seed() -> None:
    tie = StartDraws((Draw(8, 3), Draw(8, 3), Draw(8, 3)))
    picks = {replay(NAMES, [tie], seed)[0].start.index for seed in map(str, range(30))}  # type: ignore[union-attr]
    assert picks == {0, 1, 2}
    assert replay(NAMES, [tie], "x")[0] == replay(NAMES, [tie], "x")[0]


entries = st.one_of(
    st.builds(TokenChange, st.integers(0, 2), st.sampled_from(COLOURS), st.sampled_from([1, -1])),
    st.builds(
        lambda colours, sunk, cards: PaydayEntry(
            tuple(colours), tuple(c for c in sunk if c not in colours),
            tuple(Cards(ByColour.of({c: tuple(g) for c in COLOURS}, ()), ByColour.of({}, ()), ByColour.of({}, ()))
                  for g in cards)),
        st.lists(st.sampled_from(COLOURS), min_size=1, max_size=2, unique=True),
        st.lists(st.sampled_from(COLOURS), max_size=2, unique=True),
        st.lists(st.lists(st.sampled_from([2, 3, 5]), max_size=2), min_size=3, max_size=3),
    ),
)  # fmt: skip


@settings(max_examples=150, deadline=None)  # the log now begins with the start: slower under load
@given(st.lists(entries, min_size=1, max_size=14), st.data())
def test_undoing_an_entry_is_never_having_entered_it(drawn: list[Entry], data: st.DataObject) -> None:
    log = [e for e in BEGIN if e is not None] + drawn
    i = data.draw(st.integers(0, len(log) - 1))
    undone, _ = replay(NAMES, [None if j == i else e for j, e in enumerate(log)], "s")
    never, _ = replay(NAMES, [e for j, e in enumerate(log) if j != i], "s")
    assert (undone.tokens, undone.vp, undone.finished) == (never.tokens, never.vp, never.finished)
    full, outcomes = replay(NAMES, log, "s")
    assert all(min(t.values()) >= 0 for t in full.tokens)
    ended = [j for j, o in enumerate(outcomes) if o.payday is not None and o.payday.game_over]
    assert full.finished is bool(ended) and (not ended or full.ended_by == ended[0])
    assert all(not o.applied for o in outcomes[full.ended_by + 1 :]) if full.ended_by is not None else True


@settings(max_examples=150, deadline=None)
@given(
    st.lists(entries, max_size=14),
    st.builds(TokenChange, st.integers(0, 2), st.sampled_from(COLOURS), st.sampled_from([1, -1])),
)
def test_a_token_change_at_the_end_is_the_replay_with_it(drawn: list[Entry], tap: TokenChange) -> None:
    """The tracker applies a new token change to the state it keeps instead of replaying the log
    (companion/services/osaka.py): the same outcome and tokens as the replay of the whole log with it."""
    log = [e for e in BEGIN if e is not None] + drawn
    before, _ = replay(NAMES, log, "s")
    after, outcomes = replay(NAMES, [*log, tap], "s")
    tokens = list(before.tokens)
    assert take_token(tap, NAMES, tokens, ended=before.finished) == outcomes[-1]
    assert tuple(tokens) == after.tokens


def test_a_token_change_after_the_end_has_no_effect() -> None:
    tokens = [ByColour.of({G: 1}, 0)] * 3
    outcome = take_token(TokenChange(0, R, 1), NAMES, tokens, ended=True)
    assert not outcome.applied and "already ended" in outcome.note and tokens[0][R] == 0
    assert take_token(TokenChange(0, R, 1), NAMES, tokens, ended=False).applied and tokens[0][R] == 1
