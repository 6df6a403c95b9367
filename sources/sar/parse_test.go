package sar

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/oasdiff/yaml"

	"overwatch/maritime/sar"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fairbanks is the granule of the ASF Fairbanks answers.
const fairbanks = "S1B_IW_SLC__1SDV_20210102T032031_20210102T032058_024970_02F8C3_C081"

func TestParseFairbanksFormats(t *testing.T) {
	for _, name := range []string{"asf_searchapi_Fairbanks_SLC_jsonlite.json", "asf_searchapi_Fairbanks_SLC_jsonlite2.json",
		"asf_searchapi_Fairbanks_SLC.csv", "asf_searchapi_Fairbanks_SLC.kml"} {
		t.Run(name, func(t *testing.T) {
			res, err := Parse(bytes.NewReader(read(t, name)))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Products) != 1 || res.Skipped != 0 {
				t.Fatalf("products %d skipped %d", len(res.Products), res.Skipped)
			}
			p := res.Products[0]
			want := time.Date(2021, 1, 2, 3, 20, 31, 0, time.UTC)
			if p.Name != fairbanks || p.Platform != "S1B" || p.Mode != "IW" || !p.Start.Equal(want) ||
				!p.Stop.Equal(want.Add(27*time.Second)) || p.AbsoluteOrbit != 24970 || p.RelativeOrbit != 94 || p.Direction != "ASCENDING" {
				t.Fatalf("%+v", p)
			}
			if !strings.HasSuffix(name, ".kml") && (p.SizeMB < 3999.4 || p.SizeMB > 3999.5) {
				t.Fatalf("size %v", p.SizeMB)
			}
			// Fairbanks (64.84 N, 147.72 W) lies inside the footprint.
			if d := p.Footprint.DistanceKm(64.8378, -147.7164); d != 0 {
				t.Fatalf("Fairbanks %v km from the footprint", d)
			}
		})
	}
}

