"""What a tracked game's requests carry, read by Django forms (issue 22: a form for every POST and query).

:class:`ChangeForm` reads a change (``/games/<token>/change``): its numbers are whole numbers as ``int()`` reads
them (a Japanese keyboard's full-width ``３``, Arabic-Indic ``٣``), never characters that only look like digits
(``²``, ``⑤``): those, a fraction or a number of more than six digits are refused with a 400 naming the field.
What the rules allow (which op, which seat, which range) the service judges (companion.services.tracker.changes).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from companion.services.tracker.records import RESOURCES

NUMBER_LIMIT = 10**6
"""A number a change may carry is below this in size (a seat, a score, a version): more is no number of a game."""
KEY_MAX = 80
KEYS_MAX = 400
"""The most a reveal's keys take ("Next" asks to reveal every reveal not made yet in one tap)."""
FIELD_MAX = 40


class WholeNumberField(forms.IntegerField):
    """An optional whole number of at most six digits; the refusal names the field (its label)."""

    def __init__(self, label: str, **kwargs: Any) -> None:
        said = f"{label}: enter a whole number."
        messages = {"invalid": said, "min_value": said, "max_value": said}
        super().__init__(
            label=label,
            required=False,
            min_value=1 - NUMBER_LIMIT,
            max_value=NUMBER_LIMIT - 1,
            error_messages=messages,
            **kwargs,
        )

    def to_python(self, value: Any) -> int | None:
        if (
            isinstance(value, str) and "." in value
        ):  # IntegerField reads "3.0" as 3: a whole number has no point
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        number = super().to_python(value)
        return number if isinstance(number, int) else None


class KeysField(forms.Field):
    """Every ``key`` sent (a reveal may send several), as a list."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _text() -> forms.CharField:
    return forms.CharField(required=False, strip=False)


class ChangeForm(forms.Form):
    """One change of a tracked game, as its forms (templates/games.html) and the live script post it."""

    op = _text()
    seat = WholeNumberField("The player's seat")
    value = WholeNumberField("The number")
    v = WholeNumberField("The version")
    was = _text()
    key = KeysField(required=False)
    field = _text()
    cid = _text()
    paid = _text()
    move = _text()
    ask = _text()
    force = _text()
    sure = _text()  # "1": the phone confirmed undoing another phone's change (issue 23)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in RESOURCES:
            self.fields[name] = WholeNumberField(name.capitalize())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        keys = data.get("key") or []
        data["key"] = (
            " ".join(keys)[:KEYS_MAX] if data.get("op") == "reveal" else (keys[-1] if keys else "")[:KEY_MAX]
        )
        data["field"] = (data.get("field") or "")[:FIELD_MAX]
        data["paid"] = (data.get("paid") or "")[:KEY_MAX]
        data["was"] = data.get("was") or None
        data["cid"] = data.get("cid") or None
        data["move"] = data.get("move") == "1"
        data["ask"] = bool(data.get("ask"))
        data["force"] = bool(data.get("force"))
        data["sure"] = data.get("sure") == "1"
        data["numbers"] = {k: data.get(k) for k in RESOURCES}
        if self.data.get("blank") == "0":
            # New Year's Day's row (issue 23): only the resources it asks, a blank one read as 0 (its placeholder).
            data["numbers"] = {k: data.get(k) or 0 for k in RESOURCES if k in self.data}
        return data

    def message(self) -> str:
        """The first refusal, naming its field."""
        return next(str(e) for errors in self.errors.values() for e in errors)
