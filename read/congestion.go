package read

import (
	"context"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/portstats"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// Congestion windows: the live figures look back CongestionWindow (and 24
// hours), the baseline is the daily rows of the CongestionBaselineDays
// days before today.
const (
	CongestionWindow       = 7 * 24 * time.Hour
	CongestionBaselineDays = 90
)

// CongestionNowRequest selects the port calls of a live congestion query.
type CongestionNowRequest struct {
	Port     string // a port slug; "" for every port
	Category string // ship type category; "" for every vessel
	Now      time.Time
	Since    time.Time // start of the 7-day window (clamped to the tier's history)
}

// CongestionBaselineRequest selects the daily rows a baseline averages:
// days [From, To) of a vessel type (a category or "all").
type CongestionBaselineRequest struct {
	Port       string // a port slug; "" for every port
	VesselType string
	From, To   time.Time
}

// CongestionHistoryRequest selects a port's daily congestion rows of a
// vessel type (a category or "all") in [From, To), oldest first.
type CongestionHistoryRequest struct {
	Port       string
	VesselType string
	From, To   time.Time
}

// CongestionStore computes live congestion and its baseline and reads the
// daily congestion table.
type CongestionStore interface {
	CongestionNow(ctx context.Context, r CongestionNowRequest) ([]CongestionLiveRow, error)
	CongestionBaseline(ctx context.Context, r CongestionBaselineRequest) ([]CongestionBaselineRow, error)
	CongestionHistory(ctx context.Context, r CongestionHistoryRequest) ([]portstats.CongestionDay, error)
}

// congestionRoutes mounts the congestion endpoints; the refresh is the
// write side's.
func congestionRoutes(r route.Router, s CongestionStore, c *Cache, now func() time.Time) {
	live := Cached(c, "congestion_now", []string{tablePortCalls}, s.CongestionNow)
	base := Cached(c, "congestion_baseline", []string{tableCongestion}, s.CongestionBaseline)
	history := Cached(c, "congestion_history", []string{tableCongestion}, s.CongestionHistory)
	r.Handle(fiber.MethodGet, "/congestion", overwatch.AccessKey, Congestion(live, base, now))
	r.Handle(fiber.MethodGet, "/congestion/history", overwatch.AccessKey, CongestionHistory(history, now))
}

// CongestionLiveRow is a port's congestion now, from its current port calls
// of confidence 2 or more. Ports without calls may have no row.
type CongestionLiveRow struct {
	Port                       string
	Waiting, AtBerth           uint64 // open calls at anchor (not yet berthed), at berth
	InPort                     uint64 // open calls
	MedianWaitHours            *float64
	P90WaitHours               *float64 // of the anchor periods that ended in the window
	Arrivals24h, Departures24h uint64
	Arrivals7d, Departures7d   uint64
}

// CongestionBaselineRow is the mean of a port's daily congestion rows over
// the baseline days; MedianWaitHours is the mean over the days with waits.
type CongestionBaselineRow struct {
	Port            string
	Days            uint64
	Waiting         float64
	MedianWaitHours *float64
	Arrivals        float64 // per day
}

// CongestionBaseline is the baseline of an item of GET /v1/congestion.
type CongestionBaseline struct {
	Days            uint64   `json:"days"`
	Waiting         *float64 `json:"waiting"`
	MedianWaitHours *float64 `json:"median_wait_hours"`
	Arrivals7d      *float64 `json:"arrivals_7d"`
}

// CongestionChange is the change of the live figures against the baseline,
// in percent.
type CongestionChange struct {
	Waiting         *float64 `json:"waiting"`
	MedianWaitHours *float64 `json:"median_wait_hours"`
	Arrivals7d      *float64 `json:"arrivals_7d"`
}

// PortCongestion is an item of GET /v1/congestion.
type PortCongestion struct {
	Port            string             `json:"port"`
	PortName        string             `json:"port_name"`
	Country         string             `json:"country"`
	VesselType      string             `json:"vessel_type"`
	AsOf            string             `json:"as_of"`
	Waiting         uint64             `json:"waiting"`
	AtBerth         uint64             `json:"at_berth"`
	InPort          uint64             `json:"in_port"`
	MedianWaitHours *float64           `json:"median_wait_hours"`
	P90WaitHours    *float64           `json:"p90_wait_hours"`
	Arrivals24h     uint64             `json:"arrivals_24h"`
	Departures24h   uint64             `json:"departures_24h"`
	Arrivals7d      uint64             `json:"arrivals_7d"`
	Departures7d    uint64             `json:"departures_7d"`
	Baseline        CongestionBaseline `json:"baseline"`
	ChangePct       CongestionChange   `json:"change_pct"`
}

// Congestion serves GET /v1/congestion: port (slug; all 40 ports, by slug,
// when absent), vessel_type (a ship type category). Live figures come from
// the current port calls; the baseline from the daily rows of the 90 days
// before today, no deeper than the tier's history.
func Congestion(live Query[CongestionNowRequest, []CongestionLiveRow], baseline Query[CongestionBaselineRequest, []CongestionBaselineRow],
	now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		cat, err := categoryParam(c, "vessel_type")
		if err != nil {
			return err
		}
		caller := overwatch.CallerFrom(c.UserContext())
		t := now().UTC()
		ports := portsOrAll(port)
		f := CongestionNowRequest{Port: slugOf(port), Now: Minute(t), Since: Minute(caller.ClampSince(t.Add(-CongestionWindow), t))}
		vt := "all"
		if cat != nil {
			f.Category, vt = cat.Name, cat.Name
		}
		liveRows, err := live(c.UserContext(), f)
		if err != nil {
			return err
		}
		today := dayOf(t)
		from := laterDay(today.AddDate(0, 0, -CongestionBaselineDays), caller.HistoryFloor(t))
		base, err := baseline(c.UserContext(), CongestionBaselineRequest{Port: f.Port, VesselType: vt, From: Minute(from), To: today})
		if err != nil {
			return err
		}
		liveBy := map[string]CongestionLiveRow{}
		for _, r := range liveRows {
			liveBy[r.Port] = r
		}
		baseBy := map[string]CongestionBaselineRow{}
		for _, r := range base {
			baseBy[r.Port] = r
		}
		out := make([]PortCongestion, len(ports))
		for i, p := range ports {
			out[i] = newPortCongestion(p, vt, t, liveBy[p.Slug], baseBy[p.Slug])
		}
		return c.JSON(fiber.Map{"congestion": out})
	}
}

