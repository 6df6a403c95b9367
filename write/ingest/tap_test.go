package ingest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"overwatch/live"
)

// TestTapPublishesEachReportOnceAsProcessed checks that the live stream
// gets every deduplicated position and static report, in order, once,
// without waiting for a flush, a position held for its IMO at once (imo
// unknown) and the vessel's IMO on the positions after its static report;
// a report older than TapMaxAge (a backfill) is not live.
func TestTapPublishesEachReportOnceAsProcessed(t *testing.T) {
	t.Parallel()
	hub := live.New(live.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go hub.Run(ctx)
	sub, err := hub.Subscribe(nil, "test", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Tap = hub
	opts.FlushInterval = time.Hour // nothing flushed: the tap does not wait for a batch
	opts.Now = func() time.Time { return t0.Add(time.Minute) }
	opts.TapMaxAge = time.Hour
	p := startPipeline(t, newMemStore(), opts)
	imo := validIMO(923456)
	a := classA(211000002, t0)
	st := static5(211000002, imo, "STREAM TEST", t0.Add(time.Second))
	b := classA(211000002, t0.Add(2*time.Second))
	old := classB(211000003, t0.Add(-2*time.Hour))
	submit(t, p, old, a, a, st, b)

	type msg struct {
		Type string  `json:"type"`
		IMO  *string `json:"imo"`
		MMSI uint32  `json:"mmsi"`
		Name *string `json:"name"`
		Lat  float64 `json:"latitude"`
	}
	var got []msg
	for len(got) < 3 {
		select {
		case e := <-sub.C():
			var m msg
			if err := json.Unmarshal(e.JSON, &m); err != nil {
				t.Fatalf("%s: %v", e.JSON, err)
			}
			got = append(got, m)
		case <-time.After(5 * time.Second):
			t.Fatalf("got %d events within 5 s, want 3: %+v", len(got), got)
		}
	}
	if got[0].Type != "position" || got[0].IMO != nil || got[0].MMSI != a.MMSI || got[0].Lat != a.Lat {
		t.Errorf("first event %+v: want the held position, imo unknown", got[0])
	}
	if got[1].Type != "static" || got[1].IMO == nil || *got[1].IMO != imo.String() || got[1].Name == nil || *got[1].Name != "STREAM TEST" {
		t.Errorf("second event %+v: want the static report naming %s", got[1], imo)
	}
	if got[2].Type != "position" || got[2].IMO == nil || *got[2].IMO != imo.String() {
		t.Errorf("third event %+v: want the position under %s", got[2], imo)
	}
	select {
	case e := <-sub.C():
		t.Errorf("an extra event (the duplicate?): %s", e.JSON)
	case <-time.After(100 * time.Millisecond):
	}
}
