"""The validator (RULINGS R13 errors, R14 warnings): every rule broken once, every problem reported at once."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from scoring import evaluate
from scoring.table import StackPlace, read_table, stack_places
from scoring.table import Table as ReadTable
from scoring.validate import INCOMPLETE_CODES, Code, Problem, Severity, validate

Table = dict[str, Any]


def valid_table() -> Table:
    """A legal 3-player Akebono table with a known setup."""
    return {
        "expansions": ["akebono"],
        "setup": {
            "buildings": ["inn", "restaurant", "farmhouse", "temple", "kimono-shop", "well"],
            "personalities": [
                "sanyo-rai",
                "nezumi-kozo",
                "hiroshige-utagawa",
                "saiko-ema",
                "ryokan",
                "tadataka-ino",
                "kokan-shiba",
                "gennai-hiraga",
            ],
            "boat_sides": {"ferry-boat": "A", "taxi-boat": "B"},
        },
        "players": [
            {
                "name": "Anaïs",
                "score_track": 41,
                "characters": ["salt-peddler", "monk", "puppeteer", "dice-maker", "doctor", "yamabushi"],
                "wild_types": {"puppeteer": "artisan"},
                "retirement_tokens": ["puppeteer", "hire-discount", "doctor", "fire-protection"],
                "buildings": ["inn", "restaurant"],
                "fish": ["fish-spring-bonus", "fish-summer-akebono"],
                "pipes": ["pipe-spring-1"],
                "tobacco": ["tobacco-winter-1"],
                "boats": ["taxi-boat"],
                "personalities": ["hiroshige-utagawa"],
                "mon": 9,
                "koban": 1,
                "wood": 2,
                "rice": 1,
                "sandals": 2,
                "firefighting": 7,
                "trade": 4,
            },
            {
                "name": "David",
                "score_track": 52,
                "characters": ["cotton-peddler", "fisherman", "policeman", "mounted-samurai", "any-artisan"],
                "wild_types": {"mounted-samurai": "special"},
                "fish": ["fish-fisherman", "fish-winter"],
                "tobacco": ["tobacco-policeman"],
                "buildings": ["temple"],
                "boats": ["ferry-boat", "shop-boat"],
                "personalities": ["ryokan"],
                "mon": 1,
                "firefighting": 2,
                "trade": 6,
            },
            {"name": "Dominique", "characters": ["wood-seller"], "firefighting": 4, "mon": 12},
        ],
    }


def test_the_valid_table_is_valid() -> None:
    report = validate(read_table(valid_table()))
    assert report.errors == ()
    assert report.warnings == ()


def player(i: int, **changes: Any) -> Callable[[Table], None]:
    def change(t: Table) -> None:
        t["players"][i].update(changes)

    return change


def add(i: int, key: str, *items: str) -> Callable[[Table], None]:
    def change(t: Table) -> None:
        t["players"][i].setdefault(key, []).extend(items)

    return change


def top(**changes: Any) -> Callable[[Table], None]:
    def change(t: Table) -> None:
        t.update(changes)

    return change


def in_setup(**changes: Any) -> Callable[[Table], None]:
    def change(t: Table) -> None:
        t["setup"].update(changes)

    return change


def base_game(t: Table) -> None:
    t["expansions"] = []
    del t["setup"]
    for p in t["players"]:
        for key in ("boats", "personalities"):
            p.pop(key, None)
        p["trade"] = 0
    t["players"][0]["characters"] = ["salt-peddler", "monk"]
    t["players"][0]["retirement_tokens"] = ["hire-discount"]
    t["players"][0]["wild_types"] = {}
    t["players"][0]["fish"] = ["fish-spring-bonus"]
    t["players"][1] = {"name": "David", "characters": ["cotton-peddler"], "firefighting": 2}
    t["players"][2] = {"name": "Dominique", "characters": ["eyeglass-peddler"], "firefighting": 4}


def not_in_setup(key: str) -> Callable[[Table], None]:
    """The setup does not list ``key`` (buildings or personalities): RULINGS R13 "without a given setup"."""

    def change(t: Table) -> None:
        del t["setup"][key]

    return change


@dataclass(frozen=True)
class OnRead:
    """A change to the table as read, for what its JSON cannot say: two markers given one place in a stack, as
    the walk-through's stack entries can (``scoring.table.stack_places``)."""

    before: Callable[[Table], None]
    change: Callable[[ReadTable], ReadTable]


