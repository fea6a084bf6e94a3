"""Setup codes: the seed, the parts drawn again, and the house rules, in one text a person can type (issue 26).

A setup code is an 8-character seed (:mod:`setupgen.seed`), optionally followed by sections, each after a dot::

    K7MX2QPA                      an old code: its meaning never changes (RULINGS R19)
    K7MX2QPA.RB4Q                 the buildings drawn again (re-roll salt "4Q")
    K7MX2QPA.RB4QF7X.XD           buildings and fires drawn again; the Pub banned
    K7MX2QPA.YA.VM                the Tea House required; one personality banned

Sections (in this order in the canonical form; docs/api.md "Setup codes"):

* ``R`` then, for each part drawn again, its letter (:data:`PARTS`) and a 2-character salt;
* ``X`` banned buildings, ``Y`` required buildings, ``V`` banned personalities, ``W`` required personalities:
  one character per card, the card's place in the catalogue written with :data:`~setupgen.seed.ALPHABET`.

:func:`parse_code` is the one reader of codes: every page, the API and the commands reach it through
:func:`setupgen.generate`. It normalizes as seeds always were (blanks, hyphens and underscores dropped, letters
upper-cased), so an old code reads as it always did.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from scoring.catalogue import BUILDINGS, PERSONALITIES
from scoring.errors import quote
from setupgen.seed import _SEPARATORS, ALPHABET, SeedError, normalize_seed

CODE_MAX: Final = 64
"""The longest setup code (what a stored score sheet or result keeps of it)."""
SALT_LENGTH: Final = 2


@dataclass(frozen=True, slots=True)
class Part:
    """A random part of a setup that can be drawn again on its own. ``hidden``: the table does not see it at
    setup (the page then says only that it was drawn again)."""

    letter: str
    key: str
    label: str
    hidden: bool = False
    akebono: bool = False
    two_player: bool = False


#: Every random part, in the order the page lists them. The letters are part of the code format: never reuse one.
PARTS: Final = (
    Part("T", "first-player", "First player"),
    Part("B", "buildings", "Buildings"),
    Part("F", "fires", "Fires", hidden=True),
    Part("K", "blocking-tiles", "Blocking tiles", hidden=True, two_player=True),
    Part("S", "starting-characters", "Starting characters and tiles", akebono=True),
    Part("A", "boat-sides", "Boats' sides", akebono=True),
    Part("G", "personalities-spring", "Spring personalities", akebono=True),
    Part("H", "personalities-summer", "Summer personalities", hidden=True, akebono=True),
    Part("J", "personalities-autumn", "Autumn personalities", hidden=True, akebono=True),
    Part("M", "personalities-winter", "Winter personalities", hidden=True, akebono=True),
    Part("N", "new-characters", "New characters", hidden=True, akebono=True),
    Part("Q", "river-tokens", "River tokens", hidden=True, akebono=True),
)
PART_BY_KEY: Final = MappingProxyType({p.key: p for p in PARTS})
PART_BY_LETTER: Final = MappingProxyType({p.letter: p for p in PARTS})
SEASON_PART: Final = MappingProxyType(
    {
        "spring": "personalities-spring",
        "summer": "personalities-summer",
        "autumn": "personalities-autumn",
        "winter": "personalities-winter",
    }
)

_BUILDING_IDS: Final = tuple(b.id for b in BUILDINGS)
_PERSONALITY_IDS: Final = tuple(p.id for p in PERSONALITIES)
#: House-rule sections: letter -> (HouseRules field, the catalogue's ids, what the cards are called).
_HOUSE_SECTIONS: Final = (
    ("X", "banned_buildings", _BUILDING_IDS, "building"),
    ("Y", "required_buildings", _BUILDING_IDS, "building"),
    ("V", "banned_personalities", _PERSONALITY_IDS, "personality"),
    ("W", "required_personalities", _PERSONALITY_IDS, "personality"),
)
assert len(_BUILDING_IDS) <= len(ALPHABET) and len(_PERSONALITY_IDS) <= len(ALPHABET)


def _ordered(ids: Iterable[str], catalogue: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(set(ids), key=catalogue.index))


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Cards the table bans or requires before the draw (ids of scoring.catalogue), in catalogue order."""

    banned_buildings: tuple[str, ...] = ()
    required_buildings: tuple[str, ...] = ()
    banned_personalities: tuple[str, ...] = ()
    required_personalities: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for _, name, catalogue, _ in _HOUSE_SECTIONS:
            object.__setattr__(self, name, _ordered(getattr(self, name), catalogue))

    def __bool__(self) -> bool:
        return any(getattr(self, name) for _, name, _, _ in _HOUSE_SECTIONS)

    @property
    def buildings(self) -> bool:
        return bool(self.banned_buildings or self.required_buildings)

    def season_ruled(self, season_ids: Iterable[str]) -> bool:
        """Whether a house rule names a personality of a season (whose ids are ``season_ids``)."""
        named = set(self.banned_personalities) | set(self.required_personalities)
        return any(p in named for p in season_ids)

    def merged(self, other: HouseRules) -> HouseRules:
        return HouseRules(*(getattr(self, name) + getattr(other, name) for _, name, _, _ in _HOUSE_SECTIONS))


