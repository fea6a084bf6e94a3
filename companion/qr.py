"""QR codes that open a shared link on another phone (SVG, no Pillow needed)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str) -> SafeString:
    """An inline SVG of ``url``'s QR code. Safe: qrcode writes only its own path data, never the URL's text."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return mark_safe(image.to_string(encoding="unicode"))