def ranks(before: Callable[[Table], None], **rank: int) -> OnRead:
    """The walk-through's stack entries after ``before``: each player's rank in its space's stack, 0 = top."""
    return OnRead(before, lambda t: replace(t, stacks=stack_places(t.players, rank)))


def then(*changes: Callable[[Table], None]) -> Callable[[Table], None]:
    def change(t: Table) -> None:
        for c in changes:
            c(t)

    return change


# Codes that necessarily come with another: a token beyond the supply also lacks its source card, since every
# source card is unique (RULINGS R13).
COMES_WITH = {Code.OVER_SUPPLY: {Code.TOKEN_WITHOUT_SOURCE}}

# (case, change to the valid table, code, player, field) — each R13/R14 rule broken once.
CASES: list[tuple[str, Callable[[Table], None] | OnRead, Code, str | None, str]] = [
    ("one player", lambda t: t.update(players=t["players"][:1]), Code.PLAYER_COUNT, None, "players"),
    ("five players", lambda t: t["players"].extend([{"name": "E"}, {"name": "F"}]), Code.PLAYER_COUNT, None, "players"),
    ("same name twice", player(2, name="anaïs"), Code.DUPLICATE_NAME, "anaïs", "players[2].name"),
    ("Akebono card in a base game", then(base_game, add(1, "characters", "doctor")), Code.NOT_IN_GAME, "David",
     "players[1].characters[1]"),
    ("Akebono building in a base game", then(base_game, add(1, "buildings", "temple")), Code.NOT_IN_GAME, "David",
     "players[1].buildings[0]"),
    ("trade track in a base game", then(base_game, player(1, trade=2)), Code.NOT_IN_GAME, "David", "players[1].trade"),
    ("boat in a base game", then(base_game, add(1, "boats", "taxi-boat")), Code.NOT_IN_GAME, "David",
     "players[1].boats[0]"),
    # RULINGS R13 "a component not in the selected edition/expansions": the setup's own components too
    ("an Akebono building in a base game's setup", then(base_game, top(setup={"buildings": ["inn", "restaurant",
     "farmhouse", "temple", "kimono-shop", "well"]})), Code.NOT_IN_GAME, None, "setup.buildings[3]"),
    ("an Akebono personality in a base game's setup", then(base_game, top(setup={"personalities": ["sanyo-rai",
     "nezumi-kozo", "hiroshige-utagawa", "saiko-ema", "ryokan", "tadataka-ino", "kokan-shiba", "gennai-hiraga"]})),
     Code.NOT_IN_GAME, None, "setup.personalities[0]"),
    ("a card held by two players", add(2, "characters", "monk"), Code.DUPLICATE_COMPONENT, "Dominique",
     "players[2].characters[1]"),
    ("a card listed twice", add(0, "characters", "dice-maker"), Code.DUPLICATE_COMPONENT, "Anaïs",
     "players[0].characters[6]"),
    ("a building held by two players", add(2, "buildings", "inn"), Code.DUPLICATE_COMPONENT, "Dominique",
     "players[2].buildings[0]"),
    ("a token held by two players", add(2, "pipes", "pipe-spring-1"), Code.DUPLICATE_COMPONENT, "Dominique",
     "players[2].pipes[0]"),
    ("a personality held by two players", add(2, "personalities", "hiroshige-utagawa"), Code.DUPLICATE_COMPONENT,
     "Dominique", "players[2].personalities[0]"),
    ("a boat held by two players", add(2, "boats", "taxi-boat"), Code.DUPLICATE_COMPONENT, "Dominique",
     "players[2].boats[0]"),
    ("a third Avoid-a-Fire token", then(add(2, "characters", "shrine-maiden"), add(2, "retirement_tokens",
     "fire-protection", "fire-protection")), Code.OVER_SUPPLY, "Dominique", "players[2].retirement_tokens[1]"),
    ("more artisans than printed", add(2, "characters", *["any-artisan"] * 18), Code.OVER_SUPPLY, "Dominique",
     "players[2].characters[18]"),
    ("a building not in the setup", add(2, "buildings", "shrine"), Code.NOT_IN_SETUP, "Dominique",
     "players[2].buildings[0]"),
    ("a personality not on the bridge", add(2, "personalities", "oi-katsushika"), Code.NOT_IN_SETUP, "Dominique",
     "players[2].personalities[0]"),
    # issue 11 item 4: the Ferry boat on side B opens nothing when nobody built it (Akebono "Activate a Boat")
    ("a personality off the bridge, the Ferry on side B but not built", then(in_setup(boat_sides={"ferry-boat": "B"}),
     player(1, boats=["shop-boat"]), add(2, "personalities", "oi-katsushika")), Code.NOT_IN_SETUP, "Dominique",
     "players[2].personalities[0]"),
    # issue 11 item 5: RULINGS R13 without a setup listing the buildings
    ("7 different buildings at the table", then(not_in_setup("buildings"), add(2, "buildings", "shrine",
     "kabuki-theater", "well", "merchant-house")), Code.BUILDINGS_IN_PLAY, "Dominique", "players[2].buildings[3]"),
    ("3 buildings with an ongoing ability (Akebono)", then(not_in_setup("buildings"), add(2, "buildings",
     "farmhouse", "tea-house", "public-bathhouse")), Code.ONGOING_BUILDINGS_IN_PLAY, "Dominique",
     "players[2].buildings[2]"),
    # issue 11 item 6: RULINGS R13 without a setup listing the personalities, the Ferry on side A
    ("3 spring personalities met", then(not_in_setup("personalities"), add(2, "personalities", "sanyo-rai",
     "nezumi-kozo", "juzaburo-tsutaya")), Code.PERSONALITIES_IN_PLAY, "Dominique", "players[2].personalities[2]"),
    ("setup with 5 buildings", in_setup(buildings=["inn", "restaurant", "farmhouse", "temple", "well"]),
     Code.SETUP_BUILDINGS, None, "setup.buildings"),
    ("setup repeating a building", in_setup(buildings=["inn", "inn", "restaurant", "farmhouse", "temple", "well"]),
     Code.SETUP_BUILDINGS, None, "setup.buildings"),
    ("setup with 3 ongoing buildings (Akebono)", in_setup(buildings=["inn", "restaurant", "farmhouse", "temple",
     "tea-house", "public-bathhouse"]), Code.SETUP_ONGOING, None, "setup.buildings"),
    ("setup with 3 spring personalities", in_setup(personalities=["sanyo-rai", "nezumi-kozo", "ryotaku-maeno",
     "hiroshige-utagawa", "saiko-ema", "ryokan", "tadataka-ino", "gennai-hiraga"]), Code.SETUP_PERSONALITIES, None,
     "setup.personalities"),
    ("a side for the tea boat", in_setup(boat_sides={"tea-boat": "A"}), Code.SETUP_BOAT_SIDE, None,
     "setup.boat_sides.tea-boat"),
    ("two fish of one season", add(2, "fish", "fish-spring", "fish-spring-akebono"), Code.FISH_SAME_SEASON,
     "Dominique", "players[2].fish[1]"),
    ("three winter fish", then(player(1, fish=["fish-fisherman"]), add(2, "fish", "fish-winter", "fish-winter-bonus",
     "fish-winter-akebono")), Code.FISH_SAME_SEASON, "Dominique", "players[2].fish[2]"),
    ("five fish", then(player(0, fish=["fish-spring", "fish-summer", "fish-autumn", "fish-winter", "fish-fisherman"]),
          player(1, fish=["fish-winter-bonus"]), add(0, "characters", "fisherman"), player(1, characters=[
              "cotton-peddler", "policeman", "mounted-samurai", "any-artisan"])),
     Code.TOO_MANY_FISH, "Anaïs", "players[0].fish"),
    ("three boats", add(0, "boats", "houseboat", "wandering-boat"), Code.TOO_MANY_BOATS, "Anaïs", "players[0].boats"),
    ("the tea boat built", add(2, "boats", "tea-boat"), Code.BOAT_NOT_BUILDABLE, "Dominique", "players[2].boats[0]"),
    ("five buildings", add(0, "buildings", "farmhouse", "well", "kimono-shop"), Code.TOO_MANY_BUILDINGS, "Anaïs",
     "players[0].buildings"),
    ("two starting characters", add(2, "characters", "eyeglass-peddler"), Code.STARTING_CHARACTERS, "Dominique",
     "players[2].characters"),
    ("Joker without the Puppeteer", player(0, characters=["salt-peddler", "monk", "dice-maker", "doctor",
     "yamabushi"], wild_types={}), Code.TOKEN_WITHOUT_SOURCE, "Anaïs", "players[0].retirement_tokens[0]"),
    ("Hire -1 without the Monk", player(0, characters=["salt-peddler", "puppeteer", "dice-maker", "doctor",
     "yamabushi"]), Code.TOKEN_WITHOUT_SOURCE, "Anaïs", "players[0].retirement_tokens[1]"),
    ("two Avoid-a-Fire tokens with only the Yamabushi", add(0, "retirement_tokens", "fire-protection"),
     Code.TOKEN_WITHOUT_SOURCE, "Anaïs", "players[0].retirement_tokens[3]"),
    ("Doctor token without Doctor or Genpaku Sugita", add(2, "retirement_tokens", "doctor"),
     Code.TOKEN_WITHOUT_SOURCE, "Dominique", "players[2].retirement_tokens[0]"),
    ("Fisherman token without the Fisherman", then(player(1, fish=["fish-winter"]), add(2, "fish", "fish-fisherman")), Code.TOKEN_WITHOUT_SOURCE, "Dominique",
     "players[2].fish[0]"),
    ("Policeman token without the Policeman", then(player(1, tobacco=[]), add(2, "tobacco", "tobacco-policeman")),
     Code.TOKEN_WITHOUT_SOURCE, "Dominique", "players[2].tobacco[0]"),
    ("a chosen type for a printed card", player(2, wild_types={"wood-seller": "artisan"}), Code.WILD_TYPE_NOT_WILD,
     "Dominique", "players[2].wild_types.wood-seller"),
    ("a chosen type for an unretired Puppeteer", player(0, retirement_tokens=["hire-discount", "doctor",
     "fire-protection"]), Code.WILD_TYPE_NOT_WILD, "Anaïs", "players[0].wild_types.puppeteer"),
    ("a chosen type for a card not held", player(2, wild_types={"rice-broker": "artisan"}), Code.WILD_TYPE_NOT_HELD,
     "Dominique", "players[2].wild_types.rice-broker"),
    ("negative mon", player(2, mon=-1), Code.NEGATIVE, "Dominique", "players[2].mon"),
    ("negative score track", player(2, score_track=-3), Code.NEGATIVE, "Dominique", "players[2].score_track"),
    ("firefighting 11", player(2, firefighting=11), Code.TRACK_RANGE, "Dominique", "players[2].firefighting"),
    ("trade 11", player(2, trade=11), Code.TRACK_RANGE, "Dominique", "players[2].trade"),
    # issue 11 items 2-3: RULINGS R13, a marker never moves down (Monk, Dice Maker, Doctor, Spring pipe 1: +4)
    ("firefighting below the printed gains", player(0, firefighting=3), Code.FIREFIGHTING_BELOW_GAINS, "Anaïs",
     "players[0].firefighting"),
    ("trade below the printed gains", then(add(2, "characters", "drug-store"), add(2, "pipes", "pipe-autumn-akebono")),
     Code.TRADE_BELOW_GAINS, "Dominique", "players[2].trade"),
    ("order against the positions", top(firefighting_order=["David", "Anaïs", "Dominique"]), Code.FIREFIGHTING_ORDER,
     None, "firefighting_order"),
    ("order missing a player", top(firefighting_order=["Anaïs", "Dominique"]), Code.FIREFIGHTING_ORDER, None,
     "firefighting_order"),
    ("order naming a stranger", top(firefighting_order=["Anaïs", "Dominique", "Zoé"]), Code.FIREFIGHTING_ORDER, None,
     "firefighting_order"),
    # RULINGS R12 "all players by position": each once
    ("order listing a player twice", top(firefighting_order=["Anaïs", "David", "Dominique", "David"]),
     Code.FIREFIGHTING_ORDER, None, "firefighting_order"),
    # issue 10 item 6: RULINGS R12 stacks, space by space
    ("a stack naming a player of another space", top(stacks={"4": ["Anaïs"]}), Code.STACK_ORDER, "Anaïs",
     "stacks.4[0]"),
    ("a stack naming a stranger", then(player(2, firefighting=2), top(stacks={"2": ["David", "Zoé"]})),
     Code.STACK_ORDER, None, "stacks.2[1]"),
    ("a stack against the firefighting order", then(player(2, firefighting=2), top(
     firefighting_order=["Anaïs", "David", "Dominique"], stacks={"2": ["Dominique", "David"]})), Code.STACK_ORDER,
     None, "stacks.2"),
    # RULINGS R12/R13: a marker has one place in one stack
    ("a player twice in one stack", then(player(2, firefighting=2), top(stacks={"2": ["David", "Dominique",
     "David"]})), Code.STACK_ORDER, "David", "stacks.2[2]"),
    ("two markers in one place of a stack", ranks(player(2, firefighting=2), David=0, Dominique=0),
     Code.STACK_PLACE_TAKEN, "Dominique", "stacks.2[1]"),
    # RULINGS R13 as amended: incomplete, not impossible (warnings; the table is scored)
    ("a wild card without its type", player(1, wild_types={}), Code.WILD_TYPE_MISSING, "David",
     "players[1].characters[3]"),
    ("Ryokan tied for last without an order", player(2, firefighting=2), Code.FIREFIGHTING_ORDER_NEEDED, "David",
     "firefighting_order"),
    ("a tie on one space without its stack", player(2, firefighting=7, score_track=89),
     Code.FIREFIGHTING_ORDER_NEEDED, None, "stacks.7"),
    ("a stack giving one place of two", then(player(2, firefighting=2), top(stacks={"2": ["Dominique"]})),
     Code.STACK_INCOMPLETE, None, "stacks.2"),
    # R14 warnings
    ("two winter fish (one on New Year's Day)", add(2, "fish", "fish-winter-bonus", "fish-winter-akebono"),
     Code.TWO_WINTER_FISH, "Dominique", "players[2].fish[1]"),
    ("both New Characters of month 2", add(2, "characters", "express-messenger"), Code.NEW_CHARACTER_PAIR,
     "Dominique", "players[2].characters"),
    ("more characters than one player can keep", then(in_setup(boat_sides={"ferry-boat": "B"}), add(2, "characters",
     *["any-street-peddler"] * 15)), Code.TOO_MANY_CHARACTERS, "Dominique", "players[2].characters"),
    ("score track over 150", player(2, score_track=151), Code.HIGH_SCORE_TRACK, "Dominique",
     "players[2].score_track"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "code", "who", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_rule_broken_once(
    change: Callable[[Table], None] | OnRead, code: Code, who: str | None, field: str
) -> None:
    table = valid_table()
    if isinstance(change, OnRead):
        change.before(table)
        report = validate(change.change(read_table(table)))
    else:
        change(table)
        report = validate(read_table(table))
    found = [p for p in (*report.errors, *report.warnings) if p.code is code]
    assert found, f"expected {code.value}, got {[p.code.value for p in (*report.errors, *report.warnings)]}"
    assert (found[0].player, found[0].field) == (who, field)
    assert found[0].message and found[0].message[-1] in ".)"
    others = [p.code for p in report.errors if p.code is not code and p.code not in COMES_WITH.get(code, ())]
    assert not others, f"breaking one rule reported others too: {others}"


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("order listing a player twice", "must list every player once: a player is listed twice."),
        ("a player twice in one stack", "David is given two places in the stacks; a marker has one."),
    ],
)
def test_a_repetition_is_said_as_one(case: str, words: str) -> None:
    """RULINGS R12: the order and the stacks name each player once. A repetition is its own check, beside a
    stranger's or a missing player's, and says so (the rows of CASES above break it)."""
    (change,) = [c[1] for c in CASES if c[0] == case]
    table = valid_table()
    assert callable(change)
    change(table)
    assert validate(read_table(table)).errors[0].message.endswith(words)


