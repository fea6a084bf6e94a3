"""What the catalogue offers a step: the player board's type columns, the tokens by season, each card's note,
and the folding group an entry sits in."""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from companion.scorepad.entries import EntryKey
from scoring import catalogue as cat
from scoring.components import CHAR_TYPES, SEASONS, Character, CharType, Expansion, TokenKind

CardGroup = tuple[str, str, CharType | None, tuple[Character, ...]]


@cache
def card_groups(expansions: frozenset[Expansion]) -> tuple[CardGroup, ...]:
    """The player board's columns with the catalogue's cards of each printed type (RULINGS R2), then the cards
    whose type their owner always chooses (RULINGS R5)."""
    groups: list[CardGroup] = [
        (t.value, t.plural, t, tuple(c for c in cat.CHARACTERS if c.type is t and c.expansion in expansions))
        for t in CHAR_TYPES
    ]
    wild_cards = tuple(c for c in cat.CHARACTERS if c.type is None and c.expansion in expansions)
    if wild_cards:
        groups.append(("wild", "Cards whose type you choose", None, wild_cards))
    return tuple(groups)


@cache
def token_groups(
    kind: TokenKind, expansions: frozenset[Expansion]
) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The tokens of one kind by season (then the special ones), as the step lists them."""
    out = []
    for season in (*SEASONS, None):
        tokens = cat.tokens_of(kind, season, expansions)
        if tokens:
            out.append((season.label if season else "Special tokens", tokens))
    return tuple(out)


def _card_label(c: Character) -> str:
    if c.starting:
        return "Starting"
    if c.month is not None:
        return f"Month {c.month} (New Characters)"
    assert c.season is not None
    return c.season.label


CARD_LABEL: Final = {c.id: _card_label(c) for c in cat.CHARACTERS}
TYPE_CHOICES: Final = tuple((t.value, t.label) for t in CHAR_TYPES)
UNNAMED_NOTE: Final = "One more of this type, without naming the card."


def group_of(key: EntryKey) -> str | None:
    """The html id of the folding group an entry sits in, if any."""
    if key.field == "characters":
        any_type = cat.any_type(key.item)
        card = cat.CHARACTER_BY_ID.get(key.item)
        column = any_type.value if any_type else (card.type.value if card and card.type else "wild")
        return f"p{key.player}-group-{column}"
    if key.field == "retirement_tokens":
        return f"p{key.player}-group-tokens"
    if key.field == "pipes":
        return f"p{key.player}-group-pipes"
    return None
