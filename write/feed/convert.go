package feed

import (
	"strings"
	"time"

	"overwatch"
	"overwatch/write/ais"
	"overwatch/write/ingest"
)

// FromAIS turns a decoded AIS message into a report of the source. Messages
// that describe no vessel (base stations, aids to navigation, binary and
// safety messages, ...) give false. Messages without a feed time are
// stamped with received.
func FromAIS(m *ais.Message, src overwatch.Source, received time.Time) (ingest.Report, bool) {
	r := ingest.Report{Source: src, MMSI: m.MMSI, Type: m.Type, TS: received, ReceivedAt: received, Station: m.Station}
	if m.TimeFromFeed && !m.Time.IsZero() {
		r.TS = m.Time.UTC()
	}
	r.TS = r.TS.Truncate(time.Second)
	if m.MMSI == 0 {
		return r, false
	}
	switch m.Type {
	case 1, 2, 3, 18, 19, 27:
		position(&r, m)
		if m.Type == 19 {
			static(&r, m)
		}
	case 5:
		static(&r, m)
	case 24:
		r.Part = m.PartNumber
		static(&r, m)
	default:
		return r, false
	}
	return r, r.Has != 0
}

func position(r *ingest.Report, m *ais.Message) {
	if m.Fields&ais.HasPosition != 0 {
		r.Has |= ingest.HasPosition
		r.Lat, r.Lon = m.Lat, m.Lon
	}
	if m.Fields&ais.HasSOG != 0 {
		r.Has |= ingest.HasSOG
		r.SOG = m.SOG
	}
	if m.Fields&ais.HasCOG != 0 {
		r.Has |= ingest.HasCOG
		r.COG = m.COG
	}
	if m.Fields&ais.HasHeading != 0 {
		r.Has |= ingest.HasHeading
		r.Heading = m.Heading
	}
	if m.Fields&ais.HasNavStatus != 0 && m.NavStatus != 15 {
		r.Has |= ingest.HasNavStatus
		r.NavStatus = m.NavStatus
	}
}

// static copies static and voyage data; text is trimmed at both ends (the
// decoder keeps leading spaces, as gpsd does; they carry nothing).
func static(r *ingest.Report, m *ais.Message) {
	if m.Fields&ais.HasIMO != 0 && m.IMO != 0 {
		r.Has |= ingest.HasIMO
		r.IMO = m.IMO
	}
	if name := strings.TrimSpace(m.Name); m.Fields&ais.HasName != 0 && name != "" {
		r.Has |= ingest.HasName
		r.Name = name
	}
	if call := strings.TrimSpace(m.CallSign); m.Fields&ais.HasCallSign != 0 && call != "" {
		r.Has |= ingest.HasCallSign
		r.CallSign = call
	}
	if m.Fields&ais.HasShipType != 0 && m.ShipType != 0 {
		r.Has |= ingest.HasShipType
		r.ShipType = m.ShipType
	}
	if m.Fields&ais.HasDimensions != 0 {
		r.Has |= ingest.HasDimensions
		r.ToBow, r.ToStern, r.ToPort, r.ToStarboard = m.ToBow, m.ToStern, m.ToPort, m.ToStarboard
	}
	if m.Fields&ais.HasDraught != 0 && m.Draught > 0 {
		r.Has |= ingest.HasDraught
		r.Draught = m.Draught
	}
	if dest := strings.TrimSpace(m.Destination); m.Fields&ais.HasDestination != 0 && dest != "" {
		r.Has |= ingest.HasDestination
		r.Destination = dest
	}
	if m.Fields&ais.HasETA != 0 {
		hour, minute := 0, 0 // a day without a time of day: midnight
		if m.Fields&ais.HasETATime != 0 {
			hour, minute = int(m.ETAHour), int(m.ETAMinute)
		}
		if eta, ok := ingest.ETAFrom(r.TS, int(m.ETAMonth), int(m.ETADay), hour, minute); ok {
			r.Has |= ingest.HasETA
			r.ETA = eta
		}
	}
}
