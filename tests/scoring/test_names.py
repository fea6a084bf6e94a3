"""Names a person can see and tell apart (issue 24; scoring.names): one row per way a name is refused or taken
as another's, and the scripts and emoji that must stay allowed."""

from __future__ import annotations

import pytest

from scoring.names import name_key, name_problem

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl: one family glyph
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # black flag + tags


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("\u200b", "letters or signs a person can see"),  # zero-width space alone
        ("\u3164\u3164", "letters or signs a person can see"),  # Hangul fillers
        ("\u2800", "letters or signs a person can see"),  # Braille blank
        ("\ufe0f", "letters or signs a person can see"),  # a lone variation selector
        ("\u200bAnn", "U+200B"),
        ("\u2060Ann", "U+2060"),  # word joiner
        ("\u00adAnn", "U+00AD"),  # soft hyphen
        ("\u200dAnn", "U+200D"),  # a joiner joins nothing at the start
        ("\ufeffAnn", "U+FEFF"),
        ("\u3164Ann", "U+3164"),
    ],
)
def test_an_invisible_name_is_refused(name: str, words: str) -> None:
    problem = name_problem(name)
    assert problem is not None and words in problem


@pytest.mark.parametrize(
    "name",
    [
        "Ann",
        "Anaïs",
        "می\u200cخواهم",
        "क्\u200dष",
        FAMILY,
        ENGLAND,
        "\u2764\ufe0f",
        "1\ufe0f\u20e3",
        "Ann\u200b",
        "李",
    ],
)
def test_visible_names_and_the_joiners_scripts_need_are_allowed(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann", "ANN"),
        ("Ann", "Ann\u200b"),
        ("Ann", "A\u200bnn"),
        ("Ann", "An\u200dn"),  # a joiner between Latin letters draws nothing
        ("Ann", "Ann\ufe0f"),
        ("Ann", "An\u00adn"),
        ("Ann", "A\u034fnn"),
        ("Anaïs", "Anai\u0308s"),  # composed and decomposed ï
    ],
)
def test_names_differing_only_by_invisible_characters_or_case_are_the_same(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("می\u200cخواهم", "میخواهم"),  # Persian: the non-joiner changes the letters' shapes
        (FAMILY, FAMILY.replace("\u200d", "")),  # a family, or three people
        ("Ann", "Anne"),
        ("Anaïs", "Anais"),
    ],
)
def test_names_that_look_different_stay_different(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)
