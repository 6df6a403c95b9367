"""The live stream through the client (see e2e.sh): a `run` server whose
NMEA feed serves a capture of simulated vessels from 20 minutes ago on.
Needs OVERWATCH_STREAM_BASE_URL and OVERWATCH_STREAM_API_KEY (a Pro key of
that server)."""

import itertools
import os
import unittest

from overwatch import Client, OverwatchError

BASE = os.environ.get("OVERWATCH_STREAM_BASE_URL")
KEY = os.environ.get("OVERWATCH_STREAM_API_KEY")


@unittest.skipUnless(BASE and KEY, "OVERWATCH_STREAM_BASE_URL and OVERWATCH_STREAM_API_KEY (e2e.sh) are not set")
class StreamTest(unittest.TestCase):
    def test_events_then_resume_after_the_last_id(self):
        c = Client(BASE, KEY, timeout=60)
        first = list(itertools.islice(c.stream(), 6))
        ids = [e["id"] for e in first]
        self.assertEqual(ids, sorted(ids))
        for e in first:
            self.assertIn(e["type"], ("position", "static", "risk_event"))
            if e["type"] == "position":
                self.assertIsInstance(e["latitude"], float)
                self.assertIsInstance(e["mmsi"], int)
        # Resuming after the 3rd event gives the 4th to 6th again, in order.
        resumed = list(itertools.islice(c.stream(last_event_id=ids[2]), 3))
        self.assertEqual(resumed, first[3:])

    def test_filter_by_mmsi(self):
        c = Client(BASE, KEY, timeout=60)
        mmsi = next(e["mmsi"] for e in c.stream() if e["type"] == "position")
        got = list(itertools.islice(c.stream(mmsi=[mmsi], last_event_id=None), 2))
        self.assertTrue(all(e["mmsi"] == mmsi for e in got), got)

    def test_refusals_raise(self):
        c = Client(BASE, KEY, timeout=60, max_retries=0)
        with self.assertRaises(OverwatchError) as cm:
            next(c.stream(start="2026-01-01T00:00:00Z"))
        self.assertEqual((cm.exception.status, cm.exception.parameter), (400, "start"))
        with self.assertRaises(OverwatchError) as cm:
            next(c.stream(last_event_id=1))
        self.assertEqual(cm.exception.status, 410)


if __name__ == "__main__":
    unittest.main()
