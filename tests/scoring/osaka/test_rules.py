"""The arithmetic of Traders of Osaka (scoring/osaka/rules.py) as tables of rule cases, each worked by hand.

Sources: traders-of-osaka-rulebook.txt ("A. BUY GOODS", "ADVANCING SHIPS", "PAYDAY", "INSURANCE", "VICTORY",
"PREPARATION") and RULINGS O2-O5.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.osaka import evaluate_payday
from scoring.osaka.components import COPIES, DECK, ICONS, Card, Colour
from scoring.osaka.read import read_moment, read_standings
from scoring.osaka.rules import (
    Draw,
    StartRule,
    can_buy,
    coins,
    payday,
    possible_draws,
    rank,
    round_up,
    sell,
    ship_steps,
    sink,
    start_player,
)

R, B, Y, G = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN


def test_the_components() -> None:
    """Rulebook "COMPONENTS": 108 cards, 27 per colour: 11 x "2", 9 x "3", 7 x "5"; "2" has 2 icons, "3" one, "5" none."""
    assert len(DECK) == 108
    for colour in Colour:
        cards = [c for c in DECK if c.colour is colour]
        assert len(cards) == 27
        assert [sum(1 for c in cards if c.value == v) for v in (2, 3, 5)] == [11, 9, 7]
    assert dict(COPIES) == {2: 11, 3: 9, 5: 7}
    assert dict(ICONS) == {2: 2, 3: 1, 5: 0}
    assert Card(R, 2).icons == 2 and Card(B, 5).icons == 0


# --- the sums the rulebook gives in numbers --------------------------------------------------------------------


def test_a_hand_of_2_2_3_5_is_12_coins() -> None:
    """Rulebook "A. BUY GOODS": "This hand corresponds to (2+2+3+5=) 12 coins"."""
    assert coins([2, 2, 3, 5]) == 12


@pytest.mark.parametrize(
    ("hand", "market", "ok"),
    [
        # Tan: "the remaining goods in the Market is only 5. She discards a value 5 card"
        ([5], [2, 3], True),
        # Gray "needs 18 coins to buy goods, but she does not have enough coins"
        ([5, 5, 3], [5, 5, 3, 3, 2], False),
        ([5, 5, 5, 3], [5, 5, 3, 3, 2], True),  # overpaying: "No 'change' is made"
    ],
)
def test_buying_needs_coins_worth_the_market(hand: list[int], market: list[int], ok: bool) -> None:
    assert can_buy(hand, market) is ok


@pytest.mark.parametrize(
    ("bought", "steps"),
    [
        # "Yellow Goods: Yellow ship advances 2 steps. Red Good: Red ship advances 1 step."
        ([Card(Y, 2), Card(Y, 5), Card(R, 3)], {Y: 2, R: 1}),
        # "3 Blue Goods: Blue ship advances 2 steps. 1 Green Good: Green ship advances 1 step."
        ([Card(B, 2), Card(B, 3), Card(B, 5), Card(G, 2)], {B: 2, G: 1}),
        ([Card(R, 5)], {R: 1}),
    ],
)
def test_ships_advance_one_step_for_one_good_two_for_more(
    bought: list[Card], steps: dict[Colour, int]
) -> None:
    assert ship_steps(bought) == steps


# --- one set sold (RULINGS O4) -----------------------------------------------------------------------------------

# (case, cards, tokens, points before rounding, value, VP cards from the set, from the draw pile, discarded)
SALES: list[tuple[str, list[int], int, int, int, tuple[int, ...], int, tuple[int, ...]]] = [
    ("a single 2 rounds up to 5", [2], 0, 2, 5, (2,), 0, ()),
    ("a single 5 is exactly 5", [5], 0, 5, 5, (5,), 0, ()),
    ("two 2s: 4 rounds up to 5", [2, 2], 0, 4, 5, (2,), 0, (2,)),
    ("3 and 2: 6 rounds up to 10", [3, 2], 0, 6, 10, (2, 3), 0, ()),
    ("5 and 3: exactly 10", [5, 3], 0, 10, 10, (3, 5), 0, ()),
    ("four cards, highest 3: 12 rounds up to 15", [2, 2, 3, 2], 0, 12, 15, (2, 2, 2), 0, (3,)),
    ("rounding at 10: 2 x 3 = 6 -> 10 keeps the lowest", [2, 2, 2], 0, 6, 10, (2, 2), 0, (2,)),
    ("the token bonus adds to the highest card", [5, 3, 2], 1, 18, 20, (2, 3, 5), 1, ()),
    ("tokens turn a lone 2 into 5 exactly", [2], 3, 5, 5, (2,), 0, ()),
    ("draw-pile top-up: 1 card worth 2 VPs", [5], 5, 10, 10, (5,), 1, ()),
    ("draw-pile top-up: 2 cards worth 4 VPs", [5, 5], 3, 16, 20, (5, 5), 2, ()),
    ("the lowest cards are the VPs", [5, 2, 2, 2, 2], 0, 25, 25, (2, 2, 2, 2, 5), 0, ()),
    ("many low cards, few VPs", [3, 3, 3, 3, 2, 2], 0, 18, 20, (2, 2, 3, 3), 0, (3, 3)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("cards", "tokens", "points", "value", "vp_cards", "from_pile", "discarded"),
    [c[1:] for c in SALES],
    ids=[c[0] for c in SALES],
)
def test_a_set_sold(
    cards: list[int],
    tokens: int,
    points: int,
    value: int,
    vp_cards: tuple[int, ...],
    from_pile: int,
    discarded: tuple[int, ...],
) -> None:
    sale = sell(R, cards, tokens)
    assert (sale.points, sale.value, sale.vp_cards, sale.from_pile, sale.discarded) == (
        points,
        value,
        vp_cards,
        from_pile,
        discarded,
    )
    assert sale.vp == value // 5 == len(vp_cards) + from_pile


@pytest.mark.parametrize(
    ("points", "rounded"), [(1, 5), (4, 5), (5, 5), (6, 10), (10, 10), (11, 15), (18, 20)]
)
def test_rounding_up_to_the_nearest_5_or_10(points: int, rounded: int) -> None:
    assert round_up(points) == rounded


def test_explanations_read_like_a_pad_line() -> None:
    assert sell(Y, [5, 3, 2], 1).explanation == (
        "Yellow: 3 cards, highest (5 + 1 token) × 3 = 18 → 20: 4 VP cards (take 2, 3, 5 and 1 from the draw pile)"
    )
    assert sell(R, [3, 2, 2, 2], 0).explanation == (
        "Red: 4 cards, highest 3 × 4 = 12 → 15: 3 VP cards (take 2, 2, 2; discard 3)"
    )
    assert sell(G, [5], 0).explanation == "Green: 1 card, highest 5 × 1 = 5: 1 VP card (take 5)"


# --- the Black Tide (RULINGS O3) ----------------------------------------------------------------------------------

# (case, goods, already insured, insurance cards now, insured now, lost)
SINKINGS: list[tuple[str, list[int], list[int], list[int], tuple[int, ...], tuple[int, ...]]] = [
    ("no insurance: every good is lost", [5, 3, 2], [], [], (), (5, 3, 2)),
    ('a "3" insures one good, the highest', [2, 5, 3, 2], [], [3], (5,), (3, 2, 2)),
    ('a "2" insures two goods, the highest two', [2, 5, 3, 2], [], [2], (5, 3), (2, 2)),
    ("insured goods stay insured", [5, 3, 2], [5], [], (), (3, 2)),
    ("new insurance covers the highest uninsured", [5, 3, 2, 2], [2], [3], (5,), (3, 2)),
    ("unused icons are legal", [3], [], [2], (3,), ()),
    ("everything already insured", [3, 2], [3, 2], [], (), ()),
]  # fmt: skip


@pytest.mark.parametrize(
    ("goods", "insured", "insurance", "now", "lost"), [c[1:] for c in SINKINGS], ids=[c[0] for c in SINKINGS]
)
def test_a_sinking(
    goods: list[int], insured: list[int], insurance: list[int], now: tuple[int, ...], lost: tuple[int, ...]
) -> None:
    s = sink(B, goods, insured, insurance)
    assert (s.insured_now, s.lost) == (now, lost)
    assert sorted(s.kept + s.lost) == sorted(goods)


def test_three_cards_insure_four_goods() -> None:
    """Rulebook "INSURANCE": "Blue and Red ships are sunk. The player discards these three cards to insure four goods." (the picture is
    lost: a red "2" for two red goods and two blue "3"s for two blue goods make the sum)."""
    moment = read_moment(
        {
            "arrived": ["green"],
            "sunk": ["blue", "red"],
            "players": [
                {
                    "name": "A",
                    "goods": {"green": [2], "blue": [5, 2], "red": [3, 3]},
                    "insurance": {"red": [2], "blue": [3, 3]},
                },
                {"name": "B"},
            ],
        }
    )
    (blue, red) = payday(moment).players[0].sinkings
    assert len(blue.insured_now) + len(red.insured_now) == 4
    assert blue.lost == red.lost == ()


# --- whole paydays (RULINGS O2) ----------------------------------------------------------------------------------


def _moment(arrived: list[str], sunk: list[str], *players: dict[str, Any]) -> Any:
    return read_moment({"arrived": arrived, "sunk": sunk, "players": list(players)})


def test_two_paydays_at_once_each_score_their_colour() -> None:
    result = payday(
        _moment(
            ["yellow", "red"],
            [],
            {"name": "A", "goods": {"yellow": [5, 3], "red": [2]}, "tokens": {"red": 1}},
            {"name": "B", "goods": {"red": [5, 5, 5]}},
        )
    )
    a, b = result.players
    assert result.held == (Y, R) and not result.game_over
    assert [(s.colour, s.value) for s in a.sales] == [(Y, 10), (R, 5)]
    assert a.vp == 3 and dict(a.tokens_gained.items())[Y] == 1 and a.tokens[R] == 2
    assert [(s.colour, s.value) for s in b.sales] == [(R, 15)]


def test_a_player_without_goods_of_the_colour_gains_nothing() -> None:
    result = payday(_moment(["green"], [], {"name": "A"}, {"name": "B", "goods": {"green": [2]}}))
    assert result.players[0].sales == () and result.players[0].vp == 0
    assert result.players[0].tokens_gained[G] == 0 and result.players[1].tokens_gained[G] == 1


def test_the_sinking_happens_in_the_first_payday_after_its_token_step() -> None:
    result = payday(
        _moment(
            ["red", "green"],
            ["blue"],
            {"name": "A", "goods": {"blue": [5, 3]}, "insurance": {"blue": [3]}},
            {"name": "B", "goods": {"blue": [2]}},
        )
    )
    assert result.sank == (B,)
    assert [len(p.sinkings) for p in result.players] == [1, 1]
    assert result.players[0].sinkings[0].lost == (3,)
    assert result.players[1].sinkings[0].lost == (2,)


def test_the_end_at_the_first_payday_stops_the_second_and_the_sinking() -> None:
    """Rulebook "PAYDAY": "After Step 2 of a Payday ... the game ends immediately"; RULINGS O2: nothing after it happens."""
    result = payday(
        _moment(
            ["yellow", "red"],
            ["blue"],
            {"name": "A", "goods": {"yellow": [2], "red": [5], "blue": [5]}, "tokens": {"green": 7}},
            {"name": "B", "goods": {"red": [5]}},
        )
    )
    assert result.game_over and result.ended_after is Y
    assert result.held == (Y,) and result.skipped == (R,) and result.sank == () and result.spared == (B,)
    assert result.enders == ("A",)
    assert [s.colour for s in result.players[0].sales] == [Y]
    assert result.players[1].sales == () and result.players[0].sinkings == ()
    assert result.end_sentence == (
        "The game ends after the yellow payday: A has 8 or more achievement tokens. Nothing after it happens: "
        "no red payday; the blue ship on the waves does not sink."
    )


def test_the_end_at_the_second_payday_after_the_sinking() -> None:
    result = payday(
        _moment(
            ["yellow", "red"],
            ["blue"],
            {"name": "A", "goods": {"red": [2], "blue": [5]}, "tokens": {"green": 7}},
            {"name": "B", "goods": {"red": [3]}, "tokens": {"red": 7}},
            {"name": "C", "goods": {"yellow": [5]}},
        )
    )
    assert result.ended_after is R and result.held == (Y, R) and result.skipped == ()
    assert result.sank == (B,) and result.players[0].sinkings[0].lost == (5,)
    assert result.enders == ("A", "B")
    assert (
        result.end_sentence
        == "The game ends after the red payday: A and B have 8 or more achievement tokens."
    )


def test_the_token_gained_in_a_payday_counts_for_the_end_check() -> None:
    result = payday(_moment(["green"], [], {"name": "A", "goods": {"green": [2]}, "tokens": {"red": 4, "blue": 3}},
                            {"name": "B"}))  # fmt: skip
    assert result.game_over and result.players[0].tokens[G] == 1


# --- ranking (RULINGS O5) -----------------------------------------------------------------------------------------

# (case, [(name, vp, tokens)], ranks)
RANKINGS: list[tuple[str, list[tuple[str, int, int]], list[int]]] = [
    ("most VP cards wins", [("A", 20, 1), ("B", 25, 0), ("C", 10, 8)], [2, 1, 3]),
    ("a VP tie goes to more tokens", [("A", 20, 3), ("B", 20, 5)], [2, 1]),
    ("still tied, the first place is shared", [("A", 20, 5), ("B", 20, 5), ("C", 9, 8)], [1, 1, 3]),
    ("ties at any place", [("A", 30, 1), ("B", 20, 5), ("C", 20, 6), ("D", 20, 5)], [1, 3, 2, 3]),
]  # fmt: skip


@pytest.mark.parametrize(("rows", "ranks"), [c[1:] for c in RANKINGS], ids=[c[0] for c in RANKINGS])
def test_ranking(rows: list[tuple[str, int, int]], ranks: list[int]) -> None:
    standings = read_standings({"players": [{"name": n, "vp": v, "tokens": {"red": t}} for n, v, t in rows]})
    assert [r.rank for r in rank(standings)] == ranks


def test_tie_breaks_in_words() -> None:
    standings = read_standings(
        {"players": [{"name": "Ann", "vp": 20, "tokens": {"red": 3, "blue": 2}}, {"name": "Bo", "vp": 20,
         "tokens": {"green": 8}}, {"name": "Cy", "vp": 9, "tokens": {"red": 5}}, {"name": "Di", "vp": 9,
         "tokens": {"yellow": 5}}]}
    )  # fmt: skip
    ann, bo, cy, di = rank(standings)
    assert bo.tie_break == (
        "Tied with Ann on 20 VP; more achievement tokens rank first (Bo 8, Ann 5), so Bo is 1st."
    )
    assert ann.tie_break is not None and ann.tie_break.endswith("so Ann is 2nd.")
    assert cy.tie_break == (
        'Tied with Di on 9 VP and 5 achievement tokens: they share 3rd place (rulebook "VICTORY").'
    )
    assert (cy.rank, di.rank) == (3, 3)
    solo = rank(read_standings({"players": [{"name": "A", "vp": 3}, {"name": "B", "vp": 4}]}))
    assert [r.tie_break for r in solo] == [None, None]


def test_all_tied_for_first_win_together() -> None:
    both = rank(read_standings({"players": [{"name": "A", "vp": 7}, {"name": "B", "vp": 7}]}))
    assert [r.rank for r in both] == [1, 1]
    assert both[0].tie_break == (
        'Tied with B on 7 VP and 0 achievement tokens: they win together (rulebook "VICTORY").'
    )


# --- the start player ("PREPARATION") ----------------------------------------------------------------------------


def test_possible_first_hands() -> None:
    """Drawing until 8 or more: two cards make 8 (5+3) or 10 (5+5); three or four cards make 8 to 12."""
    hands = possible_draws()
    assert {(d.total, d.cards) for d in hands if d.cards == 2} == {(8, 2), (10, 2)}
    for n in (3, 4):
        assert {d.total for d in hands if d.cards == n} == {8, 9, 10, 11, 12}
    assert max(d.cards for d in hands) == 4 and min(d.total for d in hands) == 8


# (case, draws as (total, cards), start index, what decided)
STARTS: list[tuple[str, list[tuple[int, int]], int, StartRule]] = [
    ("the smallest total starts", [(10, 2), (8, 3), (9, 3)], 1, StartRule.TOTAL),
    ("a tie on the total: the fewest cards", [(8, 4), (8, 2), (9, 3)], 1, StartRule.CARDS),
]  # fmt: skip


@pytest.mark.parametrize(("draws", "index", "rule"), [c[1:] for c in STARTS], ids=[c[0] for c in STARTS])
def test_start_player(draws: list[tuple[int, int]], index: int, rule: StartRule) -> None:
    chosen = start_player([Draw(*d) for d in draws], random.Random(0))
    assert (chosen.index, chosen.rule) == (index, rule)


def test_start_player_still_tied_is_drawn_at_random_reproducibly() -> None:
    draws = [Draw(8, 3), Draw(9, 3), Draw(8, 3), Draw(8, 3)]
    picks = {start_player(draws, random.Random(seed)).index for seed in range(40)}
    assert picks == {0, 2, 3}
    assert start_player(draws, random.Random(7)) == start_player(draws, random.Random(7))
    chosen = start_player(draws, random.Random(7))
    assert chosen.rule is StartRule.RANDOM and chosen.tied == (0, 2, 3)
    names = ["Ann", "Bo", "Cy", "Di"]
    assert chosen.explain(names, draws).endswith("was chosen at random among them.")
    assert "Ann, Cy and Di drew the same total (8) with as many cards (3)" in chosen.explain(names, draws)


def test_the_contract_example() -> None:
    """Issue 15's example: Ann sells yellow 5, 3, 2 with one yellow token: (5 + 1) x 3 = 18 -> 20: 4 VP cards,
    the three goods and one from the draw pile; her blue 2 insures the two uninsured blue goods."""
    from scoring.osaka.examples import CONTRACT_PAYDAY

    ann = evaluate_payday(CONTRACT_PAYDAY)["players"][0]
    assert ann["paydays"] == {
        "yellow": ann["paydays"]["yellow"] | {"value": 20, "vp": 4, "vp_cards": [2, 3, 5], "from_pile": 1}
    }
    assert (ann["vp"], ann["tokens_gained"]["yellow"], ann["goods_lost"]) == (4, 1, {"blue": 0})
