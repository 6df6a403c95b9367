"""A Python client of the Overwatch API for analysts.

Standard library only; returns pandas DataFrames when pandas can be
imported, plain lists of dicts otherwise. Start with ``Client``::

    from overwatch import Client
    ow = Client("http://localhost:8080", api_key="ow_...")
    fixes = ow.track("9074729", start="2026-11-01", end="2026-11-30")
"""

from .client import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, MAX_RETRY_WAIT, Client, OverwatchError
from .frames import NO_PANDAS_ENV

__all__ = ["Client", "OverwatchError", "DEFAULT_TIMEOUT", "DEFAULT_MAX_RETRIES", "MAX_RETRY_WAIT", "NO_PANDAS_ENV"]
__version__ = "0.1.0"
