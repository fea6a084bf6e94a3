"""The rulebook's worked example (iki-rulebook.txt, "END OF THE GAME AND SCORING"): Anaïs scores 100 IKI."""

from __future__ import annotations

from scoring import evaluate
from scoring.examples import WORKED_EXAMPLE


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
