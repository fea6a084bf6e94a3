"""The "check our pad" form: the players (:class:`companion.forms.PlayersForm`), the edition, and for each player
the numbers written on the paper pad with the few facts the pad does not show (RULINGS R3, R7, R12).

Both forms read one GET query (the page's URL holds the whole pad, so a phone that sleeps or reloads loses
nothing): :class:`CheckStartForm` the players, then :class:`PadForm` their numbers; :meth:`PadForm.pad` turns them into the :class:`scoring.padcheck.Pad` the rules core checks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from django import forms
from django.core.exceptions import ValidationError

from companion.forms import PlayersForm, whole_number
from companion.setup_query import FALSE_WORDS, TRUE_WORDS
from companion.views.checks.editions import PAD_EDITIONS, ROW_LABELS, ROW_LABELS_2015, PadEdition
from scoring.errors import quote
from scoring.first_edition import (
    CONSTRUCTIONS_2015,
    POUCHES_2015,
    Counts2015,
    Facts2015,
    Player2015,
)
from scoring.padcheck import Pad, PadPlayer
from scoring.rules import MAX_PLAYERS, TRACK_MAX
from scoring.table import Setup
from setupgen import CODE_MAX, Options, OptionsError, SeedError, generate

#: A number no pad line comes close to: beyond it a typed value is refused as a typing slip.
PAD_MAX: Final = 999
LIST_TEXT_MAX: Final = 60
PIPE_CHOICES: Final = (("", "Not said"), ("yes", "Yes"), ("no", "No"))


#: How a place is written on a paper pad beside its number: an ordinal's ending ("1st", "2nd", "3rd", "4th"), a
#: full stop ("1."), and the marks of a shared place ("=1", "1=", "T1": RULINGS R12 shares a tie left open).
PLACE_WRITING: Final = re.compile(r"^\s*(?:=|t|tied)?\s*(\S+?)\s*(?:st|nd|rd|th)?\s*[.=]?\s*$", re.IGNORECASE)


def place_number(text: str) -> str:
    """The number of a place as written (``=1`` -> ``1``), for :func:`companion.forms.whole_number`."""
    found = PLACE_WRITING.match(text)
    return found.group(1) if found else text


class PadNumber(forms.CharField):
    """A number written on the pad: blank (not typed), or a whole number 0-:data:`PAD_MAX` (full-width digits
    count); ``low``/``high`` narrow it (a firefighting space, a stack place)."""

    def __init__(
        self, *, what: str, low: int = 0, high: int = PAD_MAX, place: bool = False, **kwargs: Any
    ) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.what, self.low, self.high, self.place = what, low, high, place

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # text read as a value
        text = super().to_python(value) or ""  # CharField's empty value is ""
        if not text.strip():
            return None
        number = whole_number(place_number(text) if self.place else text)
        if number is None:
            raise ValidationError(f"{self.what}: write a whole number, not {quote(text)}")
        if not self.low <= number <= self.high:
            raise ValidationError(f"{self.what}: {number} is outside {self.low}-{self.high}")
        return number


class Flag(forms.CharField):
    """An option of the setup page's query, read as that page reads it (``1``/``true``/``on``/``yes`` or
    ``0``/``false``/``off``/``no``/blank)."""

    def __init__(self, *, what: str, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.what = what

    def to_python(self, value: Any) -> bool:  # type: ignore[override]  # text read as a value
        text = (super().to_python(value) or "").strip().lower()
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
        raise ValidationError(f"{self.what} must be 1 or 0 (or true/false), not {quote(text)}")


class CheckStartForm(PlayersForm):
    """The players, in seating order, and the edition of the pad."""

    edition = forms.ChoiceField(
        choices=[(e.key, e.label) for e in PAD_EDITIONS.values() if e.choice],
        initial="base",
        required=False,
        error_messages={"invalid_choice": "Choose IKI or IKI + Akebono."},
    )

    seed = forms.CharField(
        required=False,
        max_length=CODE_MAX,
        error_messages={"max_length": f"A setup code has at most {CODE_MAX} characters."},
    )
    grand_master = Flag(what="grand_master")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["edition"] = data.get("edition") or "base"
        data["setup"] = None
        code = (data.get("seed") or "").strip()
        if "players" in data and "grand_master" in data:
            options = self._options(len(data["players"]), data["edition"] == "akebono", data["grand_master"])
            if code and options is not None:
                data["setup"] = self._setup(code, options)
        return data

    def _options(self, players: int, akebono: bool, grand_master: bool) -> Options | None:
        """The setup's options, Grand Master included (RULINGS R24), as the setup page takes them."""
        try:
            return Options(players=players, akebono=akebono, grand_master=grand_master)
        except OptionsError as exc:
            self.add_error("grand_master" if grand_master else "seed", ValidationError(f"Setup: {exc}."))
            return None

    def _setup(self, code: str, options: Options) -> Setup | None:
        """The setup a seed code made (RULINGS R19, R24: the same seed and options make the same setup): its
        buildings and, with Akebono, its personalities and boat sides narrow the pad's lines."""
        try:
            made = generate(options, seed=code)
        except SeedError as exc:
            self.add_error("seed", ValidationError(f"Setup code: {exc}."))
            return None
        self.cleaned_data["seed"] = made.seed
        if made.akebono is None:
            return Setup(buildings=tuple(made.buildings))
        return Setup(
            buildings=tuple(made.buildings),
            personalities=tuple(p for pair in made.akebono.personalities.values() for p in pair),
            boat_sides=dict(made.akebono.boat_sides),
        )

    @property
    def setup(self) -> Setup | None:
        setup: Setup | None = self.cleaned_data.get("setup")
        return setup

    @property
    def akebono(self) -> bool:
        return bool(self.cleaned_data["edition"] == "akebono")

    @property
    def pad_edition(self) -> PadEdition:
        return PAD_EDITIONS[self.cleaned_data["edition"]]

    def seats(self) -> list[tuple[int, str, str]]:
        """(row index, name, colour) of each player, once the form is valid: the pad form's fields follow the
        row index, so a row left empty keeps the others' numbers where they were typed."""
        filled = [i for i in range(self.row_count) if self.cleaned_data.get(f"name-{i}")]
        return [(i, name, colour) for i, (name, colour) in zip(filled, self.players, strict=True)]


