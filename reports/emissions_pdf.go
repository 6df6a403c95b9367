package reports

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// This file is the only one that imports the PDF library (emissions_pdf_charts.go
// draws with the same document, through emissionsPDF).

// Page geometry in millimetres: A4 landscape.
const (
	pdfW, pdfH     = 297.0, 210.0
	pdfMargin      = 12.0
	pdfBottom      = pdfH - 16 // content ends here; the footer is below
	pdfContentW    = pdfW - 2*pdfMargin
	pdfRowH        = 5.0
	pdfFactorLineH = 3.6
)

// voyageColumns are the voyage table's columns: title, width, alignment.
var voyageColumns = []struct {
	title string
	w     float64
	align string
}{
	{"Vessel", 40, "L"}, {"IMO", 17, "L"}, {"Route", 44, "L"}, {"Dates", 34, "L"},
	{"Distance nm", 17, "R"}, {"Cargo t", 20, "R"}, {"Fuel", 15, "L"}, {"Factor", 14, "R"},
	{"TTW t CO2e", 20, "R"}, {"Low - high", 32, "R"}, {"Quality", 20, "L"},
}

// WriteEmissionsPDF renders the report as a PDF: a cover (entity, period,
// generation time), the totals with their bounds, the emissions by month
// and by vessel type or commodity (each a bar chart beside the table of
// the figures it draws), the voyage table over as many pages as it
// needs with its header on each, the methodology, the factor table, data
// quality, assumptions and overrides, "Page N of M" on every page. The
// document's creation and modification dates are r.GeneratedAt, so the
// same report gives the same bytes. Text is set in the PDF core fonts
// (Windows-1252): characters outside it print as ".".
func WriteEmissionsPDF(w io.Writer, r *EmissionsReport) error {
	p := &emissionsPDF{r: r, pdf: fpdf.New("L", "mm", "A4", "")}
	f := p.pdf
	p.tr = f.UnicodeTranslatorFromDescriptor("")
	author := r.Author
	if author == "" {
		author = "Overwatch"
	}
	f.SetTitle(r.emissionsTitle()+" - "+r.Entity, true)
	f.SetAuthor(author, true)
	f.SetCreator("Overwatch reports", true)
	f.SetSubject("GHG Protocol Scope 3 categories 4 and 9; ISO 14083; GLEC Framework", true)
	f.SetCreationDate(r.GeneratedAt.UTC())
	f.SetModificationDate(r.GeneratedAt.UTC())
	f.SetCatalogSort(true)
	f.SetMargins(pdfMargin, pdfMargin, pdfMargin)
	f.SetAutoPageBreak(true, pdfH-pdfBottom)
	f.AliasNbPages("")
	f.SetFooterFunc(p.footer)
	p.cover()
	p.summary()
	p.byMonth()
	p.byBreakdown()
	p.voyages()
	p.methodology()
	p.factors()
	p.quality()
	if err := f.Error(); err != nil {
		return fmt.Errorf("reports: emissions PDF: %w", err)
	}
	return f.Output(w)
}

// emissionsPDF is a report being rendered.
type emissionsPDF struct {
	r   *EmissionsReport
	pdf *fpdf.Fpdf
	tr  func(string) string
}

func (p *emissionsPDF) footer() {
	f := p.pdf
	f.SetY(pdfH - 11)
	f.SetFont("Helvetica", "", 7.5)
	f.SetTextColor(110, 110, 110)
	f.CellFormat(pdfContentW/2, 5, p.tr(p.r.Entity+" - "+p.r.emissionsTitle()), "", 0, "L", false, 0, "")
	f.CellFormat(pdfContentW/2, 5, fmt.Sprintf("Page %d of {nb}", f.PageNo()), "", 0, "R", false, 0, "")
	f.SetTextColor(0, 0, 0)
}

// heading starts a page with a section title.
func (p *emissionsPDF) heading(title string) {
	f := p.pdf
	f.AddPage()
	f.SetFont("Helvetica", "B", 15)
	f.CellFormat(0, 9, p.tr(title), "", 1, "L", false, 0, "")
	f.Ln(2)
}

func (p *emissionsPDF) text(style string, size, h float64, s string) {
	p.pdf.SetFont("Helvetica", style, size)
	p.pdf.MultiCell(0, h, p.tr(s), "", "L", false)
}

