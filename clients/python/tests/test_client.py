"""End-to-end tests of the client against a real server (see e2e.sh).

They need OVERWATCH_BASE_URL and OVERWATCH_API_KEY (a Pro key) of a server
holding a simulated fleet, and compare the client's answers with the
service's own JSON fetched with plain urllib. Run once with pandas and once
with OVERWATCH_NO_PANDAS=1; each test checks the shape it expects.
"""

import json
import math
import os
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request

from overwatch import Client, OverwatchError
from overwatch import frames

BASE = os.environ.get("OVERWATCH_BASE_URL")
KEY = os.environ.get("OVERWATCH_API_KEY")
PANDAS = frames.available()


def raw(path, key=KEY, **params):
    """The service's JSON for ``path``, fetched without the client."""
    q = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    req = urllib.request.Request(BASE + "/v1" + path + ("?" + q if q else ""))
    if key:
        req.add_header("X-API-Key", key)
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.load(resp)


def records(table):
    """The rows of a client answer as dicts with JSON-comparable values (timestamps as epoch seconds)."""
    if PANDAS:
        import pandas as pd

        assert isinstance(table, pd.DataFrame), type(table)
        out = []
        for rec in table.to_dict("records"):
            row = {}
            for k, v in rec.items():
                if isinstance(v, pd.Timestamp):
                    v = v.timestamp()
                elif v is pd.NA or (isinstance(v, float) and math.isnan(v)):
                    v = None
                elif hasattr(v, "item"):
                    v = v.item()
                row[k] = v
            out.append(row)
        return out
    assert isinstance(table, list), type(table)
    return table


def epoch(ts):
    """An RFC 3339 timestamp as epoch seconds."""
    from datetime import datetime

    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def json_fix(fix, imo):
    """A JSON track fix in the shape of a client row."""
    row = dict(fix, imo_number=imo)
    for k in ("timestamp", "received_at"):
        row[k] = epoch(row[k]) if PANDAS else row[k]
    return row


def same_times(a, b):
    """Whether two timestamps (strings or epoch seconds) are the same instant."""
    if isinstance(a, str):
        a = epoch(a)
    if isinstance(b, str):
        b = epoch(b)
    return abs(a - b) < 1e-6


