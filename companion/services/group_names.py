"""A group's player names offered as you type on a page that starts a game or checks a pad (``?group=<token>``).

Shared by the pad check (:mod:`companion.views.checks`) and the walk-through's start
(:mod:`companion.scorepad.views.start`): one floor below both.
"""

from __future__ import annotations

from typing import Any

from companion.services.results import group_by_token, player_names


def group_context(token: str) -> dict[str, Any]:
    """With ``?group=<edit token>`` the page offers the group's player names and files what it keeps there."""
    found = group_by_token(token[:64]) if token else None
    if found is None or not found[1]:
        return {}
    return {"group": found[0], "group_names": player_names(found[0]), "name_list": "group-names"}
