package river

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	gauge "overwatch/maritime/river"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ogcCollection is one collection of the real OGC fixtures file (a map of
// collection name to the FeatureCollection the API answered).
func ogcCollection(t testing.TB, name string) []byte {
	t.Helper()
	var all map[string]json.RawMessage
	if err := json.Unmarshal(read(t, "usgs_waterdata_ogc_fixtures.json"), &all); err != nil {
		t.Fatal(err)
	}
	if all[name] == nil {
		t.Fatalf("no collection %s", name)
	}
	return all[name]
}

func TestParseIVReal(t *testing.T) {
	rs, err := Parse(read(t, "nwis_iv_waterml_json_01491000_01645000.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 20 {
		t.Fatalf("%d readings, want 20", len(rs))
	}
	var gh []gauge.Reading
	for _, r := range rs {
		if r.Site == "01491000" && r.Parameter == gauge.ParamGageHeight {
			gh = append(gh, r)
		}
	}
	want := time.Date(2019, 2, 14, 5, 0, 0, 0, time.UTC) // 00:00 at -05:00
	if len(gh) != 5 || gh[0].Value != 6.48 || !gh[0].Time.Equal(want) || gh[0].Time.Location() != time.UTC ||
		strings.Join(gh[0].Qualifiers, ",") != "A" || gh[0].Source != SourceIV {
		t.Errorf("gage height of 01491000: %+v", gh)
	}
}

func TestParseIVNoData(t *testing.T) {
	// The real answer with one value replaced by the no-data value and
	// one qualifier by the provisional/ice pair the service also sends.
	b := strings.Replace(string(read(t, "nwis_iv_waterml_json_01491000_01645000.json")), `"value": "6.46"`, `"value": "-999999"`, 1)
	b = strings.Replace(b, `"value": "6.45", "qualifiers": ["A"]`, `"value": "6.45", "qualifiers": ["P", "Ice"]`, 1)
	rs, err := Parse([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 19 {
		t.Fatalf("%d readings, want 19 (no-data left out)", len(rs))
	}
	for _, r := range rs {
		if r.Value < -1000 {
			t.Errorf("a no-data value as a reading: %+v", r)
		}
		if r.Value == 6.45 && strings.Join(r.Qualifiers, ",") != "P,Ice" {
			t.Errorf("qualifiers not kept: %+v", r)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	rs, err := Parse(read(t, "nwis_iv_empty_timeseries_mock.json"))
	if err != nil || len(rs) != 0 {
		t.Fatalf("empty series: %v, %v", rs, err)
	}
}

func TestParseOGCReal(t *testing.T) {
	rs, err := Parse(ogcCollection(t, "latest-continuous"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Site != "06904500" || rs[0].Parameter != "00065" || rs[0].Value != 1.59 ||
		!rs[0].Time.Equal(time.Date(2026, 8, 7, 18, 45, 0, 0, time.UTC)) || strings.Join(rs[0].Qualifiers, ",") != "P" || rs[0].Source != SourceOGC {
		t.Errorf("latest-continuous: %+v", rs)
	}
	rs, err = Parse(ogcCollection(t, "continuous"))
	if err != nil || len(rs) != 2 || rs[1].Value != 1.76 || rs[1].Qualifiers[0] != "A" {
		t.Errorf("continuous: %+v %v", rs, err)
	}
}

func TestParseFailures(t *testing.T) {
	real := read(t, "nwis_iv_waterml_json_01491000_01645000.json")
	for name, body := range map[string]string{
		"truncated":   string(real[:len(real)/2]),
		"html":        "<!DOCTYPE html><html><body>503 Service Unavailable</body></html>",
		"empty":       "",
		"not waterml": `{"error":"bad request"}`,
		"bad value":   strings.Replace(string(real), `"value": "6.48"`, `"value": "n/a"`, 1),
		"bad time":    strings.Replace(string(real), `2019-02-14T00:15:00.000-05:00`, `yesterday`, 1),
		"ogc no feat": `{"type":"FeatureCollection"}`,
	} {
		if rs, err := Parse([]byte(body)); err == nil {
			t.Errorf("%s: no error (%d readings)", name, len(rs))
		}
	}
	if _, err := Parse([]byte("<html>")); !errors.Is(err, ErrNotData) {
		t.Errorf("html: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"nwis_iv_waterml_json_01491000_01645000.json", "nwis_iv_empty_timeseries_mock.json"} {
		f.Add(read(f, name))
	}
	f.Add(ogcCollection(f, "latest-continuous"))
	f.Add(ogcCollection(f, "continuous"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := Parse(data)
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.Value <= gauge.NoData+1 || r.Site == "" || r.Parameter == "" || r.Time.Location() != time.UTC {
				t.Fatalf("bad reading %+v", r)
			}
		}
	})
}
