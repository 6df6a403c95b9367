package market

import (
	"strings"
	"testing"
	"time"

	"overwatch/maritime/market"
)

func TestParseFREDRealFiles(t *testing.T) {
	pub := day("2025-02-03")
	cases := []struct {
		file, series, commodity, unit, freq string
		rows                                int
		date                                string
		value                               float64
	}{
		{"fred_PWHEAMTUSDM_wheat_monthly_legacy_DATE_header.csv", "PWHEAMTUSDM", "wheat", market.UnitUSDPerTonne, market.Monthly, 412, "2024-04-01", 208.3816845},
		{"fred_PWHEAMTUSDM_wheat_monthly_2000-2025.csv", "PWHEAMTUSDM", "wheat", market.UnitUSDPerTonne, market.Monthly, 301, "2024-04-01", 208.38168450000001},
		{"fred_PMAIZMTUSDM_maize_monthly_legacy_DATE_header.csv", "PMAIZMTUSDM", "maize", market.UnitUSDPerTonne, market.Monthly, 418, "2024-10-01", 189.587905861801},
		{"fred_PSOYBUSDM_soybeans_monthly_legacy_DATE_header.csv", "PSOYBUSDM", "soybeans", market.UnitUSDPerTonne, market.Monthly, 418, "1990-01-01", 209.8274827},
		{"fred_PSOYBUSDM_soybeans_monthly_1990-2025.csv", "PSOYBUSDM", "soybeans", market.UnitUSDPerTonne, market.Monthly, 421, "1990-01-01", 209.8274827},
		{"fred_POILBREUSDM_brent_monthly.csv", "POILBREUSDM", "crude_oil", market.UnitUSDPerBarrel, market.Monthly, 121, "2016-01-01", 32.04523809523810},
		{"fred_DCOILBRENTEU_brent_daily_legacy_dot_missing.csv", "DCOILBRENTEU", "crude_oil", market.UnitUSDPerBarrel, market.Daily, 945 - 38, "2010-01-19", 75.18},
		{"fred_DCOILBRENTEU_brent_daily_empty_missing.csv", "DCOILBRENTEU", "crude_oil", market.UnitUSDPerBarrel, market.Daily, 1305 - 41, "2021-04-27", 66.25},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, err := Parse(c.file, reader(readTestdata(t, c.file)), "", pub)
			if err != nil {
				t.Fatal(err)
			}
			if res.Kind != KindFRED || len(res.Prices) != c.rows {
				t.Fatalf("kind %s, %d prices, want %d", res.Kind, len(res.Prices), c.rows)
			}
			found := false
			for _, p := range res.Prices {
				if p.Series != c.series || p.Commodity != c.commodity || p.Unit != c.unit || p.Frequency != c.freq ||
					p.Source != "fred" || p.Currency != "USD" || !p.Published.Equal(pub) || p.Date.Location() != time.UTC {
					t.Fatalf("bad price %+v", p)
				}
				if p.Date.Equal(day(c.date)) {
					found = true
					if !approx(p.Value, c.value) {
						t.Errorf("%s = %v, want %v", c.date, p.Value, c.value)
					}
				}
			}
			if !found {
				t.Errorf("no price on %s", c.date)
			}
		})
	}
}

