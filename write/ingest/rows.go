package ingest

import (
	"time"

	"overwatch"
	"overwatch/maritime/vessel"
)

// PositionRow is one stored position report. Has says which of SpeedKt
// (HasSOG), CourseDeg (HasCOG), HeadingDeg (HasHeading) and DraftM
// (HasDraught) are set; the others are stored as null.
type PositionRow struct {
	IMO         overwatch.IMO
	MMSI        uint32
	Source      overwatch.Source
	TS          time.Time
	Lat, Lon    float64
	Has         Has
	SpeedKt     float32
	CourseDeg   float32
	HeadingDeg  uint16
	NavStatus   uint8
	DraftM      float32
	Destination string
	MsgType     uint8
	ReceivedAt  time.Time
	Station     string // the receiving station; "" when the feed names none
	DedupKey    uint64
}

// StaticRow is one stored static or voyage report.
type StaticRow struct {
	MMSI        uint32
	IMO         overwatch.IMO
	Source      overwatch.Source
	TS          time.Time
	MsgType     uint8
	Part        uint8
	Name        string
	CallSign    string
	ShipType    uint8
	ToBow       uint16
	ToStern     uint16
	ToPort      uint16
	ToStarboard uint16
	DraftM      *float32
	Destination string
	ETA         *time.Time
	ReceivedAt  time.Time
	DedupKey    uint64
}

// VesselRow is the registry's state of one vessel (by IMO) after a change.
type VesselRow struct {
	IMO          overwatch.IMO
	MMSI         uint32
	Name         string
	CallSign     string
	ShipType     uint8
	ShipTypeText string
	Flag         string
	LengthM      uint16
	BeamM        uint16
	DraftM       *float32 // latest reported draught
	MaxDraftM    *float32 // greatest draught ever reported: the design draught's best estimate
	Destination  string
	ETA          *time.Time
	FirstSeen    time.Time
	LastSeen     time.Time
	StaticAt     time.Time // report time of the static report the row's data is from
	UpdatedAt    time.Time
}

// IdentityRow records that a vessel's identity (MMSI, name, call sign, flag
// or ship type) took new values at a time, as the source reported it: one
// row of the identity history that identity-change detection reads
// (vessel.Identity).
type IdentityRow struct {
	vessel.Identity
	Source overwatch.Source
}

// Reattribution says that the class A positions of an MMSI stored without
// an IMO between From and To (report times) belong to IMO: a static report
// named the vessel after its attribution window had passed. The store
// copies them under the IMO (the copies under IMO 0 stay, as every table
// deduplicates by IMO and report); the derivations read the copies.
type Reattribution struct {
	MMSI     uint32
	IMO      overwatch.IMO
	From, To time.Time
}

// PortPositionRow is a position inside the area of a reference port.
type PortPositionRow struct {
	Port     string
	Position int // index into Batch.Positions
}

// Batch is everything one flush writes. Writing the same batch twice stores
// nothing twice: every table deduplicates on its sorting key.
type Batch struct {
	Seq        uint64
	Positions  []PositionRow
	InPort     []PortPositionRow
	Statics    []StaticRow
	Latest     []overwatch.LatestRow
	Vessels    []VesselRow
	Identities []IdentityRow
	// Reattributions are written after the batch's positions, whose
	// orphans they may name too.
	Reattributions []Reattribution
}

// Len is the number of rows the batch writes, in all tables (a
// reattribution counts as one).
func (b *Batch) Len() int {
	return len(b.Positions) + len(b.InPort) + len(b.Statics) + len(b.Latest) + len(b.Vessels) + len(b.Identities) + len(b.Reattributions)
}

// Reports is the number of reports the batch stores: positions and static
// reports.
func (b *Batch) Reports() int { return len(b.Positions) + len(b.Statics) }
