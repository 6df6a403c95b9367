package sim

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"overwatch"
)

// Position is a point of the ground truth.
type Position struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// Truth is one line of the ground-truth file: a vessel, a port call or an
// event. Every line has a type, the vessels (IMOs) concerned, a start and,
// except for vessels, an end and a position.
type Truth struct {
	Type     string          `json:"type"`
	Subtype  string          `json:"subtype,omitempty"`
	Vessels  []overwatch.IMO `json:"vessels"`
	Start    *time.Time      `json:"start,omitempty"`
	End      *time.Time      `json:"end,omitempty"`
	Position *Position       `json:"position,omitempty"`

	Vessel *Vessel   `json:"vessel,omitempty"` // type vessel
	Call   *PortCall `json:"call,omitempty"`   // type port_call
	Detail any       `json:"detail,omitempty"` // events
}

// PortCall is a port call of the ground truth. Arrival and Departure are
// the entry into and the exit from the port area; the anchorage period may
// be empty when a berth was free.
type PortCall struct {
	Port         string     `json:"port"`
	Arrival      time.Time  `json:"arrival"`
	AnchorStart  *time.Time `json:"anchor_start,omitempty"`
	AnchorEnd    *time.Time `json:"anchor_end,omitempty"`
	Anchorage    string     `json:"anchorage,omitempty"`
	BerthZone    string     `json:"berth_zone"`
	BerthStart   time.Time  `json:"berth_start"`
	BerthEnd     time.Time  `json:"berth_end"`
	Departure    time.Time  `json:"departure"`
	Operation    string     `json:"operation"` // load, discharge, or both (liner calls)
	Commodity    string     `json:"commodity"`
	CargoTonnes  float64    `json:"cargo_tonnes"`  // loaded or discharged
	DraftBefore  float64    `json:"draft_before"`  // actual, metres
	DraftAfter   float64    `json:"draft_after"`   // actual, metres
	ReportedFrom float64    `json:"reported_from"` // the draught reported before the call
	ReportedTo   float64    `json:"reported_to"`   // and after it
	Dark         bool       `json:"dark,omitempty"`
	Declared     string     `json:"declared_destination,omitempty"`
}

// truthWriter writes truth lines; safe for concurrent use.
type truthWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
	n   int
}

func newTruthWriter(w io.Writer) *truthWriter {
	if w == nil {
		return nil
	}
	return &truthWriter{enc: json.NewEncoder(w)}
}

func (w *truthWriter) write(t Truth) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.enc.Encode(t) //nolint:errcheck // a truth file that cannot be written shows up as short; the simulation goes on
	w.n++
}

func tp(t time.Time) *time.Time { return &t }

// pending is a truth line written once what it records is first received:
// a spoofed position or an implausible draught lasts minutes or hours,
// which a feed that keeps one report in half an hour (or three hours) may
// never carry, and then there is nothing in the data to detect.
type pending struct {
	tr      Truth
	written bool
}

// writeOnce writes the pending truth the first time; nil is nothing.
func (w *truthWriter) writeOnce(p *pending) {
	if p == nil || p.written {
		return
	}
	p.written = true
	w.write(p.tr)
}
