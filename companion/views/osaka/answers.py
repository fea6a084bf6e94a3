"""What a tracked Traders of Osaka game says after an undo or a restore (issue 23, "every answer says who did
what"): "Saved: Ben undid “Payday: red. Tokens: …”" on a player's own link (a line with its own full stop takes
no other: :data:`SENTENCE_ENDS`), the log's own line ("Undid: …") on the table's phone, which signs as nobody;
written beside the log line whose Undo was tapped (``answer-event``, floating over what follows, as the tracker's
answers do) or, when that line is not on the page, at the top of the state."""

from __future__ import annotations

from typing import Any, Final

from django import forms

from companion.models.osaka import OsakaEvent, OsakaGame
from companion.services.osaka import UNDID_LINE, UNDO_HEADS
from companion.services.osaka_access import TABLE_PHONE

#: The marks that end a sentence. A line that ends with one ends the answer too: "Saved: Ben undid “Payday: red.
#: Tokens: Anaïs +1 red.”" takes no second full stop after the closing quote; "… “Ben took a red token”." does.
SENTENCE_ENDS: Final = (".", "!", "?")


def said_of_undo(event: OsakaEvent) -> str:
    """The answer to an undo or a restore: who did it and to which line, from the facts its data stored (the
    line, whether it restored); an undo saved before it stored its line is read from its own line. The table's
    phone, which signs as nobody, is answered the log's line."""
    data = event.data if isinstance(event.data, dict) else {}
    restore = data.get("restore") is True
    line = data.get(UNDID_LINE)
    if not (isinstance(line, str) and line):
        line = event.summary.removeprefix(UNDO_HEADS[restore])
        if line == event.summary:
            return _ended(event.summary)
    if event.who == TABLE_PHONE:
        return _ended(UNDO_HEADS[restore] + line)
    return f"Saved: {event.who} {'restored' if restore else 'undid'} “{line}”{_stop(line)}"


def _stop(text: str) -> str:
    """The full stop ``text`` needs to end a sentence: none when it ends with one already (a payday's line)."""
    return "" if text.endswith(SENTENCE_ENDS) else "."


def _ended(text: str) -> str:
    """``text`` as a sentence: with its own end, or one full stop."""
    return text + _stop(text)


def undo_answer(game: OsakaGame, version: int) -> dict[str, Any]:
    """The answer to the undo of ``version`` for the page's context (:func:`with_answer`); {} when that version
    is no undo."""
    event = OsakaEvent.objects.filter(game_id=game.pk, version=version, kind="undo").first()
    if event is None:
        return {}
    target = event.data.get("target") if isinstance(event.data, dict) else None
    return {"said": said_of_undo(event), "said_at": target}


def with_answer(context: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The page's context with an undo's answer (:func:`undo_answer`): beside the line undone (``said_at``) when
    the page shows it, else at the top of the state (``message``)."""
    if not answer:
        return context
    if any(e.version == answer["said_at"] for e in context["events"]):
        return {**context, **answer}
    return {**context, "message": answer["said"], "level": "ok"}


class DidForm(forms.Form):
    """The game page's query after a plain form's undo (``?did=<version>``, :func:`answered_url`)."""

    did = forms.IntegerField(min_value=1, max_value=10**9)


def answered_url(url: str, game: OsakaGame, target: object) -> str:
    """Where a plain form's undo sends the phone back: the game page saying what it did, opened at the line."""
    return f"{url}?did={game.version}#event-{target}"
