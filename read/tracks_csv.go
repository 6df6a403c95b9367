package read

import (
	"bufio"
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// trackCSVHeader names the columns of a track's CSV file.
const trackCSVHeader = "imo_number,segment,timestamp,latitude,longitude,speed_kt,course_deg,heading,nav_status,source,station,received_at,age_seconds\n"

// trackFlushBytes is how much of a CSV answer is buffered before it is
// sent on.
const trackFlushBytes = 64 << 10

// streamTrackCSV answers with the fixes as CSV, written as the store
// returns them: the query is opened here (so that its failure is still an
// error status), the rows are read and written by the response's stream
// writer, under their own deadline, and never held whole (a segment is,
// when simplifying).
func streamTrackCSV(c *fiber.Ctx, store TrackStore, r trackRequest) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), TrackTimeout)
	rows, err := store.Fixes(ctx, r.filter)
	if err != nil {
		cancel()
		return err
	}
	name := "tracks"
	if len(r.filter.IMOs) == 1 {
		name = "track-" + r.filter.IMOs[0].String()
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="overwatch-`+name+`-`+r.filter.End.Format("20060102")+`.csv"`)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		defer rows.Close()
		buf := make([]byte, 0, trackFlushBytes+1024)
		buf = append(buf, trackCSVHeader...)
		failed := false
		sh := newShaper(r, func(f *Fix, seg int) {
			if failed {
				return
			}
			buf = appendFixCSV(buf, f, seg)
			if len(buf) >= trackFlushBytes {
				if _, err := w.Write(buf); err != nil || w.Flush() != nil {
					failed = true // the client went away
					cancel()
				}
				buf = buf[:0]
			}
		})
		var f Fix
		for !failed && rows.Next(&f) {
			sh.add(&f)
		}
		if !failed && rows.Err() == nil {
			sh.flush()
		}
		if !failed {
			w.Write(buf) //nolint:errcheck // the client may be gone; nothing to tell it
			w.Flush()    //nolint:errcheck
		}
	})
	return nil
}

// appendFixCSV writes one fix as a CSV record (the columns of
// trackCSVHeader); CSV answers are for plans with exact coordinates.
func appendFixCSV(buf []byte, f *Fix, seg int) []byte {
	buf = appendIMO(buf, f.IMO)
	buf = append(buf, ',')
	buf = strconv.AppendInt(buf, int64(seg), 10)
	buf = append(buf, ',')
	buf = f.TS.UTC().AppendFormat(buf, time.RFC3339)
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
	buf = f.ReceivedAt.UTC().AppendFormat(buf, time.RFC3339)
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
