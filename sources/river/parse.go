package river

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	gauge "overwatch/maritime/river"
)

// MaxBytes bounds one answer of a USGS service.
const MaxBytes = 32 << 20

// Sources of the readings.
const (
	SourceIV  = "nwis-iv"
	SourceOGC = "usgs-ogc"
)

// ErrNotData is an answer that is neither a WaterML JSON response nor an
// OGC FeatureCollection (an HTML page, an error document).
var ErrNotData = errors.New("not a USGS WaterML JSON or OGC API FeatureCollection answer")

// Parse reads an answer of either service (told apart by its shape):
// the readings it holds, no-data values left out. An empty series is no
// readings and no error; a truncated or malformed answer is an error and
// nothing of it is kept.
func Parse(data []byte) ([]gauge.Reading, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("river: answer over %d bytes", MaxBytes)
	}
	var probe struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '<' {
			return nil, ErrNotData
		}
		return nil, fmt.Errorf("river: %w", err)
	}
	if probe.Type == "FeatureCollection" {
		return ParseOGC(data)
	}
	return ParseIV(data)
}

type ivAnswer struct {
	Value *struct {
		TimeSeries *[]ivSeries `json:"timeSeries"`
	} `json:"value"`
}

type ivSeries struct {
	Name       string `json:"name"`
	SourceInfo struct {
		SiteCode []struct {
			Value string `json:"value"`
		} `json:"siteCode"`
	} `json:"sourceInfo"`
	Variable struct {
		VariableCode []struct {
			Value string `json:"value"`
		} `json:"variableCode"`
		NoDataValue *float64 `json:"noDataValue"`
	} `json:"variable"`
	Values []struct {
		Value []struct {
			Value      string   `json:"value"`
			Qualifiers []string `json:"qualifiers"`
			DateTime   string   `json:"dateTime"`
		} `json:"value"`
	} `json:"values"`
}

// ParseIV reads a NWIS IV answer (format=json): every value of every
// series, its site and parameter from the series (or its name
// "USGS:<site>:<param>:<stat>"), its time with the site's offset made
// UTC, its qualifiers as sent; the series' noDataValue (and -999999) is
// never a reading.
func ParseIV(data []byte) ([]gauge.Reading, error) {
	var a ivAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("river: WaterML JSON: %w", err)
	}
	if a.Value == nil || a.Value.TimeSeries == nil {
		return nil, ErrNotData
	}
	var out []gauge.Reading
	for i, s := range *a.Value.TimeSeries {
		site, param := "", ""
		if len(s.SourceInfo.SiteCode) > 0 {
			site = s.SourceInfo.SiteCode[0].Value
		}
		if len(s.Variable.VariableCode) > 0 {
			param = s.Variable.VariableCode[0].Value
		}
		if parts := strings.Split(s.Name, ":"); len(parts) >= 3 {
			if site == "" {
				site = parts[1]
			}
			if param == "" {
				param = parts[2]
			}
		}
		if site == "" || param == "" {
			return nil, fmt.Errorf("river: series %d names no site or parameter", i)
		}
		noData := gauge.NoData
		if s.Variable.NoDataValue != nil {
			noData = *s.Variable.NoDataValue
		}
		for _, vs := range s.Values {
			for _, v := range vs.Value {
				x, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
				if err != nil {
					return nil, fmt.Errorf("river: %s %s: value %q is not a number", site, param, truncate(v.Value))
				}
				if x == noData || x <= gauge.NoData+1 || math.IsNaN(x) || math.IsInf(x, 0) {
					continue
				}
				t, err := parseTime(v.DateTime)
				if err != nil {
					return nil, fmt.Errorf("river: %s %s: %w", site, param, err)
				}
				out = append(out, gauge.Reading{Site: site, Parameter: param, Time: t, Value: x,
					Qualifiers: append([]string{}, v.Qualifiers...), Source: SourceIV})
			}
		}
	}
	return out, nil
}

type ogcAnswer struct {
	Type     string `json:"type"`
	Features *[]struct {
		Properties struct {
			MonitoringLocationID string          `json:"monitoring_location_id"`
			ParameterCode        string          `json:"parameter_code"`
			Time                 string          `json:"time"`
			Value                *string         `json:"value"`
			ApprovalStatus       string          `json:"approval_status"`
			Qualifier            json.RawMessage `json:"qualifier"`
		} `json:"properties"`
	} `json:"features"`
}

// ParseOGC reads a FeatureCollection of the Water Data OGC API
// (continuous, latest-continuous): the site without its "USGS-" prefix,
// the time (UTC), the value (a string; null and -999999 are no reading),
// and as qualifiers "A" or "P" for the approval status followed by the
// feature's qualifier codes.
func ParseOGC(data []byte) ([]gauge.Reading, error) {
	var a ogcAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("river: OGC JSON: %w", err)
	}
	if a.Type != "FeatureCollection" || a.Features == nil {
		return nil, ErrNotData
	}
	var out []gauge.Reading
	for i, f := range *a.Features {
		p := f.Properties
		site := strings.TrimPrefix(p.MonitoringLocationID, "USGS-")
		if site == "" || p.ParameterCode == "" {
			return nil, fmt.Errorf("river: feature %d names no monitoring location or parameter", i)
		}
		if p.Value == nil {
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(*p.Value), 64)
		if err != nil {
			return nil, fmt.Errorf("river: %s %s: value %q is not a number", site, p.ParameterCode, truncate(*p.Value))
		}
		if x <= gauge.NoData+1 || math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		t, err := parseTime(p.Time)
		if err != nil {
			return nil, fmt.Errorf("river: %s %s: %w", site, p.ParameterCode, err)
		}
		var quals []string
		switch strings.ToLower(p.ApprovalStatus) {
		case "approved":
			quals = append(quals, "A")
		case "provisional":
			quals = append(quals, "P")
		}
		quals = append(quals, qualifierCodes(p.Qualifier)...)
		if quals == nil {
			quals = []string{}
		}
		out = append(out, gauge.Reading{Site: site, Parameter: p.ParameterCode, Time: t, Value: x, Qualifiers: quals, Source: SourceOGC})
	}
	return out, nil
}

// qualifierCodes reads the OGC qualifier: null, a string or a list of
// strings.
func qualifierCodes(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}
	}
	return nil
}

// parseTime reads an ISO-8601 time with an offset (the IV service's
// "2019-02-14T00:00:00.000-05:00", the OGC API's "+00:00"), as UTC.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q is not an ISO-8601 time with an offset", truncate(s))
	}
	if t.Year() < 1900 || t.Year() > 2200 {
		return time.Time{}, fmt.Errorf("time %q is out of range", truncate(s))
	}
	return t.UTC(), nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