def test_every_code_is_tested() -> None:
    assert {c[2] for c in CASES} == set(Code)


def test_every_problem_is_reported_at_once() -> None:
    table = valid_table()
    for change in (player(2, mon=-1), add(2, "boats", "tea-boat"), add(2, "fish", "fish-spring", "fish-spring-akebono"),
                   player(0, firefighting=12), add(1, "buildings", "inn")):  # fmt: skip
        change(table)
    codes = [p.code for p in validate(read_table(table)).errors]
    assert set(codes) >= {Code.NEGATIVE, Code.BOAT_NOT_BUILDABLE, Code.FISH_SAME_SEASON, Code.TRACK_RANGE,
                          Code.DUPLICATE_COMPONENT}  # fmt: skip


def test_errors_withhold_scores_warnings_do_not() -> None:
    table = valid_table()
    add(2, "characters", "express-messenger")(table)
    answer = evaluate(table)
    assert answer["valid"] and answer["warnings"] and "players" in answer
    player(2, mon=-1)(table)
    answer = evaluate(table)
    assert not answer["valid"] and "players" not in answer


def test_messages_name_the_cards() -> None:
    table = valid_table()
    add(2, "characters", "monk")(table)
    (problem,) = validate(read_table(table)).errors
    assert problem.message == "Monk is held by Anaïs and Dominique; there is only one."


