package e2e

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/write/ais/aistest"
	"overwatch/write/history"
	"overwatch/write/ingest"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// archiveSamples are real archive files of every format, from
// write/history/testdata (see its README for their origin).
var archiveSamples = []string{
	"noaa_marinecadastre_2022-03-31_51rows.csv",
	"noaa_marinecadastre_2024-01-01_499rows.csv",
	"barentswatch_kystverket_get_ais_20230220.ndjson",
	"barentswatch_kystverket_combined_full_20230217.ndjson",
	"dma_aislib_stream_example_20100611_pghp.nmea",
	"dma_aisdk_constructed_2023_26col.csv",
	"gfw_gpsdio_segment_263576000.ndjson",
}

func archivePath(name string) string { return filepath.Join("../write/history/testdata", name) }

// archiveReports reads files with the history readers, as the import does.
func archiveReports(t *testing.T, paths []string) []ingest.Report {
	t.Helper()
	var out []ingest.Report
	for _, p := range paths {
		r, err := history.Open(p, history.Auto, overwatch.SourceAISHub)
		if err != nil {
			t.Fatal(err)
		}
		for {
			rep, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rep)
		}
		r.Close()
	}
	return out
}

// storeCounts are the rows of the tables an import writes (FINAL: as
// merged).
func storeCounts(t *testing.T, fx *chtest.Fixtures) [4]uint64 {
	t.Helper()
	var out [4]uint64
	for i, table := range []string{"positions", "static_reports", "latest_positions", "vessels"} {
		if err := fx.QueryRow(t, "SELECT count() FROM "+table+" FINAL").Scan(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestImportHistory imports real archives of every format through
// `overwatch import history` into a fresh database. Afterwards the public
// lookup answers for every IMO of the files that has a valid position,
// with its newest position; importing the files again changes nothing and
// says so; --force reads them again and changes nothing either; /metrics
// counts the imports.
func TestImportHistory(t *testing.T) {
	chURL := chtest.URL(t, "e2e_history")
	var paths []string
	for _, name := range archiveSamples {
		paths = append(paths, archivePath(name))
	}
	want := latestOfReports(archiveReports(t, paths))
	if len(want) < 100 {
		t.Fatalf("only %d IMOs with a position in the samples", len(want))
	}
	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "48h", "OVERWATCH_LOG_LEVEL": "warn"}
	importFiles := func(args ...string) string {
		t.Helper()
		var out, errs strings.Builder
		limit := debug.SetMemoryLimit(-1) // -1 reads it
		if err := app.Run(context.Background(), append([]string{"overwatch", "import", "history"}, args...), apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
			t.Fatalf("import: %v\n%s%s", err, out.String(), errs.String())
		}
		// The import's soft memory limit is its own: run in process, it
		// leaves the process's limit as it found it.
		if after := debug.SetMemoryLimit(-1); after != limit {
			t.Errorf("the process's memory limit after the import: %d, before %d", after, limit)
		}
		return out.String()
	}
	out := importFiles(paths...)
	t.Log(out)
	if n := strings.Count(out, ": complete: "); n != len(paths) {
		t.Errorf("%d files complete, want %d:\n%s", n, len(paths), out)
	}
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL,
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "1000000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "1000000"})
	checkServesLatest(t, s, apptest.FreshIP(), want, "aishub")
	t.Logf("all %d IMOs with a position serve their newest one", len(want))
	// The vessel list (unlimited history on Pro) holds the imported vessels.
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	var list struct {
		Vessels []struct {
			IMO string `json:"imo_number"`
		} `json:"vessels"`
	}
	r := s.Do(t, apptest.Request{Path: "/v1/vessels?limit=200", IP: apptest.FreshIP(), Key: pro})
	apptest.MustUnmarshal(t, r.Body, &list)
	served := 0
	for _, v := range list.Vessels {
		if imo, err := overwatch.ParseIMO(v.IMO); err == nil {
			if _, ok := want[imo]; ok {
				served++
			}
		}
	}
	if r.StatusCode != 200 || len(list.Vessels) != 200 || served < 100 {
		t.Errorf("vessel list: %d, %d vessels, %d of them imported with a position", r.StatusCode, len(list.Vessels), served)
	}

	before := storeCounts(t, s.Fx)
	out = importFiles(paths...)
	if n := strings.Count(out, "already imported"); n != len(paths) {
		t.Errorf("second import: %d files skipped, want %d:\n%s", n, len(paths), out)
	}
	out = importFiles(append([]string{"--force"}, paths...)...)
	if n := strings.Count(out, ": complete: "); n != len(paths) {
		t.Errorf("forced import: %d files complete, want %d:\n%s", n, len(paths), out)
	}
	if after := storeCounts(t, s.Fx); after != before {
		t.Errorf("importing again changed the store: positions, statics, latest, vessels %v, then %v", before, after)
	}

	resp, err := http.Get(s.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, line := range []string{
		`overwatch_history_import_files{status="complete"} 7`,
		`overwatch_history_import_skipped_total{reason="aid_to_navigation"}`,
		`overwatch_history_import_quirks_total{reason="imo_invalid"}`,
		"overwatch_history_import_rows_total ",
		"overwatch_history_import_ledger_up 1",
	} {
		if !strings.Contains(string(body), line) {
			t.Errorf("/metrics lacks %q", line)
		}
	}
}

// TestImportHistoryBrokenFile: a truncated gzip stops the import with an
// error naming the file and the line; the rows before it are stored and
// the ledger records the file as failed, at that line.
func TestImportHistoryBrokenFile(t *testing.T) {
	chURL := chtest.URL(t, "e2e_history_broken")
	src, err := os.ReadFile(archivePath("barentswatch_kystverket_get_ais_20230220.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	var gz strings.Builder
	zw := gzip.NewWriter(&gz)
	zw.Write(src) //nolint:errcheck // into memory
	zw.Close()
	path := filepath.Join(t.TempDir(), "kystverket.ndjson.gz")
	if err := os.WriteFile(path, []byte(gz.String()[:gz.Len()/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	var out, errs strings.Builder
	err = app.Run(context.Background(), []string{"overwatch", "import", "history", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs)
	if err == nil || !strings.Contains(err.Error(), path+": line ") || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Fatalf("error %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), ": failed: ") || !strings.Contains(out.String(), "stopped:") {
		t.Errorf("summary:\n%s", out.String())
	}
	fx := chtest.Open(t, chURL)
	var status string
	var rows, line uint64
	if err := fx.QueryRow(t, "SELECT toString(status), rows_read, line FROM history_imports FINAL").Scan(&status, &rows, &line); err != nil {
		t.Fatal(err)
	}
	var stored uint64
	if err := fx.QueryRow(t, "SELECT count() FROM positions").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || rows == 0 || line == 0 || stored == 0 {
		t.Errorf("ledger %s after %d rows (line %d), %d positions stored", status, rows, line, stored)
	}
}

// TestReplayGroupedCapture: the AISHub sample rewritten the way NMEA 4.10
// feeds of coastal administrations send it (every sentence behind a tag
// block, the sentences of a message grouped by "g:" with an empty
// sequential id, two stations' groups interleaved) through `overwatch
// replay`: the public lookup answers for every IMO with its newest
// position, the static reports assemble, and no line is counted invalid.
func TestReplayGroupedCapture(t *testing.T) {
	chURL := chtest.URL(t, "e2e_replay_grouped")
	f, err := os.Open(aishubSample)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	f.Close()
	w := aistest.WrapTagBlocks(lines, true)
	path := filepath.Join(t.TempDir(), "grouped.nmea")
	var text []string
	for _, l := range w.Lines {
		text = append(text, strings.TrimRight(string(l), "\r\n"))
	}
	if err := os.WriteFile(path, []byte(strings.Join(text, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := expectedLatest(t, text, overwatch.SourceAISHub)
	if len(want) < 500 {
		t.Fatalf("only %d IMOs in the grouped capture", len(want))
	}
	env := map[string]string{"CLICKHOUSE_URL": chURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_ATTRIBUTION_WINDOW": "48h", "OVERWATCH_LOG_LEVEL": "warn"}
	var out, errs strings.Builder
	if err := app.Run(context.Background(), []string{"overwatch", "replay", "--source", "aishub", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, &errs); err != nil {
		t.Fatalf("replay: %v\n%s", err, errs.String())
	}
	if !strings.Contains(out.String(), " 0 invalid,") {
		t.Errorf("replay summary: %s", out.String())
	}
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL,
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE": "1000000", "OVERWATCH_PUBLIC_LIMIT_PER_DAY": "1000000"})
	checkServesLatest(t, s, apptest.FreshIP(), want, "aishub")
	t.Logf("all %d IMOs of the grouped capture serve their newest position", len(want))
}
