package overwatch

import "time"

// LatestRow is one row of the latest-position store: the newest report of
// one vessel from one source, with the vessel's identity at that time. The
// ingest pipeline writes it and the read side reads it back. Nil pointers
// are values the vessel did not report (or reported as not available).
type LatestRow struct {
	IMO         IMO
	Source      Source
	TS          time.Time
	MMSI        uint32
	VesselName  *string
	VesselType  *string
	Flag        *string
	Lat, Lon    *float64
	SpeedKt     *float64
	CourseDeg   *float64
	DraftM      *float64
	Destination *string
	NavStatus   *string
	// ReceivedAt is when the service received the report, written by
	// ingest; the zero time stores the report time TS.
	ReceivedAt time.Time
	// IngestedAt is when the store received the row: set by the store,
	// filled only on rows read back from it.
	IngestedAt time.Time
}
