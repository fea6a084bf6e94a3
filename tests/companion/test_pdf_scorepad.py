"""PDF score pads (companion/pdf/scorepad.py), read back with pypdf and rendered with poppler's pdftoppm.

The pad's lines and their order are RULINGS R3; the reminders are those of the rulebook's "END OF THE GAME AND
SCORING" (iki-rulebook.txt) and RULINGS R4-R10; ties are RULINGS R12.
"""

from __future__ import annotations

import datetime
import io
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, letter

from companion.pdf import pad_layout, scorepad
from companion.pdf.scorepad import PadPlayer, blank_pad, filled_pad, layout
from scoring import LINE_LABELS, evaluate, lines_for
from scoring.examples import WORKED_EXAMPLE
from scoring.score import FISH_POINTS, VARIETY_POINTS

SCREENS = Path(__file__).resolve().parents[2] / "out" / "screens"
DATE = datetime.date(2026, 11, 22)
SIZES = {"A4": A4, "letter": letter}

Item = tuple[str, float, float]  # text, x, y of one text run


def read(pdf: bytes) -> tuple[PdfReader, list[Item]]:
    reader = PdfReader(io.BytesIO(pdf))
    items: list[Item] = []

    def visit(text: str, cm: Sequence[float], tm: Sequence[float], font: object, size: float) -> None:
        if text.strip():
            items.append((text.strip(), tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]))

    reader.pages[0].extract_text(visitor_text=visit)
    return reader, items


def all_text(items: list[Item]) -> str:
    return " ".join(t for t, _, _ in items)


def cell(items: list[Item], lay: scorepad.Layout, row: str, column: int) -> str:
    """The text drawn in one cell of the grid."""
    x0, x1 = lay.column(column)
    r = lay.row(row)
    return " ".join(t for t, x, y in items if x0 <= x < x1 and r.bottom <= y < r.top)


def label_cell(items: list[Item], lay: scorepad.Layout, row: str) -> str:
    r = lay.row(row)
    return " ".join(t for t, x, y in items if lay.left <= x < lay.label_right and r.bottom <= y < r.top)


def pad_players(example: dict[str, object], colours: Sequence[str | None] = ()) -> list[PadPlayer]:
    answer = evaluate(example)
    assert answer["valid"], answer["errors"]
    colours = list(colours) or [None] * len(answer["players"])
    return [
        PadPlayer(p["name"], colour, p["lines"], p["total"], p["rank"])
        for p, colour in zip(answer["players"], colours, strict=True)
    ]


def player(name: str, firefighting: int, score_track: int = 20, **more: object) -> dict[str, object]:
    return {"name": name, "score_track": score_track, "firefighting": firefighting, **more}


# --- blank pads -----------------------------------------------------------------------------------------------

COMBOS = [(akebono, players, size) for akebono in (False, True) for players in (2, 3, 4) for size in SIZES]


@pytest.mark.parametrize(("akebono", "players", "size"), COMBOS)
def test_blank_pad_is_one_page_of_the_size_asked(akebono: bool, players: int, size: str) -> None:
    reader, _ = read(blank_pad(akebono=akebono, players=players, pagesize=size))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(SIZES[size], abs=0.01)


@pytest.mark.parametrize(("akebono", "players", "size"), COMBOS)
def test_blank_pad_has_every_line_in_the_pads_order(akebono: bool, players: int, size: str) -> None:
    """RULINGS R3: score track, variety, fish, tobacco, buildings, resources (+ personalities), then the total."""
    _, items = read(blank_pad(akebono=akebono, players=players, pagesize=size))
    lay = layout(akebono=akebono, players=players, pagesize=size)
    keys = [r.key for r in lay.rows]
    assert keys == ["names", *lines_for(akebono), "total", "rank"]
    for line in lines_for(akebono):
        assert label_cell(items, lay, line).startswith(LINE_LABELS[line])
    assert label_cell(items, lay, "total") == "Total"
    assert label_cell(items, lay, "rank") == "Rank"
    tops = [r.top for r in lay.rows]
    assert tops == sorted(tops, reverse=True)
    assert all(a.bottom == pytest.approx(b.top) for a, b in zip(lay.rows, lay.rows[1:], strict=False))


