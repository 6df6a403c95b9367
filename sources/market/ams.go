package market

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"overwatch/maritime/market"
)

// USDA AMS Market News serves a report through the MARS API,
// https://marsapi.ams.usda.gov/services/v1.2/reports/<slug> (report 3147
// is "Louisiana and Texas Export Bids"), as a JSON object
// {reportSection, stats{returnedRows, userAllowedRows, totalRows},
// results[...]}. A result row names its commodity, its basis bid in cents
// per bushel over a futures month ("basis Min", "basis Max Futures
// Month": field names with spaces and capitals), its cash price in
// dollars per bushel, and its delivery window.

// ErrTruncated is returned for an AMS report whose stats say rows were
// left out (returnedRows < totalRows, e.g. over the caller's
// userAllowedRows): importing part of an issue would leave a half series,
// so the whole report is refused.
var ErrTruncated = errors.New("truncated report: returnedRows < totalRows")

// ParseAMSReport reads a MARS v1.2 report response and returns, per
// result row of a carried commodity, its basis bid (the midpoint of
// "basis Min" and "basis Max", Unit usd_cents_per_bushel, series
// ams_<slug>:<commodity>:basis) and its cash price (avg_price, Unit
// usd_per_bushel, series ams_<slug>:<commodity>:price), both converted
// to USD per tonne with the bushel weights; Detail names the basis
// futures month, delivery window, grade and location. Published is the
// rows' published_date. It fails when stats are missing or disagree with
// the rows (ErrTruncated when rows were left out) and, naming the row, on
// a malformed date or number.
func ParseAMSReport(r io.Reader, published time.Time) ([]market.Price, error) {
	res := Result{Published: published}
	if err := parseAMS(r, &res); err != nil {
		return nil, err
	}
	return res.Prices, nil
}

type amsStats struct {
	ReturnedRows *int `json:"returnedRows"`
	TotalRows    *int `json:"totalRows"`
}

