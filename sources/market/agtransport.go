package market

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/market"
)

// USDA AgTransport (https://agtransport.usda.gov) serves each dataset
// through Socrata's SODA 2.0 API, https://agtransport.usda.gov/resource/
// <id>.json: a JSON array of flat objects in which every value is a
// string and a null field is left out of its object. The datasets read
// here, by id (docs/market-sources.md gives their columns):
const (
	DatasetBargePct   = "deqi-uken" // Downbound Grain Barge Rates, percent of the 1976 tariff, weekly, 7 locations
	DatasetBargeTon   = "7spn-fbua" // barge rates in USD per (short) ton by river segment, weekly
	DatasetOceanJapan = "ehs5-yac3" // Vessel Rates: U.S. Gulf and PNW to Japan, USD/mt, monthly
	DatasetBlackSea   = "2n8s-739j" // Ukraine/Romania Black Sea ocean grain rates, USD/mt, quarterly
	DatasetRailBids   = "cvu8-kpyk" // secondary railcar market bids/offers, USD per car, weekly
	DatasetTruck      = "fxkn-2w9c" // Quarterly Grain Truck Rates, USD per truckload-mile
)

// DetectAgTransport names the AgTransport dataset whose rows have these
// keys (the keys of one row): false when they fit none.
func DetectAgTransport(keys ...string) (string, bool) {
	has := map[string]bool{}
	for _, k := range keys {
		has[k] = true
	}
	switch {
	case has["river_system_location"]:
		return DatasetBargeTon, true
	case has["gulf_to_japan"] || has["pnw_to_japan"]:
		return DatasetOceanJapan, true
	case has["route"] || has["vessel_size"] || has["quarter_ending_date"]:
		return DatasetBlackSea, true
	case has["train_type"] || has["company"] && has["bid"]:
		return DatasetRailBids, true
	case has["rate_mile_trukload"] || has["distance"] && has["yearquarter"]:
		return DatasetTruck, true
	case has["location"] && has["week"]:
		return DatasetBargePct, true
	}
	return "", false
}

// ParseAgTransport reads a SODA JSON array of dataset (one of the Dataset
// constants; "" detects it from the first row's keys) and returns its
// rates in the file's order. A missing value (an absent field, or a zero
// barge or ocean rate: the NOTES record a winter "0" before the field
// disappears, which is a closed river, not free freight) is left out and
// counted. It fails, naming the row, on a row of another dataset, a
// malformed date or number, or a row without its location.
func ParseAgTransport(r io.Reader, dataset string, published time.Time) ([]market.Rate, error) {
	res := Result{Dataset: dataset, Published: published}
	if err := parseAgTransport(r, &res); err != nil {
		return nil, err
	}
	return res.Rates, nil
}

func parseAgTransport(r io.Reader, res *Result) error {
	dec := json.NewDecoder(limited(r))
	dec.UseNumber()
	if err := expectDelim(dec, '['); err != nil {
		return fmt.Errorf("AgTransport: %w", err)
	}
	for n := 1; dec.More(); n++ {
		var row map[string]any
		if err := dec.Decode(&row); err != nil {
			return fmt.Errorf("AgTransport: row %d: %w", n, err)
		}
		keys := make([]string, 0, len(row))
		for k := range row {
			keys = append(keys, k)
		}
		ds, ok := DetectAgTransport(keys...)
		switch {
		case res.Dataset == "" && !ok:
			return fmt.Errorf("AgTransport: row %d: keys fit no dataset this service reads", n)
		case res.Dataset == "":
			res.Dataset = ds
		case ok && ds != res.Dataset:
			return fmt.Errorf("AgTransport: row %d: a %s row in a %s file", n, ds, res.Dataset)
		}
		if err := agRow(res, row); err != nil {
			return fmt.Errorf("AgTransport %s: row %d: %w", res.Dataset, n, err)
		}
		if err := res.flush(false); err != nil {
			return err
		}
	}
	if err := expectDelim(dec, ']'); err != nil {
		return fmt.Errorf("AgTransport: %w", err)
	}
	return expectEnd(dec)
}

