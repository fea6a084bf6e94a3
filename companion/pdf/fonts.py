"""Fonts for the PDFs. Component names need more than Latin-1 (Ryōkan, Jūzaburō), so the PDFs embed DejaVu Sans
from Debian's fonts-dejavu-core (installed by .ci/test); without it they fall back to Helvetica with the names
folded to ASCII, so a PDF is always produced. A player's name in Japanese or Chinese (DejaVu has no kanji) is
drawn in Droid Sans Fallback from Debian's fonts-droid-fallback when it is installed (the glyphs used are
embedded)."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
#: Kanji, kana and hangul, for the names DejaVu cannot draw.
FALLBACK = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


#: The TrueType fonts registered, by name: what :func:`font_for` asks which characters they draw.
_REGISTERED: dict[str, TTFont] = {}


def _register(name: str, path: Path) -> str:
    _REGISTERED[name] = TTFont(name, str(path))
    pdfmetrics.registerFont(_REGISTERED[name])
    return name


@cache
def fonts() -> tuple[str, str]:
    """(regular, bold) font names registered with reportlab."""
    regular, bold = DEJAVU / "DejaVuSans.ttf", DEJAVU / "DejaVuSans-Bold.ttf"
    if regular.exists() and bold.exists():
        return _register("DejaVuSans", regular), _register("DejaVuSans-Bold", bold)
    return "Helvetica", "Helvetica-Bold"


def text(value: str) -> str:
    """``value`` as the chosen font can draw it (ASCII-folded for the Helvetica fallback)."""
    if fonts()[0] != "Helvetica":
        return value
    return unicodedata.normalize("NFKD", value).encode("latin-1", "ignore").decode("latin-1")


@cache
def _fallback() -> str | None:
    """The fallback font's name registered with reportlab, or None when it is not installed."""
    return _register("DroidSansFallback", FALLBACK) if FALLBACK.exists() else None


def draws(value: str, font: str) -> bool:
    """Whether ``font`` has a glyph for every character of ``value`` (Helvetica, unembedded: taken as yes, since
    :func:`text` has folded what it draws)."""
    if font not in _REGISTERED:
        return True
    drawn = _REGISTERED[font].face.charToGlyph
    return all(ord(ch) in drawn for ch in value)


def font_for(value: str, font: str) -> str:
    """``font``, or the fallback font when ``value`` has a character ``font`` has no glyph for and the fallback
    has (a name in kanji would otherwise print as empty boxes)."""
    if font not in _REGISTERED:
        return font  # Helvetica: text() folds the value to what it draws
    drawn = _REGISTERED[font].face.charToGlyph
    missing = [ch for ch in value if ord(ch) not in drawn]
    fallback = _fallback() if missing else None
    if fallback is None or any(ord(ch) not in _REGISTERED[fallback].face.charToGlyph for ch in missing):
        return font
    return fallback
