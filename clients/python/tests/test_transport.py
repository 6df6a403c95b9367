"""The client's transport against a local HTTP server: what the service does not do itself.

The Overwatch server never compresses its answers and answers 503 only when
it is overloaded; a compressing proxy (nginx ``gzip on``) or an overloaded
instance does. These tests serve those answers from ``http.server`` on
loopback; everything else is tested against the real service
(test_client.py).
"""

import gzip
import http.server
import json
import threading
import unittest

from overwatch import Client, OverwatchError


class _Handler(http.server.BaseHTTPRequestHandler):
    """Answers by path: gzipped JSON and CSV, a 503 before a 200, a 503 for ever, a 404."""

    unavailable = {"count": 0}

    def log_message(self, *args):
        """Keeps the test output quiet."""

    def _send(self, status, body, ctype="application/json", gz=False, headers=()):
        if gz:
            body = gzip.compress(body)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if gz:
            self.send_header("Content-Encoding", "gzip")
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        """Serves the paths the tests ask."""
        gz = "gzip" in (self.headers.get("Accept-Encoding") or "")
        if self.path.startswith("/v1/search"):
            self._send(200, json.dumps({"vessels": [{"imo_number": "9229635", "name": "MIGHTY PIONEER"}]}).encode(), gz=gz)
        elif self.path.startswith("/v1/vessels/9229635/track"):
            csv = "imo_number,segment,timestamp,latitude,longitude,speed_kt,course_deg,heading,nav_status,source,station,received_at,age_seconds\n" \
                  "9229635,1,2026-12-01T00:00:00Z,36.5,22.8,11.2,7.4,,Under way using engine,aishub,,2026-12-01T00:00:03Z,3\n"
            self._send(200, csv.encode(), ctype="text/csv; charset=utf-8", gz=gz)
        elif self.path.startswith("/v1/busy-once"):
            self.unavailable["count"] += 1
            if self.unavailable["count"] == 1:
                self._send(503, b'{"error": "overloaded"}', headers=[("Retry-After", "0")])
            else:
                self._send(200, b'{"ok": true}')
        elif self.path.startswith("/v1/busy"):
            self._send(503, b'{"error": "overloaded"}', headers=[("Retry-After", "0")])
        else:
            self._send(404, b'{"error": "no such route", "parameter": null}')


class TransportTest(unittest.TestCase):
    """gzip bodies, 503 retries and their bound, and error bodies."""

    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def test_gzipped_answers_are_decoded(self):
        ow = Client(self.base, "k", as_frame=False)
        self.assertEqual(ow.get_json("/search")["vessels"][0]["name"], "MIGHTY PIONEER")
        rows = ow.track("9229635")
        self.assertEqual(rows, [{
            "imo_number": "9229635", "segment": 1, "timestamp": "2026-12-01T00:00:00Z", "latitude": 36.5,
            "longitude": 22.8, "speed_kt": 11.2, "course_deg": 7.4, "heading": None,
            "nav_status": "Under way using engine", "source": "aishub", "station": None,
            "received_at": "2026-12-01T00:00:03Z", "age_seconds": 3}])

    def test_a_503_is_retried_a_bounded_number_of_times(self):
        _Handler.unavailable["count"] = 0
        ow = Client(self.base, "k", max_retries=2)
        self.assertEqual(ow.get_json("/busy-once"), {"ok": True})
        self.assertEqual(ow.retries, [(503, 0.0)])
        ow = Client(self.base, "k", max_retries=2)
        with self.assertRaises(OverwatchError) as cm:
            ow.get_json("/busy")
        self.assertEqual((cm.exception.status, cm.exception.message), (503, "overloaded"))
        self.assertEqual(len(ow.retries), 2)

    def test_a_404_is_raised_at_once(self):
        ow = Client(self.base, "k", max_retries=5)
        with self.assertRaises(OverwatchError) as cm:
            ow.get_json("/nowhere")
        self.assertEqual((cm.exception.status, cm.exception.parameter), (404, None))
        self.assertEqual(ow.retries, [])

    def test_an_unreachable_service_is_status_0(self):
        with self.assertRaises(OverwatchError) as cm:
            Client("http://127.0.0.1:1", timeout=5).get_json("/health")
        self.assertEqual(cm.exception.status, 0)


if __name__ == "__main__":
    unittest.main()
