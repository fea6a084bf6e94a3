"""The pad check's third pass (issue 19; RULINGS R20-R24): no false accusation of a legal pad, more caught
across the table. One row per rule, in the style of tests/scoring/test_validate.py; each fails on the check as
it was before (numbers in the docstrings and comments)."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.examples import WORKED_EXAMPLE
from scoring.padcheck import (
    AKEBONO_SETS_MOST,
    Pad,
    PadCode,
    PadFacts,
    PadPlayer,
    building_holdings,
    can_share,
    check_pad,
    facts_of,
    in_play,
    possible_lines,
)
from scoring.table import Setup
from setupgen import Options, generate
from tests.scoring.test_padcheck import pad_of

#: Seed ZBD8DS7P, 4 players, base game: Merchant House, Farmhouse, Kabuki Theater, Restaurant, Fire Watchtower,
#: Well (setupgen's draw; issue 19).
ZBD8DS7P = Setup(buildings=tuple(generate(Options(players=4), seed="ZBD8DS7P").buildings))


def player(name: str, **fields: Any) -> PadPlayer:
    return PadPlayer(name=name, **fields)


def pad(*players: PadPlayer, **options: Any) -> Pad:
    return Pad(players=players, **options)


FULL = {"score_track": 40, "variety": 9, "fish": 10, "tobacco": 8, "buildings": 12, "resources": 5}  # 84


#: Legal pads the check used to accuse (RULINGS R20, R21): each must check with no error.
NEVER_ACCUSED = [
    # R13: places 1 and 3 on space 5 while C's position is not typed: C may be the third in that stack
    ("stack-with-a-position-blank", pad(player("A", total=90, firefighting=5, stack_place=1),
                                        player("B", total=90, firefighting=5, stack_place=3), player("C", total=80))),
    # R20: totals and places only, every line blank: "total 80 is not the sum of the lines" before
    ("totals-only", pad(player("A", total=80, rank=1), player("B", total=60, rank=2))),
    # R20: some lines blank, the total typed: not checked against the lines typed
    ("lines-partly-typed", pad(player("A", lines={"fish": 10, "variety": 9}, total=84, rank=1),
                               player("B", total=60, rank=2))),
    # R20: a player with no total: the others' places are judged on their typed totals
    ("one-total-unknown", pad(player("A", total=80, rank=2), player("B", total=90, rank=1),
                              player("C", lines={"fish": 3}, rank=3))),
    # R21: a tie written 1 and 2 with no firefighting position typed (an error "placed 1, not 2" before)
    ("tie-broken-at-the-table", pad(player("A", lines=FULL, total=84, rank=1),
                                    player("B", lines=FULL, total=84, rank=2))),
    # R21: the same space, the stack places not typed
    ("tie-on-one-space", pad(player("A", total=84, rank=2, firefighting=4),
                             player("B", total=84, rank=1, firefighting=4))),
    # R24 is a view's (the seed's options): see tests/companion/test_checks_views.py
]  # fmt: skip


@pytest.mark.parametrize(("name", "typed"), NEVER_ACCUSED, ids=[n for n, _ in NEVER_ACCUSED])
def test_a_legal_pad_is_never_accused(name: str, typed: Pad) -> None:
    check = check_pad(typed)
    assert check.errors == (), check.errors
    assert check.consequences == ()


#: Two places written the wrong way round (RULINGS R12, R21): one mistake, said once on the first player and the
#: second's place following from it (two errors before). (pad, the error's player, the consequence's player)
SWAPS = [
    ("tie on the track", pad(player("A", total=84, rank=2, firefighting=6), player("B", total=84, rank=1,
                                                                                  firefighting=3)), "A", "B"),
    ("tie in one stack", pad(player("A", total=84, rank=1, firefighting=4, stack_place=2),
                             player("B", total=84, rank=2, firefighting=4, stack_place=1)), "A", "B"),
    ("no tie", pad(player("A", total=70, rank=1), player("B", total=90, rank=3), player("C", total=80, rank=2)),
     "A", "B"),
    ("the middle two of four", pad(player("A", total=90, rank=1), player("B", total=84, rank=3, firefighting=6),
                                   player("C", total=84, rank=2, firefighting=3), player("D", total=10, rank=4)),
     "B", "C"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "typed", "first", "second"), SWAPS, ids=[s[0] for s in SWAPS])
def test_a_swap_is_one_mistake(name: str, typed: Pad, first: str, second: str) -> None:
    check = check_pad(typed)
    assert [(p.player, p.code) for p in check.errors] == [(first, PadCode.RANK)]
    assert "wrong way round" in check.errors[0].message
    assert [(p.player, p.root) for p in check.consequences] == [(second, f"{first}'s place")]


def test_three_places_wrong_are_not_a_swap() -> None:
    """A place that is nobody else's swap stays its own mistake: A 1st written 3, B 2nd written 1, C 3rd written 2."""
    check = check_pad(
        pad(player("A", total=90, rank=3), player("B", total=80, rank=1), player("C", total=70, rank=2))
    )
    assert len(check.errors) == 3 and check.consequences == ()


