package sar

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Product is one catalogue product of a Sentinel-1 acquisition.
type Product struct {
	Name          string    // the ESA product (granule) name
	Platform      string    // S1A, S1B, S1C, S1D
	Mode          string    // IW, EW, WV, S1..S6
	Type          string    // the catalogue's product type (SLC, GRD_HD, IW_GRDH_1S, ...)
	Start, Stop   time.Time // UTC
	AbsoluteOrbit int
	RelativeOrbit int     // 1..175; 0 unknown
	Direction     string  // ASCENDING, DESCENDING or ""
	SizeMB        float64 // 0 unknown
	Footprint     Polygon
	Source        string // asf, cdse, stac
}

// CycleDays is the Sentinel-1 repeat cycle: 175 orbits in 12 days.
const (
	CycleDays      = 12
	OrbitsPerCycle = 175
	Cycle          = CycleDays * 24 * time.Hour
)

// mission is one satellite's relative-orbit offset and operating window.
type mission struct {
	offset   int       // relative = ((abs - offset) mod 175) + 1
	from, to time.Time // to zero: still operating
}

// missions are the Sentinel-1 satellites: the offsets checked against
// ESA manifests and ASF records (docs/sar-coverage.md); S1B failed on
// 2021-12-23 and is never predicted after it. S1C's offset rests on one
// manifest (abs 638 -> rel 15).
var missions = map[string]mission{
	"S1A": {offset: 73, from: day(2014, 4, 3)},
	"S1B": {offset: 27, from: day(2016, 4, 25), to: day(2021, 12, 23)},
	"S1C": {offset: 99, from: day(2024, 12, 5)},
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// RelativeOrbit is the relative orbit (1..175) of a satellite's absolute
// orbit, 0 when the platform or the orbit is unknown.
func RelativeOrbit(platform string, absolute int) int {
	m, ok := missions[platform]
	if !ok || absolute <= 0 {
		return 0
	}
	r := (absolute - m.offset) % OrbitsPerCycle
	if r < 0 {
		r += OrbitsPerCycle
	}
	return r + 1
}

// Operating reports whether the platform was operating at t.
func Operating(platform string, t time.Time) bool {
	m, ok := missions[platform]
	return ok && !t.Before(m.from) && (m.to.IsZero() || t.Before(m.to))
}

// Platform is the short platform name (S1A) of a catalogue's spelling:
// Sentinel-1A, sentinel-1a, S1A, A (CDSE's platformSerialIdentifier);
// "" when it is not Sentinel-1.
func Platform(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "SENTINEL-1")
	s = strings.TrimPrefix(s, "S1")
	if len(s) == 1 && s[0] >= 'A' && s[0] <= 'D' {
		return "S1" + s
	}
	return ""
}

// nameRE matches an ESA Sentinel-1 product name: mission, mode, type,
// class, start, stop, absolute orbit, datatake, unique id.
var nameRE = regexp.MustCompile(`^(S1[A-D])_([A-Z0-9]{2})_([A-Z_]{4})_?([0-9A-Z]{4})_(\d{8}T\d{6})_(\d{8}T\d{6})_(\d{6})_([0-9A-F]{6})`)

// FromName fills what an ESA product name says of a product (platform,
// mode, start, stop, absolute and relative orbit) where it is not set;
// ok is false when the name is not a Sentinel-1 product name.
func FromName(p *Product) bool {
	m := nameRE.FindStringSubmatch(p.Name)
	if m == nil {
		return false
	}
	if p.Platform == "" {
		p.Platform = m[1]
	}
	if p.Mode == "" {
		p.Mode = m[2]
	}
	if p.Start.IsZero() {
		p.Start, _ = time.Parse("20060102T150405", m[5])
	}
	if p.Stop.IsZero() {
		p.Stop, _ = time.Parse("20060102T150405", m[6])
	}
	if p.AbsoluteOrbit == 0 {
		p.AbsoluteOrbit, _ = strconv.Atoi(m[7])
	}
	if p.RelativeOrbit == 0 {
		p.RelativeOrbit = RelativeOrbit(p.Platform, p.AbsoluteOrbit)
	}
	return true
}
