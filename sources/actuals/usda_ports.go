package actuals

import (
	"bytes"
	"fmt"
	"io"
	"overwatch/maritime/calibration"
	"sort"
	"strings"
	"time"
)

// USDASource is the source label of the figures read from a WA_GR101
// report (when the import names none).
const USDASource = "USDA AMS WA_GR101"

// PortShare is the share of a USDA port area's inspections credited to
// one of our ports.
type PortShare struct {
	Port  string
	Share float64
}

// USDAPortAreas maps the port areas of WA_GR101 (by "REGION/PORT AREA")
// to our ports; docs/actuals.md is this table with the reasons. Puget
// Sound's grain terminals are Seattle's and Tacoma's: the report does not
// tell them apart, so each is credited half. Every other port area is
// dropped (see USDADropped).
var USDAPortAreas = map[string][]PortShare{
	"GULF/MISSISSIPPI R.": {{"new-orleans", 1}},
	"PACIFIC/PUGET SOUND": {{"seattle", 0.5}, {"tacoma", 0.5}},
}

// USDADropped says why the port areas WA_GR101 has had are not ours;
// an area in neither table is dropped as "not one of our ports".
var USDADropped = map[string]string{
	"PACIFIC/COLUMBIA R.":  "Portland, Kalama, Longview and Vancouver WA are not among our ports (our vancouver is Vancouver, British Columbia)",
	"PACIFIC/CALIFORNIA":   "no Californian port among ours",
	"GULF/N. TEXAS":        "Houston, Galveston and Beaumont are not among our ports (sabine-pass is an LNG terminal)",
	"GULF/S. TEXAS":        "Corpus Christi and Brownsville are not among our ports",
	"GULF/EAST GULF":       "Mobile and Pascagoula are not among our ports",
	"ATLANTIC/S. ATLANTIC": "no US Atlantic port among ours",
	"ATLANTIC/N. ATLANTIC": "no US Atlantic port among ours",
	"INTERIOR/INTERIOR":    "inland inspections (rail and truck to Mexico and Canada, containers loaded inland): no seaport",
	"LAKES/CHICAGO":        "Great Lakes ports are not among ours",
	"LAKES/TOLEDO":         "Great Lakes ports are not among ours",
	"LAKES/DULUTH-SUP":     "Great Lakes ports are not among ours",
	"LAKES/PORT HURON":     "Great Lakes ports are not among ours",
	"LAKES/LAKE ONTARIO":   "Great Lakes ports are not among ours",
	"LAKES/LAKE SUPERIOR":  "Great Lakes ports are not among ours",
	"LAKES/LAKE ERIE":      "Great Lakes ports are not among ours",
	"ST LAWR SWY/MONTREAL": "St. Lawrence Seaway ports are not among ours",
	"ST LAWR SWY/SEAWAY":   "St. Lawrence Seaway ports are not among ours",
}

// DroppedArea is a port area whose inspections were not imported.
type DroppedArea struct {
	Region, Area string
	Tonnes       int64
	Reason       string
}

// USDACommodity is our commodity name of a WA_GR101 grain column: the
// column in lower case, yellow and white corn both "corn" (the report
// counts mixed corn as yellow), spaces as underscores.
func USDACommodity(column string) string {
	c := strings.ToLower(strings.TrimSpace(column))
	if c == "corn" || strings.HasPrefix(c, "corn ") {
		return "corn"
	}
	return strings.ReplaceAll(c, " ", "_")
}

// InspectionActuals turns a report into export figures of our ports: per
// mapped port area, port share and commodity, the metric tons (the report's
// unit: 1 metric ton = 1 tonne) of the inspection week, credited to the ISO
// week that holds its last day (the report's week runs Friday to Thursday,
// four of its seven days in that ISO week), with the report's issue date
// as Published. Zero figures are kept (an area that shipped nothing of a
// grain). It also returns the port areas dropped, with their tonnes.
func InspectionActuals(rep InspectionsReport, source string) ([]calibration.Actual, []DroppedArea) {
	if source == "" {
		source = USDASource
	}
	source = fmt.Sprintf("%s week ending %s", source, rep.WeekEnding.Format(time.DateOnly))
	week := monday(rep.WeekEnding)
	sums := map[[2]string]float64{} // port, commodity
	var dropped []DroppedArea
	for _, a := range rep.Areas {
		key := a.Region + "/" + a.Area
		shares, ok := USDAPortAreas[key]
		if !ok {
			var total int64
			for _, n := range a.Tonnes {
				total += n
			}
			why, known := USDADropped[key]
			if !known {
				why = "not one of our ports"
			}
			dropped = append(dropped, DroppedArea{Region: a.Region, Area: a.Area, Tonnes: total, Reason: why})
			continue
		}
		for col, n := range a.Tonnes {
			for _, s := range shares {
				sums[[2]string{s.Port, USDACommodity(col)}] += float64(n) * s.Share
			}
		}
	}
	out := make([]calibration.Actual, 0, len(sums))
	for k, t := range sums {
		out = append(out, calibration.Actual{Port: k[0], Week: week, Commodity: k[1], Tonnes: t, Source: source, Published: rep.Issued})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Port != out[j].Port {
			return out[i].Port < out[j].Port
		}
		return out[i].Commodity < out[j].Commodity
	})
	return out, dropped
}

// ReadActuals reads an actuals file of either format: a WA_GR101 report
// (IsGrainInspections; the figures of InspectionActuals, and the port
// areas dropped) or the CSV of ParseActuals.
func ReadActuals(r io.Reader, source string) ([]calibration.Actual, []DroppedArea, error) {
	data, err := io.ReadAll(io.LimitReader(r, 512<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("actuals: %w", err)
	}
	if IsGrainInspections(data) {
		rep, err := ParseGrainInspections(bytes.NewReader(data))
		if err != nil {
			return nil, nil, err
		}
		rows, dropped := InspectionActuals(rep, source)
		return rows, dropped, nil
	}
	rows, err := ParseActuals(bytes.NewReader(data), source)
	return rows, nil, err
}