func parseAMS(r io.Reader, res *Result) error {
	dec := json.NewDecoder(limited(r))
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return fmt.Errorf("AMS report: %w", err)
	}
	var stats *amsStats
	rows, sawResults := 0, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("AMS report: byte %d: %v", dec.InputOffset(), err)
		}
		key, _ := tok.(string)
		switch key {
		case "stats":
			stats = &amsStats{}
			if err := dec.Decode(stats); err != nil {
				return fmt.Errorf("AMS report: stats: %w", err)
			}
		case "results":
			sawResults = true
			if err := expectDelim(dec, '['); err != nil {
				return fmt.Errorf("AMS report: results: %w", err)
			}
			for dec.More() {
				rows++
				var row map[string]any
				if err := dec.Decode(&row); err != nil {
					return fmt.Errorf("AMS report: result %d: %w", rows, err)
				}
				if err := amsRow(row, res); err != nil {
					return fmt.Errorf("AMS report: result %d: %w", rows, err)
				}
				if err := res.flush(false); err != nil {
					return err
				}
			}
			if err := expectDelim(dec, ']'); err != nil {
				return fmt.Errorf("AMS report: results: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fmt.Errorf("AMS report: %q: %v", trunc(key), err)
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return fmt.Errorf("AMS report: %w", err)
	}
	if err := expectEnd(dec); err != nil {
		return fmt.Errorf("AMS report: %w", err)
	}
	switch {
	case !sawResults:
		return errors.New("AMS report: no results")
	case stats == nil || stats.ReturnedRows == nil || stats.TotalRows == nil:
		return errors.New("AMS report: no stats.returnedRows and stats.totalRows to check the rows against")
	case *stats.ReturnedRows != rows:
		return fmt.Errorf("AMS report: stats.returnedRows %d but %d results (truncated body)", *stats.ReturnedRows, rows)
	case *stats.ReturnedRows < *stats.TotalRows:
		return fmt.Errorf("AMS report: %w (%d of %d)", ErrTruncated, *stats.ReturnedRows, *stats.TotalRows)
	}
	return nil
}

// amsDate reads a MARS date "08/11/2026" (a time after it is ignored).
func amsDate(s string) (time.Time, error) {
	day, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	t, err := time.Parse("01/02/2006", day)
	if err != nil {
		return time.Time{}, fmt.Errorf("date %q is not MM/DD/YYYY", trunc(s))
	}
	return t, nil
}

// amsRow adds the basis and cash-price observations of one result row.
func amsRow(row map[string]any, res *Result) error {
	comm, ok := market.Commodity(str(row["commodity"]))
	if !ok {
		res.Skipped++
		return nil
	}
	date, err := amsDate(str(row["report_date"]))
	if err != nil {
		return fmt.Errorf("report_date: %w", err)
	}
	if p := str(row["published_date"]); p != "" {
		t, err := amsDate(p)
		if err != nil {
			return fmt.Errorf("published_date: %w", err)
		}
		res.Published = t
	}
	slug := str(row["slug_id"])
	if slug == "" {
		slug = strings.TrimPrefix(strings.ToLower(str(row["slug_name"])), "ams_")
	}
	series := "ams_" + slug + ":" + comm
	where := amsWhere(row)
	base := market.Price{
		Source: market.SourceAMS, Name: str(row["report_title"]), Commodity: comm,
		Date: date, Frequency: market.Daily, Currency: market.CurrencyUSD, Published: res.Published,
	}
	kept := false
	lo, okLo, err := num(row["basis Min"])
	if err != nil {
		return fmt.Errorf("basis Min: %w", err)
	}
	hi, okHi, err := num(row["basis Max"])
	if err != nil {
		return fmt.Errorf("basis Max: %w", err)
	}
	if okLo || okHi {
		v := mid(lo, okLo, hi, okHi)
		unit := market.UnitUSDCentsPerBushel
		if bu := str(row["basis_unit"]); strings.Contains(bu, "$") {
			unit = market.UnitUSDPerBushel
		}
		p := base
		p.Series, p.Value, p.Unit = series+":basis", v, unit
		p.USDPerTonne = market.ToUSDPerTonne(v, unit, comm)
		fm := str(row["basis Min Futures Month"])
		if fm == "" {
			fm = str(row["basis Max Futures Month"])
		}
		p.Detail = "basis vs " + fm + " futures, " + where
		res.Prices = append(res.Prices, p)
		kept = true
	}
	price, okP, err := num(row["avg_price"])
	if err != nil {
		return fmt.Errorf("avg_price: %w", err)
	}
	if !okP {
		plo, okL, err1 := num(row["price Min"])
		phi, okH, err2 := num(row["price Max"])
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("price: %w", err)
		}
		if okL || okH {
			price, okP = mid(plo, okL, phi, okH), true
		}
	}
	if okP {
		p := base
		p.Series, p.Value, p.Unit = series+":price", price, market.UnitUSDPerBushel
		p.USDPerTonne = market.ToUSDPerTonne(price, market.UnitUSDPerBushel, comm)
		p.Detail = "cash bid, " + where
		res.Prices = append(res.Prices, p)
		kept = true
	}
	if !kept {
		res.Missing++
	}
	return nil
}

// mid is the midpoint of a range, or its one present end.
func mid(lo float64, okLo bool, hi float64, okHi bool) float64 {
	switch {
	case okLo && okHi:
		return (lo + hi) / 2
	case okLo:
		return lo
	}
	return hi
}

// amsWhere describes a row's delivery window, grade and place.
func amsWhere(row map[string]any) string {
	var parts []string
	if strings.EqualFold(str(row["current"]), "Yes") || str(row["delivery_start"]) == "" {
		parts = append(parts, "delivery current")
	} else {
		d := "delivery " + str(row["delivery_start"])
		if h := str(row["delivery Start Half"]); h != "" {
			d += " " + strings.ToLower(h)
		}
		end := str(row["delivery_end"])
		if eh := str(row["delivery End Half"]); end != "" && (end != str(row["delivery_start"]) || eh != str(row["delivery Start Half"])) {
			d += " to " + strings.TrimSpace(end+" "+strings.ToLower(eh))
		}
		parts = append(parts, d)
	}
	if g := strings.TrimSpace(str(row["grade"]) + " " + str(row["class"])); g != "" {
		parts = append(parts, g)
	}
	if p := str(row["protein"]); p != "" {
		parts = append(parts, "protein "+p)
	}
	if f := strings.TrimSpace(str(row["freight"]) + " " + strings.ToLower(str(row["trans_mode"]))); f != "" {
		parts = append(parts, f)
	}
	if l := str(row["trade_loc"]); l != "" {
		parts = append(parts, l)
	}
	return strings.Join(parts, ", ")
}
