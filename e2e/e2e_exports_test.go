package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"overwatch"
	"overwatch/apptest"
	"overwatch/bulk"
	"overwatch/maritime/geo"
	"overwatch/read"
)

// exportOf posts an export and returns it (202).
func exportOf(t *testing.T, s *apptest.TestServer, key, body string) bulk.Export {
	t.Helper()
	r := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/exports", IP: apptest.FreshIP(), Key: key, Body: body})
	if r.StatusCode != 202 {
		t.Fatalf("POST /v1/exports %s: %d %s", body, r.StatusCode, r.Body)
	}
	var out struct{ Export bulk.Export }
	apptest.MustUnmarshal(t, r.Body, &out)
	if out.Export.ID == "" || out.Export.Status != bulk.Queued || out.Export.Rows != nil || out.Export.DownloadURL != nil {
		t.Fatalf("queued export: %s", r.Body)
	}
	return out.Export
}

// exportStatus is GET /v1/exports/{id}'s export.
func exportStatus(t *testing.T, s *apptest.TestServer, key, id string) (int, bulk.Export) {
	t.Helper()
	r := s.Do(t, apptest.Request{Path: "/v1/exports/" + id, IP: apptest.FreshIP(), Key: key})
	var out struct{ Export bulk.Export }
	if r.StatusCode == 200 {
		apptest.MustUnmarshal(t, r.Body, &out)
	}
	return r.StatusCode, out.Export
}

// waitExport polls the export until it is completed or failed.
func waitExport(t *testing.T, s *apptest.TestServer, key, id string) bulk.Export {
	t.Helper()
	var e bulk.Export
	apptest.Eventually(t, 60*time.Second, "export "+id+" done", func() bool {
		var code int
		code, e = exportStatus(t, s, key, id)
		if code != 200 {
			t.Fatalf("status of %s: %d", id, code)
		}
		return e.Status == bulk.Completed || e.Status == bulk.Failed
	})
	return e
}

// downloadExport is GET /v1/exports/{id}/download with a Range header
// ("" for none).
func downloadExport(t *testing.T, s *apptest.TestServer, key, id, rng string) apptest.Response {
	t.Helper()
	h := map[string]string{}
	if rng != "" {
		h["Range"] = rng
	}
	return s.Do(t, apptest.Request{Path: "/v1/exports/" + id + "/download", IP: apptest.FreshIP(), Key: key, Header: h})
}

// fixRecord is a stored fix as the positions export writes it.
func fixRecord(f read.Fix, mmsi uint32) []string {
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
	}
	heading := ""
	if f.Heading >= 0 {
		heading = strconv.Itoa(int(f.Heading))
	}
	return []string{f.IMO.String(), strconv.FormatUint(uint64(mmsi), 10), f.TS.UTC().Format(time.RFC3339),
		strconv.FormatFloat(f.Lat, 'f', -1, 64), strconv.FormatFloat(f.Lon, 'f', -1, 64), num(f.SpeedKt), num(f.CourseDeg), heading,
		strconv.Itoa(int(f.NavStatus)), string(f.Source), f.ReceivedAt.UTC().Format(time.RFC3339)}
}

func sortRecords(recs [][]string) [][]string {
	sort.Slice(recs, func(i, j int) bool { return strings.Join(recs[i], ",") < strings.Join(recs[j], ",") })
	return recs
}

// storedFixes are the fixes the filter selects, read straight from the
// store (the tracks' read), as the export's records.
func storedFixes(t *testing.T, s *apptest.TestServer, f read.PositionFilter, mmsi map[overwatch.IMO]uint32) [][]string {
	t.Helper()
	rows, err := s.Ch.Fixes(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]string
	var fix read.Fix
	for rows.Next(&fix) {
		out = append(out, fixRecord(fix, mmsi[fix.IMO]))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return sortRecords(out)
}

var positionHeader = "imo,mmsi,timestamp,latitude,longitude,speed_kt,course_deg,heading,nav_status,source,received_at"

func csvRecords(t *testing.T, b []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("csv: %v %q", err, b[:min(len(b), 200)])
	}
	if strings.Join(recs[0], ",") != positionHeader {
		t.Fatalf("header %v", recs[0])
	}
	return sortRecords(recs[1:])
}

