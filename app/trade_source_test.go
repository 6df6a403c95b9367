package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"overwatch/jobs/jobstest"
	tradesource "overwatch/sources/comtrade"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/jobs"
	"overwatch/read"
)

// The trade refresh job against a local server serving the real Comtrade
// answers and each failure (5xx, 429 with Retry-After, an HTML page, a
// malformed body, an error in the envelope), on the real ClickHouse: a
// failure fails the run and keeps the flows last stored; the key goes in
// the Ocp-Apim-Subscription-Key header and never into an error; an empty
// answer is no failure.
func TestTradeJob(t *testing.T) {
	const key = "secret-comtrade-key"
	real, err := os.ReadFile("../sources/comtrade/samples/comtrade_v1_get_C_A_HS_r76_p156_cmd1201_X_2024_brazil_soy_exports_to_china.json")
	if err != nil {
		t.Fatal(err)
	}
	empty, err := os.ReadFile("../sources/comtrade/testdata/comtrade_bulk_v1_get_C_A_HS_empty_result.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	mode, gotKey := "ok", ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		m := mode
		gotKey = r.Header.Get(tradesource.KeyHeader)
		mu.Unlock()
		if r.URL.Path == "/empty" {
			w.Write(empty)
			return
		}
		switch m {
		case "5xx":
			http.Error(w, "down", http.StatusServiceUnavailable)
		case "429":
			w.Header().Set("Retry-After", "60")
			http.Error(w, "quota", http.StatusTooManyRequests)
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!DOCTYPE html><html>maintenance</html>"))
		case "bad":
			w.Write(real[:len(real)/2])
		case "apierror":
			w.Write([]byte(`{"elapsedTime":"0 secs","count":0,"data":[],"error":"Invalid subscription key"}`))
		default:
			w.Write(real)
		}
	}))
	defer srv.Close()
	db := chtest.DB(t, "trade_job")
	ctx := context.Background()
	cfg := tradesource.Config{URLs: tradesource.ParseURLs(srv.URL + "/data/v1/get/C/A/HS?reporterCode=76&cmdCode=1201,1507 " + srv.URL + "/empty"), Key: key}
	if len(cfg.URLs) != 2 || len(tradesource.ParseURLs("off")) != 0 || tradeSources(tradesource.Config{}, db).Refresh != nil {
		t.Fatalf("urls %v", cfg.URLs)
	}
	cfg.Every = time.Hour
	job := jobstest.RefreshJob(t, jobs.Sources{TradeFlows: tradeSources(cfg, db)})
	res, err := job.Run(ctx, jobs.State{})
	if err != nil || res.Rows != 1 || gotKey != key {
		t.Fatalf("ok run: %+v %v (key sent %q)", res, err, gotKey)
	}
	count := func() int {
		fl, err := db.TradeFlows(ctx, read.TradeFlowsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return len(fl)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d flows", n)
	}
	for _, m := range []string{"5xx", "429", "html", "bad", "apierror"} {
		mu.Lock()
		mode = m
		mu.Unlock()
		_, err := job.Run(ctx, jobs.State{})
		if err == nil {
			t.Errorf("%s: no error", m)
			continue
		}
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "reporterCode") {
			t.Errorf("%s: the error shows the key or the query: %v", m, err)
		}
		if m == "429" && !strings.Contains(err.Error(), "Retry-After 60") {
			t.Errorf("429: %v", err)
		}
		if n := count(); n != 1 {
			t.Errorf("%s: %d flows kept, want 1", m, n)
		}
	}
}

// The bundled samples load into an empty trade_flows table only (what
// `overwatch run` does at start).
func TestLoadTradeSamples(t *testing.T) {
	db := chtest.DB(t, "trade_samples")
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tradesource.LoadSamples(ctx, db, log)
	flows, err := db.TradeFlows(ctx, read.TradeFlowsRequest{})
	if err != nil || len(flows) != 8 {
		t.Fatalf("%d flows %v, want the 8 distinct flows of the 4 samples", len(flows), err)
	}
	n, _ := db.TradeFlowRows(ctx)
	tradesource.LoadSamples(ctx, db, log)
	if again, _ := db.TradeFlowRows(ctx); again != n {
		t.Errorf("loaded twice: %d rows", again)
	}
}
