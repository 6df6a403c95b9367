package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/write/ingest"
)

// AISHubURL is the AISHub web service.
const AISHubURL = "https://data.aishub.net/ws.php"

// AISHubMinInterval is the service's limit: one call per minute.
const AISHubMinInterval = time.Minute

// AISHub polls the AISHub web service for the latest data of every vessel
// its network sees, as JSON, in either unit system: format 0 ("AIS": lat
// and lon in 1/10,000 minute, COG and SOG in tenths, draught in tenths of
// a metre) or format 1 (degrees, knots, metres). It never calls more often
// than once a minute.
type AISHub struct {
	URL      string
	Username string
	Format   int // 0 or 1
	Interval time.Duration
	Source   overwatch.Source
	Sink     Sink
	Log      *slog.Logger
	Client   *http.Client
	Now      func() time.Time
	// MinInterval lowers the one-call-per-minute floor; tests only.
	MinInterval time.Duration
}

// Name says what the feed is, for logs.
func (f *AISHub) Name() string { return string(f.Source) + " " + f.URL }

// Run polls until ctx ends.
func (f *AISHub) Run(ctx context.Context) error {
	if f.URL == "" {
		f.URL = AISHubURL
	}
	floor := AISHubMinInterval
	if f.MinInterval > 0 {
		floor = f.MinInterval
	}
	every := max(f.Interval, floor)
	if f.Client == nil {
		f.Client = &http.Client{Timeout: 30 * time.Second}
	}
	// Each call starts every after the previous one ended, so that the
	// service never sees two requests closer than every: timed from the
	// previous start, a delay between that start and its request leaving
	// (scheduling, a GC pause, dialling) would bring the two requests
	// closer than every. (A ticker would not hold it either: a tick
	// buffered during a slow call starts the next call at once.)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		}
		n, err := f.Poll(ctx)
		if err != nil && ctx.Err() == nil {
			logger(f.Log).Warn("AISHub poll failed", "feed", f.Name(), "err", err)
		} else {
			logger(f.Log).Debug("AISHub polled", "feed", f.Name(), "records", n)
		}
		timer.Reset(every)
	}
}

// Poll makes one call and submits its records; it returns how many
// records the answer held.
func (f *AISHub) Poll(ctx context.Context) (int, error) {
	u, err := url.Parse(f.URL)
	if err != nil {
		return 0, err
	}
	q := u.Query()
	q.Set("username", f.Username)
	q.Set("format", strconv.Itoa(f.Format))
	q.Set("output", "json")
	q.Set("compress", "0")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, err
	}
	resp, err := f.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("AISHub answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return 0, err
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	reports, records, invalid, err := ParseAISHub(body, f.Format, f.Source, now())
	f.Sink.CountFeed(uint64(records), uint64(len(reports)), map[string]uint64{InvalidRecord: uint64(invalid)})
	if err != nil {
		return 0, err
	}
	for _, r := range reports {
		if err := f.Sink.Submit(ctx, r); err != nil {
			return records, err
		}
	}
	return records, nil
}

type aishubHeader struct {
	Error        bool   `json:"ERROR"`
	ErrorMessage string `json:"ERROR_MESSAGE"`
	Format       string `json:"FORMAT"`
	Records      int    `json:"RECORDS"`
}

// ParseAISHub turns an AISHub JSON answer into reports: for each record a
// position report and, when it names the vessel, a static report. It
// returns the reports, the number of records and how many were invalid.
func ParseAISHub(body []byte, format int, src overwatch.Source, received time.Time) ([]ingest.Report, int, int, error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(body, &parts); err != nil || len(parts) == 0 {
		return nil, 0, 0, fmt.Errorf("AISHub: unexpected answer: %.200s", body)
	}
	var head []aishubHeader
	if err := json.Unmarshal([]byte("["+string(parts[0])+"]"), &head); err != nil || len(head) != 1 {
		return nil, 0, 0, fmt.Errorf("AISHub: unexpected header: %.200s", parts[0])
	}
	if head[0].Error {
		return nil, 0, 0, fmt.Errorf("AISHub: %s", head[0].ErrorMessage)
	}
	if len(parts) < 2 {
		return nil, 0, 0, nil
	}
	var records []map[string]json.RawMessage
	if err := json.Unmarshal(parts[1], &records); err != nil {
		return nil, 0, 0, fmt.Errorf("AISHub: records: %w", err)
	}
	var out []ingest.Report
	invalid := 0
	for _, raw := range records {
		rep, ok := aishubReports(raw, format, src, received)
		if !ok {
			invalid++
			continue
		}
		out = append(out, rep...)
	}
	return out, len(records), invalid, nil
}

