"""Checking a typed paper pad (scoring.padcheck): each line's possible values, and the checks of a whole pad."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from scoring import evaluate
from scoring.examples import AKEBONO_FOUR_PLAYERS, WORKED_EXAMPLE
from scoring.padcheck import (
    Pad,
    PadCode,
    PadFacts,
    PadPlayer,
    check_pad,
    possible_lines,
)
from scoring.table import Setup
from tests.scoring.test_properties import legal_table


def pad_of(example: dict[str, Any], **changes: Any) -> Pad:
    """The pad a table wrote for a rules example: every line, the totals and the ranks, from the scorer."""
    answer = evaluate(example)
    by_name = {p["name"]: p for p in example["players"]}
    order = example.get("firefighting_order") or []
    players = []
    for result in answer["players"]:
        p = by_name[result["name"]]
        space = [n for n in order if by_name[n].get("firefighting", 0) == p.get("firefighting", 0)]
        players.append(
            PadPlayer(
                name=result["name"],
                lines={**result["lines"], **changes.get(result["name"], {})},
                total=result["total"],
                rank=result["rank"],
                pipe=bool(p.get("pipes")),
                firefighting=p.get("firefighting", 0),
                stack_place=space.index(p["name"]) + 1 if len(space) > 1 else None,
            )
        )
    return Pad(players=tuple(players), akebono="akebono" in example.get("expansions", []))


def test_rulebook_example_checks_without_a_flag() -> None:
    """iki-rulebook.txt "END OF THE GAME AND SCORING": Anaïs's 100 IKI (28 + 16 + 18 + 16 + 18 + 4)."""
    pad = pad_of(WORKED_EXAMPLE)
    assert dict(pad.players[0].lines) == {
        "score_track": 28, "variety": 16, "fish": 18, "tobacco": 16, "buildings": 18, "resources": 4,
    }  # fmt: skip
    check = check_pad(pad)
    assert check.problems == ()
    assert [(p.name, p.sum, p.rank) for p in check.players] == [("Anaïs", 100, 1), ("David", 41, 2)]


def test_akebono_example_checks_without_a_flag() -> None:
    assert check_pad(pad_of(AKEBONO_FOUR_PLAYERS)).problems == ()


#: One row per impossible line: the line, the typed number, the facts, and words its message must hold.
IMPOSSIBLE = [
    ("variety", 12, {}, "variety 12 is impossible: 1, 4, 9, 16 or 25 for 1-5 types"),
    ("variety", 2, {}, "nearest possible: 1 or 4"),
    ("fish", 2, {}, "fish 2 is impossible: 3/6/10/15 for fish of 1-4 seasons"),
    ("fish", 1, {}, "nearest possible: 0 or 3"),  # 1 needs the Akebono spring fish (3 - 2)
    ("fish", 32, {}, "fish 32 is impossible"),
    ("tobacco", 15, {"pipe": True}, "with a pipe the pouches' sum is doubled: an even number"),
    ("buildings", 1, {}, "buildings 1 is impossible: the values of at most 4 buildings"),
    ("buildings", 200, {}, "buildings 200 is impossible"),
    ("score_track", -3, {}, "no line is negative"),
    ("resources", -1, {}, "no line is negative"),
]


@pytest.mark.parametrize(("line", "value", "facts", "words"), IMPOSSIBLE)
def test_each_impossible_line_is_flagged_with_its_reason(
    line: str, value: int, facts: dict[str, Any], words: str
) -> None:
    pad = pad_of(WORKED_EXAMPLE, Anaïs={line: value})
    if facts:
        pad = Pad(players=(PadPlayer(name="Anaïs", lines={line: value}, **facts), pad.players[1]))
    check = check_pad(pad)
    flagged = [p for p in check.errors if p.line == line and p.player == "Anaïs"]
    assert len(flagged) == 1, check.problems
    assert words in flagged[0].message
    assert flagged[0].code in (PadCode.IMPOSSIBLE, PadCode.NEGATIVE)
    assert check.in_doubt("Anaïs")[line] == flagged[0]


