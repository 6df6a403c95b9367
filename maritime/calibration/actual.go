package calibration

import "time"

// Actual is one official export figure (imported from USDA or an
// operator's file, what the calibration compares the estimates with): the tonnes of a commodity
// shipped from a port in an ISO week (Week is its Monday, UTC).
type Actual struct {
	Port      string
	Week      time.Time
	Commodity string
	Tonnes    float64
	Source    string
	// Published is the source's publication date (a WA_GR101 report's
	// issue date); zero when the file does not say.
	Published time.Time
}
