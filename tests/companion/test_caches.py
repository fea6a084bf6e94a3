"""companion.caches: the one bound of the score sheets' caches (players read, lines scored, rows written)."""

from __future__ import annotations

from companion.caches import put


def test_a_value_is_stored_and_returned_below_the_bound() -> None:
    cache = {"a": 1, "b": 2}
    assert put(cache, "c", 3, 3) == 3
    assert cache == {"a": 1, "b": 2, "c": 3}


def test_a_full_cache_is_emptied_before_the_next_value_is_stored() -> None:
    cache = {"a": 1, "b": 2, "c": 3}
    assert put(cache, "d", 4, 3) == 4
    assert cache == {"d": 4}