@pytest.mark.parametrize(
    ("sides", "built", "ok"),
    [
        ({"ferry-boat": "B"}, True, True),
        ({"ferry-boat": "A"}, True, False),
        ({}, True, True),  # issue 11 item 1: the side not recorded is not side A
        ({"ferry-boat": "B"}, False, False),  # issue 11 item 4: nobody built it
        ({}, False, False),
    ],
)
def test_a_built_ferry_on_side_b_or_unknown_opens_the_season_pool(
    sides: dict[str, str], built: bool, ok: bool
) -> None:
    """RULINGS R13 (Akebono "Activate a Boat": any player may activate any built Boat, none on the riverbank;
    the Ferry's side B meets "a Personality from the current season that is not on the Nihonbashi bridge"): a
    personality off the bridge is legal for every player, Dominique too, once David built the Ferry."""
    table = valid_table()
    table["setup"]["boat_sides"] = sides
    if not built:
        player(1, boats=["shop-boat"])(table)
    add(2, "personalities", "oi-katsushika")(table)
    codes = {p.code for p in validate(read_table(table)).errors}
    assert (Code.NOT_IN_SETUP not in codes) is ok


@pytest.mark.parametrize(
    ("sides", "built", "ok"),
    [
        ({}, True, True),
        ({"ferry-boat": "B"}, True, True),
        ({"ferry-boat": "A"}, True, False),
        ({}, False, False),
    ],
)
def test_three_personalities_of_a_season_need_the_ferry_on_side_b(
    sides: dict[str, str], built: bool, ok: bool
) -> None:
    """RULINGS R13 without a setup listing the personalities (issue 11 item 6)."""
    table = valid_table()
    del table["setup"]["personalities"]
    table["setup"]["boat_sides"] = sides
    if not built:
        player(1, boats=["shop-boat"])(table)
    add(2, "personalities", "sanyo-rai", "nezumi-kozo", "juzaburo-tsutaya")(table)
    codes = {p.code for p in validate(read_table(table)).errors}
    assert (Code.PERSONALITIES_IN_PLAY not in codes) is ok


