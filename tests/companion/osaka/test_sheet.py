"""The Traders of Osaka tally sheet (companion/pdf/osaka_sheet.py): one page, A4 and Letter, blank for 2-4 players
and filled; the rules in numbers printed from the core; VP left out while the game goes on (RULINGS O6)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from pypdf import PdfReader

from companion.pdf.osaka_sheet import Tally, TallyPayday, TallyPlayer, blank_sheet, tally_sheet
from scoring.osaka.components import ByColour


def pdf_text(content: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(content))
    return reader, " ".join("\n".join(page.extract_text() for page in reader.pages).split())


@pytest.mark.parametrize(
    ("query", "size", "players"),
    [("", (595, 842), 4), ("?size=letter&players=2", (612, 792), 2), ("?size=a4&players=3", (595, 842), 3)],
)
def test_blank_sheet(client: Client, query: str, size: tuple[int, int], players: int) -> None:
    response = client.get(f"/osaka/sheet.pdf{query}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f"-{players}-players-" in response["Content-Disposition"]
    reader, text = pdf_text(response.content)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size
    assert "Traders of Osaka · tally sheet" in text and "Total (8 ends)" in text
    # a payday column per player, the end's row, the rule for the winner, the rounding table
    assert text.count("VP cards") == players + 3
    assert '11 × "2", 9 × "3", 7 × "5"' in text and "46–50 VP cards 1 2 3 4 5 6 7 8 9 10" in text


@pytest.mark.parametrize("query", ["?size=a3", "?players=5", "?players=two", "?size=a4&players=1"])
def test_bad_query_is_the_error_page(client: Client, query: str) -> None:
    """The error page a phone reads (a plain text answer showed as tiny type on a phone's screen)."""
    response = client.get(f"/osaka/sheet.pdf{query}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert 'role="alert"' in response.content.decode()
    assert "No such tally sheet." in response.content.decode()


def _tally(*, secret: bool, paydays: int = 6) -> Tally:
    players = (
        TallyPlayer("Anaïs", "white", ByColour(3, 0, 0, 5), 24, 1),
        TallyPlayer("David", "pink", ByColour(0, 2, 4, 0), 24, 2),
        TallyPlayer("Ryōko", "tan", ByColour(0, 2, 0, 2), 19, 3),
    )
    colours = ["red", "green", "yellow"]
    return Tally(
        players=players,
        paydays=tuple(
            TallyPayday(colours[i % 3], ("blue",) if i == 0 else (), (None,) * 3 if secret else (4, 2, 1), i == paydays - 1)
            for i in range(paydays)
        ),
        subtitle="Game of 23 November 2026 · 3 players",
        vp_secret=secret,
        end="" if secret else "The game ends after the yellow payday: Anaïs has 8 or more achievement tokens.",
        tie_breaks=("Tied with David on 24 VP; more achievement tokens rank first (Anaïs 8, David 6), so Anaïs is 1st.",),
    )  # fmt: skip


def test_filled_sheet_at_the_end() -> None:
    reader, text = pdf_text(tally_sheet(_tally(secret=False)))
    assert len(reader.pages) == 1
    assert "Anaïs" in text and "Ryōko" in text
    assert "Anaïs 3 0 0 5 8" in text  # the tokens row
    assert "1 ● red ● blue 4 2 1" in text and "6 ● yellow · end" in text
    assert "VP cards 24 24 19 Tokens 8 6 4 Rank 1 2 3" in text
    assert "so Anaïs is 1st." in text


def test_filled_sheet_during_play_keeps_vp_secret() -> None:
    _, text = pdf_text(tally_sheet(_tally(secret=True)))
    assert "VP counts stay secret until the end" in text
    assert "24" not in text and "so Anaïs is 1st" not in text
    assert "Anaïs 3 0 0 5 8" in text  # tokens are public


def test_a_long_game_still_fits_one_page() -> None:
    reader, text = pdf_text(tally_sheet(_tally(secret=False, paydays=30), size="letter"))
    assert len(reader.pages) == 1 and "30 ● yellow · end" in text


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        blank_sheet(players=5)
    with pytest.raises(ValueError, match="a4 or letter"):
        blank_sheet(size="a3")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is needed to render the sheet")
def test_the_sheet_renders(tmp_path: Path) -> None:
    """Rendered to PNG as a person sees it (out/screens/ keeps a copy to look at)."""
    from tests.conftest import SCREENSHOTS

    for name, content in (
        ("osaka-sheet-blank", blank_sheet()),
        ("osaka-sheet-filled", tally_sheet(_tally(secret=False))),
    ):
        pdf = tmp_path / f"{name}.pdf"
        pdf.write_bytes(content)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(SCREENSHOTS / name)], check=True
        )
        assert (SCREENSHOTS / f"{name}.png").stat().st_size > 10_000


def test_long_names_fit_their_heading_cells() -> None:
    """Four names of 24 letters (one in kana and kanji): every row is as tall as its cells' words need. The names
    in the tables' headings ran over the rules, and the paydays' "VP cards" over the top of the sheet's table."""
    from reportlab.platypus import Paragraph

    from companion.pdf import osaka_sheet

    names = (
        "Anaïs-Marguerite Dupont",
        "Wolfgang Amadeus Schmidt",
        "Maximilianus Bartholomew",
        "山田花子さんと太郎くんたち",
    )
    players = tuple(
        TallyPlayer(n, t, ByColour(1, 0, 0, 0), None, None)
        for n, t in zip(names, ("white", "pink", "gray", "tan"), strict=True)
    )
    tally = Tally(players=players, paydays=(TallyPayday("red", (), (None,) * 4, False),), vp_secret=True)
    st, width = osaka_sheet._styles(), 185 * 2.8346
    tables = {
        "tokens": osaka_sheet._tokens_table(tally, 4, width, st),
        "paydays": osaka_sheet._paydays_table(tally, 4, width, 400, st),
        "end": osaka_sheet._final_table(tally, 4, width, st),
    }
    short = []
    for name, table in tables.items():
        table.wrap(width, 1000)
        for r, row in enumerate(table._cellvalues):
            for c, cell in enumerate(row):
                if isinstance(cell, Paragraph):
                    _, need = cell.wrap(table._colWidths[c] - 12, 1000)  # 6 pt of padding each side
                    if need + 4 > table._rowHeights[r] + 0.01:  # 2 pt above and below
                        short.append((name, r, c, need + 4, table._rowHeights[r]))
    assert short == []
    reader, text = pdf_text(tally_sheet(tally, size="letter"))
    assert len(reader.pages) == 1 and "Maximilianus" in text
