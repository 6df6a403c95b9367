package sar

import (
	"bytes"
	"testing"

	"github.com/oasdiff/yaml"
)

// FuzzParse feeds every format's real answers, mutated, to Parse: an
// error, never a panic, and every product kept is complete.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"asf_searchapi_Fairbanks_SLC_jsonlite.json", "asf_searchapi_Fairbanks_SLC_jsonlite2.json",
		"asf_searchapi_Fairbanks_SLC.csv", "asf_searchapi_Fairbanks_SLC.kml", "s1a_iw_grdh_20210809_039156_stac_item.json",
		"cdse_odata_products_search_s2_2results_nextlink.json"} {
		f.Add(read(f, name))
	}
	if js, err := yaml.YAMLToJSON(read(f, "asf_search_S1_response_geojson_feature_with_umm.yml")); err == nil {
		f.Add(js)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := Parse(bytes.NewReader(body))
		if err != nil {
			return
		}
		for _, p := range res.Products {
			if p.Name == "" || p.Platform == "" || p.Start.IsZero() || !p.Footprint.Valid() || p.RelativeOrbit < 0 || p.RelativeOrbit > 175 {
				t.Fatalf("incomplete product %+v", p)
			}
			p.Footprint.DistanceKm(0, 0)
		}
	})
}
