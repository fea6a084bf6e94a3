"""Fixed seed lists, so the statistical tests are deterministic."""

from __future__ import annotations

from setupgen import ALPHABET, SEED_LENGTH


def seed_of(number: int) -> str:
    """The ``number``-th seed: ``number`` written in base 30 with the seed alphabet, 8 characters."""
    digits = []
    for _ in range(SEED_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def seeds(count: int, start: int = 0, step: int = 7919) -> list[str]:
    """``count`` distinct seeds spread over the seed space."""
    return [seed_of(start + i * step) for i in range(count)]
