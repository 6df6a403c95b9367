package jobs

import (
	"context"
	"slices"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/risk"
	"overwatch/maritime/sanctions"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"
)

// RiskStore is what the risk jobs need of the analytics store: the
// position history, the registry, the port calls, the identity history,
// the sanctions lists and the destination reliabilities to read; the risk
// tables (clickhouse/migrations/006_risk.sql) to read and write.
type RiskStore interface {
	ChangeLog
	DataSpan(ctx context.Context) (first, last time.Time, err error)
	Tracks(ctx context.Context, from, to time.Time, f TrackFilter, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	// HourlyTracks is Tracks of every vessel with only the first position
	// of each hour (TS, Lat and Lon).
	HourlyTracks(ctx context.Context, from, to time.Time, fn func(imo overwatch.IMO, track []vessel.TrackPoint) error) error
	VesselProfiles(ctx context.Context) (map[overwatch.IMO]vessel.Profile, error)
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	// IdentityHistory is the identity timeline of the vessels (all when
	// none are given), vessel after vessel, oldest row first.
	IdentityHistory(ctx context.Context, imos ...overwatch.IMO) ([]vessel.Identity, error)
	// SanctionsEntries are the vessels of the newest import of every list.
	SanctionsEntries(ctx context.Context) ([]sanctions.Entry, error)
	// Reliabilities are the current destination reliabilities.
	Reliabilities(ctx context.Context) ([]portstats.Reliability, error)
	// StaticIntervals are how often each vessel's static reports came
	// through in [from, to]: the median interval between the times they
	// were received (vessels with fewer than two are left out).
	StaticIntervals(ctx context.Context, from, to time.Time) (map[overwatch.IMO]time.Duration, error)

	// RiskEvents are the current events overlapping [from, to).
	RiskEvents(ctx context.Context, from, to time.Time) ([]risk.Event, error)
	// RiskEventsOfType are the current events of a type.
	RiskEventsOfType(ctx context.Context, typ string) ([]risk.Event, error)
	WriteRiskEvents(ctx context.Context, gen uint64, days []time.Time, events []risk.Event, identity map[overwatch.IMO]vessel.Profile, dataEnd time.Time) error
	WriteVesselRisk(ctx context.Context, gen uint64, rows []risk.VesselScore) error
	WriteHotspots(ctx context.Context, gen uint64, rows []risk.Hotspot) error
	WriteBaselines(ctx context.Context, gen uint64, rows []risk.Baseline) error
}

// RiskLookback is how much of the track before a run's first day the
// risk detectors read: the GapDenseWindow a gap's reception is judged
// over, and a day more for the stops and encounters under way at the
// window's start.
const RiskLookback = risk.GapDenseWindow + day

// RiskMaxReread is how far before a run's first day the vessels of calls
// under way at that day are read from at most (those of stored events
// under way are read from the event's start, however long ago).
// RiskCallsBack is how far before the tracks the calls are read (the
// mismatch detector compares a call with the one before it).
const (
	RiskMaxReread = 30 * day
	RiskCallsBack = 30 * day
)

// RiskCadenceWindow is the time to the end of the data over which each
// vessel's static-report interval is measured (StaticIntervals): the same
// for a full run and an incremental one of the same data.
const RiskCadenceWindow = 30 * day

// RiskEventsJob derives the risk_events table: AIS gaps, loitering and
// spoofing per track, ship-to-ship transfers across tracks, draught
// mismatches against the port calls, identity changes from the identity
// history, and the sanctions matches. Each event is stored under its
// EventDay. A run recomputes whole days, from TrailingDays before the
// watermark to the end of the data: the events that ended in them or go
// on. The first run covers the whole history. It runs after port_calls,
// whose calls the mismatch detector compares draughts with.
func RiskEvents(store RiskStore, ports *seaport.Index) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.DataSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		start := first.UTC().Truncate(day)
		if !prev.Watermark.IsZero() {
			start = maxTime(start, prev.Watermark.UTC().Truncate(day).Add(-TrailingDays*day))
		}
		if start, err = lateStart(ctx, positionsChanged(store), prev, start); err != nil {
			return Result{}, err
		}
		res, err := DeriveRiskEvents(ctx, store, ports, start, last)
		res.Watermark = last
		return res, err
	}
}