def assert_fixes_equal(tc, got, want):
    """Fails ``tc`` unless the client's fix rows equal the JSON fixes, field by field."""
    tc.assertEqual(len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        tc.assertEqual(set(g), set(w), f"fix {i}: columns")
        for k in w:
            if k in ("timestamp", "received_at"):
                tc.assertTrue(same_times(g[k], w[k]), f"fix {i} {k}: {g[k]} != {w[k]}")
            elif isinstance(w[k], float):
                tc.assertAlmostEqual(g[k], w[k], places=6, msg=f"fix {i} {k}")
            else:
                tc.assertEqual(g[k], w[k], f"fix {i} {k}")


@unittest.skipUnless(BASE and KEY, "OVERWATCH_BASE_URL and OVERWATCH_API_KEY name the server (make test-python)")
class ClientTest(unittest.TestCase):
    """The reads, compared with the service's JSON."""

    @classmethod
    def setUpClass(cls):
        cls.ow = Client(BASE, KEY, timeout=60)
        fleet = raw("/vessels/positions", limit=200)["positions"]
        if len(fleet) < 3:
            raise AssertionError(f"the simulated fleet is too small: {len(fleet)} vessels")
        cls.fleet = fleet
        # The two vessels with the most fixes in the week before the newest report.
        counts = []
        for v in fleet[:8]:
            t = raw(f"/vessels/{v['imo_number']}/track")
            counts.append((len(t["fixes"]), v["imo_number"]))
        counts.sort(reverse=True)
        cls.imos = [imo for _, imo in counts[:2]]

    def setUp(self):
        self.ow.retries.clear()

    def test_export_downloads_resumably_and_loads(self):
        imo = self.imos[0]
        e = self.ow.export("positions", {"imo": [imo]}, format="csv.gz")
        self.assertEqual(e["status"], "queued")
        done = self.ow.wait_export(e["id"], timeout=300)
        self.assertEqual(self.ow.export_status(e["id"])["status"], "completed")
        self.assertGreater(done["rows"], 0)
        self.assertIn(e["id"], [x["id"] for x in self.ow.exports()])
        with tempfile.TemporaryDirectory() as d:
            whole = self.ow.download_export(e["id"], os.path.join(d, "whole.csv.gz"))
            with open(whole, "rb") as f:
                data = f.read()
            self.assertEqual(len(data), done["bytes"])
            # An interrupted download: half the file, resumed with Range.
            part = os.path.join(d, "part.csv.gz")
            with open(part, "wb") as f:
                f.write(data[: len(data) // 2])
            self.ow.download_export(e["id"], part)
            self.ow.download_export(e["id"], part)  # already whole: left as it is
            with open(part, "rb") as f:
                self.assertEqual(f.read(), data)
            rows = records(self.ow.load_export(part))
        self.assertEqual(len(rows), done["rows"])
        self.assertEqual({r["imo"] for r in rows}, {int(imo)})
        track = raw(f"/vessels/{imo}/track")["fixes"]
        # The same fixes: the track's coordinates are rounded to 5 decimals.
        want = {epoch(f["timestamp"]): (f["latitude"], f["longitude"]) for f in track}
        got = {(r["timestamp"] if PANDAS else epoch(r["timestamp"])): (r["latitude"], r["longitude"]) for r in rows}
        self.assertEqual(set(got), set(want))
        for ts, (lat, lon) in got.items():
            self.assertLess(max(abs(lat - want[ts][0]), abs(lon - want[ts][1])), 1.5e-5, ts)

    def test_export_refusals(self):
        with self.assertRaises(OverwatchError) as cm:
            self.ow.export("voyages", format="geojson")
        self.assertEqual((cm.exception.status, cm.exception.parameter), (400, "format"))
        with self.assertRaises(OverwatchError) as cm:
            self.ow.export("positions", {"bbox": "1,2,3"})
        self.assertEqual((cm.exception.status, cm.exception.parameter), (400, "filters.bbox"))
        free = os.environ.get("OVERWATCH_FREE_API_KEY")
        if free:
            with self.assertRaises(OverwatchError) as cm:
                Client(BASE, free).export("positions")
            self.assertEqual(cm.exception.status, 403)

    def test_track_rows_equal_the_json_track(self):
        imo = self.imos[0]
        want = raw(f"/vessels/{imo}/track")
        self.assertGreater(len(want["fixes"]), 20)
        start, end = want["start"], want["end"]
        got = self.ow.track(imo, start=start, end=end)
        assert_fixes_equal(self, records(got), [json_fix(f, imo) for f in want["fixes"]])
        if PANDAS:
            self.assertEqual(str(got["timestamp"].dt.tz), "UTC")

    def test_track_interval_and_simplify_follow_the_service(self):
        imo = self.imos[0]
        full = raw(f"/vessels/{imo}/track")
        for params in ({"interval": 60}, {"simplify": 500}):
            want = raw(f"/vessels/{imo}/track", start=full["start"], end=full["end"], **params)
            self.assertLess(len(want["fixes"]), len(full["fixes"]), params)
            got = self.ow.track(imo, start=full["start"], end=full["end"], **params)
            assert_fixes_equal(self, records(got), [json_fix(f, imo) for f in want["fixes"]])

    def test_tracks_of_several_vessels(self):
        full = raw(f"/vessels/{self.imos[0]}/track")
        want = raw("/tracks", imo=",".join(self.imos), start=full["start"], end=full["end"])
        expected = [json_fix(f, t["imo_number"]) for t in want["tracks"] for f in t["fixes"]]
        got = records(self.ow.tracks(self.imos, start=full["start"], end=full["end"]))
        self.assertEqual({r["imo_number"] for r in got}, set(self.imos))
        assert_fixes_equal(self, got, expected)

    def test_search_finds_a_vessel_by_name(self):
        vessel = next(v for v in self.fleet if v.get("name"))
        name = vessel["name"]
        got = records(self.ow.search(name.lower(), limit=5))
        self.assertTrue(got, f"search {name!r} found nothing")
        self.assertEqual(got[0]["imo_number"], vessel["imo_number"])
        self.assertEqual(got[0]["name"], name)
        want = raw("/vessels/search", q=name.lower(), limit=5)["vessels"]
        self.assertEqual([v["imo_number"] for v in got], [v["imo_number"] for v in want])
        matched = got[0]["matched.field"] if PANDAS else got[0]["matched"]["field"]
        self.assertEqual(matched, want[0]["matched"]["field"])

    def test_area_vessels_equal_the_json_answer(self):
        fix = raw(f"/vessels/{self.imos[0]}/track")["fixes"][-1]
        lat, lon = fix["latitude"], fix["longitude"]
        bbox = (round(lon - 2, 4), round(lat - 2, 4), round(lon + 2, 4), round(lat + 2, 4))
        text = ",".join(str(x) for x in bbox)
        want = raw("/area/vessels", bbox=text, start=fix["timestamp"][:10])
        self.assertIn(self.imos[0], [v["imo_number"] for v in want["vessels"]])
        got = records(self.ow.area_vessels(bbox=bbox, start=fix["timestamp"][:10]))
        self.assertEqual(len(got), len(want["vessels"]))
        for g, w in zip(got, want["vessels"]):
            self.assertEqual(g["imo_number"], w["imo_number"])
            self.assertEqual(g["fixes"], w["fixes"])
            if PANDAS:
                self.assertTrue(same_times(g["first_fix.timestamp"], w["first_fix"]["timestamp"]))
                self.assertAlmostEqual(g["last_fix.latitude"], w["last_fix"]["latitude"], places=6)
            else:
                self.assertEqual(g, w)
        polygon = {"type": "Polygon", "coordinates": [[[bbox[0], bbox[1]], [bbox[2], bbox[1]], [bbox[2], bbox[3]],
                                                        [bbox[0], bbox[3]], [bbox[0], bbox[1]]]]}
        by_polygon = records(self.ow.area_vessels(polygon=polygon, start=fix["timestamp"][:10]))
        self.assertEqual([v["imo_number"] for v in by_polygon], [v["imo_number"] for v in want["vessels"]])

    def test_pages_follow_the_cursor(self):
        want = raw("/vessels/positions", limit=200)
        pages = list(self.ow.pages("/vessels/positions", limit=3))
        self.assertGreater(len(pages), 1)
        self.assertIsNone(pages[-1]["pagination"]["next_cursor"])
        imos = [p["imo_number"] for page in pages for p in page["positions"]]
        self.assertEqual(imos, [p["imo_number"] for p in want["positions"]])
        self.assertEqual(len(imos), want["total"])
        listed = records(self.ow.vessel_positions(limit=3))
        self.assertEqual([r["imo_number"] for r in listed], imos)
        framed = records(self.ow.list_frame("/vessels/positions", "positions", limit=4))
        self.assertEqual([r["imo_number"] for r in framed], imos)

    def test_latest_is_the_public_lookup(self):
        imo = self.imos[0]
        want = raw(f"/ais/any/{imo}/location/latest", key=None)
        got = Client(BASE).latest(imo)
        self.assertEqual(got["imo_number"], want["imo_number"])
        self.assertEqual(got["timestamp"], want["timestamp"])
        self.assertEqual((got["latitude"], got["longitude"]), (want["latitude"], want["longitude"]))

    def test_a_bad_parameter_raises_naming_it(self):
        with self.assertRaises(OverwatchError) as cm:
            self.ow.track(self.imos[0], start="not-a-date")
        self.assertEqual(cm.exception.status, 400)
        self.assertEqual(cm.exception.parameter, "start")
        with self.assertRaises(OverwatchError) as cm:
            self.ow.area_vessels(bbox="1,2,3")
        self.assertEqual((cm.exception.status, cm.exception.parameter), (400, "bbox"))
        with self.assertRaises(OverwatchError) as cm:
            self.ow.search("")
        self.assertEqual((cm.exception.status, cm.exception.parameter), (400, "q"))
        self.assertEqual(self.ow.retries, [], "a 400 is never retried")

    def test_a_bad_key_is_not_retried(self):
        ow = Client(BASE, "ow_not_a_key", max_retries=5)
        with self.assertRaises(OverwatchError) as cm:
            ow.search("anything")
        self.assertEqual(cm.exception.status, 401)
        self.assertEqual(ow.retries, [])

    @unittest.skipUnless(os.environ.get("OVERWATCH_FREE_API_KEY"), "OVERWATCH_FREE_API_KEY: a Free key")
    def test_a_plan_without_csv_reads_the_json_track(self):
        free = os.environ["OVERWATCH_FREE_API_KEY"]
        imo = self.imos[1]
        with self.assertRaises(urllib.error.HTTPError) as cm:
            raw(f"/vessels/{imo}/track", key=free, format="csv")
        self.assertEqual(cm.exception.code, 403)
        want = raw(f"/vessels/{imo}/track", key=free)
        self.assertTrue(want["fixes"])
        self.assertTrue(all(f["latitude"] is None for f in want["fixes"]))
        got = Client(BASE, free).track(imo, start=want["start"], end=want["end"])
        assert_fixes_equal(self, records(got), [json_fix(f, imo) for f in want["fixes"]])

    def test_plain_and_frame_switch(self):
        imo = self.imos[1]
        plain = self.ow.track(imo, as_frame=False)
        self.assertIsInstance(plain, list)
        self.assertTrue(all(isinstance(r["segment"], int) for r in plain))
        if PANDAS:
            self.assertEqual(len(self.ow.track(imo, as_frame=True)), len(plain))
        else:
            with self.assertRaises(RuntimeError):
                self.ow.track(imo, as_frame=True)


@unittest.skipUnless(BASE and os.environ.get("OVERWATCH_CLIENT_RETRY_TEST"),
                     "OVERWATCH_CLIENT_RETRY_TEST: the retry test waits out the public minute window")
class RetryTest(unittest.TestCase):
    """A 429 is waited out for its Retry-After, then the request succeeds."""

    def test_429_is_retried_after_retry_after(self):
        imo = raw("/vessels/positions", limit=1)["positions"][0]["imo_number"]
        path = f"/v1/ais/any/{imo}/location/latest"
        retry_after = None
        for _ in range(50):
            try:
                urllib.request.urlopen(BASE + path, timeout=30).close()
            except urllib.error.HTTPError as e:
                self.assertEqual(e.code, 429)
                retry_after = int(e.headers["Retry-After"])
                break
        self.assertIsNotNone(retry_after, "the public per-IP limit never answered 429")
        self.assertGreater(retry_after, 0)
        impatient = Client(BASE, max_retries=0)
        with self.assertRaises(OverwatchError) as cm:
            impatient.latest(imo)
        self.assertEqual(cm.exception.status, 429)
        ow = Client(BASE, max_retries=2)
        got = ow.latest(imo)
        self.assertEqual(got["imo_number"], imo)
        self.assertEqual(ow.retries[0][0], 429)
        self.assertLessEqual(abs(ow.retries[0][1] - retry_after), 1.0)


if __name__ == "__main__":
    unittest.main()
