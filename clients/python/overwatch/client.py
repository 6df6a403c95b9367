"""The HTTP client: requests, errors, retries, pagination and the reads."""

import csv
import gzip
import http.client
import io
import json
import time
import urllib.error
import urllib.parse
import urllib.request

from . import frames
from .exports import ExportsMixin

__all__ = ["Client", "OverwatchError", "DEFAULT_TIMEOUT", "DEFAULT_MAX_RETRIES"]

#: Seconds a request may take (connect and each read) before it fails.
DEFAULT_TIMEOUT = 60.0
#: Retries of a request answered 429 or 503, after the first attempt.
DEFAULT_MAX_RETRIES = 3
#: The longest wait between two attempts, whatever Retry-After says.
MAX_RETRY_WAIT = 120.0

# Statuses worth another attempt: 429 (rate limited) and 503 (unavailable).
_RETRY_STATUSES = (429, 503)

# The track CSV's columns and how each is read; an empty cell is None.
_TRACK_COLUMNS = {
    "imo_number": str,
    "segment": int,
    "timestamp": str,
    "latitude": float,
    "longitude": float,
    "speed_kt": float,
    "course_deg": float,
    "heading": int,
    "nav_status": str,
    "source": str,
    "station": str,
    "received_at": str,
    "age_seconds": int,
}


class OverwatchError(Exception):
    """An error answer of the service, or a failure to reach it.

    ``status`` is the HTTP status (0 when no answer came), ``message`` the
    service's ``error`` text and ``parameter`` the request parameter it names
    (``None`` when it names none).
    """

    def __init__(self, status, message, parameter=None):
        super().__init__(f"{status}: {message}" + (f" (parameter {parameter})" if parameter else ""))
        self.status = status
        self.message = message
        self.parameter = parameter