// positionRow is a row of the positions' Parquet file.
type positionRow struct {
	IMO        *int64   `parquet:"imo,optional"`
	MMSI       int64    `parquet:"mmsi"`
	Timestamp  *int64   `parquet:"timestamp,optional"`
	Latitude   *float64 `parquet:"latitude,optional"`
	Longitude  *float64 `parquet:"longitude,optional"`
	SpeedKt    *float64 `parquet:"speed_kt,optional"`
	CourseDeg  *float64 `parquet:"course_deg,optional"`
	Heading    *float64 `parquet:"heading,optional"`
	NavStatus  int64    `parquet:"nav_status"`
	Source     string   `parquet:"source"`
	ReceivedAt *int64   `parquet:"received_at,optional"`
}

func parquetRecords(t *testing.T, b []byte) [][]string {
	t.Helper()
	r := parquet.NewGenericReader[positionRow](bytes.NewReader(b))
	defer r.Close()
	rows := make([]positionRow, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) || err != nil && err != io.EOF {
		t.Fatalf("parquet: %d of %d rows: %v", n, len(rows), err)
	}
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', -1, 64)
	}
	ms := func(p *int64) string { return time.UnixMilli(*p).UTC().Format(time.RFC3339) }
	var out [][]string
	for _, p := range rows {
		out = append(out, []string{strconv.FormatInt(*p.IMO, 10), strconv.FormatInt(p.MMSI, 10), ms(p.Timestamp), num(p.Latitude), num(p.Longitude),
			num(p.SpeedKt), num(p.CourseDeg), num(p.Heading), strconv.FormatInt(p.NavStatus, 10), p.Source, ms(p.ReceivedAt)})
	}
	return sortRecords(out)
}

