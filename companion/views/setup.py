"""Moved to :mod:`companion.setup_query` (a floor below the views); kept until the last importers switch."""

from companion.errors import UserError as QueryError
from companion.setup_query import *  # noqa: F403

__all__ = ["QueryError"]
