"""Legal pads the table generator of ``test_padcheck_properties`` never writes (RULINGS R12, R13, R14, R20, R21,
R26): a player holding both winter fish (one bought on New Year's Day), a player who lost their only character
(variety 0), a personality met off the bridge through the Ferry boat on side B with the setup typed, hundreds of
mon and kobans, lines a table left blank because they scored nothing, and a tie the table left unbroken (both
written first: 1, 1, 3).
None of them may be accused."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import catalogue as cat
from scoring import evaluate
from scoring.components import Season, TokenKind
from scoring.padcheck import Pad, check_pad
from scoring.table import Setup
from tests.scoring.test_padcheck import pad_of
from tests.scoring.test_padcheck_properties import seeded_table

#: What a character brings with it that cannot stay once the card is gone (RULINGS R13).
TIED_TO_CHARACTERS = ("retirement_tokens", "wild_types")


def _winter_pair(draw: st.DrawFn, table: dict[str, Any]) -> None:
    """RULINGS R14: one player holds two winter fish; nobody else holds those two."""
    akebono = bool(table["expansions"])
    winter = [
        t.id for t in cat.tokens_of(TokenKind.FISH, Season.WINTER, cat.expansions_of(table["expansions"]))
    ]
    pair = draw(st.permutations(winter))[:2]
    who = draw(st.sampled_from(table["players"]))
    for p in table["players"]:
        p["fish"] = [f for f in p["fish"] if f not in pair]
    others = [f for f in who["fish"] if cat.TOKEN_BY_ID[f].season is not Season.WINTER]
    who["fish"] = [*others[: 2 if "fish-fisherman" not in others else 1], *pair]
    assert len(who["fish"]) <= 4 or akebono


def _no_character(draw: st.DrawFn, table: dict[str, Any]) -> None:
    """RULINGS R26: the starting card can be lost (unfed or burnt): a player ends with no character at all."""
    who = draw(st.sampled_from(table["players"]))
    who["characters"] = []
    for key in TIED_TO_CHARACTERS:
        who.pop(key, None)
    who["fish"] = [f for f in who["fish"] if f != "fish-fisherman"]
    who["tobacco"] = [t for t in who["tobacco"] if t != "tobacco-policeman"]


def _ferry_b(draw: st.DrawFn, table: dict[str, Any], setup: Setup | None) -> None:
    """RULINGS R13: someone built the Ferry, on side B in the seed's setup: a personality met off the bridge is
    legal for every player."""
    if setup is None or setup.boat_sides.get("ferry-boat") != "B":
        return
    builder = draw(st.sampled_from(table["players"]))
    for p in table["players"]:
        p["boats"] = [b for b in p["boats"] if b != "ferry-boat"]
    builder["boats"] = [*builder["boats"][:1], "ferry-boat"]
    met = {x for p in table["players"] for x in p["personalities"]}
    off = [p.id for p in cat.PERSONALITIES if p.id not in met and p.id not in (setup.personalities or ())]
    who = draw(st.sampled_from(table["players"]))
    who["personalities"] = [*who["personalities"], draw(st.sampled_from(off))]


def _rich(draw: st.DrawFn, table: dict[str, Any]) -> None:
    """Extreme but legal: players end with hundreds of mon and kobans, and a long score track (the pouch of every
    4 mon, and with Akebono of every koban, then score far beyond what the other pouches can add, RULINGS R7)."""
    for p in draw(st.lists(st.sampled_from(table["players"]), min_size=1, max_size=4, unique_by=id)):
        p["mon"], p["koban"] = draw(st.integers(0, 800)), draw(st.integers(0, 250))
        p["score_track"] = draw(st.integers(0, 300))


@st.composite
def widened_table(draw: st.DrawFn) -> tuple[dict[str, Any], Setup | None]:
    table, setup = draw(seeded_table())
    if draw(st.booleans()):
        _winter_pair(draw, table)
    if draw(st.booleans()):
        _no_character(draw, table)
    if draw(st.booleans()):
        _ferry_b(draw, table, setup)
    if draw(st.booleans()):
        _rich(draw, table)
    return table, setup


def _tied(draw: st.DrawFn, table: dict[str, Any]) -> None:
    """Two players end on the same total: the second's score track moved so (RULINGS R3: any number from 0)."""
    answer = evaluate(table)
    totals = {p["name"]: p["total"] for p in answer["players"]}
    a, b = draw(st.permutations(list(totals)))[:2]
    player = next(p for p in table["players"] if p["name"] == b)
    assume(player["score_track"] + totals[a] - totals[b] >= 0)
    player["score_track"] += totals[a] - totals[b]


def written_at_the_table(draw: st.DrawFn, pad: Pad) -> Pad:
    """The pad as a table writes it (RULINGS R12, R20, R21): a line that scored 0 left blank or written 0, and
    a tie left unbroken written as a shared place (1, 1, 3) with the tie-break facts not typed."""
    totals = [p.total for p in pad.players]
    shared = draw(st.booleans())
    players = []
    for p in pad.players:
        tied = totals.count(p.total) > 1
        lines = {line: v for line, v in p.lines.items() if v or draw(st.booleans())}
        rank = p.rank
        if tied and shared:
            rank = 1 + sum(t is not None and p.total is not None and t > p.total for t in totals)
        players.append(
            dataclasses.replace(
                p,
                lines=lines,
                rank=rank,
                firefighting=None if tied else p.firefighting,
                stack_place=None if tied else p.stack_place,
            )
        )
    return dataclasses.replace(pad, players=tuple(players))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(widened_table(), st.booleans(), st.data())
def test_a_legal_pad_of_a_widened_table_is_never_accused(
    widened: tuple[dict[str, Any], Setup | None], tie: bool, data: st.DataObject
) -> None:
    table, setup = widened
    assume(evaluate(table)["valid"])
    if tie:
        _tied(data.draw, table)
    assume(evaluate(table)["valid"])
    pad = dataclasses.replace(pad_of(table), setup=setup)
    for typed in (pad, written_at_the_table(data.draw, pad)):
        check = check_pad(typed)
        assert (check.errors, check.consequences) == ((), ()), typed