// DeriveRiskEvents runs every detector over the days from start (a day
// boundary) to the end of the data at last and writes the events that
// ended in them or go on, with the sanctions matches, as a new
// generation. The tracks are read from RiskLookback before start; those
// of the vessels of events under way at start (riskRereads), and of calls
// under way at start, from the event's start or the call's arrival (at most
// RiskMaxReread before start), so that those are detected whole.
func DeriveRiskEvents(ctx context.Context, store RiskStore, ports *seaport.Index, start, last time.Time) (Result, error) {
	profiles, err := store.VesselProfiles(ctx)
	if err != nil {
		return Result{}, err
	}
	reread, err := riskRereads(ctx, store, start)
	if err != nil {
		return Result{}, err
	}
	from := start.Add(-RiskLookback)
	imos := make([]overwatch.IMO, 0, len(reread))
	byDay := map[time.Time][]overwatch.IMO{} // the re-read vessels by the day they are read from
	for imo, t := range reread {
		imos = append(imos, imo)
		d := minTime(start, t).Add(-RiskLookback).UTC().Truncate(day)
		byDay[d] = append(byDay[d], imo)
		from = minTime(from, d)
	}
	calls, err := store.Calls(ctx, from.Add(-RiskCallsBack), last.Add(day))
	if err != nil {
		return Result{}, err
	}
	callsOf := map[overwatch.IMO][]portcall.Call{}
	for _, c := range calls {
		callsOf[c.IMO] = append(callsOf[c.IMO], c)
	}
	// How often each vessel's draught comes through.
	every, err := store.StaticIntervals(ctx, last.Add(-RiskCadenceWindow), last)
	if err != nil {
		return Result{}, err
	}
	// Identity changes from the whole identity history, placed at the
	// vessel's position nearest each as its track is read.
	identities, err := store.IdentityHistory(ctx)
	if err != nil {
		return Result{}, err
	}
	var changedIMOs []overwatch.IMO
	changes := map[overwatch.IMO][]risk.Event{}
	for i := 0; i < len(identities); {
		j := i
		for j < len(identities) && identities[j].IMO == identities[i].IMO {
			j++
		}
		if c := risk.IdentityChanges(identities[i:j]); len(c) > 0 {
			imo := identities[i].IMO
			if _, seen := changes[imo]; !seen {
				changedIMOs = append(changedIMOs, imo)
			}
			changes[imo] = append(changes[imo], c...)
		}
		i = j
	}
	var (
		events   []risk.Event
		cands    []risk.SlowPoint
		draughts = risk.NewDraughtLog()
	)
	detect := func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		risk.PlaceIdentityChanges(changes[imo], imo, track)
		events = append(events, risk.DetectGaps(imo, track, last, every[imo])...)
		events = append(events, risk.DetectLoitering(imo, track, ports, last)...)
		events = append(events, risk.DetectSpoofing(imo, track)...)
		events = append(events, risk.DetectMismatches(imo, track, callsOf[imo], every[imo])...)
		cands = append(cands, risk.STSCandidates(imo, track, ports)...)
		draughts.Add(imo, track)
		return ctx.Err()
	}
	// The re-read vessels together by the day they are read from, so that
	// one vessel dark for months does not make the others be read from
	// then.
	days0 := make([]time.Time, 0, len(byDay))
	for d := range byDay {
		days0 = append(days0, d)
	}
	slices.SortFunc(days0, func(a, b time.Time) int { return a.Compare(b) })
	for _, d := range days0 {
		if err := store.Tracks(ctx, d, last, TrackFilter{Only: byDay[d]}, detect); err != nil {
			return Result{}, err
		}
	}
	if err := store.Tracks(ctx, start.Add(-RiskLookback), last, TrackFilter{Except: imos}, detect); err != nil {
		return Result{}, err
	}
	events = append(events, risk.DetectSTS(cands, last, draughts.Draughts, profiles)...)
	events = risk.DropTransferred(events)
	// Intentional gaps only where the sea is heard: reception over the
	// ReceptionWindow to the end of the data (the same for a full run and
	// an incremental one of the same data).
	reception := risk.NewReception()
	if err := store.HourlyTracks(ctx, last.Add(-risk.ReceptionWindow), last, func(imo overwatch.IMO, track []vessel.TrackPoint) error {
		reception.Add(imo, track)
		return ctx.Err()
	}); err != nil {
		return Result{}, err
	}
	risk.JudgeReception(events, reception)
	events = slices.DeleteFunc(events, func(e risk.Event) bool { return unseenBefore(&e, start, reread) })
	for _, imo := range changedIMOs {
		events = append(events, changes[imo]...)
	}
	matches, err := sanctionsEvents(ctx, store, profiles, identities, last)
	if err != nil {
		return Result{}, err
	}
	events = append(events, matches...)
	days := append([]time.Time{risk.SanctionsDay}, portstats.Days(start, last)...)
	if err := store.WriteRiskEvents(ctx, Generation(), days, events, profiles, last); err != nil {
		return Result{}, err
	}
	n := 0
	for i := range events {
		if d := risk.EventDay(&events[i], last); d == risk.SanctionsDay || !d.Before(start) {
			n++
		}
	}
	return Result{From: start, To: days[len(days)-1].Add(day), Rows: n,
		Detail: map[string]any{"transfer_candidates": len(cands), "reread_vessels": len(imos)}}, nil
}

