package reports

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// needTool returns the path of a poppler-utils command. Without it the test
// is skipped, unless CI is set: there it must run (apt-get install -y
// poppler-utils).
func needTool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not found (apt-get install -y poppler-utils): %v", name, err)
		}
		t.Skipf("%s not found (apt-get install -y poppler-utils)", name)
	}
	return path
}

// renderPDF writes r as a PDF file in a temporary directory.
func renderPDF(t testing.TB, r *EmissionsReport) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteEmissionsPDF(&buf, r); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, buf.Bytes()
}

// pdfText is the text of the PDF by pdftotext -layout, each line's runs of
// spaces collapsed to one and trailing spaces cut, so that small layout
// differences between poppler versions do not matter; pages end in "\f".
func pdfText(t testing.TB, path string) string {
	t.Helper()
	out, err := exec.Command(needTool(t, "pdftotext"), "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	spaces := regexp.MustCompile(` +`)
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(spaces.ReplaceAllString(l, " "), " ")
	}
	return strings.Join(lines, "\n")
}

func TestEmissionsPDFText(t *testing.T) {
	t.Parallel()
	path, _ := renderPDF(t, sampleEmissionsReport())
	text := pdfText(t, path)
	golden(t, "emissions_pdf_text", []byte(text))
	for _, want := range []string{
		"Acme Grain Trading AG", "2025-01-01 to 2025-12-31", "2026-01-15 09:30 UTC",
		// Totals: the sums of the rows' lows, centrals and highs.
		"Tank-to-wake emissions (t CO2e) 874.9 1,210.6 1,703.9",
		"Well-to-wake emissions (t CO2e) 1,070.8 1,423.9 1,917.0",
		"Transport work (tonne-nm) 128,700,000 143,000,000 157,300,000",
		// The example voyage's row.
		"CAPE ORCHID 9000001 santos > rotterdam 2025-03-01 - 03-06 1,200 50,000 vlsfo 3.114 362.3 310.4 - 423.0 primary",
		"=HYPERLINK(", "Ørsted Bulk, Ltd", "Page 1 of 8", "Page 8 of 8",
		"GHG Protocol Scope 3", "FuelEU Maritime", "Voyages with distance measured on the AIS track: 33.3 %",
		"fuel_type=mgo on 1 voyage",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text lacks %q", want)
		}
	}
}

func TestEmissionsPDFMetadataAndDeterminism(t *testing.T) {
	t.Parallel()
	r := sampleEmissionsReport()
	path, a := renderPDF(t, r)
	_, b := renderPDF(t, r)
	if !bytes.Equal(a, b) {
		t.Error("two renderings of the same report differ")
	}
	for _, want := range []string{"/CreationDate (D:20260115093000)", "/ModDate (D:20260115093000)"} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("PDF lacks %s", want)
		}
	}
	info, err := exec.Command(needTool(t, "pdfinfo"), path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, want := range []string{"Title: Scope 3 sea transport emissions - Acme Grain Trading AG", "Author: Overwatch",
		"Creator: Overwatch reports", "Pages: 8"} {
		if !regexp.MustCompile(`(?m)^` + strings.Replace(regexp.QuoteMeta(want), ": ", `:\s+`, 1) + `$`).Match(info) {
			t.Errorf("pdfinfo lacks %q:\n%s", want, info)
		}
	}
	r.GeneratedAt = r.GeneratedAt.Add(time.Hour)
	if _, c := renderPDF(t, r); bytes.Equal(a, c) {
		t.Error("the generation time does not reach the PDF")
	}
}

