"""Score pads as PDFs (reportlab): blank ones to print and write in, filled ones for a scored game.

A pad looks like the official score pad: one row per score pad line in the pad's order (RULINGS R3, taken from
:func:`scoring.score.lines_for`), each with its label and a short reminder of how it scores, one column per player,
a bold total row and a rank row. Under the grid, the reference the reminders point to: tobacco pouch values,
building values, with Akebono the end-game personalities and where boats and the trade track score, and the
tie-break rule (RULINGS R12). Every number in the reminders comes from the rules core (scoring/score.py constants
and the catalogue), never retyped here.

A4 and Letter, 2-4 players, always one page. Text uses the DejaVu fonts of :mod:`companion.pdf.fonts`, so names such
as "Ryōkan" or "Anaïs" render.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from companion.pdf.fonts import fonts, text
from scoring import catalogue as cat
from scoring.components import (
    BuildingRule,
    Expansion,
    PersonalityRule,
    Season,
    TobaccoRule,
    Token,
    TokenKind,
)
from scoring.reminders import expansions, line_reminders

# The pads page offers the same player counts: re-exported.
from scoring.rules import MAX_PLAYERS as MAX_PLAYERS
from scoring.rules import MIN_PLAYERS as MIN_PLAYERS
from scoring.score import LINE_LABELS, MON_PER_POINT, lines_for

#: Page sizes by the lower-cased name callers pass ("A4", "letter"), in points (portrait).
PAGE_SIZES: Final[Mapping[str, tuple[float, float]]] = {"a4": A4, "letter": letter}
MONTHS: Final = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)

INK: Final = colors.HexColor("#1d1b19")
MUTED: Final = colors.HexColor("#5f5a53")
RULE: Final = colors.HexColor("#8c8275")
SHADE: Final = colors.HexColor("#f3eee6")
TOTAL_SHADE: Final = colors.HexColor("#e6ddcf")


@dataclass(frozen=True)
class PadPlayer:
    """One player's column of a filled pad: ``lines`` maps every line id of the pad to its points."""

    name: str
    colour: str | None  # a colour name ("red") or #rrggbb; None or "" for no swatch
    lines: Mapping[str, int]
    total: int
    rank: int


# --- what the pad says: reminders and reference, made from the rules core -----------------------------------------


def _tobacco_value(token: Token) -> str:
    rule = token.tobacco_rule
    return {
        TobaccoRule.FIXED: str(token.points),
        TobaccoRule.HALF_FIREFIGHTING: "firefighting ÷ 2",
        TobaccoRule.DISTINCT_TYPES: "character types",
        TobaccoRule.LARGEST_COLUMN: "largest type column",
        TobaccoRule.QUARTER_MON: f"mon ÷ {MON_PER_POINT}",
        TobaccoRule.PERSONALITIES: "personalities met",
        TobaccoRule.HALF_TRADE: "trade ÷ 2",
        TobaccoRule.KOBANS: "kobans",
        TobaccoRule.SPECIAL_CHARACTERS: "special characters",
    }[rule or TobaccoRule.FIXED]


def _tobacco_reference(akebono: bool) -> str:
    """RULINGS R7: every pouch of the game, by season."""
    tobacco = [t for t in cat.TOKENS if t.kind is TokenKind.TOBACCO]
    base = [t for t in tobacco if t.expansion is Expansion.BASE]
    parts = []
    for season in Season:
        values = [_tobacco_value(t) for t in base if t.season is season]
        parts.append(f"{season.value} {' or '.join(values)}")
    out = " · ".join(parts)
    if akebono:
        extra = [t for t in tobacco if t.expansion is Expansion.AKEBONO]
        seasonal = [f"{t.season.value} {_tobacco_value(t)}" for t in extra if t.season]
        special = [
            f"{t.name.removesuffix(' token')} token {_tobacco_value(t)}" for t in extra if not t.season
        ]
        out += ". Akebono: " + " · ".join([*seasonal, *special])
    return out + ". Halves and quarters round down; a pipe doubles them all."


