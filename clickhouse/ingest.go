package clickhouse

import (
	"context"
	"fmt"
	"sync"
	"time"

	"overwatch"
	"overwatch/write/ingest"
)

var _ ingest.Store = (*DB)(nil)

// sourceName is the Enum8 name of a source; "none" for unattributed rows.
func sourceName(s overwatch.Source) string {
	if s == overwatch.SourceNone {
		return "none"
	}
	return string(s)
}

// sourceCode is the Enum8 value of a source in the tables' source
// columns, sent as a number rather than a name the driver looks up per row.
func sourceCode(s overwatch.Source) (int8, error) {
	switch s {
	case overwatch.SourceNone:
		return 0, nil
	case overwatch.SourceAISHub:
		return 1, nil
	case overwatch.SourceAISStream:
		return 2, nil
	case overwatch.SourceSatellite:
		return 3, nil
	case overwatch.SourceSpire:
		return 4, nil
	}
	return 0, fmt.Errorf("clickhouse: unknown source %q", s)
}

// sourceOf is the source of an Enum8 name: sourceName's inverse.
func sourceOf(name string) overwatch.Source {
	if name == "none" {
		return overwatch.SourceNone
	}
	return overwatch.Source(name)
}

// WriteBatch writes every table of an ingest batch, column by column. A
// batch written twice stores nothing twice: each table's sorting key ends
// in the row's identity (dedup_key, or the whole row), and ReplacingMergeTree
// collapses equal keys at merge; readers that need exact counts before a
// merge use FINAL.
func (db *DB) WriteBatch(ctx context.Context, b *ingest.Batch) error {
	steps := []struct {
		name string
		n    int
		fn   func(context.Context, *ingest.Batch) error
	}{
		{"positions", len(b.Positions), db.writePositions},
		{"port_positions", len(b.InPort), db.writePortPositions},
		{"static_reports", len(b.Statics), db.writeStatics},
		{"vessels", len(b.Vessels), db.writeVessels},
		{"vessel_identity", len(b.Identities), db.writeIdentities},
		{"latest_positions", len(b.Latest), db.writeLatest},
		{"position_days", len(b.Positions), db.writePositionDays},
		{"reattributions", len(b.Reattributions), db.writeReattributions},
	}
	for _, s := range steps {
		if s.n == 0 {
			continue
		}
		if err := s.fn(ctx, b); err != nil {
			return fmt.Errorf("clickhouse: write %s: %w", s.name, err)
		}
	}
	return nil
}

// columns appends each slice to its column of a prepared batch and sends
// it; in cluster mode an identical batch is sent again after a failure
// (sendRetrying), and the rows of a sharded table go straight to their
// shards (shard_writer.go).
func (db *DB) columns(ctx context.Context, insert string, cols ...any) error {
	if db.shards != nil {
		if ok, err := db.shards.columns(ctx, insert, cols); ok {
			return err
		}
	}
	return db.sendRetrying(ctx, insert, func(batch sendBatch) error {
		for i, c := range cols {
			if err := batch.Column(i).Append(c); err != nil {
				return fmt.Errorf("column %d: %w", i, err)
			}
		}
		return nil
	})
}

// positionColumns are the column buffers of one positions insert, pooled:
// a batch of 50,000 rows would otherwise allocate 7 MB per write.
type positionColumns struct {
	imo, mmsi            []uint32
	src                  []int8
	dest, station        []string
	ts, recv             []time.Time
	lat, lon             []float64
	speed, course, draft []*float32
	heading              []*uint16
	status, msgType      []uint8
	key                  []uint64
}

var positionPool = sync.Pool{New: func() any { return &positionColumns{} }}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	clear(s[:n])
	return s[:n]
}