// TestEmissionsPDFPages renders a 300-voyage report: the voyage table runs
// over several pages with its header on each, and every page renders to PNG.
func TestEmissionsPDFPages(t *testing.T) {
	t.Parallel()
	path, _ := renderPDF(t, bigEmissionsReport(300))
	pages := strings.Split(strings.TrimSuffix(pdfText(t, path), "\f"), "\f")
	table := 0
	for i, pg := range pages {
		if !strings.Contains(pg, "Page "+strconv.Itoa(i+1)+" of "+strconv.Itoa(len(pages))) {
			t.Errorf("page %d lacks its number", i+1)
		}
		if strings.Contains(pg, " santos > ") {
			table++
			if !strings.Contains(pg, "Vessel IMO Route Dates Distance nm Cargo t Fuel Factor TTW t CO2e Low - high Quality") {
				t.Errorf("table page %d lacks the header", i+1)
			}
		}
	}
	if table < 8 || strings.Count(strings.Join(pages, ""), "9000299") != 1 {
		t.Errorf("%d table pages; last voyage printed %d times", table, strings.Count(strings.Join(pages, ""), "9000299"))
	}
	dir := t.TempDir()
	if out, err := exec.Command(needTool(t, "pdftoppm"), "-r", "50", "-png", path, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "p-*.png")); len(pngs) != len(pages) {
		t.Errorf("%d PNG pages for %d PDF pages", len(pngs), len(pages))
	}
}

func TestEmissionsPDFEmpty(t *testing.T) {
	t.Parallel()
	r := &EmissionsReport{Entity: "Nobody Ltd", GeneratedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	path, _ := renderPDF(t, r)
	if text := pdfText(t, path); !strings.Contains(text, "No voyages in the period.") || !strings.Contains(text, "Page 8 of 8") {
		t.Errorf("empty report text:\n%s", text)
	}
}

func TestGroupDigitsAndScale(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    float64
		dec  int
		want string
	}{{1234567.891, 1, "1,234,567.9"}, {-1234.6, 0, "-1,235"}, {999, 0, "999"}, {0, 2, "0.00"}, {1e21, 0, "1,000,000,000,000,000,000,000"}} {
		if got := groupDigits(c.v, c.dec); got != c.want {
			t.Errorf("groupDigits(%v, %d) = %q, want %q", c.v, c.dec, got, c.want)
		}
	}
	for _, c := range []struct {
		top, step float64
		ticks     int
	}{{1703.9, 500, 4}, {10, 2.5, 4}, {0, 1, 4}, {0.9, 0.25, 4}} {
		if step, ticks := niceScale(c.top); step != c.step || ticks != c.ticks {
			t.Errorf("niceScale(%v) = %v, %d", c.top, step, ticks)
		}
	}
	if decimalsFor(2.5) != 1 || decimalsFor(0.25) != 2 || decimalsFor(500) != 0 {
		t.Error("decimalsFor")
	}
}

// TestEmissionsPDF10k renders 10,000 voyages and logs the time and the
// process's peak resident memory (VmHWM). Run it alone to measure:
//
//	go test ./reports -run TestEmissionsPDF10k -count=1 -v
//
// With OVERWATCH_PDF_LIMITS=1 it fails beyond 5 s or 200 MB.
func TestEmissionsPDF10k(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short")
	}
	r := bigEmissionsReport(10000)
	start := time.Now()
	n := &countWriter{}
	if err := WriteEmissionsPDF(n, r); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss := peakRSS()
	t.Logf("10,000 voyages: %d bytes of PDF in %v; peak RSS %d MB; Go heap obtained %d MB", n.n, took, rss>>20, ms.HeapSys>>20)
	if os.Getenv("OVERWATCH_PDF_LIMITS") != "" && (took > 5*time.Second || rss > 200<<20) {
		t.Errorf("over the target of 5 s and 200 MB")
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// peakRSS is the process's peak resident set (Linux VmHWM), 0 elsewhere.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func BenchmarkEmissionsPDF10k(b *testing.B) {
	r := bigEmissionsReport(10000)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteEmissionsPDF(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmissionsCSV10k(b *testing.B) {
	r := bigEmissionsReport(10000)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteEmissionsCSV(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
}
