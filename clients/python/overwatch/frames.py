"""pandas, when it can be imported: turning rows into DataFrames.

The client works without pandas (plain lists of dicts); setting the
environment variable ``OVERWATCH_NO_PANDAS`` (to anything but empty or
``0``) makes it behave as if pandas were not installed.
"""

import importlib
import os

__all__ = ["NO_PANDAS_ENV", "available", "pandas", "frame", "track_frame"]

#: The environment variable that hides pandas from the client.
NO_PANDAS_ENV = "OVERWATCH_NO_PANDAS"

_TIME_COLUMNS = ("timestamp", "received_at")


def pandas():
    """The pandas module, or None when it is hidden or cannot be imported."""
    if os.environ.get(NO_PANDAS_ENV, "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("pandas")
    except ImportError:
        return None


def available():
    """Whether the client returns DataFrames by default."""
    return pandas() is not None


def frame(rows):
    """A DataFrame of JSON objects, nested objects as dotted columns (``first_fix.timestamp``)."""
    pd = pandas()
    if not rows:
        return pd.DataFrame()
    df = pd.json_normalize(rows)
    for col in df.columns:
        if col.split(".")[-1] in _TIME_COLUMNS or col.endswith("_at") or col == "last_seen":
            df[col] = pd.to_datetime(df[col], utc=True, errors="coerce")
    return df


def track_frame(rows, columns):
    """A DataFrame of typed track rows, with ``columns`` even when empty and times as UTC datetimes."""
    pd = pandas()
    df = pd.DataFrame.from_records(rows, columns=columns)
    for col in _TIME_COLUMNS:
        df[col] = pd.to_datetime(df[col], utc=True)
    for col in ("segment", "heading", "age_seconds"):
        df[col] = df[col].astype("Int64")
    for col in ("latitude", "longitude", "speed_kt", "course_deg"):
        df[col] = df[col].astype("float64")
    return df
