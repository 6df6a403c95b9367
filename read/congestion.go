package read

import (
	"context"
	"math"
	"time"

	"overwatch/maritime/seaport"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Congestion windows: the live figures look back CongestionWindow (and 24
// hours), the baseline is the daily rows of the CongestionBaselineDays
// days before today.
const (
	CongestionWindow       = 7 * 24 * time.Hour
	CongestionBaselineDays = 90
)

// CongestionFilter selects the port calls of a live congestion query.
type CongestionFilter struct {
	Ports    []string // port slugs
	Category string   // ship type category; "" for every vessel
	Now      time.Time
	Since    time.Time // start of the 7-day window (clamped to the tier's history)
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

// CongestionQuery computes live congestion and its baseline. VesselType of
// the baseline is a category name or "all"; days are [from, to).
type CongestionQuery interface {
	CongestionNow(ctx context.Context, f CongestionFilter) ([]CongestionLiveRow, error)
	CongestionBaseline(ctx context.Context, ports []string, vesselType string, from, to time.Time) ([]CongestionBaselineRow, error)
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
func Congestion(store CongestionQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", false, false)
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
		f := CongestionFilter{Ports: slugs(ports), Now: t, Since: caller.ClampSince(t.Add(-CongestionWindow), t)}
		vt := "all"
		if cat != nil {
			f.Category, vt = cat.Name, cat.Name
		}
		live, err := store.CongestionNow(c.UserContext(), f)
		if err != nil {
			return err
		}
		today := dayOf(t)
		from := laterDay(today.AddDate(0, 0, -CongestionBaselineDays), caller.HistoryFloor(t))
		base, err := store.CongestionBaseline(c.UserContext(), f.Ports, vt, from, today)
		if err != nil {
			return err
		}
		liveBy := map[string]CongestionLiveRow{}
		for _, r := range live {
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

// CongestionDayRow is a row of congestion_daily.
type CongestionDayRow struct {
	Day                                            time.Time
	Waiting, AtBerth, InPort, Arrivals, Departures uint32
	Waits                                          uint32 // anchor periods that ended in the day
	MedianWaitHours, P90WaitHours, MedianPortHours float64
}

// CongestionHistoryQuery returns a port's daily congestion rows of the
// vessel type (a category or "all") in [from, to), oldest first.
type CongestionHistoryQuery interface {
	CongestionHistory(ctx context.Context, port, vesselType string, from, to time.Time) ([]CongestionDayRow, error)
}

// CongestionDay is an item of the history of GET /v1/congestion/history.
type CongestionDay struct {
	Date            string   `json:"date"`
	Waiting         uint32   `json:"waiting"`
	AtBerth         uint32   `json:"at_berth"`
	InPort          uint32   `json:"in_port"`
	Arrivals        uint32   `json:"arrivals"`
	Departures      uint32   `json:"departures"`
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
func CongestionHistory(store CongestionHistoryQuery, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, err := portParam(c, "port", true, false)
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
		rows, err := store.CongestionHistory(c.UserContext(), port.Slug, vt, from, today.AddDate(0, 0, 1))
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

func slugs(ports []seaport.Port) []string {
	out := make([]string, len(ports))
	for i, p := range ports {
		out[i] = p.Slug
	}
	return out
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