_UNIT: Final = {
    BuildingRule.PER_SANDAL: "sandal",
    BuildingRule.PER_RICE: "rice",
    BuildingRule.PER_FIREFIGHTING: "firefighting space",
    BuildingRule.PER_BOAT: "boat",
    BuildingRule.PER_TYPE: "character type",
    BuildingRule.PER_TOKEN: "fish/pipe/tobacco token",
    BuildingRule.PER_LARGEST_COLUMN: "card of your largest type",
    BuildingRule.PER_PERSONALITY: "personality",
    BuildingRule.PER_TRADE: "trade space",
}


def _building_value(building_id: str) -> str:
    """RULINGS R8, in a few words: "Inn 12", "Storehouse 4 per rice (max 32)", "Restaurant = fish line"."""
    b = cat.BUILDING_BY_ID[building_id]
    if b.rule is BuildingRule.FIXED:
        return f"{b.name} {b.points}"
    if b.rule is BuildingRule.FISH_LINE:
        return f"{b.name} = your fish line"
    cap = f" (max {b.cap})" if b.cap is not None else ""
    return f"{b.name} {b.points} per {_UNIT[b.rule]}{cap}"


def _buildings_reference(akebono: bool) -> str:
    in_play = expansions(akebono)
    return " · ".join(_building_value(b.id) for b in cat.BUILDINGS if cat.in_play(b.expansion, in_play))


def _personality_value(personality_id: str) -> str:
    """RULINGS R10, in a few words: "Hiroshige Utagawa 7 with ≥3 artisans"."""
    p = cat.PERSONALITY_BY_ID[personality_id]
    condition = {
        PersonalityRule.ARTISANS_AT_LEAST: f"with ≥{p.threshold} artisans",
        PersonalityRule.MON_AT_MOST: f"with ≤{p.threshold} mon",
        PersonalityRule.LAST_IN_FIREFIGHTING: "if last in firefighting order",
        PersonalityRule.CHARACTERS_AT_LEAST: f"with ≥{p.threshold} characters",
        PersonalityRule.PIPES_AT_LEAST: f"with ≥{p.threshold} pipes",
        PersonalityRule.NEW_CHARACTERS_AT_LEAST: f"with ≥{p.threshold} New Characters",
        PersonalityRule.FULL_SET: "with a pipe, a tobacco pouch, a fish and a boat",
    }
    if p.rule is PersonalityRule.BOATS_AND_BUILDINGS:
        return f"{p.name} {p.points} per boat and per building"
    return f"{p.name} {p.points} {condition[p.rule]}"


def _personalities_reference() -> str:
    scoring = [p for p in cat.PERSONALITIES if p.rule is not PersonalityRule.NONE]
    return " · ".join(_personality_value(p.id) for p in scoring) + ". All other personalities: 0."


def _boats_and_trade_reference() -> str:
    """Where Akebono's boats and trade track score at the end (RULINGS R7, R8, R10): nowhere else."""
    boats = [_building_value(b.id) for b in cat.BUILDINGS if b.rule is BuildingRule.PER_BOAT]
    boats += [
        _personality_value(p.id) for p in cat.PERSONALITIES if p.rule is PersonalityRule.BOATS_AND_BUILDINGS
    ]
    boats += [_personality_value(p.id) for p in cat.PERSONALITIES if p.rule is PersonalityRule.FULL_SET]
    trade = [_building_value(b.id) for b in cat.BUILDINGS if b.rule is BuildingRule.PER_TRADE]
    trade += [
        f"Akebono {t.season.value} tobacco {_tobacco_value(t)}"
        for t in cat.TOKENS
        if t.tobacco_rule is TobaccoRule.HALF_TRADE and t.season
    ]
    return (
        f"boats score only through {', '.join(boats)}; the trade track only through {' and '.join(trade)}. "
        "IKI gained during the game from boats and the trade track's income is already on the score track."
    )


