package sourcetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// Level is a gauge height at a time.
type Level struct {
	At time.Time
	Ft float64
}

// RiverIVAnswer is a NWIS IV answer for St. Louis (07010000) with the
// levels given: no recorded answer for the Mississippi gauges exists, so
// it is the real recorded answer in sources/river/testdata (sites 01491000
// and 01645000) with its gage-height series of 01491000 renamed to
// 07010000 and its values replaced, the rest of its structure (envelope,
// string values, qualifiers, local offsets) as recorded.
func RiverIVAnswer(t testing.TB, levels []Level) []byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "river", "testdata", "nwis_iv_waterml_json_01491000_01645000.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	value := doc["value"].(map[string]any)
	var keep []any
	central := time.FixedZone("CST", -6*3600)
	for _, s := range value["timeSeries"].([]any) {
		ts := s.(map[string]any)
		if ts["name"] != "USGS:01491000:00065:00000" {
			continue
		}
		ts["name"] = "USGS:07010000:00065:00000"
		ts["sourceInfo"].(map[string]any)["siteCode"].([]any)[0].(map[string]any)["value"] = "07010000"
		ts["sourceInfo"].(map[string]any)["siteName"] = "MISSISSIPPI RIVER AT ST. LOUIS, MO"
		var vals []any
		for _, l := range levels {
			vals = append(vals, map[string]any{"value": strconv.FormatFloat(l.Ft, 'f', 2, 64), "qualifiers": []string{"P"},
				"dateTime": l.At.In(central).Format("2006-01-02T15:04:05.000-07:00")})
		}
		ts["values"].([]any)[0].(map[string]any)["value"] = vals
		keep = append(keep, ts)
	}
	value["timeSeries"] = keep
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