def test_doctor_token_from_genpaku_sugita() -> None:
    """Akebono Appendix 3: Genpaku Sugita gives a Doctor token (catalogue INFERRED["doctor-tokens"])."""
    table = copy.deepcopy(valid_table())
    table["setup"]["personalities"][5] = "genpaku-sugita"
    add(2, "personalities", "genpaku-sugita")(table)
    add(2, "retirement_tokens", "doctor")(table)
    assert validate(read_table(table)).errors == ()


def test_ryokan_tie_resolved_by_the_order() -> None:
    table = valid_table()
    player(2, firefighting=2)(table)
    table["firefighting_order"] = ["Anaïs", "Dominique", "David"]
    assert validate(read_table(table)).errors == ()


def test_a_player_handed_again_is_judged_in_its_new_place_and_setup() -> None:
    """The checks of one player are remembered by the player's object (validate._Checker.own_problems): the same
    object in another seat, or under another setup, must still be judged there (RULINGS R13)."""
    data = valid_table()
    data["players"][0]["buildings"] = ["inn", "public-bathhouse"]  # the public bathhouse is not in the setup
    first = read_table(data)
    problem = next(p for p in validate(first).errors if p.code is Code.NOT_IN_SETUP)
    assert problem.field.startswith("players[0].buildings")
    swapped = replace(first, players=(first.players[1], first.players[0], first.players[2]))
    moved = next(p for p in validate(swapped).errors if p.code is Code.NOT_IN_SETUP)
    assert moved.field.startswith("players[1].buildings")
    assert first.setup is not None and first.setup.buildings is not None
    in_play = replace(first.setup, buildings=(*first.setup.buildings[:5], "public-bathhouse"))
    assert Code.NOT_IN_SETUP not in {p.code for p in validate(replace(first, setup=in_play)).errors}
    assert validate(first) == validate(first)