#: Facts that narrow a line: (facts, line, a value they forbid, a value they keep).
NARROWED = [
    ({"pipe": True}, "tobacco", 7, 8),
    ({"pipe": False}, "tobacco", -1, 7),
    ({"firefighting": 3, "setup": Setup(buildings=("well",))}, "buildings", 8, 6),  # Well: 2 x firefighting
    ({"setup": Setup(buildings=("inn", "shrine", "farmhouse"))}, "buildings", 3, 36),  # 12 + 22 + 2
    ({"akebono": True}, "fish", 2, 1),  # the Akebono spring fish makes 1 possible, never 2
    ({"akebono": True, "pipe": False, "last_in_firefighting": False,
      "setup": Setup(personalities=("gennai-hiraga", "ryokan", "sanyo-rai"), boat_sides={"ferry-boat": "A"})},
     "personalities", 5, 0),  # Gennai needs 2 pipes, Ryōkan the last place: nothing left to score
    ({"akebono": True, "setup": Setup(personalities=("kazan-watanabe",), boat_sides={"ferry-boat": "A"})},
     "personalities", 7, 12),  # 2 x (boats + buildings) only
    ({"akebono": True, "setup": Setup(personalities=("kazan-watanabe",), boat_sides={"ferry-boat": "B"})},
     "personalities", 54, 7),  # side B opens the season pool (RULINGS R13): Hiroshige may be met
]  # fmt: skip


@pytest.mark.parametrize(("facts", "line", "forbidden", "kept"), NARROWED)
def test_facts_and_setup_narrow_a_line(facts: dict[str, Any], line: str, forbidden: int, kept: int) -> None:
    possible = possible_lines(PadFacts(**facts))[line]
    assert forbidden not in possible
    assert kept in possible


def test_variety_is_exactly_the_squares() -> None:
    assert possible_lines(PadFacts()).get("variety").values == {0, 1, 4, 9, 16, 25}  # type: ignore[union-attr]


def test_akebono_adds_the_personalities_line() -> None:
    assert "personalities" not in possible_lines(PadFacts())
    assert "personalities" in possible_lines(PadFacts(akebono=True))


def test_a_total_that_is_not_the_sum_is_flagged() -> None:
    pad = pad_of(WORKED_EXAMPLE)
    anais = pad.players[0]
    wrong = Pad(players=(PadPlayer(name="Anaïs", lines=anais.lines, total=110), pad.players[1]))
    (problem,) = check_pad(wrong).errors
    assert problem.code is PadCode.TOTAL
    assert problem.message == "total 110 is not the sum of the lines: they add up to 100."


def tie(anais: dict[str, Any], david: dict[str, Any]) -> Pad:
    return Pad(
        players=(
            PadPlayer(name="Anaïs", lines={"score_track": 50}, total=50, **anais),
            PadPlayer(name="David", lines={"score_track": 50}, total=50, **david),
        )
    )


#: RULINGS R12 on a tie of 50: positions and stacks typed, the places expected, and the codes said.
TIES = [
    ({"firefighting": 6}, {"firefighting": 3}, (1, 2), set()),
    ({"firefighting": 3, "stack_place": 2}, {"firefighting": 3, "stack_place": 1}, (2, 1), set()),
    ({"firefighting": 3}, {"firefighting": 3}, (1, 1), {PadCode.TIE_NEEDS_STACK}),  # no stack: they share
    (
        {"firefighting": 3, "stack_place": 1},
        {"firefighting": 3, "stack_place": 1},
        (1, 1),
        {PadCode.STACK_TWICE},
    ),
    (
        {"firefighting": 3, "stack_place": 1},
        {"firefighting": 3, "stack_place": 3},
        (1, 1),
        {PadCode.STACK_TOO_LOW},
    ),
    ({}, {"firefighting": 3}, (1, 1), {PadCode.TIE_NEEDS_FIREFIGHTING}),
    ({"firefighting": 6, "rank": 2}, {"firefighting": 3}, (1, 2), {PadCode.RANK}),
]


@pytest.mark.parametrize(("anais", "david", "ranks", "codes"), TIES)
def test_ties_follow_the_firefighting_track(
    anais: dict[str, Any], david: dict[str, Any], ranks: tuple[int, int], codes: set[PadCode]
) -> None:
    check = check_pad(tie(anais, david))
    assert tuple(p.rank for p in check.players) == ranks
    assert {p.code for p in check.problems} == codes