func newPortCongestion(p seaport.Port, vt string, t time.Time, l CongestionLiveRow, b CongestionBaselineRow) PortCongestion {
	item := PortCongestion{
		Port: p.Slug, PortName: p.Name, Country: p.Country, VesselType: vt, AsOf: t.Format(time.RFC3339),
		Waiting: l.Waiting, AtBerth: l.AtBerth, InPort: l.InPort,
		MedianWaitHours: roundPtr(finitePtr(l.MedianWaitHours), 1), P90WaitHours: roundPtr(finitePtr(l.P90WaitHours), 1),
		Arrivals24h: l.Arrivals24h, Departures24h: l.Departures24h, Arrivals7d: l.Arrivals7d, Departures7d: l.Departures7d,
		Baseline: CongestionBaseline{Days: b.Days},
	}
	if b.Days == 0 {
		return item
	}
	waiting, arrivals := b.Waiting, b.Arrivals*7
	item.Baseline.Waiting = roundPtr(finitePtr(&waiting), 1)
	item.Baseline.MedianWaitHours = roundPtr(finitePtr(b.MedianWaitHours), 1)
	item.Baseline.Arrivals7d = roundPtr(finitePtr(&arrivals), 1)
	item.ChangePct = CongestionChange{
		Waiting:    changePct(float64(l.Waiting), finitePtr(&waiting)),
		Arrivals7d: changePct(float64(l.Arrivals7d), finitePtr(&arrivals)),
	}
	if m := finitePtr(l.MedianWaitHours); m != nil {
		item.ChangePct.MedianWaitHours = changePct(*m, finitePtr(b.MedianWaitHours))
	}
	return item
}

