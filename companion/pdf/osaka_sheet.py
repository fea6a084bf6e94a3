"""The Traders of Osaka tally sheet (issue 15): one page, A4 or Letter, blank to print or filled from a tracked game.

Top to bottom: the players (name, Trader colour), the achievement tokens by colour (public; 8 ends the game), one
row per payday (the ship, the ships sunk with it, each player's VP cards), the final count with the ranking and its
tie-break (RULINGS O5), and the rules in numbers: the value of a set, the rounding table, insurance icons, the
supply, the end, the tie-break. Every number comes from :mod:`scoring.osaka`. VP counts are secret during play
(RULINGS O6): a filled sheet of a game still going leaves them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from io import BytesIO
from typing import Any, Final
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepInFrame, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from companion.pdf.fonts import font_for, fonts, text
from scoring.osaka.components import (
    CARD_VALUES,
    COLOURS,
    COPIES,
    END_TOKENS,
    ICONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOKENS_PER_COLOUR,
    TRADERS,
    VP_STEP,
    ByColour,
)

PAGE_SIZES: Final = {"a4": A4, "letter": LETTER}
#: Rows for paydays on a blank sheet (a game rarely has more; a filled sheet takes as many as it needs).
BLANK_PAYDAYS: Final = 16
#: Columns of the rounding table printed under the rules: points up to this many VP cards.
ROUNDING_COLUMNS: Final = 10
INK: Final = colors.HexColor("#1d1b19")
MUTED: Final = colors.HexColor("#5f5a53")
LINE: Final = colors.HexColor("#8c8275")
SHADE: Final = colors.HexColor("#f3eee6")
GOODS: Final = {"red": "#c62828", "blue": "#1565c0", "yellow": "#e0b000", "green": "#2e7d32"}
TRADER_COLOURS: Final = {"white": "#ffffff", "pink": "#f4a6c0", "gray": "#8d8d8d", "tan": "#d2b48c"}


@dataclass(frozen=True)
class TallyPlayer:
    name: str
    trader: str
    tokens: ByColour[int]
    vp: int | None = None
    rank: int | None = None


@dataclass(frozen=True)
class TallyPayday:
    """One payday: its ship, the ships the Black Tide sank during it, each player's VP cards (None: secret)."""

    colour: str
    sank: tuple[str, ...] = ()
    vp: tuple[int | None, ...] = ()
    ended: bool = False


@dataclass(frozen=True)
class Tally:
    """What a filled sheet shows. ``vp_secret`` while the game goes on (RULINGS O6)."""

    players: tuple[TallyPlayer, ...]
    paydays: tuple[TallyPayday, ...] = ()
    subtitle: str = ""
    vp_secret: bool = True
    end: str = ""
    tie_breaks: tuple[str, ...] = field(default=())


def _p(value: str) -> str:
    return escape(text(value))


def _name(value: str) -> str:
    """A player's name as markup, in the fallback font when the sheet's font cannot draw it (kanji)."""
    regular = fonts()[0]
    font = font_for(value, regular)
    return _p(value) if font == regular else f"<font name='{font}'>{_p(value)}</font>"


def _dot(colour: str) -> str:
    return f"<font color='{GOODS[colour]}'>●</font>" if fonts()[0] != "Helvetica" else colour[0].upper()


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = fonts()
    body = ParagraphStyle("body", fontName=regular, fontSize=8.5, leading=10.5, textColor=INK)
    return {
        "body": body,
        "small": ParagraphStyle("small", parent=body, fontSize=7.5, leading=9, textColor=MUTED),
        "title": ParagraphStyle("title", parent=body, fontName=bold, fontSize=16, leading=19),
        "head": ParagraphStyle(
            "head", parent=body, fontName=bold, fontSize=10.5, leading=13, spaceBefore=5, spaceAfter=2
        ),
        "cell": ParagraphStyle("cell", parent=body, fontName=bold, fontSize=9, leading=11),
        "tiny": ParagraphStyle("tiny", parent=body, fontName=bold, fontSize=7.5, leading=9, alignment=1),
        "centre": ParagraphStyle("centre", parent=body, fontSize=10, leading=12, alignment=1),
    }


def _grid(
    data: Sequence[list[Any] | tuple[Any, ...]],
    widths: Sequence[float],
    heights: float | Sequence[float] | None = None,
) -> Table:
    table = Table(data, colWidths=widths, rowHeights=heights)
    regular, bold = fonts()
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), regular, 9),
                ("FONT", (0, 0), (-1, 0), bold, 8.5),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("GRID", (0, 0), (-1, -1), 0.5, LINE),
                ("BOX", (0, 0), (-1, -1), 1.2, INK),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


#: A cell's padding in :func:`_grid`'s tables: reportlab's 6 pt each side, 2 pt above and below.
_SIDES, _ENDS = 12.0, 4.0


