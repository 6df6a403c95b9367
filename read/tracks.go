package read

import (
	"context"
	"strconv"
	"time"

	"overwatch/maritime/risk"
	"overwatch/maritime/track"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Historical tracks: every stored fix of a vessel (or of several) in a
// time range, in time order, with its provenance; broken into segments at
// reception gaps longer than the gap detector's threshold; optionally
// thinned to one fix per interval and simplified by Douglas–Peucker. JSON,
// GeoJSON or CSV, each streamed as it is read.

// Fix is one stored position report as the tracks read it.
type Fix struct {
	IMO        overwatch.IMO
	TS         time.Time
	Lat, Lon   float64
	SpeedKt    float64 // knots; NaN when not reported
	CourseDeg  float64 // degrees true; NaN when not reported
	Heading    int32   // degrees true; -1 when not reported
	NavStatus  uint8   // ITU-R M.1371 code; 15 when not reported
	Source     overwatch.Source
	Station    string    // the receiving station; "" when the feed named none
	ReceivedAt time.Time // when the service received the report
	DedupKey   uint64    // the stored report's identity (a retried write stores it twice until merge)
}

// FixRows is a cursor over fixes, ordered by IMO then time.
type FixRows interface {
	// Next reads the next fix into f; false at the end or on an error.
	Next(f *Fix) bool
	// Err is the error that ended the rows, if any.
	Err() error
	// Close releases the rows.
	Close() error
}

// TrackStore reads stored fixes: those the filter selects, ordered by IMO
// then time, as a cursor so that a long range is never held whole.
type TrackStore interface {
	Fixes(ctx context.Context, f PositionFilter) (FixRows, error)
}

// Bounds of the track parameters.
const (
	// TrackDefaultRange is the range read when start is absent: the 7
	// days before end.
	TrackDefaultRange = 7 * 24 * time.Hour
	// TrackMaxSimplifyM bounds simplify (metres).
	TrackMaxSimplifyM = 100000
	// TrackMaxIntervalMin bounds interval (minutes): a day.
	TrackMaxIntervalMin = 1440
	// TrackTimeout bounds the reading of one answer, streamed or not.
	TrackTimeout = 2 * time.Minute
	// TrackMaxRange bounds the range of one request (after the plan's
	// history floor moved start up): a year of one vessel.
	TrackMaxRange = 366 * 24 * time.Hour
	// TrackMaxVesselDays bounds what one request reads: its range in days
	// times the vessels asked, 36.6 days of 100 vessels. A request beyond
	// either bound is a 400 naming start: the answer is streamed, so it is
	// refused whole rather than cut.
	TrackMaxVesselDays = 3660
)

// TrackGap is the silence that breaks a track into segments: the gap
// detector's threshold for an off/on event (risk.GapOffOn).
const TrackGap = risk.GapOffOn

// trackRoutes mounts the tracks.
func trackRoutes(r route.Router, s TrackStore, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/vessels/:imo/track", overwatch.AccessKey, VesselTrack(s, now))
	r.Handle(fiber.MethodGet, "/tracks", overwatch.AccessKey, Tracks(s, now))
}

// trackRequest is a parsed track request.
type trackRequest struct {
	filter   PositionFilter
	format   string // json, geojson or csv
	simplify float64
	interval time.Duration
	exact    bool // the caller sees coordinates
}

// parseTrack reads the filter and the track options and bounds the range:
// end defaults to now, start to TrackDefaultRange before end, and start
// is moved up to the plan's history floor.
func parseTrack(c *fiber.Ctx, now func() time.Time) (trackRequest, error) {
	var r trackRequest
	var err error
	if r.filter, err = positionFilter(c); err != nil {
		return r, err
	}
	if r.format, err = enumParam(c, "format", "json", "geojson", "csv"); err != nil {
		return r, err
	}
	if r.format == "" {
		r.format = "json"
	}
	if v, ok, err := floatParam(c, "simplify"); err != nil {
		return r, err
	} else if ok {
		if v <= 0 || v > TrackMaxSimplifyM {
			return r, invalid("simplify", "simplify must be a tolerance in metres above 0 and at most %d", TrackMaxSimplifyM)
		}
		r.simplify = v
	}
	minutes, err := intParam(c, "interval", 0, 1, TrackMaxIntervalMin)
	if err != nil {
		return r, err
	}
	r.interval = time.Duration(minutes) * time.Minute
	caller := overwatch.CallerFrom(c.UserContext())
	if r.format == "csv" {
		if err := caller.Require(overwatch.FeatureCSVExport); err != nil {
			return r, err
		}
	}
	t := now().UTC()
	if r.filter.End.IsZero() || r.filter.End.After(t) {
		r.filter.End = t
	}
	if r.filter.Start.IsZero() {
		r.filter.Start = r.filter.End.Add(-TrackDefaultRange)
	}
	r.filter.Start = caller.ClampSince(r.filter.Start, t)
	r.exact = caller.ExactCoordinates()
	return r, nil
}

// VesselTrack serves GET /v1/vessels/{imo}/track: the track of one vessel
// (the filter's imo is the path's), as a Track (JSON), a GeoJSON Feature
// or CSV.
func VesselTrack(store TrackStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		imo, err := overwatch.ParseIMO(c.Params("imo"))
		if err != nil {
			return overwatch.Errorf(overwatch.Invalid, "imo %v", err).With("parameter", "imo")
		}
		if c.Query("imo") != "" {
			return invalid("imo", "imo is the path's vessel; use /v1/tracks for several")
		}
		r, err := parseTrack(c, now)
		if err != nil {
			return err
		}
		r.filter.IMOs = []overwatch.IMO{imo}
		return serveTracks(c, store, r, true)
	}
}