TIE_RULE: Final = (
    "most IKI wins. A tie goes to the higher firefighting position, then to the marker higher in that space's "
    "stack; players still tied share the place."
)


@cache
def reference(akebono: bool) -> tuple[tuple[str, str], ...]:
    """The notes printed under the grid, as (heading, text), in the order the pad prints them."""
    notes = [
        ("Tobacco pouches", _tobacco_reference(akebono)),
        ("Buildings", _buildings_reference(akebono)),
    ]
    if akebono:
        notes += [
            ("Personalities at the end", _personalities_reference()),
            ("Boats and trade track", _boats_and_trade_reference()),
        ]
    notes.append(("Ties", TIE_RULE))
    return tuple(notes)


@cache
def pad_lines(akebono: bool) -> tuple[tuple[str, str, str], ...]:
    """(line id, label, reminder) for every line of the pad, in the pad's order (RULINGS R3)."""
    reminders = line_reminders(akebono)
    return tuple((line, LINE_LABELS[line], reminders[line]) for line in lines_for(akebono))


# --- arguments ------------------------------------------------------------------------------------------------


def page_size(name: object) -> tuple[float, float]:
    """The (width, height) of "A4" or "letter" (any case); ValueError for any other name."""
    size = PAGE_SIZES.get(name.lower()) if isinstance(name, str) else None
    if size is None:
        raise ValueError(f"unknown page size {name!r}: use 'A4' or 'letter'")
    return size


def _check_count(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a score pad has {MIN_PLAYERS} to {MAX_PLAYERS} player columns, not {players}")
    return players


@cache
def _colour(value: str) -> colors.Color:
    try:
        return colors.toColor(value)
    except ValueError:
        raise ValueError(f"unknown colour {value!r}: use a colour name or #rrggbb") from None


def _check_players(players: Sequence[PadPlayer], akebono: bool) -> None:
    _check_count(len(players))
    wanted = set(lines_for(akebono))
    for player in players:
        if not isinstance(player, PadPlayer):
            raise ValueError(f"players must be PadPlayer values, not {type(player).__name__}")
        if not player.name.strip():
            raise ValueError("every player needs a name")
        missing = [line for line in lines_for(akebono) if line not in player.lines]
        extra = sorted(set(player.lines) - wanted)
        if missing:
            raise ValueError(f"{player.name} has no value for the line(s) {', '.join(missing)}")
        if extra:
            pad = "an Akebono" if akebono else "a base-game"
            raise ValueError(f"{player.name}: {', '.join(extra)} is not a line of {pad} pad")
        if sum(player.lines.values()) != player.total:
            raise ValueError(
                f"{player.name}'s total {player.total} is not the sum of the lines ({sum(player.lines.values())})"
            )
        if not 1 <= player.rank <= len(players):
            raise ValueError(f"{player.name}'s rank {player.rank} is not 1-{len(players)}")
        colour = _swatch(player)
        if colour is not None:
            _colour(colour)


def _swatch(player: PadPlayer) -> str | None:
    """The player's colour, or None when none was given (None or an empty string: no swatch)."""
    return player.colour.strip() if player.colour and player.colour.strip() else None


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def long_date(date: datetime.date) -> str:
    """22 November 2026, whatever the locale."""
    return f"{date.day} {MONTHS[date.month - 1]} {date.year}"


# --- geometry -------------------------------------------------------------------------------------------------

MARGIN: Final = 30.0
PAD: Final = 6.0
LABEL_SIZE: Final = 10.5
NOTE_SIZE: Final = 8.2
NOTE_LEADING: Final = 9.8
REF_SIZE: Final = 8.0
REF_LEADING: Final = 9.8
TITLE_SIZE: Final = 20.0
HEADER_ROW: Final = 34.0
TOTAL_ROW: Final = 34.0
RANK_ROW: Final = 28.0
BLANK_LINE_ROW: Final = 46.0  # room to write a number by hand
FILLED_LINE_ROW: Final = 38.0
#: Space left at the foot of the page goes to the line rows, up to this much each.
MAX_EXTRA: Final = {True: 26.0, False: 10.0}


def wrap(
    value: str, font: str, size: float, width: float, first_width: float | None = None
) -> tuple[str, ...]:
    """Greedy word wrap of ``value`` to ``width`` points (``first_width`` for the first line)."""
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    space = stringWidth(" ", font, size)
    limit = first_width if first_width is not None else width
    for word in value.split():
        w = stringWidth(word, font, size)
        if current and used + space + w > limit:
            lines.append(" ".join(current))
            current, used, limit = [word], w, width
        else:
            used += (space if current else 0.0) + w
            current.append(word)
    if current or not lines:
        lines.append(" ".join(current))
    return tuple(lines)


@dataclass(frozen=True)
class Row:
    key: str  # "names", a line id, "total" or "rank"
    top: float
    bottom: float


@dataclass(frozen=True)
class Layout:
    """Where everything goes on the page, in points from the bottom-left corner (reportlab's coordinates)."""

    width: float
    height: float
    left: float  # the grid's left edge
    label_right: float  # the first player column's left edge
    right: float  # the grid's right edge
    rows: tuple[Row, ...]
    notes_top: float
    bottom: float  # the lowest point anything is drawn at
    players: int

    @property
    def column_width(self) -> float:
        return (self.right - self.label_right) / self.players

    def column(self, index: int) -> tuple[float, float]:
        """(left, right) of player column ``index`` (0-based)."""
        x0 = self.label_right + index * self.column_width
        return x0, x0 + self.column_width

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.key == key)

    @property
    def grid_top(self) -> float:
        return self.rows[0].top

    @property
    def grid_bottom(self) -> float:
        return self.rows[-1].bottom


