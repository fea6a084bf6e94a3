"""Objects the companion's tests start from, made as the app makes them."""

from __future__ import annotations

from companion.models.games import Game, NewPlayer, create_game
from setupgen import Options, generate

COLOURS = ("red", "blue", "green", "yellow")


def make_game(
    names: tuple[str, ...] = ("Anaïs", "Ben", "Chie"), *, akebono: bool = False, finished: bool = False
) -> Game:
    """A tracked game of the seed K7MX2QPA; ``finished``: past New Year's Day, ready to be scored."""
    setup = generate(Options(players=len(names), akebono=akebono), seed="K7MX2QPA").to_json()
    game = create_game(
        players=[NewPlayer(n, c) for n, c in zip(names, COLOURS, strict=False)],
        akebono=akebono,
        grand_master=False,
        setup=setup,
        who="test",
    )
    if finished:
        Game.objects.filter(pk=game.pk).update(month=13, finished=True)
        game.refresh_from_db()
    return game


def db_snapshot() -> dict[str, list[tuple[str, ...]]]:
    """Every row of every model of the app, as text: what "nothing changed in the database" compares."""
    from django.apps import apps

    return {
        model.__name__: sorted(tuple(str(v) for v in row) for row in model.objects.values_list())
        for model in apps.get_app_config("companion").get_models()
    }
