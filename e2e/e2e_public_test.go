package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func latestRow(imo overwatch.IMO, src overwatch.Source, ts time.Time, lat, lon float64) overwatch.LatestRow {
	return overwatch.LatestRow{
		IMO: imo, Source: src, TS: ts.UTC().Truncate(time.Second), MMSI: 538000000 + uint32(imo)%100000,
		VesselName: apptest.Ptr("OCEAN TRADER"), VesselType: apptest.Ptr("Bulk Carrier"), Flag: apptest.Ptr("MH"),
		Lat: apptest.Ptr(lat), Lon: apptest.Ptr(lon), SpeedKt: apptest.Ptr(11.3), CourseDeg: apptest.Ptr(84.5), DraftM: apptest.Ptr(12.1),
		Destination: apptest.Ptr("CNQDG"), NavStatus: apptest.Ptr("Under way using engine"),
	}
}

// waitVisible waits until the server's replica serves the IMO.
func waitVisible(s *apptest.TestServer, t *testing.T, imo overwatch.IMO, provider string) {
	t.Helper()
	ip := apptest.FreshIP()
	apptest.Eventually(t, 10*time.Second, "row visible through the public surface", func() bool {
		resp, err := http.Get(fmt.Sprintf("%s/v1/ais/%s/%s/location/latest", s.Base, provider, imo.String()))
		_ = ip
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

func TestPublicLatestPosition(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "100000"})
	ctx := context.Background()
	imo, other := apptest.NextIMO(), apptest.NextIMO()
	reported := testclock.Now().Add(-2 * time.Minute).UTC().Truncate(time.Second)
	noCoords := latestRow(imo, overwatch.SourceSatellite, reported.Add(time.Minute), 0, 0)
	noCoords.Lat, noCoords.Lon = nil, nil
	bare := latestRow(other, overwatch.SourceNone, reported, -33.9, 18.4)
	bare.VesselName, bare.VesselType, bare.Flag, bare.SpeedKt, bare.CourseDeg, bare.DraftM, bare.Destination, bare.NavStatus =
		nil, nil, nil, nil, nil, nil, nil, nil
	if err := s.Ch.InsertLatest(ctx, []overwatch.LatestRow{
		latestRow(imo, overwatch.SourceAISHub, reported.Add(-time.Hour), 51.9, 4.1),
		latestRow(imo, overwatch.SourceSpire, reported, 52.0, 4.2),
		noCoords,
		bare,
	}); err != nil {
		t.Fatal(err)
	}
	// In cluster mode the two vessels may sit on different shards, each
	// read from a replica that may not have the row yet: wait for both.
	waitVisible(s, t, imo, "spire")
	waitVisible(s, t, other, "any")
	imoText := imo.String()
	ip := apptest.FreshIP()

	r := s.Do(t, apptest.Request{Path: "/v1/ais/spire/" + imoText + "/location/latest", IP: ip})
	if r.StatusCode != 200 {
		t.Fatalf("status %d: %s", r.StatusCode, r.Body)
	}
	var got map[string]any
	if err := json.Unmarshal(r.Body, &got); err != nil {
		t.Fatal(err)
	}
	fresh := got["freshness_seconds"].(float64)
	wantFresh := testclock.Since(reported).Seconds()
	if fresh < wantFresh-3 || fresh > wantFresh+1 || fresh != math.Trunc(fresh) {
		t.Errorf("freshness_seconds %v, want about %.0f", fresh, wantFresh)
	}
	ts := reported.Format(time.RFC3339)
	want := map[string]any{
		"@context": "https://schema.org", "@type": "GeoCoordinates", "imo_number": imoText,
		"vessel_name": "OCEAN TRADER", "vessel_type": "Bulk Carrier", "flag": "MH",
		"latitude": 52.0, "longitude": 4.2, "speed_kt": 11.3, "course_deg": 84.5, "draft_m": 12.1,
		"destination": "CNQDG", "nav_status": "Under way using engine", "timestamp": ts,
		"source": "spire", "freshness_seconds": fresh,
		"attribution": map[string]any{
			"name": "Overwatch Test", "url": "https://overwatch.test", "license": "CC-BY 4.0 with attribution",
			"cite_as": "Overwatch Test. AIS position of IMO " + imoText + " reported at " + ts + ". https://overwatch.test. Licensed CC-BY 4.0 with attribution.",
		},
	}
	if a, b := mustJSON(t, got), mustJSON(t, want); a != b {
		t.Errorf("body\n got %s\nwant %s", a, b)
	}
	if !strings.HasPrefix(string(r.Body), `{"@context":"https://schema.org","@type":"GeoCoordinates","imo_number":`) {
		t.Errorf("field order differs from the documented body: %.80s", r.Body)
	}
	for h, v := range map[string]string{
		"Cache-Control":                "public, max-age=60",
		"X-RateLimit-Limit-Minute":     "100000",
		"X-RateLimit-Remaining-Minute": "99999",
		"X-RateLimit-Limit-Day":        "100000",
		"X-RateLimit-Remaining-Day":    "99999",
		"Content-Type":                 "application/json",
	} {
		if got := r.Header.Get(h); got != v {
			t.Errorf("header %s = %q, want %q", h, got, v)
		}
	}
	// Go's client canonicalises header names; read the wire to check that
	// they are sent exactly as the README spells them.
	raw := rawGet(t, s.Base, "/v1/ais/spire/"+imoText+"/location/latest", ip)
	for _, h := range []string{"X-RateLimit-Limit-Minute: ", "X-RateLimit-Remaining-Minute: ", "X-RateLimit-Limit-Day: ", "X-RateLimit-Remaining-Day: ", "Cache-Control: public, max-age=60\r\n", "Access-Control-Allow-Origin: *\r\n"} {
		if !strings.Contains(raw, "\r\n"+h) {
			t.Errorf("response does not carry %q as spelled:\n%s", h, raw)
		}
	}

	// any: the freshest row with a position across sources.
	if r := s.Do(t, apptest.Request{Path: "/v1/ais/any/" + imoText + "/location/latest", IP: ip}); r.StatusCode != 200 || r.JSON(t)["source"] != "spire" {
		t.Errorf("any: %d %s", r.StatusCode, r.Body)
	}
	// The named provider with older data is still served: stale is not missing.
	if r := s.Do(t, apptest.Request{Path: "/v1/ais/aishub/" + imoText + "/location/latest", IP: ip}); r.StatusCode != 200 || r.JSON(t)["latitude"] != 51.9 {
		t.Errorf("aishub: %d %s", r.StatusCode, r.Body)
	}
	notFound := func(provider, imo string) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/ais/" + provider + "/" + imo + "/location/latest", IP: ip})
		want := `{"error":"no recent position","imo_number":"` + imo + `","provider":"` + provider + `"}`
		if r.StatusCode != 404 || string(r.Body) != want {
			t.Errorf("%s/%s: %d %s, want 404 %s", provider, imo, r.StatusCode, r.Body, want)
		}
		if r.Header.Get("Cache-Control") != "" {
			t.Errorf("a 404 is cacheable: %q", r.Header.Get("Cache-Control"))
		}
	}
	notFound("satellite", imoText) // the row has null coordinates
	notFound("aisstream", imoText) // no row from that source
	notFound("any", "0000001")     // no such vessel
	notFound("any", "9321484")     // seven digits whose check digit fails: no vessel
	notFound("spire", other.String())

	// A row ingested before source attribution: source is null, the rest too.
	r = s.Do(t, apptest.Request{Path: "/v1/ais/any/" + other.String() + "/location/latest", IP: ip})
	if r.StatusCode != 200 {
		t.Fatalf("unattributed row: %d %s", r.StatusCode, r.Body)
	}
	for _, k := range []string{"source", "vessel_name", "vessel_type", "flag", "speed_kt", "course_deg", "draft_m", "destination", "nav_status"} {
		if v, ok := r.JSON(t)[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPublicErrors(t *testing.T) {
	s := apptest.StartServer(t, nil)
	ip := apptest.FreshIP()
	unknown := func(provider, imo string) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/ais/" + provider + "/" + imo + "/location/latest", IP: ip})
		want := `{"error":"unknown provider '` + provider + `'","allowed":["aishub","aisstream","satellite","spire","any"]}`
		if r.StatusCode != 400 || string(r.Body) != want {
			t.Errorf("%s/%s: %d %s, want 400 %s", provider, imo, r.StatusCode, r.Body, want)
		}
	}
	unknown("marinetraffic", "9321483")
	unknown("AISHUB", "9321483")
	unknown("marinetraffic", "12") // both invalid: the provider error wins
	badIMO := func(imo string) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/ais/aishub/" + imo + "/location/latest", IP: ip})
		if r.StatusCode != 400 || string(r.Body) != `{"error":"imo must be a 7-digit IMO number"}` {
			t.Errorf("imo %q: %d %s", imo, r.StatusCode, r.Body)
		}
	}
	for _, imo := range []string{"932148", "93214830", "93214a3", "abcdefg", "%2B321483", "-321483"} {
		badIMO(imo)
	}
	// Preflight: always 204 with exactly the three CORS headers.
	for _, path := range []string{"/v1/ais/aishub/9321483/location/latest", "/v1/ais/bogus/1/location/latest"} {
		r := s.Do(t, apptest.Request{Method: http.MethodOptions, Path: path, IP: ip})
		if r.StatusCode != 204 || len(r.Body) != 0 ||
			r.Header.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" ||
			r.Header.Get("Access-Control-Allow-Headers") != "Content-Type" {
			t.Errorf("OPTIONS %s: %d %v", path, r.StatusCode, r.Header)
		}
		for h := range r.Header {
			if strings.HasPrefix(h, "Access-Control-") && h != "Access-Control-Allow-Origin" && h != "Access-Control-Allow-Methods" && h != "Access-Control-Allow-Headers" {
				t.Errorf("OPTIONS sends an extra CORS header %s", h)
			}
		}
	}
}

func TestPublicRateLimits(t *testing.T) {
	s := apptest.StartServer(t, nil)
	ip := apptest.FreshIP()
	path := "/v1/ais/any/9999998/location/latest"
	first := time.Now()
	for i := 1; i <= 60; i++ {
		r := s.Do(t, apptest.Request{Path: path, IP: ip})
		if r.StatusCode != 404 {
			t.Fatalf("request %d: %d %s", i, r.StatusCode, r.Body)
		}
		if got := r.Header.Get("X-RateLimit-Remaining-Minute"); got != strconv.Itoa(60-i) {
			t.Fatalf("request %d: remaining %s", i, got)
		}
	}
	r := s.Do(t, apptest.Request{Path: path, IP: ip})
	if r.StatusCode != 429 || string(r.Body) != `{"error":"rate limit exceeded","limit_per_minute":60,"limit_per_day":1000}` {
		t.Fatalf("61st: %d %s", r.StatusCode, r.Body)
	}
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	elapsed := time.Since(first).Seconds()
	if err != nil || retry < 1 || retry > 60 || float64(retry) < 60-elapsed-1 {
		t.Errorf("Retry-After %q after %.1f s of the window", r.Header.Get("Retry-After"), elapsed)
	}
	if r.Header.Get("X-RateLimit-Remaining-Minute") != "0" || r.Header.Get("X-RateLimit-Remaining-Day") != "940" {
		t.Errorf("429 headers: %v", r.Header)
	}
	// Another client is not affected; a spoofed X-Forwarded-For from an
	// untrusted peer is ignored (tested in clientip_test.go).
	if r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP()}); r.StatusCode != 404 {
		t.Errorf("another client: %d", r.StatusCode)
	}

	// 200 concurrent requests from one new client: exactly 60 admitted.
	ip = apptest.FreshIP()
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.Do(t, apptest.Request{Path: path, IP: ip})
			mu.Lock()
			statuses[r.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[404] != 60 || statuses[429] != 140 {
		t.Fatalf("200 concurrent requests: %v, want 60 admitted and 140 refused", statuses)
	}
}

