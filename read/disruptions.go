package read

import (
	"context"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/chokepoint"
	"overwatch/route"
)

// DisruptionRequest selects disruption signals: published at or after
// Since, whose title holds Query (case-insensitive; "" for any), newest
// first, at most Limit.
type DisruptionRequest struct {
	Since time.Time
	Query string
	Limit int
}

// DisruptionSources is what the store knows of the sources behind the
// signals: the GDELT articles stored and their newest fetch, the newest
// day of chokepoint transits and when it was computed.
type DisruptionSources struct {
	NewsSignals    uint64
	NewsFetched    time.Time
	TransitsNewest time.Time
	TransitsAt     time.Time
}

// DisruptionStore reads the disruption signals and the daily chokepoint
// transits (clickhouse.DB).
type DisruptionStore interface {
	Disruptions(ctx context.Context, r DisruptionRequest) ([]chokepoint.Disruption, error)
	ChokepointTransits(ctx context.Context, from, to time.Time) ([]chokepoint.Count, error)
	DisruptionSources(ctx context.Context) (DisruptionSources, error)
	// PortWatchLatest is each chokepoint's newest IMF PortWatch day (none
	// unless an operator configured the fetch).
	PortWatchLatest(ctx context.Context) ([]chokepoint.PortWatchDay, error)
}

// disruptionRoutes mounts GET /v1/disruptions.
func disruptionRoutes(r route.Router, s DisruptionStore, now func() time.Time) {
	r.Handle(fiber.MethodGet, "/disruptions", overwatch.AccessKey, Disruptions(s, now))
}

// DisruptionSignal is an item of GET /v1/disruptions.
type DisruptionSignal struct {
	Kind        string          `json:"kind"`
	Source      string          `json:"source"`
	Title       string          `json:"title"`
	URL         string          `json:"url"`
	SourceName  string          `json:"source_name"`
	PublishedAt string          `json:"published_at"`
	Tone        *float64        `json:"tone"`
	Port        *string         `json:"port"`
	Chokepoint  *string         `json:"chokepoint"`
	Language    *string         `json:"language"`
	Country     *string         `json:"source_country"`
	Transits    *SignalTransits `json:"transits"`
}

// SignalTransits are an AIS signal's figures, transits a day: the
// chokepoint's over the recent window and its norm, and for a diversion
// the alternative's.
type SignalTransits struct {
	RecentPerDay            float64  `json:"recent_per_day"`
	NormPerDay              float64  `json:"norm_per_day"`
	RecentDays              int      `json:"recent_days"`
	Alternative             *string  `json:"alternative"`
	AlternativeRecentPerDay *float64 `json:"alternative_recent_per_day"`
	AlternativeNormPerDay   *float64 `json:"alternative_norm_per_day"`
}

// NewDisruptionSignal presents a stored signal.
func NewDisruptionSignal(d chokepoint.Disruption) DisruptionSignal {
	s := DisruptionSignal{Kind: d.Kind, Source: d.Source, Title: d.Title, URL: d.URL, SourceName: d.SourceName,
		PublishedAt: d.PublishedAt.UTC().Format(time.RFC3339), Tone: nanNull(d.Tone), Port: strOrNull(d.Port),
		Chokepoint: strOrNull(d.Chokepoint), Language: strOrNull(d.Language), Country: strOrNull(d.Country)}
	if d.Source == chokepoint.SourceAIS {
		t := &SignalTransits{RecentPerDay: round2(d.Recent), NormPerDay: round2(d.Norm), RecentDays: chokepoint.RecentDays}
		if d.Alternative != "" {
			t.Alternative = strOrNull(d.Alternative)
			a, n := round2(d.AltRecent), round2(d.AltNorm)
			t.AlternativeRecentPerDay, t.AlternativeNormPerDay = &a, &n
		}
		s.Transits = t
	}
	return s
}

func strOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// ChokepointTraffic is a chokepoint's recent traffic from the service's
// own AIS positions.
type ChokepointTraffic struct {
	Slug         string          `json:"slug"`
	Name         string          `json:"name"`
	GatewayPorts []string        `json:"gateway_ports"`
	Alternative  *string         `json:"alternative"`
	LatestDay    *string         `json:"latest_day"`
	LatestTotal  int             `json:"latest_transits"`
	LatestByType map[string]int  `json:"latest_by_type"`
	RecentPerDay *float64        `json:"recent_per_day"`
	NormPerDay   *float64        `json:"norm_per_day"`
	PortWatch    *PortWatchCount `json:"portwatch"`
}

// PortWatchCount is IMF PortWatch's newest day of a chokepoint's transits
// (only where an operator configured the fetch; null otherwise).
type PortWatchCount struct {
	Day          string `json:"day"`
	Total        int    `json:"n_total"`
	Container    int    `json:"n_container"`
	DryBulk      int    `json:"n_dry_bulk"`
	GeneralCargo int    `json:"n_general_cargo"`
	RoRo         int    `json:"n_roro"`
	Tanker       int    `json:"n_tanker"`
}

// DisruptionSource is the state of a source of the signals.
type DisruptionSource struct {
	Status      string  `json:"status"` // live, no_data, off
	Message     string  `json:"message"`
	Newest      *string `json:"newest"`
	Attribution string  `json:"attribution"`
}

// Attributions of the sources.
const (
	GDELTAttribution      = "News signals: The GDELT Project (gdeltproject.org), DOC 2.0 API; articles belong to their publishers (titles and URLs only)"
	PortWatchAttribution  = "IMF PortWatch (portwatch.imf.org), Daily Chokepoints Data; IMF terms of use apply, not redistributable"
	AISTransitAttribution = "Chokepoint transits counted from the service's own AIS positions; gates from Natural Earth and the NGA World Port Index (public domain)"
)

// Disruptions serves GET /v1/disruptions: hours (1..720, default 24),
// query (case-insensitive title filter), limit (20, max 100, clamped by
// the tier) → { signals, count, timespan_hours }, the signals newest
// first (news articles from GDELT and the AIS chokepoint signals
// transit_drop and diversion), with each chokepoint's recent traffic and
// the sources' state.
func Disruptions(s DisruptionStore, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		hours, err := intParam(c, "hours", 24, 1, 720)
		if err != nil {
			return err
		}
		q, err := stringParam(c, "query", 200)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 20, 100)
		if err != nil {
			return err
		}
		t := now().UTC()
		since := t.Add(-time.Duration(hours) * time.Hour).Truncate(time.Minute)
		if floor := overwatch.CallerFrom(c.UserContext()).HistoryFloor(t); floor.After(since) {
			since = floor
		}
		ctx := c.UserContext()
		rows, err := s.Disruptions(ctx, DisruptionRequest{Since: since, Query: q, Limit: limit})
		if err != nil {
			return err
		}
		signals := make([]DisruptionSignal, len(rows))
		for i, r := range rows {
			signals[i] = NewDisruptionSignal(r)
		}
		src, err := s.DisruptionSources(ctx)
		if err != nil {
			return err
		}
		// The newest day counted is partial unless it was counted after it
		// ended: the traffic is shown as of the newest complete day.
		complete := src.TransitsNewest
		if !complete.IsZero() && src.TransitsAt.Before(complete.Add(24*time.Hour)) {
			complete = complete.AddDate(0, 0, -1)
		}
		traffic, err := chokepointTraffic(ctx, s, complete)
		if err != nil {
			return err
		}
		pw, err := s.PortWatchLatest(ctx)
		if err != nil {
			return err
		}
		var pwNewest time.Time
		for _, d := range pw {
			for i := range traffic {
				if traffic[i].Slug == d.Chokepoint {
					traffic[i].PortWatch = &PortWatchCount{Day: d.Day.Format(time.DateOnly), Total: d.Total, Container: d.Container,
						DryBulk: d.DryBulk, GeneralCargo: d.GeneralCargo, RoRo: d.RoRo, Tanker: d.Tanker}
				}
			}
			if d.Day.After(pwNewest) {
				pwNewest = d.Day
			}
		}
		return c.JSON(fiber.Map{"signals": signals, "count": len(signals), "timespan_hours": hours,
			"chokepoints": traffic, "sources": disruptionSources(src, pwNewest)})
	}
}