class Messages(forms.Form):
    def messages(self) -> list[str]:
        return [str(m) for field in (*self.fields, "__all__") for m in self.errors.get(field, [])]


class WrittenPadForm(Messages):
    """A pad as written, for each seat ``i`` of :meth:`CheckStartForm.seats`: ``p{i}-{line}`` for every line of
    the edition, ``p{i}-total``, ``p{i}-rank``, ``p{i}-pipe``, ``p{i}-firefighting`` and ``p{i}-stack`` (1 = top),
    then the edition's own fields of the seat (:meth:`seat_fields`)."""

    firefighting: str = "firefighting space"

    def __init__(
        self, data: Mapping[str, Any] | None, *, seats: list[tuple[int, str, str]], edition: PadEdition
    ) -> None:
        super().__init__(data, auto_id="%s")
        self.seats, self.lines = seats, edition.lines
        for i, name, _ in seats:
            for row in (*self.lines, "total"):
                self.fields[f"p{i}-{row}"] = PadNumber(what=f"{name}, {edition.labels[row].lower()}")
            self.fields[f"p{i}-rank"] = PadNumber(what=f"{name}, place", low=1, high=MAX_PLAYERS, place=True)
            self.fields[f"p{i}-pipe"] = forms.ChoiceField(
                choices=PIPE_CHOICES,
                required=False,
                error_messages={"invalid_choice": f"{name}, pipe: answer yes or no, or leave it"},
            )
            self.fields[f"p{i}-firefighting"] = PadNumber(what=f"{name}, {self.firefighting}", high=TRACK_MAX)
            self.fields[f"p{i}-stack"] = PadNumber(
                what=f"{name}, place in the stack", low=1, high=MAX_PLAYERS
            )
            self.seat_fields(i, name)

    def seat_fields(self, i: int, name: str) -> None:
        """The edition's own fields of seat ``i``, after the written ones."""

    def written(self) -> tuple[PadPlayer, ...]:
        """Each seat's typed lines, total, place and facts (the form must be valid)."""
        data = self.cleaned_data
        players = []
        for i, name, _ in self.seats:
            typed = {line: data[f"p{i}-{line}"] for line in self.lines if data[f"p{i}-{line}"] is not None}
            pipe = data[f"p{i}-pipe"]
            players.append(
                PadPlayer(
                    name=name,
                    lines=typed,
                    total=data[f"p{i}-total"],
                    rank=data[f"p{i}-rank"],
                    pipe=None if not pipe else pipe == "yes",
                    firefighting=data[f"p{i}-firefighting"],
                    stack_place=data[f"p{i}-stack"],
                )
            )
        return tuple(players)


