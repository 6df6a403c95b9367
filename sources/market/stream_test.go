package market

import (
	"errors"
	"testing"
	"time"

	"overwatch/maritime/market"
)

func TestStreamMatchesParse(t *testing.T) {
	for _, file := range []string{
		wbFile, amsFile, "fred_DCOILBRENTEU_brent_daily_empty_missing.csv",
		"agtransport_ehs5-yac3_ocean_grain_rates_gulf_pnw_japan_monthly.json",
	} {
		want, err := Parse(file, reader(readTestdata(t, file)), "", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var ps []market.Price
		var rs []market.Rate
		batches := 0
		got, err := Stream(file, reader(readTestdata(t, file)), "", time.Time{}, func(p []market.Price, r []market.Rate) error {
			batches++
			if len(p) > BatchSize+100 || len(r) > BatchSize+100 {
				t.Errorf("batch of %d/%d", len(p), len(r))
			}
			ps, rs = append(ps, p...), append(rs, r...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Prices) != 0 || got.Missing != want.Missing || got.Skipped != want.Skipped || !got.Published.Equal(want.Published) {
			t.Errorf("%s: result %+v", file, got)
		}
		if len(ps) != len(want.Prices) || len(rs) != len(want.Rates) {
			t.Fatalf("%s: streamed %d/%d, parsed %d/%d", file, len(ps), len(rs), len(want.Prices), len(want.Rates))
		}
		for i := range ps {
			if ps[i] != want.Prices[i] && !(ps[i].Value == want.Prices[i].Value && ps[i].Date == want.Prices[i].Date && ps[i].Frequency == want.Prices[i].Frequency) {
				t.Fatalf("%s: price %d streamed %+v, parsed %+v", file, i, ps[i], want.Prices[i])
			}
		}
		if file == wbFile && batches < 4 {
			t.Errorf("world bank in %d batches", batches)
		}
	}
	stop := errors.New("stop")
	if _, err := Stream(wbFile, reader(readTestdata(t, wbFile)), "", time.Time{}, func([]market.Price, []market.Rate) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("emit error: %v", err)
	}
}
