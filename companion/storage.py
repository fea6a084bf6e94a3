"""Static files: WhiteNoise's compressed manifest storage (hashed names, gzip, a year's caching), with plain names
before ``collectstatic`` has run."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """After ``collectstatic`` (the README's first command, .ci/test), each file's hashed name; before it (a checkout
    where only the tests ran, a server started by hand), the plain name, which WhiteNoise serves from the apps
    (``WHITENOISE_USE_FINDERS``) instead of every page failing to render."""

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected: no manifest entry and no file in STATIC_ROOT to hash
            return name