func TestFREDMissing(t *testing.T) {
	res, err := Parse("dots.csv", reader(readTestdata(t, "fred_DCOILBRENTEU_brent_daily_legacy_dot_missing.csv")), "", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Missing != 38 {
		t.Errorf("missing %d, want 38", res.Missing)
	}
	for _, p := range res.Prices {
		if p.Date.Equal(day("2010-01-18")) {
			t.Errorf("2010-01-18 is '.' in the file, got %v", p.Value)
		}
		if p.Value <= 0 {
			t.Errorf("%s: %v", p.Date, p.Value)
		}
	}
	res, err = Parse("empty.csv", reader(readTestdata(t, "fred_DCOILBRENTEU_brent_daily_empty_missing.csv")), "", time.Time{})
	if err != nil || res.Missing != 41 {
		t.Fatalf("missing %d, %v; want 41", res.Missing, err)
	}
	for _, p := range res.Prices {
		if p.Date.Equal(day("2021-05-03")) {
			t.Errorf("2021-05-03 is empty in the file, got %v", p.Value)
		}
	}
	// USD per tonne with the crude convention.
	if p := res.Prices[0]; !approx(p.USDPerTonne, 66.25*7.33) {
		t.Errorf("USD/t %v", p.USDPerTonne)
	}
}

// The legacy and the new header of the same series agree on shared dates.
func TestFREDLegacyAndNewAgree(t *testing.T) {
	for _, pair := range [][2]string{
		{"fred_PWHEAMTUSDM_wheat_monthly_legacy_DATE_header.csv", "fred_PWHEAMTUSDM_wheat_monthly_2000-2025.csv"},
		{"fred_PSOYBUSDM_soybeans_monthly_legacy_DATE_header.csv", "fred_PSOYBUSDM_soybeans_monthly_1990-2025.csv"},
	} {
		old, err := ParseFRED(reader(readTestdata(t, pair[0])), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		cur, err := ParseFRED(reader(readTestdata(t, pair[1])), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		byDate := map[time.Time]float64{}
		for _, p := range old {
			byDate[p.Date] = p.Value
		}
		shared := 0
		for _, p := range cur {
			if v, ok := byDate[p.Date]; ok {
				shared++
				if !approx(v, p.Value) && abs(v-p.Value) > 1e-6 {
					t.Errorf("%s %s: legacy %v, new %v", pair[1], p.Date.Format("2006-01-02"), v, p.Value)
				}
			}
		}
		if shared < 290 {
			t.Errorf("%s: only %d shared dates", pair[1], shared)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestFREDRefuses(t *testing.T) {
	good := "observation_date,PWHEAMTUSDM\n2024-01-01,200.5\n2024-02-01,201\n"
	if ps, err := ParseFRED(strings.NewReader(good), time.Time{}); err != nil || len(ps) != 2 {
		t.Fatalf("good file: %v %v", ps, err)
	}
	// FRED ends its last line too: one without a line feed is a download
	// cut short, even when it parses (2024-02-01,20 of 2024-02-01,201).
	if ps, err := ParseFRED(strings.NewReader(strings.TrimSuffix(good, "1\n")), time.Time{}); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("cut in the last value: %v %v", ps, err)
	}
	if ps, err := ParseFRED(strings.NewReader("\ufeffDATE,PWHEAMTUSDM\r\n2024-01-01,200.5\r\n"), time.Time{}); err != nil || len(ps) != 1 {
		t.Fatalf("BOM and CRLF: %v %v", ps, err)
	}
	for name, body := range map[string]string{
		"empty":        "",
		"html":         "<!DOCTYPE html><html><body>Error</body></html>",
		"header only":  "observation_date,PWHEAMTUSDM\n",
		"unknown":      "DATE,SP500\n2024-01-01,5000\n",
		"bad header":   "when,PWHEAMTUSDM\n2024-01-01,1\n",
		"truncated":    "observation_date,PWHEAMTUSDM\n2024-01-01,200.5\n2024-02-0",
		"truncated v":  "observation_date,PWHEAMTUSDM\n2024-01-01,200.5\n2024-02-01,20x",
		"bad date":     "observation_date,PWHEAMTUSDM\n01/02/2024,200.5\n",
		"NaN":          "observation_date,PWHEAMTUSDM\n2024-01-01,NaN\n",
		"Inf":          "observation_date,PWHEAMTUSDM\n2024-01-01,+Inf\n",
		"extra column": "observation_date,PWHEAMTUSDM\n2024-01-01,1,2\n",
		"text value":   "observation_date,PWHEAMTUSDM\n2024-01-01,n/a\n",
	} {
		if ps, err := ParseFRED(strings.NewReader(body), time.Time{}); err == nil {
			t.Errorf("%s: no error, %d prices", name, len(ps))
		}
	}
	_, err := ParseFRED(strings.NewReader("DATE,SP500\n"), time.Time{})
	if err == nil || !strings.Contains(err.Error(), "SP500") {
		t.Errorf("unknown series error %v does not name it", err)
	}
	_, err = ParseFRED(strings.NewReader("DATE,PWHEAMTUSDM\n2024-01-01,1\n2024-02-01,x\n"), time.Time{})
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %v does not name line 3", err)
	}
}

func TestInferFrequency(t *testing.T) {
	d := func(s ...string) []time.Time {
		var out []time.Time
		for _, x := range s {
			out = append(out, day(x))
		}
		return out
	}
	for want, dates := range map[string][]time.Time{
		market.Daily:     d("2024-01-05", "2024-01-08", "2024-01-09"),
		market.Weekly:    d("2024-01-05", "2024-01-12"),
		market.Monthly:   d("2024-01-01", "2024-02-01", "2024-03-01"),
		market.Quarterly: d("2024-01-01", "2024-04-01"),
		market.Annual:    d("2023-01-01", "2024-01-01"),
		"":               d("2024-01-01"),
	} {
		if got := inferFrequency(dates); got != want {
			t.Errorf("inferFrequency(%v) = %q, want %q", dates, got, want)
		}
	}
}