def _fit(row: Sequence[object], widths: Sequence[float], least: float) -> float:
    """A row's height: ``least``, or what its tallest paragraph needs (a long name on two or three lines)."""
    need = [
        cell.wrap(w - _SIDES, 1_000)[1] + _ENDS
        for cell, w in zip(row, widths, strict=True)
        if isinstance(cell, Paragraph)
    ]
    return max([least, *need])


def _player_labels(tally: Tally | None, players: int) -> list[str]:
    """Each player's heading as paragraph markup: the Trader colour's square and the name (blank: a hint)."""
    labels = []
    for i in range(players):
        trader = tally.players[i].trader if tally else TRADERS[i].value
        name = tally.players[i].name if tally else ""
        square = TRADER_COLOURS.get(trader, "#ffffff")
        mark = (
            "□" if square == "#ffffff" else f"<font color='{square}'>■</font>"
        )  # white on white: an outline
        swatch = f"{mark} " if fonts()[0] != "Helvetica" else ""
        labels.append(
            swatch + (_name(name) if name else f"<font color='#8c8275'>{_p(trader.capitalize())}</font>")
        )
    return labels


def _tokens_table(tally: Tally | None, players: int, width: float, st: dict[str, ParagraphStyle]) -> Table:
    label_w = 0.22 * width
    col = (width - label_w) / (len(COLOURS) + 1)
    rows: list[list[object]] = [
        [
            "Player",
            *[Paragraph(f"{_dot(c.value)} {c.label}", st["cell"]) for c in COLOURS],
            f"Total ({END_TOKENS} ends)",
        ]
    ]
    heads = [Paragraph(label, st["cell"]) for label in _player_labels(tally, players)]
    for i in range(players):
        if tally:
            tokens = tally.players[i].tokens
            rows.append([heads[i], *[str(n) for n in tokens.values()], str(sum(tokens.values()))])
        else:
            rows.append([heads[i], *[""] * (len(COLOURS) + 1)])
    widths = [label_w, *[col] * (len(COLOURS) + 1)]
    return _grid(rows, widths, [_fit(row, widths, 22 if i else 16) for i, row in enumerate(rows)])


def _paydays_table(
    tally: Tally | None, players: int, width: float, height: float, st: dict[str, ParagraphStyle]
) -> Table:
    paydays = tally.paydays if tally else ()
    count = max(BLANK_PAYDAYS if tally is None else 0, len(paydays), 1)
    labels = _player_labels(tally, players)
    number_w, ship_w, sank_w = 0.06 * width, 0.2 * width, 0.2 * width
    col = (width - number_w - ship_w - sank_w) / players
    widths = [number_w, ship_w, sank_w, *[col] * players]
    heading: list[object] = [
        "#",
        "Ship at Edo",
        "Sunk with it",
        *[Paragraph(f"VP cards<br/>{label}", st["tiny"]) for label in labels],
    ]
    heading_h = _fit(heading, widths, 24)
    row_h = min(20.0, (height - heading_h) / count)
    size = max(5.0, min(9.0, row_h - 4))  # a long game's rows shrink to keep the sheet on one page
    body = ParagraphStyle("row", parent=st["body"], fontSize=size, leading=size + 1)
    centre = ParagraphStyle("row-centre", parent=st["centre"], fontSize=size + 1, leading=size + 2)
    circles = Paragraph(" ".join(_dot(c.value) for c in COLOURS), centre)
    rows: list[list[object]] = [heading]
    for n in range(count):
        if n < len(paydays):
            p = paydays[n]
            ship = Paragraph(f"{_dot(p.colour)} {_p(p.colour)}" + (" · end" if p.ended else ""), body)
            sank = Paragraph(", ".join(f"{_dot(c)} {_p(c)}" for c in p.sank) or "–", body)
            vp = ["" if v is None else str(v) for v in p.vp] or [""] * players
            rows.append([str(n + 1), ship, sank, *vp])
        else:
            rows.append(
                [
                    str(n + 1),
                    circles if tally is None else "",
                    circles if tally is None else "",
                    *[""] * players,
                ]
            )
    table = _grid(rows, widths, [heading_h] + [row_h] * count)
    padding = 2 if row_h >= 13 else 0.5
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 1), (-1, -1), fonts()[0], size),
                ("TOPPADDING", (0, 1), (-1, -1), padding),
                ("BOTTOMPADDING", (0, 1), (-1, -1), padding),
            ]
        )
    )
    return table


def _final_table(tally: Tally | None, players: int, width: float, st: dict[str, ParagraphStyle]) -> Table:
    label_w = 0.22 * width
    col = (width - label_w) / players
    heads = [Paragraph(label, st["cell"]) for label in _player_labels(tally, players)]
    final = tally is not None and not tally.vp_secret
    vp: list[object] = ["VP cards"]
    tokens: list[object] = ["Tokens"]
    rank: list[object] = ["Rank"]
    for i in range(players):
        p = tally.players[i] if tally else None
        vp.append(str(p.vp) if final and p and p.vp is not None else "")
        tokens.append(str(sum(p.tokens.values())) if final and p else "")
        rank.append(str(p.rank) if final and p and p.rank is not None else "")
    widths = [label_w, *[col] * players]
    heading: list[object] = ["", *heads]
    return _grid([heading, vp, tokens, rank], widths, [_fit(heading, widths, 18), 20, 20, 20])


