"""The forms of a Traders of Osaka payday, shared by the calculator and the game tracker.

:class:`ShipsForm` takes the ships (which reach Edo, in order, and which are on the waves) and, in the calculator,
the number of players; one :class:`HoldingForm` per player takes what the player holds of those colours as counts of
"2", "3" and "5" cards. :func:`moment_data` turns valid forms into the JSON contract of docs/api.md, which the pure
core reads and checks (:func:`scoring.osaka.read.read_moment`), so the page and the API judge the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from django import forms

from companion.forms import ChoiceField, MultipleChoiceField, NameField, TypedChoiceField
from companion.models.scoresheets import NAME_MAX
from scoring.names import name_key
from scoring.osaka.components import (
    CARD_VALUES,
    CARDS_PER_COLOUR,
    COLOURS,
    ICONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TRADERS,
    Colour,
)

ORDINALS: Final = ("1st", "2nd", "3rd", "4th")
EDO_FIELDS: Final = tuple(f"edo{i + 1}" for i in range(len(COLOURS)))
COLOUR_CHOICES: Final = [(c.value, c.label) for c in COLOURS]
#: Cards that carry insurance icons ("INSURANCE": "2" and "3"; a "5" has none).
INSURANCE_VALUES: Final = tuple(v for v in CARD_VALUES if ICONS[v])
#: The most tokens of one colour the form takes: 12 in the box, and "use some other substitute" beyond.
TOKENS_MAX: Final = 99


class ShipsForm(forms.Form):
    """The ships of the moment: 1st to 4th to reach Edo, and those on the waves (RULINGS O2)."""

    players = TypedChoiceField(
        choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial=MAX_PLAYERS,
        widget=forms.RadioSelect,
        label="Players",
    )
    edo1 = ChoiceField(choices=[("", "Choose"), *COLOUR_CHOICES], required=False, label="1st")
    edo2 = ChoiceField(choices=[("", "None"), *COLOUR_CHOICES], required=False, label="2nd")
    edo3 = ChoiceField(choices=[("", "None"), *COLOUR_CHOICES], required=False, label="3rd")
    edo4 = ChoiceField(choices=[("", "None"), *COLOUR_CHOICES], required=False, label="4th")
    sunk = MultipleChoiceField(
        choices=COLOUR_CHOICES, required=False, widget=forms.CheckboxSelectMultiple, label="On the waves"
    )

    def __init__(self, *args: Any, with_players: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_players:
            del self.fields["players"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seen: dict[str, str] = {}
        for name in EDO_FIELDS:
            colour = data.get(name)
            if colour in seen:
                self.add_error(name, f"The {colour} ship is already {seen[colour]}: each ship arrives once.")
            elif colour:
                seen[colour] = str(self.fields[name].label or name)
        return data

    @property
    def arriving(self) -> tuple[Colour, ...]:
        """The ships reaching Edo in order (blanks skipped); empty until one is chosen."""
        return tuple(Colour(self.cleaned_data[n]) for n in EDO_FIELDS if self.cleaned_data.get(n))

    @property
    def sinking(self) -> tuple[Colour, ...]:
        return tuple(Colour(c) for c in self.cleaned_data.get("sunk", ()))

    def count(self, default: int = MAX_PLAYERS) -> int:
        value = self.cleaned_data.get("players") if self.is_bound and self.is_valid() else None
        return value if isinstance(value, int) else default


def _count(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=0,
        max_value=CARDS_PER_COLOUR,
        required=False,
        label=label,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "min": 0, "max": CARDS_PER_COLOUR, "aria-label": label}
        ),
    )


@dataclass(frozen=True)
class Row:
    """One line of a colour's block: its label and a field (or None) under each card value."""

    label: str
    cells: tuple[forms.BoundField | None, ...]


@dataclass(frozen=True)
class Block:
    """A player's cards of one colour on the form: goods, and for a sinking colour insured goods and insurance."""

    colour: Colour
    role: str
    rows: tuple[Row, ...]


