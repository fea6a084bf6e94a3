"""Share links and QR codes point where the phones can go (issue 20 item 5, issue 24): companion/links.py, the
Host check of companion/middleware.py, and every page that shows a share link at a loopback address."""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from pyzbar import pyzbar

from companion import links
from companion.deploy import public_url
from companion.links import Base, base_for, is_loopback, lan_addresses, origin
from companion.middleware import plausible_host
from companion.models.scoresheets import ScoreSheet
from companion.qr import qr_svg
from companion.services.osaka import NewPlayer as OsakaPlayer
from companion.services.osaka import create_game as create_osaka_game
from scoring.examples import WORKED_EXAMPLE
from tests.companion.test_settings import apply_security, refused, settings_from
from tests.factories import make_game

LAN = ["127.0.0.1", "::1", "192.168.1.20", "fd00::2", "fe80::fc:ff:fe00:1%eth0"]


def decode_qr(svg: str) -> list[str]:
    """Every QR code in ``svg`` (companion/qr.py's path of 1x1 squares, one per dark module), read by zbar from
    the picture drawn at 4 pixels a module: what a phone's camera would read."""
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)[1])  # type: ignore[index]
    scale = 4
    pixels = bytearray(b"\xff" * (size * scale) ** 2)
    for x, y in re.findall(r"M(\d+),(\d+)H", svg):
        for dy in range(scale):
            row = (int(y) * scale + dy) * size * scale
            start = row + int(x) * scale
            pixels[start : start + scale] = b"\x00" * scale
    return [code.data.decode() for code in pyzbar.decode((bytes(pixels), size * scale, size * scale))]


def qr_codes(page: str) -> list[str]:
    return [url for svg in re.findall(r"<svg.*?</svg>", page, re.DOTALL) for url in decode_qr(svg)]


def note(page: str) -> str:
    found = re.search(r'<p [^>]*id="share-note"[^>]*>(.*?)</p>', page, re.DOTALL)
    return html.unescape(found[1]) if found else ""


# --- the addresses: pure -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("addresses", "bind", "expected"),
    [
        (LAN, "0.0.0.0", ["192.168.1.20"]),  # loopback and link-local left out; IPv4 only on 0.0.0.0
        (LAN, "::", ["192.168.1.20", "fd00::2"]),  # :: listens on both
        (["fd00::2", "10.0.0.5", "203.0.113.9"], "::", ["10.0.0.5", "203.0.113.9", "fd00::2"]),  # public kept
        (["192.168.1.20", "10.0.0.5"], "0.0.0.0", ["192.168.1.20", "10.0.0.5"]),  # several, in order
        (["192.168.1.20", "192.168.1.20"], "0.0.0.0", ["192.168.1.20"]),  # once each
        (["169.254.3.4", "224.0.0.1", "0.0.0.0", "not an address"], "0.0.0.0", []),
        (["127.0.0.1", "::1"], "0.0.0.0", []),  # no network at all
        (LAN, "127.0.0.1", []),  # listening on loopback: no phone reaches it
        (LAN, "192.168.1.20", ["192.168.1.20"]),  # one address
        (LAN, "10.9.9.9", []),  # an address this machine does not have
    ],
)
def test_lan_addresses(addresses: list[str], bind: str, expected: list[str]) -> None:
    assert lan_addresses(addresses, bind) == expected


