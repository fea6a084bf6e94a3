"""The 2015 pad checked as written (issue 23; RULINGS E1-E5, R20-R22): the lines and totals the table wrote,
the printed values it typed, every problem at once; one row per rule broken once, and Hypothesis: a legal 2015
table is never accused, a number moved outside its set always is."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.first_edition import (
    FISH_TOKENS_2015,
    LINES_2015,
    Counts2015,
    Facts2015,
    Player2015,
    check_pad_2015,
    possible_2015,
    score_2015,
)
from scoring.padcheck import WARNING_CODES, Pad, PadCode, PadPlayer

#: The table's printed values, as a table types them: bonito 5, sea bream 7, pouches 2 3 4 5, cards 2 3 4 5 6 8.
FACTS = Facts2015(bonito=5, sea_bream=7, pouches=(2, 3, 4, 5), constructions=(2, 3, 4, 5, 6, 8))
#: Hana: 31 + 16 (4 types) + 15 (3 seasons 10 + bonito 5) + 10 ((2 + 3) x 2, a pipe) + 13 (5 + 8) + 9 = 94.
HANA = PadPlayer(
    name="Hana", lines={"score_track": 31, "variety": 16, "fish": 15, "tobacco": 10, "buildings": 13,
                        "resources": 9}, total=94, rank=1, pipe=True, firefighting=4,
)  # fmt: skip
#: Jiro: 70 + 4 + 0 + 4 (one pouch 4, no pipe) + 0 + 0 = 78.
JIRO = PadPlayer(
    name="Jiro", lines={"score_track": 70, "variety": 4, "fish": 0, "tobacco": 4, "buildings": 0, "resources": 0},
    total=78, rank=2, pipe=False, firefighting=7,
)  # fmt: skip
COUNTS = {"Hana": Counts2015(koban=2, lumber=1, mon=11), "Jiro": Counts2015(koban=0, lumber=0, mon=4)}


def _pad(**changes: dict[str, Any]) -> Pad:
    players = []
    for p in (HANA, JIRO):
        change = dict(changes.get(p.name, {}))
        lines = {
            k: v for k, v in {**p.lines, **change.pop("lines", {})}.items() if v is not None
        }  # None: blank
        players.append(dataclasses.replace(p, lines=lines, **change))
    return Pad(players=tuple(players))


def test_the_example_pad_checks_clean() -> None:
    check = check_pad_2015(_pad(), dataclasses.replace(FACTS, counts=COUNTS))
    assert check.problems == ()
    assert [(p.name, p.sum, p.rank) for p in check.players] == [("Hana", 94, 1), ("Jiro", 78, 2)]


def test_without_the_printed_values_only_the_text_s_own_numbers_are_checked() -> None:
    """R20: the pouches' and cards' values not typed, any tobacco and construction line can be right; the fish
    line with the bonus values blank is 0, 3 or more (a bonus adds at least 1)."""
    blank = Facts2015()
    pad = _pad(Hana={"lines": {"tobacco": 996, "buildings": 61, "fish": 4}, "total": None})
    assert check_pad_2015(pad, blank).problems == ()
    (problem,) = check_pad_2015(_pad(Hana={"lines": {"fish": 2}, "total": None}), blank).problems
    assert problem.code is PadCode.IMPOSSIBLE and "nearest possible: 0 or 3" in problem.message


#: One row per rule broken once: the changes to the example pad, the facts, the code and words expected.
BROKEN: list[tuple[dict[str, Any], Facts2015, PadCode, str]] = [
    ({"Hana": {"lines": {"variety": 12}, "total": 90}}, FACTS, PadCode.IMPOSSIBLE,
     "variety 12 is impossible: 1, 4, 9, 16 or 25"),
    ({"Hana": {"lines": {"fish": 14}, "total": 93}}, FACTS, PadCode.IMPOSSIBLE, "fish 14 is impossible"),
    ({"Hana": {"lines": {"tobacco": 11}, "total": 95}}, FACTS, PadCode.IMPOSSIBLE,
     "tobacco 11 is impossible: the sum of the pouches held (of 2, 3, 4 and 5), doubled by the pipe"),
    ({"Hana": {"lines": {"tobacco": 9}, "total": 93}}, Facts2015(), PadCode.IMPOSSIBLE,
     "doubled with a pipe (so even)"),
    ({"Hana": {"lines": {"buildings": 1}, "total": 82}}, FACTS, PadCode.IMPOSSIBLE,
     "construction cards 1 is impossible"),
    ({"Hana": {"lines": {"resources": 8}, "total": 93}}, dataclasses.replace(FACTS, counts=COUNTS),
     PadCode.IMPOSSIBLE, "resources 8 is impossible: 2 koban × 3 + 1 lumber + 11 mon ÷ 5 = 9"),
    ({"Hana": {"lines": {"resources": 5}, "total": 90}}, dataclasses.replace(
        FACTS, counts={"Hana": Counts2015(koban=2)}), PadCode.IMPOSSIBLE, "at least 6"),
    ({"Hana": {"lines": {"score_track": -1}, "total": 62}}, FACTS, PadCode.NEGATIVE, "no line is negative"),
    ({"Hana": {"total": 95}}, FACTS, PadCode.TOTAL, "total 95 is not the sum of the lines: they add up to 94"),
    ({"Hana": {"rank": 2}}, FACTS, PadCode.RANK, "Hana is placed 1, not 2"),
    ({"Hana": {"lines": {"fish": 20}, "total": 99}, "Jiro": {"lines": {"fish": 20}, "total": 98}}, FACTS,
     PadCode.TABLE, "Hana's fish 20 and Jiro's fish 20 cannot both be right"),  # both need the one bonito
    ({"Jiro": {"lines": {"tobacco": 14}, "total": 88}}, FACTS, PadCode.TABLE,
     "Hana's tobacco 10 and Jiro's tobacco 14 cannot both be right"),
    ({"Jiro": {"lines": {"buildings": 17}, "total": 95, "rank": 1}, "Hana": {"rank": 2}}, FACTS, PadCode.TABLE,
     "together they need more construction cards (6, each once)"),
    ({"Hana": {"firefighting": 7, "stack_place": 1}, "Jiro": {"stack_place": 1}}, FACTS, PadCode.STACK_TWICE,
     "cannot both be place 1 in the stack on space 7"),
    ({"Jiro": {"stack_place": 2}}, FACTS, PadCode.STACK_TOO_LOW, "Jiro is alone on it"),
    # warnings: the pad is still right
    ({"Jiro": {"lines": {"score_track": 86}, "total": 94, "firefighting": None}}, FACTS,
     PadCode.TIE_NEEDS_FIREFIGHTING, "Hana and Jiro tie on 94 IKI"),
    ({"Jiro": {"lines": {"score_track": 86}, "total": 94, "firefighting": 4}, "Hana": {"stack_place": 1}}, FACTS,
     PadCode.TIE_NEEDS_STACK,
     "give the places in that stack"),
    ({"Hana": {"lines": {"resources": None}, "total": 80}}, FACTS, PadCode.TOTAL_WITH_BLANKS,
     "is less than the lines typed"),  # R20: with a line left blank, at most a warning
    ({"Hana": {"lines": {"buildings": 24}, "total": 105}}, FACTS, PadCode.MANY_CONSTRUCTIONS,
     "Hana's construction cards 24 need 5 cards"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "facts", "code", "words"), BROKEN)
def test_each_2015_rule_breaks(changes: dict[str, Any], facts: Facts2015, code: PadCode, words: str) -> None:
    check = check_pad_2015(_pad(**changes), facts)
    assert [p.code for p in check.problems if not p.consequence] == [code], check.problems
    (problem,) = [p for p in check.problems if not p.consequence]
    assert words in problem.message
    assert problem.error == (code not in WARNING_CODES)


def test_every_2015_code_is_covered() -> None:
    """Each code the 2015 check can give comes out of one row above (the 2015 pad has no score-track warning)."""
    assert {code for _, _, code, _ in BROKEN} == set(PadCode) - {PadCode.HIGH_SCORE_TRACK}


def test_every_problem_comes_at_once_and_a_wrong_total_names_its_root() -> None:
    """Three slips on one pad, three errors; the total off only because of the variety follows from it."""
    pad = _pad(Hana={"lines": {"variety": 12, "fish": 2}}, Jiro={"lines": {"tobacco": 15}, "total": 89})
    check = check_pad_2015(pad, FACTS)
    assert [(p.player, p.line) for p in check.errors] == [
        ("Hana", "variety"),
        ("Hana", "fish"),
        ("Jiro", "tobacco"),
    ]
    (total,) = check.consequences
    assert total.line == "total" and total.root == "Hana's variety"


def test_two_fish_of_one_season_stay_legal_and_one_plain_fish_is_nothing() -> None:
    """E2: both spring fish in one hand is legal (fish 3 with two tokens); E4: a plain summer fish scores only its
    season, and the bonus bonito is the other summer fish: two players with a summer fish and 8 is fine."""
    pad = _pad(
        Hana={"lines": {"fish": 8}, "total": 87, "rank": None}, Jiro={"lines": {"fish": 3}, "total": 81}
    )
    assert check_pad_2015(pad, FACTS).problems == ()


# --- Hypothesis ----------------------------------------------------------------------------------------------------


@st.composite
def legal_2015(draw: st.DrawFn) -> tuple[Pad, Facts2015]:
    """A legal 2015 table: the printed values (some not typed), each fish token, pouch, pipe and construction card
    given to one player or nobody, and what the pad says of it: each line from the calculator
    (:func:`score_2015`), the totals and places, some lines, totals, places and facts left blank."""
    n = draw(st.integers(2, 4))
    names = [f"P{i}" for i in range(n)]
    value = st.integers(1, 12)
    bonito, sea_bream = draw(value), draw(value)
    pouches = tuple(draw(st.lists(value, min_size=4, max_size=4)))
    cards = tuple(draw(st.lists(value, min_size=6, max_size=6)))
    owner = st.sampled_from([*range(n), None])
    fish_of = {token: draw(owner) for token, _ in FISH_TOKENS_2015}
    pouch_of, pipe_of, card_of = ([draw(owner) for _ in range(k)] for k in (4, 4, 6))
    players, counts = [], {}
    for i, name in enumerate(names):
        held = [(t, s) for t, s in FISH_TOKENS_2015 if fish_of[t] == i]
        counts[name] = Counts2015(*(draw(st.integers(0, 12)) for _ in range(3)))
        players.append(Player2015(
            name=name, score_track=draw(st.integers(0, 120)), types=draw(st.integers(0, 5)),
            fish_seasons=len({s for _, s in held}),
            bonito=bonito if fish_of["bonito"] == i else None,
            sea_bream=sea_bream if fish_of["sea-bream"] == i else None,
            pouches=tuple(v for v, o in zip(pouches, pouch_of, strict=True) if o == i),
            pipes=pipe_of.count(i),
            constructions=tuple(v for v, o in zip(cards, card_of, strict=True) if o == i),
            koban=counts[name].koban or 0, lumber=counts[name].lumber or 0, mon=counts[name].mon or 0,
            firefighting=draw(st.integers(0, 10)),
        ))  # fmt: skip
    spaces = [p.firefighting for p in players]
    players = [dataclasses.replace(p, stack_place=1 + spaces[:i].count(p.firefighting))
               for i, p in enumerate(players)]  # fmt: skip
    scores = {s.name: s for s in score_2015(players)}
    blank = st.booleans()
    typed = []
    for p in players:
        s = scores[p.name]
        typed.append(PadPlayer(
            name=p.name, lines={k: v for k, v in s.lines.items() if not draw(blank)},
            total=None if draw(blank) else s.total, rank=None if draw(blank) else s.rank,
            pipe=None if draw(blank) else p.pipes > 0,
            firefighting=p.firefighting, stack_place=p.stack_place,
        ))  # fmt: skip
    facts = Facts2015(
        bonito=None if draw(blank) else bonito,
        sea_bream=None if draw(blank) else sea_bream,
        pouches=None if draw(blank) else pouches,
        constructions=None if draw(blank) else cards,
        counts={k: c for k, c in counts.items() if not draw(blank)},
    )
    return Pad(players=tuple(typed)), facts


@settings(max_examples=150, deadline=None)
@given(legal_2015())
def test_a_legal_2015_table_is_never_accused(table: tuple[Pad, Facts2015]) -> None:
    pad, facts = table
    check = check_pad_2015(pad, facts)
    assert check.errors == (), check.errors


@settings(max_examples=150, deadline=None)
@given(legal_2015(), st.data())
def test_a_2015_number_moved_outside_its_set_is_always_accused(
    table: tuple[Pad, Facts2015], data: Any
) -> None:
    pad, facts = table
    seat = data.draw(st.integers(0, len(pad.players) - 1))
    line = data.draw(st.sampled_from(LINES_2015))
    player = pad.players[seat]
    possible = possible_2015(facts, player)[line]
    moved = data.draw(st.integers(-3, 999))
    assume(moved not in possible)
    players = list(pad.players)
    players[seat] = dataclasses.replace(player, lines={**player.lines, line: moved})
    check = check_pad_2015(dataclasses.replace(pad, players=tuple(players)), facts)
    assert (player.name, line) in {(p.player, p.line) for p in check.errors}