class Client(ExportsMixin):
    """A client of the Overwatch REST API.

    ``base_url`` is the service's address, with or without ``/v1``
    (``http://localhost:8080``); ``api_key`` the key sent as ``X-API-Key``
    (``None`` for the public lookup alone). A request answered 429 or 503 is
    tried again up to ``max_retries`` times, after the ``Retry-After`` the
    answer gives (else 1, 2, 4... seconds), never longer than
    ``MAX_RETRY_WAIT``; any other error status raises ``OverwatchError`` at
    once. ``as_frame`` is the default of every method's switch: ``None``
    returns pandas DataFrames when pandas can be imported (and the
    environment variable ``OVERWATCH_NO_PANDAS`` is not set), plain lists of
    dicts otherwise. ``headers`` are sent with every request; ``sleep`` is
    how the client waits between attempts (``time.sleep``).
    """

    def __init__(self, base_url, api_key=None, timeout=DEFAULT_TIMEOUT, max_retries=DEFAULT_MAX_RETRIES,
                 as_frame=None, headers=None, sleep=time.sleep):
        base = base_url.rstrip("/")
        if not base.endswith("/v1"):
            base += "/v1"
        self.base_url = base
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.as_frame = as_frame
        self.headers = dict(headers or {})
        self._sleep = sleep
        #: Retries made so far (for tests and logs): a list of (status, wait seconds).
        self.retries = []

    # ---- transport -------------------------------------------------------

    def url(self, path, params=None):
        """The absolute URL of ``path`` (relative to ``/v1``) with its query."""
        if path.startswith("/v1/"):
            path = path[3:]
        if not path.startswith("/"):
            path = "/" + path
        query = _query(params or {})
        return self.base_url + path + ("?" + query if query else "")

    def request(self, path, params=None, accept="application/json", method="GET", body=None, headers=None):
        """Send a request (a GET unless ``method`` says; ``body`` a JSON
        value sent as the request's body; ``headers`` sent besides the
        client's) and return the open response (the caller closes it).

        Retries 429 and 503 as the class says; raises ``OverwatchError`` for
        any other status from 400 up and when the service cannot be reached.
        """
        url = self.url(path, params)
        sent = {"Accept": accept, "Accept-Encoding": "gzip", "User-Agent": "overwatch-python/0.1"}
        sent.update(self.headers)
        sent.update(headers or {})
        if self.api_key:
            sent["X-API-Key"] = self.api_key
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        attempt = 0
        while True:
            req = urllib.request.Request(url, data=data, headers=sent, method=method)
            try:
                resp = urllib.request.urlopen(req, timeout=self.timeout)
                return io.BufferedReader(_Decoded(resp), 64 << 10)
            except urllib.error.HTTPError as e:
                err = _error_of(e)
                if e.code not in _RETRY_STATUSES or attempt >= self.max_retries:
                    raise err from None
                wait = _retry_after(e.headers.get("Retry-After"), attempt)
                e.close()
            except (urllib.error.URLError, OSError) as e:
                reason = getattr(e, "reason", e)
                raise OverwatchError(0, f"cannot reach {self.base_url}: {reason}") from None
            self.retries.append((err.status, wait))
            self._sleep(wait)
            attempt += 1

    def get_json(self, path, **params):
        """GET ``path`` with ``params`` and return the decoded JSON body."""
        with self.request(path, params) as resp:
            return json.load(resp)

    def get_csv(self, path, **params):
        """GET ``path`` as CSV and yield each row as a dict of strings, as the body streams in."""
        params.setdefault("format", "csv")
        with self.request(path, params, accept="text/csv") as resp:
            text = io.TextIOWrapper(resp, encoding="utf-8", newline="")
            yield from csv.DictReader(text)

    # ---- pagination --------------------------------------------------------

    def pages(self, path, **params):
        """Yield every page (the decoded JSON body) of a list endpoint.

        The service's list endpoints page with a cursor: each page carries
        ``pagination: {has_more, next_cursor}`` and the next is asked with
        ``cursor=<next_cursor>``; pages stop when ``next_cursor`` is null
        (an endpoint without ``pagination`` is one page).
        """
        params = dict(params)
        while True:
            page = self.get_json(path, **params)
            yield page
            cursor = _next_cursor(page)
            if not cursor:
                return
            params["cursor"] = cursor

    def list_frame(self, path, key, as_frame=None, **params):
        """Every item under ``key`` over all the pages of ``path``, as one table.

        E.g. ``list_frame("/vessels/positions", "positions", bbox="...")``.
        Nested objects become dotted columns in a DataFrame.
        """
        rows = []
        for page in self.pages(path, **params):
            rows.extend(page.get(key) or [])
        return self._table(rows, as_frame)

    # ---- the reads -------------------------------------------------------

    def track(self, imo, start=None, end=None, interval=None, simplify=None, as_frame=None, **filters):
        """One vessel's stored fixes from ``start`` to ``end``, in time order.

        Read as the streamed CSV of ``/v1/vessels/{imo}/track`` (as JSON
        for a plan without CSV export, Free): one row per fix with ``imo_number``, ``segment``,
        ``timestamp``, ``latitude``, ``longitude``, ``speed_kt``,
        ``course_deg``, ``heading``, ``nav_status``, ``source``, ``station``,
        ``received_at`` and ``age_seconds``. ``start``/``end`` are ISO 8601
        strings, dates or datetimes; ``interval`` keeps one fix per N
        minutes, ``simplify`` is a Douglas-Peucker tolerance in metres;
        ``filters`` takes the rest of the position filter (``bbox``,
        ``polygon``, ``source``).
        """
        params = dict(filters, start=start, end=end, interval=interval, simplify=simplify)
        return self._track_rows(f"/vessels/{_imo(imo)}/track", params, as_frame)

    def tracks(self, imos, start=None, end=None, interval=None, simplify=None, as_frame=None, **filters):
        """The fixes of several vessels (``imos``: a list, up to 100), as ``track`` reads one.

        Rows are ordered by vessel, then time; ``imo_number`` tells them apart.
        """
        if isinstance(imos, (str, int)):
            imos = [imos]
        params = dict(filters, imo=",".join(_imo(i) for i in imos), start=start, end=end,
                      interval=interval, simplify=simplify)
        return self._track_rows("/tracks", params, as_frame)

    def area_vessels(self, bbox=None, polygon=None, start=None, end=None, as_frame=None, **filters):
        """Every vessel with a fix inside an area in the range (``/v1/area/vessels``).

        ``bbox`` is ``(west, south, east, north)`` or its text; ``polygon`` a
        GeoJSON Polygon (a dict or its text). Each row has the vessel's
        identity, ``fixes`` (its count of fixes inside) and its first and
        last fix inside (``first_fix.*``, ``last_fix.*`` columns in a
        DataFrame, nested dicts otherwise).
        """
        body = self.get_json("/area/vessels", bbox=bbox, polygon=polygon, start=start, end=end, **filters)
        return self._table(body.get("vessels") or [], as_frame)

    def search(self, q, limit=None, as_frame=None):
        """Vessels matching ``q`` (IMO, MMSI, call sign or a name, former names too), best first.

        Each row says why it matched (``matched.field``, ``matched.text``).
        """
        body = self.get_json("/vessels/search", q=q, limit=limit)
        return self._table(body.get("vessels") or [], as_frame)

    def latest(self, imo, provider="any"):
        """The newest position of a vessel from ``provider`` (``any``: across providers).

        The public lookup ``/v1/ais/{provider}/{imo}/location/latest``
        (no key needed, limited per client address); returns its JSON as a dict.
        """
        return self.get_json(f"/ais/{urllib.parse.quote(str(provider), safe='')}/{_imo(imo)}/location/latest")

    def stream(self, last_event_id=None, reconnect=True, **filters):
        """Iterate over the live stream ``/v1/stream``: one dict per event.

        Server-Sent Events over ``http.client`` (standard library). Each
        event has ``id`` and ``type`` (``position``, ``static`` or
        ``risk_event``) and its fields; ``filters`` are the position filter
        (``imo``, ``mmsi``, ``type``, ``bbox``, ``polygon``, ``source``; lists
        are joined by commas). When the connection ends or the server drops
        this subscriber (a slow consumer), the iterator reconnects with the
        id of the last event it yielded, so that the events in between come
        first (``reconnect=False`` stops instead); ``last_event_id`` resumes
        after an id from an earlier iteration. An error answer raises
        ``OverwatchError`` (410 when the events after the id are no longer
        kept: start again without ``last_event_id``).
        """
        last = last_event_id
        failures = 0
        while True:
            params = dict(filters)
            if last is not None:
                params["last_event_id"] = last
            parts = urllib.parse.urlsplit(self.url("/stream", params))
            cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
            # The server sends a comment every 15 s while idle: a longer
            # silence is a dead connection.
            conn = cls(parts.hostname, parts.port, timeout=max(self.timeout, 45.0))
            headers = {"Accept": "text/event-stream", "User-Agent": "overwatch-python/0.1"}
            headers.update(self.headers)
            if self.api_key:
                headers["X-API-Key"] = self.api_key
            try:
                try:
                    conn.request("GET", parts.path + ("?" + parts.query if parts.query else ""), headers=headers)
                    resp = conn.getresponse()
                except OSError as e:
                    if not reconnect or failures >= self.max_retries:
                        raise OverwatchError(0, f"cannot reach {self.base_url}: {e}") from None
                    failures += 1
                    self._sleep(min(2.0 ** failures, MAX_RETRY_WAIT))
                    continue
                if resp.status != 200:
                    raw = resp.read()
                    try:
                        body = json.loads(raw)
                        err = OverwatchError(resp.status, body.get("error") or resp.reason, body.get("parameter"))
                    except ValueError:
                        err = OverwatchError(resp.status, resp.reason)
                    if resp.status in _RETRY_STATUSES and reconnect and failures < self.max_retries:
                        failures += 1
                        self._sleep(_retry_after(resp.getheader("Retry-After"), failures))
                        continue
                    raise err
                failures = 0
                for event in _sse_events(resp):
                    if event.get("event") == "error":
                        break  # dropped by the server: reconnect after the last id
                    data = json.loads(event["data"])
                    last = data.get("id", last)
                    yield data
            except OSError:
                pass  # the connection broke: reconnect after the last id
            finally:
                conn.close()
            if not reconnect:
                return
            self._sleep(1.0)

    def vessel_positions(self, as_frame=None, **filters):
        """Each vessel's freshest position, every page of ``/v1/vessels/positions`` in one table.

        ``filters`` are the endpoint's parameters: the position filter
        (``bbox``, ``polygon``, ``imo``, ``mmsi``, ``start``, ``end``,
        ``source``, ``type``) and ``tier``, ``port``, ``limit`` (the page size).
        """
        return self.list_frame("/vessels/positions", "positions", as_frame=as_frame, **filters)

    # The bulk exports are ExportsMixin's (exports.py). The live stream
    # (/v1/stream) is not served yet; its method belongs here once it is.

    # ---- helpers -----------------------------------------------------------

    def _wants_frame(self, as_frame):
        if as_frame is None:
            as_frame = self.as_frame
        if as_frame is None:
            return frames.available()
        if as_frame and not frames.available():
            raise RuntimeError("as_frame=True needs pandas (python3-pandas), which cannot be imported")
        return bool(as_frame)

    def _table(self, rows, as_frame):
        return frames.frame(rows) if self._wants_frame(as_frame) else rows

    def _track_rows(self, path, params, as_frame):
        try:
            rows = [_typed_fix(r) for r in self.get_csv(path, **params)]
        except OverwatchError as e:
            if e.status != 403:
                raise
            # The plan has no CSV export (Free): the same fixes as JSON.
            rows = self._track_rows_json(path, params)
        if self._wants_frame(as_frame):
            return frames.track_frame(rows, list(_TRACK_COLUMNS))
        return rows


    def _track_rows_json(self, path, params):
        body = self.get_json(path, **dict(params, format="json"))
        tracks = body["tracks"] if "tracks" in body else [body]
        rows = []
        for t in tracks:
            for fix in t.get("fixes") or []:
                row = {k: fix.get(k) for k in _TRACK_COLUMNS}
                row["imo_number"] = t["imo_number"]
                rows.append(row)
        return rows


