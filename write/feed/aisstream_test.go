package feed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"overwatch"
	"overwatch/testclock"
	"overwatch/write/ingest"
)

// aisstreamJSON writes a report the way aisstream.io does (its message
// models: MessageType, MetaData, Message{<Type>: {...}}), with the
// service's not-available values for absent fields.
func aisstreamJSON(r ingest.Report) []byte {
	meta := map[string]any{"MMSI": r.MMSI, "MMSI_String": r.MMSI, "ShipName": strings.Repeat(" ", 20),
		"latitude": r.Lat, "longitude": r.Lon, "time_utc": r.TS.UTC().Format("2006-01-02 15:04:05.999999999 -0700 MST")}
	body := map[string]any{"MessageID": r.Type, "RepeatIndicator": 0, "UserID": r.MMSI, "Valid": true}
	var typ string
	pos := func() {
		lat, lon, sog, cog, hdg := 91.0, 181.0, 102.3, 360.0, 511
		if r.Type == 27 {
			sog, cog = 63, 511
		}
		if r.Has&ingest.HasPosition != 0 {
			lat, lon = r.Lat, r.Lon
		}
		if r.Has&ingest.HasSOG != 0 {
			sog = r.SOG
		}
		if r.Has&ingest.HasCOG != 0 {
			cog = r.COG
		}
		if r.Has&ingest.HasHeading != 0 {
			hdg = int(r.Heading)
		}
		body["Latitude"], body["Longitude"], body["Sog"], body["Cog"], body["TrueHeading"] = lat, lon, sog, cog, hdg
		status := 15
		if r.Has&ingest.HasNavStatus != 0 {
			status = int(r.NavStatus)
		}
		body["NavigationalStatus"] = status
	}
	dims := map[string]any{"A": r.ToBow, "B": r.ToStern, "C": r.ToPort, "D": r.ToStarboard}
	switch r.Type {
	case 1, 2, 3:
		typ = "PositionReport"
		pos()
	case 18:
		typ = "StandardClassBPositionReport"
		pos()
		delete(body, "NavigationalStatus")
	case 27:
		typ = "LongRangeAisBroadcastMessage"
		pos()
	case 19:
		typ = "ExtendedClassBPositionReport"
		pos()
		delete(body, "NavigationalStatus")
		body["Name"], body["Type"], body["Dimension"] = r.Name, r.ShipType, dims
	case 5:
		typ = "ShipStaticData"
		eta := map[string]any{"Month": 0, "Day": 0, "Hour": 24, "Minute": 60}
		if r.Has&ingest.HasETA != 0 {
			eta = map[string]any{"Month": int(r.ETA.Month()), "Day": r.ETA.Day(), "Hour": r.ETA.Hour(), "Minute": r.ETA.Minute()}
		}
		body["ImoNumber"], body["CallSign"], body["Name"], body["Type"], body["Dimension"] = uint32(r.IMO), r.CallSign+"@@", r.Name+"   ", r.ShipType, dims
		body["MaximumStaticDraught"], body["Destination"], body["Eta"] = r.Draught, r.Destination, eta
	case 24:
		typ = "StaticDataReport"
		body["PartNumber"] = r.Part == 1
		body["ReportA"] = map[string]any{"Valid": r.Part == 0, "Name": r.Name}
		body["ReportB"] = map[string]any{"Valid": r.Part == 1, "ShipType": r.ShipType, "CallSign": r.CallSign, "Dimension": dims}
	}
	b, _ := json.Marshal(map[string]any{"MessageType": typ, "MetaData": meta, "Message": map[string]any{typ: body}})
	return b
}

func TestAISStreamFeed(t *testing.T) {
	now := testclock.Now()
	want := expected(t, captureLines(t), overwatch.SourceAISStream, now)
	subscribed := make(chan aisstreamSubscription, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow() //nolint:errcheck
		// The service closes a connection whose subscription is late (3 s).
		ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
		defer cancel()
		_, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		var sub aisstreamSubscription
		if json.Unmarshal(data, &sub) != nil || sub.APIKey == "" || len(sub.BoundingBoxes) == 0 {
			c.Close(websocket.StatusPolicyViolation, "bad subscription") //nolint:errcheck
			return
		}
		subscribed <- sub
		c.Write(r.Context(), websocket.MessageText, []byte(`{"error": "not json"`)) //nolint:errcheck
		for _, rep := range want {
			if err := c.Write(r.Context(), websocket.MessageText, aisstreamJSON(rep)); err != nil {
				return
			}
		}
		time.Sleep(time.Minute)
	}))
	defer srv.Close()
	rec := &recorder{}
	f := &AISStream{URL: "ws" + strings.TrimPrefix(srv.URL, "http"), APIKey: "secret", BoundingBoxes: [][2][2]float64{{{-10, -20}, {30, 40}}},
		MMSIs: []string{"366999999"}, Source: overwatch.SourceAISStream, Sink: rec, Now: func() time.Time { return now }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Run(ctx) //nolint:errcheck
	select {
	case sub := <-subscribed:
		if sub.APIKey != "secret" || sub.BoundingBoxes[0] != [2][2]float64{{-10, -20}, {30, 40}} || sub.FiltersShipMMSI[0] != "366999999" {
			t.Errorf("subscription %+v", sub)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no subscription")
	}
	got := rec.waitFor(t, len(want))
	// aisstream carries decoded numbers: compare at AIS resolution.
	for i := range got {
		got[i].Lat, got[i].Lon = round(got[i].Lat, 1e6), round(got[i].Lon, 1e6)
	}
	for i := range want {
		want[i].Lat, want[i].Lon = round(want[i].Lat, 1e6), round(want[i].Lon, 1e6)
	}
	sameReports(t, got, want)
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for rec.counts().invalid == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if rec.counts().invalid == 0 {
		t.Error("the malformed message was not counted as invalid")
	}
}

func round(v, scale float64) float64 { return math.Round(v*scale) / scale }
