package history

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"overwatch/write/ingest"
)

// compressed writes a sample as .gz and as .zip (one entry) in dir.
func compressed(t *testing.T, dir, name string) (gz, zp string, data []byte) {
	t.Helper()
	data, err := os.ReadFile(sample(name))
	if err != nil {
		t.Fatal(err)
	}
	var gb bytes.Buffer
	w := gzip.NewWriter(&gb)
	w.Write(data)
	w.Close()
	gz = filepath.Join(dir, name+".gz")
	if err := os.WriteFile(gz, gb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	zp = filepath.Join(dir, name+".zip")
	writeZip(t, zp, map[string][]byte{name: data}, []string{name})
	return gz, zp, data
}

// writeZip writes the entries in order.
func writeZip(t *testing.T, path string, entries map[string][]byte, order []string) {
	t.Helper()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, n := range order {
		f, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(entries[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func equalReports(t *testing.T, what string, a, b []ingest.Report) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d reports, want %d", what, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: report %d\n got %+v\nwant %+v", what, i, a[i], b[i])
		}
	}
}

// TestCompressed: .gz and .zip give the reports of the plain file; the
// progress counts compressed bytes.
func TestCompressed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name := range samples {
		if strings.HasSuffix(name, ".gz") {
			continue
		}
		plain, ps := readAll(t, sample(name), Auto)
		gz, zp, _ := compressed(t, dir, name)
		for _, p := range []string{gz, zp} {
			reps, s := readAll(t, p, Auto)
			equalReports(t, p, reps, plain)
			fi, _ := os.Stat(p)
			if s.Size != fi.Size() || s.BytesRead != s.Size || s.Rows != ps.Rows || s.Format != ps.Format {
				t.Errorf("%s: size %d read %d rows %d format %s", p, s.Size, s.BytesRead, s.Rows, s.Format)
			}
		}
	}
}

// TestZipEntries: a zip of several daily CSVs reads each entry in order,
// each with its header, line numbers per entry.
func TestZipEntries(t *testing.T) {
	t.Parallel()
	a, _ := os.ReadFile(sample("noaa_marinecadastre_2022-03-31_51rows.csv"))
	b, _ := os.ReadFile(sample("noaa_marinecadastre_2024-01-01_499rows.csv"))
	p := filepath.Join(t.TempDir(), "AIS_days.zip")
	writeZip(t, p, map[string][]byte{"AIS_2022_03_31.csv": a, "empty/": nil, "AIS_2024_01_01.csv": b},
		[]string{"AIS_2022_03_31.csv", "empty/", "AIS_2024_01_01.csv"})
	reps, s := readAll(t, p, MarineCadastre)
	ra, _ := readAll(t, sample("noaa_marinecadastre_2022-03-31_51rows.csv"), Auto)
	if len(reps) != 102+998 || s.Rows != 550 || s.Line != 500 || s.Entry != "AIS_2024_01_01.csv" || s.MMSIs != 546 {
		t.Errorf("%d reports, stats %v line %d entry %q", len(reps), s, s.Line, s.Entry)
	}
	equalReports(t, "first entry", reps[:102], ra)

	// A second entry of another format is an error naming the entry.
	g, _ := os.ReadFile(sample("gfw_gpsdio_types.ndjson"))
	p = filepath.Join(t.TempDir(), "mixed.zip")
	writeZip(t, p, map[string][]byte{"a.csv": a, "b.json": g}, []string{"a.csv", "b.json"})
	r, err := Open(p, Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = drain(r)
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != p+":b.json" || fe.Line != 1 || !strings.Contains(err.Error(), "not a marinecadastre file") {
		t.Errorf("mixed zip: %v", err)
	}
}

// TestTruncatedGzip: a cut gzip stream gives the reports before the cut,
// then a FileError naming the file and the line, again and again.
func TestTruncatedGzip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gz, _, _ := compressed(t, dir, "noaa_marinecadastre_2024-01-01_499rows.csv")
	b, _ := os.ReadFile(gz)
	cut := filepath.Join(dir, "cut.csv.gz")
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	r, err := Open(cut, Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	reps, err := drain(r)
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != cut || fe.Line < 2 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v", err)
	}
	if !strings.HasPrefix(err.Error(), cut+": line ") || !strings.HasSuffix(err.Error(), "unexpected EOF") {
		t.Errorf("message %q", err)
	}
	s := r.Stats()
	if len(reps) == 0 || s.Rows != fe.Line-2 || uint64(len(reps)) != s.Reports {
		t.Errorf("%d reports, rows %d, error at line %d", len(reps), s.Rows, fe.Line)
	}
	if _, again := r.Next(); again != err {
		t.Errorf("Next after the error: %v", again)
	}
}