def test_an_empty_pad_says_nothing() -> None:
    """R20: before anything is typed there is no tie of 0 IKI to warn about (four warnings before)."""
    check = check_pad(pad(*(player(n) for n in "ABCD")))
    assert check.problems == ()
    assert not check.typed
    assert not check.complete


def test_a_tie_broken_at_the_table_asks_for_the_positions() -> None:
    """R21: a warning, asking for the positions and the stack places."""
    (typed,) = [p for n, p in NEVER_ACCUSED if n == "tie-broken-at-the-table"]
    warnings = check_pad(typed).warnings
    assert {w.code for w in warnings} == {PadCode.TIE_NEEDS_FIREFIGHTING}
    assert "firefighting position" in warnings[0].message and "stack" in warnings[0].message


#: Pads that cannot be right, each caught once: (rule, pad, the player, line and code flagged, words said).
CAUGHT = [
    # R21: the typed facts give another place: an error
    ("R21 facts typed", pad(player("A", total=84, rank=1, firefighting=2), player("B", total=84, firefighting=5)),
     "A", "rank", PadCode.RANK, "A is placed 2, not 1"),
    # R20: places judged on the typed totals
    ("R20 typed totals", pad(player("A", total=80, rank=1), player("B", total=90)),
     "A", "rank", PadCode.RANK, "A is placed 2, not 1"),
    # R20: a place no order of the unknown totals can give: 3 of 2 players
    ("R20 no such place", pad(player("A", rank=3), player("B")),
     "A", "rank", PadCode.RANK, "A cannot be placed 3: 2 players played"),
    # R22: fish 15 is only the four plain fish, and each exists once ("Every number can be right" before)
    ("R22 fish 15 twice", pad(player("A", lines={"fish": 15}), player("B", lines={"fish": 15})),
     "B", "fish", PadCode.TABLE, "A's fish 15 and B's fish 15 cannot both be right"),
    # R22: 13 is 6 + a +7 bonus fish (summer or winter), each once: a third 13 cannot be made
    ("R22 bonus fish once", pad(*(player(n, lines={"fish": 13}) for n in "ABC"), player("D", lines={"fish": 3})),
     "C", "fish", PadCode.TABLE, "A's fish 13, B's fish 13 and C's fish 13 cannot all be right"),
    # R22: the setup's Kabuki Theater (26) exists once
    ("R22 one Kabuki", pad(player("A", lines={"buildings": 26}), player("B", lines={"buildings": 26}),
                           setup=Setup(buildings=("kabuki-theater", "farmhouse", "inn", "shrine", "temple",
                                                  "tea-house"))),
     "B", "buildings", PadCode.TABLE, "A's buildings 26 and B's buildings 26 cannot both be right"),
    # R22: personalities: Hiroshige (7) and Kokan Shiba (7) on the bridge, met once each, three 7s
    ("R22 personalities", pad(*(player(n, lines={"personalities": 7}) for n in "ABC"), akebono=True,
                              setup=Setup(personalities=("hiroshige-utagawa", "kokan-shiba"),
                                          boat_sides={"ferry-boat": "A"})),
     "C", "personalities", PadCode.TABLE, "A's personalities 7, B's personalities 7 and C's personalities 7 "
                                          "cannot all be right"),
    # R22, R15: without a setup, 6 buildings are in play: 70 needs 3 of the base game's, so three 70s need 9
    ("R22 six in play", pad(*(player(n, lines={"buildings": 70}) for n in "ABC")),
     "C", "buildings", PadCode.TABLE, "A's buildings 70, B's buildings 70 and C's buildings 70 cannot all be right"),
    # the same with Akebono: 150 needs 2 of its 20 buildings, four 150s need 8
    ("R22 six in play, Akebono", pad(*(player(n, lines={"buildings": 150}) for n in "ABCD"), akebono=True),
     "D", "buildings", PadCode.TABLE, "and D's buildings 150 cannot all be right"),
    # R22, Akebono without its setup: 3 is only the Fire Watchtower or the Merchant House with 1 sandal, so three
    # players cannot each have 3 (passed before: only the count of buildings each line needs was weighed)
    ("R22 one of each, Akebono", pad(*(player(n, lines={"fish": 0, "buildings": 3}) for n in "ABC"), akebono=True),
     "C", "buildings", PadCode.TABLE, "C's buildings 3 cannot all be right: together they need more buildings (6 are "
                                      "in play, each once, at most 2 of them with an ongoing ability)"),
    # R12, R13: places 1 and 3 in a stack of two (every position typed), and place 2 for a player alone on a space
    ("R13 stack place below the stack", pad(player("A", total=90, firefighting=5, stack_place=1),
                                            player("B", total=90, firefighting=5, stack_place=3),
                                            player("C", total=80, firefighting=2)),
     "B", "stack", PadCode.STACK_TOO_LOW, "B cannot be place 3 in the stack on space 5: only 2 players are on it."),
    ("R13 stack place alone", pad(player("A", total=90, firefighting=5), player("C", total=80, firefighting=2,
                                                                                  stack_place=2)),
     "C", "stack", PadCode.STACK_TOO_LOW, "C cannot be place 2 in the stack on space 2: C is alone on it."),
    # R22: the Restaurant is the fish line: fish 3, buildings 85 with ZBD8DS7P's setup (passed before)
    ("R22 Restaurant", pad(player("A", lines={"fish": 3, "buildings": 85}), player("B"), setup=ZBD8DS7P),
     "A", "buildings", PadCode.IMPOSSIBLE, "the Restaurant scoring the fish line; nearest possible: 79"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "typed", "who", "line", "code", "words"), CAUGHT, ids=[row[0] for row in CAUGHT]
)
def test_a_pad_that_cannot_be_right_is_caught_once(
    rule: str, typed: Pad, who: str, line: str, code: PadCode, words: str
) -> None:
    (error,) = check_pad(typed).errors
    assert (error.player, error.line, error.code) == (who, line, code)
    assert words in error.message


