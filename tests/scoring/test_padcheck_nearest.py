"""What a caught impossibility says would be possible (issue: a player reading "cannot both be right" learns
which number to look for): the lines several players typed that need more of a component than exists name the
nearest values the last one's line could take beside the others' (RULINGS R22), and an odd tobacco line with a
pipe names the even ones beside it (RULINGS R7)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.first_edition import SUPPLY_WORDS_2015, Facts2015, check_pad_2015
from scoring.padcheck import (
    Pad,
    PadCode,
    PadFacts,
    PadPlayer,
    check_pad,
    fish_holdings,
    nearest_beside,
    personality_holdings,
    possible_lines,
)
from scoring.table import Setup
from setupgen import Options, generate


def _setup(seed: str, players: int, *, akebono: bool) -> Setup:
    made = generate(Options(players=players, akebono=akebono), seed=seed)
    if made.akebono is None:
        return Setup(buildings=tuple(made.buildings))
    return Setup(buildings=tuple(made.buildings),
                 personalities=tuple(p for pair in made.akebono.personalities.values() for p in pair),
                 boat_sides=dict(made.akebono.boat_sides))  # fmt: skip


def _lines(line: str, *values: int) -> tuple[PadPlayer, ...]:
    names = ("Anaïs", "David", "Dominique")[: len(values)]
    return tuple(PadPlayer(name, lines={line: v}) for name, v in zip(names, values, strict=True))


CAUGHT = [
    # base game: fish 15 is the four plain fish, so David's fish can only be bonus fish: 4, 8, 10, 14, 19, 20, ...
    (Pad(_lines("fish", 15, 15)), "With Anaïs's fish as typed, David's fish could be 14 or 19 (the nearest possible)."),
    # fish 18 is a +1 and a +7 fish and a plain one: two of them leave Dominique two plain fish, 6 at most
    (Pad(_lines("fish", 18, 18, 18)),
     "With Anaïs's and David's fish as typed, Dominique's fish could be 6 (the nearest possible)."),
    # ZBD8DS7P (4 players, Akebono): 74 is the Temple, Shrine, Storyteller's Theater and Private School; the Public
    # Bathhouse (2) and Fire Watchtower (3) are left
    (Pad(_lines("buildings", 74, 74), akebono=True, setup=_setup("ZBD8DS7P", 4, akebono=True)),
     "With Anaïs's buildings as typed, David's buildings could be 5 (the nearest possible)."),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "words"), CAUGHT)
def test_a_conflict_across_the_table_says_what_the_last_line_could_be(typed: Pad, words: str) -> None:
    (error,) = check_pad(typed).errors
    assert error.code is PadCode.TABLE
    assert error.message.endswith(words), error.message


def test_an_odd_tobacco_line_with_a_pipe_names_the_even_ones_beside_it() -> None:
    typed = Pad((PadPlayer("Anaïs", lines={"tobacco": 7}, pipe=True), PadPlayer("David")))
    (error,) = check_pad(typed).errors
    assert error.message.endswith("an even number; nearest possible: 6 or 8.")


def _conflicts(pad: Pad, line: str) -> bool:
    return any(e.code is PadCode.TABLE and e.line == line for e in check_pad(pad).errors)


@settings(max_examples=80, deadline=None)
@given(st.booleans(), st.sampled_from(["fish", "personalities"]), st.integers(2, 3), st.data())
def test_the_nearest_values_said_are_the_nearest_that_fit(
    akebono: bool, line: str, n: int, data: st.DataObject
) -> None:
    """RULINGS R22: each value named leaves the group room, and no possible value between it and the one typed
    does."""
    akebono = akebono or line == "personalities"
    setup = _setup(data.draw(st.sampled_from(["ZBD8DS7P", "K7MX2QPA", "QQQQ4444"])), 4, akebono=True)
    facts = PadFacts(akebono=akebono, setup=setup if line == "personalities" else None)
    made = fish_holdings(akebono) if line == "fish" else {
        v: personality_holdings(facts, v) for v in possible_lines(facts)[line].values or ()
    }  # fmt: skip
    values = sorted(v for v, sets in made.items() if sets)
    typed = Pad(_lines(line, *(data.draw(st.sampled_from(values)) for _ in range(n))), akebono=akebono,
                setup=facts.setup)  # fmt: skip
    errors = [e for e in check_pad(typed).errors if e.code is PadCode.TABLE]
    if not errors:
        return
    said = errors[0].message.split(" cannot ")[0]  # "Anaïs's fish 15 and David's fish 15"
    group = [p for p in typed.players if f"{p.name}'s" in said]
    last = group[-1]
    nearest = nearest_beside(typed, line, [p.name for p in group], set())
    wanted = last.lines[line]

    def with_value(value: int) -> Pad:
        return dataclasses.replace(
            typed, players=(*group[:-1], dataclasses.replace(last, lines={line: value}))
        )

    for value in nearest:
        assert not _conflicts(with_value(value), line), value
    low = max((v for v in nearest if v < wanted), default=-1)
    high = min((v for v in nearest if v > wanted), default=10**6)
    assert all(_conflicts(with_value(v), line) for v in values if low < v < high), (wanted, nearest)


def test_the_2015_pad_says_no_search_it_did_not_make() -> None:
    """The 2015 pad's conflicts are not searched for the nearest values: their message claims none (it said 'no
    fish of Jiro's is possible' for a while, where Jiro's plain fish were)."""
    pad = Pad((PadPlayer("Hana", lines={"fish": 20}), PadPlayer("Jiro", lines={"fish": 20})))
    facts = Facts2015(bonito=5, sea_bream=7, pouches=(2, 3, 4, 5), constructions=(2, 3, 4, 5, 6, 8))
    (error,) = check_pad_2015(pad, facts).errors
    assert error.message == (
        "Hana's fish 20 and Jiro's fish 20 cannot both be right: together they need more "
        f"{SUPPLY_WORDS_2015['fish']} than the game has."
    )