// Tracks serves GET /v1/tracks?imo=a,b,c: the tracks of up to
// FilterMaxVessels vessels, one per IMO asked (in IMO order, empty for a
// vessel with no fix in range), as {tracks} (JSON), a GeoJSON
// FeatureCollection or one CSV.
func Tracks(store TrackStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, err := parseTrack(c, now)
		if err != nil {
			return err
		}
		if len(r.filter.IMOs) == 0 {
			return invalid("imo", "imo is required: one IMO number or a comma list of up to %d", FilterMaxVessels)
		}
		return serveTracks(c, store, r, false)
	}
}

// serveTracks streams the fixes in the request's format; one is the
// single-vessel form of the body. A range too long for the vessels asked
// (TrackMaxVesselDays) is refused.
func serveTracks(c *fiber.Ctx, store TrackStore, r trackRequest, one bool) error {
	if err := checkTrackSpan(r.filter); err != nil {
		return err
	}
	return streamTracks(c, store, r, one)
}

// checkTrackSpan refuses a range longer than TrackMaxRange, or whose days
// times the vessels asked exceed TrackMaxVesselDays, naming start.
func checkTrackSpan(f PositionFilter) error {
	vessels := max(1, len(f.IMOs))
	maxSpan := min(TrackMaxRange, time.Duration(TrackMaxVesselDays)*24*time.Hour/time.Duration(vessels))
	if f.End.Sub(f.Start) <= maxSpan {
		return nil
	}
	return invalid("start", "start must be at most %s days before end for %d vessel(s): a request reads at most %d days, and %d vessel-days; narrow the range or ask fewer vessels",
		strconv.FormatFloat(maxSpan.Hours()/24, 'f', -1, 64), vessels, int(TrackMaxRange.Hours()/24), TrackMaxVesselDays)
}

// shaper turns fixes in (IMO, time) order into the kept fixes with their
// segment numbers: duplicates of a stored report dropped, segments broken
// at TrackGap (over every fix in range, before thinning), thinned to one
// fix per interval, each segment simplified. emit is called in order.
type shaper struct {
	req  trackRequest
	emit func(*Fix, int)

	imo     overwatch.IMO
	started bool
	last    Fix
	segs    track.Segmenter
	thin    track.Thinner
	seg     int
	buf     []Fix // the current segment, when simplifying
}

func newShaper(r trackRequest, emit func(*Fix, int)) *shaper {
	return &shaper{req: r, emit: emit}
}

func (s *shaper) add(f *Fix) {
	if s.started && f.IMO == s.last.IMO && f.TS.Equal(s.last.TS) && f.DedupKey == s.last.DedupKey {
		return // the same stored report, written twice and not yet merged
	}
	if !s.started || f.IMO != s.imo {
		s.flush()
		s.imo, s.started = f.IMO, true
		s.segs, s.thin = track.Segmenter{Gap: TrackGap}, track.Thinner{Every: s.req.interval}
	}
	s.last = *f
	seg := s.segs.Next(f.TS)
	if seg != s.seg {
		s.flushSegment()
		s.seg = seg
	}
	if !s.thin.Keep(f.TS) {
		return
	}
	if s.req.simplify > 0 {
		s.buf = append(s.buf, *f)
		return
	}
	s.emit(f, seg)
}

// flush ends the current vessel.
func (s *shaper) flush() {
	s.flushSegment()
	s.seg = 0
}

func (s *shaper) flushSegment() {
	if len(s.buf) == 0 {
		return
	}
	pts := make([]track.Point, len(s.buf))
	for i := range s.buf {
		pts[i] = track.Point{Lat: s.buf[i].Lat, Lon: s.buf[i].Lon}
	}
	for _, i := range track.Simplify(pts, s.req.simplify) {
		s.emit(&s.buf[i], s.seg)
	}
	s.buf = s.buf[:0]
}
