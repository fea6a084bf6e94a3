"""Forms shared by every start page: the players (names and colours) and the name a phone signs its changes with.

One form, one limit, one set of messages, so a game tracked for an evening can always be scored: the name limit is
what the PDF score pad fits (:data:`NAME_MAX`). Text fields refuse what a person never types and a page cannot show
safely: control characters (Unicode Cc; a tab or a newline is folded into a space) and the bidi overrides that
reorder what follows them.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator
from typing import Any, Final

from django import forms
from django.core.exceptions import ValidationError

from companion.models.scoresheets import COLOURS, NAME_MAX
from companion.tokens import TOKEN_RE
from scoring import catalogue as cat
from scoring.errors import quote
from scoring.names import name_key, name_problem
from scoring.rules import MAX_PLAYERS, MIN_PLAYERS
from setupgen.code import CODE_MAX

BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates (U+202A-202E, U+2066-2069): they reorder the text after them on a page."""


FOLDED: Final = str.maketrans("\t\n\r", "   ")
"""The control characters a person does type in a name field (pasting, a phone's return key): one space each."""


def clean_text(value: str) -> str:
    """A typed text as it is stored: tabs and newlines folded into single spaces, the ends trimmed. Any other
    control character or a bidi override raises a :class:`ValidationError` naming it."""
    text = value.translate(FOLDED)
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            raise ValidationError(
                "the name holds a control character (U+%(code)04X) that cannot be shown: type it again",
                code="control-character",
                params={"code": ord(ch)},
            )
        if ch in BIDI_CONTROLS:
            raise ValidationError(
                "the name holds a direction-override character (U+%(code)04X): type it again without it",
                code="bidi-control",
                params={"code": ord(ch)},
            )
    return " ".join(text.split())


