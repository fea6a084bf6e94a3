"""Fonts for the PDFs. Component names need more than Latin-1 (Ryōkan, Jūzaburō), so the PDFs embed DejaVu Sans
from Debian's fonts-dejavu-core (installed by .ci/test); without it they fall back to Helvetica with the names
folded to ASCII, so a PDF is always produced."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@cache
def fonts() -> tuple[str, str]:
    """(regular, bold) font names registered with reportlab."""
    regular, bold = DEJAVU / "DejaVuSans.ttf", DEJAVU / "DejaVuSans-Bold.ttf"
    if regular.exists() and bold.exists():
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(regular)))
        pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(bold)))
        return "DejaVuSans", "DejaVuSans-Bold"
    return "Helvetica", "Helvetica-Bold"


def text(value: str) -> str:
    """``value`` as the chosen font can draw it (ASCII-folded for the Helvetica fallback)."""
    if fonts()[0] != "Helvetica":
        return value
    return unicodedata.normalize("NFKD", value).encode("latin-1", "ignore").decode("latin-1")
