package http

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"overwatch"
	"overwatch/read"
)

// rowsFeed is a latest-position store held in a slice: every pass returns
// every row, stamped by the given clock.
type rowsFeed struct {
	rows []overwatch.LatestRow
	now  time.Time
}

func (f rowsFeed) LatestChanges(_ context.Context, _ time.Time, fn func(overwatch.LatestRow) error) (time.Time, error) {
	for _, r := range f.rows {
		if err := fn(r); err != nil {
			return time.Time{}, err
		}
	}
	return f.now, nil
}

// notStored and noAccounts stand for the stores of the routes the lookup's
// benchmark never calls: mounting them needs values, the public lookup
// reads neither.
type (
	notStored  struct{ read.Analytics }
	noAccounts struct{ Accounts }
)

// lookupFixture is the whole HTTP path of the public lookup (the guard,
// Fiber's router, the rate limit, the input check, the handler and its
// JSON-LD body) over a replica of vessels × 4 sources, driven without a
// socket: each request is parsed from its bytes as the server reads it.
type lookupFixture struct {
	handler fasthttp.RequestHandler
	reqs    [][]byte
}

func newLookupFixture(tb testing.TB, vessels int) *lookupFixture {
	now := time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC)
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	var rows []overwatch.LatestRow
	imos := make([]overwatch.IMO, vessels)
	for i := range vessels {
		first6 := uint32(100000 + i)
		imos[i] = overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
		for j, src := range overwatch.Sources {
			rows = append(rows, overwatch.LatestRow{
				IMO: imos[i], Source: src, TS: now.Add(-time.Duration(i%3600+j*60) * time.Second),
				MMSI: uint32(200000000 + i), VesselName: str(fmt.Sprintf("BENCH VESSEL %d", i)), VesselType: str("Bulk Carrier"),
				Flag: str("PA"), Lat: num(float64(i%180) - 89.5), Lon: num(float64(i%360) - 179.5), SpeedKt: num(12.3),
				CourseDeg: num(181.5), DraftM: num(11.2), Destination: str("CNQDG"), NavStatus: str("Under way using engine"),
			})
		}
	}
	clock := func() time.Time { return now }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	latest := read.NewLatestReplica(rowsFeed{rows: rows, now: now}, time.Hour, clock, log)
	if err := latest.Sync(context.Background()); err != nil {
		tb.Fatal(err)
	}
	lim := Limits{Store: NewMemoryRates(), Now: clock, PublicPerMinute: 1 << 30, PublicPerDay: 1 << 30, KeyedPerMinute: 1 << 30, EventsPerMinute: 1 << 30}
	app := NewApp(&Deps{
		Log: log, Now: clock, Latest: latest, Analytics: notStored{}, Accounts: noAccounts{},
		Limits: lim, Publisher: read.Publisher{Name: "Overwatch", URL: "http://localhost:8080"},
	})
	app.Handler() // builds the router's tree, as Listener does
	f := &lookupFixture{handler: app.Server().Handler}
	providers := []string{"aishub", "aisstream", "satellite", "spire", "any"}
	for i := range 1024 {
		path := fmt.Sprintf("/v1/ais/%s/%s/location/latest", providers[i%len(providers)], imos[(i*7919)%vessels])
		f.reqs = append(f.reqs, []byte("GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1:18089\r\n\r\n"))
	}
	return f
}

// serve answers one request as the server would on a kept-alive
// connection, into ctx.
func (f *lookupFixture) serve(tb testing.TB, ctx *fasthttp.RequestCtx, br *bufio.Reader, src *bytes.Reader, raw []byte) {
	ctx.Request.Reset()
	ctx.Response.Reset()
	src.Reset(raw)
	br.Reset(src)
	if err := ctx.Request.Read(br); err != nil {
		tb.Fatal(err)
	}
	f.handler(ctx)
	if ctx.Response.StatusCode() != 200 {
		tb.Fatalf("%s: %d %s", raw, ctx.Response.StatusCode(), ctx.Response.Body())
	}
}

func newLookupCtx() *fasthttp.RequestCtx {
	ctx := &fasthttp.RequestCtx{}
	ctx.Init2(nil, nil, false)
	ctx.SetRemoteAddr(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000})
	return ctx
}

// BenchmarkPublicLookup is the public lookup's whole HTTP path per
// request, over 10,000 vessels × 4 sources, random providers (the
// loadtest's mix), one client address.
func BenchmarkPublicLookup(b *testing.B) {
	f := newLookupFixture(b, 10000)
	ctx := newLookupCtx()
	src := bytes.NewReader(nil)
	br := bufio.NewReaderSize(src, 4096)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f.serve(b, ctx, br, src, f.reqs[i%len(f.reqs)])
	}
}