def test_the_restaurant_example_keeps_the_fish_lines_own_values() -> None:
    """R22 with ZBD8DS7P: fish 3 makes buildings of at most 79 (Kabuki 26 + Merchant House 30 + Well 20 +
    Restaurant 3: four buildings, R13), while a fish of 15 lets 91 be made."""
    assert check_pad(pad(player("A", lines={"fish": 3, "buildings": 79}), player("B"), setup=ZBD8DS7P)).ok
    assert check_pad(pad(player("A", lines={"fish": 15, "buildings": 91}), player("B"), setup=ZBD8DS7P)).ok


def test_one_mistake_is_one_error() -> None:
    """Issue 19: a fish line typed 2 where the pad's total counts 3 was three errors (line, total, place): now
    the line is the error, the total a consequence naming it."""
    typed = pad_of(WORKED_EXAMPLE, Anaïs={"fish": 2})  # the total stays 100, Anaïs first
    check = check_pad(typed)
    assert [(e.player, e.line) for e in check.errors] == [("Anaïs", "fish")]
    (total,) = check.consequences
    assert (total.line, total.root) == ("total", "Anaïs's fish")
    assert "It follows from Anaïs's fish" in total.message


def test_a_place_that_follows_from_a_flagged_line_names_it() -> None:
    """Without totals the places come from the lines: a place off only because of a flagged line is its
    consequence, not another error."""
    lines = {**FULL, "variety": 12}  # 87, impossible variety (9 was meant: 84)
    typed = pad(player("A", lines=lines, rank=2), player("B", lines=FULL, total=84))
    check = check_pad(typed)
    assert [(e.player, e.line) for e in check.errors] == [("A", "variety")]
    (place,) = check.consequences
    assert (place.player, place.line, place.root) == ("A", "rank", "A's variety")


