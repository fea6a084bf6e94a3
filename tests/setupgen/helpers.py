"""Fixed seed lists, so the statistical tests are deterministic; what names a setup's hidden draws."""

from __future__ import annotations

from scoring.catalogue import CHARACTER_BY_ID, PERSONALITY_BY_ID, TOKEN_BY_ID
from setupgen import ALPHABET, SEED_LENGTH, Setup, hidden_items


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


def hidden_draws(setup: Setup) -> list[str]:
    """Every text that would name a hidden draw of ``setup`` (issue 20): each hidden item's text, a later season's
    Personalities and River tokens by name, each New Character by name, each fire's Nagaya and Blocking tile."""
    words = [item.text for item in hidden_items(setup)]
    words += [f"Nagaya {fire.nagaya}" for fire in setup.fires]
    if setup.two_player is not None:
        words += [f"Blocking tile {value}" for value in set(setup.two_player.blocking_tiles)]
    ake = setup.akebono
    if ake is not None:
        for season in ("summer", "autumn", "winter"):
            words += [PERSONALITY_BY_ID[p].name for p in ake.personalities[season]]
            words += [TOKEN_BY_ID[t].name for t in ake.river_tokens[season].values()]
        words += [CHARACTER_BY_ID[card].name for card in ake.new_characters.values()]
    return words


def named_hidden_draws(text: str, setup: Setup) -> list[str]:
    """The hidden draws of ``setup`` that ``text`` names (none, on every page the table sees before a reveal)."""
    return [word for word in hidden_draws(setup) if word in text]
