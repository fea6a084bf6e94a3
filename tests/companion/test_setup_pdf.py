"""The printable setup sheet (issue 3): A4 and Letter, the public draws, never the hidden ones."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from scoring.catalogue import BUILDING_BY_ID, CHARACTER_BY_ID, PERSONALITY_BY_ID, STARTING_TILE_BY_ID
from setupgen import Options, generate, hidden_items
from tests.setupgen.helpers import named_hidden_draws

GM = "players=2&akebono=1&grand_master=1"


def pdf_text(content: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return reader, " ".join(text.split())


@pytest.mark.parametrize(
    ("size", "width", "height"), [("a4", 595, 842), ("letter", 612, 792), ("", 595, 842)]
)
def test_sheet_sizes(size: str, width: int, height: int) -> None:
    response = Client().get(f"/setup/sheet.pdf?players=4&seed=K7MX2QPA&size={size}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader, _ = pdf_text(response.content)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (width, height)


@pytest.mark.parametrize("seed", ["K7MX2QPA", "22222222", "H4RT9WQE"])
def test_sheet_has_public_draws_and_no_hidden_ones(seed: str) -> None:
    setup = generate(Options(2, akebono=True, grand_master=True), seed)
    response = Client().get(f"/setup/sheet.pdf?{GM}&seed={seed}&size=letter")
    assert response.status_code == 200
    _, text = pdf_text(response.content)
    assert setup.akebono is not None
    assert setup.two_player is not None
    assert setup.seed in text
    # Issue 20: the sheet's words match what it prints (no hidden draw), and name the tracker as the way.
    assert (
        "This sheet prints no hidden draw (each fire's Nagaya, the Summer, Autumn and Winter Personalities"
        in text
    )
    assert "The game tracker reveals each one when it is due" in text
    assert "“Track this game”" in text
    assert (
        "Hidden until due: the game tracker reveals which Summer, Autumn and Winter tokens go in the River"
        in text
    )
    assert named_hidden_draws(text, setup) == []
    for kind in ("fish", "pipe", "tobacco"):
        assert f"Spring {kind}: board" in text
        for season in ("Summer", "Autumn", "Winter"):
            assert f"{season} {kind}:" not in text
    for building in setup.buildings:
        assert BUILDING_BY_ID[building].name in text
    for choice in setup.starting_characters:
        assert CHARACTER_BY_ID[choice.card].name in text
        assert choice.tile is not None
        assert STARTING_TILE_BY_ID[choice.tile].name in text
    for p in setup.akebono.personalities["spring"]:
        assert PERSONALITY_BY_ID[p].name in text
    for season in ("summer", "autumn", "winter"):
        for p in setup.akebono.personalities[season]:
            assert PERSONALITY_BY_ID[p].name not in text
    for card in setup.akebono.new_characters.values():
        assert CHARACTER_BY_ID[card].name not in text
    assert "Nagaya 1" not in text and "Nagaya 2" not in text
    assert "Blocking tile 1" not in text
    for item in hidden_items(setup):
        assert item.text not in text
    assert f"Seat {setup.two_player.sun} takes the Sun token" in text


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=4", "the setup code"),
        ("players=4&seed=K7MX2QPA&size=a5", "Size must be a4 or letter"),
        ("players=9&seed=K7MX2QPA", "not 9"),
        ("players=4&seed=ILLEGAL1", "never use"),
    ],
)
def test_sheet_bad_input(query: str, words: str) -> None:
    response = Client().get(f"/setup/sheet.pdf?{query}")
    assert response.status_code == 400
    assert words in response.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize(
    "query",
    [
        "players=4",
        "players=3&akebono=1",
        "players=2",
        "players=2&akebono=1",
        "players=2&akebono=1&grand_master=1",
    ],
)
@pytest.mark.parametrize("seed", ["K7MX2QPA", "ZZZZZZZZ"])
def test_no_sheet_names_a_hidden_draw(query: str, seed: str) -> None:
    """Issue 20, every option: the sheet names no hidden draw, and says what the tracker reveals instead."""
    setup = generate(
        Options(
            int(query.split("&")[0].removeprefix("players=")),
            akebono="akebono=1" in query,
            grand_master="grand_master=1" in query,
        ),
        seed,
    )
    _, text = pdf_text(Client().get(f"/setup/sheet.pdf?{query}&seed={seed}").content)
    assert named_hidden_draws(text, setup) == []
    assert text.count("Hidden until due: the game tracker reveals") == sum(
        1 for _ in {item.id.rsplit("-", 1)[0] for item in hidden_items(setup)}
    )


@pytest.mark.parametrize("query", [GM, "players=2&akebono=1", "players=4&akebono=1", "players=3"])
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_no_page_ends_with_a_section_heading(query: str, size: str) -> None:
    """A section's heading ("Two-player setup") is printed on the page of its first step, never alone at the foot
    of the page before it."""
    from setupgen.checklist import Section

    content = Client().get(f"/setup/sheet.pdf?{query}&seed=K7MX2QPA&size={size}").content
    reader, _ = pdf_text(content)
    last_lines = [page.extract_text().strip().splitlines()[-1].strip() for page in reader.pages[:-1]]
    assert not set(last_lines) & {section.label for section in Section}
