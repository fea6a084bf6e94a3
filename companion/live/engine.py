"""Writes applied at most once, the poke, and the pieces of an answer (docs/sync.md).

A phone's write carries its client id (``lc``, 8-32 letters, digits, ``-`` or ``_``) and that client's counter
(``ln``, counting up from 1). :func:`once` runs the write in one transaction with a :class:`Mutation` row holding
the answer: the same (thing, client, counter) sent again gets that stored answer and changes nothing (two copies
racing: the second one's row breaks the unique constraint, its transaction is rolled back, and it reads the
first one's answer). The poke (``pg_notify``) is sent in the same transaction: PostgreSQL delivers it at commit.
A write's whole answer is kept :data:`KEEP_WRITES`; then one write in :data:`PRUNE_EVERY` (and ``manage.py purge``)
forgets the older answers' pieces but keeps their rows, so a write sent again weeks later is still applied at most
once (answered :data:`FORGOTTEN`); the rows go with their thing (companion.services.retention).

Pieces: a page marks the parts a change may alter with ``{% piece %}...{% endpiece %}`` (each one element with an
``id``; ``{% piece "seat" s.seat %}`` also names it, ``seat-1``, so that a render may skip it). Each piece gets ``data-h``, a digest of what it shows (its own markup, a nested piece counted by its
id only, so a change inside it sends it alone; CSRF tokens, versions and rendered client ids left out, since they
differ on every render). Pieces carry double-quoted ids. A pull names the digests
the page holds (``h``) and gets only the pieces whose digest it does not hold, never the page. A write or a pull
that knows which named pieces its change can alter renders only those (``Pieces(only=...)``): the pieces left
out are unchanged, and a page that was behind pulls (its answer's version is not its own + 1).
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import os
import re
import threading
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from django.db import IntegrityError, connection, transaction
from django.db.models import IntegerField, Max, QuerySet, Subquery, Value
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import add_never_cache_headers

from companion.live.pokes import CHANNEL, local_poke
from companion.models.live import HOLDING, Mutation

CLIENT_RE: Final = re.compile(r"[A-Za-z0-9_-]{8,32}")
MAX_COUNTER: Final = 2**31 - 1
#: The most digests a pull may name (a walk-through step holds about 80 pieces).
MAX_HELD: Final = 400
#: A pull further behind than this many versions renders every piece (a page left asleep a long while), not
#: only those the changes since can alter (the tracker's and Osaka's pulls).
PULL_SINCE_MAX: Final = 32
VERSION_HEADER: Final = "X-Live-Version"
#: How long a write's whole answer (its pieces) is kept for a replay: a phone retries a write whose answer it lost
#: within seconds, and sends the outbox it kept offline (live.js) when the page opens again: the evening's game and
#: the next day. After it the row stays, its body emptied (a redirect keeps its address): about 100 bytes a write.
KEEP_WRITES: Final = datetime.timedelta(days=2)
#: One stored write in this many (by its row id) also empties the answers older than KEEP_WRITES: one UPDATE, so
#: the table stays small where no daily purge runs (a LAN).
PRUNE_EVERY: Final = 256
#: What a write sent again after its answer was forgotten gets instead (live.js ignores a replay's body and pulls;
#: a plain form shows this page).
FORGOTTEN: Final = "already_sent.html"


@dataclass(frozen=True, slots=True)
class MutationId:
    client: str
    counter: int


def mutation_id(data: Mapping[str, str]) -> MutationId | None:
    """The write's id from a form's ``lc`` and ``ln``; None when absent or malformed (the write is then applied
    as sent, once per request, as a plain form is)."""
    client, counter = str(data.get("lc", "")), str(data.get("ln", ""))
    if not CLIENT_RE.fullmatch(client) or not counter.isascii() or not counter.isdigit() or len(counter) > 10:
        return None
    number = int(counter)
    return MutationId(client, number) if 0 < number <= MAX_COUNTER else None


@dataclass(frozen=True, slots=True)
class Answer:
    """What a write answers: status, body (pieces), and the thing's version after it."""

    status: int
    body: str
    version: int
    #: Where a plain form's answer sends the browser (a redirect), else "".
    location: str = ""
    #: The response first made (its htmx headers too); a replay is made again from the stored fields.
    made: HttpResponse | None = field(default=None, compare=False)

    @classmethod
    def of(cls, response: HttpResponse, version: int) -> Answer:
        body = response.content.decode()
        return cls(response.status_code, body, version, response.get("Location", ""), response)

    def response(self, *, replay: bool = False) -> HttpResponse:
        response = self.made or HttpResponse(self.body, status=self.status)
        if self.location:
            response["Location"] = self.location
        response[VERSION_HEADER] = str(self.version)
        add_never_cache_headers(response)
        if replay:
            response["X-Live-Replay"] = "1"
        return response