func (db *DB) writePositions(ctx context.Context, b *ingest.Batch) error {
	n := len(b.Positions)
	c := positionPool.Get().(*positionColumns)
	defer positionPool.Put(c)
	c.imo, c.mmsi = resize(c.imo, n), resize(c.mmsi, n)
	c.src, c.dest, c.station = resize(c.src, n), resize(c.dest, n), resize(c.station, n)
	c.ts, c.recv = resize(c.ts, n), resize(c.recv, n)
	c.lat, c.lon = resize(c.lat, n), resize(c.lon, n)
	c.speed, c.course, c.draft = resize(c.speed, n), resize(c.course, n), resize(c.draft, n)
	c.heading = resize(c.heading, n)
	c.status, c.msgType = resize(c.status, n), resize(c.msgType, n)
	c.key = resize(c.key, n)
	for i := range b.Positions {
		p := &b.Positions[i]
		src, err := sourceCode(p.Source)
		if err != nil {
			return err
		}
		c.imo[i], c.mmsi[i], c.src[i], c.ts[i], c.recv[i] = uint32(p.IMO), p.MMSI, src, p.TS, p.ReceivedAt
		c.lat[i], c.lon[i], c.status[i], c.msgType[i], c.dest[i], c.key[i] = p.Lat, p.Lon, p.NavStatus, p.MsgType, p.Destination, p.DedupKey
		c.station[i] = p.Station
		if p.Has&ingest.HasSOG != 0 {
			c.speed[i] = &p.SpeedKt
		}
		if p.Has&ingest.HasCOG != 0 {
			c.course[i] = &p.CourseDeg
		}
		if p.Has&ingest.HasHeading != 0 {
			c.heading[i] = &p.HeadingDeg
		}
		if p.Has&ingest.HasDraught != 0 {
			c.draft[i] = &p.DraftM
		}
	}
	return db.columns(ctx, "INSERT INTO positions (imo, mmsi, source, ts, lat, lon, speed_kt, course_deg, heading_deg, nav_status, draft_m, destination, msg_type, received_at, station, dedup_key)",
		c.imo, c.mmsi, c.src, c.ts, c.lat, c.lon, c.speed, c.course, c.heading, c.status, c.draft, c.dest, c.msgType, c.recv, c.station, c.key)
}

// portColumns are the column buffers of one port_positions insert,
// pooled like positionColumns.
type portColumns struct {
	port         []string
	ts           []time.Time
	imo, mmsi    []uint32
	src          []int8
	lat, lon     []float64
	speed, draft []*float32
	status       []uint8
	key          []uint64
}

var portPool = sync.Pool{New: func() any { return &portColumns{} }}

func (db *DB) writePortPositions(ctx context.Context, b *ingest.Batch) error {
	n := len(b.InPort)
	c := portPool.Get().(*portColumns)
	defer portPool.Put(c)
	c.port, c.ts, c.imo, c.mmsi, c.src = resize(c.port, n), resize(c.ts, n), resize(c.imo, n), resize(c.mmsi, n), resize(c.src, n)
	c.lat, c.lon, c.speed, c.draft = resize(c.lat, n), resize(c.lon, n), resize(c.speed, n), resize(c.draft, n)
	c.status, c.key = resize(c.status, n), resize(c.key, n)
	for i, pp := range b.InPort {
		p := &b.Positions[pp.Position]
		src, err := sourceCode(p.Source)
		if err != nil {
			return err
		}
		c.port[i], c.ts[i], c.imo[i], c.mmsi[i], c.src[i] = pp.Port, p.TS, uint32(p.IMO), p.MMSI, src
		c.lat[i], c.lon[i], c.status[i], c.key[i] = p.Lat, p.Lon, p.NavStatus, p.DedupKey
		if p.Has&ingest.HasSOG != 0 {
			c.speed[i] = &p.SpeedKt
		}
		if p.Has&ingest.HasDraught != 0 {
			c.draft[i] = &p.DraftM
		}
	}
	return db.columns(ctx, "INSERT INTO port_positions (port, ts, imo, mmsi, source, lat, lon, speed_kt, nav_status, draft_m, dedup_key)",
		c.port, c.ts, c.imo, c.mmsi, c.src, c.lat, c.lon, c.speed, c.status, c.draft, c.key)
}

func (db *DB) writeStatics(ctx context.Context, b *ingest.Batch) error {
	n := len(b.Statics)
	mmsi, imo := make([]uint32, n), make([]uint32, n)
	src := make([]string, n)
	ts, recv := make([]time.Time, n), make([]time.Time, n)
	msgType, part, shipType := make([]uint8, n), make([]uint8, n), make([]uint8, n)
	name, call, dest := make([]string, n), make([]string, n), make([]string, n)
	bow, stern, port, star := make([]uint16, n), make([]uint16, n), make([]uint16, n), make([]uint16, n)
	draft := make([]*float32, n)
	eta := make([]*time.Time, n)
	key := make([]uint64, n)
	for i := range b.Statics {
		s := &b.Statics[i]
		mmsi[i], imo[i], src[i], ts[i], recv[i] = s.MMSI, uint32(s.IMO), sourceName(s.Source), s.TS, s.ReceivedAt
		msgType[i], part[i], shipType[i], name[i], call[i], dest[i] = s.MsgType, s.Part, s.ShipType, s.Name, s.CallSign, s.Destination
		bow[i], stern[i], port[i], star[i] = s.ToBow, s.ToStern, s.ToPort, s.ToStarboard
		draft[i], eta[i], key[i] = s.DraftM, s.ETA, s.DedupKey
	}
	return db.columns(ctx, "INSERT INTO static_reports (mmsi, imo, source, ts, msg_type, part, name, call_sign, ship_type, to_bow, to_stern, to_port, to_starboard, draft_m, destination, eta, received_at, dedup_key)",
		mmsi, imo, src, ts, msgType, part, name, call, shipType, bow, stern, port, star, draft, dest, eta, recv, key)
}