// TestBadFiles: binary data, a wrong header, a forced format that does
// not fit, an empty file: clear errors at line 1.
func TestBadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	png := write("chart.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"))
	wrong := write("ports.csv", []byte("port,country,lat,lon\nRotterdam,NL,51.9,4.1\n"))
	empty := write("empty.csv", nil)
	cases := []struct {
		path string
		f    Format
		want []string
	}{
		{png, Auto, []string{png + ": line 1: binary data", "formats understood: marinecadastre"}},
		{wrong, Auto, []string{wrong + ": line 1: unrecognised format", `"port,country,lat,lon"`, "formats understood"}},
		{sample("noaa_marinecadastre_2022-03-31_51rows.csv"), DMA, []string{"line 1: not a dma file", "it looks like marinecadastre"}},
		{sample("barentswatch_kystverket_get_ais_20230220.ndjson"), GFW, []string{"line 1: not a gfw file", "it looks like barentswatch"}},
		{sample("gfw_gpsdio_types.ndjson"), NMEA, []string{"line 1: not a nmea file"}},
		{wrong, MarineCadastre, []string{"line 1: not a marinecadastre file"}},
		{empty, Auto, []string{empty + ": no data"}},
	}
	for _, c := range cases {
		r, err := Open(c.path, c.f, "x")
		var fe *FileError
		if err == nil || !errors.As(err, &fe) {
			t.Errorf("%s as %s: %v, %v", c.path, c.f, r, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s as %s: %q lacks %q", c.path, c.f, err, w)
			}
		}
	}
	// A zip archive cut short has no central directory.
	_, zp, _ := compressed(t, dir, "gfw_gpsdio_types.ndjson")
	zb, _ := os.ReadFile(zp)
	cutZip := write("cut.zip", zb[:len(zb)/2])
	if _, err := Open(cutZip, Auto, "x"); err == nil || !strings.HasPrefix(err.Error(), cutZip+": zip: ") {
		t.Errorf("cut zip: %v", err)
	}
	// An empty file of a forced format has no reports.
	r, err := Open(empty, MarineCadastre, "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("empty: %v", err)
	}
	r.Close()
	if _, err := Open(filepath.Join(dir, "missing.csv"), Auto, "x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Open(empty, "parquet", "x"); err == nil || !strings.Contains(err.Error(), "unknown format") {
		t.Errorf("parquet: %v", err)
	}
}

// TestBinaryMidFile: binary bytes after good rows stop the file there;
// a quirky row does not; an overlong line is a bad row.
func TestBinaryMidFile(t *testing.T) {
	t.Parallel()
	b, _ := os.ReadFile(sample("noaa_marinecadastre_2022-03-31_51rows.csv"))
	lines := strings.SplitAfter(string(b), "\n")
	in := strings.Join(lines[:4], "") + "1,2,3\n" + strings.Repeat("x", MaxLine+10) + "\n" + strings.Join(lines[4:6], "") +
		"PK\x03\x04\x14\x00\x00\x00\x08\x00\n" + strings.Join(lines[6:], "")
	r, err := NewReader(strings.NewReader(in), "mixed.csv", Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	reps, err := drain(r)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line != 9 || !errors.Is(err, errBinary) || fe.File != "mixed.csv" {
		t.Fatalf("got %v", err)
	}
	s := r.Stats()
	if len(reps) != 10 || s.Rows != 7 || s.Skipped[SkipBadRow] != 2 || s.Line != 9 {
		t.Errorf("%d reports, stats %v, skipped %v, line %d", len(reps), s, s.Skipped, s.Line)
	}
	if r.Close() != nil {
		t.Error("close")
	}
	if _, err := r.Next(); err == nil {
		t.Error("Next after Close")
	}
}

// TestParseFormat: names, case, the empty string.
func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, f := range Formats() {
		if got, err := ParseFormat(" " + strings.ToUpper(string(f)) + " "); err != nil || got != f {
			t.Errorf("%s: %s %v", f, got, err)
		}
	}
	if got, err := ParseFormat(""); err != nil || got != Auto {
		t.Errorf("empty: %s %v", got, err)
	}
	if _, err := ParseFormat("parquet"); err == nil || !strings.Contains(err.Error(), "formats understood") {
		t.Errorf("parquet: %v", err)
	}
}

// TestDetect: the first line of every sample, and near misses.
func TestDetect(t *testing.T) {
	t.Parallel()
	for name, w := range samples {
		b := readSample(t, name)
		first, _, _ := bytes.Cut(b, []byte("\n"))
		if got := detect(first); got != w.format {
			t.Errorf("%s: %q, want %s", name, got, w.format)
		}
	}
	cases := map[string]Format{
		"mmsi,base_date_time,longitude,latitude,sog":           MarineCadastre,
		"Timestamp,Type of mobile,MMSI,Latitude,Longitude":     DMA,
		`1550303566167726840 !AIVDM,1,1,,A,13u?etPv2;0n,0*00`:  NMEA,
		`\s:2573135,c:1635731889*0F\!AIVDM,1,1,,A,13u?et,0*00`: NMEA,
		`{"mmsi": 1, "timestamp": "2012-01-01T00:00:00Z"}`:     GFW,
		`{"mmsi": 1, "type": "Staticdata"}`:                    BarentsWatch,
		`{"mmsi": 1}`:                                          "",
		`{broken`:                                              "",
		"Time,MMSI,Latitude_degrees,Longitude_degrees":         CSV,
		"mmsi;imo_nr;length;date_time_utc;lon;lat":             CSV,
		"mmsi\ttimestamp\tlatitude\tlongitude":                 CSV,
		"mmsi;date_time_utc;lon":                               "",
		"12345 not nmea":                                       "",
		"# Timestamp only":                                     "",
		"\ufeffMMSI,BaseDateTime,LAT,LON,SOG,COG,Heading":      MarineCadastre,
		`"MMSI","BaseDateTime","LAT","LON","SOG","COG","Head"`: MarineCadastre,
	}
	for line, want := range cases {
		if got := detect([]byte(line)); got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

// TestStatsWhileReading: Stats may be called from another goroutine (a
// progress bar) while Next runs.
func TestStatsWhileReading(t *testing.T) {
	t.Parallel()
	_, zp, _ := compressed(t, t.TempDir(), "dma_aislib_stream_example_20100611_pghp.nmea")
	r, err := Open(zp, Auto, "x")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var last uint64
		for {
			s := r.Stats()
			if s.Rows < last || s.BytesRead > s.Size {
				t.Errorf("rows %d after %d, read %d of %d", s.Rows, last, s.BytesRead, s.Size)
				return
			}
			last = s.Rows
			if s.Rows == 8551 {
				return
			}
		}
	}()
	if _, err := drain(r); err != nil {
		t.Fatal(err)
	}
	<-done
}
