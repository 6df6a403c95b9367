package read

import (
	"math"
	"strconv"
	"strings"

	"overwatch"
)

// trackCSVHeader names the columns of a track's CSV file.
const trackCSVHeader = "imo_number,segment,timestamp,latitude,longitude,speed_kt,course_deg,heading,nav_status,source,station,received_at,age_seconds\n"

// trackFlushBytes is how much of a streamed track answer is buffered
// before it is sent on.
const trackFlushBytes = 64 << 10

// appendFixCSV writes one fix as a CSV record (the columns of
// trackCSVHeader); CSV answers are for plans with exact coordinates.
func appendFixCSV(buf []byte, f *Fix, seg int) []byte {
	buf = appendIMO(buf, f.IMO)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(seg), 10)
	buf = append(buf, ',')
	buf = appendRFC3339(buf, f.TS)
	buf = append(buf, ',')
	buf = appendRounded(buf, f.Lat, 5)
	buf = append(buf, ',')
	buf = appendRounded(buf, f.Lon, 5)
	buf = append(buf, ',')
	if !math.IsNaN(f.SpeedKt) {
		buf = appendRounded(buf, f.SpeedKt, 1)
	}
	buf = append(buf, ',')
	if !math.IsNaN(f.CourseDeg) {
		buf = appendRounded(buf, f.CourseDeg, 1)
	}
	buf = append(buf, ',')
	if f.Heading >= 0 {
		buf = strconv.AppendInt(buf, int64(f.Heading), 10)
	}
	buf = append(buf, ',')
	if f.NavStatus != overwatch.NavStatusUndefined {
		buf = append(buf, overwatch.NavStatusText(f.NavStatus)...)
	}
	buf = append(buf, ',')
	buf = append(buf, f.Source...)
	buf = append(buf, ',')
	buf = appendCSVText(buf, f.Station)
	buf = append(buf, ',')
	buf = appendRFC3339(buf, f.ReceivedAt)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, ageSeconds(f), 10)
	return append(buf, '\n')
}

// appendCSVText writes feed text as a CSV field: quoted when it holds a
// comma, a quote or a line break, and kept from being read as a formula
// by spreadsheets (a leading =, +, -, @, tab or carriage return gets a
// leading apostrophe, as reports.CSVWriter does).
func appendCSVText(buf []byte, s string) []byte {
	if s == "" {
		return buf
	}
	if strings.ContainsAny(s[:1], "=+-@\t\r") {
		s = "'" + s
	}
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(buf, s...)
	}
	buf = append(buf, '"')
	buf = append(buf, strings.ReplaceAll(s, `"`, `""`)...)
	return append(buf, '"')
}

// appendIMO writes the IMO number's 7 digits.
func appendIMO(buf []byte, imo overwatch.IMO) []byte {
	var d [7]byte
	for i, v := 6, uint32(imo); i >= 0; i, v = i-1, v/10 {
		d[i] = byte('0' + v%10)
	}
	return append(buf, d[:]...)
}
