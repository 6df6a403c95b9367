package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ingest"
)

// aishubRecords merges a capture's reports into the per-vessel records the
// AISHub web service returns (its latest position and static data), in
// either unit system.
func aishubRecords(reps []ingest.Report, format int) ([]map[string]any, map[uint32][]ingest.Report) {
	type vessel struct{ pos, st *ingest.Report }
	byMMSI := map[uint32]*vessel{}
	var order []uint32
	for i := range reps {
		r := &reps[i]
		v := byMMSI[r.MMSI]
		if v == nil {
			v = &vessel{}
			byMMSI[r.MMSI] = v
			order = append(order, r.MMSI)
		}
		if r.Has&ingest.HasPosition != 0 && (r.Type <= 3) {
			v.pos = r
		}
		if r.Type == 5 {
			v.st = r
		}
	}
	scale, tenth := 1.0, 1.0
	if format == 0 {
		scale, tenth = 600000, 10
	}
	var out []map[string]any
	want := map[uint32][]ingest.Report{}
	for _, mmsi := range order {
		v := byMMSI[mmsi]
		if v.pos == nil {
			continue
		}
		p := *v.pos
		rec := map[string]any{"MMSI": mmsi, "TIME": p.TS.UTC().Format("2006-01-02 15:04:05 GMT"),
			"LONGITUDE": math.Round(p.Lon * scale), "LATITUDE": math.Round(p.Lat * scale),
			"COG": 360 * tenth, "SOG": 102.3 * tenth, "HEADING": 511, "NAVSTAT": 15,
			"IMO": 0, "NAME": "", "CALLSIGN": "", "TYPE": 0, "A": 0, "B": 0, "C": 0, "D": 0, "DRAUGHT": 0, "DEST": "", "ETA": ""}
		if format == 1 {
			rec["LONGITUDE"], rec["LATITUDE"] = p.Lon, p.Lat
		}
		p.Type = 1
		if format == 0 { // 1/10,000 minute
			p.Lat, p.Lon = math.Round(p.Lat*scale)/scale, math.Round(p.Lon*scale)/scale
		}
		if p.Has&ingest.HasCOG != 0 {
			rec["COG"] = p.COG
			if format == 0 { // tenths of a degree
				rec["COG"] = math.Round(p.COG * tenth)
				p.COG = math.Round(p.COG*tenth) / tenth
			}
		}
		if p.Has&ingest.HasSOG != 0 {
			rec["SOG"] = p.SOG
			if format == 0 { // tenths of a knot
				rec["SOG"] = math.Round(p.SOG * tenth)
				p.SOG = math.Round(p.SOG*tenth) / tenth
			}
		}
		if p.Has&ingest.HasHeading != 0 {
			rec["HEADING"] = p.Heading
		}
		if p.Has&ingest.HasNavStatus != 0 {
			rec["NAVSTAT"] = p.NavStatus
		}
		want[mmsi] = append(want[mmsi], p)
		if s := v.st; s != nil {
			st := ingest.Report{Source: s.Source, MMSI: mmsi, Type: 5, TS: p.TS, Has: s.Has &^ ingest.HasETA,
				IMO: s.IMO, Name: s.Name, CallSign: s.CallSign, ShipType: s.ShipType, ToBow: s.ToBow, ToStern: s.ToStern,
				ToPort: s.ToPort, ToStarboard: s.ToStarboard, Draught: math.Round(s.Draught*tenth) / tenth, Destination: s.Destination}
			rec["IMO"], rec["NAME"], rec["CALLSIGN"], rec["TYPE"], rec["DEST"] = s.IMO, s.Name, s.CallSign, s.ShipType, s.Destination
			rec["A"], rec["B"], rec["C"], rec["D"], rec["DRAUGHT"] = s.ToBow, s.ToStern, s.ToPort, s.ToStarboard, math.Round(s.Draught*tenth)
			if format == 1 {
				rec["DRAUGHT"] = st.Draught
			}
			want[mmsi] = append(want[mmsi], st)
		}
		out = append(out, rec)
	}
	return out, want
}

func TestAISHubPoller(t *testing.T) {
	for _, format := range []int{0, 1} {
		t.Run(fmt.Sprintf("format=%d", format), func(t *testing.T) {
			now := time.Now()
			reps := expected(t, captureLines(t), overwatch.SourceAISHub, now)
			records, wantBy := aishubRecords(reps, format)
			var mu sync.Mutex
			var calls []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				calls = append(calls, time.Now())
				n := len(calls)
				mu.Unlock()
				q := r.URL.Query()
				if q.Get("username") != "tester" || q.Get("format") != fmt.Sprint(format) || q.Get("output") != "json" || q.Get("compress") != "0" {
					http.Error(w, "bad query "+r.URL.RawQuery, 400)
					return
				}
				if n == 2 { // the service refuses calls more often than once a minute
					json.NewEncoder(w).Encode([]any{map[string]any{"ERROR": true, "ERROR_MESSAGE": "Too frequent requests!"}}) //nolint:errcheck
					return
				}
				json.NewEncoder(w).Encode([]any{map[string]any{"ERROR": false, "USERNAME": "tester", "FORMAT": "X", "RECORDS": len(records)}, records}) //nolint:errcheck
			}))
			defer srv.Close()
			rec := &recorder{}
			// The spacing is measured where the poller controls it: when
			// each request leaves (the server's arrival times also carry
			// the scheduler's delays).
			sent := &sendTimes{next: http.DefaultTransport}
			f := &AISHub{URL: srv.URL, Username: "tester", Format: format, Source: overwatch.SourceAISHub, Sink: rec,
				MinInterval: 100 * time.Millisecond, Now: func() time.Time { return now }, Client: &http.Client{Transport: sent}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go f.Run(ctx) //nolint:errcheck
			var want []ingest.Report
			for _, rs := range wantBy {
				want = append(want, rs...)
			}
			rec.waitFor(t, 2*len(want)) // first and third call
			cancel()
			got := rec.snapshot()[:len(want)]
			sameReports(t, got, want)
			sent.mu.Lock()
			defer sent.mu.Unlock()
			for i := 1; i < len(sent.at); i++ {
				if d := sent.at[i].Sub(sent.at[i-1]); d < 100*time.Millisecond {
					t.Errorf("calls %d and %d sent only %v apart", i-1, i, d)
				}
			}
		})
	}
}

// sendTimes records when each request leaves.
type sendTimes struct {
	next http.RoundTripper
	mu   sync.Mutex
	at   []time.Time
}

func (s *sendTimes) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.at = append(s.at, time.Now())
	s.mu.Unlock()
	return s.next.RoundTrip(r)
}