@pytest.mark.parametrize(("akebono", "players", "size"), COMBOS)
def test_blank_pad_player_columns_are_empty_for_handwriting(akebono: bool, players: int, size: str) -> None:
    _, items = read(blank_pad(akebono=akebono, players=players, pagesize=size))
    lay = layout(akebono=akebono, players=players, pagesize=size)
    for column in range(players):
        assert cell(items, lay, "names", column) == "name"
        for row in lay.rows[1:]:
            assert cell(items, lay, row.key, column) == ""
    in_columns = [t for t, x, y in items if x >= lay.label_right and lay.grid_bottom <= y <= lay.grid_top]
    assert not any(re.search(r"\d", t) for t in in_columns)
    assert min(r.top - r.bottom for r in lay.rows if r.key in lines_for(akebono)) >= pad_layout.BLANK_LINE_ROW


@pytest.mark.parametrize(("akebono", "players", "size"), COMBOS)
def test_everything_fits_on_the_page(akebono: bool, players: int, size: str) -> None:
    _, items = read(blank_pad(akebono=akebono, players=players, pagesize=size))
    width, height = SIZES[size]
    lay = layout(akebono=akebono, players=players, pagesize=size)
    assert lay.bottom >= pad_layout.MARGIN - 0.01
    assert lay.right == pytest.approx(width - pad_layout.MARGIN)
    assert all(0 < x < width and lay.bottom - 1 <= y < height for _, x, y in items)


@pytest.mark.parametrize("akebono", [False, True])
def test_blank_pad_prints_the_scoring_reminders(akebono: bool) -> None:
    """iki-rulebook.txt, END OF THE GAME AND SCORING; RULINGS R4 (variety), R6 (fish), R7 (tobacco), R9."""
    _, items = read(blank_pad(akebono=akebono, players=4))
    text = all_text(items)
    for reminder in (
        "1/4/9/16/25 IKI for 1-5 character types",
        "Buildings are not a type",
        "retired Puppeteer is the type you choose",
        "3/6/10/15 IKI for 1-4 fish",
        "bonus fish spring +1, summer +7, autumn +1, winter +7",
        "all doubled if you hold at least one pipe",
        "3 per koban, 1 per wood, 1 per full 4 mon",
        "Rice and sandals: 0",
        "spring 2 or 3 · summer 4 or firefighting ÷ 2",
        "Kabuki Theater 26",
        "Merchant House 3 per sandal (max 30)",
        "Restaurant = your fish line",
        "A tie goes to the higher firefighting position",
    ):
        assert reminder in text, reminder
    # the same numbers as the rules core, not retyped ones
    assert "/".join(map(str, VARIETY_POINTS[1:])) in text
    assert "/".join(map(str, FISH_POINTS[1:])) in text


def test_akebono_pad_adds_personalities_boats_and_trade() -> None:
    """Akebono rulebook, END OF THE GAME: a dedicated personalities line; RULINGS R6-R8, R10."""
    _, items = read(blank_pad(akebono=True, players=3))
    text = all_text(items)
    for note in (
        "so are Mounted Samurai and Rice Broker",
        "Akebono fish spring −2, winter +4; Fisherman +1",
        "Akebono: spring personalities met · summer trade ÷ 2 · autumn kobans · winter 6",
        "Policeman token special characters",
        "Wholesale Shipping Agency 2 per trade space",
        "Inn for Sailors 2 per boat",
        "Kazan Watanabe 2 per boat and per building",
        "Hiroshige Utagawa 7 with ≥3 artisans",
        "Ryōkan 6 if last in firefighting order",
        "Storyteller's Theater 4 per personality (max 16)",
        "Temple 30",
        "All other personalities: 0",
    ):
        assert note in text, note


def test_base_pad_has_nothing_of_akebono() -> None:
    _, items = read(blank_pad(akebono=False, players=4))
    text = all_text(items)
    for absent in ("Personalities", "Akebono", "Temple", "Wholesale", "Mounted Samurai", "boat"):
        assert absent not in text, absent


def test_blank_pads_are_reproducible() -> None:
    assert blank_pad(akebono=True, players=3) == blank_pad(akebono=True, players=3)


# --- filled pads ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_worked_example_pad_shows_anais_at_100(size: str) -> None:
    """iki-rulebook.txt worked example: Anaïs 28 + 16 + 18 + 16 + 18 + 4 = 100."""
    players = pad_players(WORKED_EXAMPLE)
    pdf = filled_pad(akebono=False, players=players, pagesize=size, date=DATE, seed="K7Q2-9XZ")
    reader, items = read(pdf)
    assert len(reader.pages) == 1
    lay = layout(akebono=False, players=2, pagesize=size, blank=False)
    assert cell(items, lay, "names", 0) == "Anaïs"
    assert cell(items, lay, "names", 1) == "David"
    expected = {"score_track": "28", "variety": "16", "fish": "18", "tobacco": "16", "buildings": "18"}
    for line, value in expected.items():
        assert cell(items, lay, line, 0) == value
    assert cell(items, lay, "resources", 0) == "4"
    assert cell(items, lay, "total", 0) == "100"
    assert cell(items, lay, "rank", 0) == "1st"
    assert cell(items, lay, "total", 1) == str(players[1].total)
    assert cell(items, lay, "rank", 1) == "2nd"
    text = all_text(items)
    assert "Date 22 November 2026" in text
    assert "Setup code K7Q2-9XZ" in text
    assert "IKI score pad" in text


