"""Score pads as PDFs (reportlab): blank ones to print and write in, filled ones for a scored game.

A pad looks like the official score pad: one row per score pad line in the pad's order (RULINGS R3, taken from
:func:`scoring.score.lines_for`), each with its label and a short reminder of how it scores, one column per player,
a bold total row and a rank row. Under the grid, the reference the reminders point to: tobacco pouch values,
building values, with Akebono the end-game personalities and where boats and the trade track score, and the
tie-break rule (RULINGS R12). Every number in the reminders comes from the rules core (scoring/score.py constants
and the catalogue), never retyped here.

A4 and Letter, 2-4 players, always one page. What the pad says is :mod:`companion.pdf.pad_text`; where it goes,
:mod:`companion.pdf.pad_layout`; this module draws it. Text uses the DejaVu fonts of :mod:`companion.pdf.fonts`, so names such
as "Ryōkan" or "Anaïs" render.
"""

from __future__ import annotations

import datetime
import io
import unicodedata
from collections.abc import Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from companion.pdf.fonts import draws, font_for, fonts, text
from companion.pdf.pad_layout import (
    LABEL_SIZE,
    MARGIN,
    NOTE_LEADING,
    NOTE_SIZE,
    PAD,
    REF_LEADING,
    REF_SIZE,
    TITLE_SIZE,
    Layout,
    Row,
    layout,
    note_lines,
    pad_notes,
    reference_lines,
)
from companion.pdf.pad_text import (
    INK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MUTED,
    RULE,
    SHADE,
    TOTAL_SHADE,
    PadPlayer,
    check_players,
    colour_of,
    long_date,
    ordinal,
    pad_lines,
    reference,
    swatch,
)
from scoring.score import lines_for

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Layout",
    "PadPlayer",
    "blank_pad",
    "filled_pad",
    "layout",
    "ordinal",
    "pad_lines",
    "reference",
]


# --- drawing --------------------------------------------------------------------------------------------------


def _pieces(value: str) -> list[tuple[str, str]]:
    """The pieces a name may break between, each with what joins it to the piece before on one line: a space
    between words; nothing after a hyphen, nor beside a wide character (kanji, kana), which needs no space."""
    pieces: list[tuple[str, str]] = []
    word, joint = "", ""
    for ch in value:
        if ch.isspace():
            if word:
                pieces.append((word, joint))
                word = ""
            joint = " "
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            if word:
                pieces.append((word, joint))
                word, joint = "", ""
            pieces.append((ch, joint))
            joint = ""
        else:
            word += ch
            if ch == "-":
                pieces.append((word, joint))
                word, joint = "", ""
    if word:
        pieces.append((word, joint))
    return pieces


def _wrap(value: str, font: str, size: float, width: float) -> list[str]:
    """``value`` on as few lines ``width`` wide as its pieces allow (a piece wider than that has a line alone)."""
    lines: list[str] = []
    for piece, joint in _pieces(value):
        if lines and stringWidth(lines[-1] + joint + piece, font, size) <= width:
            lines[-1] += joint + piece
        else:
            lines.append(piece)
    return lines


def _name_lines(name: str, font: str, width: float) -> tuple[list[str], float]:
    """A player's name for a column ``width`` wide: one line as large as fits, else two or three, else cut short."""
    value = text(name.strip())
    for size in (12.0, 11.0, 10.0):
        if stringWidth(value, font, size) <= width:
            return [value], size
    for size, most in ((10.0, 2), (9.0, 2), (8.0, 3)):
        parts = _wrap(value, font, size, width)
        if len(parts) <= most and all(stringWidth(p, font, size) <= width for p in parts):
            return parts, size
    kept: list[str] = []
    for part in parts[:3]:
        if stringWidth(part, font, 8.0) > width:  # an unbreakable word: cut it short
            part = _shorten(part, font, width)
        kept.append(part)
    if len(parts) > 3 and not kept[-1].endswith(CUT):
        kept[-1] = _shorten(kept[-1], font, width)
    return kept, 8.0


#: What ends a name cut short.
CUT = "…"


def _cut_font(font: str) -> str:
    """The font that draws :data:`CUT` after a name in ``font``: itself, or the bold font where it has no "…"
    (Droid Sans Fallback: a kanji name cut short looked whole)."""
    return font if draws(CUT, font) else fonts()[1]


def _shorten(value: str, font: str, width: float, size: float = 8.0) -> str:
    mark = stringWidth(CUT, _cut_font(font), size)
    while value and stringWidth(value, font, size) + mark > width:
        value = value[:-1]
    return value.rstrip() + CUT


