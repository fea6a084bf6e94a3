"""Blank score pads to print: ``GET /score/pads/`` picks the pad, ``GET /score/pads/blank.pdf`` serves it.

The page is a plain GET form whose action is the PDF, so it works without JavaScript; with htmx, changing an option
swaps in the summary of the chosen pad (its lines and reminders) and the download link. Bad query values get a 400
with a clear message: the page for the page, a plain text answer for the PDF, never a 500.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from companion.errors import UserError
from companion.models.results import EDITION_LABELS
from companion.pdf.scorepad import MAX_PLAYERS, MIN_PLAYERS, blank_pad, pad_lines, reference
from companion.views.answers import page_or_partial, pdf_response
from scoring.errors import quote

SIZES = {"a4": ("A4", "A4"), "letter": ("letter", "Letter")}  # query value -> (blank_pad's pagesize, label)
#: The query's ``akebono`` -> the edition (its name: companion.models.results.EDITIONS).
EDITIONS = {"0": "iki", "1": "iki-akebono"}
PLAYER_COUNTS = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
PLAYER_WORDS = f"{', '.join(PLAYER_COUNTS[:-1])} or {PLAYER_COUNTS[-1]}"


@dataclass(frozen=True)
class PadChoice:
    akebono: bool
    players: int
    size: str  # "a4" or "letter"

    @property
    def query(self) -> str:
        return urlencode({"akebono": int(self.akebono), "players": self.players, "size": self.size})

    @property
    def filename(self) -> str:
        edition = EDITIONS[str(int(self.akebono))]
        return f"{edition}-score-pad-{self.players}-players-{self.size}.pdf"

    @property
    def description(self) -> str:
        return f"{EDITION_LABELS[EDITIONS[str(int(self.akebono))]]}, {self.players} players, {SIZES[self.size][1]}"


DEFAULT = PadChoice(akebono=False, players=4, size="a4")


def parse_choice(query: dict[str, str]) -> PadChoice:
    """The pad asked for by ``?akebono=0|1&players=2-4&size=a4|letter``; a missing value takes the default."""
    akebono = query.get("akebono", str(int(DEFAULT.akebono))).strip()
    players = query.get("players", str(DEFAULT.players)).strip()
    size = query.get("size", DEFAULT.size).strip().lower()
    problems = []
    if akebono not in EDITIONS:
        problems.append(f"akebono must be 0 (base game) or 1 (with Akebono), not {quote(akebono)}.")
    if players not in PLAYER_COUNTS:
        problems.append(f"players must be {PLAYER_WORDS}, not {quote(players)}.")
    if size not in SIZES:
        problems.append(f"size must be a4 or letter, not {quote(size)}.")
    if problems:
        raise UserError(" ".join(p[0].upper() + p[1:] for p in problems))
    return PadChoice(akebono=akebono == "1", players=int(players), size=size)


@lru_cache(maxsize=len(EDITIONS) * len(PLAYER_COUNTS) * len(SIZES))
def _blank_pdf(choice: PadChoice) -> bytes:
    return blank_pad(akebono=choice.akebono, players=choice.players, pagesize=SIZES[choice.size][0])


def _context(choice: PadChoice, error: str | None) -> dict[str, object]:
    return {
        "choice": choice,
        "error": error,
        "editions": [(value, EDITION_LABELS[edition]) for value, edition in EDITIONS.items()],
        "player_counts": PLAYER_COUNTS,
        "sizes": [(value, label) for value, (_, label) in SIZES.items()],
        "akebono_value": str(int(choice.akebono)),
        "players_value": str(choice.players),
        "lines": pad_lines(choice.akebono),
        "reference": reference(choice.akebono),
        "pdf_url": f"{reverse('pads-blank')}?{choice.query}",
    }


@require_safe
def pads(request: HttpRequest) -> HttpResponse:
    """``GET /score/pads/``: choose a blank pad; with htmx, only the summary of the chosen pad."""
    try:
        choice, error, status = parse_choice(request.GET.dict()), None, 200
    except UserError as exc:
        choice, error, status = DEFAULT, str(exc), 400
    return page_or_partial(request, "pads.html", "summary", _context(choice, error), status=status)


@require_safe
def pads_blank(request: HttpRequest) -> HttpResponse:
    """``GET /score/pads/blank.pdf?akebono=1&players=4&size=a4``: the blank pad, or the error page (400)."""
    try:
        choice = parse_choice(request.GET.dict())
    except UserError as exc:
        raise UserError(f"No such score pad. {exc}") from None
    response = pdf_response(_blank_pdf(choice), choice.filename)
    response["Cache-Control"] = "public, max-age=86400"
    return response


urlpatterns = [
    path("score/pads/", pads, name="pads"),
    path("score/pads/blank.pdf", pads_blank, name="pads-blank"),
]
