"""The Traders of Osaka validator (scoring/osaka/validate.py): every rule broken once, every problem at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scoring.osaka import evaluate_payday, evaluate_ranking
from scoring.osaka.read import read_moment, read_standings
from scoring.osaka.rules import payday
from scoring.osaka.validate import Code, Report, check_payday, check_played, check_ranking

Data = dict[str, Any]


def valid_payday() -> Data:
    """A legal 3-player moment: green then yellow reach Edo, red sinks."""
    return {
        "arrived": ["green", "yellow"],
        "sunk": ["red"],
        "players": [
            {"name": "Ann", "goods": {"green": [5, 2], "red": [3, 2]}, "tokens": {"green": 1, "blue": 2},
             "insured": {"red": [3]}, "insurance": {"red": [3]}},
            {"name": "Bo", "goods": {"yellow": [2, 2, 2], "red": [5]}, "tokens": {"yellow": 3}},
            {"name": "Cy", "goods": {"green": [3]}, "tokens": {"red": 1}},
        ],
    }  # fmt: skip


def valid_ranking() -> Data:
    return {
        "players": [
            {"name": "Ann", "vp": 21, "tokens": {"red": 3, "green": 5}},
            {"name": "Bo", "vp": 19, "tokens": {"yellow": 4}},
        ]
    }


def report_of(data: Data) -> Report:
    if "arrived" in data:
        moment = read_moment(data)
        report = check_payday(moment)
        if report.valid:
            return Report(report.errors, report.warnings + check_played(moment, payday(moment)).warnings)
        return report
    return check_ranking(read_standings(data))


def test_the_valid_inputs_are_valid() -> None:
    assert report_of(valid_payday()) == Report((), ())
    assert report_of(valid_ranking()) == Report((), ())


def player(i: int, **changes: Any) -> Callable[[Data], None]:
    def change(d: Data) -> None:
        d["players"][i].update(changes)

    return change


def top(**changes: Any) -> Callable[[Data], None]:
    def change(d: Data) -> None:
        d.update(changes)

    return change


def every_player(**changes: Any) -> Callable[[Data], None]:
    def change(d: Data) -> None:
        for p in d["players"]:
            p.update(changes)

    return change


def ranking(change: Callable[[Data], None]) -> Callable[[Data], None]:
    """A change to the valid ranking instead of the valid payday."""

    def whole(d: Data) -> None:
        d.clear()
        d.update(valid_ranking())
        change(d)

    return whole


# (case, change to the valid payday or ranking, code, player, field): each rule broken once.
CASES: list[tuple[str, Callable[[Data], None], Code, str | None, str]] = [
    ("a colour arriving and sinking", top(sunk=["red", "yellow"]), Code.ARRIVING_AND_SINKING, None, "sunk[1]"),
    ('twelve red "2" goods', player(2, goods={"green": [3], "red": [2] * 11}), Code.OVER_SUPPLY, "Cy",
     "players[2].goods.red[10]"),
    ('a twelfth red "2" as an insurance card', player(2, goods={"green": [3], "red": [2] * 10},
     insurance={"red": [2]}), Code.OVER_SUPPLY, "Cy", "players[2].insurance.red[0]"),
    ("insured goods not among the goods", player(0, insured={"red": [5]}), Code.INSURED_NOT_HELD, "Ann",
     "players[0].insured.red"),
    ("insured twice as many as held", player(0, insured={"red": [3, 3]}), Code.INSURED_NOT_HELD, "Ann",
     "players[0].insured.red"),
    ("insurance for a colour that is not sinking", player(1, insurance={"yellow": [2]}), Code.INSURANCE_NOT_SINKING,
     "Bo", "players[1].insurance.yellow"),
    ('insurance with a "5"', player(1, insurance={"red": [5]}), Code.INSURANCE_WITHOUT_ICONS, "Bo",
     "players[1].insurance.red[0]"),
    ("a player already holding 8 tokens", player(2, tokens={"red": 5, "blue": 3}), Code.GAME_ALREADY_OVER, "Cy",
     "players[2].tokens"),
    ("negative tokens", player(1, tokens={"yellow": -1}), Code.NEGATIVE, "Bo", "players[1].tokens.yellow"),
    # warnings
    ("a spare insurance card", player(0, insurance={"red": [3, 2]}), Code.SPARE_INSURANCE, "Ann",
     "players[0].insurance.red"),
    ("more green tokens than the stock", every_player(tokens={"green": 5}), Code.TOKEN_SUBSTITUTE, None, "players"),
    # the ranking
    ("negative VP cards", ranking(player(1, vp=-2)), Code.NEGATIVE, "Bo", "players[1].vp"),
    ("more VP cards than cards", ranking(player(1, vp=90)), Code.OVER_SUPPLY, None, "players"),
    # RULINGS O7: a ninth token is an error in the ranking as in a payday (a warning before, deciding a tie)
    ("9 tokens", ranking(player(0, tokens={"red": 9})), Code.TOKENS_PAST_END, "Ann", "players[0].tokens"),
    ("no one reached 8 tokens", ranking(player(0, tokens={"red": 7})), Code.NOT_ENDED, None, "players"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "code", "who", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_rule_broken_once(
    change: Callable[[Data], None], code: Code, who: str | None, field: str
) -> None:
    data = valid_payday()
    change(data)
    report = report_of(data)
    found = [p for p in (*report.errors, *report.warnings) if p.code is code]
    assert found, f"expected {code.value}, got {[p.code.value for p in (*report.errors, *report.warnings)]}"
    assert (found[0].player, found[0].field) == (who, field)
    assert found[0].message and found[0].message[-1] in ".)"
    others = [p.code for p in (*report.errors, *report.warnings) if p.code is not code]
    assert not others, f"breaking one rule reported others too: {others}"


def test_every_code_is_tested() -> None:
    assert {c[2] for c in CASES} == set(Code)


def test_every_problem_is_reported_at_once() -> None:
    data = valid_payday()
    for change in (top(sunk=["red", "green"]), player(0, insured={"red": [5]}), player(1, insurance={"blue": [5]}),
                   player(2, tokens={"red": 8})):  # fmt: skip
        change(data)
    answer = evaluate_payday(data)
    assert not answer["valid"] and "players" not in answer
    codes = {e["code"] for e in answer["errors"]}
    assert codes == {"arriving-and-sinking", "insured-not-held", "insurance-not-sinking", "insurance-without-icons",
                     "game-already-over"}  # fmt: skip


def test_errors_withhold_the_payday_warnings_do_not() -> None:
    data = valid_payday()
    player(0, insurance={"red": [3, 2]})(data)
    answer = evaluate_payday(data)
    assert answer["valid"] and answer["warnings"] and answer["players"]
    data = valid_ranking()
    player(1, vp=-1)(data)
    answer = evaluate_ranking(data)
    assert not answer["valid"] and "players" not in answer and "winners" not in answer


def test_messages_name_the_cards_and_cite_the_rules() -> None:
    data = valid_payday()
    player(1, insurance={"red": [5]})(data)
    (problem,) = report_of(data).errors
    assert problem.message == (
        'A "5" card has no insurance icon and insures nothing: only "2" (2 icons) and "3" (1 icon) cards insure.'
    )


def test_goods_of_other_colours_count_for_the_supply_only() -> None:
    """Goods of a colour neither arriving nor sinking stay with the player; they still count against the supply."""
    data = valid_payday()
    player(2, goods={"green": [3], "blue": [5] * 7})(data)
    assert report_of(data) == Report((), ())
    player(1, goods={"yellow": [2], "blue": [5]})(data)
    assert [p.code for p in report_of(data).errors] == [Code.OVER_SUPPLY]


def test_a_ninth_token_is_an_error_in_the_ranking() -> None:
    """RULINGS O7: impossible (1 at the start, at most 1 a payday, the game ends at 8), so it never breaks a tie."""
    data = valid_ranking()
    data["players"][0]["tokens"] = {"red": 9}
    report = report_of(data)
    assert [p.code for p in report.errors] == [Code.TOKENS_PAST_END]
    assert not report.valid