def _label_width(width: float) -> float:
    return min(212.0, (width - 2 * MARGIN) * 0.4)


def _note_lines(reminder: str, label_width: float) -> tuple[str, ...]:
    regular, _ = fonts()
    return wrap(text(reminder), regular, NOTE_SIZE, label_width - 2 * PAD)


def _line_row_height(reminder: str, label_width: float) -> float:
    """The height a line's label and reminder need."""
    return PAD + LABEL_SIZE + 3 + len(_note_lines(reminder, label_width)) * NOTE_LEADING + PAD - 2


def _reference_lines(heading: str, body: str, width: float) -> tuple[str, ...]:
    regular, bold = fonts()
    head = text(heading) + ": "
    return wrap(text(body), regular, REF_SIZE, width, width - stringWidth(head, bold, REF_SIZE))


def _notes(akebono: bool, tie_breaks: Sequence[str], missing: Sequence[str] = ()) -> list[tuple[str, str]]:
    """What a filled pad's table did not give (scored with what was known, RULINGS R13), then its tie-break
    sentences, then the reference."""
    return (
        [("Not given", sentence) for sentence in missing]
        + [("Tie-break", sentence) for sentence in tie_breaks]
        + list(reference(akebono))
    )


def layout(
    *,
    akebono: bool,
    players: int,
    pagesize: str = "A4",
    blank: bool = True,
    tie_breaks: Sequence[str] = (),
    missing: Sequence[str] = (),
) -> Layout:
    """The page's geometry; :func:`blank_pad` and :func:`filled_pad` draw into it and tests read it."""
    _check_count(players)
    width, height = page_size(pagesize)
    left, right = MARGIN, width - MARGIN
    label_right = left + _label_width(width)
    lines = pad_lines(akebono)
    needed = [_line_row_height(reminder, label_right - left) for _, _, reminder in lines]
    heights = [max(h, BLANK_LINE_ROW if blank else FILLED_LINE_ROW) for h in needed]
    notes = sum(
        len(_reference_lines(heading, body, right - left)) * REF_LEADING + 3
        for heading, body in _notes(akebono, tie_breaks, missing)
    )
    top = height - MARGIN - TITLE_SIZE - 26  # title, then the date/seed line
    fixed = HEADER_ROW + TOTAL_ROW + RANK_ROW + 12 + notes
    spare = top - fixed - sum(heights) - MARGIN
    if spare >= 0:
        heights = [h + min(spare / len(lines), MAX_EXTRA[blank]) for h in heights]
    else:  # many tie-break sentences: rows give up their writing room, never their text
        heights = [max(n, h + spare / len(lines)) for n, h in zip(needed, heights, strict=True)]
    y = top
    rows = [Row("names", y, y - HEADER_ROW)]
    y -= HEADER_ROW
    for (line, _, _), h in zip(lines, heights, strict=True):
        rows.append(Row(line, y, y - h))
        y -= h
    rows.append(Row("total", y, y - TOTAL_ROW))
    y -= TOTAL_ROW
    rows.append(Row("rank", y, y - RANK_ROW))
    y -= RANK_ROW
    notes_top = y - 12
    return Layout(width, height, left, label_right, right, tuple(rows), notes_top, notes_top - notes, players)


