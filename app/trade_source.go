package app

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

	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/maritime/tradestats"
	"overwatch/write/comtrade"
)

// tradeFlowsConfig is where the trade statistics are refreshed from: UN
// Comtrade API query URLs (whitespace-separated; empty or off: no
// refresh, the default), the subscription key sent with them (never
// logged) and how often.
type tradeFlowsConfig struct {
	URLs  []string
	Key   string
	Every time.Duration
}

// parseTradeURLs splits OVERWATCH_COMTRADE_URL: Comtrade queries carry
// commas (cmdCode=1201,1507), so URLs are separated by white space.
func parseTradeURLs(v string) []string {
	if strings.EqualFold(strings.TrimSpace(v), "off") {
		return nil
	}
	return strings.Fields(v)
}

// TradeWriter stores parsed trade flows (clickhouse.DB).
type TradeWriter interface {
	InsertTradeFlows(ctx context.Context, flows []tradestats.Flow) error
}

// comtradeKeyHeader is the header Comtrade's API gateway reads the
// subscription key from.
const comtradeKeyHeader = "Ocp-Apim-Subscription-Key"

// fetchTrade downloads one Comtrade answer (fetchSource), the API key in
// its header: never in an error or a log.
func fetchTrade(ctx context.Context, rawURL, key string) ([]byte, error) {
	return fetchSource(ctx, rawURL, fetchOptions{header: [2]string{comtradeKeyHeader, key}, maxBytes: comtrade.MaxBytes})
}

// tradeSource is the scheduled refresh of the trade statistics: each URL's
// answer is parsed whole and stored, or not at all. An answer that fails
// (timeout, 429, 5xx, an HTML page, a malformed body, an error in the
// envelope) keeps the flows last stored and fails the run, counted on
// /metrics as overwatch_job_failures_total{job="trade_flows_refresh"},
// after the other URLs are stored. An empty answer ("count":0) is no
// failure.
func tradeSource(store TradeWriter, cfg tradeFlowsConfig) jobs.Source {
	return jobs.SourceFunc(func(ctx context.Context, _ jobs.State) (jobs.Result, error) {
		res := jobs.Result{Watermark: time.Now().UTC(), Detail: map[string]any{}}
		var errs []error
		failed := 0
		for i, u := range cfg.URLs {
			body, err := fetchTrade(ctx, u, cfg.Key)
			var flows []tradestats.Flow
			if err == nil {
				flows, err = comtrade.Parse(bytes.NewReader(body), "comtrade api")
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

// tradeSources is the Comtrade refresh of the job table, with its source
// when the configuration turns it on.
func tradeSources(cfg tradeFlowsConfig, store TradeWriter) jobs.SourceRefresh {
	r := jobs.SourceRefresh{Every: cfg.Every, Setting: "OVERWATCH_COMTRADE_URL"}
	if len(cfg.URLs) > 0 {
		r.Source = tradeSource(store, cfg)
	}
	return r
}

// importTrade is `overwatch import trade FILE...`: Comtrade API answers
// (JSON) and bulk files (tab- or comma-separated, gzipped or not). Each
// file is parsed whole before it is stored: a bad file stores nothing of
// itself.
func importTrade(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, "usage: overwatch import trade FILE...   (UN Comtrade API JSON or bulk TSV/CSV, .gz too)\n")
		return ErrUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	for _, path := range args {
		if err := importTradeFile(ctx, ch, path, stdout); err != nil {
			return err
		}
	}
	return nil
}

// importTradeFile parses and stores one trade file.
func importTradeFile(ctx context.Context, store TradeWriter, path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	flows, err := comtrade.Parse(f, "import "+tradeFileName(path))
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
// from ../shared/data/trade; origins and checksums in
// samples/trade/README.md): Brazil's 2024 soybean-complex exports to
// China, China's 2024 soybean imports from Brazil (the mirror pair) and
// China's 2010 totals with Argentina and Germany. `overwatch run` loads
// them into an empty trade_flows table so that /v1/trade-flows answers
// out of the box, dated by their own periods.
//
//go:embed samples/trade/*.json
var tradeSamples embed.FS

// loadTradeSamples stores the bundled samples when trade_flows is empty;
// a sample that fails to load is logged and skipped.
func loadTradeSamples(ctx context.Context, ch *clickhouse.DB, log *slog.Logger) {
	n, err := ch.TradeFlowRows(ctx)
	if err != nil || n > 0 {
		if err != nil {
			log.Warn("trade samples: cannot count trade_flows", "err", err)
		}
		return
	}
	entries, err := tradeSamples.ReadDir("samples/trade")
	if err != nil {
		log.Warn("trade samples", "err", err)
		return
	}
	loaded := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		f, err := tradeSamples.Open("samples/trade/" + e.Name())
		if err != nil {
			continue
		}
		flows, err := comtrade.Parse(f, "sample "+e.Name())
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