class HoldingForm(forms.Form):
    """One player's goods of the moment's colours, as counts of "2", "3" and "5" cards; tokens by colour; a name.

    The calculator asks for the name and the tokens; the tracker knows both and leaves them out."""

    name = NameField(required=False, max_length=NAME_MAX, label="Name")

    def __init__(
        self,
        *args: Any,
        arrived: Sequence[Colour],
        sunk: Sequence[Colour],
        trader_index: int,
        with_name: bool = True,
        with_tokens: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.arrived, self.sunk = tuple(arrived), tuple(sunk)
        self.trader = TRADERS[trader_index % len(TRADERS)]
        if with_name:
            self.fields["name"].widget.attrs.update({"placeholder": self.trader.label, "autocomplete": "off"})
        else:
            del self.fields["name"]
        if with_tokens:
            for c in COLOURS:
                field = forms.IntegerField(min_value=0, max_value=TOKENS_MAX, required=False, label=c.label)
                field.widget.attrs.update({"inputmode": "numeric", "min": 0})
                self.fields[f"tokens_{c.value}"] = field
        for c in dict.fromkeys((*self.arrived, *self.sunk)):
            for v in CARD_VALUES:
                self.fields[f"goods_{c.value}_{v}"] = _count(f'{c.label} goods "{v}"')
        for c in self.sunk:
            for v in CARD_VALUES:
                self.fields[f"insured_{c.value}_{v}"] = _count(f'{c.label} goods "{v}" already insured')
            for v in INSURANCE_VALUES:
                self.fields[f"insurance_{c.value}_{v}"] = _count(f'{c.label} "{v}" cards to insure with now')

    def _cell(self, name: str) -> forms.BoundField | None:
        return self[name] if name in self.fields else None

    def blocks(self) -> list[Block]:
        """The colour blocks in the order of the moment: arriving ships first, then sinking ones."""
        out = []
        for i, c in enumerate(self.arrived):
            role = f"reaches Edo {ORDINALS[i]}" if len(self.arrived) > 1 else "reaches Edo"
            goods = tuple(self._cell(f"goods_{c.value}_{v}") for v in CARD_VALUES)
            out.append(Block(c, role, (Row("Goods", goods),)))
        for c in self.sunk:
            if c in self.arrived:
                continue
            rows = (
                Row("Goods", tuple(self._cell(f"goods_{c.value}_{v}") for v in CARD_VALUES)),
                Row("Insured already", tuple(self._cell(f"insured_{c.value}_{v}") for v in CARD_VALUES)),
                Row("Insure now with", tuple(self._cell(f"insurance_{c.value}_{v}") for v in CARD_VALUES)),
            )
            out.append(Block(c, "sinks", rows))
        return out

    def token_fields(self) -> list[forms.BoundField]:
        return [self[f"tokens_{c.value}"] for c in COLOURS if f"tokens_{c.value}" in self.fields]

    def display_name(self) -> str:
        name = (
            " ".join(str(self.cleaned_data.get("name") or "").split())
            if hasattr(self, "cleaned_data")
            else ""
        )
        return name or self.trader.label

    def _cards(self, key: str, colour: Colour) -> list[int]:
        return [
            v for v in CARD_VALUES for _ in range(self.cleaned_data.get(f"{key}_{colour.value}_{v}") or 0)
        ]

    def player_data(self, *, name: str | None = None, tokens: dict[str, int] | None = None) -> dict[str, Any]:
        """The player in the JSON contract (docs/api.md); ``name`` and ``tokens`` given by the tracker."""
        data: dict[str, Any] = {"name": name or self.display_name()}
        data["goods"] = {c.value: self._cards("goods", c) for c in dict.fromkeys((*self.arrived, *self.sunk))}
        data["insured"] = {c.value: self._cards("insured", c) for c in self.sunk}
        data["insurance"] = {c.value: self._cards("insurance", c) for c in self.sunk}
        if tokens is None:
            tokens = {c.value: self.cleaned_data.get(f"tokens_{c.value}") or 0 for c in COLOURS}
        data["tokens"] = tokens
        return data


def holding_forms(
    data: Mapping[str, Any] | None,
    ships: ShipsForm,
    count: int,
    *,
    with_name: bool = True,
    with_tokens: bool = True,
) -> list[HoldingForm]:
    """One bound form per player (prefix ``p0``..), for the ships the valid ``ships`` form names."""
    arrived = ships.arriving if ships.is_valid() else ()
    sunk = ships.sinking if ships.is_valid() else ()
    return [
        HoldingForm(
            data,
            prefix=f"p{i}",
            arrived=arrived,
            sunk=sunk,
            trader_index=i,
            with_name=with_name,
            with_tokens=with_tokens,
        )
        for i in range(count)
    ]


def names_problem(forms_: Sequence[HoldingForm]) -> bool:
    """Mark a name used twice (compared without case) on the later form; True when one was."""
    seen: set[str] = set()
    found = False
    for f in forms_:
        key = name_key(f.display_name())
        if key in seen:
            f.add_error("name", "Two players have this name: give each a different one.")
            found = True
        seen.add(key)
    return found


def moment_data(ships: ShipsForm, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The moment in the JSON contract of ``POST /api/v1/osaka/payday``."""
    return {
        "arrived": [c.value for c in ships.arriving],
        "sunk": [c.value for c in ships.sinking],
        "players": list(players),
    }