def four_player_akebono() -> dict[str, object]:
    """Four players; Chloé and Dai tie on the total and are told apart by firefighting (RULINGS R12)."""
    return {
        "expansions": ["akebono"],
        "players": [
            player("Anaïs", 6, 60, personalities=["ryokan"], characters=["wood-seller"]),
            player("Bertrand", 7, 40, koban=2),
            player("Chloé", 5, 30, wood=3),
            player("Dai", 3, 33),
        ],
    }


@pytest.mark.parametrize("size", SIZES)
def test_four_player_akebono_pad_with_ranks_and_tie_break(size: str) -> None:
    example = four_player_akebono()
    answer = evaluate(example)
    assert answer["valid"], answer["errors"]
    tie_breaks = [p["tie_break"] for p in answer["players"] if p["tie_break"]]
    assert len(tie_breaks) == 2  # the same sentence for both tied players
    players = pad_players(example, ["red", "#2060c0", "green", "yellow"])
    pdf = filled_pad(
        akebono=True, players=players, pagesize=size, date=DATE, tie_breaks=tie_breaks, title="Friday game"
    )
    _, items = read(pdf)
    lay = layout(akebono=True, players=4, pagesize=size, blank=False, tie_breaks=tie_breaks[:1])
    for i, p in enumerate(players):
        assert cell(items, lay, "names", i) == p.name
        for line in lines_for(True):
            assert cell(items, lay, line, i) == str(p.lines[line])
        assert cell(items, lay, "total", i) == str(p.total)
        assert cell(items, lay, "rank", i) == scorepad.ordinal(p.rank)
    assert [cell(items, lay, "rank", i) for i in range(4)] == ["1st", "2nd", "3rd", "4th"]
    assert cell(items, lay, "personalities", 0) == "0"  # Ryōkan: Anaïs is not last in firefighting
    text = all_text(items)
    assert text.startswith("Friday game")
    assert "Setup code" not in text  # unknown seed: no setup code printed
    assert text.count("Chloé and Dai tie on 33 IKI") == 1
    assert "broken by firefighting position" in text
    assert lay.bottom >= pad_layout.MARGIN - 0.01


def test_shared_place_prints_the_same_rank_twice() -> None:
    """RULINGS R12: still tied without a stack order, they share the place (1, 1, 3)."""
    example = {"players": [player("Ann", 4), player("Ben", 4), player("Cy", 2, 10)]}
    players = pad_players(example)
    assert [p.rank for p in players] == [1, 1, 3]
    _, items = read(filled_pad(akebono=False, players=players, date=DATE))
    lay = layout(akebono=False, players=3, blank=False)
    assert [cell(items, lay, "rank", i) for i in range(3)] == ["1st", "1st", "3rd"]


def test_names_beyond_latin_1_render() -> None:
    lines = dict.fromkeys(lines_for(True), 0)
    players = [PadPlayer("Ryōkan", None, lines, 0, 1), PadPlayer("Jūzaburō", None, lines, 0, 1)]
    _, items = read(filled_pad(akebono=True, players=players, date=DATE))
    lay = layout(akebono=True, players=2, blank=False)
    assert [cell(items, lay, "names", i) for i in range(2)] == ["Ryōkan", "Jūzaburō"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Philipp Franz von Siebold", "Philipp Franz von Siebold"),  # three lines
        ("Wolfeschlegelsteinhausenbergerdorff Hubert Blaine", "…"),  # too long even on two lines
    ],
)
def test_long_names_stay_in_their_column(name: str, shown: str) -> None:
    lines = dict.fromkeys(lines_for(False), 1)
    players = [PadPlayer(name, "red", lines, 6, 1), PadPlayer("Bo", None, lines, 6, 1)]
    players += [PadPlayer(f"P{i}", None, lines, 6, 1) for i in (3, 4)]
    _, items = read(filled_pad(akebono=False, players=players, date=DATE))
    lay = layout(akebono=False, players=4, blank=False)
    text = cell(items, lay, "names", 0)
    assert shown in text
    assert cell(items, lay, "names", 1) == "Bo"
    _, bold = scorepad.fonts()
    parts, size = scorepad._name_lines(name, bold, lay.column_width - 8 - 14)
    assert len(parts) <= 3
    x0, x1 = lay.column(0)
    assert all(x0 + 18 + scorepad.stringWidth(p, bold, size) <= x1 for p in parts)


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("Anaïs-Marguerite Dupont", ["Anaïs-", "Marguerite", "Dupont"]),  # a line ends after the hyphen
        (
            "山田花子さんと太郎くんたち",
            ["山田花子さんと", "太郎くんたち"],
        ),  # no space: it breaks between characters
    ],
)
def test_a_long_name_wraps_whole_rather_than_cut(name: str, lines: list[str]) -> None:
    """A name with room on three lines in a four-player column is printed whole: a hyphenated name was cut to
    "Anaïs-Marg…", and a name in kana and kanji, which has no space to break at, lost its second half."""
    lay = layout(akebono=True, players=4, blank=False, pagesize="Letter")
    font = scorepad.font_for(name, scorepad.fonts()[1])
    parts, size = scorepad._name_lines(name, font, lay.column_width - 8 - 14)
    assert parts == lines
    assert all(scorepad.stringWidth(p, font, size) <= lay.column_width - 8 - 14 for p in parts)


