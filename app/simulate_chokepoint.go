package app

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"overwatch/maritime/chokepoint"
	"overwatch/write/sim"
)

// chokepointFlag is the simulator's --chokepoint-disruption option:
// SLUG[@YYYY-MM-DD], a chokepoint closed from the date (default: 14 days
// before the end of the run), its traffic diverted round it, with a
// chokepoint_disruption truth line (off by default).
func chokepointFlag(fs *flag.FlagSet, c *sim.Config) {
	var slugs []string
	for _, cp := range chokepoint.All() {
		slugs = append(slugs, cp.Slug)
	}
	fs.Func("chokepoint-disruption", "inject a chokepoint disruption: SLUG[@YYYY-MM-DD] ("+strings.Join(slugs, ", ")+
		"); from the date (default: 14 days before the end of the run) the voyages that would pass it go round it; written to --truth",
		func(v string) error {
			slug, date, _ := strings.Cut(strings.TrimSpace(v), "@")
			if _, ok := chokepoint.Named(slug); !ok {
				return fmt.Errorf("unknown chokepoint %q; one of %s", slug, strings.Join(slugs, ", "))
			}
			c.Disruption = sim.Disruption{Chokepoint: slug}
			if date != "" {
				t, err := time.Parse(time.DateOnly, date)
				if err != nil {
					return fmt.Errorf("the date must be YYYY-MM-DD")
				}
				c.Disruption.Start = t
			}
			return nil
		})
}