class _Decoded(io.RawIOBase):
    """A response body, gunzipped when the service compressed it; closing it closes the response."""

    def __init__(self, resp):
        super().__init__()
        self.resp = resp
        self.status = resp.status
        self.headers = resp.headers
        if (resp.headers.get("Content-Encoding") or "").lower() == "gzip":
            self._body = gzip.GzipFile(fileobj=resp)
        else:
            self._body = resp

    def readable(self):
        """A body is read, never written."""
        return True

    def readinto(self, b):
        """Reads the next decoded bytes into ``b``."""
        data = self._body.read(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self):
        """Closes the HTTP response."""
        if not self.closed:
            self.resp.close()
        super().close()


def _sse_events(resp):
    """The events of a Server-Sent Events body: dicts of their fields (data lines joined)."""
    fields = {}
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if not line:
            if "data" in fields:
                yield fields
            fields = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data" and "data" in fields:
            fields["data"] += "\n" + value
        else:
            fields[name] = value


def _error_of(e):
    """The OverwatchError of an HTTP error answer: its JSON body's error and parameter."""
    try:
        raw = e.read()
        if (e.headers.get("Content-Encoding") or "").lower() == "gzip":
            raw = gzip.decompress(raw)
        body = json.loads(raw)
        return OverwatchError(e.code, body.get("error") or e.reason, body.get("parameter"))
    except (ValueError, OSError, AttributeError):
        return OverwatchError(e.code, str(e.reason))


