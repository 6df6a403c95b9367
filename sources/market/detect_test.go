package market

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestDetect(t *testing.T) {
	for file, want := range map[string]Kind{
		"fred_PWHEAMTUSDM_wheat_monthly_legacy_DATE_header.csv": KindFRED,
		"fred_POILBREUSDM_brent_monthly.csv":                    KindFRED,
		wbFile:                                                  KindWorldBank,
		amsFile:                                                 KindAMS,
		"agtransport_2n8s-739j_ukraine_black_sea_ocean_grain_rates_quarterly.json": KindAgTransport,
		"constructed_agtransport_fxkn-2w9c_grain_truck_rates_layout.json":          KindAgTransport,
	} {
		b := readTestdata(t, file)
		if got, err := Detect(file, b[:min(len(b), 4096)]); err != nil || got != want {
			t.Errorf("Detect(%s) = %q, %v; want %q", file, got, err, want)
		}
	}
	for name, head := range map[string]string{
		"x.csv": "", "y.csv": "   \n", "page.csv": "<!DOCTYPE html>", "x.xlsx": "not a zip",
		"x.json": `{"message":"no"}`, "x.txt": "hello,world\n",
	} {
		if got, err := Detect(name, []byte(head)); err == nil {
			t.Errorf("Detect(%s, %q) = %q, want an error", name, head, got)
		}
	}
}

func TestParsePricesAndRates(t *testing.T) {
	ps, err := ParsePrices(amsFile, reader(readTestdata(t, amsFile)))
	if err != nil || len(ps) != 44 {
		t.Fatalf("%d prices, %v", len(ps), err)
	}
	rs, err := ParseRates("x.json", reader(readTestdata(t, "agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json")))
	if err != nil || len(rs) != 40 {
		t.Fatalf("%d rates, %v", len(rs), err)
	}
	if _, err := ParsePrices("x.json", reader(readTestdata(t, "agtransport_deqi-uken_barge_rates_pct_tariff_2026w28-w33.json"))); err == nil {
		t.Error("rates accepted as prices")
	}
	if _, err := ParseRates(amsFile, reader(readTestdata(t, amsFile))); err == nil {
		t.Error("prices accepted as rates")
	}
	if rs, err := ParseRates("bom.json", strings.NewReader("\ufeff[{\"date\":\"2026-07-01T00:00:00.000\",\"gulf_to_japan\":\"60\"}]")); err != nil || len(rs) != 1 {
		t.Errorf("BOM: %v %v", rs, err)
	}
	if _, err := ParsePrices("big.csv", &endless{}); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("endless body: %v", err)
	}
}

// endless is an unending FRED file.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		e.n++
		return copy(p, "DATE,PWHEAMTUSDM\n"), nil
	}
	line := strings.Repeat(" ", 4000) + "\n" // blank lines: no observations to hold
	n := 0
	for n+len(line) <= len(p) {
		n += copy(p[n:], line)
	}
	return n, nil
}

func TestTooLargeIsErrTooLarge(t *testing.T) {
	for _, head := range []string{"[", `{"results":[`} {
		r := io.MultiReader(strings.NewReader(head), &spaces{})
		if _, err := Parse("big.json", r, "", time.Time{}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v", head, err)
		}
	}
	if _, err := Parse("big.csv", &endless{}, "", time.Time{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("csv: %v", err)
	}
}

// spaces is an unending run of JSON white space.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