def test_a_name_cut_short_says_so_in_a_font_that_draws_the_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Droid Sans Fallback has no "…": a kanji name cut short looked whole. Every string the pad draws is drawn in
    a font that has its glyphs, so the cut mark of a kanji name is drawn in the bold font."""
    name = "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末食う寝る処に住む処"
    drawn: list[tuple[str, str]] = []
    original = scorepad.Canvas.drawString

    def spy(canvas: Any, x: float, y: float, value: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append((canvas._fontname, value))
        return original(canvas, x, y, value, *args, **kwargs)

    monkeypatch.setattr(scorepad.Canvas, "drawString", spy)
    lines = dict.fromkeys(lines_for(True), 0)
    players = [
        PadPlayer(name, "red", lines, 0, 1),
        *(PadPlayer(n, None, lines, 0, 1) for n in ("B", "C", "D")),
    ]
    filled_pad(akebono=True, players=players, date=DATE, pagesize="Letter")
    assert ("DejaVuSans-Bold", "…") in drawn  # the mark, after the kanji
    assert [(font, value) for font, value in drawn if not scorepad.draws(value, font)] == []


def render(pdf: bytes, name: str, tmp_path: Path) -> Path:
    """Render with ``pdftoppm -png -r 60`` (as a person checks them) into out/screens/ and return the PNG."""
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-singlefile", str(source), str(tmp_path / name)], check=True
    )
    png = tmp_path / f"{name}.png"
    SCREENS.mkdir(parents=True, exist_ok=True)
    (SCREENS / f"{name}.png").write_bytes(png.read_bytes())
    return png


@pytest.mark.parametrize(("akebono", "players", "size"), COMBOS)
def test_blank_pads_render_to_png(akebono: bool, players: int, size: str, tmp_path: Path) -> None:
    png = render(
        blank_pad(akebono=akebono, players=players, pagesize=size),
        f"pad-blank-{'akebono' if akebono else 'base'}-{players}-{size.lower()}",
        tmp_path,
    )
    with Image.open(png) as image:
        assert image.size == pytest.approx(tuple(v / 72 * 60 for v in SIZES[size]), abs=1)
        grey = image.convert("L")
        lay = layout(akebono=akebono, players=players, pagesize=size)
        middle = round((lay.height - (lay.grid_top + lay.grid_bottom) / 2) / 72 * 60)
        border = [grey.getpixel((round(lay.left / 72 * 60) + dx, middle)) for dx in (-1, 0, 1)]
        assert min(border) < 90  # the grid's heavy left border is there


@pytest.mark.parametrize("size", SIZES)
def test_colour_swatches_are_drawn_in_the_players_colours(size: str, tmp_path: Path) -> None:
    colours = ["red", "#2060c0", "", "yellow"]  # "" like None: no swatch
    players = pad_players(four_player_akebono(), colours)
    pdf = filled_pad(akebono=True, players=players, pagesize=size, date=DATE, seed="ABC")
    png = render(pdf, f"pad-filled-akebono-4-{size.lower()}", tmp_path)
    lay = layout(akebono=True, players=4, pagesize=size, blank=False)
    names = lay.row("names")
    expected = {"red": (255, 0, 0), "#2060c0": (32, 96, 192), "yellow": (255, 255, 0)}
    with Image.open(png) as image:
        rgb = image.convert("RGB")
        for i, colour in enumerate(colours):
            if not colour:
                continue
            x0, _ = lay.column(i)
            point = (
                round((x0 + 9) / 72 * 60),
                round((lay.height - (names.top + names.bottom) / 2) / 72 * 60),
            )
            assert rgb.getpixel(point) == pytest.approx(expected[colour], abs=3)
    _, items = read(pdf)
    name_x = {t: x for t, x, y in items if names.bottom <= y < names.top}
    assert name_x["Chloé"] == pytest.approx(
        lay.column(2)[0] + 4
    )  # no colour: no swatch, the name starts left
    assert name_x["Dai"] == pytest.approx(lay.column(3)[0] + 18)


# --- bad arguments --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "2 to 4 player columns, not 5"),
        ({"players": 1}, "2 to 4 player columns, not 1"),
        ({"players": True}, "whole number"),
        ({"players": "4"}, "whole number"),
        ({"pagesize": "A3"}, "unknown page size 'A3'"),
        ({"pagesize": ""}, "unknown page size"),
    ],
)
def test_blank_pad_refuses_impossible_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"akebono": False, "players": 4, **kwargs}
    with pytest.raises(ValueError, match=re.escape(message)):
        blank_pad(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", ["a4", "A4", "letter", "Letter", "LETTER"])
def test_page_size_names_ignore_case(size: str) -> None:
    reader, _ = read(blank_pad(akebono=False, players=2, pagesize=size))
    assert float(reader.pages[0].mediabox.width) == pytest.approx(SIZES[size.lower().replace("a4", "A4")][0])


BASE_LINES = dict(zip(lines_for(False), (28, 16, 18, 16, 18, 4), strict=True))


def ok(**changes: object) -> PadPlayer:
    values: dict[str, object] = {
        "name": "Anaïs",
        "colour": None,
        "lines": BASE_LINES,
        "total": 100,
        "rank": 1,
    }
    values.update(changes)
    return PadPlayer(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "kwargs", "message"),
    [
        ([ok()] * 5, {}, "2 to 4 player columns, not 5"),
        ([ok()], {}, "2 to 4 player columns, not 1"),
        ([ok(), ok(lines={"score_track": 100})], {}, "no value for the line(s) variety, fish"),
        (
            [ok(), ok(lines={**BASE_LINES, "personalities": 0})],
            {},
            "personalities is not a line of a base-game",
        ),
        ([ok(), ok(total=99)], {}, "total 99 is not the sum of the lines (100)"),
        ([ok(), ok(rank=0)], {}, "rank 0 is not 1-2"),
        ([ok(), ok(rank=3)], {}, "rank 3 is not 1-2"),
        ([ok(), ok(name="  ")], {}, "every player needs a name"),
        ([ok(), ok(colour="sky-ish")], {}, "unknown colour 'sky-ish'"),
        ([ok(), ok()], {"pagesize": "legal"}, "unknown page size 'legal'"),
        ([ok(), ok()], {"date": "2026-11-22"}, "date must be a datetime.date"),
        ([ok(), ok()], {"akebono": True}, "no value for the line(s) personalities"),
    ],
)
def test_filled_pad_refuses_impossible_arguments(
    players: list[PadPlayer], kwargs: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {"akebono": False, "players": players, "date": DATE, **kwargs}
    with pytest.raises(ValueError, match=re.escape(message)):
        filled_pad(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "word"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (21, "21st")]
)
def test_ordinal(n: int, word: str) -> None:
    assert scorepad.ordinal(n) == word


def test_names_in_kanji_are_drawn_in_a_font_that_has_them() -> None:
    """DejaVu has no kanji: 李小龍 printed as three empty boxes. Such a name is drawn in Droid Sans Fallback
    (.ci/test installs it), its glyphs embedded; a Latin name keeps DejaVu."""
    lines = dict.fromkeys(lines_for(True), 0)
    players = [
        PadPlayer("李小龍", None, lines, 0, 1),
        PadPlayer("山田 太郎", None, lines, 0, 1),
        PadPlayer("Anaïs", None, lines, 0, 1),
    ]
    reader, items = read(filled_pad(akebono=True, players=players, date=DATE))
    lay = layout(akebono=True, players=3, blank=False)
    assert [cell(items, lay, "names", i) for i in range(3)] == ["李小龍", "山田 太郎", "Anaïs"]
    fonts = {str(f["/BaseFont"]) for f in reader.pages[0]["/Resources"]["/Font"].values()}
    assert any("DroidSansFallback" in f for f in fonts)
    assert any("DejaVuSans-Bold" in f for f in fonts)
