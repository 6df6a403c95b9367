package crop

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/crop"
)

// parseAppEEARS reads an AppEEARS point-sample CSV of a MODIS vegetation
// product (MOD13Q1, MYD13Q1, ...: any version). The NDVI column is the
// one ending in "_NDVI", its quality the one ending in
// "_VI_Quality_MODLAND"; NDVI is already scaled (a decimal). Rows with an
// empty NDVI are counted missing; the sample's Region is left to the
// caller (the category mapping).
func parseAppEEARS(r io.Reader) ([]crop.NDVISample, int, error) {
	t, err := newTable(r, "Category", "ID", "Latitude", "Longitude", "Date")
	if err != nil {
		return nil, 0, err
	}
	ndviCol, qaCol, product := "", "", ""
	for name := range t.cols {
		switch {
		case strings.HasSuffix(name, "_NDVI") && strings.Contains(name, "__"):
			if ndviCol != "" {
				return nil, 0, fmt.Errorf("header: two NDVI columns (%s, %s)", ndviCol, name)
			}
			ndviCol, product = name, name[:strings.Index(name, "__")]
		case strings.HasSuffix(name, "_VI_Quality_MODLAND"):
			qaCol = name
		}
	}
	if ndviCol == "" || qaCol == "" {
		return nil, 0, errors.New("header: no <product>__..._NDVI and ..._VI_Quality_MODLAND columns")
	}
	var out []crop.NDVISample
	missing := 0
	for {
		rec, err := t.next()
		if errors.Is(err, io.EOF) {
			return out, missing, nil
		}
		if err != nil {
			return nil, 0, err
		}
		s := crop.NDVISample{Category: t.get(rec, "Category"), Pixel: t.get(rec, "ID"), MODLAND: t.get(rec, qaCol), Product: product}
		if s.Category == "" || s.Pixel == "" {
			return nil, 0, t.errorf("empty Category or ID")
		}
		lat, err1 := strconv.ParseFloat(t.get(rec, "Latitude"), 64)
		lon, err2 := strconv.ParseFloat(t.get(rec, "Longitude"), 64)
		if err1 != nil || err2 != nil || !(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180) {
			return nil, 0, t.errorf("Latitude/Longitude out of range")
		}
		s.Latitude, s.Longitude = lat, lon
		d, err := time.Parse(time.DateOnly, t.get(rec, "Date"))
		if err != nil {
			return nil, 0, t.errorf("Date %q is not an ISO date", t.get(rec, "Date"))
		}
		s.Date = d
		raw := t.get(rec, ndviCol)
		if raw == "" {
			missing++
			continue
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(v) || v < -1 || v > 1 {
			return nil, 0, t.errorf("%s %q is not an NDVI in [-1, 1] (AppEEARS gives it scaled)", ndviCol, raw)
		}
		if !strings.HasPrefix(s.MODLAND, "0b") || len(s.MODLAND) != 4 {
			return nil, 0, t.errorf("%s %q is not a 2-bit field like 0b00", qaCol, s.MODLAND)
		}
		s.NDVI = v
		out = append(out, s)
	}
}
