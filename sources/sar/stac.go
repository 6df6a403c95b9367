package sar

import (
	"encoding/json"
	"fmt"
	"io"

	"overwatch/maritime/sar"
)

// ParseSTAC reads a Sentinel-1 STAC item (or an ItemCollection of them):
// platform sentinel-1a, start_datetime/end_datetime (or datetime),
// sat:absolute_orbit, sat:relative_orbit, sat:orbit_state, sar:instrument_mode,
// sar:product_type, s1:product_identifier (the ESA product name; the item
// id otherwise) and the footprint geometry.
func ParseSTAC(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	var doc struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Features []struct {
			ID string `json:"id"`
			geoFeature
		} `json:"features"`
		geoFeature
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Result{}, fmt.Errorf("STAC: %w", err)
	}
	type item struct {
		id string
		f  geoFeature
	}
	var items []item
	switch doc.Type {
	case "Feature":
		items = []item{{doc.ID, doc.geoFeature}}
	case "FeatureCollection":
		for _, f := range doc.Features {
			items = append(items, item{f.ID, f.geoFeature})
		}
	default:
		return Result{}, fmt.Errorf("STAC: type %q is not a Feature or a FeatureCollection", truncate(doc.Type, 30))
	}
	var res Result
	for i, it := range items {
		prop := func(k string) string { return str(it.f.Properties[k]) }
		dir := prop("sat:orbit_state")
		p := sar.Product{Name: first(prop("s1:product_identifier"), it.id), Platform: sar.Platform(prop("platform")),
			Mode: prop("sar:instrument_mode"), Type: prop("sar:product_type"), Direction: dir, Source: "stac",
			AbsoluteOrbit: int(rawNumber(string(it.f.Properties["sat:absolute_orbit"]))),
			RelativeOrbit: int(rawNumber(string(it.f.Properties["sat:relative_orbit"])))}
		if p.Start, err = parseTime(first(prop("start_datetime"), prop("datetime"))); err != nil {
			return Result{}, fmt.Errorf("STAC item %d (%s): start_datetime %w", i+1, truncate(p.Name, 80), err)
		}
		if s := prop("end_datetime"); s != "" {
			if p.Stop, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("STAC item %d (%s): end_datetime %w", i+1, truncate(p.Name, 80), err)
			}
		}
		if p.Footprint, err = geometry(it.f); err != nil {
			res.Skipped++
			continue
		}
		finish(&res, p)
	}
	return res, nil
}
