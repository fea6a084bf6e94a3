"""Find a game by its link or code (issue 25, "Recents survive"): a phone whose recent list was lost (another
browser, cleared storage) gets back to a game, a score sheet, a result or a group from a pasted link or the code
under its QR code. A selector: it reads, never writes.

A link is taken apart here and only its path and query are kept, so the answer is always an address of this
companion (never another site's); a code is a token (:data:`companion.tokens.TOKEN_RE`), spaces ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final
from urllib.parse import urlsplit

from django.db.models import Q
from django.urls import Resolver404, resolve, reverse

from companion.models.games import Game
from companion.models.osaka import OsakaGame, OsakaSeat
from companion.models.results import Group, Result
from companion.models.scoresheets import ScoreSheet
from companion.tokens import TOKEN_RE

#: The pages a pasted link may lead to as it is, by the page its token's kind opens (a link to another address with a
#: known token, such as a game's JSON state, leads to that token's page instead). A setup needs no token: it is its
#: own link (its seed and options).
PAGES: Final = {
    "game": "game", "game-share": "game", "game-log": "game",
    "osaka-game": "osaka-game", "osaka-game-share": "osaka-game", "osaka-game-log": "osaka-game",
    "scorepad-sheet": "scorepad-sheet", "scorepad-step": "scorepad-sheet", "scorepad-result": "scorepad-sheet",
    "scorepad-view": "scorepad-view", "result-page": "result-page", "result-view": "result-view", "group": "group",
}  # fmt: skip
TOKENLESS_PAGES: Final = frozenset({"setup-game"})


def _page_of_code(code: str) -> str | None:
    """The name of the page a token opens (see :func:`address_of_code`)."""
    if not TOKEN_RE.fullmatch(code):
        return None
    lookups: tuple[tuple[str, Callable[[], bool]], ...] = (
        ("game", lambda: Game.objects.filter(Q(edit_token=code) | Q(view_token=code)).exists()),
        ("osaka-game", lambda: OsakaGame.objects.filter(Q(edit_token=code) | Q(view_token=code)).exists()),
        ("osaka-game", lambda: OsakaSeat.objects.filter(private_token=code).exists()),
        ("scorepad-sheet", lambda: ScoreSheet.objects.filter(token=code).exists()),
        ("scorepad-view", lambda: ScoreSheet.objects.filter(view_token=code).exists()),
        ("result-page", lambda: Result.objects.filter(sheet=None, removed=False, token=code).exists()),
        ("result-view", lambda: Result.objects.filter(sheet=None, removed=False, view_token=code).exists()),
        ("group", lambda: Group.objects.filter(Q(token=code) | Q(view_token=code)).exists()),
    )
    return next((name for name, exists in lookups if exists()), None)


def address_of_code(code: str) -> str | None:
    """The page a token opens: a tracked game's, a Traders of Osaka game's (a player's own link included), a
    score sheet's (edit or view-only), a checked pad's result, a group's; None when nothing has this token."""
    page = _page_of_code(code)
    return reverse(page, args=[code]) if page is not None else None


def address_of_link(text: str) -> str | None:
    """The address a pasted link names, when it is a page of this companion that exists; None otherwise."""
    try:
        parts = urlsplit(text if "://" in text or text.startswith("/") else f"//{text}")
        match = resolve(parts.path or "/")
    except (ValueError, Resolver404):  # not a link ("http://[x"), or no page of this companion
        return None
    path = parts.path or "/"
    token = match.kwargs.get("token")
    if not isinstance(token, str):
        return f"{path}?{parts.query}" if match.url_name in TOKENLESS_PAGES and parts.query else None
    page = _page_of_code(token)
    if page is None:
        return None
    if PAGES.get(str(match.url_name)) != page:
        return reverse(page, args=[token])
    return f"{path}?{parts.query}" if parts.query else path


def find_address(text: str) -> str | None:
    """Where a pasted link or a typed code leads (a path of this companion), or None when it names nothing."""
    text = text.strip()
    if "/" in text:
        return address_of_link(text)
    return address_of_code("".join(text.split()))


__all__ = ["address_of_code", "address_of_link", "find_address"]
