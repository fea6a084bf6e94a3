"""The forms of a tracked Traders of Osaka game: a new game, a token taken or given back, the first hands drawn,
an undo or restore, a recorded payday's version and client id. Every write form carries an optional ``cid``, the
client's id of that write, so a replayed POST applies once."""

from __future__ import annotations

from typing import Any, Final

from django import forms

from companion.forms import ChoiceField, NameField, TypedChoiceField
from companion.models.scoresheets import NAME_MAX
from companion.presenters.osaka import CARD_COUNTS, TOTALS
from companion.services.osaka import NewPlayer
from scoring.names import name_key
from scoring.osaka.components import COLOURS, MAX_PLAYERS, MIN_PLAYERS, TRADERS

CID_PATTERN: Final = r"^[A-Za-z0-9_-]{8,64}$"
TRADER_CHOICES: Final = [(t.value, t.label) for t in TRADERS]


def cid_field() -> forms.RegexField:
    return forms.RegexField(CID_PATTERN, required=False, max_length=64)


class NewOsakaGameForm(forms.Form):
    """2-4 players in seating order (clockwise), each with a Trader colour (RULINGS O1)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, MAX_PLAYERS + 1):
            # The start pages' name field: spaces folded, no control or bidi characters (issue 10, item 3).
            self.fields[f"name{i}"] = NameField(
                max_length=NAME_MAX, required=i <= MIN_PLAYERS, label=f"Player {i}"
            )
            self.fields[f"trader{i}"] = ChoiceField(
                choices=TRADER_CHOICES,
                initial=TRADERS[i - 1].value,
                label=f"Colour of player {i}",
                required=False,
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"name{i}"], self[f"trader{i}"]) for i in range(1, MAX_PLAYERS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = self.players_of(data)
        if len({name_key(p.name) for p in players}) != len(players):
            raise forms.ValidationError("Give each player a different name.")
        if len({p.trader for p in players}) != len(players):
            raise forms.ValidationError("Give each player a different colour: one Trader piece each.")
        return data

    @staticmethod
    def players_of(data: dict[str, Any]) -> list[NewPlayer]:
        return [
            NewPlayer(" ".join(str(data[f"name{i}"]).split()), data.get(f"trader{i}") or TRADERS[i - 1].value)
            for i in range(1, MAX_PLAYERS + 1)
            if data.get(f"name{i}") and " ".join(str(data[f"name{i}"]).split())
        ]

    @property
    def players(self) -> list[NewPlayer]:
        return self.players_of(self.cleaned_data)


class TokenForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=MAX_PLAYERS)
    colour = ChoiceField(choices=[(c.value, c.label) for c in COLOURS])
    delta = TypedChoiceField(choices=[("1", "+1"), ("-1", "-1")], coerce=int)
    cid = cid_field()


class UndoForm(forms.Form):
    target = forms.IntegerField(min_value=1)
    cid = cid_field()


class VersionedForm(forms.Form):
    """The version of the game the phone saw, and the write's client id."""

    v = forms.IntegerField(min_value=1)
    cid = cid_field()


class StartForm(VersionedForm):
    """Each player's first hand as drawn: its total and how many cards ("PREPARATION")."""

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, seats + 1):
            self.fields[f"total{i}"] = TypedChoiceField(
                choices=[("", "Total"), *[(t, str(t)) for t in TOTALS]], coerce=int, label="Total"
            )
            self.fields[f"cards{i}"] = TypedChoiceField(
                choices=[("", "Cards"), *[(n, f"{n} cards") for n in CARD_COUNTS]], coerce=int, label="Cards"
            )
        self.seats = seats

    def draws(self) -> list[list[int]]:
        return [
            [self.cleaned_data[f"total{i}"], self.cleaned_data[f"cards{i}"]] for i in range(1, self.seats + 1)
        ]


class RenewForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=MAX_PLAYERS)
    cid = cid_field()
