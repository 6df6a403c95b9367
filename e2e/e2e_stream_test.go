package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/geo"
	"overwatch/testclock"
	"overwatch/write/ais"
	"overwatch/write/ingest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// streamVessel is a vessel the stream test makes up, with a known IMO
// and ship type, so that the imo and type filters have an exact answer.
type streamVessel struct {
	mmsi     uint32
	imo      overwatch.IMO // 0: no static report
	shipType uint8
}

// syntheticLines encodes a static report for each vessel with an IMO,
// then positions of every vessel, stamped from base a second apart.
func syntheticLines(t *testing.T, vessels []streamVessel, base time.Time, positions int) []string {
	t.Helper()
	var lines []string
	at := base
	enc := func(m ais.Message) {
		ls, err := ais.Encode(m, ais.EncodeOptions{TagBlock: true, Time: at})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, ls...)
		at = at.Add(time.Second)
	}
	for _, v := range vessels {
		if v.imo != 0 {
			enc(ais.Message{Type: 5, MMSI: v.mmsi, IMO: v.imo, ShipType: v.shipType, Name: fmt.Sprintf("STREAM %d", v.mmsi),
				Fields: ais.HasIMO | ais.HasShipType | ais.HasName})
		}
	}
	for i := 0; i < positions; i++ {
		for j, v := range vessels {
			enc(ais.Message{Type: 1, MMSI: v.mmsi, Lat: 10 + float64(j) + float64(i)/100, Lon: -40 + float64(i)/100,
				SOG: 12.3, COG: 45, NavStatus: 0, Second: 60, Fields: ais.HasPosition | ais.HasSOG | ais.HasCOG | ais.HasNavStatus})
		}
	}
	return lines
}

// sampleLines is the AISHub sample stamped from base, 500 lines a second.
func sampleLines(t *testing.T, base time.Time) []string {
	t.Helper()
	raw, err := os.ReadFile(aishubSample)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for i, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		lines = append(lines, ais.Stamp(strings.TrimSpace(l), base.Add(time.Duration(i/500)*time.Second), ""))
	}
	return lines
}

// expectedFixes counts the input's positions in area by fix key: the
// distinct reports under each (the pipeline streams a report once
// however often a feed repeats it, and two reports of one fix that
// differ, say in speed, twice).
func expectedFixes(reports []ingest.Report, in func(lat, lon float64) bool) map[string]int {
	out := map[string]int{}
	seen := map[ingest.Report]bool{}
	for _, r := range reports {
		if r.Has&ingest.HasPosition != 0 && in(r.Lat, r.Lon) {
			r.ReceivedAt = time.Time{}
			if !seen[r] {
				seen[r] = true
				out[fixKey(r.MMSI, r.TS, r.Lat, r.Lon)]++
			}
		}
	}
	return out
}

