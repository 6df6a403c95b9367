package bulk

import (
	"bytes"
	"encoding/csv"
	"math"
	"testing"
	"time"
)

func TestAppendTimeIsRFC3339(t *testing.T) {
	t.Parallel()
	for _, at := range []time.Time{
		time.Unix(1, 0), time.Date(2000, 2, 29, 23, 59, 59, 0, time.UTC), time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2028, 2, 29, 12, 30, 5, 0, time.UTC), time.Date(2100, 3, 1, 1, 2, 3, 0, time.UTC), time.Date(1999, 12, 31, 23, 0, 0, 0, time.UTC),
	} {
		if got, want := string(appendTime(nil, at.Unix())), at.UTC().Format(time.RFC3339); got != want {
			t.Errorf("%d: %s, want %s", at.Unix(), got, want)
		}
	}
	for s := int64(0); s < 200*366*86400; s += 86400*7 + 3607 {
		if got, want := string(appendTime(nil, s)), time.Unix(s, 0).UTC().Format(time.RFC3339); got != want {
			t.Fatalf("%d: %s, want %s", s, got, want)
		}
	}
}

// The CSV a dataset's writer writes reads back through encoding/csv with
// its values: quoted text, formula-safe crew text, nulls empty.
func TestCSVWriterQuotesAndNulls(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := newCSVWriter(RiskEvents, &b, nil)
	vals := scanDest(RiskEvents)
	set := map[string]any{"type": "dark_fleet", "subtype": `a "quoted", value`, "imo": int64(9074729), "name": "=HYPERLINK(1)",
		"other_imo": int64(0), "started_at": int64(1764979200), "ended_at": int64(0), "latitude": 51.5, "longitude": math.NaN(), "detail": "line\nbreak"}
	for i, c := range RiskEvents.Columns() {
		switch v := set[c.Name].(type) {
		case string:
			*vals[i].(*string) = v
		case int64:
			*vals[i].(*int64) = v
		case float64:
			*vals[i].(*float64) = v
		}
	}
	if err := w.Write(vals); err != nil || w.Close() != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 2 {
		t.Fatalf("%v %q", err, b.String())
	}
	got := map[string]string{}
	for i, name := range recs[0] {
		got[name] = recs[1][i]
	}
	for name, want := range map[string]string{"subtype": `a "quoted", value`, "imo": "9074729", "name": "'=HYPERLINK(1)", "other_imo": "",
		"started_at": "2025-12-06T00:00:00Z", "ended_at": "", "latitude": "51.5", "longitude": "", "detail": "line\nbreak"} {
		if got[name] != want {
			t.Errorf("%s = %q, want %q", name, got[name], want)
		}
	}
}

func TestParseRange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		h             string
		start, end    int64
		ok, satisfies bool
	}{
		{"bytes=0-99", 0, 99, true, true},
		{"bytes=100-", 100, 999, true, true},
		{"bytes=-10", 990, 999, true, true},
		{"bytes=-5000", 0, 999, true, true},
		{"bytes=900-5000", 900, 999, true, true},
		{"bytes=1000-", 0, 0, true, false},
		{"bytes=-0", 0, 0, true, false},
		{"bytes=5-1", 0, 0, false, false},
		{"bytes=0-1,5-6", 0, 0, false, false},
		{"items=0-1", 0, 0, false, false},
		{"bytes=x-", 0, 0, false, false},
	} {
		s, e, ok, sat := parseRange(c.h, 1000)
		if ok != c.ok || sat != c.satisfies || sat && (s != c.start || e != c.end) {
			t.Errorf("%s: %d-%d %v %v", c.h, s, e, ok, sat)
		}
	}
}

func TestParseRequest(t *testing.T) {
	t.Parallel()
	r, err := ParseRequest([]byte(`{"dataset":"risk_events","format":"geojson","filters":{"imo":[9074729,"9321483"],"bbox":[179,-10,-179,10],"start":"2026-01-01"}}`))
	if err != nil || r.Filters["imo"] != "9074729,9321483" || r.Filters["bbox"] != "179,-10,-179,10" || len(r.Filter.IMOs) != 2 ||
		r.Filter.BBox == nil || !r.Filter.BBox.CrossesAntimeridian() || r.Filter.Start.IsZero() {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = ParseRequest([]byte(`{"dataset":"positions","filters":{"polygon":{"type":"Polygon","coordinates":[[[3.9,51.8],[4.6,51.8],[4.6,52.1],[3.9,51.8]]]}}}`))
	if err != nil || r.Format != CSV || len(r.Filter.Polygon) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
}