def test_interface_addresses_include_loopback() -> None:
    """The operating system's list, before lan_addresses filters it: this machine has 127.0.0.1 at least."""
    assert "127.0.0.1" in links.interface_addresses()


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("localhost", True), ("LOCALHOST.", True), ("app.localhost", True), ("127.0.0.1", True),
     ("127.8.9.10", True), ("::1", True), ("192.168.1.20", False), ("iki.example.org", False),
     ("localhost.example.org", False), ("fd00::2", False)],
)  # fmt: skip
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(
    ("opened", "public", "expected"),
    [
        ("http://localhost:8000", "", Base(
            "http://192.168.1.20:8000",
            "Opened on this computer as localhost: the phones use http://192.168.1.20:8000/")),
        ("http://127.0.0.1", "", Base(
            "http://192.168.1.20", "Opened on this computer as 127.0.0.1: the phones use http://192.168.1.20/")),
        ("http://[::1]:8123", "", Base(
            "http://192.168.1.20:8123", "Opened on this computer as [::1]: the phones use http://192.168.1.20:8123/")),
        ("http://192.168.1.20:8000", "", Base("http://192.168.1.20:8000")),  # a phone's own address: as opened
        ("https://iki.example.org", "", Base("https://iki.example.org")),
        ("http://localhost:8000", "https://iki.example.org", Base("https://iki.example.org")),
        ("http://192.168.1.20:8000", "https://iki.example.org", Base("https://iki.example.org")),
    ],
)  # fmt: skip
def test_base_for(opened: str, public: str, expected: Base) -> None:
    assert base_for(opened, LAN, public_url=public) == expected


