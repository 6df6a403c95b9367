package market

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const amsFile = "ams_mars_v1.2_report3147_gulf_export_bids_2026-08-11.json"

func TestParseAMSRealFile(t *testing.T) {
	res, err := Parse(amsFile, reader(readTestdata(t, amsFile)), "", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != KindAMS || len(res.Prices) != 44 || !res.Published.Equal(day("2026-08-11")) {
		t.Fatalf("kind %s, %d prices, published %v", res.Kind, len(res.Prices), res.Published)
	}
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, p := range res.Prices {
		counts[p.Series]++
		k := p.Series + "|" + p.Detail
		if seen[k] {
			t.Errorf("duplicate key %s", k)
		}
		seen[k] = true
		if p.Source != "usda_ams" || !p.Date.Equal(day("2026-08-11")) || !p.Published.Equal(day("2026-08-11")) || p.Name != "Louisiana and Texas Export Bids" {
			t.Fatalf("bad price %+v", p)
		}
	}
	for s, n := range map[string]int{
		"ams_3147:soybeans:basis": 7, "ams_3147:soybeans:price": 7, "ams_3147:maize:basis": 7,
		"ams_3147:maize:price": 7, "ams_3147:wheat:basis": 8, "ams_3147:wheat:price": 8,
	} {
		if counts[s] != n {
			t.Errorf("%s: %d prices, want %d", s, counts[s], n)
		}
	}
	// The first soybean row: basis 100 to 102 over November (X), delivery September last half.
	var basis, price, current bool
	for _, p := range res.Prices {
		if p.Series == "ams_3147:soybeans:basis" && strings.HasPrefix(p.Detail, "basis vs November (X) futures, delivery 2026-09-01 last half") {
			basis = true
			if p.Value != 101 || p.Unit != "usd_cents_per_bushel" || !approx(p.USDPerTonne, 1.01*1000/27.2155422) ||
				!strings.Contains(p.Detail, "Gulf Coast Ports - LA") || !strings.Contains(p.Detail, "US #1") {
				t.Errorf("soybean basis %+v", p)
			}
		}
		if p.Series == "ams_3147:soybeans:price" && p.Detail == "cash bid, delivery 2026-09-01 first half, US #1, C.I.F. barge, Gulf Coast Ports - LA" {
			price = true
			if p.Value != 12.6875 || p.Unit != "usd_per_bushel" || !approx(p.USDPerTonne, 12.6875*1000/27.2155422) {
				t.Errorf("soybean price %+v", p)
			}
		}
		if p.Series == "ams_3147:wheat:basis" && strings.Contains(p.Detail, "delivery current") {
			current = true
			if p.Value != 40 || !strings.Contains(p.Detail, "Soft Red Winter") || !strings.Contains(p.Detail, "protein Ordinary") {
				t.Errorf("wheat current basis %+v", p)
			}
		}
	}
	if !basis || !price || !current {
		t.Errorf("soybean basis found %v, price found %v, wheat current basis %v", basis, price, current)
	}
}

func TestAMSRefuses(t *testing.T) {
	real := string(readTestdata(t, amsFile))
	trunc := strings.Replace(real, `"totalRows": 22`, `"totalRows": 40`, 1)
	if _, err := ParseAMSReport(strings.NewReader(trunc), time.Time{}); !errors.Is(err, ErrTruncated) {
		t.Errorf("returnedRows < totalRows: %v", err)
	}
	short := strings.Replace(real, `"returnedRows": 22`, `"returnedRows": 23`, 1)
	if _, err := ParseAMSReport(strings.NewReader(short), time.Time{}); err == nil || !strings.Contains(err.Error(), "returnedRows") {
		t.Errorf("returnedRows != results: %v", err)
	}
	for name, body := range map[string]string{
		"cut":       real[:len(real)/2],
		"no stats":  `{"results":[]}`,
		"no result": `{"stats":{"returnedRows":0,"totalRows":0}}`,
		"error":     `{"message":"Unauthorized"}`,
		"array":     `[]`,
		"bad date":  `{"stats":{"returnedRows":1,"totalRows":1},"results":[{"commodity":"Corn","report_date":"2026-08-11","avg_price":5}]}`,
		"bad num":   `{"stats":{"returnedRows":1,"totalRows":1},"results":[{"commodity":"Corn","report_date":"08/11/2026","avg_price":"five"}]}`,
		"trailing":  `{"stats":{"returnedRows":0,"totalRows":0},"results":[]} {}`,
	} {
		if _, err := ParseAMSReport(strings.NewReader(body), time.Time{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	_, err := ParseAMSReport(strings.NewReader(`{"stats":{"returnedRows":2,"totalRows":2},"results":[{"commodity":"Corn","report_date":"08/11/2026"},{"commodity":"Corn","report_date":"x"}]}`), time.Time{})
	if err == nil || !strings.Contains(err.Error(), "result 2") {
		t.Errorf("error %v does not name result 2", err)
	}
	// Stats after the results, an unknown commodity skipped, an empty row missing.
	res := Result{}
	err = parseAMS(strings.NewReader(`{"results":[{"commodity":"Sorghum","report_date":"08/11/2026","avg_price":4},{"commodity":"Oats","report_date":"08/11/2026"},{"commodity":"Corn","report_date":"08/11/2026"}],"stats":{"returnedRows":3,"totalRows":3}}`), &res)
	if err != nil || len(res.Prices) != 1 || res.Skipped != 1 || res.Missing != 1 {
		t.Errorf("%+v %v", res, err)
	}
}
