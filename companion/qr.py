"""QR codes that open a shared link on another phone (SVG, no Pillow needed)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe
from qrcode.exceptions import DataOverflowError


def qr_svg(url: str) -> SafeString:
    """An inline SVG of ``url``'s QR code, or an empty string when ``url`` is too long for one (about 2,300
    characters: a page shows the link without its code, issue 24). Safe: qrcode writes only its own path data,
    never the URL's text."""
    try:
        image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    except (DataOverflowError, ValueError):  # qrcode 8 says "Invalid version (was 41, ...)" as a ValueError
        return SafeString("")
    return mark_safe(image.to_string(encoding="unicode"))