def test_base_for_without_a_lan_address_says_the_phones_cannot_reach_it() -> None:
    found = base_for("http://localhost:8000", ["127.0.0.1", "::1"])
    assert found.origin == "http://localhost:8000" and found.unreachable
    assert "the phones cannot reach this address" in found.note
    assert "connect this computer to the table's Wi-Fi" in found.note


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", ""), ("https://iki.example.org", "https://iki.example.org"), (" https://iki.example.org/ ", "https://iki.example.org"),
     ("http://192.168.1.20:8000", "http://192.168.1.20:8000"), ("http://[fd00::2]:8000", "http://[fd00::2]:8000"),
     ("iki.example.org", None), ("ftp://iki.example.org", None), ("https://", None),
     ("https://iki.example.org/iki", None), ("https://iki.example.org/?a=1", None), ("https://iki.example.org#x", None)],
)  # fmt: skip
def test_public_url_setting(value: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(
            ImproperlyConfigured, match="DJANGO_PUBLIC_URL must be the address the phones open"
        ):
            public_url({"DJANGO_PUBLIC_URL": value}, "DJANGO_PUBLIC_URL")
    else:
        assert public_url({"DJANGO_PUBLIC_URL": value}, "DJANGO_PUBLIC_URL") == expected


def test_public_url_and_the_bind_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    found = settings_from(monkeypatch, tmp_path, DJANGO_PUBLIC_URL="https://iki.example.org/")
    assert (found["PUBLIC_URL"], found["TABLE_BIND"]) == ("https://iki.example.org", "0.0.0.0")
    assert settings_from(monkeypatch, tmp_path, DJANGO_TABLE_BIND="::")["TABLE_BIND"] == "::"
    message = refused(monkeypatch, tmp_path, DJANGO_PUBLIC_URL="iki.example.org")
    assert "DJANGO_PUBLIC_URL must be the address the phones open" in message


def test_origin_brackets_ipv6_and_leaves_default_ports_out() -> None:
    assert origin("fd00::2", 8000) == "http://[fd00::2]:8000"
    assert origin("192.168.1.20", 80) == "http://192.168.1.20"
    assert origin("iki.example.org", 443, "https") == "https://iki.example.org"


# --- QR codes -----------------------------------------------------------------------------------------------------


def test_a_qr_code_reads_back_as_its_link() -> None:
    assert decode_qr(qr_svg("http://192.168.1.20:8000/games/abc/")) == ["http://192.168.1.20:8000/games/abc/"]


def test_a_link_too_long_for_a_qr_code_gets_none() -> None:
    assert qr_svg("http://x/" + "a" * 2000) != ""
    assert qr_svg("http://x/" + "a" * 3000) == ""


# --- the pages ----------------------------------------------------------------------------------------------------


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """This machine's interfaces, as the operating system would list them on a laptop at the table."""
    addresses = list(LAN)
    monkeypatch.setattr(links, "interface_addresses", lambda: addresses)
    return addresses


LOCAL = {"HTTP_HOST": "localhost:8000"}
LONGEST = ".".join(["a" * 50] * 4) + "." + "b" * 49  # 253 characters: the longest host name


@pytest.mark.django_db
def test_a_game_opened_at_localhost_shares_the_lan_address(client: Client, lan: list[str]) -> None:
    game = make_game()
    page = client.get(f"/games/{game.edit_token}/share", **LOCAL).content.decode()
    assert qr_codes(page) == [
        f"http://192.168.1.20:8000/games/{game.edit_token}/",
        f"http://192.168.1.20:8000/games/{game.view_token}/",
    ]
    assert note(page) == "Opened on this computer as localhost: the phones use http://192.168.1.20:8000/"
    assert "localhost" not in page.replace(note(page), "")


@pytest.mark.django_db
def test_a_game_opened_at_the_lan_address_shares_it_without_a_note(client: Client, lan: list[str]) -> None:
    game = make_game()
    page = client.get(f"/games/{game.view_token}/share", HTTP_HOST="192.168.1.20:8000").content.decode()
    assert qr_codes(page) == [f"http://192.168.1.20:8000/games/{game.view_token}/"]
    assert note(page) == ""


@pytest.mark.django_db
def test_the_public_url_overrides_every_address(client: Client, lan: list[str], settings: Any) -> None:
    settings.PUBLIC_URL = "https://iki.example.org"
    game = make_game()
    for host in ("localhost:8000", "192.168.1.20:8000"):
        page = client.get(f"/games/{game.view_token}/share", HTTP_HOST=host).content.decode()
        assert qr_codes(page) == [f"https://iki.example.org/games/{game.view_token}/"]
        assert note(page) == ""


@pytest.mark.django_db
def test_with_no_lan_address_the_page_says_the_phones_cannot_reach_it(client: Client, lan: list[str]) -> None:
    lan[:] = ["127.0.0.1", "::1"]
    game = make_game()
    page = client.get(f"/games/{game.view_token}/share", **LOCAL).content.decode()
    assert qr_codes(page) == [f"http://localhost:8000/games/{game.view_token}/"]
    assert note(page).startswith("Opened on this computer as localhost: the phones cannot reach this address")
    assert 'class="message error share-note"' in page


@pytest.mark.django_db
def test_a_server_listening_on_loopback_only_offers_no_lan_address(
    client: Client, lan: list[str], settings: Any
) -> None:
    """``manage.py table --bind 127.0.0.1`` passes its bind on: no phone could open the LAN address."""
    settings.TABLE_BIND = "127.0.0.1"
    game = make_game()
    page = client.get(f"/games/{game.view_token}/share", **LOCAL).content.decode()
    assert "the phones cannot reach this address" in note(page)


@pytest.mark.django_db
def test_osaka_share_page_and_each_players_code_use_the_lan_address(client: Client, lan: list[str]) -> None:
    game = create_osaka_game(players=[OsakaPlayer("Anaïs", "white"), OsakaPlayer("David", "pink")])
    page = client.get(f"/osaka/games/{game.edit_token}/share", **LOCAL).content.decode()
    seats = list(game.seats.all())
    assert qr_codes(page) == [
        f"http://192.168.1.20:8000/osaka/games/{game.edit_token}/",
        f"http://192.168.1.20:8000/osaka/games/{game.view_token}/",
        *(f"http://192.168.1.20:8000{seat.private_url()}" for seat in seats),
    ]
    assert note(page) == "Opened on this computer as localhost: the phones use http://192.168.1.20:8000/"


@pytest.mark.django_db
def test_a_results_view_code_uses_the_lan_address(client: Client, lan: list[str]) -> None:
    sheet = ScoreSheet.objects.create(table=copy.deepcopy(WORKED_EXAMPLE), colours=["red", "blue", "green"])
    page = client.get(f"/score/{sheet.token}/result/", **LOCAL).content.decode()
    assert qr_codes(page) == [f"http://192.168.1.20:8000/score/view/{sheet.view_token}/"]
    assert f'href="http://192.168.1.20:8000/score/view/{sheet.view_token}/"' in page
    assert "the phones use http://192.168.1.20:8000/" in note(page)


@pytest.mark.django_db
def test_the_setup_share_link_uses_the_lan_address(client: Client, lan: list[str]) -> None:
    page = client.get("/setup/game?players=3&seed=K7MX2QPA", **LOCAL, follow=True).content.decode()
    share = re.search(r'id="share-link" value="([^"]*)"', page)
    assert share is not None and html.unescape(share[1]).startswith("http://192.168.1.20:8000/setup/game?")
    assert "the phones use http://192.168.1.20:8000/" in note(page)


@pytest.mark.django_db
def test_a_link_too_long_for_a_code_is_shown_without_it(client: Client, settings: Any) -> None:
    settings.PUBLIC_URL = "http://" + "a" * 60 + "." + ".".join(["b" * 60] * 40)  # no QR code holds it
    game = make_game()
    response = client.get(f"/games/{game.edit_token}/share")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<svg" not in page
    assert f'href="{settings.PUBLIC_URL}/games/{game.view_token}/"' in page


# --- the Host header ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "plausible"),
    [("localhost", True), ("localhost:8000", True), ("192.168.1.20:8000", True), ("[fd00::2]:8000", True),
     ("[::1]", True), ("iki.example.org.", True), ("a" * 63 + "." + "b" * 63, True),
     (LONGEST, True), (LONGEST + "b", False),  # 253 characters, 254
     ("a" * 64, False), ("a" * 3000, False), ("", False), ("host:", False), ("host:99999", False),
     ("host:0", False), ("-host", False), ("host-", False), ("ho st", False), ("ho..st", False),
     ("fd00::2", False), ("[not-ipv6]", False), ("[192.168.1.1]", False), ("host:80:80", False),
     ("ex%41mple.org", False), ("exa_mple.org", False)],
)  # fmt: skip
def test_plausible_host(host: str, plausible: bool) -> None:
    assert plausible_host(host) is plausible


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/healthz", "/games/new/", "/api/v1/catalogue"])
def test_an_implausible_host_gets_400_before_any_view(client: Client, path: str) -> None:
    response = client.get(path, HTTP_HOST="a" * 3000)
    assert response.status_code == 400
    assert "not a host name" in response.content.decode()