func geoJSONRecords(t *testing.T, b []byte) [][]string {
	t.Helper()
	var fc struct {
		Type     string
		Features []struct {
			Type     string
			Geometry struct {
				Type        string
				Coordinates []json.Number
			}
			Properties map[string]any
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&fc); err != nil || fc.Type != "FeatureCollection" {
		t.Fatalf("geojson: %v %.200s", err, b)
	}
	val := func(v any) string {
		switch x := v.(type) {
		case nil:
			return ""
		case json.Number:
			return x.String()
		case string:
			return x
		}
		t.Fatalf("property %v", v)
		return ""
	}
	var out [][]string
	for _, f := range fc.Features {
		p := f.Properties
		if f.Type != "Feature" || f.Geometry.Type != "Point" || len(f.Geometry.Coordinates) != 2 || len(p) != 9 {
			t.Fatalf("feature %+v", f)
		}
		out = append(out, []string{val(p["imo"]), val(p["mmsi"]), val(p["timestamp"]), f.Geometry.Coordinates[1].String(), f.Geometry.Coordinates[0].String(),
			val(p["speed_kt"]), val(p["course_deg"]), val(p["heading"]), val(p["nav_status"]), val(p["source"]), val(p["received_at"])})
	}
	return sortRecords(out)
}

// TestExportPositionsEqualTheStore: a positions export of two vessels (one
// crossing the antimeridian), in each format, holds exactly the fixes the
// store holds for the same filters; a bbox across the antimeridian
// selects the fixes the store's filter selects; a download resumed with
// Range gives the same bytes.
func TestExportPositionsEqualTheStore(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_EXPORT_DIR": t.TempDir()})
	a := layTrack(t, s, "EXPORT ONE", 51.0, 3.0)
	b := layTrack(t, s, "EXPORT TWO", 10.0, 179.8)
	mmsi := map[overwatch.IMO]uint32{a.imo: a.mmsi, b.imo: b.mmsi}
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	imos := a.imo.String() + "," + b.imo.String()
	want := storedFixes(t, s, read.PositionFilter{IMOs: []overwatch.IMO{a.imo, b.imo}}, mmsi)
	if len(want) != 52 {
		t.Fatalf("stored %d fixes, want 52", len(want))
	}
	files := map[bulk.Format][]byte{}
	for _, format := range bulk.Formats {
		e := exportOf(t, s, pro, `{"dataset":"positions","format":"`+string(format)+`","filters":{"imo":"`+imos+`"}}`)
		if e.Filters["imo"] != imos || e.Dataset != bulk.Positions || e.Format != format {
			t.Errorf("queued %+v", e)
		}
		e = waitExport(t, s, pro, e.ID)
		if e.Status != bulk.Completed || e.Rows == nil || *e.Rows != int64(len(want)) || e.Bytes == nil || e.Progress != 1 ||
			e.DownloadURL == nil || *e.DownloadURL != "https://overwatch.test/v1/exports/"+e.ID+"/download" || e.ExpiresAt == nil || e.CompletedAt == nil {
			t.Fatalf("%s export: %+v", format, e)
		}
		r := downloadExport(t, s, pro, e.ID, "")
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != format.ContentType() || r.Header.Get("Accept-Ranges") != "bytes" ||
			!strings.Contains(r.Header.Get("Content-Disposition"), `filename="positions-`+e.ID+`.`+string(format)+`"`) || int64(len(r.Body)) != *e.Bytes {
			t.Fatalf("%s download: %d %v (%d bytes)", format, r.StatusCode, r.Header, len(r.Body))
		}
		files[format] = r.Body
	}
	got := csvRecords(t, files[bulk.CSV])
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("csv rows differ from the store's:\n got %v\nwant %v", got[:2], want[:2])
	}
	z, err := gzip.NewReader(bytes.NewReader(files[bulk.CSVGzip]))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if got := csvRecords(t, unzipped); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("csv.gz rows differ from the store's")
	}
	if got := parquetRecords(t, files[bulk.Parquet]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("parquet rows differ from the store's:\n got %v\nwant %v", got[:1], want[:1])
	}
	if got := geoJSONRecords(t, files[bulk.GeoJSON]); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("geojson rows differ from the store's:\n got %v\nwant %v", got[:1], want[:1])
	}

	// An area across the antimeridian, as a list; the store's filter
	// selects the same fixes.
	e := exportOf(t, s, pro, `{"dataset":"positions","filters":{"bbox":[179.9,9,-179.5,11],"imo":["`+b.imo.String()+`"]}}`)
	e = waitExport(t, s, pro, e.ID)
	wantBox := storedFixes(t, s, read.PositionFilter{IMOs: []overwatch.IMO{b.imo}, BBox: &geo.BBox{West: 179.9, South: 9, East: -179.5, North: 11}}, mmsi)
	if len(wantBox) == 0 || len(wantBox) == 26 {
		t.Fatalf("the box selects %d of 26 fixes; the test needs some", len(wantBox))
	}
	if r := downloadExport(t, s, pro, e.ID, ""); !slices.EqualFunc(csvRecords(t, r.Body), wantBox, slices.Equal) {
		t.Errorf("the antimeridian box's rows differ from the store's")
	}

	// Resumed with Range: the same bytes.
	full := files[bulk.CSVGzip]
	var gzID string
	for _, x := range listExports(t, s, pro) {
		if x.Format == bulk.CSVGzip {
			gzID = x.ID
		}
	}
	head := downloadExport(t, s, pro, gzID, "bytes=0-99")
	tail := downloadExport(t, s, pro, gzID, "bytes=100-")
	last := downloadExport(t, s, pro, gzID, "bytes=-10")
	size := strconv.Itoa(len(full))
	if head.StatusCode != 206 || head.Header.Get("Content-Range") != "bytes 0-99/"+size || tail.StatusCode != 206 ||
		tail.Header.Get("Content-Range") != "bytes 100-"+strconv.Itoa(len(full)-1)+"/"+size ||
		!bytes.Equal(append(head.Body, tail.Body...), full) || !bytes.Equal(last.Body, full[len(full)-10:]) {
		t.Errorf("ranges: %d %v, %d %v, %d", head.StatusCode, head.Header, tail.StatusCode, tail.Header, last.StatusCode)
	}
	if r := downloadExport(t, s, pro, gzID, "bytes="+size+"-"); r.StatusCode != 416 || r.Header.Get("Content-Range") != "bytes */"+size {
		t.Errorf("unsatisfiable range: %d %v %s", r.StatusCode, r.Header, r.Body)
	}
}

func listExports(t *testing.T, s *apptest.TestServer, key string) []bulk.Export {
	t.Helper()
	r := s.Do(t, apptest.Request{Path: "/v1/exports", IP: apptest.FreshIP(), Key: key})
	if r.StatusCode != 200 {
		t.Fatalf("list: %d %s", r.StatusCode, r.Body)
	}
	var out struct{ Exports []bulk.Export }
	apptest.MustUnmarshal(t, r.Body, &out)
	return out.Exports
}
