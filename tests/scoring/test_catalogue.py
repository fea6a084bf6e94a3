"""The catalogue against the printed totals of the rulebooks (RULINGS R1, R2)."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring import catalogue as cat
from scoring.components import CharType, Expansion, Season, TokenKind, Wild

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