def test_a_total_that_no_correction_explains_stays_an_error() -> None:
    typed = pad_of(WORKED_EXAMPLE, Anaïs={"fish": 2})
    wrong = Pad(players=(PadPlayer(name="Anaïs", lines=typed.players[0].lines, total=500), typed.players[1]))
    assert {e.line for e in check_pad(wrong).errors} == {"fish", "total"}


#: R23: Ryōkan (6 if last in firefighting order) is ruled out once a known position shows the player is not last.
RYOKAN = Setup(personalities=("ryokan",), boat_sides={"ferry-boat": "A"})
NOT_LAST = [
    # another player lower on the track, a third player's position unknown
    ({"firefighting": 5}, [{"firefighting": 2}, {}]),
    # the same space, lower in its stack
    ({"firefighting": 3, "stack_place": 1}, [{"firefighting": 3, "stack_place": 2}, {}]),
]  # fmt: skip


@pytest.mark.parametrize(("mine", "others"), NOT_LAST)
def test_ryokan_is_ruled_out_once_a_player_is_surely_not_last(
    mine: dict[str, Any], others: list[dict[str, Any]]
) -> None:
    typed = pad(
        player("A", lines={"personalities": 6}, **mine),
        *(player(f"O{i}", **o) for i, o in enumerate(others)),
        akebono=True,
        setup=RYOKAN,
    )
    assert facts_of(typed, typed.players[0]).last_in_firefighting is False
    (error,) = check_pad(typed).errors
    assert (error.line, error.code) == ("personalities", PadCode.IMPOSSIBLE)
    assert "Ryōkan scores nothing (another player is below on the firefighting track)" in error.message


def test_ryokan_stays_possible_while_the_player_may_be_last() -> None:
    typed = pad(player("A", lines={"personalities": 6}, firefighting=2), player("B", firefighting=5),
                player("C"), akebono=True, setup=RYOKAN)  # fmt: skip
    assert facts_of(typed, typed.players[0]).last_in_firefighting is None
    assert check_pad(typed).ok
    assert (
        6 in possible_lines(PadFacts(akebono=True, setup=RYOKAN, last_in_firefighting=True))["personalities"]
    )


def test_a_place_no_correction_explains_stays_an_error() -> None:
    """A's variety is in doubt, but B's place 1 with 10 IKI against C's 60 is wrong whatever A's total is."""
    lines = {**FULL, "variety": 12}
    typed = pad(player("A", lines=lines), player("B", total=10, rank=1), player("C", total=60))
    check = check_pad(typed)
    assert [(e.player, e.line) for e in check.errors] == [("A", "variety"), ("B", "rank")]
    assert check.errors[1].message == "B is placed 3, not 1, with 10 IKI."


def test_buildings_across_an_akebono_table_hold_at_most_two_with_an_ongoing_ability() -> None:
    """RULINGS R13, R18: without its setup, an Akebono table holds at most 6 buildings, at most 2 of them with an
    ongoing ability; the base game has no such limit."""
    only = [[frozenset({b})] for b in ("farmhouse", "tea-house", "public-bathhouse")]
    assert not can_share(only, in_play(akebono=True))
    assert can_share(only[:2], in_play(akebono=True))
    assert can_share(only, in_play(akebono=False))
    seven = [
        [frozenset({b})]
        for b in ("inn", "shrine", "temple", "well", "storehouse", "merchant-house", "pub-izakaya")
    ]
    assert not can_share(seven, in_play(akebono=False))
    assert can_share(seven[:6], in_play(akebono=False))


def test_a_line_too_many_sets_can_make_is_left_to_the_count() -> None:
    """An Akebono line without its setup that more than AKEBONO_SETS_MOST sets of buildings make is not weighed
    set by set (nor can it accuse anyone); 0 and 3 are."""
    facts = PadFacts(akebono=True, fish=0)
    assert building_holdings(facts, 40, AKEBONO_SETS_MOST) is None
    three = building_holdings(facts, 3, AKEBONO_SETS_MOST)
    assert three is not None
    assert set(three) == {frozenset({"merchant-house"}), frozenset({"fire-watchtower"})}
    assert building_holdings(facts, 0, AKEBONO_SETS_MOST) == (frozenset(),)