// sameFixes waits until a subscriber has every expected fix, then checks
// it has nothing else and each fix once.
func sameFixes(t *testing.T, name string, c *collector, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var got map[string]int
	for time.Now().Before(deadline) {
		got = c.positions(t)
		if len(got) >= len(want) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // anything extra would have come by now
	got = c.positions(t)
	missing, extra, twice := 0, 0, 0
	for k := range want {
		if got[k] == 0 {
			missing++
		}
	}
	for k, n := range got {
		if want[k] == 0 {
			extra++
		}
		if n > want[k] {
			twice++
		}
	}
	if missing+extra+twice > 0 {
		c.mu.Lock()
		closed, errEvt := c.closed, c.errEvt
		c.mu.Unlock()
		t.Errorf("%s: %d fixes received, %d expected: %d missing, %d not in its filter, %d received more often than sent (closed: %v %s)",
			name, len(got), len(want), missing, extra, twice, closed, errEvt)
	}
}

func metricValue(t *testing.T, s *apptest.TestServer, series string) float64 {
	t.Helper()
	resp, err := http.Get(s.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` ([0-9.e+]+)$`).FindSubmatch(body)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// TestStreamDeliversIngestedFixesByFilter runs `overwatch run` with an
// NMEA TCP feed and subscribes over both transports before the feed
// sends: a box (SSE) and a box across the antimeridian (WebSocket) get
// exactly the input's fixes inside them; imo and type filters get exactly
// the made-up vessel's reports; reconnecting with last_event_id (query
// or Last-Event-ID) resumes after it; a subscriber that reads nothing is
// dropped with 1008 and counted while ingest takes the whole feed and a
// reading subscriber gets all of its fixes; the plan's connections are
// enforced; bad parameters are 400s naming them, before any upgrade.
func TestStreamDeliversIngestedFixesByFilter(t *testing.T) {
	t.Parallel() // its own ClickHouse database and server
	f := newPushFeed(t)
	s := apptest.StartCommand(t, "run", map[string]string{
		"CLICKHOUSE_URL":                   chtest.URL(t, "e2e_stream"),
		"OVERWATCH_FEEDS":                  "aishub=tcp://" + f.addr,
		"OVERWATCH_SPOOL_DIR":              t.TempDir(),
		"OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000",
		// Room for the bursts of this test on a loaded machine; the slow
		// consumer below lets far more than this pile up.
		"OVERWATCH_STREAM_BUFFER": "20000",
		// The server learns that a client has gone at its next write: a
		// heartbeat, when the stream is idle.
		"OVERWATCH_STREAM_HEARTBEAT": "1s",
	})
	// push sends lines to the feed 5,000 at a time, each batch once the
	// stream has taken the one before (its event count has grown and
	// stopped): a steady feed, not one burst.
	push := func(lines []string) {
		for len(lines) > 0 {
			n := min(len(lines), 5000)
			before := metricValue(t, s, "overwatch_stream_events_total")
			f.lines <- lines[:n]
			last := before
			apptest.Eventually(t, 60*time.Second, "the stream took a batch", func() bool {
				time.Sleep(200 * time.Millisecond)
				v := metricValue(t, s, "overwatch_stream_events_total")
				settled := v > before && v == last
				last = v
				return settled
			})
			lines = lines[n:]
		}
	}
	defer s.Stop()
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Refusals, all before any stream starts.
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	for _, tc := range []struct {
		key, query string
		header     map[string]string
		status     int
		parameter  string
	}{
		{free, "", nil, 403, ""},
		{key, "?bbox=1,2,3", nil, 400, "bbox"},
		{key, "?start=2026-01-01T00:00:00Z", nil, 400, "start"},
		{key, "?end=2026-01-01T00:00:00Z", nil, 400, "end"},
		{key, "?type=submarine", nil, 400, "type"},
		{key, "?last_event_id=abc", nil, 400, "last_event_id"},
		{key, "", map[string]string{"Last-Event-ID": "-1"}, 400, "last_event_id"},
		{key, "?last_event_id=1", nil, 410, "last_event_id"},
	} {
		c, resp := openSSE(t, ctx, s.Base, tc.key, tc.query, tc.header)
		if c != nil {
			t.Errorf("%s: a stream, want %d", tc.query, tc.status)
			continue
		}
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body) //nolint:errcheck
		resp.Body.Close()
		if resp.StatusCode != tc.status || body["error"] == nil || tc.parameter != "" && body["parameter"] != tc.parameter {
			t.Errorf("%s %v: %d %v, want %d naming %q", tc.query, tc.header, resp.StatusCode, body, tc.status, tc.parameter)
		}
	}
	if _, resp, err := openWS(t, ctx, s.Base, key, "?polygon=nope"); err == nil || resp == nil || resp.StatusCode != 400 {
		t.Errorf("WebSocket with a bad polygon: %v %v, want 400 before the upgrade", resp, err)
	}

	now := testclock.Now().UTC().Truncate(time.Second)
	tanker := streamVessel{mmsi: 636091001, imo: apptest.NextIMO(), shipType: 80}
	cargo := streamVessel{mmsi: 636091002, imo: apptest.NextIMO(), shipType: 70}
	unnamed := streamVessel{mmsi: 636091003}
	synthetic := syntheticLines(t, []streamVessel{tanker, cargo, unnamed}, now.Add(-10*time.Minute), 20)
	sample := sampleLines(t, now.Add(-8*time.Minute)) // 170 s of reports
	first, rest := sample[:20000], sample[20000:]

	north := geo.BBox{West: -10, South: 45, East: 30, North: 65}
	across := geo.BBox{West: 120, South: -80, East: -120, North: 80}
	boxSSE, _ := openSSE(t, ctx, s.Base, key, "?bbox=-10,45,30,65", nil)
	conn, _, err := openWS(t, ctx, s.Base, key, "?bbox=120,-80,-120,80")
	if err != nil {
		t.Fatal(err)
	}
	boxWS := readWS(t, ctx, conn)
	byIMO, _ := openSSE(t, ctx, s.Base, key, "?imo="+tanker.imo.String(), nil)
	byType, _ := openSSE(t, ctx, s.Base, key, fmt.Sprintf("?type=tanker&mmsi=%d,%d,%d", tanker.mmsi, cargo.mmsi, unnamed.mmsi), nil)
	if boxSSE == nil || byIMO == nil || byType == nil {
		t.Fatal("a subscription was refused")
	}
	apptest.Eventually(t, 10*time.Second, "four subscribers counted", func() bool {
		return metricValue(t, s, `overwatch_stream_subscribers{transport="sse"}`) == 3 &&
			metricValue(t, s, `overwatch_stream_subscribers{transport="websocket"}`) == 1
	})

	push(synthetic)
	push(first)
	input := inputReports(append(append([]string{}, synthetic...), first...))
	wantNorth := expectedFixes(input, north.Contains)
	wantAcross := expectedFixes(input, across.Contains)
	if len(wantNorth) < 100 || len(wantAcross) < 10 {
		t.Fatalf("the input has %d fixes in the north box and %d across the antimeridian: too few to test", len(wantNorth), len(wantAcross))
	}
	sameFixes(t, "bbox over SSE", boxSSE, wantNorth)
	sameFixes(t, "bbox across the antimeridian over WebSocket", boxWS, wantAcross)

	tankerFixes := expectedFixes(inputReports(synthetic), func(lat, lon float64) bool { return true })
	for k := range tankerFixes {
		if !strings.HasPrefix(k, strconv.Itoa(int(tanker.mmsi))+"|") {
			delete(tankerFixes, k)
		}
	}
	for name, c := range map[string]*collector{"imo": byIMO, "type": byType} {
		sameFixes(t, name+" filter", c, tankerFixes)
		statics := 0
		for _, m := range c.snapshot() {
			if m.MMSI != tanker.mmsi {
				t.Errorf("%s filter: a message of another vessel: %s", name, m.raw)
			}
			if m.Type == "static" {
				statics++
			}
			if m.Type == "position" && (m.IMO == nil || *m.IMO != tanker.imo.String()) {
				t.Errorf("%s filter: a position without the vessel's IMO: %s", name, m.raw)
			}
		}
		if statics != 1 {
			t.Errorf("%s filter: %d static reports, want the tanker's 1", name, statics)
		}
	}

	// Resume: a new connection after the 10th message gets the rest of
	// the first connection's messages, in order, by the query parameter
	// and by SSE's header.
	seen := boxSSE.snapshot()
	for _, how := range []string{"query", "header"} {
		after := seen[9].ID
		var c *collector
		if how == "query" {
			c, _ = openSSE(t, ctx, s.Base, key, fmt.Sprintf("?bbox=-10,45,30,65&last_event_id=%d", after), nil)
		} else {
			c, _ = openSSE(t, ctx, s.Base, key, "?bbox=-10,45,30,65", map[string]string{"Last-Event-ID": seen[9].sseID})
		}
		if c == nil {
			t.Fatalf("resume by %s refused", how)
		}
		apptest.Eventually(t, 10*time.Second, "the resumed backlog", func() bool { return len(c.snapshot()) >= len(seen)-10 })
		got := c.snapshot()
		for i, m := range got[:len(seen)-10] {
			if m.ID != seen[10+i].ID || m.raw != seen[10+i].raw {
				t.Fatalf("resume by %s: message %d is %s, want %s", how, i, m.raw, seen[10+i].raw)
			}
		}
	}

	// The plan's connections: Pro allows 10; 7 are open (4 + 2 resumed +
	// the one below).
	extraCtx, closeExtra := context.WithCancel(ctx)
	var idle *collector
	for i := 0; i < 4; i++ {
		c, resp := openSSE(t, extraCtx, s.Base, key, "?mmsi=1", nil)
		if c == nil {
			t.Fatalf("connection %d refused: %d", 7+i, resp.StatusCode)
		}
		idle = c
	}
	// An idle stream proves it is alive every OVERWATCH_STREAM_HEARTBEAT.
	apptest.Eventually(t, 10*time.Second, "two heartbeats on an idle stream", func() bool { return idle.heartbeats() >= 2 })
	if c, resp := openSSE(t, ctx, s.Base, key, "?mmsi=1", nil); c != nil || resp.StatusCode != 429 {
		t.Errorf("an 11th connection: want 429")
	} else {
		b, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(b), "10 stream connections") {
			t.Errorf("429 body %s", b)
		}
	}
	closeExtra() // the server sees them go at its next write: the heartbeat
	apptest.Eventually(t, 30*time.Second, "the closed connections released", func() bool {
		return metricValue(t, s, `overwatch_stream_subscribers{transport="sse"}`) == 5
	})

	// A slow consumer: a WebSocket of every event that reads one message
	// every 2 ms while the rest of the sample goes through. It is dropped
	// and counted; ingest takes everything; the box subscriber gets all
	// of its fixes. Once dropped it reads at full speed, and after what
	// was sent before the drop comes the close frame saying why.
	slow, _, err := openWS(t, ctx, s.Base, key, "")
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() {
		dropped := false
		for i := 0; ; i++ {
			if !dropped {
				time.Sleep(2 * time.Millisecond)
				if i%200 == 0 {
					dropped = metricValue(t, s, `overwatch_stream_dropped_total{reason="slow_consumer"}`) >= 1
				}
			}
			rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
			_, _, err := slow.Read(rctx)
			rcancel()
			if err != nil {
				closed <- err
				return
			}
		}
	}()
	// The rest of the sample, then the whole sample again a minute later
	// (new reports): far more than the slow consumer's buffer and its
	// socket's hold. push returns once ingest has received every line.
	again := sampleLines(t, now.Add(-4*time.Minute)) // after the first pass's times
	push(rest)
	push(again)
	apptest.Eventually(t, 60*time.Second, "the slow consumer dropped", func() bool {
		return metricValue(t, s, `overwatch_stream_dropped_total{reason="slow_consumer"}`) >= 1
	})
	all := inputReports(append(append(append(append([]string{}, synthetic...), first...), rest...), again...))
	sameFixes(t, "bbox over SSE after the slow consumer", boxSSE, expectedFixes(all, north.Contains))
	closeErr := <-closed
	// The close frame waits behind the bytes already in the sockets; on a
	// loaded machine the server's write may time out first and the
	// connection end without it (seen at a load average of 40).
	var ce websocket.CloseError
	switch {
	case errors.As(closeErr, &ce):
		if ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "slow consumer") {
			t.Errorf("the slow consumer's stream closed with %v, want 1008 naming a slow consumer", closeErr)
		}
	case errors.Is(closeErr, io.EOF) || strings.Contains(closeErr.Error(), "EOF"):
		t.Logf("the slow consumer's connection ended before its close frame reached it: %v", closeErr)
	default:
		t.Errorf("the slow consumer's stream ended with %v", closeErr)
	}
}