func (db *DB) writeVessels(ctx context.Context, b *ingest.Batch) error {
	n := len(b.Vessels)
	imo, mmsi := make([]uint32, n), make([]uint32, n)
	name, call, typeText, flag, dest := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	shipType := make([]uint8, n)
	length, beam := make([]uint16, n), make([]uint16, n)
	draft, maxDraft := make([]*float32, n), make([]*float32, n)
	eta := make([]*time.Time, n)
	first, last, staticAt, updated := make([]time.Time, n), make([]time.Time, n), make([]time.Time, n), make([]time.Time, n)
	for i := range b.Vessels {
		v := &b.Vessels[i]
		imo[i], mmsi[i], name[i], call[i], shipType[i], typeText[i], flag[i] = uint32(v.IMO), v.MMSI, v.Name, v.CallSign, v.ShipType, v.ShipTypeText, v.Flag
		length[i], beam[i], draft[i], maxDraft[i], dest[i], eta[i] = v.LengthM, v.BeamM, v.DraftM, v.MaxDraftM, v.Destination, v.ETA
		first[i], last[i], staticAt[i], updated[i] = v.FirstSeen, v.LastSeen, v.StaticAt, v.UpdatedAt
		if v.StaticAt.IsZero() {
			staticAt[i] = v.LastSeen
		}
	}
	return db.columns(ctx, "INSERT INTO vessels (imo, mmsi, name, call_sign, ship_type, ship_type_text, flag, length_m, beam_m, draft_m, max_draft_m, destination, eta, first_seen, last_seen, static_at, updated_at)",
		imo, mmsi, name, call, shipType, typeText, flag, length, beam, draft, maxDraft, dest, eta, first, last, staticAt, updated)
}

func (db *DB) writeIdentities(ctx context.Context, b *ingest.Batch) error {
	n := len(b.Identities)
	imo, mmsi := make([]uint32, n), make([]uint32, n)
	from := make([]time.Time, n)
	name, call, flag, src := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	shipType := make([]uint8, n)
	for i, id := range b.Identities {
		imo[i], from[i], mmsi[i], name[i], call[i], flag[i], shipType[i], src[i] = uint32(id.IMO), id.ValidFrom, id.MMSI, id.Name, id.CallSign, id.Flag, id.ShipType, sourceName(id.Source)
	}
	return db.columns(ctx, "INSERT INTO vessel_identity (imo, valid_from, mmsi, name, call_sign, flag, ship_type, source)",
		imo, from, mmsi, name, call, flag, shipType, src)
}

func (db *DB) writeLatest(ctx context.Context, b *ingest.Batch) error {
	return db.InsertLatest(ctx, b.Latest)
}

// LoadRegistry streams the current registry (FINAL: one row per IMO).
func (db *DB) LoadRegistry(ctx context.Context, fn func(ingest.VesselRow) error) error {
	rows, err := db.conn.Query(ctx, `SELECT imo, mmsi, name, call_sign, ship_type, ship_type_text, flag, length_m, beam_m,
		draft_m, max_draft_m, destination, eta, first_seen, last_seen, static_at, updated_at FROM vessels FINAL`)
	if err != nil {
		return fmt.Errorf("clickhouse: load registry: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v ingest.VesselRow
		if err := rows.Scan(&v.IMO, &v.MMSI, &v.Name, &v.CallSign, &v.ShipType, &v.ShipTypeText, &v.Flag, &v.LengthM, &v.BeamM,
			&v.DraftM, &v.MaxDraftM, &v.Destination, &v.ETA, &v.FirstSeen, &v.LastSeen, &v.StaticAt, &v.UpdatedAt); err != nil {
			return fmt.Errorf("clickhouse: load registry: %w", err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}