def _retry_after(value, attempt):
    """Seconds to wait before the next attempt: Retry-After (seconds or an HTTP date), else a backoff."""
    wait = None
    if value:
        try:
            wait = float(value)
        except ValueError:
            from email.utils import parsedate_to_datetime
            try:
                wait = parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError):
                wait = None
    if wait is None:
        wait = float(2 ** attempt)
    return min(max(wait, 0.0), MAX_RETRY_WAIT)


def _next_cursor(page):
    """The cursor of the page after ``page``, or None on the last page."""
    if not isinstance(page, dict):
        return None
    pag = page.get("pagination")
    if isinstance(pag, dict):
        return pag.get("next_cursor")
    return page.get("next_cursor")


def _query(params):
    """The URL query of ``params``: None dropped, lists joined by commas, dicts as JSON."""
    pairs = []
    for k, v in params.items():
        if v is None:
            continue
        if hasattr(v, "isoformat"):
            v = v.isoformat()
        elif isinstance(v, bool):
            v = "true" if v else "false"
        elif isinstance(v, dict):
            v = json.dumps(v, separators=(",", ":"))
        elif isinstance(v, (list, tuple)):
            v = ",".join(str(x) for x in v)
        pairs.append((k, str(v)))
    return urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


def _imo(imo):
    """An IMO number as the path wants it (digits; an ``IMO`` prefix dropped)."""
    s = str(imo).strip()
    if s.upper().startswith("IMO"):
        s = s[3:].strip()
    return urllib.parse.quote(s, safe="")


def _typed_fix(row):
    """A track CSV row with its numbers read and empty cells as None."""
    out = {}
    for k, v in row.items():
        if v == "" or v is None:
            out[k] = None
            continue
        conv = _TRACK_COLUMNS.get(k, str)
        out[k] = conv(v)
    return out

