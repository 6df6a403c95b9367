package sar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"overwatch/maritime/sar"
)

// liteRecord is an ASF jsonlite result, or a jsonlite2 one (short keys).
type liteRecord struct {
	GranuleName string          `json:"granuleName"`
	GN          string          `json:"gn"`
	Dataset     string          `json:"dataset"`
	D           string          `json:"d"`
	BeamMode    string          `json:"beamMode"`
	BM          string          `json:"bm"`
	ProductType string          `json:"productType"`
	PT          string          `json:"pt"`
	StartTime   string          `json:"startTime"`
	ST          string          `json:"st"`
	StopTime    string          `json:"stopTime"`
	STP         string          `json:"stp"`
	Orbit       json.RawMessage `json:"orbit"`
	O           json.RawMessage `json:"o"`
	Path        json.RawMessage `json:"path"`
	P           json.RawMessage `json:"p"`
	Direction   string          `json:"flightDirection"`
	FD          string          `json:"fd"`
	SizeMB      json.RawMessage `json:"sizeMB"`
	S           json.RawMessage `json:"s"`
	WKT         string          `json:"wkt"`
	W           string          `json:"w"`
}

// ParseJSONLite reads the ASF search API's output=jsonlite and
// output=jsonlite2 answers ({"results": [...]}): orbit is an array of
// strings, path and frame numbers, times UTC without a zone.
func ParseJSONLite(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	var doc struct {
		Results *[]liteRecord `json:"results"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Result{}, fmt.Errorf("ASF jsonlite: %w", err)
	}
	if doc.Results == nil {
		return Result{}, fmt.Errorf("ASF jsonlite: no \"results\" array")
	}
	var res Result
	for i, rec := range *doc.Results {
		p := sar.Product{Name: first(rec.GranuleName, rec.GN), Platform: sar.Platform(first(rec.Dataset, rec.D)),
			Mode: first(rec.BeamMode, rec.BM), Type: first(rec.ProductType, rec.PT), Direction: first(rec.Direction, rec.FD), Source: "asf"}
		p.AbsoluteOrbit = int(rawNumber(first(string(rec.Orbit), string(rec.O))))
		p.RelativeOrbit = int(rawNumber(first(string(rec.Path), string(rec.P))))
		p.SizeMB = rawNumber(first(string(rec.SizeMB), string(rec.S)))
		if p.Start, err = parseTime(first(rec.StartTime, rec.ST)); err != nil {
			return Result{}, fmt.Errorf("ASF jsonlite result %d (%s): start %w", i+1, truncate(p.Name, 80), err)
		}
		if s := first(rec.StopTime, rec.STP); s != "" {
			if p.Stop, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("ASF jsonlite result %d (%s): stop %w", i+1, truncate(p.Name, 80), err)
			}
		}
		if p.Footprint, err = parseWKT(first(rec.WKT, rec.W)); err != nil {
			res.Skipped++
			continue
		}
		finish(&res, p)
	}
	return res, nil
}

// rawNumber reads a JSON number, a numeric string, or the first of an
// array of them (jsonlite's orbit ["24970"]); 0 otherwise.
func rawNumber(raw string) float64 {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" {
		return 0
	}
	if raw[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal([]byte(raw), &arr) != nil || len(arr) == 0 {
			return 0
		}
		raw = string(bytes.TrimSpace(arr[0]))
	}
	return number(strings.Trim(raw, `"`))
}

// first is the first non-empty (and non-null) of its arguments.
func first(v ...string) string {
	for _, s := range v {
		if s != "" && s != "null" {
			return s
		}
	}
	return ""
}
