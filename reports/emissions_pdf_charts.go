package reports

import (
	"fmt"
	"math"
	"strconv"
)

// The chart pages of the emissions PDF: the emissions by month and by
// vessel type (or commodity), each a bar chart drawn with the PDF
// library's primitives (rectangles, lines, text) on the left and, on the
// right, the table of the figures it draws. A bar's value label is the
// table's "TTW central" cell, formatted by the same function, so the chart
// and the table cannot disagree.

// Chart page geometry in millimetres.
const (
	chartW      = 150.0                                 // the chart, from the left margin
	tableX      = pdfMargin + chartW + 8                // the table's left edge
	tableW      = pdfMargin + pdfContentW - tableX      // 115 mm
	tableRowH   = 4.6                                   // a table row
	chartDec    = 1                                     // decimals of the emissions figures
	monthAxis   = "Month of voyage end"                 // the month chart's x axis
	emissionsAx = "t CO2e"                              // the emissions axis
	chartNote   = "Bars: central tank-to-wake estimate" // the charts' legend
)

// breakdownColumns are the chart tables' columns after the label: title,
// width.
var breakdownColumns = []struct {
	title string
	w     float64
}{{"Voyages", 13}, {"TTW low", 17}, {"TTW central", 19}, {"TTW high", 17}, {"WTW central", 19}}

// breakdownBy names the second breakdown: "vessel type" unless the report
// says otherwise.
func (r *EmissionsReport) breakdownBy() string {
	if r.BreakdownBy == "" {
		return "vessel type"
	}
	return r.BreakdownBy
}

func (p *emissionsPDF) breakdownBy() string { return p.r.breakdownBy() }

// emissionsFigure formats a chart or table figure (t CO2e).
func emissionsFigure(v float64) string { return groupDigits(v, chartDec) }

// byMonth is the page of the emissions by month: vertical bars with their
// low-high whiskers, and the table.
func (p *emissionsPDF) byMonth() {
	section := "Emissions by month"
	p.heading(section)
	top := p.pdf.GetY()
	p.barChart(pdfMargin, top, chartW, pdfBottom-top, "Tank-to-wake emissions by month ("+emissionsAx+")", p.r.ByMonth)
	p.breakdownTable(top, section, "Month", p.r.ByMonth)
}

// byBreakdown is the page of the emissions by vessel type (or commodity):
// horizontal bars, largest first, and the table.
func (p *emissionsPDF) byBreakdown() {
	by := p.breakdownBy()
	section := "Emissions by " + by
	p.heading(section)
	top := p.pdf.GetY()
	p.hbarChart(pdfMargin, top, chartW, pdfBottom-top, "Tank-to-wake emissions by "+by+" ("+emissionsAx+")", p.r.Breakdown)
	label := []rune(by)
	if len(label) > 0 && label[0] >= 'a' && label[0] <= 'z' {
		label[0] -= 'a' - 'A'
	}
	p.breakdownTable(top, section, string(label), p.r.Breakdown)
}

// breakdownTable draws the rows beside the chart, from y down, then a
// total row; it continues on new pages of the section (header repeated)
// when it is long.
func (p *emissionsPDF) breakdownTable(y float64, section, label string, rows []EmissionsBreakdown) {
	f := p.pdf
	labelW := tableW
	for _, c := range breakdownColumns {
		labelW -= c.w
	}
	header := func() {
		f.SetXY(tableX, y)
		f.SetFont("Helvetica", "B", 7.5)
		f.SetFillColor(225, 232, 238)
		f.CellFormat(labelW, 6, p.tr(label), "B", 0, "L", true, 0, "")
		for _, c := range breakdownColumns {
			f.CellFormat(c.w, 6, c.title, "B", 0, "R", true, 0, "")
		}
		y += 6
	}
	row := func(name string, b EmissionsBreakdown, bold bool) {
		if y+tableRowH > pdfBottom {
			p.heading(section + " (continued)")
			y = f.GetY()
			header()
		}
		f.SetXY(tableX, y)
		style, border := "", ""
		if bold {
			style, border = "B", "T"
		}
		f.SetFont("Helvetica", style, 7.5)
		f.CellFormat(labelW, tableRowH, p.fit(name, labelW-1), border, 0, "L", false, 0, "")
		cells := []string{strconv.Itoa(b.Voyages), emissionsFigure(b.TTW.Low), emissionsFigure(b.TTW.Central),
			emissionsFigure(b.TTW.High), emissionsFigure(b.WTW.Central)}
		for i, c := range breakdownColumns {
			f.CellFormat(c.w, tableRowH, cells[i], border, 0, "R", false, 0, "")
		}
		y += tableRowH
	}
	header()
	if len(rows) == 0 {
		f.SetXY(tableX, y+1)
		f.SetFont("Helvetica", "I", 8)
		f.CellFormat(tableW, 5, "No voyages in the period.", "", 0, "L", false, 0, "")
		return
	}
	for _, b := range rows {
		row(b.Label, b, false)
	}
	t := p.r.Totals
	row("Total", EmissionsBreakdown{Voyages: t.Voyages, TTW: t.TTW, WTW: t.WTW}, true)
}

