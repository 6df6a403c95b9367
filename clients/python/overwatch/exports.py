"""The bulk exports (POST /v1/exports): ask, wait, download resumably, load."""

import csv
import gzip
import json
import os
import time

from . import frames

#: Seconds between two status reads of ``wait_export``.
EXPORT_POLL = 1.0
#: Bytes read at a time while a download is written to its file.
DOWNLOAD_CHUNK = 1 << 20

# Columns of the CSV exports read as numbers (the rest stay text; an empty
# cell is None).
_INT_COLUMNS = {"imo", "mmsi", "nav_status", "confidence", "other_imo", "ongoing"}
_TEXT_COLUMNS = {"type", "subtype", "name", "flag", "vessel_type", "port", "source", "anchorage", "berth_zone", "operation",
                 "cargo_quality", "declared_destination", "origin", "destination", "commodity", "voyage_id", "from_port",
                 "to_port", "vessel_class", "method", "model_version", "severity", "detail"}
_TIME_COLUMNS = {"timestamp", "received_at", "arrival", "departure", "anchor_start", "anchor_end", "berth_start", "berth_end",
                 "started_at", "ended_at", "load_arrival", "discharge_departure"}


class ExportsMixin:
    """The bulk exports of ``Client`` (docs/exports.md)."""

    def export(self, dataset, filters=None, format="csv"):
        """Ask for an export of ``dataset`` (positions, port_calls,
        risk_events, voyages, emissions) with ``filters`` (the position
        filter: imo, mmsi, type, bbox, polygon, start, end, source) as
        ``format`` (csv, csv.gz, parquet, geojson); returns the queued
        export (a dict with its ``id``)."""
        body = {"dataset": dataset, "format": format, "filters": dict(filters or {})}
        with self.request("/exports", method="POST", body=body) as resp:
            return json.load(resp)["export"]

    def export_status(self, export_id):
        """The export: status (queued, running, completed, failed,
        expired), rows, bytes, progress (0 to 1), download_url, error."""
        return self.get_json("/exports/" + export_id)["export"]

    def exports(self):
        """The account's exports, newest first."""
        return self.get_json("/exports")["exports"]

    def wait_export(self, export_id, timeout=3600.0, poll=EXPORT_POLL):
        """Wait until the export is completed and return it; raises
        ``OverwatchError`` when it failed or expired, ``TimeoutError`` when
        ``timeout`` seconds pass first."""
        from .client import OverwatchError

        deadline = time.monotonic() + timeout
        while True:
            e = self.export_status(export_id)
            if e["status"] == "completed":
                return e
            if e["status"] in ("failed", "expired"):
                raise OverwatchError(0, f"export {export_id} {e['status']}: {e.get('error') or ''}".strip())
            if time.monotonic() >= deadline:
                raise TimeoutError(f"export {export_id} still {e['status']} after {timeout} s")
            self._sleep(poll)

    def download_export(self, export_id, path, chunk=DOWNLOAD_CHUNK):
        """Download the completed export's file to ``path``, resuming a
        partial file there: the bytes already in it are asked no more
        (``Range: bytes=<size>-``); a file already whole is left as it is.
        Returns ``path``."""
        have = os.path.getsize(path) if os.path.exists(path) else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        from .client import OverwatchError

        try:
            resp = self.request(f"/exports/{export_id}/download", accept="*/*", headers=headers)
        except OverwatchError as e:
            if e.status == 416 and have:
                return path  # nothing past what is there: complete
            raise
        with resp:
            mode = "ab" if have and getattr(resp.raw, "status", 200) == 206 else "wb"
            with open(path, mode) as out:
                while True:
                    data = resp.read(chunk)
                    if not data:
                        break
                    out.write(data)
        return path

    def load_export(self, path, as_frame=None):
        """The rows of a downloaded csv or csv.gz export: a DataFrame (or
        a list of dicts without pandas), numbers and times typed, empty
        cells None."""
        opener = gzip.open if _gzipped(path) else open
        with opener(path, "rt", encoding="utf-8", newline="") as f:
            rows = [_typed(r) for r in csv.DictReader(f)]
        if self._wants_frame(as_frame):
            table = frames.frame(rows)
            pd = frames.pandas()
            for col in table.columns:
                if col in _TIME_COLUMNS:
                    table[col] = pd.to_datetime(table[col], utc=True)
            return table
        return rows


def _gzipped(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


def _typed(row):
    out = {}
    for k, v in row.items():
        if v == "":
            out[k] = None
        elif k in _INT_COLUMNS:
            out[k] = int(v)
        elif k in _TEXT_COLUMNS or k in _TIME_COLUMNS:
            out[k] = v
        else:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out
