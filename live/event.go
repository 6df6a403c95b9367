package live

import (
	"encoding/json"
	"strconv"
	"time"

	"overwatch"
)

// Kind is what an event reports.
type Kind uint8

// The kinds of event, their names the `type` of each message.
const (
	KindPosition Kind = iota + 1
	KindStatic
	KindRiskEvent
)

// String is the kind's name on the wire.
func (k Kind) String() string {
	switch k {
	case KindPosition:
		return "position"
	case KindStatic:
		return "static"
	case KindRiskEvent:
		return "risk_event"
	}
	return "unknown"
}

// Event is one item of the stream: what subscribers filter on, and its
// body. The hub numbers it (ID), stamps it (At) and encodes it once
// (JSON); subscribers share it and must not change it.
type Event struct {
	ID     uint64
	Kind   Kind
	IMO    overwatch.IMO // 0: unknown
	Other  overwatch.IMO // a risk event's other vessel; 0: none
	MMSI   uint32        // 0: none (risk events)
	Source overwatch.Source
	// ShipType is the ITU ship type code the registry knows for the vessel
	// (0: not known).
	ShipType uint8
	HasPos   bool
	Lat, Lon float64
	// At is when the hub took the event (the real clock): the delivery
	// latency is measured from it.
	At time.Time
	// Body is the event's fields besides id and type, encoded by the hub.
	Body any
	// JSON is the message: {"id":..,"type":..,<Body's fields>}.
	JSON []byte
}

// encode sets JSON from ID, Kind and Body.
func (e *Event) encode() error {
	body, err := json.Marshal(e.Body)
	if err != nil {
		return err
	}
	out := make([]byte, 0, len(body)+48)
	out = append(out, `{"id":`...)
	out = strconv.AppendUint(out, e.ID, 10)
	out = append(out, `,"type":"`...)
	out = append(out, e.Kind.String()...)
	out = append(out, '"')
	if len(body) > 2 { // {} has no fields
		out = append(out, ',')
		out = append(out, body[1:]...)
	} else {
		out = append(out, '}')
	}
	e.JSON = out
	return nil
}

// Position is the body of a position event: one position report as
// ingest took it (after deduplication). Optional fields are null when the
// report did not carry them; imo is null while the vessel's IMO is not
// known.
type Position struct {
	IMO        *string  `json:"imo"`
	MMSI       uint32   `json:"mmsi"`
	Source     string   `json:"source"`
	Timestamp  string   `json:"timestamp"`
	ReceivedAt string   `json:"received_at"`
	Latitude   float64  `json:"latitude"`
	Longitude  float64  `json:"longitude"`
	Speed      *float64 `json:"speed"`
	Course     *float64 `json:"course"`
	Heading    *uint16  `json:"heading"`
	NavStatus  *string  `json:"nav_status"`
	Name       *string  `json:"name"`
	VesselType *string  `json:"vessel_type"`
}

// Static is the body of a static event: one static or voyage report.
type Static struct {
	IMO         *string  `json:"imo"`
	MMSI        uint32   `json:"mmsi"`
	Source      string   `json:"source"`
	Timestamp   string   `json:"timestamp"`
	ReceivedAt  string   `json:"received_at"`
	MsgType     uint8    `json:"msg_type"`
	Name        *string  `json:"name"`
	CallSign    *string  `json:"call_sign"`
	ShipType    *uint8   `json:"ship_type"`
	VesselType  *string  `json:"vessel_type"`
	Draft       *float64 `json:"draft"`
	Destination *string  `json:"destination"`
	ETA         *string  `json:"eta"`
}

// RiskEvent is the body of a risk_event event: an event a risk
// derivation wrote that its previous run had not (a new event, or one
// that has ended since).
type RiskEvent struct {
	EventType string          `json:"event_type"`
	Subtype   *string         `json:"subtype"`
	IMO       string          `json:"imo"`
	OtherIMO  *string         `json:"other_imo"`
	StartedAt string          `json:"started_at"`
	EndedAt   *string         `json:"ended_at"`
	Ongoing   bool            `json:"ongoing"`
	Latitude  *float64        `json:"latitude"`
	Longitude *float64        `json:"longitude"`
	Port      *string         `json:"port"`
	Severity  string          `json:"severity"`
	Detail    json.RawMessage `json:"detail"`
}

// Time formats a time as the stream's bodies carry it (RFC 3339, UTC,
// to the millisecond when it has a fraction).
func Time(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.999Z07:00") }