@dataclass(frozen=True, slots=True)
class SetupCode:
    """A parsed setup code: the seed, the salt of each part drawn again (by part key), the house rules."""

    seed: str
    rerolls: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    house: HouseRules = field(default_factory=HouseRules)

    @property
    def plain(self) -> bool:
        """An old-style code: just the seed."""
        return not self.rerolls and not self.house

    def __str__(self) -> str:
        sections = [self.seed]
        if self.rerolls:
            sections.append(
                "R" + "".join(p.letter + self.rerolls[p.key] for p in PARTS if p.key in self.rerolls)
            )
        for letter, name, catalogue, _ in _HOUSE_SECTIONS:
            ids: tuple[str, ...] = getattr(self.house, name)
            if ids:
                sections.append(letter + "".join(ALPHABET[catalogue.index(i)] for i in ids))
        code = ".".join(sections)
        if len(code) > CODE_MAX:
            raise SeedError(
                f"this setup needs a code of {len(code)} characters, more than the {CODE_MAX} a code may have: "
                "drop a house rule"
            )
        return code

    def rerolled(self, part: str, salt: str | None = None) -> SetupCode:
        """This code with ``part`` drawn again (a fresh salt from :mod:`secrets`, never the one it had)."""
        if part not in PART_BY_KEY:
            raise SeedError(f"there is no part {quote(part)} to draw again")
        if salt is None:
            old = self.rerolls.get(part)
            salt = old
            while salt == old:
                salt = "".join(secrets.choice(ALPHABET) for _ in range(SALT_LENGTH))
        assert salt is not None
        return SetupCode(self.seed, MappingProxyType({**self.rerolls, part: salt}), self.house)

    def with_house(self, house: HouseRules) -> SetupCode:
        return SetupCode(self.seed, self.rerolls, house)


def parse_code(text: str) -> SetupCode:
    """The one reader of setup codes (module docstring); :class:`SeedError` saying what is wrong, for a person."""
    if not isinstance(text, str):
        raise SeedError(f"a setup code is text, not {type(text).__name__}")
    cleaned = "".join(ch for ch in text.strip().upper() if ch not in _SEPARATORS)
    if len(cleaned) > CODE_MAX:
        raise SeedError(f"a setup code has at most {CODE_MAX} characters; this one has {len(cleaned)}")
    seed_text, *sections = cleaned.split(".")
    if not sections:
        return SetupCode(normalize_seed(text))
    seed = normalize_seed(seed_text)
    shown = quote(text.strip())
    rerolls: dict[str, str] = {}
    house: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    order = "R" + "".join(letter for letter, *_ in _HOUSE_SECTIONS)
    for section in sections:
        if not section:
            raise SeedError(f"the setup code {shown} has an empty part between two dots")
        letter, body = section[0], section[1:]
        if letter not in order:
            raise SeedError(
                f"the setup code {shown} has a part starting with {quote(letter)}: after the first 8 characters, each part "
                "starts with R, X, Y, V or W"
            )
        if letter in seen:
            raise SeedError(f"the setup code {shown} has two parts starting with {letter}")
        seen.add(letter)
        wrong = sorted({ch for ch in body if ch not in ALPHABET})
        if wrong or not body:
            raise SeedError(f"the setup code {shown} has a part {quote(section)} that is not a valid part")
        if letter == "R":
            step = 1 + SALT_LENGTH
            if len(body) % step:
                raise SeedError(f"the setup code {shown} has a re-roll part {quote(section)} cut short")
            for i in range(0, len(body), step):
                part = PART_BY_LETTER.get(body[i])
                if part is None or part.key in rerolls:
                    raise SeedError(
                        f"the setup code {shown} names an unknown or repeated part in {quote(section)}"
                    )
                rerolls[part.key] = body[i + 1 : i + step]
            continue
        _, name, catalogue, noun = next(s for s in _HOUSE_SECTIONS if s[0] == letter)
        ids = []
        for ch in body:
            index = ALPHABET.index(ch)
            if index >= len(catalogue):
                raise SeedError(f"the setup code {shown} names a {noun} that does not exist ({ch})")
            ids.append(catalogue[index])
        house[name] = tuple(ids)
    return SetupCode(seed, MappingProxyType(rerolls), HouseRules(**house))


__all__ = ["CODE_MAX", "PARTS", "PART_BY_KEY", "HouseRules", "Part", "SetupCode", "parse_code"]
