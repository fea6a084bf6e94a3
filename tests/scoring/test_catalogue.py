"""The catalogue against the printed totals of the rulebooks (RULINGS R1, R2)."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring import catalogue as cat
from scoring.components import Character, CharType, Expansion, Season, TokenKind, Wild

BASE = frozenset({Expansion.BASE})
AKEBONO = frozenset({Expansion.BASE, Expansion.AKEBONO})


def test_base_characters_4_starting_and_14_per_season() -> None:
    base = [c for c in cat.CHARACTERS if c.expansion is Expansion.BASE]
    assert len(base) == 60
    assert sum(c.starting for c in base) == 4
    assert Counter(c.season for c in base if not c.starting) == dict.fromkeys(Season, 14)


def test_base_type_totals_17_15_12_9_7() -> None:
    """iki-rulebook.txt Appendix 1: Street Peddler (x17) - Artisan (x15) - Special (x12) - Master Craftsman (x9) -
    Shop Seller (x7)."""
    assert dict(cat.type_supply(BASE)) == {
        CharType.STREET_PEDDLER: 17,
        CharType.ARTISAN: 15,
        CharType.SPECIAL: 12,
        CharType.MASTER_CRAFTSMAN: 9,
        CharType.SHOP_SELLER: 7,
    }


def test_akebono_wood_seller_and_24_new_characters_two_per_month() -> None:
    akebono = [c for c in cat.CHARACTERS if c.expansion is Expansion.AKEBONO]
    assert [c.id for c in akebono if c.starting] == ["wood-seller"]
    assert len(cat.NEW_CHARACTERS) == 24
    assert Counter(c.month for c in cat.NEW_CHARACTERS) == dict.fromkeys(range(1, 13), 2)
    for month in range(1, 13):
        pair = cat.new_characters_of_month(month)
        assert pair[0].type == pair[1].type  # RULINGS R2 (inferred)
        assert pair[0].season is Season.of_month(month)


def test_wild_cards_rulings_r5() -> None:
    wild = {c.id: c.wild for c in cat.CHARACTERS if c.wild is not Wild.NO}
    assert wild == {
        "puppeteer": Wild.WHEN_RETIRED,
        "mounted-samurai": Wild.ALWAYS,
        "rice-broker": Wild.ALWAYS,
    }
    assert cat.CHARACTER_BY_ID["puppeteer"].type is CharType.SPECIAL


@pytest.mark.parametrize(
    ("expansion", "count", "ongoing"),
    [(Expansion.BASE, 10, {"farmhouse", "fire-watchtower", "imperial-villa"}),
     (Expansion.AKEBONO, 10, {"inn-for-sailors", "public-bathhouse", "tea-house"})],
)  # fmt: skip
def test_buildings_and_their_ongoing_abilities(expansion: Expansion, count: int, ongoing: set[str]) -> None:
    """RULINGS R18 names the six buildings with an ongoing ability."""
    buildings = [b for b in cat.BUILDINGS if b.expansion is expansion]
    assert len(buildings) == count
    assert {b.id for b in buildings if b.ongoing} == ongoing
    if expansion is Expansion.AKEBONO:
        assert all(b.cost for b in buildings)  # printed in the Akebono appendix


def test_personalities_five_per_season() -> None:
    assert len(cat.PERSONALITIES) == 20
    assert Counter(p.season for p in cat.PERSONALITIES) == dict.fromkeys(Season, 5)
    end_game = {p.id for p in cat.PERSONALITIES if p.timing == "end game"}
    assert end_game == {
        "hiroshige-utagawa", "ikku-jippensha", "ryokan", "tadataka-ino",
        "gennai-hiraga", "issa-kobayashi", "kazan-watanabe", "kokan-shiba",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "expansions", "per_season"),
    [(TokenKind.FISH, BASE, 2), (TokenKind.PIPE, BASE, 2), (TokenKind.TOBACCO, BASE, 2),
     (TokenKind.FISH, AKEBONO, 3), (TokenKind.PIPE, AKEBONO, 3), (TokenKind.TOBACCO, AKEBONO, 3)],
)  # fmt: skip
def test_token_counts_per_season(kind: TokenKind, expansions: frozenset[Expansion], per_season: int) -> None:
    for season in Season:
        assert len(cat.tokens_of(kind, season, expansions)) == per_season


def test_special_tokens_and_retirement_tokens() -> None:
    assert cat.TOKEN_BY_ID["fish-fisherman"].source == "fisherman"
    assert cat.TOKEN_BY_ID["tobacco-policeman"].source == "policeman"
    assert {t.id for t in cat.RETIREMENT_TOKENS} == {
        "hire-discount", "extra-move", "fire-protection", "puppeteer", "doctor", "messenger", "owner",
    }  # fmt: skip
    assert cat.RETIREMENT_TOKEN_BY_ID["fire-protection"].supply == 2


def test_boats_starting_tiles() -> None:
    assert [b.id for b in cat.BUILDABLE_BOATS] == [
        "shop-boat", "wandering-boat", "taxi-boat", "carrying-ship", "ferry-boat", "houseboat",
    ]  # fmt: skip
    assert not cat.BOAT_BY_ID["tea-boat"].buildable
    assert not cat.BOAT_BY_ID["shop-boat"].two_sided  # one action on both sides (RULINGS R18)
    assert [t.id for t in cat.STARTING_TILES] == [
        "tile-rice",
        "tile-sandals",
        "tile-wood",
        "tile-trade",
        "tile-shop-boat",
    ]


def test_ids_follow_rulings_r1() -> None:
    for example in ("boiled-egg-peddler", "papier-mache-artist", "trumpet-candy-peddlers", "storytellers-theater",
                    "pub-izakaya", "juzaburo-tsutaya", "philipp-franz-von-siebold", "ryokan"):  # fmt: skip
        assert example in cat.KINDS_OF_ID
    assert cat.KINDS_OF_ID["puppeteer"] == ("character", "retirement-token")


def test_inferred_facts_are_listed_in_one_place() -> None:
    assert {"character-types", "new-character-pairs", "token-ids", "blocking-tiles"} <= set(cat.INFERRED)


# Printed firefighting and trade gains (RULINGS R13), each with the line of the rules text that prints it: hiring
# bonuses (iki-rulebook.txt Appendix 1, iki-akebono-rulebook.txt Appendix 1) and pipes' immediate effects
# (iki-rulebook.txt Appendix 3 "Pipes (x8)"; Akebono Appendix 5 "2 Pipes (x4)"). Every other card and token: 0.
GAINS: list[tuple[str, int, int, str]] = [
    ("dice-maker", 1, 0, "rulebook 811"), ("sandal-maker", 1, 0, "rulebook 821"), ("monk", 1, 0, "rulebook 847"),
    ("ox-cart", 1, 0, "rulebook 859"), ("carpenter", 1, 0, "rulebook 881"), ("engraver", 1, 0, "rulebook 951"),
    ("lantern-maker", 1, 0, "rulebook 961"), ("umbrella-maker", 1, 0, "rulebook 971"),
    ("day-laborer", 2, 0, "rulebook 981"), ("firefighter", 2, 0, "rulebook 991"),
    ("shrine-maiden", 1, 0, "rulebook 1001"), ("plasterer", 1, 0, "rulebook 1019"),
    ("clocksmith", 1, 0, "rulebook 1073"), ("printer", 1, 0, "rulebook 1091"),
    ("construction-worker", 1, 0, "rulebook 1109"), ("tatsumi-geisha", 1, 0, "rulebook 1127"),
    ("puppet-maker", 1, 0, "rulebook 1137"), ("tatami-maker", 1, 0, "rulebook 1147"),
    ("candy-maker", 1, 0, "rulebook 1201"), ("kabuki-actor", 1, 0, "rulebook 1235"),
    ("samurai", 1, 0, "rulebook 1245"), ("sumo-wrestler", 2, 0, "rulebook 1255"),
    ("buddhist-sculptor", 1, 0, "rulebook 1265"), ("stone-cutter", 1, 0, "rulebook 1283"),
    ("doctor", 1, 0, "Akebono 332"), ("ship-carpenter", 0, 1, "Akebono 354"), ("drug-store", 0, 1, "Akebono 374"),
    ("mask-crafter", 1, 0, "Akebono 404"), ("goldfish-seller", 0, 1, "Akebono 414"),
    ("nagaya-owner", 1, 0, "Akebono 444"), ("papier-mache-artist", 0, 1, "Akebono 454"),
    ("repairman", 1, 0, "Akebono 468"), ("swordsmith", 1, 0, "Akebono 488"),
    ("ceramic-seller", 0, 1, "Akebono 498"), ("seaweed-shop", 0, 1, "Akebono 508"),
    ("policeman", 2, 0, "Akebono 518"),
    ("pipe-spring-1", 1, 0, "rulebook 1372"), ("pipe-spring-2", 1, 0, "rulebook 1374"),
    ("pipe-autumn-1", 1, 0, "rulebook 1384"), ("pipe-autumn-2", 2, 0, "rulebook 1386"),
    ("pipe-summer-akebono", 1, 1, "Akebono 962"), ("pipe-autumn-akebono", 0, 1, "Akebono 968"),
]  # fmt: skip


@pytest.mark.parametrize(("item", "firefighting", "trade", "line"), GAINS, ids=[g[0] for g in GAINS])
def test_printed_gains(item: str, firefighting: int, trade: int, line: str) -> None:
    """The gain agrees with the printed words ("two spaces up the Firefighting track")."""
    x = cat.CHARACTER_BY_ID.get(item) or cat.TOKEN_BY_ID[item]
    assert (x.firefighting_gain, x.trade_gain) == (firefighting, trade)
    printed = x.hiring_bonus if isinstance(x, Character) else x.effect
    assert printed is not None
    words = {1: ("one space up", "up 1 space"), 2: ("two spaces up", "up 2 spaces")}
    if firefighting:
        assert "Firefighting" in printed and any(w in printed for w in words[firefighting])
    if trade:
        assert "Trade track" in printed and any(w in printed for w in words[trade])


def test_no_other_card_or_token_gains_a_space() -> None:
    """A boat's building bonus is a choice ("... OR activate this boat"), a skill is an action: they count 0."""
    listed = {g[0] for g in GAINS}
    gaining = {x.id for x in (*cat.CHARACTERS, *cat.TOKENS) if x.firefighting_gain or x.trade_gain}
    assert gaining == listed
    assert not any(c.firefighting_gain for c in cat.STARTING_CHARACTERS)