@pytest.mark.parametrize(
    "change",
    [player(1, wild_types={}), player(2, firefighting=2), player(2, firefighting=7, score_track=89)],
    ids=["wild type missing", "Ryokan needs the stack", "a tie needs the stack"],
)
def test_an_incomplete_table_is_scored_with_what_is_known(change: Callable[[Table], None]) -> None:
    """RULINGS R13 as amended: a missing wild type or stack order is a warning (the API answers 200) that says
    what is missing; ties share and an unset wild card counts as no type."""
    table = valid_table()
    change(table)
    answer = evaluate(table)
    assert answer["valid"] and answer["errors"] == [] and "players" in answer
    codes = {w["code"] for w in answer["warnings"]}
    assert codes & {c.value for c in INCOMPLETE_CODES}
    assert all(Code(c).value in {x.value for x in INCOMPLETE_CODES} for c in codes)
    assert all(Problem(Code(c), None, "", "").severity is Severity.WARNING for c in codes)


def test_an_unset_wild_card_counts_as_no_type() -> None:
    table = valid_table()
    player(1, wild_types={})(table)
    david = evaluate(table)["players"][1]
    assert david["lines"]["variety"] == 9  # street peddler, special, artisan; the Mounted Samurai: none yet


def test_the_character_limit_names_each_allowance_and_says_it_is_an_estimate() -> None:
    """RULINGS R14 (INFERRED["character-limit"]): Nanpo Ōta met, the Owner token, the Ferry on side A built."""
    table = valid_table()
    add(2, "characters", *["any-street-peddler"] * 26)(table)
    add(2, "personalities", "nanpo-ota")(table)
    table["setup"]["personalities"][2] = "nanpo-ota"
    add(2, "retirement_tokens", "owner")(table)
    add(2, "characters", "nagaya-owner")(table)
    (warning,) = [w for w in validate(read_table(table)).warnings if w.code is Code.TOO_MANY_CHARACTERS]
    assert warning.message == (
        "Dominique lists 28 characters; by an estimate, one player can keep at most 27: 1 (the starting character) "
        "+ 12 (one hire a month) + 1 (Nanpo Ōta's hire) + 1 (the Owner token's hire) + 12 (the Ferry boat's side "
        "A, one more a month)."
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (player(0, firefighting=3), "Anaïs's firefighting marker is on space 3, but the hiring bonuses and pipes of "
         "what Anaïs holds moved it up 4 (Monk +1, Dice Maker +1, Doctor +1, Spring pipe 1 +1) and it never moves "
         "down: it stands on space 4 or higher."),
        (then(player(2, firefighting=2), top(stacks={"2": ["Dominique"]})), "The stack on firefighting space 2 "
         "gives no place to David (Dominique 1): its players share the place until each has one."),
        (player(2, firefighting=7, score_track=89), "Anaïs and Dominique tie on 93 IKI on firefighting space 7, "
         "and their places in its stack are not given: they share the place until they are."),
        (add(2, "fish", "fish-winter-bonus", "fish-winter-akebono"), "Dominique has two winter fish (Winter fish "
         "(+7) and Akebono winter fish (+4)): legal only if one was bought on New Year's Day"),
    ],
)  # fmt: skip
def test_messages_say_what_to_do(change: Callable[[Table], None], words: str) -> None:
    table = valid_table()
    change(table)
    report = validate(read_table(table))
    assert any(words in p.message for p in (*report.errors, *report.warnings))


