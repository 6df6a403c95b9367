package jobs

import (
	"context"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/vessel"
)

// Store is what the derivations need of the analytics store: the position
// history to read, the current port calls, and the derived tables to write
// (each write puts a whole window under a new generation, see
// clickhouse/migrations/004_derived.sql).
type Store interface {
	ChangeLog
	// DataSpan is the time of the oldest and the newest stored position
	// (zero times when there are none).
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	// Tracks calls fn with each vessel's positions in [from, to], one
	// position per report time, in time order, vessel after vessel; only
	// the vessels of f.Only when it is not nil, never those of f.Except.
	Tracks(ctx context.Context, from, to time.Time, f TrackFilter, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	// VesselProfiles is the registry's view of every vessel.
	VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error)
	// CallsAcross returns, per vessel, the arrival of its current call
	// that arrived before t and departed at or after it (or goes on).
	CallsAcross(ctx context.Context, t time.Time) (map[overwatch.IMO]time.Time, error)
	// Calls returns the current calls that overlap [from, to).
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)

	WritePortCalls(ctx context.Context, gen uint64, days []time.Time, calls []portcall.Call, dataEnd time.Time) error
	WriteCongestion(ctx context.Context, gen uint64, days []time.Time, rows []portstats.CongestionDay) error
	WriteBerthWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.BerthWeek) error
	WriteFleetAgeWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.FleetAgeWeek) error
	WriteEstimateWeeks(ctx context.Context, gen uint64, weeks []time.Time, rows []portstats.EstimateWeek) error
	WriteReliability(ctx context.Context, gen uint64, rows []portstats.Reliability) error
	// CleanDerived deletes the superseded generations of every derived
	// table and returns how many (table, day, generation) sets went.
	CleanDerived(ctx context.Context) (int, error)
}

// TrackFilter selects the vessels whose tracks are read.
type TrackFilter struct {
	Only   []overwatch.IMO // when not nil, only these
	Except []overwatch.IMO
}
