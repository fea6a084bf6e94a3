"""Static files: WhiteNoise's compressed manifest storage (hashed names, gzip, a year's caching), with plain names
before ``collectstatic`` has run."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: A quoted string (kept as it is: a ``/*`` inside ``content: "..."`` is no comment), or a comment.
CSS_STRING_OR_COMMENT: Final = re.compile(r"(\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*')|/\*.*?\*/", re.S)
#: Spaces a stylesheet means nothing by: around braces and ``;``, and after a declaration's colon (a colon whose
#: text reaches ``;`` or ``}`` before any ``{``: not a selector's ``:hover``, nor a media query's).
CSS_SPACE: Final = re.compile(r"\s*([{};])\s*|(:)\s+(?=[^{};]*[;}])")


def minified(css: str) -> str:
    """A stylesheet without its comments and the spaces it means nothing by: the comments explain the source, and
    cost every phone about 1 KiB gzipped of the 30 KiB first-load budget (issue 25). Strings are kept as they are;
    a browser reads the same rules (tests/companion/test_phone_browser.py compares them)."""
    return _outside_strings(_outside_strings(css, lambda text: text, comment=" "), _squeezed).strip()


def _outside_strings(css: str, change: Callable[[str], str], comment: str | None = None) -> str:
    """``css`` with ``change`` applied to what is outside its strings; comments become ``comment`` (kept when
    None)."""
    out = []
    last = 0
    for match in CSS_STRING_OR_COMMENT.finditer(css):
        out.append(change(css[last : match.start()]))
        kept = match.group(1) is not None or comment is None
        out.append(match.group(0) if kept else str(comment))
        last = match.end()
    out.append(change(css[last:]))
    return "".join(out)


def _squeezed(text: str) -> str:
    return CSS_SPACE.sub(lambda m: m.group(1) or m.group(2), re.sub(r"\s+", " ", text))


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """After ``collectstatic`` (the README's first command, .ci/test), each file's hashed name; before it (a checkout
    where only the tests ran, a server started by hand), the plain name, which WhiteNoise serves from the apps
    (``WHITENOISE_USE_FINDERS``) instead of every page failing to render."""

    def _save(self, name: str, content: Any) -> str:
        """Collected stylesheets are saved :func:`minified`; the apps' copies, served before ``collectstatic``, are
        kept as written."""
        if name.endswith(".css"):
            content.seek(0)
            text = content.read()
            css = text.decode() if isinstance(text, bytes) else str(text)
            content = ContentFile(minified(css).encode())
        return str(super()._save(name, content))

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected: no manifest entry and no file in STATIC_ROOT to hash
            return name