@pytest.mark.django_db
def test_a_long_host_no_longer_breaks_the_share_pages(client: Client) -> None:
    """Issue 24: a 3,000-character Host made the share pages answer 500; now 400, and a 253-character one works."""
    game = make_game()
    assert client.get(f"/games/{game.edit_token}/share", HTTP_HOST="a" * 3000).status_code == 400
    longest = LONGEST
    response = client.get(f"/games/{game.edit_token}/share", HTTP_HOST=longest)
    assert response.status_code == 200
    assert qr_codes(response.content.decode())[0] == f"http://{longest}/games/{game.edit_token}/"


def test_healthz_answers_any_plausible_host_in_the_public_mode(client: Client, settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["iki.example.org"]
    assert client.get("/healthz", HTTP_HOST="192.0.2.2:8000").status_code == 200
    assert client.head("/healthz", HTTP_HOST="192.0.2.2").status_code == 200
    assert client.get("/healthz", HTTP_HOST="iki.example.org").status_code == 200
    assert client.get("/", HTTP_HOST="192.0.2.2:8000").status_code == 400  # the rest keeps ALLOWED_HOSTS
    assert client.post("/healthz", HTTP_HOST="192.0.2.2:8000").status_code == 400


@pytest.mark.django_db
def test_healthz_answers_the_servers_address_in_the_real_public_mode(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Any
) -> None:
    """Started with DJANGO_HTTPS=1 (issue 24): a monitor asks by the server's address over plain HTTP."""
    public = settings_from(monkeypatch, tmp_path, DJANGO_HTTPS="1", DJANGO_ALLOWED_HOSTS="iki.example.org")
    apply_security(settings, public)
    assert Client().get("/healthz", HTTP_HOST="192.0.2.2:8000").status_code == 200
    assert Client().get("/", HTTP_HOST="192.0.2.2").status_code == 400
