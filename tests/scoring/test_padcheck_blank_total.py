"""A total with a line left blank (RULINGS R20: a blank line is unknown, not 0, and a total is checked only when
every line of it is typed; what rests on the lines left blank is at most a warning). A total the typed lines
already pass, or one the blank lines cannot make up, is worth a second look: a warning, never an error. Any other
says nothing."""

from __future__ import annotations

import pytest

from scoring.padcheck import Pad, PadCode, PadPlayer, check_pad

#: Anaïs's typed lines, her variety and resources left blank: 40 + 3 + 0 + 0 = 43.
TYPED = {"score_track": 40, "fish": 3, "tobacco": 0, "buildings": 0}


def _check(lines: dict[str, int], total: int, *, akebono: bool = False) -> list[tuple[str, str, str]]:
    """The pad's problems; none may be an error."""
    pad = Pad((PadPlayer("Anaïs", lines=lines, total=total), PadPlayer("David")), akebono=akebono)
    checked = check_pad(pad)
    assert not checked.errors
    return [(e.line, e.code.value, e.message) for e in checked.warnings]


@pytest.mark.parametrize(
    ("lines", "total", "message"),
    [
        # the typed lines alone already pass the total
        (TYPED, 40, "total 40 is less than the lines typed: they already add up to 43. Worth a second look."),
        # only the variety is blank: it adds 0, 1, 4, 9, 16 or 25, never 5
        ({**TYPED, "resources": 0}, 48,
         "total 48: the lines typed add up to 43, and the variety left blank cannot add 5; nearest possible total: "
         "47 or 52. Worth a second look."),
    ],
)  # fmt: skip
def test_a_total_the_blank_lines_cannot_make_is_worth_a_second_look(
    lines: dict[str, int], total: int, message: str
) -> None:
    assert _check(lines, total) == [("total", PadCode.TOTAL_WITH_BLANKS.value, message)]


@pytest.mark.parametrize(
    ("lines", "total"),
    [
        (TYPED, 43),  # the blank lines scored 0 (a table leaves a line it scored nothing on blank)
        (TYPED, 48),  # variety 4 and resources 1, or variety 1 and resources 4, ...
        ({**TYPED, "resources": 0}, 52),  # variety 9
        ({"score_track": 0}, 0),
        ({}, 250),
    ],
)
def test_a_total_the_blank_lines_can_make_stands(lines: dict[str, int], total: int) -> None:
    assert _check(lines, total) == []
    assert _check(lines, total, akebono=True) == []
