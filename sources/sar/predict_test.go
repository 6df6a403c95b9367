package sar

import (
	"bytes"
	"testing"
	"time"

	"github.com/oasdiff/yaml"

	"overwatch/maritime/sar"
)

// realProducts are the Sentinel-1 products of every real catalogue
// answer in testdata.
func realProducts(t *testing.T) []sar.Product {
	t.Helper()
	var all []sar.Product
	for _, name := range []string{"asf_searchapi_Fairbanks_SLC_jsonlite.json", "s1a_iw_grdh_20210809_039156_stac_item.json",
		"asf_datapool_results_2019-10-01_250placemarks.kml", "asf_search_S1_response_geojson_feature_with_umm.yml"} {
		body := read(t, name)
		if name[len(name)-4:] == ".yml" {
			var err error
			if body, err = yaml.YAMLToJSON(body); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Parse(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all = append(all, res.Products...)
	}
	return all
}

// centre is the mean of a footprint's vertices (the first repeated last
// counted once).
func centre(p sar.Polygon) (lat, lng float64) {
	n := len(p)
	if n > 1 && p[0] == p[n-1] {
		n--
	}
	for _, v := range p[:n] {
		lat += v.Lat
		lng += v.Lon
	}
	return lat / float64(n), lng / float64(n)
}

// TestPredictedPassesMatchRealAcquisitions is the goal: for the
// point at the centre of each real acquisition, the pass predicted from
// the other acquisitions of its relative orbit (another absolute orbit:
// 12 days or a multiple away) by the 12-day cycle falls within one hour
// of the real one.
func TestPredictedPassesMatchRealAcquisitions(t *testing.T) {
	all := realProducts(t)
	checked, worst := 0, time.Duration(0)
	for _, real := range all {
		lat, lng := centre(real.Footprint)
		var known []sar.Product
		for _, p := range all {
			if p.Platform == real.Platform && p.AbsoluteOrbit != real.AbsoluteOrbit && sar.Near(p, lat, lng, 50) {
				known = append(known, p)
			}
		}
		for _, pass := range sar.Predict(known, real.Start) {
			if pass.RelativeOrbit != real.RelativeOrbit || !pass.Predicted {
				continue
			}
			checked++
			off := pass.Time.Sub(real.Start)
			worst = max(worst, off, -off)
			if off < -time.Hour || off > time.Hour {
				t.Errorf("%s at (%.2f, %.2f): predicted %v from %s, %v off", real.Name, lat, lng, pass.Time, pass.From, off)
			}
		}
	}
	t.Logf("%d predicted passes checked against %d real acquisitions; the worst %v off", checked, len(all), worst)
	if checked < 10 {
		t.Fatalf("only %d predictions checked", checked)
	}
}