class OnceField(forms.RegexField):
    """A form's one-time code (``{% once %}``, companion/templatetags/once.py): a double tap sends the same code
    twice, and what the first tap made is found, not made again. A page without one (an old copy) just has none."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(regex=TOKEN_RE, **kwargs)


def once_key(code: str, what: str | bytes) -> str:
    """What a form made is found by: its one-time ``code`` with what it asked (a name, a file), so that the same
    page sent again with another name or file (the browser's back button) makes that; "" without a code."""
    if not code:
        return ""
    asked = what.encode() if isinstance(what, str) else what
    return hashlib.sha256(code.encode() + b"\0" + asked).hexdigest()


def messages_of(form: forms.Form, *, named: bool = False) -> list[str]:
    """Every message of a refused form, in the order of its fields and then the form's own; ``named``: each field's
    messages after its label, or its name where it has none (``New name: ...``, ``size: ...``), for an answer that
    does not show the form."""
    out: list[str] = []
    for field in (*form.fields, "__all__"):
        errors = [str(error) for error in form.errors.get(field, [])]  # ErrorList yields each message as str
        if named and errors and field != "__all__":
            out.append(f"{form.fields[field].label or field}: {' '.join(errors)}")
        else:
            out.extend(errors)
    return out


class _QuotedChoice:
    """A choice field whose "not one of the choices" message quotes at most 40 characters of what was sent
    (scoring.errors.quote), where Django's quotes the whole value."""

    def validate(self, value: Any) -> None:
        try:
            super().validate(value)  # type: ignore[misc]
        except ValidationError as exc:
            if exc.code != "invalid_choice" or not exc.params:
                raise
            raise ValidationError(
                exc.message, code=exc.code, params={"value": quote(exc.params["value"])}
            ) from None


class ChoiceField(_QuotedChoice, forms.ChoiceField):
    default_error_messages = {"invalid_choice": "choose one of the offered values, not %(value)s"}  # noqa: RUF012


class TypedChoiceField(_QuotedChoice, forms.TypedChoiceField):
    default_error_messages = {"invalid_choice": "choose one of the offered values, not %(value)s"}  # noqa: RUF012


class MultipleChoiceField(_QuotedChoice, forms.MultipleChoiceField):
    default_error_messages = {"invalid_choice": "choose only offered values, not %(value)s"}  # noqa: RUF012


def whole_number(text: str) -> int | None:
    """A typed whole number, or None. Digits ``int()`` reads count as their number (a Japanese keyboard's
    full-width ``３``, Arabic-Indic ``٣``); characters that only look like digits (``²``, ``⑤``) do not."""
    text = text.strip()
    if not text or len(text) > 12:
        return None
    try:
        return int(text)
    except ValueError:
        return None


class NameField(forms.CharField):
    """A person's name: spaces folded, at most :data:`NAME_MAX` characters, nothing hidden in it."""

    default_error_messages = {  # noqa: RUF012 (Django's own convention for a field's messages)
        "max_length": "a name has at most %(limit_value)d characters (this one has %(show_value)d)",
        "required": "give a name",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", NAME_MAX)
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        name = clean_text(super().to_python(value) or "")  # the empty value is "": never None
        problem = name_problem(name) if name else None  # an empty name is "required"'s business
        if problem:
            raise ValidationError(problem, code="invisible")
        return name

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {**super().widget_attrs(widget), "autocomplete": "off"}


class PlayersForm(forms.Form):
    """2-4 players in seating order: ``name-0`` .. ``name-3`` and ``colour-0`` .. ``colour-3``; empty rows are
    skipped. Names differ (ignoring case and characters that draw nothing: scoring.names), colours differ. Every message names the player's row."""

    def __init__(self, *args: Any, rows: int = MAX_PLAYERS, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "%s")  # ids are the field names: name-0, colour-0
        super().__init__(*args, **kwargs)
        self.row_count = rows
        self.typed = 0  # the rows with a name (once cleaned): the players the table means, refused names too
        for i in range(rows):
            self.fields[f"name-{i}"] = NameField(required=False, label=f"Player {i + 1}")
            self.fields[f"colour-{i}"] = ChoiceField(
                choices=[(c, c.capitalize()) for c in COLOURS],
                initial=COLOURS[i],
                required=False,
                label="Colour",
                error_messages={"invalid_choice": "choose a colour from the list"},
            )

    def rows(self) -> Iterator[tuple[int, forms.BoundField, forms.BoundField]]:
        """(index, name field, colour field) of each row, for the template."""
        for i in range(self.row_count):
            yield i, self[f"name-{i}"], self[f"colour-{i}"]

    def add_error(self, field: str | None, error: Any) -> None:
        """A field's message starts with its row ("Player 2: a name has at most 24 characters")."""
        if (
            field is not None
            and field.partition("-")[0] in ("name", "colour")
            and isinstance(error, ValidationError)
        ):
            row = int(field.rpartition("-")[2]) + 1
            error = ValidationError([f"Player {row}: {message}." for message in error.messages])
        super().add_error(field, error)

    def clean(self) -> dict[str, Any]:
        """Every problem of the players at once (a page without JavaScript shows them together): a row's own,
        then the count, the names and the colours among the rows that have no problem of their own."""
        data = super().clean() or {}
        players = []
        typed = 0  # the rows with a name, a refused one too: the count of players the table means
        for i in range(self.row_count):
            name = data.get(f"name-{i}") or ""
            typed += bool(name) or f"name-{i}" in self.errors
            if not name:
                continue
            colour = data.get(f"colour-{i}") or ""
            if not colour and f"colour-{i}" not in self.errors:
                self.add_error(f"colour-{i}", ValidationError("choose a colour from the list"))
            players.append((name, colour))
        coloured = [colour for _, colour in players if colour]
        for wrong, code, message in (
            (
                not MIN_PLAYERS <= typed <= MAX_PLAYERS,
                "player-count",
                f"IKI is played by {MIN_PLAYERS} to {MAX_PLAYERS} players: fill in {MIN_PLAYERS} to "
                f"{MAX_PLAYERS} names (you gave {typed}).",
            ),
            (
                len({name_key(name) for name, _ in players}) != len(players),
                "same-name",
                "Give each player a different name.",
            ),
            (len(set(coloured)) != len(coloured), "same-colour", "Give each player a different colour."),
        ):
            if wrong:
                self.add_error(None, ValidationError(message, code=code))
        self.typed = typed
        if not self.errors:
            data["players"] = players
        return data

    @property
    def players(self) -> list[tuple[str, str]]:
        """(name, colour) of each filled row, in seating order, once the form is valid."""
        players: list[tuple[str, str]] = self.cleaned_data["players"]
        return players

    def messages(self) -> list[str]:
        """Every message of the form, in the order of the page."""
        return messages_of(self)


class WhoForm(forms.Form):
    """The name this phone signs its changes with."""

    who = NameField(label="This phone's name")


class NewGameForm(PlayersForm):
    """A tracked game: the players, base or Akebono, the Grand Master variant, and optionally a setup's seed.

    ``setup_players``: the number of players the setup page made the seed for ("Track this game" carries it,
    with the seed and the options, as hidden fields). A seed gives that page's setup only with the same number of
    players and options (RULINGS R19), so the game must have exactly that many players (the view checks it)."""

    akebono = forms.BooleanField(required=False)
    grand_master = forms.BooleanField(required=False)
    seed = forms.CharField(
        required=False,
        max_length=CODE_MAX,
        error_messages={"max_length": f"a setup code has at most {CODE_MAX} characters"},
    )
    setup_players = TypedChoiceField(
        choices=[("", "")] + [(str(n), str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": f"a setup is made for {MIN_PLAYERS} to {MAX_PLAYERS} players"},
    )

    def add_error(self, field: str | None, error: Any) -> None:
        if field == "seed" and isinstance(error, ValidationError):
            error = ValidationError([f"Setup code: {message}." for message in error.messages])
        super().add_error(field, error)


class ScoreStartForm(PlayersForm):
    """The walk-through's start (quick score): the players, base or Akebono, and optionally what was in play,
    as a setup's seed or as the ticked buildings and personalities."""

    edition = ChoiceField(
        choices=[("base", "IKI (base game)"), ("akebono", "IKI + Akebono")],
        initial="base",
        error_messages={
            "invalid_choice": "Choose the base game or Akebono.",
            "required": "Choose the base game or Akebono.",
        },
    )
    setup_kind = ChoiceField(
        choices=[("none", "Not given"), ("seed", "The setup code"), ("pick", "Tick what was in play")],
        initial="none",
        required=False,
        error_messages={
            "invalid_choice": "Choose how to give the setup: none, a setup code, or what was in play."
        },
    )
    seed = forms.CharField(
        required=False,
        max_length=CODE_MAX,
        error_messages={"max_length": f"A setup code has at most {CODE_MAX} characters."},
    )
    grand_master = forms.BooleanField(required=False)
    buildings = MultipleChoiceField(
        choices=[(b.id, b.name) for b in cat.BUILDINGS],
        required=False,
        error_messages={"invalid_choice": "Setup: one of the ticked buildings is not a known building."},
    )
    personalities = MultipleChoiceField(
        choices=[(p.id, p.name) for p in cat.PERSONALITIES],
        required=False,
        error_messages={
            "invalid_choice": "Setup: one of the ticked personalities is not a known personality."
        },
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("setup_kind") or "none"
        data["setup_kind"] = kind
        if kind == "pick" and not data.get("buildings") and not data.get("personalities"):
            self.add_error(
                "setup_kind",
                ValidationError("Tick the buildings or personalities in play, or choose Not given."),
            )
        return data