def test_a_stack_order_given_by_the_walk_through_counts_when_every_place_is_given() -> None:
    """scoring.table.stack_places: the places of shared spaces only, ranks beyond a stack dropped."""
    table = valid_table()
    player(2, firefighting=2)(table)
    read = read_table(table)
    assert stack_places(read.players, {"David": 1, "Dominique": 0, "Anaïs": 0}) == (
        StackPlace("David", 2, 2),
        StackPlace("Dominique", 2, 1),
    )
    assert stack_places(read.players, {"David": 2, "Dominique": 0}) == (StackPlace("Dominique", 2, 1),)
    report = validate(replace(read, stacks=stack_places(read.players, {"David": 1, "Dominique": 0})))
    assert report.errors == () and report.warnings == ()


def test_docs_list_every_code_with_its_kind() -> None:
    """docs/api.md is the current truth: every problem code with its kind (an error answers 422)."""
    docs = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    section = docs.split("### Problem codes", 1)[1].split("\n## ", 1)[0]  # IKI's, not Traders of Osaka's
    listed = dict(re.findall(r"^\| `([a-z-]+)` \| (error|warning) \|", section, re.M))
    assert listed == {c.value: Problem(c, None, "", "").severity.value for c in Code}


@pytest.mark.parametrize(
    ("characters", "pipes", "firefighting", "ok"),
    [
        (
            ["eyeglass-peddler", "any-special", "any-artisan"],
            [],
            0,
            True,
        ),  # starting and unnamed cards count 0
        (["firefighter", "day-laborer"], ["pipe-autumn-2"], 5, False),  # 2 + 2 + 2 = 6
        (["firefighter", "day-laborer"], ["pipe-autumn-2"], 6, True),
        (
            ["firefighter", "day-laborer", "sumo-wrestler", "policeman", "shrine-maiden", "ox-cart"],
            [],
            10,
            True,
        ),  # 12: top
        (
            ["firefighter", "day-laborer", "sumo-wrestler", "policeman", "shrine-maiden", "ox-cart"],
            [],
            9,
            False,
        ),
        (
            ["fisherman", "mounted-samurai"],
            ["pipe-winter-akebono", "pipe-spring-akebono"],
            0,
            True,
        ),  # no gain
    ],
)
def test_firefighting_at_least_the_printed_gains(
    characters: list[str], pipes: list[str], firefighting: int, ok: bool
) -> None:
    """RULINGS R13 (iki-rulebook.txt "remains where it stands"), up to the track's top (R11)."""
    table = valid_table()
    table["players"][2] = {"name": "Dominique", "characters": characters, "pipes": pipes,
                           "firefighting": firefighting, "wild_types": {"mounted-samurai": "special"}
                           if "mounted-samurai" in characters else {}}  # fmt: skip
    player(1, characters=["cotton-peddler"], wild_types={}, tobacco=[], fish=["fish-winter"])(table)
    codes = {p.code for p in validate(read_table(table)).errors}
    assert codes <= {Code.FIREFIGHTING_BELOW_GAINS}
    assert (Code.FIREFIGHTING_BELOW_GAINS not in codes) is ok


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ({"retirement_tokens": ["puppeteer"]},
         "Ann holds one Joker (Puppeteer) token, but it needs the Puppeteer among the player's cards."),
        ({"retirement_tokens": ["fire-protection"]},
         "Ann holds one Avoid a Fire (Yamabushi, Shrine Maiden) token, but it needs the Yamabushi or the Shrine Maiden "
         "among the player's cards."),
        ({"retirement_tokens": ["fire-protection", "fire-protection"], "characters": ["yamabushi"]},
         "Ann holds 2 Avoid a Fire (Yamabushi, Shrine Maiden) tokens, but each needs its own card among the "
         "player's cards: the Yamabushi and the Shrine Maiden."),
    ],
)  # fmt: skip
def test_a_token_without_its_card_is_said_in_english(player: dict[str, Any], message: str) -> None:
    """Issue 10, item 9: the message names the card the token needs (RULINGS R13)."""
    table = read_table({"players": [{"name": "Ann", **player}, {"name": "Ben"}]})
    assert [p.message for p in validate(table).errors if p.code is Code.TOKEN_WITHOUT_SOURCE] == [message]