// chokepointTraffic is each chokepoint's traffic on the newest complete
// day of transits, over the recent window and its norm.
func chokepointTraffic(ctx context.Context, s DisruptionStore, newest time.Time) ([]ChokepointTraffic, error) {
	var counts []chokepoint.Count
	from := newest.AddDate(0, 0, -(chokepoint.RecentDays + chokepoint.BaselineDays - 1))
	if !newest.IsZero() {
		var err error
		if counts, err = s.ChokepointTransits(ctx, from, newest); err != nil {
			return nil, err
		}
	}
	var first time.Time
	for _, c := range counts {
		if first.IsZero() || c.Day.Before(first) {
			first = c.Day
		}
	}
	series := chokepoint.NewSeries(counts, first, newest)
	out := []ChokepointTraffic{}
	for _, cp := range chokepoint.All() {
		tr := ChokepointTraffic{Slug: cp.Slug, Name: cp.Name, GatewayPorts: []string{}, Alternative: strOrNull(cp.Alternative), LatestByType: map[string]int{}}
		for _, p := range cp.Ports {
			tr.GatewayPorts = append(tr.GatewayPorts, p.Name+" ("+p.LOCODE+")")
		}
		for _, typ := range chokepoint.VesselTypes {
			tr.LatestByType[typ] = 0
		}
		if !newest.IsZero() {
			d := newest.Format(time.DateOnly)
			tr.LatestDay = &d
			for _, c := range counts {
				if c.Chokepoint == cp.Slug && c.Day.Equal(newest) {
					tr.LatestByType[c.VesselType] += c.Transits
					tr.LatestTotal += c.Transits
				}
			}
			if recent, norm, ok := series.Traffic(cp.Slug, newest); ok {
				r, n := round2(recent), round2(norm)
				tr.RecentPerDay, tr.NormPerDay = &r, &n
			}
		}
		out = append(out, tr)
	}
	return out, nil
}

func disruptionSources(s DisruptionSources, portwatch time.Time) map[string]DisruptionSource {
	out := map[string]DisruptionSource{}
	g := DisruptionSource{Attribution: GDELTAttribution, Newest: rfc3339OrNull(s.NewsFetched)}
	if s.NewsSignals == 0 {
		g.Status = "no_data"
		g.Message = "no news signals stored: the GDELT job has not reached the DOC API (no network, or OVERWATCH_GDELT_URL=off); nothing is invented"
	} else {
		g.Status = "live"
		g.Message = "GDELT DOC 2.0 articles matching the ports' and chokepoints' disruption queries; newest is the last successful fetch"
	}
	a := DisruptionSource{Attribution: AISTransitAttribution}
	if s.TransitsNewest.IsZero() {
		a.Status = "no_data"
		a.Message = "no chokepoint transits counted yet: the chokepoints job has not run on stored AIS positions"
	} else {
		d := s.TransitsNewest.Format(time.DateOnly)
		a.Newest = &d
		a.Status = "live"
		a.Message = "daily transits counted from the service's own AIS positions (signals judge 7 days against the 28 before)"
	}
	out["gdelt"], out["ais"] = g, a
	pw := DisruptionSource{Status: "off", Attribution: PortWatchAttribution,
		Message: "IMF PortWatch is not fetched: its terms do not allow redistributing its counts, so only an operator may configure it (OVERWATCH_PORTWATCH_URL); the transits above are the service's own"}
	if !portwatch.IsZero() {
		d := portwatch.Format(time.DateOnly)
		pw.Status, pw.Newest = "live", &d
		pw.Message = "IMF PortWatch daily chokepoint transits, fetched live as the operator configured (weekly updates, several days' lag)"
	}
	out["portwatch"] = pw
	return out
}
