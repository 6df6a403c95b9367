package sar

import (
	"encoding/json"
	"fmt"
	"io"

	"overwatch/maritime/sar"
)

// geoFeature is a GeoJSON Feature: ASF's output=geojson or a STAC item.
type geoFeature struct {
	Type     string `json:"type"`
	Geometry *struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	} `json:"geometry"`
	Properties map[string]json.RawMessage `json:"properties"`
}

// ParseGeoJSON reads the ASF search API's output=geojson answer: a
// FeatureCollection (or one Feature) whose properties name the scene
// (sceneName), its times (startTime, stopTime, ending in Z), pathNumber
// (the relative orbit), orbit (absolute), platform, flightDirection
// (null at times), processingLevel, beamModeType and bytes.
func ParseGeoJSON(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	var doc struct {
		Type     string       `json:"type"`
		Features []geoFeature `json:"features"`
		geoFeature
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Result{}, fmt.Errorf("GeoJSON: %w", err)
	}
	feats := doc.Features
	switch doc.Type {
	case "Feature":
		feats = []geoFeature{doc.geoFeature}
	case "FeatureCollection":
	default:
		return Result{}, fmt.Errorf("GeoJSON: type %q is not a Feature or a FeatureCollection", truncate(doc.Type, 30))
	}
	var res Result
	for i, f := range feats {
		prop := func(k string) string { return str(f.Properties[k]) }
		p := sar.Product{Name: first(prop("sceneName"), prop("granuleName")), Platform: sar.Platform(prop("platform")),
			Mode: first(prop("beamModeType"), prop("beamMode")), Type: first(prop("processingLevel"), prop("productType")),
			Direction: prop("flightDirection"), Source: "asf",
			AbsoluteOrbit: int(rawNumber(string(f.Properties["orbit"]))), RelativeOrbit: int(rawNumber(string(f.Properties["pathNumber"])))}
		if b := rawNumber(string(f.Properties["bytes"])); b > 0 {
			p.SizeMB = b / (1 << 20)
		} else {
			p.SizeMB = rawNumber(string(f.Properties["sizeMB"]))
		}
		if p.Start, err = parseTime(prop("startTime")); err != nil {
			return Result{}, fmt.Errorf("GeoJSON feature %d (%s): startTime %w", i+1, truncate(p.Name, 80), err)
		}
		if s := prop("stopTime"); s != "" {
			if p.Stop, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("GeoJSON feature %d (%s): stopTime %w", i+1, truncate(p.Name, 80), err)
			}
		}
		if p.Footprint, err = geometry(f); err != nil {
			res.Skipped++
			continue
		}
		finish(&res, p)
	}
	return res, nil
}

// geometry is a feature's footprint.
func geometry(f geoFeature) (sar.Polygon, error) {
	if f.Geometry == nil {
		return nil, fmt.Errorf("no geometry")
	}
	var poly [][][]float64
	var multi [][][][]float64
	if f.Geometry.Type == "MultiPolygon" {
		if err := json.Unmarshal(f.Geometry.Coordinates, &multi); err != nil {
			return nil, err
		}
	} else if err := json.Unmarshal(f.Geometry.Coordinates, &poly); err != nil {
		return nil, err
	}
	return ringOf(f.Geometry.Type, multi, poly)
}

// str is a JSON string's value, "" for anything else.
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
