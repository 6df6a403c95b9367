package sar

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"overwatch/maritime/sar"
)

// ParseOData reads a Copernicus Data Space Ecosystem OData products
// answer (GET /odata/v1/Products?...&$expand=Attributes): value[] with
// Name, ContentLength (bytes), ContentDate {Start, End}, Footprint
// (geography'SRID=4326;POLYGON (...)') or GeoFootprint (GeoJSON) and
// Attributes[] {Name, Value} (orbitNumber, relativeOrbitNumber,
// orbitDirection, operationalMode, productType,
// platformSerialIdentifier). Products of other missions (Sentinel-2)
// are skipped; @odata.nextLink is the next page.
func ParseOData(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	var doc struct {
		Value *[]struct {
			Name          string  `json:"Name"`
			ContentLength float64 `json:"ContentLength"`
			ContentDate   struct {
				Start string `json:"Start"`
				End   string `json:"End"`
			} `json:"ContentDate"`
			Footprint    string          `json:"Footprint"`
			GeoFootprint json.RawMessage `json:"GeoFootprint"`
			Attributes   []struct {
				Name  string          `json:"Name"`
				Value json.RawMessage `json:"Value"`
			} `json:"Attributes"`
		} `json:"value"`
		Next string `json:"@odata.nextLink"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Result{}, fmt.Errorf("CDSE OData: %w", err)
	}
	if doc.Value == nil {
		return Result{}, fmt.Errorf("CDSE OData: no \"value\" array")
	}
	res := Result{Next: doc.Next}
	for i, v := range *doc.Value {
		attr := map[string]json.RawMessage{}
		for _, a := range v.Attributes {
			attr[a.Name] = a.Value
		}
		p := sar.Product{Name: strings.TrimSuffix(v.Name, ".SAFE"), SizeMB: v.ContentLength / (1 << 20), Mode: str(attr["operationalMode"]),
			Type: str(attr["productType"]), Direction: str(attr["orbitDirection"]), Source: "cdse",
			AbsoluteOrbit: int(rawNumber(string(attr["orbitNumber"]))), RelativeOrbit: int(rawNumber(string(attr["relativeOrbitNumber"])))}
		if len(p.Name) < 3 || p.Name[:2] != "S1" {
			res.Skipped++
			continue
		}
		if s := str(attr["platformSerialIdentifier"]); s != "" {
			p.Platform = sar.Platform(s)
		}
		if p.Start, err = parseTime(v.ContentDate.Start); err != nil {
			return Result{}, fmt.Errorf("CDSE OData product %d (%s): ContentDate.Start %w", i+1, truncate(p.Name, 80), err)
		}
		if v.ContentDate.End != "" {
			if p.Stop, err = parseTime(v.ContentDate.End); err != nil {
				return Result{}, fmt.Errorf("CDSE OData product %d (%s): ContentDate.End %w", i+1, truncate(p.Name, 80), err)
			}
		}
		if p.Footprint, err = parseWKT(v.Footprint); err != nil && len(v.GeoFootprint) > 0 {
			var g geoFeature
			g.Geometry = &struct {
				Type        string          `json:"type"`
				Coordinates json.RawMessage `json:"coordinates"`
			}{}
			if json.Unmarshal(v.GeoFootprint, g.Geometry) == nil {
				p.Footprint, err = geometry(g)
			}
		}
		if err != nil {
			res.Skipped++
			continue
		}
		finish(&res, p)
	}
	return res, nil
}
