package bulk

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"overwatch"
	"overwatch/read"
)

// Request is a validated POST /v1/exports body.
type Request struct {
	Dataset Dataset
	Format  Format
	Filters map[string]string // the filters as given, each in the grammar's text form
	Filter  read.PositionFilter
}

// body is POST /v1/exports's JSON body.
type body struct {
	Dataset string                     `json:"dataset"`
	Filters map[string]json.RawMessage `json:"filters"`
	Format  string                     `json:"format"`
}

func invalid(param, format string, args ...any) error {
	return overwatch.Errorf(overwatch.Invalid, format, args...).With("parameter", param)
}

// ParseRequest validates a POST /v1/exports body: the dataset and the
// format among theirs (GeoJSON for the datasets with positions only), the
// filters in the position filter grammar (read.ParsePositionFilter), each
// given as the query parameter's text or as JSON (a list for imo, mmsi and
// source; [west, south, east, north] for bbox; a GeoJSON object for
// polygon), and only those whose column the dataset has. Each refusal is
// Invalid naming its field (dataset, format, filters.bbox, ...).
func ParseRequest(raw []byte) (Request, error) {
	var b body
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return Request{}, overwatch.Errorf(overwatch.Invalid,
			`body must be a JSON object like {"dataset": "positions", "format": "csv.gz", "filters": {"imo": "9074729", "start": "2026-01-01T00:00:00Z"}}, with no other members`)
	}
	var r Request
	r.Dataset = Dataset(b.Dataset)
	if !slices.Contains(Datasets, r.Dataset) {
		return r, invalid("dataset", "dataset must be one of %s", joinNames(Datasets))
	}
	if b.Format == "" {
		b.Format = string(CSV)
	}
	r.Format = Format(b.Format)
	if !slices.Contains(Formats, r.Format) {
		return r, invalid("format", "format must be one of %s", joinNames(Formats))
	}
	if r.Format == GeoJSON && !r.Dataset.Located() {
		return r, invalid("format", "format geojson is for the datasets whose rows have a position (positions, port_calls, risk_events); %s has none", r.Dataset)
	}
	r.Filters = map[string]string{}
	for key, v := range b.Filters {
		if !slices.Contains(FilterNames, key) {
			return r, invalid("filters."+key, "filters.%s is not a filter: the filters are %s", truncate(key, 30), strings.Join(FilterNames, ", "))
		}
		if !r.Dataset.Has(key) {
			return r, invalid("filters."+key, "filters.%s does not apply to %s, whose rows have no such column", key, r.Dataset)
		}
		text, err := filterText(key, v)
		if err != nil {
			return r, err
		}
		if text != "" {
			r.Filters[key] = text
		}
	}
	f, err := read.ParsePositionFilter(func(name string) string { return r.Filters[name] })
	if err != nil {
		return r, prefixFilter(err)
	}
	r.Filter = f
	return r, nil
}

// filterText is a filter's value in the grammar's text form.
func filterText(key string, v json.RawMessage) (string, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return "", nil
	}
	switch v[0] {
	case '"':
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", invalid("filters."+key, "filters.%s must be a string", key)
		}
		return s, nil
	case '{':
		if key == "polygon" {
			return string(v), nil
		}
	case '[':
		if key == "polygon" {
			break
		}
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			break
		}
		parts := make([]string, len(items))
		for i, it := range items {
			s, err := scalarText(it)
			if err != nil {
				return "", invalid("filters."+key, "filters.%s must be a string or a list of strings and numbers", key)
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	default:
		if s, err := scalarText(v); err == nil && key != "polygon" {
			return s, nil
		}
	}
	return "", invalid("filters."+key, "filters.%s has a value of the wrong type", key)
}

func scalarText(v json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return "", err
	}
	if _, err := strconv.ParseFloat(n.String(), 64); err != nil {
		return "", err
	}
	return n.String(), nil
}

// prefixFilter names the filter's field in the body: the grammar's error
// names the query parameter ("bbox"), the body's field is filters.bbox.
func prefixFilter(err error) error {
	var e *overwatch.Error
	if !errors.As(err, &e) {
		return err
	}
	for _, f := range e.Fields {
		if f.Key == "parameter" {
			name, _ := f.Value.(string)
			return overwatch.Errorf(e.Code, "filters.%s: %s", name, e.Message).With("parameter", "filters."+name)
		}
	}
	return err
}

func joinNames[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
