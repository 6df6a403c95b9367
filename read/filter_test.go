package read

import (
	"errors"
	"strings"
	"testing"
	"time"

	"overwatch"
)

func TestParsePositionFilter(t *testing.T) {
	parse := func(q map[string]string) (PositionFilter, error) {
		return ParsePositionFilter(func(n string) string { return q[n] })
	}
	f, err := parse(map[string]string{
		"imo": "9074729,9176187", "mmsi": "244660000", "type": "tanker", "bbox": "170,-10,-170,10",
		"start": "2026-01-01", "end": "2026-01-02T12:00:00Z", "source": "aishub,spire",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.IMOs) != 2 || f.IMOs[1] != 9176187 || len(f.MMSIs) != 1 || f.Category.Name != "tanker" ||
		!f.BBox.CrossesAntimeridian() || !f.End.Equal(time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)) ||
		len(f.Sources) != 2 || f.Sources[1] != overwatch.SourceSpire {
		t.Errorf("filter %+v", f)
	}
	if !f.InArea(0, 179) || f.InArea(0, 0) {
		t.Error("antimeridian box")
	}
	f, err = parse(map[string]string{"polygon": `{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,0]]]}`})
	if err != nil || !f.HasArea() || !f.InArea(2, 5) || f.InArea(8, 5) {
		t.Errorf("polygon: %v %+v", err, f)
	}
	var big strings.Builder
	big.WriteString(`{"type":"Polygon","coordinates":[[`)
	for i := 0; i < PolygonMaxPositions; i++ {
		big.WriteString("[1,1],")
	}
	big.WriteString("[1,1]]]}")
	for q, param := range map[string]string{
		"imo=123":                 "imo",
		"imo=9074729,,9176187":    "imo",
		"mmsi=12345678901":        "mmsi",
		"type=submarine":          "type",
		"bbox=1,2,3":              "bbox",
		"bbox=1,50,3,40":          "bbox",
		"bbox=1,2,200,3":          "bbox",
		"bbox=a,b,c,d":            "bbox",
		"polygon=[1,2]":           "polygon",
		"polygon=" + big.String(): "polygon",
		`polygon={"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}`: "polygon",
		"start=yesterday":                 "start",
		"start=2026-02-01&end=2026-01-01": "end",
		"source=marinetraffic":            "source",
		"bbox=0,0,1,1&polygon=x":          "polygon",
	} {
		vals := map[string]string{}
		for _, kv := range strings.Split(q, "&") {
			k, v, _ := strings.Cut(kv, "=")
			vals[k] = v
		}
		_, err := parse(vals)
		var e *overwatch.Error
		if !errors.As(err, &e) || e.Code != overwatch.Invalid || len(e.Fields) == 0 || e.Fields[0].Value != param {
			t.Errorf("%s: %v (%+v), want a 400 naming %s", q, err, e, param)
		}
	}
}