// CongestionDay is an item of the history of GET /v1/congestion/history.
type CongestionDay struct {
	Date            string   `json:"date"`
	Waiting         int      `json:"waiting"`
	AtBerth         int      `json:"at_berth"`
	InPort          int      `json:"in_port"`
	Arrivals        int      `json:"arrivals"`
	Departures      int      `json:"departures"`
	MedianWaitHours *float64 `json:"median_wait_hours"`
	P90WaitHours    *float64 `json:"p90_wait_hours"`
	MedianPortHours *float64 `json:"median_port_hours"`
}

// CongestionHistoryBody is the body of GET /v1/congestion/history.
type CongestionHistoryBody struct {
	Port       string          `json:"port"`
	PortName   string          `json:"port_name"`
	Days       int             `json:"days"`
	VesselType *string         `json:"vessel_type"`
	History    []CongestionDay `json:"history"`
}

// CongestionHistory serves GET /v1/congestion/history: port (required),
// days (default 30, 1 to 365; today and the days before it), vessel_type.
// Days before the tier's history floor are left out.
func CongestionHistory(history Query[CongestionHistoryRequest, []portstats.CongestionDay], now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", true)
		if err != nil {
			return err
		}
		days, err := intParam(c, "days", 30, 1, 365)
		if err != nil {
			return err
		}
		cat, err := categoryParam(c, "vessel_type")
		if err != nil {
			return err
		}
		t := now().UTC()
		today := dayOf(t)
		from := laterDay(today.AddDate(0, 0, 1-days), overwatch.CallerFrom(c.UserContext()).HistoryFloor(t))
		body := CongestionHistoryBody{Port: port.Slug, PortName: port.Name, Days: days, History: []CongestionDay{}}
		vt := "all"
		if cat != nil {
			vt = cat.Name
			body.VesselType = &cat.Name
		}
		rows, err := history(c.UserContext(), CongestionHistoryRequest{Port: port.Slug, VesselType: vt, From: Minute(from), To: today.AddDate(0, 0, 1)})
		if err != nil {
			return err
		}
		for _, r := range rows {
			d := CongestionDay{
				Date: r.Day.UTC().Format(time.DateOnly), Waiting: r.Waiting, AtBerth: r.AtBerth, InPort: r.InPort,
				Arrivals: r.Arrivals, Departures: r.Departures,
			}
			if r.Waits > 0 {
				d.MedianWaitHours = roundPtr(finitePtr(&r.MedianWaitHours), 1)
				d.P90WaitHours = roundPtr(finitePtr(&r.P90WaitHours), 1)
			}
			if r.Departures > 0 {
				d.MedianPortHours = roundPtr(finitePtr(&r.MedianPortHours), 1)
			}
			body.History = append(body.History, d)
		}
		return c.JSON(body)
	}
}

// Helpers shared by the analytics handlers.

// portsOrAll is the port, or every reference port in slug order.
func portsOrAll(p *seaport.Port) []seaport.Port {
	if p != nil {
		return []seaport.Port{*p}
	}
	return seaport.All()
}

// slugOf is the port's slug, "" for none (every port).
func slugOf(p *seaport.Port) string {
	if p == nil {
		return ""
	}
	return p.Slug
}

// dayOf is the UTC midnight that starts t's day.
func dayOf(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }

// mondayOf is the UTC midnight that starts t's ISO week.
func mondayOf(t time.Time) time.Time {
	d := dayOf(t)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// laterDay is from, moved forward to the first day that starts at or after
// the history floor (zero: no floor), so that no day older than the floor
// is returned.
func laterDay(from, floor time.Time) time.Time {
	if floor.IsZero() {
		return from
	}
	first := dayOf(floor)
	if first.Before(floor) {
		first = first.Add(24 * time.Hour)
	}
	if first.After(from) {
		return first
	}
	return from
}

// finitePtr is v, or nil when v is nil, NaN or infinite.
func finitePtr(v *float64) *float64 {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil
	}
	return v
}

// changePct is (current - base) / base in percent, rounded to 0.1; nil
// when there is no base or it is 0.
func changePct(current float64, base *float64) *float64 {
	if base == nil || *base == 0 {
		return nil
	}
	v := roundTo((current-*base) / *base * 100, 1)
	return &v
}

// ratioPct is part/whole in percent, rounded to 0.1; nil when whole is 0.
func ratioPct(part, whole float64) *float64 {
	if whole == 0 {
		return nil
	}
	v := roundTo(part/whole*100, 1)
	return &v
}
