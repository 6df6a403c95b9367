package river

import "fmt"

// Severity is the alert severity of a status out of normal: critical low
// water is critical; low water and flood are warnings (alerts.md).
func Severity(status string) string {
	switch status {
	case StatusCritical:
		return "critical"
	case StatusLow, StatusFlood:
		return "warning"
	}
	return "info"
}

var statusWords = map[string]string{StatusLow: "low water", StatusCritical: "critically low water", StatusFlood: "flood stage"}

// Title is the alert title of an episode, after its worst status.
func Title(e Episode) string {
	return fmt.Sprintf("%s River at %s: %s", e.Gauge.River, e.Gauge.Name, statusWords[e.Worst])
}

// Message is the alert message of an episode: its worst reading against
// the threshold it crossed, and the port it governs.
func Message(e Episode) string {
	mark, what := e.Gauge.LowFt, "low-water mark"
	switch e.Worst {
	case StatusCritical:
		mark, what = e.Gauge.CriticalLowFt, "critical low-water mark"
	case StatusFlood:
		mark, what = e.Gauge.FloodStageFt, "flood stage"
	}
	return fmt.Sprintf("The %s River gauge at %s (USGS %s) has been out of normal since %s: %.2f ft at worst, against its %s of %.2f ft (latest %.2f ft at %s); it governs barge traffic to %s.",
		e.Gauge.River, e.Gauge.Name, e.Gauge.Site, e.Start.UTC().Format("2006-01-02 15:04 UTC"), e.Level, what, mark,
		e.Latest.Value, e.Latest.Time.UTC().Format("2006-01-02 15:04 UTC"), e.Gauge.Port)
}
