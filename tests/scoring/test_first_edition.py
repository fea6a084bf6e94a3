"""The 2015 first edition's pad (scoring.first_edition; RULINGS E1-E3): its arithmetic and its checks."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.first_edition import WARNING_CODES_2015, Code2015, Player2015, check_2015, score_2015


def test_a_2015_pad_is_scored() -> None:
    """E1 line by line: 4 types 16; fish of 3 seasons 10 + bonito 5 (typed from the token); pouches 2 + 3
    doubled by a pipe 10; construction cards 5 + 8; 2 koban 6 + 1 lumber + 11 mon 2 = 9."""
    hana = Player2015(
        name="Hana", score_track=31, types=4, fish_seasons=3, bonito=5, pouches=(2, 3), pipes=1,
        constructions=(5, 8), koban=2, lumber=1, mon=11, firefighting=4,
    )  # fmt: skip
    jiro = Player2015(name="Jiro", score_track=70, types=2, pouches=(4,), mon=4, firefighting=7)
    assert check_2015([hana, jiro]) == []
    scored = {s.name: s for s in score_2015([hana, jiro])}
    assert scored["Hana"].lines == {
        "score_track": 31, "variety": 16, "fish": 15, "tobacco": 10, "buildings": 13, "resources": 9,
    }  # fmt: skip
    assert scored["Hana"].total == 94
    assert scored["Jiro"].lines["tobacco"] == 4  # no pipe: as printed
    assert scored["Jiro"].lines["resources"] == 0  # 4 mon: every five mon scores 1
    assert scored["Jiro"].total == 78
    assert (scored["Hana"].rank, scored["Jiro"].rank) == (1, 2)
    assert scored["Hana"].explanations["tobacco"] == "2 + 3 = 5, doubled by a pipe = 10"


def test_2015_ties_go_to_firefighting_power_then_the_higher_marker() -> None:
    """E3 ("In the case of a tie, the one who has most firefighter power is the winner. If it is still a tie,
    the one whose firefighter marker is higher is the winner")."""
    a = Player2015(name="A", score_track=40, firefighting=5, stack_place=2)
    b = Player2015(name="B", score_track=40, firefighting=5, stack_place=1)
    c = Player2015(name="C", score_track=40, firefighting=6)
    ranks = {s.name: s.rank for s in score_2015([a, b, c])}
    assert ranks == {"C": 1, "B": 2, "A": 3}
    # in the pad's own words: its line is "Firefighting power", not the 2022 pad's position
    words = {s.tie_break for s in score_2015([a, b, c])}
    assert words == {"C, B and A tie on 40 IKI; by firefighting power, then the stack: C on space 6; B above A "
                     "in the stack on space 5"}  # fmt: skip
    blank = score_2015([a, Player2015(name="D", score_track=40)])
    assert all("not every firefighting power is given" in (s.tie_break or "") for s in blank), blank


#: One row per 2015 check broken once: the players, the code expected.
BROKEN: list[tuple[list[dict[str, Any]], Code2015]] = [
    ([{"mon": -1}], Code2015.NEGATIVE),
    ([{"types": 6}], Code2015.TOO_MANY_TYPES),
    ([{"fish_seasons": 5}], Code2015.TOO_MANY_SEASONS),
    ([{"fish_seasons": 1, "bonito": 5, "sea_bream": 7}], Code2015.BONUS_FISH_WITHOUT_SEASON),
    ([{"fish_seasons": 1, "bonito": 5}, {"fish_seasons": 1, "bonito": 5}], Code2015.BONUS_FISH_TWICE),
    ([{"pouches": (1, 2, 3)}, {"pouches": (4, 5)}], Code2015.SUPPLY),
    ([{"pipes": 3}, {"pipes": 2}], Code2015.SUPPLY),
    ([{"constructions": (1, 2, 3, 4)}, {"constructions": (5, 6, 7)}], Code2015.SUPPLY),
    ([{"firefighting": 11}], Code2015.TRACK),
    ([{"firefighting": 3, "stack_place": 1}, {"firefighting": 3, "stack_place": 1}], Code2015.STACK),
    # E5: warnings, the pad still adds up
    ([{"constructions": (1, 1, 1, 1, 1)}], Code2015.MANY_CONSTRUCTIONS),
    ([{"score_track": 40, "firefighting": 3}, {"score_track": 40}], Code2015.TIE_NEEDS_FIREFIGHTING),
]


@pytest.mark.parametrize(("players", "code"), BROKEN)
def test_each_2015_check_breaks(players: list[dict[str, Any]], code: Code2015) -> None:
    typed = {} if code in WARNING_CODES_2015 else {"firefighting": 0}  # no tie warning where it is not tested
    table = [Player2015(name=f"P{i}", **{**typed, **fields}) for i, fields in enumerate(players)]
    found = check_2015(table)
    assert [p.code for p in found] == [code]
    assert all(p.warning == (code in WARNING_CODES_2015) for p in found)


def test_every_2015_code_is_covered() -> None:
    assert {code for _, code in BROKEN} == set(Code2015)


def test_two_fish_of_one_season_are_not_refused_in_2015() -> None:
    """E2: the 2015 text states no one-fish-per-season rule, so fish of 4 seasons in two hands of 4 is legal."""
    pad = [Player2015(name="A", fish_seasons=4), Player2015(name="B", fish_seasons=4)]
    assert [p for p in check_2015(pad) if not p.warning] == []


def test_a_blank_firefighting_power_leaves_a_tie_shared_with_a_warning() -> None:
    """E5: a blank power is unknown, not 0: the tie it would break is shared and warned about; once typed, the
    power breaks it (E3)."""
    a = Player2015(name="A", score_track=40, firefighting=3)
    b = Player2015(name="B", score_track=40)
    assert {s.name: s.rank for s in score_2015([a, b])} == {"A": 1, "B": 1}
    (warning,) = check_2015([a, b])
    assert warning.warning and warning.player == "B"
    assert "type every tied player's firefighting power" in warning.message
    typed = Player2015(name="B", score_track=40, firefighting=0)
    assert {s.name: s.rank for s in score_2015([a, typed])} == {"A": 1, "B": 2}
    assert check_2015([a, typed]) == []