func TestPublicDailyLimitRetryAfter(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_PUBLIC_LIMIT_PER_DAY": "3"})
	ip := apptest.FreshIP()
	for i := 0; i < 3; i++ {
		s.Do(t, apptest.Request{Path: "/v1/ais/any/9999998/location/latest", IP: ip})
	}
	r := s.Do(t, apptest.Request{Path: "/v1/ais/any/9999998/location/latest", IP: ip})
	if r.StatusCode != 429 || string(r.Body) != `{"error":"rate limit exceeded","limit_per_minute":60,"limit_per_day":3}` {
		t.Fatalf("4th: %d %s", r.StatusCode, r.Body)
	}
	now := testclock.Now().UTC()
	untilMidnight := now.Truncate(24 * time.Hour).Add(24 * time.Hour).Sub(now).Seconds()
	retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if math.Abs(float64(retry)-untilMidnight) > 3 {
		t.Errorf("Retry-After %d, want about %.0f (the end of the UTC day)", retry, untilMidnight)
	}
}

func TestSharedRateLimitsAcrossInstances(t *testing.T) {
	env := map[string]string{"OVERWATCH_RATE_LIMIT_STORE": "postgres", "OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "10"}
	a, b := apptest.StartServer(t, env), apptest.StartServer(t, env)
	ip := apptest.FreshIP()
	var admitted, refused int
	for i := 0; i < 16; i++ {
		s := a
		if i%2 == 1 {
			s = b
		}
		switch s.Do(t, apptest.Request{Path: "/v1/ais/any/9999998/location/latest", IP: ip}).StatusCode {
		case 404:
			admitted++
		case 429:
			refused++
		}
	}
	if admitted != 10 || refused != 6 {
		t.Fatalf("two instances admitted %d and refused %d, want 10 and 6", admitted, refused)
	}
}

func TestLookupFailsWhenClickHouseIsUnreachable(t *testing.T) {
	chURL, _ := apptest.Stores(t)
	server := strings.TrimPrefix(chURL, "clickhouse://")
	host, db, _ := strings.Cut(server, "/")
	host, _, _ = strings.Cut(host, ",") // in cluster mode: through the first node only
	proxy := chtest.NewProxy(t, host)
	s := apptest.StartServer(t, map[string]string{
		"CLICKHOUSE_URL":                    "clickhouse://" + proxy.Addr + "/" + db,
		"OVERWATCH_LATEST_MAX_STALENESS":    "1s",
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "100000",
	})
	imo := apptest.NextIMO()
	if err := s.Ch.InsertLatest(context.Background(), []overwatch.LatestRow{latestRow(imo, overwatch.SourceAISHub, testclock.Now(), 1, 2)}); err != nil {
		t.Fatal(err)
	}
	waitVisible(s, t, imo, "aishub")
	path := "/v1/ais/aishub/" + imo.String() + "/location/latest"
	ip := apptest.FreshIP()

	proxy.Cut()
	apptest.Eventually(t, 15*time.Second, "500 once ClickHouse is unreachable", func() bool {
		return s.Do(t, apptest.Request{Path: path, IP: ip}).StatusCode == 500
	})
	r := s.Do(t, apptest.Request{Path: path, IP: ip})
	if r.StatusCode != 500 || string(r.Body) != `{"error":"lookup failed"}` {
		t.Fatalf("%d %s", r.StatusCode, r.Body)
	}
	h := s.Do(t, apptest.Request{Path: "/v1/health", IP: ip})
	if h.StatusCode != 503 || h.JSON(t)["status"] != "degraded" || h.JSON(t)["positions"] != nil {
		t.Errorf("health while ClickHouse is down: %d %s", h.StatusCode, h.Body)
	}

	proxy.Restore(t)
	apptest.Eventually(t, 15*time.Second, "200 again once ClickHouse is back", func() bool {
		return s.Do(t, apptest.Request{Path: path, IP: ip}).StatusCode == 200
	})
}

// rawGet sends a GET over a plain TCP connection and returns the response
// head as sent on the wire.
func rawGet(t *testing.T, base, path, ip string) string {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: %s\r\nConnection: close\r\n\r\n", path, ip)
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "\r\n\r\n")
	return head
}