def _rules(st: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    bold = fonts()[1]
    supply = ", ".join(f'{n} × "{v}"' for v, n in COPIES.items())
    icons = ", ".join(f'"{v}" {ICONS[v]}' for v in CARD_VALUES)
    lines = [
        f"<font name='{bold}'>A set's value</font> = (highest card + your tokens of its colour) × cards, rounded up to a multiple of "
        f"{VP_STEP}. One VP card per {VP_STEP}: the set's lowest cards first, then the draw pile; discard the rest.",
        f"<font name='{bold}'>Tokens:</font> one of the colour for each payday that scores ({TOKENS_PER_COLOUR} a colour in the box; use a"
        f" substitute beyond). After a payday's token step, a player with {END_TOKENS} or more ends the game at once:"
        " nothing after it happens, not even a sinking or a second payday.",
        f"<font name='{bold}'>Black Tide:</font> ships on the waves sink during the first payday. Insure with cards of the same colour "
        f"from your hand (icons: {icons}); your highest uninsured goods first; insured goods stay insured.",
        f"<font name='{bold}'>Each colour:</font> {supply}. <font name='{bold}'>Winner:</font> most VP cards; a tie goes to more tokens; still tied, all tied"
        " win. VP counts are secret during play.",
    ]
    out: list[Flowable] = [Paragraph(line, st["body"]) for line in lines]
    points = ["Points", *[f"{VP_STEP * (n - 1) + 1}–{VP_STEP * n}" for n in range(1, ROUNDING_COLUMNS + 1)]]
    vps = ["VP cards", *[str(n) for n in range(1, ROUNDING_COLUMNS + 1)]]
    label_w = 0.12 * width
    table = _grid([points, vps], [label_w, *[(width - label_w) / ROUNDING_COLUMNS] * ROUNDING_COLUMNS], 13)
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), fonts()[0], 7.5), ("BACKGROUND", (0, 0), (-1, 0), colors.white),
                               ("BACKGROUND", (0, 0), (0, -1), SHADE)]))  # fmt: skip
    out.append(Spacer(1, 3))
    out.append(table)
    return out


def tally_sheet(tally: Tally | None = None, *, players: int = MAX_PLAYERS, size: str = "a4") -> bytes:
    """The sheet as PDF bytes: blank for ``players`` (2-4) when ``tally`` is None, else filled; always one page."""
    if tally is not None:
        players = len(tally.players)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a tally sheet has {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    if size not in PAGE_SIZES:
        raise ValueError(f"size is a4 or letter, not {size!r}")
    st = _styles()
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE_SIZES[size],
        leftMargin=13 * mm,
        rightMargin=13 * mm,
        topMargin=11 * mm,
        bottomMargin=10 * mm,
        title="Traders of Osaka tally sheet",
        author="IKI companion",
        invariant=1,
    )
    width = doc.width
    head: list[Flowable] = [Paragraph("Traders of Osaka · tally sheet", st["title"])]
    head.append(
        Paragraph(_p(tally.subtitle) if tally and tally.subtitle else "Date: ____________", st["small"])
    )
    head += [Paragraph("Achievement tokens (public)", st["head"]), _tokens_table(tally, players, width, st)]
    tail: list[Flowable] = [Paragraph("The end", st["head"])]
    if tally and tally.end:
        tail.append(Paragraph(_p(tally.end), st["body"]))
    tail.append(_final_table(tally, players, width, st))
    if tally and tally.vp_secret:
        tail.append(Paragraph("VP counts stay secret until the end: they are left out here.", st["small"]))
    for sentence in tally.tie_breaks if tally and not tally.vp_secret else ():
        tail.append(Paragraph(_p(sentence), st["small"]))
    tail += [Paragraph("The rules in numbers", st["head"]), *_rules(st, width)]
    title_pay = Paragraph("Paydays (one row per ship reaching Edo, in order)", st["head"])
    used = sum(
        f.wrap(width, doc.height)[1] + f.getSpaceBefore() + f.getSpaceAfter()
        for f in (*head, *tail, title_pay)
    )
    room = doc.height - used - 20  # the frame pads 6 points above and below
    story = [*head, title_pay, _paydays_table(tally, players, width, room, st), *tail]
    # One page always: should the measure above fall short by a few points, the whole sheet shrinks to fit.
    doc.build([KeepInFrame(width, doc.height - 12, story, mode="shrink")])
    return buffer.getvalue()


def blank_sheet(*, players: int = MAX_PLAYERS, size: str = "a4") -> bytes:
    return tally_sheet(None, players=players, size=size)


__all__: Sequence[str] = ["Tally", "TallyPayday", "TallyPlayer", "blank_sheet", "tally_sheet"]
