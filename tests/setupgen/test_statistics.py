"""Fairness over thousands of fixed seeds (issue 3). Each expected frequency follows from the rules (RULINGS
R15-R18); each tolerance is at least 5 standard deviations of a fair generator, so a fair generator passes every
time, while a biased draw (e.g. Akebono buildings picked uniformly among the allowed sets instead of drawn one at
a time) fails."""

from __future__ import annotations

from collections import Counter
from functools import cache
from math import comb, sqrt

import pytest

from scoring.catalogue import BUILDING_BY_ID, BUILDINGS, STARTING_CHARACTERS, STARTING_TILES
from scoring.components import Expansion
from setupgen import Options, Setup, generate
from tests.setupgen.helpers import seeds

N = 4000


@cache
def sample(options: Options) -> tuple[Setup, ...]:
    return tuple(generate(options, seed) for seed in seeds(N, start=101))


def tolerance(p: float, n: int = N, sigmas: float = 5.0) -> float:
    return sigmas * sqrt(p * (1 - p) / n)


def assert_close(observed: int, p: float, n: int = N) -> None:
    assert abs(observed / n - p) <= tolerance(p, n), f"{observed}/{n} = {observed / n:.4f}, expected {p:.4f}"


@pytest.mark.parametrize("players", [2, 4])
def test_first_player_is_uniform(players: int) -> None:
    counts = Counter(s.first_player for s in sample(Options(players)))
    for seat in range(1, players + 1):
        assert_close(counts[seat], 1 / players)


def test_each_base_building_about_six_times_in_ten() -> None:
    """RULINGS R15: 6 of 10 at random, so each building is in a game with probability 0.6."""
    counts = Counter(b for s in sample(Options(4)) for b in s.buildings)
    for building in (b for b in BUILDINGS if b.expansion is Expansion.BASE):
        assert_close(counts[building.id], 0.6)


def test_a_nagaya_burns_twice_well_over_half_the_time() -> None:
    """RULINGS R16: three independent draws of 4 tiles: P(some Nagaya twice) = 1 - 4*3*2/4**3 = 0.625."""
    setups = sample(Options(4))
    repeats = sum(len({f.nagaya for f in s.fires}) < 3 for s in setups)
    assert_close(repeats, 1 - 24 / 64)
    assert repeats / N > 0.55
    for index in range(3):
        counts = Counter(s.fires[index].nagaya for s in setups)
        for nagaya in (1, 2, 3, 4):
            assert_close(counts[nagaya], 0.25)


# The Akebono physical draw (RULINGS R18): the first 6 cards of the shuffled 20 are kept when they hold at most
# 2 of the 6 ongoing buildings; otherwise exactly 2 ongoing are shown. So P(0 ongoing) = C(14,6)/C(20,6) and
# P(1) = 6*C(14,5)/C(20,6). A uniform pick among the allowed sets would give 0.1 / 0.4 / 0.5 instead.
P_ONGOING = {
    0: comb(14, 6) / comb(20, 6),
    1: 6 * comb(14, 5) / comb(20, 6),
}
P_ONGOING[2] = 1 - P_ONGOING[0] - P_ONGOING[1]


def test_akebono_never_shows_three_ongoing_buildings_and_draws_physically() -> None:
    counts = Counter(
        sum(BUILDING_BY_ID[b].ongoing for b in s.buildings) for s in sample(Options(4, akebono=True))
    )
    assert set(counts) <= {0, 1, 2}
    for k, p in P_ONGOING.items():
        assert_close(counts[k], p)
    assert abs(counts[2] / N - 0.5) > 0.08  # not the uniform pick among allowed sets


def test_each_akebono_building_as_often_as_the_draw_says() -> None:
    expected_ongoing = sum(k * p for k, p in P_ONGOING.items())
    counts = Counter(b for s in sample(Options(4, akebono=True)) for b in s.buildings)
    for building in BUILDINGS:
        p = expected_ongoing / 6 if building.ongoing else (6 - expected_ongoing) / 14
        assert_close(counts[building.id], p)


def test_blocking_tiles_are_shuffled_fairly() -> None:
    """RULINGS R17: each month's tile is 1, 2, 3 or 4 with probability 1/4; the Sun is either seat."""
    setups = sample(Options(2))
    for month in range(12):
        counts = Counter(s.two_player.blocking_tiles[month] for s in setups if s.two_player)
        for value in (1, 2, 3, 4):
            assert_close(counts[value], 0.25)
    suns = Counter(s.two_player.sun for s in setups if s.two_player)
    assert_close(suns[1], 0.5)


def test_akebono_draws_are_fair() -> None:
    """RULINGS R18: boat sides 1/2; each personality 2/5; each New Character 1/2; each token to the river 1/3;
    each starting card on offer (players+1)/5, each tile likewise, independently of the card."""
    setups = sample(Options(3, akebono=True))
    akebono = [s.akebono for s in setups if s.akebono]
    assert len(akebono) == N
    sides = Counter((b, side) for a in akebono for b, side in a.boat_sides.items())
    for boat in akebono[0].boat_sides:
        assert_close(sides[(boat, "A")], 0.5)
    met = Counter(p for a in akebono for pair in a.personalities.values() for p in pair)
    assert len(met) == 20
    for count in met.values():
        assert_close(count, 0.4)
    kept = Counter(a.new_characters[m] for a in akebono for m in range(1, 13))
    assert len(kept) == 24
    for count in kept.values():
        assert_close(count, 0.5)
    river = Counter(t for a in akebono for kinds in a.river_tokens.values() for t in kinds.values())
    assert len(river) == 36
    for count in river.values():
        assert_close(count, 1 / 3)
    offered = Counter(c.card for s in setups for c in s.starting_characters)
    tiles = Counter(c.tile for s in setups for c in s.starting_characters)
    pairs = Counter((c.card, c.tile) for s in setups for c in s.starting_characters)
    for card in STARTING_CHARACTERS:
        assert_close(offered[card.id], 4 / 5)
        for tile in STARTING_TILES:
            assert_close(pairs[(card.id, tile.id)], 4 / 25)
    for tile in STARTING_TILES:
        assert_close(tiles[tile.id], 4 / 5)
