"""The rulebook's worked example (iki-rulebook.txt, "END OF THE GAME AND SCORING"): Anaïs scores 100 IKI."""

from __future__ import annotations

from scoring import evaluate

ANAIS = {
    "name": "Anaïs",
    "score_track": 28,
    # 3 types hired (street peddlers x3, an artisan, a master craftsman) + the retired Puppeteer as a 4th type.
    "characters": ["salt-peddler", "book-lender", "sake-peddler", "dice-maker", "carpenter", "puppeteer"],
    "wild_types": {"puppeteer": "shop-seller"},
    "retirement_tokens": ["puppeteer"],
    "buildings": ["restaurant"],
    "fish": ["fish-spring-bonus", "fish-summer-bonus", "fish-autumn"],
    "pipes": ["pipe-spring-1"],
    "tobacco": ["tobacco-autumn-2", "tobacco-winter-1"],
    "mon": 5,
    "koban": 1,
    "firefighting": 6,
}
DAVID = {"name": "David", "score_track": 40, "characters": ["cotton-peddler"], "firefighting": 3}

WORKED_EXAMPLE = {"players": [ANAIS, DAVID]}


def test_anais_scores_100() -> None:
    answer = evaluate(WORKED_EXAMPLE)
    assert answer["valid"], answer["errors"]
    anais = answer["players"][0]
    assert anais["lines"] == {
        "score_track": 28,
        "variety": 16,
        "fish": 18,
        "tobacco": 16,
        "buildings": 18,
        "resources": 4,
    }
    assert anais["total"] == 100
    assert anais["rank"] == 1


def test_explanations_show_how_each_number_was_made() -> None:
    explanations = evaluate(WORKED_EXAMPLE)["players"][0]["explanations"]
    assert explanations["fish"] == "3 fish 10 + spring bonus 1 + summer bonus 7 = 18"
    assert explanations["tobacco"].endswith("= 8, doubled by 1 pipe = 16")
    assert "Puppeteer as Shop Seller" in explanations["variety"]
    assert explanations["resources"] == "1 koban 3 + 5 mon 1 = 4"
    assert explanations["buildings"] == "Restaurant (= fish line) 18 = 18"