def test_one_stack_place_typed_twice_is_not_called_a_stack_not_given() -> None:
    """The error says both cannot hold place 1; the ranking beside it must not say no stack place was given."""
    check = check_pad(tie({"firefighting": 3, "stack_place": 1}, {"firefighting": 3, "stack_place": 1}))
    assert [p.code for p in check.errors] == [PadCode.STACK_TWICE]
    words = {p.tie_break for p in check.players}
    assert words == {"Anaïs and David tie on 50 IKI; same firefighting space (3) and no stack order between them: "
                     "they share the place"}  # fmt: skip


def test_a_wrong_rank_says_the_tie_break() -> None:
    check = check_pad(tie({"firefighting": 6, "rank": 2}, {"firefighting": 3}))
    (problem,) = check.errors
    assert problem.message.startswith("Anaïs is placed 1, not 2: Anaïs and David tie on 50 IKI; broken by")


def test_a_place_outside_the_range_a_tie_leaves_open_is_wrong() -> None:
    """RULINGS R12, R21: four players on 100, Hana's firefighting position blank. Anaïs and David (space 7) are
    surely above Ben (space 5), so Ben holds 3rd or 4th whatever Hana's position: written 1st is an error naming
    that range (while the places the tie leaves open, 1-3 for Anaïs, are legal)."""
    spaces = {"Anaïs": 7, "David": 7, "Ben": 5, "Hana": None}
    ranks = {"Anaïs": 2, "David": 3, "Ben": 1, "Hana": 4}
    pad = Pad(
        players=tuple(
            PadPlayer(name=name, lines={"score_track": 100}, total=100, rank=ranks[name], firefighting=space)
            for name, space in spaces.items()
        )
    )
    check = check_pad(pad)
    wrong = [p for p in check.errors if p.code is PadCode.RANK]
    assert [(p.player, p.message) for p in wrong] == [
        ("Ben", "Ben cannot be placed 1: with 100 IKI the place is 3 to 4.")
    ]
    assert {p.name: p.place for p in check.players}["Ben"] == "3\u20134"


def test_a_score_track_over_150_is_a_warning() -> None:
    check = check_pad(Pad(players=(PadPlayer(name="A", lines={"score_track": 151}), PadPlayer(name="B"))))
    assert check.ok
    assert [p.code for p in check.problems] == [PadCode.HIGH_SCORE_TRACK]


@settings(max_examples=80)
@given(legal_table())
def test_every_value_the_scorer_produces_is_possible(table: dict[str, Any]) -> None:
    """Property: for any legal table, each line the scorer writes is in the line's set, given the player's
    pipe and position (the facts the check page asks for)."""
    answer = evaluate(table)
    players = {p["name"]: p for p in table["players"]}
    pad = pad_of(table)
    for result, column in zip(answer["players"], pad.players, strict=True):
        player = players[result["name"]]
        facts = PadFacts(
            akebono=bool(table["expansions"]),
            pipe=bool(player["pipes"]),
            firefighting=player["firefighting"],
        )
        possible = possible_lines(facts)
        for line, value in result["lines"].items():
            assert value in possible[line], (line, value, possible[line].rule)
        assert column.total == sum(column.lines.values())
    assert check_pad(pad).errors == ()


def test_every_pad_code_is_covered() -> None:
    """Each code of the check comes out of one of the rule tables above (as tests/scoring/test_validate.py)."""
    pads = [pad_of(WORKED_EXAMPLE, Anaïs={line: value}) for line, value, _, _ in IMPOSSIBLE]
    pads += [tie(a, d) for a, d, _, _ in TIES]
    pads.append(Pad(players=(PadPlayer(name="A", lines={"score_track": 151}, total=1), PadPlayer(name="B"))))
    pads.append(
        Pad(players=(PadPlayer(name="A", lines={"fish": 15}), PadPlayer(name="B", lines={"fish": 15})))
    )
    seen = {p.code for pad in pads for p in check_pad(pad).problems}
    assert seen == set(PadCode) - {
        PadCode.MANY_CONSTRUCTIONS
    }  # 2015 only: tests/scoring/test_first_edition.py
