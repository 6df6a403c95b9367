package sar

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"overwatch/maritime/sar"
)

// ParseCSV reads the ASF search API's output=csv answer: every field
// quoted, nulls "None" or empty, times UTC without a zone ("Acquisition
// Date" is the stop time: Start Time is read), "Path Number" the relative
// orbit, the footprint its four corners (near/far start/end).
func ParseCSV(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	cr := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(body), "\ufeff")))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return Result{}, fmt.Errorf("ASF CSV: header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"Granule Name", "Start Time", "Near Start Lat", "Near Start Lon", "Far Start Lat", "Far Start Lon",
		"Near End Lat", "Near End Lon", "Far End Lat", "Far End Lon"} {
		if _, ok := col[need]; !ok {
			return Result{}, fmt.Errorf("ASF CSV: no %q column", need)
		}
	}
	var res Result
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("ASF CSV: %w", err)
		}
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				if v := strings.TrimSpace(rec[i]); v != "None" {
					return v
				}
			}
			return ""
		}
		p := sar.Product{Name: get("Granule Name"), Platform: sar.Platform(get("Platform")), Mode: get("Beam Mode"),
			Type: get("Processing Level"), Direction: get("Ascending or Descending?"), SizeMB: number(get("Size (MB)")),
			AbsoluteOrbit: int(number(get("Orbit"))), RelativeOrbit: int(number(get("Path Number"))), Source: "asf"}
		if p.Start, err = parseTime(get("Start Time")); err != nil {
			return Result{}, fmt.Errorf("ASF CSV line %d: Start Time %w", line, err)
		}
		if s := get("End Time"); s != "" {
			if p.Stop, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("ASF CSV line %d: End Time %w", line, err)
			}
		}
		// The corners in ring order: near start, far start, far end, near end.
		for _, c := range []string{"Near Start", "Far Start", "Far End", "Near End"} {
			p.Footprint = append(p.Footprint, sar.LonLat{Lon: number(get(c + " Lon")), Lat: number(get(c + " Lat"))})
		}
		if get("Near Start Lat") == "" || get("Far End Lon") == "" {
			p.Footprint = nil
		}
		finish(&res, p)
	}
	return res, nil
}