func (p *emissionsPDF) cover() {
	f, r := p.pdf, p.r
	f.AddPage()
	f.SetFillColor(18, 62, 92)
	f.Rect(0, 0, pdfW, 62, "F")
	f.SetTextColor(255, 255, 255)
	f.SetXY(pdfMargin, 22)
	p.text("B", 26, 12, r.emissionsTitle())
	f.SetX(pdfMargin)
	p.text("", 13, 7, "GHG Protocol Scope 3, categories 4 and 9 - ISO 14083 / GLEC Framework")
	f.SetTextColor(0, 0, 0)
	f.SetY(80)
	for _, kv := range [][2]string{
		{"Reporting entity", r.Entity},
		{"Reporting period", r.period()},
		{"Generated", r.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC")},
		{"Voyages", strconv.Itoa(max(r.VoyagesTotal, r.Totals.Voyages))},
		{"Emissions model", r.ModelVersion},
	} {
		f.SetFont("Helvetica", "B", 12)
		f.CellFormat(55, 9, p.tr(kv[0]), "", 0, "L", false, 0, "")
		f.SetFont("Helvetica", "", 12)
		f.CellFormat(0, 9, p.tr(kv[1]), "", 1, "L", false, 0, "")
	}
	f.Ln(8)
	p.text("", 9, 4.5, "Emissions are in tonnes of CO2 equivalent (t CO2e): tank-to-wake (TTW) from the fuel burnt on board, "+
		"well-to-wake (WTW) adding the fuel's production and supply. Every figure is shown with its low and high bounds.")
}

func (p *emissionsPDF) summary() {
	f, t := p.pdf, &p.r.Totals
	p.heading("Summary")
	f.SetFont("Helvetica", "B", 9)
	f.SetFillColor(225, 232, 238)
	widths := []float64{80, 40, 40, 40}
	for i, h := range []string{"", "Low", "Central", "High"} {
		f.CellFormat(widths[i], 6.5, h, "B", 0, alignOf(i), true, 0, "")
	}
	f.Ln(-1)
	rows := []struct {
		name string
		r    EmissionsRange
		dec  int
	}{
		{"Tank-to-wake emissions (t CO2e)", t.TTW, 1}, {"Well-to-wake emissions (t CO2e)", t.WTW, 1},
		{"Transport work (tonne-nm)", t.TonneMiles, 0},
		{"Intensity TTW (g CO2e per tonne-nm)", t.IntensityTTW, 2}, {"Intensity WTW (g CO2e per tonne-nm)", t.IntensityWTW, 2},
	}
	for _, row := range rows {
		f.SetFont("Helvetica", "B", 9)
		f.CellFormat(widths[0], 6, row.name, "B", 0, "L", false, 0, "")
		f.SetFont("Helvetica", "", 9)
		for i, v := range []float64{row.r.Low, row.r.Central, row.r.High} {
			f.CellFormat(widths[i+1], 6, groupDigits(v, row.dec), "B", 0, "R", false, 0, "")
		}
		f.Ln(-1)
	}
	f.Ln(2)
	p.text("", 9, 5, fmt.Sprintf("%s voyages, %s nm sailed, %s t of cargo, %s t of fuel.",
		groupDigits(float64(t.Voyages), 0), groupDigits(t.DistanceNM, 0), groupDigits(t.CargoTonnes, 0), groupDigits(t.FuelTonnes, 1)))
	f.Ln(2)
	p.text("I", 9, 5, "The next pages chart the emissions by month and by "+p.breakdownBy()+", each beside the table of its figures.")
}

func alignOf(i int) string {
	if i == 0 {
		return "L"
	}
	return "R"
}

// voyages draws the voyage table, its header repeated on every page.
func (p *emissionsPDF) voyages() {
	f, r := p.pdf, p.r
	p.heading("Voyages")
	if r.VoyagesTotal > len(r.Voyages) {
		p.text("I", 8, 4, fmt.Sprintf("The first %d of %d voyages; the CSV export has them all.", len(r.Voyages), r.VoyagesTotal))
	}
	if len(r.Voyages) == 0 {
		p.text("I", 9, 5, "No voyages in the period.")
		return
	}
	p.voyageHeader()
	for i := range r.Voyages {
		if f.GetY()+pdfRowH > pdfBottom {
			f.AddPage()
			p.voyageHeader()
		}
		v := &r.Voyages[i]
		f.SetFont("Helvetica", "", 7)
		if i%2 == 1 {
			f.SetFillColor(244, 247, 249)
		} else {
			f.SetFillColor(255, 255, 255)
		}
		cells := []string{v.Vessel, v.IMO, v.From + " > " + v.To, dates(v.Departure, v.Arrival),
			groupDigits(v.DistanceNM, 0), groupDigits(v.CargoTonnes, 0), v.Fuel, groupDigits(v.FactorTTW, 3),
			groupDigits(v.TTW.Central, 1), groupDigits(v.TTW.Low, 1) + " - " + groupDigits(v.TTW.High, 1), v.Quality}
		for j, c := range voyageColumns {
			f.CellFormat(c.w, pdfRowH, p.fit(cells[j], c.w-1.5), "", 0, c.align, true, 0, "")
		}
		f.Ln(-1)
	}
}

func (p *emissionsPDF) voyageHeader() {
	f := p.pdf
	f.SetFont("Helvetica", "B", 7.5)
	f.SetFillColor(225, 232, 238)
	for _, c := range voyageColumns {
		f.CellFormat(c.w, 6, c.title, "B", 0, c.align, true, 0, "")
	}
	f.Ln(-1)
}

// dates is "2025-03-01 - 03-06" (the year again if it changes).
func dates(dep, arr time.Time) string {
	a, b := day(dep), day(arr)
	if len(a) == 10 && len(b) == 10 && a[:4] == b[:4] {
		b = b[5:]
	}
	return a + " - " + b
}

func (p *emissionsPDF) methodology() {
	p.heading("Methodology")
	for _, para := range p.r.Methodology {
		p.text("", 9.5, 5, para)
		p.pdf.Ln(2.5)
	}
}

// factors draws the factor table; a source may wrap over several lines.
func (p *emissionsPDF) factors() {
	f := p.pdf
	p.heading("Emission factors and sources")
	widths := []float64{62, 20, 32, 128, 31}
	aligns := []string{"L", "R", "L", "L", "L"}
	header := func() {
		f.SetFont("Helvetica", "B", 7.5)
		f.SetFillColor(225, 232, 238)
		for i, h := range []string{"Factor", "Value", "Unit", "Source", "Version"} {
			f.CellFormat(widths[i], 6, h, "B", 0, aligns[i], true, 0, "")
		}
		f.Ln(-1)
	}
	header()
	for _, fc := range p.r.Factors {
		f.SetFont("Helvetica", "", 7)
		cols := [][]string{
			{p.fit(fc.Name, widths[0]-1)}, {strconv.FormatFloat(fc.Value, 'g', 6, 64)}, {p.fit(fc.Unit, widths[2]-1)},
			f.SplitText(p.tr(fc.Source), widths[3]-1.5), f.SplitText(p.tr(fc.Version), widths[4]-1.5),
		}
		lines := max(len(cols[3]), len(cols[4]), 1)
		if f.GetY()+float64(lines)*pdfFactorLineH > pdfBottom {
			f.AddPage()
			header()
		}
		x, y := f.GetXY()
		for i, col := range cols {
			for j, line := range col {
				f.SetXY(x, y+float64(j)*pdfFactorLineH)
				f.CellFormat(widths[i], pdfFactorLineH, line, "", 0, aligns[i], false, 0, "")
			}
			x += widths[i]
		}
		f.SetDrawColor(220, 220, 220)
		f.Line(pdfMargin, y+float64(lines)*pdfFactorLineH+0.5, pdfMargin+pdfContentW, y+float64(lines)*pdfFactorLineH+0.5)
		f.SetDrawColor(0, 0, 0)
		f.SetXY(pdfMargin, y+float64(lines)*pdfFactorLineH+1)
	}
}

func (p *emissionsPDF) quality() {
	f, q := p.pdf, &p.r.Quality
	p.heading("Data quality, assumptions and overrides")
	p.text("B", 10.5, 6, "Data quality")
	for _, s := range append([]string{
		fmt.Sprintf("Voyages with distance measured on the AIS track: %s", percent(q.AISDistanceShare)),
		fmt.Sprintf("Voyages with cargo from the port-call draught estimate: %s", percent(q.AISCargoShare)),
		fmt.Sprintf("Voyages on a default intensity (AIS track too sparse): %s", percent(q.DefaultIntensityShare)),
	}, q.Notes...) {
		p.bullet(s)
	}
	for _, sec := range []struct {
		title string
		items []string
		none  string
	}{{"Assumptions", p.r.Assumptions, "None."}, {"Overrides", p.r.Overrides, "None: all figures come from the data."}} {
		f.Ln(3)
		p.text("B", 10.5, 6, sec.title)
		if len(sec.items) == 0 {
			p.bullet(sec.none)
		}
		for _, s := range sec.items {
			p.bullet(s)
		}
	}
}

func (p *emissionsPDF) bullet(s string) {
	f := p.pdf
	f.SetFont("Helvetica", "", 9)
	f.CellFormat(5, 5, "-", "", 0, "L", false, 0, "")
	f.MultiCell(0, 5, p.tr(s), "", "L", false)
}

// fit translates s and shortens it to fit width w, ending in "...".
func (p *emissionsPDF) fit(s string, w float64) string {
	s = p.tr(s)
	f := p.pdf
	if f.GetStringWidth(s) <= w {
		return s
	}
	for len(s) > 0 && f.GetStringWidth(s+"...") > w {
		s = s[:len(s)-1]
	}
	return s + "..."
}

// percent formats a share 0-1 as "82.5 %".
func percent(share float64) string {
	return strconv.FormatFloat(100*share, 'f', 1, 64) + " %"
}

// groupDigits formats v with decimals digits and thousands separated by
// commas: 1234567.891 -> "1,234,567.9" with one decimal.
func groupDigits(v float64, decimals int) string {
	s := Number(v, decimals)
	if s == "" {
		return "-"
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, dot := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// niceScale returns a round tick step and the number of ticks that cover
// 0..top.
func niceScale(top float64) (float64, int) {
	if !(top > 0) || math.IsInf(top, 0) {
		return 1, 4
	}
	raw := top / 4
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	return step, int(math.Ceil(top/step - 1e-9))
}

// decimalsFor is the decimals needed to print multiples of step.
func decimalsFor(step float64) int {
	d := max(0, int(-math.Floor(math.Log10(step))))
	if s := step * math.Pow(10, float64(d)); math.Abs(s-math.Round(s)) > 1e-9 {
		d++
	}
	return d
}