#: SQLite lets one writer in at a time and makes the others poll for the lock, sleeping up to 100 ms between
#: tries. Under an ASGI server every request runs on a thread of its own, so at a busy table dozens of writes of one
#: process polled at once: most of the time was spent asleep (400 tables: taps p95 8.7 s at 77 % of a core, some
#: "database is locked" after 20 s). A process's writes queue here instead, each starting when the last commits.
_ONE_WRITER: Final = threading.Lock()
#: The same between processes (``manage.py table --workers 2``): each write also holds an exclusive ``flock`` on
#: this file beside the database, which the kernel hands to the next waiter as soon as it is let go (two workers at
#: 1,000 tables: taps p95 1.5 s, sleeping in the busy handler, before it).
WRITER_FILE_SUFFIX: Final = "-writer"


@contextlib.contextmanager
def _writer() -> Iterator[None]:
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    name = str(connection.settings_dict["NAME"])
    with _ONE_WRITER:
        if name == ":memory:" or name.startswith(
            "file:"
        ):  # one process's database: no other process to wait for
            yield
            return
        fd = os.open(name + WRITER_FILE_SUFFIX, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # lets the lock go


class Stored(Exception):
    """Raised by a write whose own first read found it already stored (:func:`stored_id`): :func:`once` answers
    with the stored answer and changes nothing."""

    def __init__(self, pk: int) -> None:
        super().__init__(f"write {pk} already stored")
        self.pk = pk


def stored_id(thing: Any, mid: MutationId | None) -> Any:
    """An annotation for a write's first read, so the write looks its replay up in the query that loads (and
    locks) what it changes: the id of ``mid``'s stored write on ``thing`` (a name, or an expression naming it from
    the row, e.g. ``Concat(Value("game:"), ...)``), NULL when none. The write raises :class:`Stored` on an id."""
    if mid is None:
        return Value(None, output_field=IntegerField())
    found = Mutation.objects.filter(thing=thing, client=mid.client, counter=mid.counter)
    return Subquery(found.values("pk")[:1], output_field=IntegerField())


def once(
    thing: str | Callable[[], str],
    mid: MutationId | None,
    write: Callable[[], Answer],
    *,
    looked_up: bool = False,
) -> tuple[Answer, bool]:
    """Run ``write`` once for ``mid`` on ``thing``; (its answer, whether this was a replay). ``write`` runs in the
    transaction that stores its answer; the phones of ``thing`` are poked when it answers 2xx. ``looked_up``: the
    write finds its own replay in its first read (:func:`stored_id`, raising :class:`Stored`), one query fewer;
    ``thing`` may then be a function, asked once the write has run (the write's read found the thing)."""
    for attempt in (1, 2):
        try:
            with _writer(), transaction.atomic():
                try:
                    seen = None
                    if mid is not None and not looked_up:
                        seen = Mutation.objects.filter(
                            thing=_name(thing), client=mid.client, counter=mid.counter
                        ).first()
                    if seen is None:
                        answer = write()
                except Stored as found:
                    seen = Mutation.objects.get(pk=found.pk)
                if seen is not None:
                    status, body, version = seen.status, seen.body, seen.version
                    location = body if 300 <= status < 400 else ""
                    body = body or ("" if location else render_to_string(FORGOTTEN))
                    return Answer(status, "" if location else body, version, location), True
                if mid is not None:
                    store(_name(thing), mid, answer)
                if answer.status < 300:
                    poke(_name(thing), answer.version)
                return answer, False
        except IntegrityError:
            if attempt == 2 or mid is None:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _name(thing: str | Callable[[], str]) -> str:
    return thing if isinstance(thing, str) else thing()


def store(thing: str, mid: MutationId, answer: Answer) -> None:
    """Keep the answer of ``mid`` (inside the write's transaction); now and then forget the old ones."""
    row = Mutation.objects.create(
        thing=thing,
        client=mid.client,
        counter=mid.counter,
        version=answer.version,
        status=answer.status,
        body=answer.location or answer.body,
    )
    if row.pk % PRUNE_EVERY == 0:
        prune()


def old_answers(*, now: datetime.datetime | None = None) -> QuerySet[Mutation]:
    """The stored writes older than :data:`KEEP_WRITES` whose answer still holds pieces (a redirect's address is
    kept: it is all a plain form's replay needs)."""
    old = Mutation.objects.filter(HOLDING, at__lt=(now or timezone.now()) - KEEP_WRITES)
    return old.exclude(status__range=(300, 399))


def prune() -> int:
    """Forget the pieces of the old answers (:func:`old_answers`), keeping each write's row, so it is still applied
    at most once; how many."""
    return old_answers().update(body="")


def poke(thing: str, version: int) -> None:
    """Tell every process that ``thing`` is at ``version``: on PostgreSQL a NOTIFY sent at commit; on SQLite this
    process's streams are woken at commit (companion.live.pokes) and the other processes' version check finds it
    (companion.live.stream)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{thing} {version}"])
    else:
        transaction.on_commit(lambda: local_poke(thing, version))


# --- pieces ------------------------------------------------------------------------------------------------------

#: What differs on every render, left out of a digest: the values of these fields, and htmx's out-of-band mark.
#: The pattern starts with a literal, so the regex engine looks for ``name="`` alone (as one alternation with the
#: mark it tried both at every character: 450 µs for the Osaka log's 6.5 kB, now a tenth of it).
_VOLATILE: Final = re.compile(r'(name="(?:csrfmiddlewaretoken|once|cid|v|lc|ln)" value=")[^"]*"')
_OOB: Final = ' hx-swap-oob="true"'

_FIRST_TAG: Final = re.compile(r"^(\s*<[A-Za-z][A-Za-z0-9-]*)")
_ID: Final = re.compile(r'^\s*<[^>]*?\sid="([^"]+)"')


def digest(html: str) -> str:
    return hashlib.blake2b(_VOLATILE.sub(r"\1", html.replace(_OOB, "")).encode(), digest_size=5).hexdigest()


@dataclass(slots=True)
class Piece:
    id: str
    h: str
    html: str
    parent: int | None


@dataclass(slots=True)
class Pieces:
    """The pieces one render made (put in the template context as ``live_pieces``)."""

    #: The names of the pieces to render; None: all. Pieces without a name, and pieces inside a piece rendered,
    #: always are.
    only: Collection[str] | None = None
    #: Named pieces not in ``only`` whose inside is rendered but not kept: each piece in them counts on its own, as
    #: at the top (the named ones in ``only``, every unnamed one), so a change of one player's part of a wrapper
    #: renders that part alone. Only for a wrapper the change cannot alter itself (its own markup, children counted
    #: by id): its digest is not sent, and the page keeps the one it holds. A wrapper rendered (in ``only``)
    #: renders all of its pieces, so its digest is always right.
    through: Collection[str] = ()
    found: list[Piece] = field(default_factory=list)
    _open: list[tuple[int, list[Piece]]] = field(default_factory=list)

    def skips(self, name: str) -> bool:
        """Whether a collecting render leaves the piece ``name`` out (pieces in a piece rendered never are)."""
        return self.only is not None and bool(name) and not self._open and name not in self.only

    def begin(self) -> None:
        self._open.append((len(self.found), []))
        self.found.append(Piece("", "", "", self._open[-2][0] if len(self._open) > 1 else None))

    def end(self, html: str) -> str:
        """Mark the piece just rendered; returns its markup with its digest."""
        index, children = self._open.pop()
        own = html
        for child in children:
            own = own.replace(child.html, f"<piece {child.id}>", 1)
        piece = self.found[index]
        piece.h = digest(own)
        piece.html = _FIRST_TAG.sub(rf'\1 data-h="{piece.h}"', html, count=1)
        piece.id = m.group(1) if (m := _ID.match(html)) else ""
        if self._open:
            self._open[-1][1].append(piece)
        return piece.html

    def missing(self, held: Collection[str]) -> list[Piece]:
        """The pieces whose digest is not in ``held``, outermost first (a piece sent whole brings its own)."""
        sent: set[int] = set()
        out = []
        for i, piece in enumerate(self.found):
            if piece.parent is not None and piece.parent in sent:
                sent.add(i)
            elif piece.id and piece.h not in held:
                sent.add(i)
                out.append(piece)
        return out


def render_piece(context: Any, render: Callable[[], str], name: Callable[[], str] = str) -> str:
    """``{% piece %}``: the block's markup with its digest, recorded when the context collects pieces; nothing when
    the collecting render skips the piece ``name()``."""
    pieces = context.get("live_pieces")
    if not isinstance(pieces, Pieces):
        return pieces_html(render())
    if pieces.only is not None and pieces.skips(named := name()):
        if named in pieces.through:
            render()  # its pieces are recorded on their own; its markup is not sent
        return ""
    pieces.begin()
    return pieces.end(render().strip())


def pieces_html(html: str) -> str:
    html = html.strip()
    return _FIRST_TAG.sub(rf'\1 data-h="{digest(html)}"', html, count=1)


def held(raw: str) -> set[str]:
    """The digests a pull names (``h=a1b2c3d4e5.f6...``)."""
    return set(raw.split(".")[:MAX_HELD])


def is_live(request: HttpRequest) -> bool:
    """A request of the live script (companion/static/companion/live.js): answered with pieces only."""
    return request.headers.get("X-Live") == "1"


def pull_response(request: HttpRequest, thing: str, pieces: Pieces, version: int) -> HttpResponse:
    """The answer to a pull: the pieces the page lacks (``h``), the version they bring it to, and for each client
    id the page still has writes of (``lc``), its last write applied (``X-Live-Done: id:counter,...``): the page
    drops those from its outbox, so a write applied whose answer was lost is not counted again on the screen."""
    body = "".join(p.html for p in pieces.missing(held(request.GET.get("h", ""))))
    response = Answer(200, body, version).response()
    clients = [c for c in request.GET.get("lc", "").split(".")[:4] if CLIENT_RE.fullmatch(c)]
    if clients:
        done = (
            Mutation.objects.filter(thing=thing, client__in=clients)
            .values("client")
            .annotate(last=Max("counter"))
            .order_by()
        )
        response["X-Live-Done"] = ",".join(f"{row['client']}:{row['last']}" for row in done)
    return response
