"""The links the phones open, and where they point (issue 20, "The first command serves the table").

A laptop serving a table is often opened on itself as ``http://localhost:8000/``; a link or QR code built from
that address sends every phone to itself. So every share link and QR code is built here, once:

- ``DJANGO_PUBLIC_URL`` (``settings.PUBLIC_URL``) when set: the public host the phones use;
- else, for a page opened at a loopback address (``localhost``, ``127.x``, ``::1``), the machine's LAN address
  (:func:`lan_addresses`, the same function ``manage.py table`` prints from), with the page's port, and a line
  saying so; with no LAN address, a line saying the phones cannot reach this address and how to fix it;
- else the address the page was opened at, which the phone that opened it could reach.

:func:`lan_addresses` is pure (addresses in, addresses out); :func:`interface_addresses` asks the operating system.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import psutil
from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString

from companion.qr import qr_svg

ALL_IPV4 = "0.0.0.0"
ALL_IPV6 = "::"
NO_ADDRESS_FIX = (
    "connect this computer to the table's Wi-Fi (or start the phones' hotspot and join it), "
    "then start it again with manage.py table"
)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.split("%", 1)[0].strip("[]"))
    except ValueError:
        return None


def lan_addresses(addresses: Iterable[str], bind: str = ALL_IPV4) -> list[str]:
    """The addresses the phones can open, from the machine's interface ``addresses`` and the server's ``bind``.

    Kept: any address that is not loopback, link-local, multicast or unspecified, private range or not, once each,
    IPv4 before IPv6 and otherwise in the given order. ``bind`` narrows them to what the server listens on:
    ``0.0.0.0`` all IPv4 ones, ``::`` all of them (Linux's dual stack), one address itself alone (if it is one
    the phones can reach), a loopback address none.
    """
    kept: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for text in addresses:
        ip = _ip(text)
        if ip is None or ip in kept:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
            continue
        kept.append(ip)
    bound = _ip(bind)
    if bound is None or bound == ipaddress.ip_address(ALL_IPV6):
        chosen = kept
    elif bound == ipaddress.ip_address(ALL_IPV4):
        chosen = [ip for ip in kept if ip.version == 4]
    else:
        chosen = [ip for ip in kept if ip == bound]
    return [str(ip) for ip in sorted(chosen, key=lambda ip: ip.version)]


def interface_addresses() -> list[str]:
    """Every IPv4 and IPv6 address of this machine's network interfaces that are up (none if the system will not
    say: a page then says the phones cannot reach it, never a 500)."""
    try:
        stats, interfaces = psutil.net_if_stats(), psutil.net_if_addrs()
    except (OSError, psutil.Error):
        return []
    found = []
    for name, addrs in interfaces.items():
        if name in stats and not stats[name].isup:
            continue
        found += [a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6)]
    return found


def origin(host: str, port: int | str, scheme: str = "http") -> str:
    """``http://192.168.1.20:8000`` (an IPv6 address in brackets; the scheme's default port left out)."""
    ip = _ip(host)
    name = f"[{ip}]" if ip is not None and ip.version == 6 else host
    default = {"http": "80", "https": "443"}.get(scheme)
    return f"{scheme}://{name}" if str(port) == default else f"{scheme}://{name}:{port}"


def is_loopback(host: str) -> bool:
    """``localhost`` (and its subdomains), ``127.x.y.z``, ``::1``: a name only this computer answers to."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    ip = _ip(host)
    return ip is not None and ip.is_loopback


@dataclass(frozen=True)
class Base:
    """Where a page's share links point (``origin``), and the line that says why, if any (``note``)."""

    origin: str
    note: str = ""
    unreachable: bool = False


def base_for(opened: str, addresses: Iterable[str], *, public_url: str = "", bind: str = ALL_IPV4) -> Base:
    """The share links' origin for a page opened at ``opened`` (``http://localhost:8000``): pure, see the module."""
    if public_url:
        return Base(public_url.rstrip("/"))
    parts = urlsplit(opened)
    host = parts.hostname or ""
    if not is_loopback(host):
        return Base(opened)
    shown = f"[{host}]" if ":" in host else host
    lan = lan_addresses(addresses, bind)
    if not lan:
        return Base(
            opened,
            f"Opened on this computer as {shown}: the phones cannot reach this address, and this computer has "
            f"no network address they could use. To fix it, {NO_ADDRESS_FIX}.",
            unreachable=True,
        )
    port = parts.port or {"https": 443}.get(parts.scheme, 80)
    there = origin(lan[0], port, parts.scheme)
    return Base(there, f"Opened on this computer as {shown}: the phones use {there}/")


def base(request: HttpRequest) -> Base:
    """:func:`base_for` the request, asked of the operating system once per request (only for a loopback host)."""
    cached: Base | None = getattr(request, "_share_base", None)
    if cached is None:
        opened = f"{request.scheme}://{request.get_host()}"
        public = settings.PUBLIC_URL
        needs_lan = not public and is_loopback(urlsplit(opened).hostname or "")
        addresses = interface_addresses() if needs_lan else []
        cached = base_for(opened, addresses, public_url=public, bind=settings.TABLE_BIND)
        request._share_base = cached  # type: ignore[attr-defined]  # a cache kept on the request it is about
    return cached


def share_url(request: HttpRequest, path: str) -> str:
    """The absolute link of ``path`` that another phone can open (instead of ``request.build_absolute_uri``)."""
    return base(request).origin + path


@dataclass(frozen=True)
class Shared:
    """A link to share and its QR code (empty when the link is too long for one: the link is still shown)."""

    url: str
    qr: SafeString

    @property
    def item(self) -> dict[str, str]:
        """``{"url": ..., "qr": ...}``, as the share templates read a link."""
        return {"url": self.url, "qr": self.qr}


def shared(request: HttpRequest, path: str) -> Shared:
    url = share_url(request, path)
    return Shared(url, qr_svg(url))


def context(request: HttpRequest) -> dict[str, object]:
    """A context processor: ``share_base``, whose ``note`` is the line under share links (``share_note.html``),
    worked out only if a template shows it."""
    return {"share_base": SimpleLazyObject(lambda: base(request))}