class PadForm(WrittenPadForm):
    """The 2022 pad (base or Akebono) as written, with the setup that narrows its lines."""

    def __init__(
        self,
        data: Mapping[str, Any] | None,
        *,
        seats: list[tuple[int, str, str]],
        akebono: bool,
        setup: Setup | None = None,
    ) -> None:
        super().__init__(data, seats=seats, edition=PAD_EDITIONS["akebono" if akebono else "base"])
        self.akebono, self.setup = akebono, setup

    def pad(self) -> Pad:
        """The typed pad, for :func:`scoring.padcheck.check_pad` (the form must be valid)."""
        return Pad(players=self.written(), akebono=self.akebono, setup=self.setup)


class NumberList(forms.CharField):
    """Printed values typed in one field, ``2 3`` or ``2, 3`` (at most ``most`` of them; with ``exactly``, that
    many or none)."""

    def __init__(self, *, what: str, most: int, exactly: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.what, self.most, self.exactly = what, most, exactly

    def to_python(self, value: Any) -> tuple[int, ...]:  # type: ignore[override]  # text read as a value
        text = super().to_python(value) or ""
        if len(text) > LIST_TEXT_MAX:
            raise ValidationError(f"{self.what}: at most {LIST_TEXT_MAX} characters")
        parts = text.replace(",", " ").split()
        numbers = tuple(whole_number(p) for p in parts)
        if any(n is None or not 0 <= n <= PAD_MAX for n in numbers):
            raise ValidationError(f"{self.what}: write the printed values as whole numbers, like 2 3")
        if len(numbers) > self.most:
            raise ValidationError(f"{self.what}: at most {self.most} values ({len(numbers)} given)")
        if self.exactly and numbers and len(numbers) != self.most:
            raise ValidationError(
                f"{self.what}: type all {self.most} values ({len(numbers)} given), or leave it blank"
            )
        return tuple(n for n in numbers if n is not None)


#: The 2015 pad's entries (RULINGS E1): what the table reads off its board, tokens and cards.
FIELDS_2015: Final = (
    ("score_track", "IKI gained during play"),
    ("types", "Occupation types on the board and retired (0-5)"),
    ("fish_seasons", "Seasons of the fish held (0-4)"),
    ("bonito", "Bonus summer bonito's printed value (leave blank for a plain one)"),
    ("sea_bream", "Bonus winter sea bream's printed value (leave blank for a plain one)"),
    ("pouches", "Tobacco pouches' printed values"),
    ("pipes", "Pipes held"),
    ("constructions", "Construction cards' printed values"),
    ("koban", "Koban"),
    ("lumber", "Lumber"),
    ("mon", "Mon"),
    ("firefighting", "Firefighting power"),
    ("stack", "Place in its stack (1 = top)"),
)


class Form2015(Messages):
    """The 2015 pad of each seat of :meth:`CheckStartForm.seats`: ``p{i}-{field}`` of :data:`FIELDS_2015`."""

    def __init__(self, data: Mapping[str, Any] | None, *, seats: list[tuple[int, str, str]]) -> None:
        super().__init__(data, auto_id="%s")
        self.seats = seats
        limits = {"types": 5, "fish_seasons": 4, "pipes": 4, "firefighting": TRACK_MAX, "stack": MAX_PLAYERS}
        for i, name, _ in seats:
            for key, label in FIELDS_2015:
                what = f"{name}, {label.lower()}"
                if key in ("pouches", "constructions"):
                    self.fields[f"p{i}-{key}"] = NumberList(what=what, most=4 if key == "pouches" else 6)
                else:
                    low = 1 if key == "stack" else 0
                    self.fields[f"p{i}-{key}"] = PadNumber(what=what, low=low, high=limits.get(key, PAD_MAX))

    def players(self) -> list[Player2015]:
        data = self.cleaned_data
        out = []
        for i, name, _ in self.seats:
            value = {key: data[f"p{i}-{key}"] for key, _ in FIELDS_2015}
            out.append(
                Player2015(
                    name=name,
                    **{k: value[k] or 0 for k in ("score_track", "types", "fish_seasons", "pipes")},
                    **{k: value[k] or 0 for k in ("koban", "lumber", "mon")},
                    firefighting=value["firefighting"],
                    # RULINGS E4: a plain fish is typed as nothing, 0 or blank; only a bonus fish has a value
                    bonito=value["bonito"] or None,
                    sea_bream=value["sea_bream"] or None,
                    pouches=value["pouches"],
                    constructions=value["constructions"],
                    stack_place=value["stack"],
                )
            )
        return out


#: What narrows a 2015 player's resources line: what they ended with (2015 "Resources").
COUNTS_2015: Final = (("koban", "Koban"), ("lumber", "Lumber"), ("mon", "Mon"))
#: The printed values the 2015 text does not give, typed once for the table (RULINGS E1): key, label, how many.
PRINTED_2015: Final = (
    ("bonito", "The bonus summer bonito's value", 1),
    ("sea_bream", "The bonus winter sea bream's value", 1),
    ("pouches", f"The {POUCHES_2015} tobacco pouches' values", POUCHES_2015),
    ("constructions", f"The {CONSTRUCTIONS_2015} construction cards' values", CONSTRUCTIONS_2015),
)


class Check2015Form(WrittenPadForm):
    """The 2015 pad as written (RULINGS E1-E5, R20): the written pad's fields with :data:`LINES_2015`, and
    ``p{i}-koban``/``lumber``/``mon`` for each seat; for the table the printed values of :data:`PRINTED_2015`
    (``bonito``, ``sea_bream``, ``pouches``, ``constructions``), first. Blank is unknown."""

    firefighting = "firefighting power"

    def __init__(self, data: Mapping[str, Any] | None, *, seats: list[tuple[int, str, str]]) -> None:
        super().__init__(data, seats=seats, edition=PAD_EDITIONS["2015"])
        printed: dict[str, forms.Field] = {}
        for key, label, count in PRINTED_2015:
            if count == 1:
                printed[key] = PadNumber(what=label, low=1)
            else:
                printed[key] = NumberList(what=label, most=count, exactly=True)
        seats_fields = dict(self.fields)  # the printed values first, as the page shows them
        self.fields.clear()
        self.fields.update({**printed, **seats_fields})

    def seat_fields(self, i: int, name: str) -> None:
        for key, label in COUNTS_2015:
            self.fields[f"p{i}-{key}"] = PadNumber(what=f"{name}, {label.lower()}")

    def pad(self) -> tuple[Pad, Facts2015]:
        """The typed pad and the table's printed values, for :func:`scoring.first_edition.check_pad_2015`."""
        data = self.cleaned_data
        counts = {
            name: Counts2015(*(data[f"p{i}-{key}"] for key, _ in COUNTS_2015)) for i, name, _ in self.seats
        }
        facts = Facts2015(
            bonito=data["bonito"],
            sea_bream=data["sea_bream"],
            pouches=data["pouches"] or None,
            constructions=data["constructions"] or None,
            counts=counts,
        )
        return Pad(players=self.written()), facts


__all__ = [
    "COUNTS_2015",
    "FIELDS_2015",
    "PIPE_CHOICES",
    "PRINTED_2015",
    "ROW_LABELS",
    "ROW_LABELS_2015",
    "Check2015Form",
    "CheckStartForm",
    "Form2015",
    "PadForm",
    "PadNumber",
    "WrittenPadForm",
]
