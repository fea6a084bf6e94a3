"""Hypothesis properties of the pad check (issue 19; RULINGS R20-R24): a legal table's pad is never accused,
whatever is left blank, with or without its seed's setup (Grand Master included) and with ties broken at the
table; a number moved outside its line's set always is; lines that need more of a component than exists always
are."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import catalogue as cat
from scoring import evaluate
from scoring.padcheck import (
    Pad,
    PadCode,
    PadFacts,
    PadPlayer,
    building_holdings,
    buildings_values,
    check_pad,
    facts_of,
    fish_holdings,
    lines_of,
    personality_holdings,
    possible_lines,
)
from scoring.table import Setup
from setupgen import Options, generate
from setupgen.seed import ALPHABET, SEED_LENGTH
from tests.scoring.test_padcheck import pad_of
from tests.scoring.test_properties import legal_table

seeds = st.text(alphabet=ALPHABET, min_size=SEED_LENGTH, max_size=SEED_LENGTH)


@st.composite
def seeded_table(draw: st.DrawFn) -> tuple[dict[str, Any], Setup | None]:
    """A legal table, and (half the time) the setup of a seed it was played with, Grand Master included: the
    table's buildings and personalities are moved onto the seed's (those that do not fit are dropped)."""
    table = draw(legal_table())
    if not draw(st.booleans()):
        return table, None
    n, akebono = len(table["players"]), bool(table["expansions"])
    grand_master = akebono and n == 2 and draw(st.booleans())
    made = generate(Options(players=n, akebono=akebono, grand_master=grand_master), seed=draw(seeds))
    in_play = list(made.buildings)
    held = list(dict.fromkeys(b for p in table["players"] for b in p["buildings"]))
    moved: dict[str, str] = {}
    for b in held:
        ongoing = cat.BUILDING_BY_ID[b].ongoing
        free = [x for x in in_play if x not in moved.values() and cat.BUILDING_BY_ID[x].ongoing == ongoing]
        if free or not akebono:
            free = free or [x for x in in_play if x not in moved.values()]
            moved[b] = free[0]
    setup_json: dict[str, Any] = {"buildings": in_play}
    if made.akebono is not None:
        bridge = made.akebono.personalities
        met: dict[str, list[str]] = {}  # each season's personalities met, in order: onto the seed's pair
        for p in table["players"]:
            for x in p["personalities"]:
                met.setdefault(cat.PERSONALITY_BY_ID[x].season.value, []).append(x)
        onto = {x: bridge[season][i] for season, xs in met.items() for i, x in enumerate(xs)}
        for p in table["players"]:
            p["personalities"] = [onto[x] for x in p["personalities"]]
        setup_json["personalities"] = [x for pair in bridge.values() for x in pair]
        setup_json["boat_sides"] = dict(made.akebono.boat_sides)
    for p in table["players"]:
        p["buildings"] = [moved[b] for b in p["buildings"] if b in moved]
    table["setup"] = setup_json
    return table, Setup(
        buildings=tuple(in_play),
        personalities=tuple(setup_json.get("personalities", ())) or None,
        boat_sides=setup_json.get("boat_sides", {}),
    )


def blanked(draw: st.DrawFn, pad: Pad) -> Pad:
    """The pad with lines, totals, places and facts left blank at random (RULINGS R20), and some tie-break
    facts not typed (a tie then stands as the table broke it, RULINGS R21)."""
    players = []
    for p in pad.players:
        keep = draw(st.lists(st.sampled_from(lines_of(pad)), unique=True))
        facts = draw(st.booleans())
        players.append(
            dataclasses.replace(
                p,
                lines={line: v for line, v in p.lines.items() if line in keep},
                total=p.total if draw(st.booleans()) else None,
                rank=p.rank if draw(st.booleans()) else None,
                pipe=p.pipe if draw(st.booleans()) else None,
                firefighting=p.firefighting if facts else None,
                stack_place=p.stack_place if facts and draw(st.booleans()) else None,
            )
        )
    return dataclasses.replace(pad, players=tuple(players))


@settings(max_examples=120, deadline=None)
@given(seeded_table(), st.data())
def test_a_legal_pad_is_never_accused(
    seeded: tuple[dict[str, Any], Setup | None], data: st.DataObject
) -> None:
    table, setup = seeded
    answer = evaluate(table)
    assume(answer["valid"])
    pad = dataclasses.replace(pad_of(table), setup=setup)
    assert check_pad(pad).errors == ()
    partly = blanked(data.draw, pad)
    check = check_pad(partly)
    assert check.errors == (), (partly, check.errors)
    assert check.consequences == ()


@settings(max_examples=120, deadline=None)
@given(seeded_table(), st.data())
def test_a_number_moved_outside_its_set_is_always_caught(
    seeded: tuple[dict[str, Any], Setup | None], data: st.DataObject
) -> None:
    table, setup = seeded
    assume(evaluate(table)["valid"])
    pad = blanked(data.draw, dataclasses.replace(pad_of(table), setup=setup))
    i = data.draw(st.integers(0, len(pad.players) - 1))
    who = pad.players[i]
    line = data.draw(st.sampled_from(lines_of(pad)))
    moved_to = data.draw(st.integers(-5, 400))
    changed = dataclasses.replace(who, lines={**who.lines, line: moved_to})
    moved = dataclasses.replace(pad, players=(*pad.players[:i], changed, *pad.players[i + 1 :]))
    assume(moved_to not in possible_lines(facts_of(moved, changed))[line])
    assert (changed.name, line) in {(e.player, e.line) for e in check_pad(moved).errors}


def forced(values: dict[int, tuple[frozenset[str], ...]]) -> list[int]:
    """The values every way of making uses one same component: two players cannot both have them."""
    return sorted(v for v, sets in values.items() if sets and frozenset.intersection(*sets))


@settings(max_examples=80, deadline=None)
@given(st.booleans(), st.integers(2, 4), st.data())
def test_fish_lines_needing_one_token_twice_are_always_caught(
    akebono: bool, n: int, data: st.DataObject
) -> None:
    """RULINGS R22: each fish token exists once (fish 15 in the base game is the four plain fish)."""
    value = data.draw(st.sampled_from(forced(dict(fish_holdings(akebono)))))
    others = [data.draw(st.sampled_from(sorted(fish_holdings(akebono)))) for _ in range(n - 2)]
    players = [PadPlayer(f"P{i}", lines={"fish": v}) for i, v in enumerate([value, value, *others])]
    order = data.draw(st.permutations(players))
    check = check_pad(Pad(players=tuple(order), akebono=akebono))
    assert any(e.code is PadCode.TABLE and e.line == "fish" for e in check.errors)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), seeds, st.data())
def test_building_lines_needing_one_building_twice_are_always_caught(
    n: int, seed: str, data: st.DataObject
) -> None:
    """RULINGS R22: each building of the setup exists once."""
    setup = Setup(buildings=tuple(generate(Options(players=n), seed=seed).buildings))
    facts = PadFacts(setup=setup)
    values = sorted(buildings_values(facts).values or ())
    holdings = {v: building_holdings(facts, v) for v in values if v <= 60}
    choices = forced(holdings)
    assume(choices)
    value = data.draw(st.sampled_from(choices))
    players = [PadPlayer(f"P{i}", lines={"buildings": value}) for i in range(2)]
    players += [PadPlayer(f"P{i}") for i in range(2, n)]
    check = check_pad(Pad(players=tuple(players), setup=setup))
    assert any(e.code is PadCode.TABLE and e.line == "buildings" for e in check.errors)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), seeds, st.data())
def test_personality_lines_needing_one_personality_twice_are_always_caught(
    n: int, seed: str, data: st.DataObject
) -> None:
    """RULINGS R22: each personality exists once (with the seed's bridge when its Ferry boat is on side A)."""
    made = generate(Options(players=n, akebono=True), seed=seed).akebono
    assert made is not None
    setup = Setup(personalities=tuple(p for pair in made.personalities.values() for p in pair),
                  boat_sides=dict(made.boat_sides))  # fmt: skip
    facts = PadFacts(akebono=True, setup=setup)
    values = sorted(possible_lines(facts)["personalities"].values or ())
    choices = forced({v: personality_holdings(facts, v) for v in values})
    assume(choices)
    value = data.draw(st.sampled_from(choices))
    players = [PadPlayer(f"P{i}", lines={"personalities": value} if i < 2 else {}) for i in range(n)]
    check = check_pad(Pad(players=tuple(players), akebono=True, setup=setup))
    assert any(e.code is PadCode.TABLE and e.line == "personalities" for e in check.errors)
