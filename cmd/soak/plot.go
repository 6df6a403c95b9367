package main

import (
	"fmt"
	"html"
	"math"
	"os"
	"strings"
	"time"
)

// renderFile writes the SVG of a soak CSV next to it (soak.csv -> soak.svg).
func renderFile(csvPath string) error {
	samples, err := readCSV(csvPath)
	if err != nil {
		return err
	}
	if len(samples) == 0 {
		return fmt.Errorf("%s has no samples", csvPath)
	}
	return os.WriteFile(strings.TrimSuffix(csvPath, ".csv")+".svg", []byte(plot(samples)), 0o644)
}

// series is one line of a panel.
type series struct {
	name  string
	color string
	value func(sample) float64
}

// panel is one chart of the plot, sharing the time axis.
type panel struct {
	title string
	unit  string
	lines []series
}

const (
	plotWidth   = 960
	panelHeight = 200
	marginLeft  = 70
	marginRight = 150
	marginTop   = 50
	panelGap    = 50
)

// plot renders the samples as three panels over the elapsed time: memory
// (RSS, Go heap in use), goroutines, public-lookup latency (p50, p99).
func plot(s []sample) string {
	panels := []panel{
		{"Memory", "MB", []series{
			{"RSS", "#1f77b4", func(x sample) float64 { return x.RSSMB }},
			{"Go heap in use", "#ff7f0e", func(x sample) float64 { return x.HeapMB }},
		}},
		{"Goroutines", "", []series{{"goroutines", "#2ca02c", func(x sample) float64 { return x.Goroutines }}}},
		{"Public lookup latency", "ms", []series{
			{"p50", "#9467bd", func(x sample) float64 { return x.P50ms }},
			{"p99", "#d62728", func(x sample) float64 { return x.P99ms }},
		}},
	}
	height := marginTop + len(panels)*(panelHeight+panelGap) + 10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotWidth, height, plotWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	total := s[len(s)-1].Elapsed
	var lookups, errs int
	for _, x := range s {
		lookups += x.Lookups
		errs += x.Errors
	}
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", marginLeft,
		html.EscapeString(fmt.Sprintf("overwatch run soak: %v, %d samples, %d public lookups (%d not 200)", total.Round(time.Second), len(s), lookups, errs)))
	xMax := math.Max(total.Minutes(), 1e-9)
	w := float64(plotWidth - marginLeft - marginRight)
	for i, p := range panels {
		top := float64(marginTop + i*(panelHeight+panelGap))
		yMax := 0.0
		for _, x := range s {
			for _, l := range p.lines {
				yMax = math.Max(yMax, l.value(x))
			}
		}
		step := niceStep(yMax)
		yTop := math.Max(step, math.Ceil(yMax/step)*step)
		h := float64(panelHeight)
		xPos := func(d time.Duration) float64 { return marginLeft + d.Minutes()/xMax*w }
		yPos := func(v float64) float64 { return top + h - v/yTop*h }
		title := p.title
		if p.unit != "" {
			title += " (" + p.unit + ")"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-weight="bold">%s</text>`+"\n", marginLeft, top-8, html.EscapeString(title))
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n", marginLeft, top, w, h)
		for v := 0.0; v <= yTop+step/2; v += step {
			y := yPos(v)
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", marginLeft, y, marginLeft+w, y)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", marginLeft-6, y+4, formatTick(v, step))
		}
		xStep := niceStep(xMax)
		for m := 0.0; m <= xMax+xStep/100; m += xStep {
			x := marginLeft + m/xMax*w
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", x, top, x, top+h)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, top+h+16, formatTick(m, xStep))
		}
		if i == len(panels)-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">minutes since the first sample</text>`+"\n", marginLeft+w/2, top+h+34)
		}
		for j, l := range p.lines {
			var pts []string
			for _, x := range s {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", xPos(x.Elapsed), yPos(l.value(x))))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", l.color, strings.Join(pts, " "))
			ly := top + 14 + float64(j)*18
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", marginLeft+w+10, ly-4, marginLeft+w+30, ly-4, l.color)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", marginLeft+w+36, ly, html.EscapeString(l.name))
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// niceStep is a tick step of 1, 2 or 5 times a power of ten giving about
// five ticks up to max.
func niceStep(max float64) float64 {
	if max <= 0 || math.IsNaN(max) || math.IsInf(max, 0) {
		return 1
	}
	raw := max / 5
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*pow {
			return m * pow
		}
	}
	return 10 * pow
}

// formatTick prints a tick value with the decimals its step needs.
func formatTick(v, step float64) string {
	decimals := 0
	if step < 1 {
		decimals = int(math.Ceil(-math.Log10(step)))
	}
	return fmt.Sprintf("%.*f", decimals, v)
}
