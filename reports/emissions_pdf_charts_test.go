package reports

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// pdfWord is a word of a PDF page with its box in points (pdftotext -bbox).
type pdfWord struct {
	x, y, x2 float64
	text     string
}

// pageWords are the words of page n (from 1) of the PDF.
func pageWords(t *testing.T, path string, n int) []pdfWord {
	t.Helper()
	out, err := exec.Command(needTool(t, "pdftotext"), "-bbox", "-f", strconv.Itoa(n), "-l", strconv.Itoa(n), path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	re := regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="[0-9.]+">([^<]*)</word>`)
	var words []pdfWord
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		x2, _ := strconv.ParseFloat(m[3], 64)
		words = append(words, pdfWord{x, y, x2, strings.ReplaceAll(m[4], "&amp;", "&")})
	}
	return words
}

// findPage is the number of the first page whose text has s.
func findPage(t *testing.T, pages []string, s string) int {
	t.Helper()
	for i, p := range pages {
		if strings.Contains(p, s) {
			return i + 1
		}
	}
	t.Fatalf("no page has %q", s)
	return 0
}

const ptPerMM = 72 / 25.4

// figure matches an emissions figure as the charts print them (one decimal).
var figure = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})*\.[0-9]$`)

// chartLabels are the figures printed in the chart area of a page (left
// of the table, right of the y axis' tick labels), in reading order: left
// to right for vertical bars, top to bottom for horizontal ones.
func chartLabels(words []pdfWord, vertical bool) []string {
	var in []pdfWord
	for _, w := range words {
		if w.x > (pdfMargin+17)*ptPerMM && w.x2 < tableX*ptPerMM && figure.MatchString(w.text) {
			in = append(in, w)
		}
	}
	sort.SliceStable(in, func(i, j int) bool {
		if vertical {
			return in[i].x < in[j].x
		}
		return in[i].y < in[j].y
	})
	out := make([]string, len(in))
	for i, w := range in {
		out[i] = w.text
	}
	return out
}

// tableRows are the rows of the table beside a chart: the words right of
// tableX grouped by line, top to bottom, without the header and footer.
func tableRows(words []pdfWord) [][]string {
	lines := map[int][]pdfWord{}
	for _, w := range words {
		if w.x >= tableX*ptPerMM-1 && w.y < pdfBottom*ptPerMM { // not the footer
			y := int(w.y + 0.5)
			lines[y] = append(lines[y], w)
		}
	}
	ys := make([]int, 0, len(lines))
	for y := range lines {
		ys = append(ys, y)
	}
	slices.Sort(ys)
	var rows [][]string
	for _, y := range ys {
		ws := lines[y]
		sort.Slice(ws, func(i, j int) bool { return ws[i].x < ws[j].x })
		var row []string
		for _, w := range ws {
			row = append(row, w.text)
		}
		if row[0] == "Voyages" || slices.Contains(row, "TTW") { // the header
			continue
		}
		rows = append(rows, row)
	}
	return rows
}

// TestEmissionsPDFCharts: the chart pages exist with their titles and axis
// labels, each chart's value labels are the "TTW central" column of the
// table beside it, which holds the report's figures, and the pages render
// with the bars drawn in their colours.
func TestEmissionsPDFCharts(t *testing.T) {
	t.Parallel()
	r := bigEmissionsReport(300)
	// Months in calendar order, as the read side gives them.
	slices.SortFunc(r.ByMonth, func(a, b EmissionsBreakdown) int { return strings.Compare(a.Label, b.Label) })
	slices.SortStableFunc(r.Breakdown, func(a, b EmissionsBreakdown) int { return -cmpFloat(a.TTW.Central, b.TTW.Central) })
	path, _ := renderPDF(t, r)
	pages := strings.Split(strings.TrimSuffix(pdfText(t, path), "\f"), "\f")
	month := findPage(t, pages, "Emissions by month\n")
	byType := findPage(t, pages, "Emissions by vessel type\n")
	if month != 3 || byType != 4 {
		t.Errorf("chart pages %d and %d, want 3 and 4", month, byType)
	}
	for _, want := range []string{"Tank-to-wake emissions by month (t CO2e)", "Month of voyage end", "t CO2e",
		"Month Voyages TTW low TTW central TTW high WTW central", "2025-01", "2025-12"} {
		if !strings.Contains(pages[month-1], want) {
			t.Errorf("the month page lacks %q", want)
		}
	}
	for _, want := range []string{"Tank-to-wake emissions by vessel type (t CO2e)", "t CO2e (central)",
		"Vessel type Voyages TTW low TTW central TTW high WTW central", "general_cargo"} {
		if !strings.Contains(pages[byType-1], want) {
			t.Errorf("the vessel type page lacks %q", want)
		}
	}

	for _, c := range []struct {
		name     string
		page     int
		vertical bool
		data     []EmissionsBreakdown
	}{{"month", month, true, r.ByMonth}, {"vessel type", byType, false, r.Breakdown}} {
		words := pageWords(t, path, c.page)
		rows := tableRows(words)
		if len(rows) != len(c.data)+1 {
			t.Fatalf("%s: %d table rows, want %d and the total: %v", c.name, len(rows), len(c.data), rows)
		}
		var central []string
		for i, d := range c.data {
			want := []string{d.Label, strconv.Itoa(d.Voyages), emissionsFigure(d.TTW.Low), emissionsFigure(d.TTW.Central),
				emissionsFigure(d.TTW.High), emissionsFigure(d.WTW.Central)}
			if !slices.Equal(rows[i], want) {
				t.Errorf("%s: table row %v, want %v", c.name, rows[i], want)
			}
			central = append(central, rows[i][3])
		}
		tot := r.Totals
		if want := []string{"Total", strconv.Itoa(tot.Voyages), emissionsFigure(tot.TTW.Low), emissionsFigure(tot.TTW.Central),
			emissionsFigure(tot.TTW.High), emissionsFigure(tot.WTW.Central)}; !slices.Equal(rows[len(rows)-1], want) {
			t.Errorf("%s: total row %v, want %v", c.name, rows[len(rows)-1], want)
		}
		if labels := chartLabels(words, c.vertical); !slices.Equal(labels, central) {
			t.Errorf("%s: the chart's labels %v are not the table's TTW central %v", c.name, labels, central)
		}
	}

	// The pages render, the bars in their colours: about one bar area per
	// figure, the taller bars the larger.
	dir := t.TempDir()
	var imgs []image.Image
	for _, pg := range []int{month, byType} {
		prefix := filepath.Join(dir, fmt.Sprintf("p%d", pg))
		if out, err := exec.Command(needTool(t, "pdftoppm"), "-png", "-r", "60", "-f", strconv.Itoa(pg), "-l", strconv.Itoa(pg),
			"-singlefile", path, prefix).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
		f, err := os.Open(prefix + ".png")
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
	}
	if n := columnsOf(imgs[0], 46, 125, 160); n < 12*3 {
		t.Errorf("the month chart has %d pixel columns of bar colour: 12 bars not drawn", n)
	}
	if n := rowsOf(imgs[1], 230, 140, 60); n < 2*3 {
		t.Errorf("the vessel type chart has %d pixel rows of bar colour: 2 bars not drawn", n)
	}
	if os.Getenv("OVERWATCH_UPDATE_SCREENSHOTS") != "" {
		writeStacked(t, "../docs/screenshots/scope3-charts.png", imgs)
	}
}

// TestEmissionsPDFChartsLong: a report over 40 months continues the month
// table on a second page, its header repeated, and prints every month.
func TestEmissionsPDFChartsLong(t *testing.T) {
	t.Parallel()
	r := sampleEmissionsReport()
	r.ByMonth = nil
	for i := range 40 {
		r.ByMonth = append(r.ByMonth, EmissionsBreakdown{Label: fmt.Sprintf("%04d-%02d", 2022+i/12, 1+i%12), Voyages: 1,
			TTW: EmissionsRange{float64(i), float64(i) + 0.5, float64(i) + 1}, WTW: EmissionsRange{1, 2, 3}})
	}
	path, _ := renderPDF(t, r)
	text := pdfText(t, path)
	if !strings.Contains(text, "Emissions by month (continued)") || strings.Count(text, "Month Voyages TTW low TTW central TTW high WTW central") != 2 {
		t.Errorf("the long month table does not continue on a page with its header:\n%s", text)
	}
	for _, m := range r.ByMonth {
		if !strings.Contains(text, m.Label+" 1 "+emissionsFigure(m.TTW.Low)+" "+emissionsFigure(m.TTW.Central)) {
			t.Errorf("month %s missing from the table", m.Label)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// near reports whether the pixel at x, y is within 40 of r, g, b.
func near(img image.Image, x, y int, r, g, b uint8) bool {
	cr, cg, cb, _ := img.At(x, y).RGBA()
	d := func(c uint32, want uint8) bool { v := int(c>>8) - int(want); return v > -40 && v < 40 }
	return d(cr, r) && d(cg, g) && d(cb, b)
}

// columnsOf counts the pixel columns that hold the colour.
func columnsOf(img image.Image, r, g, b uint8) int {
	n := 0
	bd := img.Bounds()
	for x := bd.Min.X; x < bd.Max.X; x++ {
		for y := bd.Min.Y; y < bd.Max.Y; y++ {
			if near(img, x, y, r, g, b) {
				n++
				break
			}
		}
	}
	return n
}

// rowsOf counts the pixel rows that hold the colour.
func rowsOf(img image.Image, r, g, b uint8) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			if near(img, x, y, r, g, b) {
				n++
				break
			}
		}
	}
	return n
}

// writeStacked writes the images one above the other as a PNG file.
func writeStacked(t *testing.T, path string, imgs []image.Image) {
	t.Helper()
	w, h := 0, 0
	for _, img := range imgs {
		w, h = max(w, img.Bounds().Dx()), h+img.Bounds().Dy()
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	y := 0
	for _, img := range imgs {
		draw.Draw(out, image.Rect(0, y, w, y+img.Bounds().Dy()), img, img.Bounds().Min, draw.Src)
		y += img.Bounds().Dy()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, out); err != nil {
		t.Fatal(err)
	}
}
