package ingest

import (
	"encoding/json"
	"math"

	"overwatch"
	"overwatch/live"
	"overwatch/write/ais"
)

// Tap receives what the pipeline takes, for the live stream: each
// position and static report once deduplicated, as it is processed (a
// position waiting for its IMO is published at once, its imo unknown),
// unless its report time is older than TapMaxAge: a backfill through the
// pipeline (the demo's history) is not live.
// Publish takes chunks of events it owns from then on and must never
// block (live.Hub drops rather than wait).
type Tap interface {
	Publish(events []live.Event)
}

// tapChunk is how many events the loop gathers before publishing; it
// publishes fewer whenever its queue is empty, so that an event waits
// for a chunk to fill only while reports keep coming.
const tapChunk = 256

// tapPosition gathers a deduplicated position report of vessel v.
func (p *Pipeline) tapPosition(r *Report, v *mmsiState) {
	if p.opts.Tap == nil || p.opts.Now().Sub(r.TS) > p.opts.TapMaxAge {
		return
	}
	p.tapBuf = append(p.tapBuf, live.Event{
		Kind: live.KindPosition, IMO: v.imo, MMSI: r.MMSI, Source: r.Source, ShipType: v.shipType,
		HasPos: true, Lat: r.Lat, Lon: r.Lon,
		Body: &positionEvent{r: *r, imo: v.imo, name: v.name, shipType: v.shipType},
	})
	if len(p.tapBuf) >= tapChunk {
		p.publishTap()
	}
}

// tapStatic gathers a deduplicated static report of vessel v (its state
// after the report).
func (p *Pipeline) tapStatic(r *Report, v *mmsiState) {
	if p.opts.Tap == nil || p.opts.Now().Sub(r.TS) > p.opts.TapMaxAge {
		return
	}
	p.tapBuf = append(p.tapBuf, live.Event{
		Kind: live.KindStatic, IMO: v.imo, MMSI: r.MMSI, Source: r.Source, ShipType: v.shipType,
		Body: &staticEvent{r: *r, imo: v.imo},
	})
	if len(p.tapBuf) >= tapChunk {
		p.publishTap()
	}
}

// publishTap hands the gathered events to the tap.
func (p *Pipeline) publishTap() {
	if len(p.tapBuf) == 0 {
		return
	}
	p.opts.Tap.Publish(p.tapBuf)
	p.tapBuf = nil // the hub owns the chunk; a small next one grows as needed
}

// positionEvent is a position event's body, encoded by the hub's
// goroutine rather than the pipeline's.
type positionEvent struct {
	r        Report
	imo      overwatch.IMO
	name     string
	shipType uint8
}

func imoText(imo overwatch.IMO) *string {
	if imo == 0 {
		return nil
	}
	s := imo.String()
	return &s
}

func text(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// tenth rounds a value of the wire's resolution of 0.1.
func tenth(set bool, v float64) *float64 {
	if !set {
		return nil
	}
	x := math.Round(v*10) / 10
	return &x
}

// MarshalJSON encodes the body as live.Position.
func (e *positionEvent) MarshalJSON() ([]byte, error) {
	r := &e.r
	out := live.Position{
		IMO: imoText(e.imo), MMSI: r.MMSI, Source: string(r.Source),
		Timestamp: live.Time(r.TS), ReceivedAt: live.Time(r.ReceivedAt),
		Latitude: r.Lat, Longitude: r.Lon,
		Speed: tenth(r.Has&HasSOG != 0, r.SOG), Course: tenth(r.Has&HasCOG != 0, r.COG),
		Name: text(e.name), VesselType: text(shipTypeText(e.shipType)),
	}
	if r.Has&HasHeading != 0 {
		h := r.Heading
		out.Heading = &h
	}
	if r.Has&HasNavStatus != 0 && r.NavStatus != 15 {
		out.NavStatus = text(ais.NavStatusText(r.NavStatus))
	}
	return json.Marshal(out)
}

// staticEvent is a static event's body.
type staticEvent struct {
	r   Report
	imo overwatch.IMO
}

// MarshalJSON encodes the body as live.Static.
func (e *staticEvent) MarshalJSON() ([]byte, error) {
	r := &e.r
	out := live.Static{
		IMO: imoText(e.imo), MMSI: r.MMSI, Source: string(r.Source),
		Timestamp: live.Time(r.TS), ReceivedAt: live.Time(r.ReceivedAt), MsgType: r.Type,
	}
	if r.Has&HasName != 0 {
		out.Name = text(r.Name)
	}
	if r.Has&HasCallSign != 0 {
		out.CallSign = text(r.CallSign)
	}
	if r.Has&HasShipType != 0 && r.ShipType != 0 {
		st := r.ShipType
		out.ShipType, out.VesselType = &st, text(shipTypeText(st))
	}
	if r.Has&HasDraught != 0 && r.Draught > 0 {
		out.Draft = tenth(true, r.Draught)
	}
	if r.Has&HasDestination != 0 {
		out.Destination = text(r.Destination)
	}
	if r.Has&HasETA != 0 {
		eta := live.Time(r.ETA)
		out.ETA = &eta
	}
	return json.Marshal(out)
}
