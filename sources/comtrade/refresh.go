package comtrade

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"overwatch/maritime/tradestats"
	"overwatch/sources"
)

// Config is where the trade statistics are refreshed from: UN Comtrade
// API query URLs (OVERWATCH_COMTRADE_URL, whitespace-separated; empty or
// off: no refresh, the default), the subscription key sent with them
// (OVERWATCH_COMTRADE_API_KEY, never logged) and how often
// (OVERWATCH_COMTRADE_REFRESH).
type Config struct {
	URLs  []string
	Key   string
	Every time.Duration
	// Failures counts the failed fetches (nil: not counted).
	Failures *sources.Failures
}

// ParseURLs splits OVERWATCH_COMTRADE_URL: Comtrade queries carry
// commas (cmdCode=1201,1507), so URLs are separated by white space.
func ParseURLs(v string) []string {
	if strings.EqualFold(strings.TrimSpace(v), "off") {
		return nil
	}
	return strings.Fields(v)
}

// Writer stores parsed trade flows (clickhouse.DB).
type Writer interface {
	InsertTradeFlows(ctx context.Context, flows []tradestats.Flow) error
}

// KeyHeader is the header Comtrade's API gateway reads the
// subscription key from.
const KeyHeader = "Ocp-Apim-Subscription-Key"

// fetch downloads one Comtrade answer (sources.Get), the API key in its
// header: never in an error or a log.
func fetch(ctx context.Context, failures *sources.Failures, rawURL, key string) ([]byte, error) {
	return sources.Get(ctx, failures, "comtrade", rawURL, sources.Options{Header: [2]string{KeyHeader, key}, MaxBytes: MaxBytes})
}

// Flows is the scheduled refresh of the trade statistics: each URL's
// answer is parsed whole and stored, or not at all. An answer that fails
// (timeout, 429, 5xx, an HTML page, a malformed body, an error in the
// envelope) keeps the flows last stored and fails the run, counted on
// /metrics as overwatch_job_failures_total{job="trade_flows_refresh"},
// after the other URLs are stored. An empty answer ("count":0) is no
// failure.
func Flows(store Writer, cfg Config) sources.Refresh {
	return sources.Refresh(func(ctx context.Context) (sources.Result, error) {
		res := sources.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		var errs []error
		failed := 0
		for i, u := range cfg.URLs {
			body, err := fetch(ctx, cfg.Failures, u, cfg.Key)
			var flows []tradestats.Flow
			if err == nil {
				flows, err = Parse(bytes.NewReader(body), "comtrade api")
			}
			if err == nil && len(flows) > 0 {
				err = store.InsertTradeFlows(ctx, flows)
			}
			if err != nil {
				failed++
				errs = append(errs, fmt.Errorf("url %d: %w", i+1, err))
				continue
			}
			res.Rows += len(flows)
		}
		res.Detail["urls"], res.Detail["failed"], res.Detail["flows"] = len(cfg.URLs), failed, res.Rows
		return res, errors.Join(errs...)
	})
}

// ImportFile parses and stores one trade file (`overwatch import trade`),
// whole or not at all, and says what it stored on stdout.
func ImportFile(ctx context.Context, store Writer, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	flows, err := Parse(f, "import "+tradeFileName(path))
	f.Close()
	if err == nil && len(flows) > 0 {
		err = store.InsertTradeFlows(ctx, flows)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "%s: %d trade flows imported\n", path, len(flows))
	return nil
}

func tradeFileName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// tradeSamples are real UN Comtrade API answers (copied byte for byte
// from ../shared/data/trade; origins and checksums in samples/README.md): Brazil's 2024 soybean-complex exports to
// China, China's 2024 soybean imports from Brazil (the mirror pair) and
// China's 2010 totals with Argentina and Germany. `overwatch run` loads
// them into an empty trade_flows table so that /v1/trade-flows answers
// out of the box, dated by their own periods.
//
//go:embed samples/*.json
var tradeSamples embed.FS

// SampleStore is the trade_flows table the samples fill when it is empty
// (clickhouse.DB).
type SampleStore interface {
	Writer
	TradeFlowRows(ctx context.Context) (uint64, error)
}

// LoadSamples stores the bundled samples when trade_flows is empty; a
// sample that fails to load is logged and skipped.
func LoadSamples(ctx context.Context, ch SampleStore, log *slog.Logger) {
	n, err := ch.TradeFlowRows(ctx)
	if err != nil || n > 0 {
		if err != nil {
			log.Warn("trade samples: cannot count trade_flows", "err", err)
		}
		return
	}
	entries, err := tradeSamples.ReadDir("samples")
	if err != nil {
		log.Warn("trade samples", "err", err)
		return
	}
	loaded := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		f, err := tradeSamples.Open("samples/" + e.Name())
		if err != nil {
			continue
		}
		flows, err := Parse(f, "sample "+e.Name())
		f.Close()
		if err == nil {
			err = ch.InsertTradeFlows(ctx, flows)
		}
		if err != nil {
			log.Warn("trade samples: not loaded", "file", e.Name(), "err", err)
			continue
		}
		loaded += len(flows)
	}
	if loaded > 0 {
		log.Info("trade samples loaded (UN Comtrade answers for 2010 and 2024; imports replace them)", "flows", loaded)
	}
}