func aishubReports(raw map[string]json.RawMessage, format int, src overwatch.Source, received time.Time) ([]ingest.Report, bool) {
	num := func(key string) (float64, bool) {
		v, ok := raw[key]
		if !ok {
			return 0, false
		}
		s := strings.Trim(strings.TrimSpace(string(v)), `"`)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	}
	text := func(key string) string {
		var s string
		if json.Unmarshal(raw[key], &s) != nil {
			return ""
		}
		return strings.TrimSpace(strings.TrimRight(s, "@ "))
	}
	mmsi, ok := num("MMSI")
	if !ok || mmsi < 1 || mmsi > 999999999 {
		return nil, false
	}
	ts, ok := aishubTime(raw["TIME"])
	if !ok {
		ts = received
	}
	pos := ingest.Report{Source: src, MMSI: uint32(mmsi), Type: 1, TS: ts.Truncate(time.Second), ReceivedAt: received}
	scale, tenth := 1.0, 1.0
	latNA, lonNA, sogNA, cogNA := 91.0, 181.0, 102.3, 360.0
	if format == 0 {
		scale, tenth = 600000, 10
		latNA, lonNA, sogNA, cogNA = 91*600000, 181*600000, 1023, 3600
	}
	lat, okLat := num("LATITUDE")
	lon, okLon := num("LONGITUDE")
	if okLat && okLon && math.Abs(lat) < latNA && math.Abs(lon) < lonNA {
		pos.Has |= ingest.HasPosition
		pos.Lat, pos.Lon = lat/scale, lon/scale
	}
	if v, ok := num("SOG"); ok && v >= 0 && v < sogNA {
		pos.Has |= ingest.HasSOG
		pos.SOG = v / tenth
	}
	if v, ok := num("COG"); ok && v >= 0 && v < cogNA {
		pos.Has |= ingest.HasCOG
		pos.COG = v / tenth
	}
	if v, ok := num("HEADING"); ok && v >= 0 && v < 360 {
		pos.Has |= ingest.HasHeading
		pos.Heading = uint16(v)
	}
	if v, ok := num("NAVSTAT"); ok && v >= 0 && v < 15 {
		pos.Has |= ingest.HasNavStatus
		pos.NavStatus = uint8(v)
	}
	var out []ingest.Report
	if pos.Has&ingest.HasPosition != 0 {
		out = append(out, pos)
	}
	st := ingest.Report{Source: src, MMSI: pos.MMSI, Type: 5, TS: pos.TS, ReceivedAt: received}
	if v, ok := num("IMO"); ok && v >= 1000000 && v <= 9999999 {
		st.Has |= ingest.HasIMO
		st.IMO = overwatch.IMO(v)
	}
	if n := text("NAME"); n != "" {
		st.Has |= ingest.HasName
		st.Name = n
	}
	if c := text("CALLSIGN"); c != "" {
		st.Has |= ingest.HasCallSign
		st.CallSign = c
	}
	if v, ok := num("TYPE"); ok && v > 0 && v < 100 {
		st.Has |= ingest.HasShipType
		st.ShipType = uint8(v)
	}
	a, _ := num("A")
	b, _ := num("B")
	c, _ := num("C")
	d, _ := num("D")
	if a+b > 0 && a+b < 1023 && c+d < 127 {
		st.Has |= ingest.HasDimensions
		st.ToBow, st.ToStern, st.ToPort, st.ToStarboard = uint16(a), uint16(b), uint16(c), uint16(d)
	}
	if v, ok := num("DRAUGHT"); ok && v > 0 {
		st.Has |= ingest.HasDraught
		st.Draught = v / tenth
	}
	if dest := text("DEST"); dest != "" {
		st.Has |= ingest.HasDestination
		st.Destination = dest
	}
	if eta, ok := aishubETA(raw["ETA"], format, st.TS); ok {
		st.Has |= ingest.HasETA
		st.ETA = eta
	}
	if st.Has != 0 {
		out = append(out, st)
	}
	return out, len(out) > 0
}

// aishubTime reads TIME, either "2024-03-01 10:15:02 GMT" or unix seconds.
func aishubTime(raw json.RawMessage) (time.Time, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return time.Unix(n, 0).UTC(), true
	}
	for _, layout := range []string{"2006-01-02 15:04:05 MST", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// aishubETA reads ETA: in format 0 the AIS bit field (month<<16 | day<<11 |
// hour<<6 | minute), in format 1 "MM-DD HH:MM" (a year is tolerated).
func aishubETA(raw json.RawMessage, format int, ref time.Time) (time.Time, bool) {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseUint(s, 10, 32); err == nil && format == 0 {
		return ingest.ETAFrom(ref, int(n>>16&15), int(n>>11&31), int(n>>6&31), int(n&63))
	}
	for _, layout := range []string{"01-02 15:04", "2006-01-02 15:04", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return ingest.ETAFrom(ref, int(t.Month()), t.Day(), t.Hour(), t.Minute())
		}
	}
	return time.Time{}, false
}
