"""The tobacco pouches bind the table too (RULINGS R7, R22: one of each token): a tobacco line beyond what the
pouches with a bound can add (base game 2 + 3 + 4 + 5 + 5 + 5 + 18 = 42, doubled with a pipe) needs the
winter pouch of every 4 mon (Akebono: or the autumn pouch of every koban), and each exists once."""

from __future__ import annotations

import pytest

from scoring.padcheck import Pad, PadCode, PadPlayer, check_pad


def _pad(*lines: tuple[int, bool | None], akebono: bool = False) -> Pad:
    return Pad(
        tuple(
            PadPlayer(name, lines={"tobacco": v}, pipe=pipe)
            for name, (v, pipe) in zip("ABC", lines, strict=False)
        ),
        akebono=akebono,
    )


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (_pad((50, False), (43, False)), "A's tobacco 50 and B's tobacco 43 cannot both be right: together they need "
         "more tobacco pouches (each exists once) than the game has. With A's tobacco as typed, B's tobacco could be "
         "42 (the nearest possible)."),
        (_pad((80, False), (90, True)), "With A's tobacco as typed, B's tobacco could be 84 (the nearest possible)."),
        (_pad((999, False), (998, None), (997, False), akebono=True),
         "A's tobacco 999, B's tobacco 998 and C's tobacco 997 cannot all be right"),
    ],
)  # fmt: skip
def test_tobacco_lines_needing_one_pouch_twice_are_caught(typed: Pad, message: str) -> None:
    (error,) = check_pad(typed).errors
    assert (error.code, error.line, error.player) == (PadCode.TABLE, "tobacco", typed.players[-1].name)
    assert message in error.message, error.message


@pytest.mark.parametrize(
    "typed",
    [
        _pad((50, False), (42, False)),  # B holds every pouch with a bound, A the mon pouch
        _pad((80, None), (60, None)),  # each may have held a pipe: 40 and 30
        _pad((999, False), (998, False), akebono=True),  # the mon pouch and the koban pouch
        _pad((0, True), (0, False), (2, None)),
    ],
)
def test_tobacco_lines_the_pouches_can_make_together_stand(typed: Pad) -> None:
    assert check_pad(typed).errors == ()