// barChart draws vertical bars of the central TTW with low-high whiskers,
// each labelled with its central value where the label fits the bar's
// slot (the table beside the chart has every figure).
func (p *emissionsPDF) barChart(x, y, w, h float64, title string, data []EmissionsBreakdown) {
	if !p.chartFrame(x, y, w, title, chartNote+", whiskers: low-high range, labels: central.", len(data) == 0) {
		return
	}
	f := p.pdf
	// Bars run from top to bottom; the 6 mm above top leave room for the
	// labels of the highest whiskers.
	top, bottom, left := y+18, y+h-12, x+18
	highest := 0.0
	for _, d := range data {
		highest = math.Max(highest, math.Max(d.TTW.High, d.TTW.Central))
	}
	step, ticks := niceScale(highest)
	scale := (bottom - top) / (step * float64(ticks))
	f.SetFont("Helvetica", "", 6.5)
	f.SetXY(x, top-9)
	f.CellFormat(16, 4, emissionsAx, "", 0, "R", false, 0, "")
	f.SetDrawColor(210, 210, 210)
	for i := 0; i <= ticks; i++ {
		yy := bottom - float64(i)*step*scale
		f.Line(left, yy, x+w, yy)
		f.SetXY(x, yy-2)
		f.CellFormat(16, 4, groupDigits(float64(i)*step, decimalsFor(step)), "", 0, "R", false, 0, "")
	}
	slot := (x + w - left) / float64(len(data))
	every := max(1, int(math.Ceil(float64(len(data))*14/(x+w-left))))
	for i, d := range data {
		cx := left + slot*(float64(i)+0.5)
		bw := slot * 0.6
		f.SetFillColor(46, 125, 160)
		f.Rect(cx-bw/2, bottom-d.TTW.Central*scale, bw, d.TTW.Central*scale, "F")
		f.SetDrawColor(40, 40, 40)
		f.Line(cx, bottom-d.TTW.Low*scale, cx, bottom-d.TTW.High*scale)
		f.Line(cx-bw/4, bottom-d.TTW.High*scale, cx+bw/4, bottom-d.TTW.High*scale)
		f.Line(cx-bw/4, bottom-d.TTW.Low*scale, cx+bw/4, bottom-d.TTW.Low*scale)
		f.SetFont("Helvetica", "", 6)
		if v := emissionsFigure(d.TTW.Central); f.GetStringWidth(v) <= slot*0.95 {
			f.SetXY(cx-slot/2, bottom-math.Max(d.TTW.High, d.TTW.Central)*scale-4.5)
			f.CellFormat(slot, 4, v, "", 0, "C", false, 0, "")
		}
		f.SetFont("Helvetica", "", 6.5)
		if i%every == 0 {
			f.SetXY(cx-slot*float64(every)/2, bottom+1)
			f.CellFormat(slot*float64(every), 4, p.tr(d.Label), "", 0, "C", false, 0, "")
		}
	}
	f.SetDrawColor(0, 0, 0)
	f.Line(left, bottom, x+w, bottom)
	f.SetXY(left, bottom+6)
	f.SetFont("Helvetica", "", 7)
	f.CellFormat(x+w-left, 4, monthAxis, "", 0, "C", false, 0, "")
}

// hbarChart draws horizontal bars of the central TTW, each labelled with
// its value, as many as fit the height ("and N more" below: the table
// has them all).
func (p *emissionsPDF) hbarChart(x, y, w, h float64, title string, data []EmissionsBreakdown) {
	if !p.chartFrame(x, y, w, title, chartNote+", labels: its value.", len(data) == 0) {
		return
	}
	f := p.pdf
	const barStep = 7.0
	n := min(len(data), int((h-26)/barStep))
	labelW, valueW := 34.0, 18.0
	most := 0.0
	for _, d := range data[:n] {
		most = math.Max(most, d.TTW.Central)
	}
	top := y + 12
	barsW := w - labelW - valueW
	for i, d := range data[:n] {
		yy := top + float64(i)*barStep
		f.SetFont("Helvetica", "", 7)
		f.SetXY(x, yy)
		f.CellFormat(labelW, 5, p.fit(d.Label, labelW-1), "", 0, "L", false, 0, "")
		bw := 0.0
		if most > 0 {
			bw = barsW * d.TTW.Central / most
		}
		f.SetFillColor(230, 140, 60)
		f.Rect(x+labelW, yy+0.5, bw, 4, "F")
		f.SetXY(x+labelW+bw+1, yy)
		f.CellFormat(valueW, 5, emissionsFigure(d.TTW.Central), "", 0, "L", false, 0, "")
	}
	bottom := top + float64(n)*barStep
	f.SetDrawColor(0, 0, 0)
	f.Line(x+labelW, top-1, x+labelW, bottom)
	f.Line(x+labelW, bottom, x+labelW+barsW, bottom)
	f.SetFont("Helvetica", "", 6.5)
	f.SetXY(x+labelW-8, bottom+0.5)
	f.CellFormat(16, 4, "0", "", 0, "C", false, 0, "")
	f.SetXY(x+labelW, bottom+5)
	f.SetFont("Helvetica", "", 7)
	f.CellFormat(barsW, 4, emissionsAx+" (central)", "", 0, "C", false, 0, "")
	if n < len(data) {
		f.SetXY(x, bottom+10)
		f.CellFormat(w, 5, fmt.Sprintf("and %d more (see the table)", len(data)-n), "", 0, "L", false, 0, "")
	}
}

// chartFrame writes a chart's title, then its note line, or, when the
// chart has no data (empty), says so instead and reports false.
func (p *emissionsPDF) chartFrame(x, y, w float64, title, note string, empty bool) bool {
	f := p.pdf
	f.SetXY(x, y)
	f.SetFont("Helvetica", "B", 9)
	f.CellFormat(w, 5, p.tr(title), "", 0, "L", false, 0, "")
	if empty {
		f.SetXY(x, y+8)
		p.text("I", 8, 4, "No voyages in the period.")
		return false
	}
	f.SetXY(x, y+5)
	f.SetFont("Helvetica", "", 7)
	f.CellFormat(w, 4, note, "", 0, "L", false, 0, "")
	return true
}
