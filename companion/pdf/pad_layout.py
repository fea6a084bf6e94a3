"""Where everything goes on a score pad's page: rows sized to their label and reminder, the player columns, the
notes under the grid. Text is wrapped by reportlab's ``simpleSplit`` (a note's first line beside its bold
heading)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from companion.pdf.fonts import fonts, text
from companion.pdf.pad_text import check_count, pad_lines, page_size, reference

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


def note_lines(reminder: str, label_width: float) -> tuple[str, ...]:
    regular, _ = fonts()
    return tuple(simpleSplit(text(reminder), regular, NOTE_SIZE, label_width - 2 * PAD)) or ("",)


def _line_row_height(reminder: str, label_width: float) -> float:
    """The height a line's label and reminder need."""
    return PAD + LABEL_SIZE + 3 + len(note_lines(reminder, label_width)) * NOTE_LEADING + PAD - 2


def reference_lines(heading: str, body: str, width: float) -> tuple[str, ...]:
    """A note's text in lines of ``width`` points, the first one beside its bold heading (``Heading: ``)."""
    regular, bold = fonts()
    words = text(body).split()
    beside = width - stringWidth(text(heading) + ": ", bold, REF_SIZE)
    first = simpleSplit(" ".join(words), regular, REF_SIZE, beside)[:1] or [""]
    rest = " ".join(words[len(first[0].split()) :])
    return (first[0], *simpleSplit(rest, regular, REF_SIZE, width))


def pad_notes(akebono: bool, tie_breaks: Sequence[str], missing: Sequence[str] = ()) -> list[tuple[str, str]]:
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
    check_count(players)
    width, height = page_size(pagesize)
    left, right = MARGIN, width - MARGIN
    label_right = left + _label_width(width)
    lines = pad_lines(akebono)
    needed = [_line_row_height(reminder, label_right - left) for _, _, reminder in lines]
    heights = [max(h, BLANK_LINE_ROW if blank else FILLED_LINE_ROW) for h in needed]
    notes = sum(
        len(reference_lines(heading, body, right - left)) * REF_LEADING + 3
        for heading, body in pad_notes(akebono, tie_breaks, missing)
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
