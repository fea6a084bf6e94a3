"""Properties of the Traders of Osaka core (hypothesis): VP cards x 5 is the rounded value, insured goods are never
lost, tokens never go down, the end comes exactly when a player reaches 8; any JSON is answered or refused cleanly."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.errors import InputError
from scoring.osaka import evaluate_payday, evaluate_ranking
from scoring.osaka.components import COLOURS, END_TOKENS, ICONS
from scoring.osaka.read import read_moment
from scoring.osaka.rules import Draw, payday, possible_draws, sell, sink, start_player, total
from scoring.osaka.validate import check_payday

values = st.sampled_from([2, 3, 5])
cards = st.lists(values, min_size=1, max_size=12)
colours = st.sampled_from([c.value for c in COLOURS])


@given(cards, st.integers(0, 7))
def test_vp_cards_times_5_is_the_rounded_value(set_: list[int], tokens: int) -> None:
    sale = sell(COLOURS[0], set_, tokens)
    assert (len(sale.vp_cards) + sale.from_pile) * 5 == sale.value
    assert sale.value % 5 == 0 and 0 <= sale.value - sale.points < 5
    assert sale.points == (max(set_) + tokens) * len(set_)
    assert sorted(sale.vp_cards + sale.discarded) == sorted(set_)
    assert all(v <= w for v in sale.vp_cards for w in sale.discarded)  # the lowest cards are the VPs


@given(st.lists(values, max_size=10), st.data())
def test_insured_goods_are_never_lost(goods: list[int], data: st.DataObject) -> None:
    insured = data.draw(st.lists(st.sampled_from(goods), max_size=len(goods)) if goods else st.just([]))
    left = Counter(goods)
    insured = [v for v in insured if left[v] > 0 and not left.subtract([v])]  # a sub-multiset of the goods
    insurance = data.draw(st.lists(st.sampled_from([2, 3]), max_size=4))
    s = sink(COLOURS[1], goods, insured, insurance)
    assert not Counter(insured) - Counter(s.kept)  # every good insured before is kept
    assert sorted(s.kept + s.lost) == sorted(goods)
    icons = sum(ICONS[v] for v in insurance)
    assert len(s.insured_now) == min(icons, len(goods) - len(insured))
    assert all(v >= w for v in s.insured_now for w in s.lost)  # the highest goods are insured first


@st.composite
def legal_moment(draw: st.DrawFn) -> dict[str, Any]:
    order = draw(st.permutations([c.value for c in COLOURS]))
    n_arrived = draw(st.integers(1, 4))
    arrived, rest = order[:n_arrived], order[n_arrived:]
    sunk = rest[: draw(st.integers(0, len(rest)))]
    players = []
    for name in ["Ann", "Bo", "Cy", "Di"][: draw(st.integers(2, 4))]:
        goods = {c: draw(st.lists(values, max_size=3)) for c in draw(st.lists(colours, unique=True))}
        tokens = {c: draw(st.integers(0, 2)) for c in draw(st.lists(colours, unique=True, max_size=3))}
        insured = {c: g[: draw(st.integers(0, len(g)))] for c, g in goods.items() if draw(st.booleans())}
        insurance = {
            c: draw(st.lists(st.sampled_from([2, 3]), max_size=2)) for c in sunk if draw(st.booleans())
        }
        players.append(
            {"name": name, "goods": goods, "tokens": tokens, "insured": insured, "insurance": insurance}
        )
    return {"arrived": arrived, "sunk": sunk, "players": players}


@settings(max_examples=200)
@given(legal_moment())
def test_a_legal_payday_is_played_consistently(data: dict[str, Any]) -> None:
    moment = read_moment(data)
    report = check_payday(moment)
    assume(
        report.valid
    )  # the only error the strategy can make: over the supply (four players' "2"s of a colour)
    result = payday(moment)
    for before, after in zip(moment.players, result.players, strict=True):
        for c in COLOURS:
            assert after.tokens[c] == before.tokens[c] + after.tokens_gained[c] >= before.tokens[c]
        assert after.vp == sum(s.vp for s in after.sales)
        for s in after.sinkings:  # insured goods are never lost
            assert not Counter(before.insured[s.colour]) - Counter(s.kept)
    reached = [total(p.tokens) >= END_TOKENS for p in result.players]
    assert result.game_over is any(reached)
    if result.game_over:
        assert result.end_sentence and set(result.enders) == {
            p.name for p, r in zip(result.players, reached, strict=True) if r
        }
    assert result.held + result.skipped == moment.arrived
    assert bool(result.sank) is (bool(moment.sunk) and result.ended_after is not moment.arrived[0])
    answer = evaluate_payday(data)
    assert answer["valid"] and len(answer["players"]) == len(data["players"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=6) | colours,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "goods", "tokens", "insured", "insurance", "vp", "red", "blue", "x"]), inner,
        max_size=4),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {}, optional={"arrived": json_values | st.lists(colours, max_size=3), "sunk": json_values,
                      "players": json_values | st.lists(json_values, min_size=2, max_size=4)}
    ) | json_values
)  # fmt: skip
def test_any_json_is_answered_or_refused_cleanly(data: Any) -> None:
    for evaluate in (evaluate_payday, evaluate_ranking):
        try:
            answer = evaluate(data)
        except InputError as exc:
            refused: InputError | None = exc
        else:
            refused = None
            assert isinstance(answer["valid"], bool)
        assert refused is None or (refused.message and refused.code)


@given(st.lists(st.sampled_from(sorted(possible_draws(), key=lambda d: (d.total, d.cards))), min_size=2,
                max_size=4), st.integers(0, 2**32))  # fmt: skip
def test_the_start_player_drew_the_least(draws: list[Draw], seed: int) -> None:
    chosen = start_player(draws, random.Random(seed))
    mine = draws[chosen.index]
    assert all((mine.total, mine.cards) <= (d.total, d.cards) for d in draws)
    assert chosen == start_player(draws, random.Random(seed))
