"""Seeds a person can read aloud (issue 3; RULINGS R19)."""

from __future__ import annotations

import pytest

from setupgen import ALPHABET, SEED_LENGTH, SeedError, new_seed, normalize_seed
from tests.setupgen.helpers import seed_of


def test_alphabet_has_no_look_alikes() -> None:
    assert len(set(ALPHABET)) == len(ALPHABET) == 30
    for confusable in "01OILU":
        assert confusable not in ALPHABET
    assert ALPHABET.upper() == ALPHABET


def test_new_seeds_are_well_formed_and_vary() -> None:
    made = {new_seed() for _ in range(200)}
    assert len(made) > 190
    for seed in made:
        assert len(seed) == SEED_LENGTH
        assert set(seed) <= set(ALPHABET)
        assert normalize_seed(seed) == seed


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("K7MX2QPA", "K7MX2QPA"),
        ("k7mx2qpa", "K7MX2QPA"),
        ("  k7mx2qpa\n", "K7MX2QPA"),
        ("K7MX-2QPA", "K7MX2QPA"),
        ("k7mx 2qpa", "K7MX2QPA"),
    ],
)
def test_normalize(given: str, expected: str) -> None:
    assert normalize_seed(given) == expected


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("K7MX2QP", "7 characters"),
        ("K7MX2QPAB", "9 characters"),
        ("K7MX2QP0", "'0'"),
        ("K7MX2QPO", "never use 0, O, 1, I, L or U"),
        ("K7MX2QPI", "'I'"),
        ("K7MX2QP!", "'!'"),
        ("K7MX2QPÄ", "'Ä'"),
    ],
)
def test_malformed_seeds_get_a_clear_message(given: str, words: str) -> None:
    with pytest.raises(SeedError) as info:
        normalize_seed(given)
    assert words in str(info.value)


def test_a_seed_that_is_not_text_is_refused() -> None:
    with pytest.raises(SeedError, match="text code"):
        normalize_seed(12345678)  # type: ignore[arg-type]


def test_fixed_seed_list_is_well_formed() -> None:
    assert seed_of(0) == "22222222"
    assert normalize_seed(seed_of(123456789)) == seed_of(123456789)
