package market

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/market"
)

// FRED serves a series as CSV at
// https://fred.stlouisfed.org/graph/fredgraph.csv?id=<ID>: a header line
// and one "date,value" line per observation. Until 2024 the header was
// `DATE,<ID>` and a missing value was `.`; since then it is
// `observation_date,<ID>` and a missing value is an empty field. Several
// series may share a file (one column each). The values are numbers with
// a series-dependent number of decimals.

// FREDSeries describes a FRED series the service carries.
type FREDSeries struct {
	Name      string // FRED's title
	Commodity string // service commodity name
	Unit      string // unit code
	Frequency string // FRED's stated frequency (the parser infers it from the dates)
}

// FREDKnown lists the FRED series the service carries; a file with any
// other series is refused, naming it.
var FREDKnown = map[string]FREDSeries{
	"PWHEAMTUSDM":  {"Global price of Wheat", "wheat", market.UnitUSDPerTonne, market.Monthly},
	"PMAIZMTUSDM":  {"Global price of Maize", "maize", market.UnitUSDPerTonne, market.Monthly},
	"PSOYBUSDM":    {"Global price of Soybeans", "soybeans", market.UnitUSDPerTonne, market.Monthly},
	"POILBREUSDM":  {"Global price of Brent Crude", "crude_oil", market.UnitUSDPerBarrel, market.Monthly},
	"DCOILBRENTEU": {"Crude Oil Prices: Brent - Europe", "crude_oil", market.UnitUSDPerBarrel, market.Daily},
	"DCOILWTICO":   {"Crude Oil Prices: West Texas Intermediate (WTI) - Cushing, Oklahoma", "crude_oil", market.UnitUSDPerBarrel, market.Daily},
}

var fredIDRE = regexp.MustCompile(`^[A-Z0-9_]{1,40}$`)

// ParseFRED reads a FRED CSV download (either header style) and returns
// its observations, oldest first as in the file. Missing values (`.` or
// empty) are left out. It fails, naming the line, on an empty body, an
// HTML page, an unknown series, a malformed or truncated line, a bad date
// or a non-finite value, and when no line has an observation.
func ParseFRED(r io.Reader, published time.Time) ([]market.Price, error) {
	res := Result{Published: published}
	if err := parseFRED(r, &res); err != nil {
		return nil, err
	}
	return res.Prices, nil
}

func parseFRED(r io.Reader, res *Result) error {
	br := bufio.NewReaderSize(limited(r), 64<<10)
	lineNo := 0
	var ids []string
	var dates []time.Time // of the first batch, to infer the frequency
	freq, inferred := "", false
	start := len(res.Prices)
	res.beforeFlush = func() {
		if !inferred {
			freq, inferred = inferFrequency(dates), true
			dates = nil
		}
		for i := start; i < len(res.Prices); i++ {
			if freq != "" {
				res.Prices[i].Frequency = freq
			}
		}
		start = 0
	}
	lines := 0
	for {
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("line %d: longer than 64 KiB", lineNo+1)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("line %d: %w", lineNo+1, err)
		}
		eof := err != nil
		complete := bytes.HasSuffix(raw, []byte("\n"))
		if len(raw) == 0 && eof {
			break
		}
		lineNo++
		line := strings.TrimRight(string(raw), "\r\n")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
			if ids, err = fredHeader(line); err != nil {
				return err
			}
		} else if strings.TrimSpace(line) != "" {
			// FRED ends every line, the last one too, with a line feed: a
			// last line without one is a download cut short, even where
			// what arrived parses ("2016-09-01,1" of "…,123.24").
			if !complete {
				return fmt.Errorf("line %d: truncated (no end of line)", lineNo)
			}
			d, err := fredLine(line, ids, res)
			if err != nil {
				return fmt.Errorf("line %d: %v", lineNo, err)
			}
			if !inferred {
				dates = append(dates, d)
			}
			lines++
			if err := res.flush(false); err != nil {
				return err
			}
		}
		if eof {
			break
		}
	}
	if lineNo == 0 {
		return fmt.Errorf("empty body")
	}
	if lines == 0 {
		return fmt.Errorf("line 2: no observations after the header")
	}
	res.beforeFlush()
	return nil
}

// fredHeader checks a FRED header and returns its series ids.
func fredHeader(line string) ([]string, error) {
	if strings.HasPrefix(strings.TrimSpace(line), "<") {
		return nil, fmt.Errorf("line 1: an HTML page, not a FRED CSV")
	}
	cols := strings.Split(line, ",")
	first := strings.ToLower(strings.TrimSpace(cols[0]))
	if first != "date" && first != "observation_date" || len(cols) < 2 {
		return nil, fmt.Errorf("line 1: header %q is not DATE,<SERIES> or observation_date,<SERIES>", trunc(line))
	}
	ids := make([]string, 0, len(cols)-1)
	for _, c := range cols[1:] {
		id := strings.ToUpper(strings.TrimSpace(c))
		if !fredIDRE.MatchString(id) {
			return nil, fmt.Errorf("line 1: %q is not a FRED series id", trunc(c))
		}
		if _, ok := FREDKnown[id]; !ok {
			return nil, fmt.Errorf("line 1: FRED series %s is not one the service carries", id)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// fredLine parses one observation line into res and returns its date.
func fredLine(line string, ids []string, res *Result) (time.Time, error) {
	cols := strings.Split(line, ",")
	if len(cols) != len(ids)+1 {
		return time.Time{}, fmt.Errorf("%d fields, want %d: %q", len(cols), len(ids)+1, trunc(line))
	}
	d, err := time.Parse("2006-01-02", strings.TrimSpace(cols[0]))
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q is not YYYY-MM-DD", trunc(cols[0]))
	}
	for i, id := range ids {
		s := strings.TrimSpace(cols[i+1])
		if s == "" || s == "." {
			res.Missing++
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return time.Time{}, fmt.Errorf("%s value %q is not a number", id, trunc(s))
		}
		k := FREDKnown[id]
		res.Prices = append(res.Prices, market.Price{
			Source: market.SourceFRED, Series: id, Name: k.Name, Commodity: k.Commodity,
			Date: d, Frequency: k.Frequency, Value: v, Unit: k.Unit, Currency: market.CurrencyUSD,
			USDPerTonne: market.ToUSDPerTonne(v, k.Unit, k.Commodity), Published: res.Published,
		})
	}
	return d, nil
}

// inferFrequency names the frequency of dates from their smallest
// positive spacing: 1–4 days daily (business days skip weekends), 5–8
// weekly, 28–31 monthly, 89–92 quarterly, 365–366 annual; "" when there
// are fewer than two distinct dates or the spacing fits none.
func inferFrequency(dates []time.Time) string {
	min := 0
	for i := 1; i < len(dates); i++ {
		d := int(dates[i].Sub(dates[i-1]).Hours() / 24)
		if d < 0 {
			d = -d
		}
		if d > 0 && (min == 0 || d < min) {
			min = d
		}
	}
	switch {
	case min == 0:
		return ""
	case min <= 4:
		return market.Daily
	case min <= 8:
		return market.Weekly
	case min >= 28 && min <= 31:
		return market.Monthly
	case min >= 89 && min <= 92:
		return market.Quarterly
	case min >= 365 && min <= 366:
		return market.Annual
	}
	return ""
}

// trunc shortens s for an error message.
func trunc(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
