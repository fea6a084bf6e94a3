"""Every end-game scoring rule (RULINGS R3-R12), one table row each."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring import catalogue as cat
from scoring import evaluate
from scoring.examples import TIED_ON_SHARED_SPACES
from scoring.score import stack_order
from scoring.table import read_table


def score_one(akebono: bool = True, **player: Any) -> dict[str, Any]:
    """Score a 2-player table and return the first player's answer (the second player holds nothing).

    Without a given ``firefighting``, the player's marker stands where the hiring bonuses and pipes held put it
    (RULINGS R13: it never moves down)."""
    held = [*player.get("characters", []), *player.get("pipes", [])]
    player.setdefault("firefighting", min(10, sum(cat.FIREFIGHTING_GAIN.get(x, 0) for x in held)))
    if akebono:
        player.setdefault("trade", min(10, sum(cat.TRADE_GAIN.get(x, 0) for x in held)))
    table = {
        "expansions": ["akebono"] if akebono else [],
        "players": [{"name": "Anaïs", **player}, {"name": "Zoé", "firefighting": 0}],
    }
    if player.get("firefighting", 0) == 0:
        table["firefighting_order"] = ["Zoé", "Anaïs"]  # both on 0: Anaïs at the bottom of the stack
    answer = evaluate(table)
    assert answer["valid"], answer["errors"]
    result: dict[str, Any] = answer["players"][0]
    return result


@pytest.mark.parametrize(
    ("characters", "wild", "points"),
    [
        ([], {}, 0),
        (["salt-peddler"], {}, 1),
        (["salt-peddler", "book-lender", "sake-peddler"], {}, 1),  # one type, three cards
        (["salt-peddler", "dice-maker"], {}, 4),
        (["salt-peddler", "dice-maker", "monk"], {}, 9),
        (["salt-peddler", "dice-maker", "monk", "carpenter"], {}, 16),
        (["salt-peddler", "dice-maker", "monk", "carpenter", "cloth-dyer"], {}, 25),
        (
            ["any-street-peddler", "any-artisan", "any-special"],
            {},
            9,
        ),  # unnamed cards count for their type (R1)
        (["puppeteer"], {}, 1),  # an unretired Puppeteer is special (R5)
        (["salt-peddler", "rice-broker"], {"rice-broker": "shop-seller"}, 4),  # wild: the chosen type (R5)
        (["salt-peddler", "mounted-samurai"], {"mounted-samurai": "street-peddler"}, 1),
    ],
)
def test_variety_r4_r5(characters: list[str], wild: dict[str, str], points: int) -> None:
    assert score_one(characters=characters, wild_types=wild)["lines"]["variety"] == points


def test_retired_puppeteer_counts_as_chosen_type() -> None:
    lines = score_one(characters=["puppeteer", "monk"], wild_types={"puppeteer": "artisan"},
                      retirement_tokens=["puppeteer"])["lines"]  # fmt: skip
    assert lines["variety"] == 4


@pytest.mark.parametrize(
    ("fish", "characters", "points"),
    [
        ([], [], 0),
        (["fish-spring"], [], 3),
        (["fish-spring", "fish-summer"], [], 6),
        (["fish-spring", "fish-summer", "fish-autumn"], [], 10),
        (["fish-spring", "fish-summer", "fish-autumn", "fish-winter"], [], 15),
        (
            ["fish-spring-bonus", "fish-summer-bonus", "fish-autumn-bonus", "fish-winter-bonus"],
            [],
            31,
        ),  # rulebook max
        (["fish-spring-akebono"], [], 1),  # 3 - 2
        (["fish-summer-akebono", "fish-autumn-akebono"], [], 6),  # immediate IKI, already on the track
        (["fish-winter-akebono"], [], 7),  # 3 + 4
        (["fish-fisherman"], ["fisherman"], 4),  # counts as a fish, +1 (R6)
        # R6 via R14: two winter fish (one on New Year's Day) are one season in the set, each its own bonus
        (["fish-winter", "fish-winter-bonus"], [], 10),  # 3 + 7
        (["fish-spring", "fish-winter-bonus", "fish-winter-akebono"], [], 17),  # 6 + 7 + 4
        (["fish-winter", "fish-winter-akebono", "fish-fisherman"], ["fisherman"], 11),  # 6 + 4 + 1
    ],
)
def test_fish_r6(fish: list[str], characters: list[str], points: int) -> None:
    assert score_one(fish=fish, characters=characters)["lines"]["fish"] == points


@pytest.mark.parametrize(
    ("tobacco", "player", "points"),
    [
        (["tobacco-spring-1"], {}, 2),
        (["tobacco-spring-2"], {}, 3),
        (["tobacco-summer-1"], {}, 4),
        (["tobacco-summer-2"], {"firefighting": 7}, 3),
        (["tobacco-autumn-1"], {"characters": ["salt-peddler", "dice-maker", "monk"]}, 3),
        (["tobacco-autumn-2"], {"characters": ["salt-peddler", "book-lender", "dice-maker"]}, 2),
        (["tobacco-winter-1"], {}, 5),
        (["tobacco-winter-2"], {"mon": 11}, 2),
        (["tobacco-spring-akebono"], {"personalities": ["ryokan", "saiko-ema"]}, 2),
        (["tobacco-summer-akebono"], {"trade": 7}, 3),
        (["tobacco-autumn-akebono"], {"koban": 2}, 2),
        (["tobacco-winter-akebono"], {}, 6),
        (["tobacco-policeman"], {"characters": ["policeman", "monk", "puppeteer", "salt-peddler"]}, 3),
        (["tobacco-policeman"], {"characters": ["policeman", "rice-broker"], "wild_types": {"rice-broker": "special"}}, 2),
        (["tobacco-spring-1", "tobacco-winter-1"], {"pipes": ["pipe-summer-1"]}, 14),  # doubled by a pipe (R7)
        (["tobacco-spring-1"], {"pipes": ["pipe-summer-1", "pipe-winter-2"]}, 4),  # doubled once, not per pipe
        ([], {"pipes": ["pipe-summer-1"]}, 0),
    ],
)  # fmt: skip
def test_tobacco_r7(tobacco: list[str], player: dict[str, Any], points: int) -> None:
    assert score_one(tobacco=tobacco, **player)["lines"]["tobacco"] == points


@pytest.mark.parametrize(
    ("building", "player", "points"),
    [
        ("farmhouse", {}, 2),
        ("fire-watchtower", {}, 3),
        ("imperial-villa", {}, 4),
        ("inn", {}, 12),
        ("kabuki-theater", {}, 26),
        ("shrine", {}, 22),
        ("merchant-house", {"sandals": 4}, 12),
        ("merchant-house", {"sandals": 11}, 30),  # max 30
        ("storehouse", {"rice": 3}, 12),
        ("storehouse", {"rice": 9}, 32),  # max 32
        ("well", {"firefighting": 6}, 12),
        ("restaurant", {"fish": ["fish-spring-bonus", "fish-winter-akebono"]}, 11),  # = the fish line (6 + 1 + 4)
        ("restaurant", {"fish": ["fish-spring-akebono"]}, 1),  # "2 more IKI for Restaurant": the fish line again
        ("inn-for-sailors", {"boats": ["taxi-boat", "houseboat"]}, 4),
        ("kimono-shop", {"characters": ["salt-peddler", "dice-maker", "monk"]}, 12),
        ("picture-book-shop", {"fish": ["fish-spring"], "pipes": ["pipe-spring-1"], "tobacco": ["tobacco-spring-1"]}, 6),
        ("pub-izakaya", {"characters": ["salt-peddler", "book-lender", "dice-maker"]}, 10),
        ("public-bathhouse", {}, 2),
        ("private-school", {}, 6),
        ("storytellers-theater", {"personalities": ["ryokan", "saiko-ema"]}, 8),
        ("storytellers-theater", {"personalities": ["ryokan", "saiko-ema", "nanpo-ota", "sanyo-rai", "kokan-shiba"]}, 16),
        ("tea-house", {}, 2),
        ("temple", {}, 30),
        ("wholesale-shipping-agency", {"trade": 8}, 16),
    ],
)  # fmt: skip
def test_buildings_r8(building: str, player: dict[str, Any], points: int) -> None:
    assert score_one(buildings=[building], **player)["lines"]["buildings"] == points


@pytest.mark.parametrize(
    ("player", "points"),
    [
        ({}, 0),
        ({"koban": 2}, 6),
        ({"wood": 3}, 3),
        ({"mon": 7}, 1),
        ({"mon": 8}, 2),
        ({"rice": 5, "sandals": 5}, 0),  # worth nothing (R9)
        ({"koban": 1, "wood": 1, "mon": 5}, 5),
    ],
)
def test_resources_r9(player: dict[str, Any], points: int) -> None:
    assert score_one(**player)["lines"]["resources"] == points


@pytest.mark.parametrize(
    ("personality", "player", "points"),
    [
        ("hiroshige-utagawa", {"characters": ["dice-maker", "sandal-maker", "seamstress"]}, 7),
        ("hiroshige-utagawa", {"characters": ["dice-maker", "sandal-maker"]}, 0),
        ("hiroshige-utagawa", {"characters": ["dice-maker", "sandal-maker", "puppeteer"],
                               "wild_types": {"puppeteer": "artisan"}, "retirement_tokens": ["puppeteer"]}, 7),
        ("ikku-jippensha", {"mon": 1}, 6),
        ("ikku-jippensha", {"mon": 2}, 0),
        ("ryokan", {"firefighting": 0}, 6),  # last in the given order
        ("ryokan", {"firefighting": 3}, 0),
        ("tadataka-ino", {"characters": ["any-artisan"] * 8}, 5),
        ("tadataka-ino", {"characters": ["any-artisan"] * 7}, 0),
        ("gennai-hiraga", {"pipes": ["pipe-spring-1", "pipe-spring-2"]}, 5),
        ("gennai-hiraga", {"pipes": ["pipe-spring-1"]}, 0),
        ("issa-kobayashi", {"characters": ["doctor", "fisherman"]}, 5),
        ("issa-kobayashi", {"characters": ["doctor", "monk"]}, 0),
        ("kazan-watanabe", {"boats": ["taxi-boat"], "buildings": ["inn", "temple"]}, 6),
        ("kokan-shiba", {"pipes": ["pipe-spring-1"], "tobacco": ["tobacco-spring-1"], "fish": ["fish-spring"],
                         "boats": ["houseboat"]}, 7),
        ("kokan-shiba", {"pipes": ["pipe-spring-1"], "tobacco": ["tobacco-spring-1"], "fish": ["fish-spring"]}, 0),
        ("saiko-ema", {}, 0),  # not an end-game personality
        ("genpaku-sugita", {}, 0),
    ],
)  # fmt: skip
def test_personalities_r10(personality: str, player: dict[str, Any], points: int) -> None:
    assert score_one(personalities=[personality], **player)["lines"]["personalities"] == points


def test_score_track_r3_and_base_game_has_no_personality_line() -> None:
    result = score_one(akebono=False, score_track=73)
    assert result["lines"]["score_track"] == 73
    assert list(result["lines"]) == ["score_track", "variety", "fish", "tobacco", "buildings", "resources"]
    assert "personalities" in score_one(akebono=True)["lines"]


def rank(players: list[dict[str, Any]], order: list[str] | None = None) -> dict[str, tuple[int, str | None]]:
    table: dict[str, Any] = {"players": players}
    if order is not None:
        table["firefighting_order"] = order
    answer = evaluate(table)
    assert answer["valid"], answer["errors"]
    return {p["name"]: (p["rank"], p["tie_break"]) for p in answer["players"]}


def test_most_iki_wins_r12() -> None:
    ranks = rank(
        [{"name": "A", "score_track": 10}, {"name": "B", "score_track": 30}, {"name": "C", "score_track": 20}]
    )
    assert {k: v[0] for k, v in ranks.items()} == {"A": 3, "B": 1, "C": 2}
    assert all(v[1] is None for v in ranks.values())


def test_tie_broken_by_firefighting_position() -> None:
    ranks = rank(
        [
            {"name": "A", "score_track": 30, "firefighting": 3},
            {"name": "B", "score_track": 30, "firefighting": 8},
        ]
    )
    assert ranks["B"][0] == 1 and ranks["A"][0] == 2
    assert ranks["A"][1] == "B and A tie on 30 IKI; broken by firefighting position (B 8, A 3)"


def test_tie_on_one_space_broken_by_the_stack() -> None:
    ranks = rank([{"name": "A", "score_track": 30, "firefighting": 5}, {"name": "B", "score_track": 30, "firefighting": 5}],
                 order=["B", "A"])  # fmt: skip
    assert ranks["B"][0] == 1 and ranks["A"][0] == 2
    # The position breaks nothing on one space: the words say the stack does (RULINGS R12).
    assert (
        ranks["A"][1] == "B and A tie on 30 IKI; same firefighting space (5), broken by its stack (B above A)"
    )


def test_unresolved_tie_shares_the_place() -> None:
    ranks = rank([
        {"name": "A", "score_track": 30, "firefighting": 5},
        {"name": "B", "score_track": 30, "firefighting": 5},
        {"name": "C", "score_track": 10},
    ])  # fmt: skip
    assert (ranks["A"][0], ranks["B"][0], ranks["C"][0]) == (1, 1, 3)
    assert "they share the place" in str(ranks["A"][1])


def test_per_unit_buildings_explained_in_plain_plurals() -> None:
    """RULINGS R8: each unit counted is named as a person says it: "5 rice", "3 cards in the largest column"."""
    answer = score_one(
        characters=["dice-maker", "sandal-maker", "seamstress"],
        buildings=["pub-izakaya", "storehouse"],
        rice=5,
    )
    assert answer["explanations"]["buildings"] == (
        "Pub (Izakaya) (5 × 3 cards in the largest column) 15 + Storehouse (4 × 5 rice) 20 = 35"
    )


def test_two_winter_fish_explained() -> None:
    """RULINGS R14: the explanation says why four tokens make a set of three."""
    answer = score_one(fish=["fish-spring", "fish-summer", "fish-winter", "fish-winter-bonus"])
    assert (
        answer["explanations"]["fish"] == "3 fish (of 4: two winter fish count once) 10 + winter bonus 7 = 17"
    )


def test_ryokan_is_not_scored_while_the_last_space_is_shared_unordered() -> None:
    """RULINGS R13 as amended: incomplete, not impossible; Ryōkan waits for the stack order (R10, R12)."""
    table = {
        "expansions": ["akebono"],
        "players": [{"name": "Anaïs", "personalities": ["ryokan"]}, {"name": "Zoé"}],
    }
    answer = evaluate(table)
    assert answer["valid"]
    assert [w["code"] for w in answer["warnings"]][:1] == ["firefighting-order-needed"]
    anais = answer["players"][0]
    assert anais["lines"]["personalities"] == 0
    assert "not scored until the stack order of space 0 is given" in anais["explanations"]["personalities"]
    table["stacks"] = {"0": ["Zoé", "Anaïs"]}
    assert evaluate(table)["players"][0]["lines"]["personalities"] == 6


def tied_at_178(stacks: dict[str, list[str]] | None) -> dict[str, tuple[int, str | None]]:
    """Issue 10 item 6: Ben and Aiko tie on 178 IKI on space 5; Chie and Dai share space 0 with no order."""
    table = copy.deepcopy(TIED_ON_SHARED_SPACES)
    if stacks is not None:
        table["stacks"] = stacks
    answer = evaluate(table)
    assert answer["valid"], answer["errors"]
    return {p["name"]: (p["rank"], p["tie_break"]) for p in answer["players"]}


def test_a_stack_order_decides_its_own_space_whatever_other_spaces_lack() -> None:
    """RULINGS R12 as amended: "Ben 1 (top), Aiko 2" on space 5 decides their tie though space 0 has no order."""
    ranks = tied_at_178({"5": ["Ben", "Aiko"]})
    assert {n: r for n, (r, _) in ranks.items()} == {"Ben": 1, "Aiko": 2, "Chie": 3, "Dai": 3}
    assert (
        ranks["Aiko"][1]
        == "Ben and Aiko tie on 178 IKI; same firefighting space (5), broken by its stack (Ben above Aiko)"
    )
    assert (
        ranks["Dai"][1]
        == "Chie and Dai tie on 90 IKI; same firefighting space (0) and no stack order between them: they share the place"
    )
    without = tied_at_178(None)
    assert {n: r for n, (r, _) in without.items()} == {"Ben": 1, "Aiko": 1, "Chie": 3, "Dai": 3}


def test_a_stack_naming_a_player_twice_orders_nobody() -> None:
    """RULINGS R12: a space's order counts only when every player on it has one place (the validator refuses
    such a stack, ``stack-order``; the order read from it is none)."""

    def stacked(top_first: list[str]) -> Any:
        return read_table({**copy.deepcopy(TIED_ON_SHARED_SPACES), "stacks": {"5": top_first}})

    assert stack_order(stacked(["Ben", "Aiko", "Ben"]), 5, ["Ben", "Aiko"]) is None
    assert stack_order(stacked(["Ben", "Aiko"]), 5, ["Aiko", "Ben"]) == ["Ben", "Aiko"]


def test_a_partly_given_stack_does_not_count() -> None:
    """RULINGS R12: a space's order counts only when every player on it has a place."""
    ranks = tied_at_178({"5": ["Ben"]})
    assert ranks["Ben"][0] == ranks["Aiko"][0] == 1