// TestParseGeoJSONFeature reads the ASF GeoJSON feature, recorded as YAML
// flow style: the YAML is turned into the JSON it spells.
func TestParseGeoJSONFeature(t *testing.T) {
	js, err := yaml.YAMLToJSON(read(t, "asf_search_S1_response_geojson_feature_with_umm.yml"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Parse(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Products) != 1 {
		t.Fatalf("%+v", res)
	}
	p := res.Products[0]
	if p.Name != "S1B_IW_GRDH_1SDV_20211110T032039_20211110T032104_029520_0385E6_60DB" || p.RelativeOrbit != 94 ||
		p.AbsoluteOrbit != 29520 || !p.Start.Equal(time.Date(2021, 11, 10, 3, 20, 39, 0, time.UTC)) || p.Direction != "" ||
		p.SizeMB < 844 || p.SizeMB > 845 || p.Type != "GRD_HD" {
		t.Fatalf("%+v", p)
	}
}

func TestParseSTACItem(t *testing.T) {
	res, err := Parse(bytes.NewReader(read(t, "s1a_iw_grdh_20210809_039156_stac_item.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Products) != 1 {
		t.Fatalf("%+v", res)
	}
	p := res.Products[0]
	if p.Name != "S1A_IW_GRDH_1SDV_20210809T173953_20210809T174018_039156_049F13_6FF8" || p.Platform != "S1A" ||
		p.RelativeOrbit != 59 || p.AbsoluteOrbit != 39156 || p.Direction != "ASCENDING" || p.Mode != "IW" ||
		!p.Start.Equal(time.Date(2021, 8, 9, 17, 39, 53, 153776000, time.UTC)) || len(p.Footprint) != 5 {
		t.Fatalf("%+v", p)
	}
}

// TestParseODataSentinel2Page reads a real CDSE page: two Sentinel-2
// products (skipped: not radar) and the next page's link.
func TestParseODataSentinel2Page(t *testing.T) {
	res, err := Parse(bytes.NewReader(read(t, "cdse_odata_products_search_s2_2results_nextlink.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Products) != 0 || res.Skipped != 2 || !strings.Contains(res.Next, "%24skip=2") {
		t.Fatalf("%+v", res)
	}
}

// TestParseODataSentinel1 reads a CDSE Sentinel-1 record: constructed
// from the real page's layout with the Sentinel-1 attributes NOTES.md
// documents (no raw CDSE Sentinel-1 answer is recorded), the footprint
// and times of the real STAC item's product.
func TestParseODataSentinel1(t *testing.T) {
	doc := `{"@odata.context":"$metadata#Products(Attributes())","value":[{"Name":"S1A_IW_GRDH_1SDV_20210809T173953_20210809T174018_039156_049F13_6FF8.SAFE",
	"ContentLength":1717986918,"ContentDate":{"Start":"2021-08-09T17:39:53.153776Z","End":"2021-08-09T17:40:18.152800Z"},
	"Footprint":"geography'SRID=4326;POLYGON ((1.512143 46.03389, 4.85136 46.436539, 5.188996 44.938713, 1.937196 44.536255, 1.512143 46.03389))'",
	"Attributes":[{"@odata.type":"#OData.CSC.IntegerAttribute","Name":"orbitNumber","Value":39156,"ValueType":"Integer"},
	{"@odata.type":"#OData.CSC.IntegerAttribute","Name":"relativeOrbitNumber","Value":59,"ValueType":"Integer"},
	{"@odata.type":"#OData.CSC.StringAttribute","Name":"orbitDirection","Value":"ASCENDING","ValueType":"String"},
	{"@odata.type":"#OData.CSC.StringAttribute","Name":"operationalMode","Value":"IW","ValueType":"String"},
	{"@odata.type":"#OData.CSC.StringAttribute","Name":"productType","Value":"IW_GRDH_1S","ValueType":"String"},
	{"@odata.type":"#OData.CSC.StringAttribute","Name":"platformSerialIdentifier","Value":"A","ValueType":"String"}]}]}`
	res, err := Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Products) != 1 {
		t.Fatalf("%+v", res)
	}
	p := res.Products[0]
	if p.Platform != "S1A" || p.RelativeOrbit != 59 || p.AbsoluteOrbit != 39156 || p.Type != "IW_GRDH_1S" || p.SizeMB < 1638.3 || p.SizeMB > 1638.5 || p.Name != "S1A_IW_GRDH_1SDV_20210809T173953_20210809T174018_039156_049F13_6FF8" ||
		p.Source != "cdse" || len(p.Footprint) != 5 {
		t.Fatalf("%+v", p)
	}
}

// TestParseDatapoolKML reads the 250 Placemarks: the metadata-file
// Placemarks are skipped; every product's path is the relative orbit its
// absolute orbit gives.
func TestParseDatapoolKML(t *testing.T) {
	res, err := Parse(bytes.NewReader(read(t, "asf_datapool_results_2019-10-01_250placemarks.kml")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Products) < 100 || res.Skipped != 0 {
		t.Fatalf("products %d skipped %d", len(res.Products), res.Skipped)
	}
	platforms := map[string]int{}
	for _, p := range res.Products {
		platforms[p.Platform]++
		if p.RelativeOrbit != sar.RelativeOrbit(p.Platform, p.AbsoluteOrbit) || p.RelativeOrbit == 0 {
			t.Fatalf("%s: path %d, orbit %d", p.Name, p.RelativeOrbit, p.AbsoluteOrbit)
		}
		if p.Start.Before(time.Date(2019, 9, 16, 0, 0, 0, 0, time.UTC)) || p.Start.After(time.Date(2019, 10, 2, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("%s: start %v", p.Name, p.Start)
		}
	}
	if platforms["S1A"] == 0 || platforms["S1B"] == 0 {
		t.Fatalf("%v", platforms)
	}
}

func TestParseRefuses(t *testing.T) {
	for name, body := range map[string]string{
		"empty":       "",
		"html":        "<!DOCTYPE html><html><body>Service Unavailable</body></html>",
		"truncated":   `{"results": [{"granuleName": "S1B_IW`,
		"text":        "error: too many requests",
		"bad time":    `{"results":[{"granuleName":"x","startTime":"yesterday","wkt":"POLYGON((0 0,1 0,1 1,0 0))"}]}`,
		"odata empty": `{"@odata.context":"x"}`,
	} {
		if _, err := Parse(strings.NewReader(body)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Parse(bytes.NewReader(make([]byte, MaxBytes+1))); err != ErrTooLarge {
		t.Errorf("too large: %v", err)
	}
}