# --- drawing --------------------------------------------------------------------------------------------------


def _name_lines(name: str, font: str, width: float) -> tuple[list[str], float]:
    """A player's name for a column ``width`` wide: one line as large as fits, else two or three, else cut short."""
    value = text(name.strip())
    for size in (12.0, 11.0, 10.0):
        if stringWidth(value, font, size) <= width:
            return [value], size
    for size, most in ((10.0, 2), (9.0, 2), (8.0, 3)):
        parts = list(wrap(value, font, size, width))
        if len(parts) <= most and all(stringWidth(p, font, size) <= width for p in parts):
            return parts, size
    kept: list[str] = []
    for part in parts[:3]:
        if stringWidth(part, font, 8.0) > width:  # an unbreakable word: cut it short
            part = _shorten(part, font, width)
        kept.append(part)
    if len(parts) > 3 and not kept[-1].endswith("…"):
        kept[-1] = _shorten(kept[-1], font, width)
    return kept, 8.0


def _shorten(value: str, font: str, width: float, size: float = 8.0) -> str:
    while value and stringWidth(value + "…", font, size) > width:
        value = value[:-1]
    return value.rstrip() + "…"


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
            block.textLines(_note_lines(reminder, label_width))
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
    for heading, body in _notes(akebono, tie_breaks, missing):
        block.setFont(bold, REF_SIZE, REF_LEADING)
        block.textOut(text(heading) + ": ")
        block.setFont(regular, REF_SIZE, REF_LEADING)
        block.textLines(_reference_lines(heading, body, width))
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
    _check_players(players, akebono)
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
        subtitle.append(("Setup code", seed))
    subtitle.append(("Players", str(len(players))))
    _draw_header(c, lay, heading, subtitle)
    _draw_grid(c, lay, akebono)
    names = lay.row("names")
    for i, player in enumerate(players):
        x0, x1 = lay.column(i)
        inner = x1 - x0 - 8
        start = x0 + 4
        colour = _swatch(player)
        if colour is not None:
            c.setFillColor(_colour(colour))
            c.setStrokeColor(INK)
            c.setLineWidth(0.6)
            c.rect(start, (names.top + names.bottom) / 2 - 5, 10, 10, stroke=1, fill=1)
            start += 14
            inner -= 14
        parts, size = _name_lines(player.name, bold, inner)
        c.setFillColor(INK)
        c.setFont(bold, size)
        y = (names.top + names.bottom) / 2 - size * 0.36 + (len(parts) - 1) * size * 0.55
        for part in parts:
            c.drawString(start, y, part)
            y -= size * 1.1
        for line in lines_for(akebono):
            _centre(c, str(player.lines[line]), regular, 14, x0, x1, lay.row(line))
        _centre(c, str(player.total), bold, 16, x0, x1, lay.row("total"))
        _centre(c, ordinal(player.rank), bold, 12, x0, x1, lay.row("rank"))
    _draw_notes(c, lay, akebono, tie_breaks, missing)
    c.showPage()
    c.save()
    return buffer.getvalue()