def test_a_mixed_tie_speaks_of_each_group() -> None:
    """Issue 11 item 12: Ben above Aiko on space 5; Chie and Dai on space 0 share, all four on 100 IKI."""
    table = {
        "players": [
            {"name": "Aiko", "score_track": 100, "firefighting": 5},
            {"name": "Ben", "score_track": 100, "firefighting": 5},
            {"name": "Chie", "score_track": 100},
            {"name": "Dai", "score_track": 100},
        ],
        "stacks": {"5": ["Ben", "Aiko"]},
    }
    answer = evaluate(table)
    ranks = {p["name"]: (p["rank"], p["tie_break"]) for p in answer["players"]}
    assert {n: r for n, (r, _) in ranks.items()} == {"Ben": 1, "Aiko": 2, "Chie": 3, "Dai": 3}
    assert ranks["Chie"][1] == (
        "Ben, Aiko, Chie and Dai tie on 100 IKI; by firefighting position, then the stack: Ben above Aiko in the "
        "stack on space 5; Chie and Dai share the place: same space, no stack order (space 0)"
    )


def test_an_unset_wild_card_is_said_in_the_variety_line() -> None:
    """RULINGS R13 as amended: scored as no type, and the explanation says so."""
    alone = score_one(characters=["rice-broker"])
    assert (alone["lines"]["variety"], alone["explanations"]["variety"]) == (
        0,
        "no type yet (Rice Broker: type not chosen) = 0",
    )
    two = score_one(characters=["salt-peddler", "mounted-samurai"])["explanations"]["variety"]
    assert two == "1 type (Street Peddler; Mounted Samurai: type not chosen) = 1"