// unseenBefore reports whether an event found in the tracks started before
// the run's first day without being one an earlier run stored: the
// earlier run saw that time with more of the track before it (the
// context a detector judges by, such as a vessel's sustained draughts),
// and an event it stored that reaches into the window has its vessels
// re-read (riskRereads), so an event of other vessels that started before
// start is an artefact of the shorter track, and is dropped.
func unseenBefore(e *risk.Event, start time.Time, reread map[overwatch.IMO]time.Time) bool {
	if !e.Start.Before(start) || e.Type == risk.EventSanctions || e.Type == risk.EventIdentity {
		return false
	}
	_, a := reread[e.IMO]
	_, b := reread[e.Other]
	return !a || e.Other != 0 && !b
}

// riskRereads are the vessels to read apart, with the time to read each
// from (less RiskLookback): those of stored events under way at start
// (both vessels of a transfer) from the event's start, those in a call
// under way at start from its arrival (at most RiskMaxReread before start).
func riskRereads(ctx context.Context, store RiskStore, start time.Time) (map[overwatch.IMO]time.Time, error) {
	out := map[overwatch.IMO]time.Time{}
	add := func(imo overwatch.IMO, t time.Time) {
		if imo == 0 {
			return
		}
		if prev, ok := out[imo]; !ok || t.Before(prev) {
			out[imo] = t
		}
	}
	// The events stored under the run's days (they ended at or after
	// start, or go on) that started before it: RiskEvents(start, start)
	// selects exactly those.
	open, err := store.RiskEvents(ctx, start, start)
	if err != nil {
		return nil, err
	}
	for _, e := range open {
		if e.Type != risk.EventSanctions {
			add(e.IMO, e.Start)
			add(e.Other, e.Start)
		}
	}
	across, err := store.Calls(ctx, start, start.Add(time.Second))
	if err != nil {
		return nil, err
	}
	// Calls from their arrival, at most RiskMaxReread back (a vessel laid
	// up in port for months has no mismatch to find). Events from their
	// start however long ago: a vessel dark for months has few positions
	// to read, and its gap must be found again to stay stored.
	floor := start.Add(-RiskMaxReread)
	for _, c := range across {
		add(c.IMO, maxTime(c.Arrival, floor))
	}
	return out, nil
}

// sanctionsEvents are the sanctions_match events of the vessels matched to
// the lists now. A match already stored (the same vessel, list, entry and
// match type) keeps its date; a new one is dated at the end of the data,
// when it was first found.
func sanctionsEvents(ctx context.Context, store RiskStore, profiles map[overwatch.IMO]vessel.Profile, identities []vessel.Identity, last time.Time) ([]risk.Event, error) {
	matches, err := currentMatches(ctx, store, profiles, identities)
	if err != nil || len(matches) == 0 {
		return nil, err
	}
	stored, err := store.RiskEventsOfType(ctx, risk.EventSanctions)
	if err != nil {
		return nil, err
	}
	type key struct {
		imo                       overwatch.IMO
		list, entry, typ, matched string
	}
	since := map[key]time.Time{}
	for _, e := range stored {
		k := key{e.IMO, detailString(e.Detail, "list_source"), detailString(e.Detail, "entry_id"), e.Subtype, detailString(e.Detail, "matched_on")}
		since[k] = e.Start
	}
	out := make([]risk.Event, 0, len(matches))
	for _, m := range matches {
		at, ok := since[key{m.IMO, m.Entry.ListSource, m.Entry.EntryID, m.MatchType, m.MatchedOn}]
		if !ok {
			at = last.UTC().Truncate(time.Second)
		}
		out = append(out, risk.SanctionsEvent(m, at))
	}
	return out, nil
}

// currentMatches matches every vessel of the registry to the sanctions
// lists as they are now (none when no list is imported).
func currentMatches(ctx context.Context, store RiskStore, profiles map[overwatch.IMO]vessel.Profile, identities []vessel.Identity) ([]sanctions.Match, error) {
	entries, err := store.SanctionsEntries(ctx)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	return sanctions.MatchVessels(entries, profileList(profiles), identities), nil
}

// profileList is the registry as a list in IMO order.
func profileList(profiles map[overwatch.IMO]vessel.Profile) []vessel.Profile {
	out := make([]vessel.Profile, 0, len(profiles))
	for _, p := range profiles {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b vessel.Profile) int { return int(int64(a.IMO) - int64(b.IMO)) })
	return out
}

func detailString(d map[string]any, k string) string {
	s, _ := d[k].(string)
	return s
}
