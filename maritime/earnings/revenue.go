package earnings

import (
	"sort"
	"time"
)

// PortWeek is a port's week (by departure from it): the voyages that
// loaded there and departed in the ISO week, their tonnes, the estimated
// freight revenue of their cargo and the port costs of their calls there.
type PortWeek struct {
	Port     string
	Week     time.Time // Monday, UTC
	Voyages  int
	Tonnes   float64
	Revenue  Bounds
	PortCost Bounds
}

// PortRevenue sums the results by loading port and ISO week of departure
// (bounds summed bound by bound: a port's voyages share their rate and
// price), by port then week.
func PortRevenue(results []Result) []PortWeek {
	type key struct {
		port string
		week time.Time
	}
	by := map[key]*PortWeek{}
	var keys []key
	for i := range results {
		r := &results[i]
		k := key{r.Origin, Monday(r.Departure)}
		w, ok := by[k]
		if !ok {
			w = &PortWeek{Port: k.port, Week: k.week}
			by[k] = w
			keys = append(keys, k)
		}
		w.Voyages++
		w.Tonnes += r.Tonnes.Central
		w.Revenue = w.Revenue.Add(r.Revenue)
		w.PortCost = w.PortCost.Add(r.LoadPort)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].port != keys[j].port {
			return keys[i].port < keys[j].port
		}
		return keys[i].week.Before(keys[j].week)
	})
	out := make([]PortWeek, len(keys))
	for i, k := range keys {
		out[i] = *by[k]
	}
	return out
}

// Monday is the start of the ISO week holding t (UTC).
func Monday(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}