def test_the_inn_cost_from_the_rulebook_examples() -> None:
    """iki-rulebook.txt "13TH ROUND" and "Construction site": "spends 1 Koban and 1 wood to build the Inn"."""
    assert cat.BUILDING_BY_ID["inn"].cost == "1 koban + 1 wood"
    assert "inn-cost" in cat.INFERRED


def test_the_three_boat_tokens() -> None:
    """Akebono Appendix 5 "7 Boat tokens (x3)"; ids RULINGS R1. Catalogue only: no player list holds them."""
    assert [t.id for t in cat.BOAT_TOKENS] == ["boat-token-1", "boat-token-2", "boat-token-3"]
    assert "space 1-4" in cat.BOAT_TOKEN_BY_ID["boat-token-1"].effect
    assert cat.KINDS_OF_ID["boat-token-2"] == ("boat-token",)
    assert cat.EXPANSION_OF["boat-token-3"] is Expansion.AKEBONO


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("nezumi-kozo", "(Nezumi Kozō's ability works when using the 1-4 space)"),  # Akebono 668
        ("tokunai-mogami", "You may use it immediately to end your movement."),  # Akebono 692
        (
            "katsushika-hokusai",
            "(with their Kobun) to an empty space for free (including a corner space). Then,",
        ),  # 712
        ("nanpo-ota", "If you also control the Monk token, both discounts apply."),  # Akebono 720
        ("saiko-ema", "your Buildings are protected, but the Fire continues to spread out."),  # Akebono 728
        ("shusaku-chiba", "When placing a card (Building or Character) on a space"),  # Akebono 738
        ("pipe-winter-akebono", "its owner moves their Trade marker one space up on the Trade track."),  # 974
        ("ferry-boat", "Meet this Personality."),  # Akebono 904
    ],
)
def test_effects_are_printed_in_full(item: str, words: str) -> None:
    x = cat.PERSONALITY_BY_ID.get(item) or cat.TOKEN_BY_ID.get(item)
    text = x.effect if x is not None else cat.BOAT_BY_ID[item].side_b
    assert text is not None and words in text


def test_personality_roles_as_printed() -> None:
    """Akebono Appendix 3 headings: "Ryōtaku Maeno (1723-1803) - Rangakusha-Dutch Scholar, Doctor"."""
    assert cat.PERSONALITY_BY_ID["ryotaku-maeno"].role == "Rangakusha-Dutch Scholar, Doctor"
    assert cat.PERSONALITY_BY_ID["kokan-shiba"].role == "Western Style Painter"