def _draw_name_line(c: Canvas, x: float, y: float, line: str, font: str, size: float) -> None:
    """One line of a name; its cut mark in a font that has it."""
    mark = _cut_font(font)
    if not line.endswith(CUT) or mark == font:
        c.drawString(x, y, line)
        return
    c.drawString(x, y, line[: -len(CUT)])
    c.setFont(mark, size)
    c.drawString(x + stringWidth(line[: -len(CUT)], font, size), y, CUT)
    c.setFont(font, size)


def _draw_header(c: Canvas, lay: Layout, title: str, subtitle: list[tuple[str, str | None]]) -> None:
    regular, bold = fonts()
    top = lay.height - MARGIN
    c.setFillColor(INK)
    c.setFont(bold, TITLE_SIZE)
    c.drawString(lay.left, top - TITLE_SIZE + 4, text(title))
    x, y = lay.left, top - TITLE_SIZE - 14
    for label, value in subtitle:
        c.setFont(bold, 10)
        c.drawString(x, y, text(label))
        x += stringWidth(text(label), bold, 10) + 5
        c.setFont(regular, 10)
        if value is None:  # a line to write on
            c.setStrokeColor(RULE)
            c.setLineWidth(0.6)
            c.line(x, y - 2, x + 110, y - 2)
            x += 130
        else:
            c.drawString(x, y, text(value))
            x += stringWidth(text(value), regular, 10) + 18


def _draw_grid(c: Canvas, lay: Layout, akebono: bool) -> None:
    regular, bold = fonts()
    lines = {line: (label, reminder) for line, label, reminder in pad_lines(akebono)}
    label_width = lay.label_right - lay.left
    for i, row in enumerate(lay.rows):
        shade = TOTAL_SHADE if row.key == "total" else SHADE if i % 2 == 0 and row.key != "names" else None
        if shade is not None:
            c.setFillColor(shade)
            c.rect(lay.left, row.bottom, lay.right - lay.left, row.top - row.bottom, stroke=0, fill=1)
        c.setFillColor(INK)
        if row.key in lines:
            label, reminder = lines[row.key]
            c.setFont(bold, LABEL_SIZE)
            c.drawString(lay.left + PAD, row.top - PAD - LABEL_SIZE + 2, text(label))
            block = c.beginText(lay.left + PAD, row.top - PAD - LABEL_SIZE - 3 - NOTE_SIZE + 1)
            block.setFont(regular, NOTE_SIZE, NOTE_LEADING)
            block.setFillColor(MUTED)
            block.textLines(note_lines(reminder, label_width))
            c.drawText(block)
        elif row.key == "total":
            c.setFont(bold, 14)
            c.drawString(lay.left + PAD, (row.top + row.bottom) / 2 - 5, "Total")
        elif row.key == "rank":
            c.setFont(bold, LABEL_SIZE)
            c.drawString(lay.left + PAD, (row.top + row.bottom) / 2 - 4, "Rank")
        elif row.key == "names":
            c.setFont(bold, LABEL_SIZE)
            c.drawString(lay.left + PAD, (row.top + row.bottom) / 2 - 4, "Player")
    # rules: thin between rows, heavier around the grid and the total
    c.setStrokeColor(RULE)
    c.setLineWidth(0.5)
    for row in lay.rows[1:]:
        c.line(lay.left, row.top, lay.right, row.top)
    for i in range(1, lay.players):
        x = lay.column(i)[0]
        c.line(x, lay.grid_top, x, lay.grid_bottom)
    c.setStrokeColor(INK)
    c.setLineWidth(1.4)
    c.rect(lay.left, lay.grid_bottom, lay.right - lay.left, lay.grid_top - lay.grid_bottom, stroke=1, fill=0)
    c.line(lay.label_right, lay.grid_top, lay.label_right, lay.grid_bottom)
    c.line(lay.left, lay.row("names").bottom, lay.right, lay.row("names").bottom)
    total = lay.row("total")
    c.line(lay.left, total.top, lay.right, total.top)
    c.line(lay.left, total.bottom, lay.right, total.bottom)


def _draw_notes(
    c: Canvas, lay: Layout, akebono: bool, tie_breaks: Sequence[str], missing: Sequence[str] = ()
) -> None:
    regular, bold = fonts()
    width = lay.right - lay.left
    block = c.beginText(lay.left, lay.notes_top - REF_SIZE)
    block.setFillColor(INK)
    for heading, body in pad_notes(akebono, tie_breaks, missing):
        block.setFont(bold, REF_SIZE, REF_LEADING)
        block.textOut(text(heading) + ": ")
        block.setFont(regular, REF_SIZE, REF_LEADING)
        block.textLines(reference_lines(heading, body, width))
        block.moveCursor(0, 3)
    c.drawText(block)


