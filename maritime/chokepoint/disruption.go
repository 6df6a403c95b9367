package chokepoint

import (
	"fmt"
	"math"
	"time"
)

// Sources of a disruption signal.
const (
	SourceGDELT = "gdelt"
	SourceAIS   = "ais"
)

// KindNews is a news article's signal (the other kinds are the AIS
// signals, KindTransitDrop and KindDiversion).
const KindNews = "news"

// Disruption is a stored disruption signal: a news article found by a
// GDELT query for a port or chokepoint, or an AIS signal of a chokepoint.
// URL identifies it (a signal is stored once per URL; an AIS signal's URL
// is AISURL). Tone is GDELT's tone of an article (its ToneChart bin),
// NaN where unknown (no ToneChart bin listed it; an AIS signal). Port or
// Chokepoint is the subject matched (a port slug, a
// chokepoint slug).
type Disruption struct {
	Kind        string
	Source      string
	Title       string
	URL         string
	SourceName  string
	PublishedAt time.Time
	Tone        float64
	Port        string
	Chokepoint  string
	Language    string
	Country     string
	// The AIS signals' figures (transits a day), zero for news.
	Recent, Norm       float64
	Alternative        string
	AltRecent, AltNorm float64
}

// AISURL is the identifier of an AIS signal: its chokepoint, kind and day.
func AISURL(s Signal) string {
	return fmt.Sprintf("overwatch:ais/chokepoint/%s/%s/%s", s.Chokepoint, s.Kind, s.Day.UTC().Format(time.DateOnly))
}

// FromSignal is an AIS signal as a disruption, published at the end of
// the day it was judged on.
func FromSignal(s Signal) Disruption {
	return Disruption{Kind: s.Kind, Source: SourceAIS, Title: s.Title(), URL: AISURL(s), SourceName: "Overwatch AIS transits",
		PublishedAt: s.Day.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour), Tone: math.NaN(), Chokepoint: s.Chokepoint,
		Recent: s.Recent, Norm: s.Norm, Alternative: s.Alternative, AltRecent: s.AltRecent, AltNorm: s.AltNorm}
}

// PortWatchDay is IMF PortWatch's count of a watched chokepoint's transits
// on a UTC day, by its vessel types (fetched live where an operator
// configures it).
type PortWatchDay struct {
	Chokepoint   string
	Day          time.Time
	Container    int
	DryBulk      int
	GeneralCargo int
	RoRo         int
	Tanker       int
	Total        int
}
