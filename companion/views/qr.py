"""QR codes of share links, as inline SVG (no image library needed): a phone scans one to open the same game."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as an SVG element, safe to put in a template as it is."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    svg: str = image.to_string(encoding="unicode")
    return mark_safe(svg)  # made by qrcode from the URL: no markup of the user's