// agRow adds the rates of one row of res.Dataset.
func agRow(res *Result, row map[string]any) error {
	base := market.Rate{Dataset: res.Dataset, Source: market.SourceAgTransport, Commodity: "grain", Published: res.Published}
	switch res.Dataset {
	case DatasetBargePct:
		base.Mode, base.Frequency, base.Unit = market.ModeBarge, market.Weekly, market.UnitPctOfTariff
		return agAdd(res, row, base, "date", "location", "rate", true)
	case DatasetBargeTon:
		base.Mode, base.Frequency, base.Unit = market.ModeBarge, market.Weekly, market.UnitUSDPerShortTon
		return agAdd(res, row, base, "date", "river_system_location", "price_per_ton", true)
	case DatasetOceanJapan:
		base.Mode, base.Frequency, base.Unit = market.ModeOcean, market.Monthly, market.UnitUSDPerTonne
		base.Destination = "Japan"
		gulf, pnw := base, base
		gulf.Origin, gulf.Region = "U.S. Gulf", "U.S. Gulf to Japan"
		pnw.Origin, pnw.Region = "Pacific Northwest", "Pacific Northwest to Japan"
		if err := agAdd(res, row, gulf, "date", "", "gulf_to_japan", true); err != nil {
			return err
		}
		return agAdd(res, row, pnw, "date", "", "pnw_to_japan", true)
	case DatasetBlackSea:
		base.Mode, base.Frequency, base.Unit = market.ModeOcean, market.Quarterly, market.UnitUSDPerTonne
		if c, ok := market.Commodity(str(row["commodity"])); ok {
			base.Commodity = c
		}
		base.Origin, base.Destination, base.VesselSize = str(row["origin"]), str(row["destination"]), str(row["vessel_size"])
		return agAdd(res, row, base, "", "route", "rate", true)
	case DatasetRailBids:
		base.Mode, base.Frequency, base.Unit = market.ModeRail, market.Weekly, market.UnitUSDPerCar
		y, m := str(row["year_bid_on"]), str(row["month_bid_on"])
		if len(m) == 1 {
			m = "0" + m
		}
		base.Region = strings.TrimSpace(str(row["company"]) + " " + strings.ReplaceAll(str(row["train_type"]), "_", "-"))
		if y != "" && m != "" {
			base.Region += ", delivery " + y + "-" + m
		}
		return agAdd(res, row, base, "date", "", "bid", false)
	case DatasetTruck:
		base.Mode, base.Frequency, base.Unit = market.ModeTruck, market.Quarterly, market.UnitUSDPerMile
		base.Region = str(row["region"])
		if d := str(row["distance"]); d != "" {
			if _, err := strconv.ParseFloat(d, 64); err == nil {
				d += " miles"
			}
			base.Region += ", " + d
		}
		return agAdd(res, row, base, "", "", "rate_mile_trukload", true)
	}
	return fmt.Errorf("dataset %q is not one this service reads", res.Dataset)
}

// agAdd adds the rate in field valueKey of row: dated by dateKey (""
// for the quarter's start), located by regionKey ("" keeps base.Region).
// zeroMissing treats a 0 as missing.
func agAdd(res *Result, row map[string]any, r market.Rate, dateKey, regionKey, valueKey string, zeroMissing bool) error {
	var err error
	if dateKey != "" {
		r.Date, err = socrataDate(str(row[dateKey]))
	} else {
		r.Date, err = quarterStart(row)
	}
	if err != nil {
		return err
	}
	if regionKey != "" {
		r.Region = str(row[regionKey])
	}
	if r.Region == "" {
		return fmt.Errorf("no %s", map[bool]string{true: regionKey, false: "location"}[regionKey != ""])
	}
	v, ok, err := num(row[valueKey])
	if err != nil {
		return fmt.Errorf("%s: %w", valueKey, err)
	}
	if !ok || zeroMissing && v == 0 {
		res.Missing++
		return nil
	}
	r.Rate = v
	r.USDPerTonne = math.NaN()
	switch r.Unit {
	case market.UnitPctOfTariff:
		if b, ok := market.BargeBenchmark(r.Region); ok {
			r.Benchmark = b
			r.USDPerTonne = market.ToUSDPerTonne(v*b/100, market.UnitUSDPerShortTon, r.Commodity)
		}
	case market.UnitUSDPerShortTon, market.UnitUSDPerTonne:
		r.USDPerTonne = market.ToUSDPerTonne(v, r.Unit, r.Commodity)
	}
	res.Rates = append(res.Rates, r)
	return nil
}

// socrataDate reads a Socrata floating timestamp "2026-08-18T00:00:00.000"
// (or a plain date) as that day, midnight UTC.
func socrataDate(s string) (time.Time, error) {
	day, rest, _ := strings.Cut(s, "T")
	t, err := time.Parse("2006-01-02", day)
	if err != nil || len(rest) > 20 {
		return time.Time{}, fmt.Errorf("date %q is not a Socrata date", trunc(s))
	}
	return t, nil
}

// quarterStart dates a quarterly row at the first day of its quarter,
// from "year_quarter"/"yearquarter" ("2025Q4"), or "year" and "quarter",
// or "quarter_ending_date".
func quarterStart(row map[string]any) (time.Time, error) {
	yq := strings.ToUpper(str(row["year_quarter"]))
	if yq == "" {
		yq = strings.ToUpper(str(row["yearquarter"]))
	}
	if yq == "" && str(row["year"]) != "" && str(row["quarter"]) != "" {
		yq = str(row["year"]) + "Q" + str(row["quarter"])
	}
	if yq == "" && str(row["quarter_ending_date"]) != "" {
		end, err := socrataDate(str(row["quarter_ending_date"]))
		if err != nil {
			return time.Time{}, err
		}
		yq = fmt.Sprintf("%dQ%d", end.Year(), (int(end.Month())+2)/3)
	}
	y, q, ok := strings.Cut(yq, "Q")
	year, err1 := strconv.Atoi(y)
	qn, err2 := strconv.Atoi(q)
	if !ok || err1 != nil || err2 != nil || qn < 1 || qn > 4 || year < 1900 || year > 2200 {
		return time.Time{}, fmt.Errorf("quarter %q is not like 2025Q4", trunc(yq))
	}
	return utcDate(year, time.Month(3*qn-2), 1), nil
}
