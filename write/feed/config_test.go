package feed

import (
	"strings"
	"testing"
	"time"

	"overwatch"
)

func TestParseFeeds(t *testing.T) {
	feeds, err := ParseAll(`aishub=tcp://153.44.253.27:5631
		satellite=udp://:10110 aisstream=wss://stream.aisstream.io/v0/stream?key=K&bbox=-10,-20,30,40|50,60,70,80&mmsi=366999999,538001234
		spire=https://data.aishub.net/ws.php?username=me&format=1&interval=5m`, &recorder{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(feeds) != 4 {
		t.Fatalf("%d feeds", len(feeds))
	}
	if f := feeds[0].(*TCP); f.Addr != "153.44.253.27:5631" || f.Source != overwatch.SourceAISHub {
		t.Errorf("tcp: %+v", f)
	}
	if f := feeds[1].(*UDP); f.Addr != ":10110" || f.Source != overwatch.SourceSatellite {
		t.Errorf("udp: %+v", f)
	}
	s := feeds[2].(*AISStream)
	if s.APIKey != "K" || len(s.BoundingBoxes) != 2 || s.BoundingBoxes[1] != [2][2]float64{{50, 60}, {70, 80}} ||
		len(s.MMSIs) != 2 || s.URL != "wss://stream.aisstream.io/v0/stream" || strings.Contains(s.Name(), "K") {
		t.Errorf("aisstream: %+v (the key must not reach logs)", s)
	}
	h := feeds[3].(*AISHub)
	if h.Username != "me" || h.Format != 1 || h.Interval != 5*time.Minute || h.URL != "https://data.aishub.net/ws.php" || h.Source != overwatch.SourceSpire {
		t.Errorf("aishub: %+v", h)
	}
	for spec, msg := range map[string]string{
		"tcp://x:1":                                       "want <provider>=<url>",
		"marinetraffic=tcp://x:1":                         "provider must be",
		"aishub=ftp://x":                                  "scheme must be",
		"aishub=tcp://":                                   "tcp://host:port",
		"aisstream=wss://x/stream":                        "needs key=",
		"aisstream=wss://x/stream?key=k&bbox=1,2":         "bbox is",
		"aishub=https://x/ws.php":                         "needs username=",
		"aishub=https://x/ws.php?username=u&format=2":     "format is 0 or 1",
		"aishub=https://x/ws.php?username=u&interval=10s": "at least 1m",
	} {
		if _, err := Parse(spec, &recorder{}, nil); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", spec, err, msg)
		}
	}
}
