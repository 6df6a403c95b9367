package e2e

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"overwatch/maritime/seaport"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/maritime/sealane"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/ingest"
	"overwatch/write/outbound"
	"overwatch/write/sim"
)

// trueNext is the vessel's first true call that arrived after asOf, and
// whether the truth has it inside a call at asOf.
func trueNext(truth []sim.Truth, imo overwatch.IMO, asOf time.Time) (next *sim.PortCall, inPort bool) {
	for _, tr := range truth {
		if tr.Type != "port_call" || tr.Call == nil || tr.Vessels[0] != imo {
			continue
		}
		c := tr.Call
		if c.Arrival.Before(asOf) && c.Departure.After(asOf) {
			inPort = true
		}
		if c.Arrival.After(asOf) && (next == nil || c.Arrival.Before(next.Arrival)) {
			next = c
		}
	}
	return next, inPort
}

// Predictions end to end, on a small simulated fleet stored through the
// real pipeline, its port calls and predictions derived by the jobs
// command: the list and each vessel's prediction against the simulator's
// truth; as_of answering from the data before it only (the same answer
// before and after later data is ingested, while a later as_of sees that
// data); the port's expected arrivals; an eta_changed alert for a watched
// vessel whose ETA moves, delivered as a signed webhook.
func TestPredictionsEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	r := apptest.SimulateWithRates(t, "e2e_predictions", 11, 60, 16)
	r.Command(t, io.Discard, "jobs", "--job", "port_calls")
	r.Command(t, io.Discard, "jobs", "--job", "predictions")
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ip := apptest.FreshIP()
	do, expect := s.Caller(t, ip), apptest.Expecter(t)
	truth := apptest.ReadTruth(t, r.TruthPath)
	mmsi := map[overwatch.IMO]uint32{}
	for _, tr := range truth {
		if tr.Type == "vessel" && tr.Vessel != nil {
			mmsi[tr.Vessel.IMO] = tr.Vessel.MMSI
		}
	}

	// The stored refresh against the truth.
	preds := apptest.FetchPredictions(t, s, key, "")
	if len(preds) < 5 {
		t.Fatalf("%d vessels predicted under way of 60", len(preds))
	}
	var scored, right int
	var errs []float64
	var pick *read.Prediction
	for i, p := range preds {
		imo := mustIMO(t, p.IMONumber)
		asOf, _ := time.Parse(time.RFC3339, p.AsOf)
		next, in := trueNext(truth, imo, asOf)
		if len(p.NextPorts) == 0 || len(p.NextPorts) > 3 {
			t.Fatalf("%s: %d next ports", p.IMONumber, len(p.NextPorts))
		}
		sum := 0.0
		for _, n := range p.NextPorts {
			sum += n.Probability
			if n.ETALow > n.ETA || n.ETA > n.ETAHigh || n.PortName == "" {
				t.Errorf("%s: %+v", p.IMONumber, n)
			}
		}
		if sum > 1.0001 {
			t.Errorf("%s: probabilities sum to %.4f", p.IMONumber, sum)
		}
		if in || next == nil {
			continue
		}
		scored++
		if p.NextPorts[0].Port != next.Port {
			continue
		}
		right++
		errs = append(errs, math.Abs(ts(p.NextPorts[0].ETA).Sub(next.Arrival).Hours()))
		if pick == nil && p.NextPorts[0].DistanceNM > 300 {
			pick = &preds[i]
		}
	}
	sort.Float64s(errs)
	if scored < 5 || float64(right) < 0.75*float64(scored) || len(errs) == 0 || errs[len(errs)/2] > 6 {
		t.Fatalf("of %d vessels at sea with a true next call, %d had it first; median ETA error %v h", scored, right, errs)
	}
	if pick == nil {
		t.Fatal("no rightly predicted vessel 300 nm or more from its port")
	}

	// One vessel's prediction is the list's.
	res := do(key, "GET", "/v1/vessels/"+pick.IMONumber+"/prediction", "")
	expect(res, 200, `"prediction":`)
	var one struct{ Prediction read.Prediction }
	apptest.MustUnmarshal(t, res.Body, &one)
	// It adds each next port's route along the sea lanes, from the
	// vessel's position; the top port's (the vessel left a port and is on
	// its lane) ends in that port's area.
	for i, np := range one.Prediction.NextPorts {
		switch {
		case np.Route == nil:
			t.Errorf("next port %s: no route member", np.Port)
		case *np.Route != nil && (*np.Route)[0] != one.Prediction.Evidence.Position:
			t.Errorf("next port %s: the route starts at %v, the vessel is at %v", np.Port, (*np.Route)[0], one.Prediction.Evidence.Position)
		case i == 0:
			r := *np.Route
			if port, ok := seaport.BySlug(np.Port); len(r) < 2 || !ok || !port.Area.Contains(r[len(r)-1][0], r[len(r)-1][1]) {
				t.Errorf("the top next port %s: route %v does not end in its area", np.Port, r)
			}
		}
		one.Prediction.NextPorts[i].Route = nil
	}
	if a, b := mustJSON(t, one.Prediction), mustJSON(t, *pick); a != b {
		t.Errorf("GET /v1/vessels/%s/prediction:\n%s\nthe list has:\n%s", pick.IMONumber, a, b)
	}
	expect(do(key, "GET", "/v1/vessels/12345/prediction", ""), 400, "imo")
	expect(do(key, "GET", "/v1/vessels/9074729/prediction", ""), 404, "9074729")
	expect(do(key, "GET", "/v1/vessels/"+pick.IMONumber+"/prediction?as_of=2001-01-01T00:00:00Z", ""), 400, "as_of")
	expect(do(key, "GET", "/v1/predictions?bbox=1,2,3", ""), 400, "bbox")
	expect(do(key, "GET", "/v1/predictions?port="+pick.NextPorts[0].Port, ""), 200, pick.IMONumber)
	expect(do(key, "GET", "/v1/predictions?bbox=-180,-90,180,90&type="+*pick.Category, ""), 200, pick.IMONumber)

	// The port's expected arrivals list the vessel with its ETA.
	top := pick.NextPorts[0]
	res = do(key, "GET", "/v1/ports/"+top.Port+"/arrivals?days=30", "")
	expect(res, 200, `"arrivals":`)
	var arr struct{ Arrivals []read.Arrival }
	apptest.MustUnmarshal(t, res.Body, &arr)
	found := false
	for _, a := range arr.Arrivals {
		if a.IMONumber == pick.IMONumber {
			found = a.ETA == top.ETA && a.Probability == top.Probability && a.Category != nil && a.DWT != nil && *a.DWT > 1000
		}
	}
	if !found {
		t.Errorf("arrivals at %s: %s", top.Port, res.Body)
	}
	expect(do(key, "GET", "/v1/ports/atlantis/arrivals", ""), 404, "atlantis")
	expect(do(key, "GET", "/v1/ports/"+top.Port+"/arrivals?days=0", ""), 400, "days")

	// as_of: the answer as of T does not change when later data arrives,
	// while an as_of after that data sees it.
	at := r.End.Add(-4 * 24 * time.Hour)
	asOf := url.QueryEscape(at.Format(time.RFC3339))
	then := apptest.FetchPredictions(t, s, key, "as_of="+asOf)
	if len(then) == 0 {
		t.Fatal("nothing under way four days before the end")
	}
	x := then[0]
	before := do(key, "GET", "/v1/vessels/"+x.IMONumber+"/prediction?as_of="+asOf, "")
	expect(before, 200, `"as_of":"`+at.Format(time.RFC3339)+`"`)
	imoX := mustIMO(t, x.IMONumber)
	later := at.Add(30 * time.Minute)
	s.IngestReports(t, staticReport(imoX, mmsi[imoX], later, "NLRTM ROTTERDAM"),
		positionReport(mmsi[imoX], later.Add(time.Minute), x.Evidence.Position[0]+1, x.Evidence.Position[1]+1, 25))
	r.Command(t, io.Discard, "jobs", "--job", "port_calls")
	after := do(key, "GET", "/v1/vessels/"+x.IMONumber+"/prediction?as_of="+asOf, "")
	if !bytes.Equal(before.Body, after.Body) {
		t.Errorf("as of %s, before later data:\n%s\nafter:\n%s", at, before.Body, after.Body)
	}
	seen := do(key, "GET", "/v1/vessels/"+x.IMONumber+"/prediction?as_of="+url.QueryEscape(at.Add(time.Hour).Format(time.RFC3339)), "")
	if seen.StatusCode == 200 && !strings.Contains(string(seen.Body), `"declared":"NLRTM ROTTERDAM"`) {
		t.Errorf("as of an hour later, the later declaration is not seen: %s", seen.Body)
	}

	// eta_changed: the watched vessel is heard far back on its lane; the
	// next refresh moves its ETA by days, raising an alert and a signed
	// webhook.
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	expect(do(key, "PUT", "/v1/watchlist", `{"vessels":["`+pick.IMONumber+`"]}`), 200, pick.IMONumber)
	res = do(key, "POST", "/v1/webhooks", `{"url":"`+srv.URL+`","event_types":["eta_changed"]}`)
	expect(res, 201, `"eta_changed"`)
	var hook write.CreatedWebhook
	apptest.MustUnmarshal(t, res.Body, &struct{ Webhook *write.CreatedWebhook }{&hook})

	ctx := context.Background()
	t1 := testclock.Now().UTC().Truncate(time.Second).Add(time.Minute)
	if _, err := jobs.Predictions(s.Ch, func() time.Time { return t1 })(ctx, jobs.State{}); err != nil {
		t.Fatal(err)
	}
	route, err := sealane.Between(pick.Evidence.LastPort, top.Port)
	if err != nil {
		t.Fatal(err)
	}
	frac := 0.05
	if top.DistanceNM < route.DistanceNM/2 {
		frac = 0.3 // already near: put it back to 30% of the way
	}
	lat, lon, _ := route.PositionAt(route.DistanceNM * frac)
	imoP := mustIMO(t, pick.IMONumber)
	_, dataEnd, err := s.Ch.DataSpan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	heard := dataEnd.Add(time.Hour)
	s.IngestReports(t, staticReport(imoP, mmsi[imoP], heard, top.Port), positionReport(mmsi[imoP], heard.Add(time.Minute), lat, lon, pick.Evidence.SpeedKn))
	t2 := t1.Add(time.Minute)
	if _, err := jobs.Predictions(s.Ch, func() time.Time { return t2 })(ctx, jobs.State{}); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return t2.Add(time.Minute) }
	if _, err := jobs.Alerts(s.Pg, now, jobs.PredictionAlerts{Store: s.Ch, Hours: 6})(ctx, jobs.State{}); err != nil {
		t.Fatal(err)
	}
	res = do(key, "GET", "/v1/alerts?type=eta_changed", "")
	expect(res, 200, pick.IMONumber)
	if n := strings.Count(string(res.Body), `"type":"eta_changed"`); n != 1 {
		t.Errorf("%d eta_changed alerts (want the watched vessel's only): %s", n, res.Body)
	}
	_ = account
	poster := app.NewWebhookPoster(outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true}))
	if _, err := jobs.DeliverDue(ctx, s.Pg, poster, time.Now, 100); err != nil {
		t.Fatal(err)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.bodies) != 1 || !strings.Contains(string(rcv.bodies[0]), `"eta_changed"`) || !strings.Contains(string(rcv.bodies[0]), pick.IMONumber) {
		t.Fatalf("webhook deliveries: %q", rcv.bodies)
	}
	h := rcv.headers[0]
	sent, _ := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err := write.VerifyWebhook(hook.Secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"),
		rcv.bodies[0], time.Unix(sent, 0)); err != nil {
		t.Errorf("the delivery's signature: %v", err)
	}
}

// staticReport is a voyage report (type 5) naming the vessel and its
// destination.
func staticReport(imo overwatch.IMO, mmsi uint32, at time.Time, dest string) ingest.Report {
	return ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 5, TS: at, ReceivedAt: at,
		Has: ingest.HasIMO | ingest.HasDestination, IMO: imo, Destination: dest}
}

// positionReport is a class A position report under way.
func positionReport(mmsi uint32, at time.Time, lat, lon, sog float64) ingest.Report {
	return ingest.Report{Source: overwatch.SourceAISHub, MMSI: mmsi, Type: 1, TS: at, ReceivedAt: at,
		Has: ingest.HasPosition | ingest.HasSOG | ingest.HasCOG | ingest.HasNavStatus, Lat: lat, Lon: lon, SOG: sog, COG: 90, NavStatus: 0}
}
