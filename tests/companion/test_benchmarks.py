"""The scoring walk-through's benchmark through gunicorn (companion/benchmarks/scorepad.py, docs/benchmarks.md):
its server hooks time every request and its parser pairs them by step. Speed itself is never asserted here."""

from __future__ import annotations

from companion.benchmarks.scorepad import served_times, server_times


def test_server_times_are_grouped_by_the_step_whose_page_the_phone_opened() -> None:
    lines = [
        "GET /healthz 700.0",  # the warm-up, before any step
        "GET /score/tok/characters/ 3000.5",
        "GET /healthz 710.0",
        "POST /score/tok/characters/ 2100.0",
        "GET /healthz 720.0",
        "POST /score/tok/characters/ 2200.0",
        "GET /score/tok/fish/ 2900.0",
        "GET /healthz 730.0",
        "POST /score/tok/fish/ 1900.0",
    ]
    assert server_times(lines) == {
        "characters": ([710.0, 720.0], [2100.0, 2200.0]),
        "fish": ([730.0], [1900.0]),
    }


def test_gunicorn_times_each_healthz_and_each_entry_of_every_step_asked() -> None:
    """A real gunicorn with the hooks: every entry is answered (a refused one raises), every request timed."""
    times = served_times(2, ["characters", "firefighting"])
    assert set(times) == {"characters", "firefighting"}
    for healthz, posts in times.values():
        assert len(healthz) == 2
        assert len(posts) == 2
        assert all(t > 0 for t in healthz + posts)