def _centre(c: Canvas, value: str, font: str, size: float, x0: float, x1: float, row: Row) -> None:
    c.setFont(font, size)
    c.drawCentredString((x0 + x1) / 2, (row.top + row.bottom) / 2 - size * 0.36, value)


def _canvas(buffer: io.BytesIO, lay: Layout, title: str) -> Canvas:
    c = Canvas(buffer, pagesize=(lay.width, lay.height), invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("IKI companion")
    c.setSubject("IKI score pad")
    return c


def _default_title(akebono: bool) -> str:
    return "IKI Akebono score pad" if akebono else "IKI score pad"


def blank_pad(*, akebono: bool, players: int, pagesize: str = "A4") -> bytes:
    """A blank score pad to print: the lines of the base game or Akebono, 2-4 empty player columns, one page."""
    lay = layout(akebono=akebono, players=players, pagesize=pagesize, blank=True)
    regular, _ = fonts()
    title = _default_title(akebono)
    buffer = io.BytesIO()
    c = _canvas(buffer, lay, title)
    _draw_header(c, lay, title, [("Date", None), ("Setup code", None)])
    _draw_grid(c, lay, akebono)
    names = lay.row("names")
    c.setFillColor(MUTED)
    c.setFont(regular, 7)
    for i in range(players):
        x0, _ = lay.column(i)
        c.drawString(x0 + 4, names.top - 9, "name")
    _draw_notes(c, lay, akebono, ())
    c.showPage()
    c.save()
    return buffer.getvalue()


def filled_pad(
    *,
    akebono: bool,
    players: Sequence[PadPlayer],
    pagesize: str = "A4",
    date: datetime.date,
    seed: str | None = None,
    grand_master: bool = False,
    tie_breaks: Sequence[str] = (),
    title: str | None = None,
    missing: Sequence[str] = (),
) -> bytes:
    """The score pad of a scored game: names (with colour swatches), every line, totals, ranks, date and seed.

    ``players`` are drawn in the order given; ``tie_breaks`` are the ranking's sentences (RULINGS R12), printed
    under the grid after ``missing``: what the table did not give (a wild card's type, a stack order), so the
    pad says it was scored with what was known (RULINGS R13).
    """
    if not isinstance(date, datetime.date):
        raise ValueError(f"date must be a datetime.date, not {type(date).__name__}")
    check_players(players, akebono)
    tie_breaks = list(dict.fromkeys(s.strip() for s in tie_breaks if s.strip()))  # tied players share one
    missing = list(dict.fromkeys(s.strip() for s in missing if s.strip()))
    lay = layout(
        akebono=akebono,
        players=len(players),
        pagesize=pagesize,
        blank=False,
        tie_breaks=tie_breaks,
        missing=missing,
    )
    regular, bold = fonts()
    heading = title or _default_title(akebono)
    buffer = io.BytesIO()
    c = _canvas(buffer, lay, heading)
    subtitle: list[tuple[str, str | None]] = [("Date", long_date(date))]
    if seed:
        subtitle.append(("Setup code", f"{seed}, Grand Master" if grand_master else seed))
    subtitle.append(("Players", str(len(players))))
    _draw_header(c, lay, heading, subtitle)
    _draw_grid(c, lay, akebono)
    names = lay.row("names")
    for i, player in enumerate(players):
        x0, x1 = lay.column(i)
        inner = x1 - x0 - 8
        start = x0 + 4
        colour = swatch(player)
        if colour is not None:
            c.setFillColor(colour_of(colour))
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.rect(start, (names.top + names.bottom) / 2 - 5, 10, 10, stroke=1, fill=1)
            start += 14
            inner -= 14
        font = font_for(player.name, bold)
        parts, size = _name_lines(player.name, font, inner)
        c.setFillColor(INK)
        c.setFont(font, size)
        y = (names.top + names.bottom) / 2 - size * 0.36 + (len(parts) - 1) * size * 0.55
        for part in parts:
            _draw_name_line(c, start, y, part, font, size)
            y -= size * 1.1
        for line in lines_for(akebono):
            _centre(c, str(player.lines[line]), regular, 14, x0, x1, lay.row(line))
        _centre(c, str(player.total), bold, 16, x0, x1, lay.row("total"))
        _centre(c, ordinal(player.rank), bold, 12, x0, x1, lay.row("rank"))
    _draw_notes(c, lay, akebono, tie_breaks, missing)
    c.showPage()
    c.save()
    return buffer.getvalue()
