package risk

import "time"

// DraughtReports is how many of a vessel's static-report intervals its
// new draught may take to come through: the static report that carries it
// comes within one interval, or, one to three missed (a satellite feed at
// sea loses about one in four, and a satellite revisit interval of up to
// eight hours takes two or three more), within the next three.
const DraughtReports = 4

// DraughtSettle is how long after a departure or the end of a silence a
// vessel's new draught may take to be seen: base (the AIS cadence's
// allowance), or DraughtReports intervals of staticEvery, how often the
// vessel's static reports came through, when that is longer (a feed that
// keeps one static report in three hours; staticEvery 0: unknown, base).
func DraughtSettle(base, staticEvery time.Duration) time.Duration {
	return max(base, DraughtReports*staticEvery)
}
