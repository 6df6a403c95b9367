package portstats

import "time"

// day is the grain of the daily tables.
const day = 24 * time.Hour

// Days lists the UTC days from the one holding from to the one holding to.
func Days(from, to time.Time) []time.Time {
	var out []time.Time
	for d := from.UTC().Truncate(day); !d.After(to); d = d.Add(day) {
		out = append(out, d)
	}
	return out
}

// Weeks lists the ISO weeks (their Mondays, UTC) from the one holding from
// to the one holding to.
func Weeks(from, to time.Time) []time.Time {
	var out []time.Time
	for w := Monday(from); !w.After(to); w = w.Add(7 * day) {
		out = append(out, w)
	}
	return out
}

// Monday is the start of t's ISO week (UTC).
func Monday(t time.Time) time.Time {
	d := t.UTC().Truncate(day)
	return d.Add(-time.Duration((int(d.Weekday())+6)%7) * day)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
