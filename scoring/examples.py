"""Example tables in the JSON contract (docs/api.md): the rulebook's worked example and a full Akebono table.

Used by the documentation, the benchmarks and the tests.
"""

from __future__ import annotations

from typing import Any, Final

#: iki-rulebook.txt "END OF THE GAME AND SCORING": Anaïs scores 100 IKI.
WORKED_EXAMPLE: Final[dict[str, Any]] = {
    "players": [
        {
            "name": "Anaïs",
            "score_track": 28,
            # 3 types hired (street peddlers x3, an artisan, a master craftsman) + the retired Puppeteer as a 4th.
            "characters": [
                "salt-peddler",
                "book-lender",
                "sake-peddler",
                "dice-maker",
                "carpenter",
                "puppeteer",
            ],
            "wild_types": {"puppeteer": "shop-seller"},
            "retirement_tokens": ["puppeteer"],
            "buildings": ["restaurant"],
            "fish": ["fish-spring-bonus", "fish-summer-bonus", "fish-autumn"],
            "pipes": ["pipe-spring-1"],
            "tobacco": ["tobacco-autumn-2", "tobacco-winter-1"],
            "mon": 5,
            "koban": 1,
            "firefighting": 6,
        },
        {"name": "David", "score_track": 40, "characters": ["cotton-peddler"], "firefighting": 3},
    ]
}

#: A finished 4-player Akebono table with a known setup: every line of the pad has something to score.
AKEBONO_FOUR_PLAYERS: Final[dict[str, Any]] = {
    "expansions": ["akebono"],
    "setup": {
        "buildings": ["inn", "restaurant", "farmhouse", "temple", "kimono-shop", "well"],
        "personalities": [
            "sanyo-rai", "nezumi-kozo", "hiroshige-utagawa", "saiko-ema",
            "ryokan", "tadataka-ino", "kokan-shiba", "gennai-hiraga",
        ],
        "boat_sides": {"ferry-boat": "A", "taxi-boat": "B", "houseboat": "A"},
    },
    "firefighting_order": ["Ulric", "Anaïs", "Dominique", "David"],
    "players": [
        {
            "name": "Anaïs", "score_track": 41,
            "characters": ["salt-peddler", "monk", "puppeteer", "dice-maker", "doctor", "yamabushi"],
            "wild_types": {"puppeteer": "artisan"},
            "retirement_tokens": ["puppeteer", "hire-discount", "doctor", "fire-protection"],
            "buildings": ["inn", "restaurant"], "fish": ["fish-spring-bonus", "fish-summer-akebono"],
            "pipes": ["pipe-spring-1"], "tobacco": ["tobacco-winter-1"], "boats": ["taxi-boat"],
            "personalities": ["hiroshige-utagawa"],
            "mon": 9, "koban": 1, "wood": 2, "rice": 1, "sandals": 2, "firefighting": 7, "trade": 4,
        },
        {
            "name": "David", "score_track": 52,
            "characters": ["cotton-peddler", "fisherman", "policeman", "mounted-samurai", "any-artisan"],
            "wild_types": {"mounted-samurai": "special"},
            "fish": ["fish-fisherman", "fish-winter"], "tobacco": ["tobacco-policeman"], "buildings": ["temple"],
            "boats": ["ferry-boat", "shop-boat"], "personalities": ["ryokan"], "mon": 1, "firefighting": 2,
            "trade": 6,
        },
        {
            "name": "Dominique", "score_track": 38,
            "characters": ["wood-seller", "sandal-maker", "seamstress", "ukiyoe-artist", "clocksmith", "eel-stand"],
            "fish": ["fish-summer-bonus", "fish-autumn"], "pipes": ["pipe-summer-2", "pipe-autumn-1"],
            "tobacco": ["tobacco-spring-akebono", "tobacco-summer-2"], "buildings": ["farmhouse"],
            "personalities": ["saiko-ema", "gennai-hiraga"], "mon": 12, "rice": 3, "sandals": 1,
            "firefighting": 4, "trade": 2,
        },
        {
            "name": "Ulric", "score_track": 66,
            "characters": ["boiled-egg-peddler", "kite-maker", "engraver", "samurai", "sushi-stand", "greengrocer"],
            "fish": ["fish-autumn-bonus"], "pipes": ["pipe-winter-1"],
            "tobacco": ["tobacco-autumn-1", "tobacco-winter-akebono"], "buildings": ["well", "kimono-shop"],
            "boats": ["houseboat"], "personalities": ["kokan-shiba", "tadataka-ino"],
            "mon": 7, "koban": 2, "wood": 1, "firefighting": 9, "trade": 10,
        },
    ],
}  # fmt: skip

#: Issue 10 item 6 (RULINGS R12 as amended): Aiko and Ben tie on 178 IKI on firefighting space 5, Chie and Dai on
#: 90 IKI on space 0. A ``"stacks"`` entry decides a space's tie; without one, its players share the place.
TIED_ON_SHARED_SPACES: Final[dict[str, Any]] = {
    "players": [
        {"name": "Aiko", "score_track": 178, "firefighting": 5},
        {"name": "Ben", "score_track": 178, "firefighting": 5},
        {"name": "Chie", "score_track": 90},
        {"name": "Dai", "score_track": 90},
    ]
}
