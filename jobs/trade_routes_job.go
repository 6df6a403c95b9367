package jobs

import (
	"context"
	"time"

	"overwatch"

	"overwatch/maritime/portcall"
	"overwatch/maritime/portstats"
	"overwatch/maritime/trade"
)

// TradeTrailingDays is how far before its watermark each run of the
// trade-routes job recomputes the weeks of departure (flows) and of
// arrival (deceptions): a voyage completes up to trade.MaxTransitDays
// after it departs, so the flows of a departure week keep changing for as
// long, plus the week itself.
const TradeTrailingDays = trade.MaxTransitDays + 7

// DeceptionTrailingDays is how far before its watermark each run
// recomputes the weeks of arrival of the deceptions: a voyage is judged
// once it has arrived, so only the last weeks' arrivals are new (a run
// reads the destinations declared since trade.MaxTransitDays before them).
const DeceptionTrailingDays = 21

// TradeStore is what the trade-routes job needs of the analytics store:
// the span and the rows of the current port calls (its only required
// input), the destinations declared in the position reports (empty when
// the history holds no positions), and the route tables to write.
type TradeStore interface {
	ChangeLog
	// CallSpan is the oldest arrival and the newest arrival or departure
	// of the current port calls (zero times when there are none).
	CallSpan(ctx context.Context) (first, last time.Time, err error)
	Calls(ctx context.Context, from, to time.Time) ([]portcall.Call, error)
	// DestinationHistory is, per vessel, the destinations its position
	// reports declared in [from, to].
	DestinationHistory(ctx context.Context, from, to time.Time) (map[overwatch.IMO][]trade.Declaration, error)
	WriteRouteFlows(ctx context.Context, gen uint64, weeks []time.Time, rows []trade.Flow) error
	WriteRouteShifts(ctx context.Context, gen uint64, rows []trade.Shift) error
	WriteRouteDeceptions(ctx context.Context, gen uint64, weeks []time.Time, rows []trade.Deception) error
}

// TradeRoutes derives route_flows_weekly, route_deceptions and
// route_shifts from the port calls: the weeks of departure (flows) from
// TradeTrailingDays before the watermark and the weeks of arrival
// (deceptions) from DeceptionTrailingDays before it, both to the end of
// the calls; when port calls of earlier days were rewritten since its
// previous run, the flows from trade.MaxTransitDays and the deceptions
// from 7 days before the earliest of them; every week on its first run.
// The shifts are recomputed whole, as of the end of the calls.
func TradeRoutes(store TradeStore) Run {
	return func(ctx context.Context, prev State) (Result, error) {
		first, last, err := store.CallSpan(ctx)
		if err != nil || last.IsZero() {
			return Result{}, err
		}
		from, decFrom := first, first
		if !prev.Watermark.IsZero() {
			from = maxTime(first, prev.Watermark.Add(-TradeTrailingDays*day))
			decFrom = maxTime(first, prev.Watermark.Add(-DeceptionTrailingDays*day))
		}
		changed := derivedChanged(store, "port_calls")
		late, err := lateStart(ctx, changed, prev, from)
		if err != nil {
			return Result{}, err
		}
		if late.Before(from) {
			from = maxTime(first, late.Add(-trade.MaxTransitDays*day))
		}
		if late, err = lateStart(ctx, changed, prev, decFrom); err != nil {
			return Result{}, err
		}
		if late.Before(decFrom) {
			decFrom = maxTime(first, late.Add(-7*day))
		}
		return DeriveTradeRoutes(ctx, store, from, decFrom, last)
	}
}

// DeriveTradeRoutes recomputes the flows of the ISO weeks of departure
// from the one holding from, the deceptions of the weeks of arrival from
// the one holding decFrom (not before from), to the one holding last (the
// end of the calls), and the shifts as of last.
func DeriveTradeRoutes(ctx context.Context, store TradeStore, from, decFrom, last time.Time) (Result, error) {
	weeks := portstats.Weeks(from, last)
	decWeeks := portstats.Weeks(maxTime(from, decFrom), last)
	end := weeks[len(weeks)-1].Add(7 * day)
	_, baseline := trade.Window(last)
	lead := -(trade.MaxTransitDays + 1) * day
	calls, err := store.Calls(ctx, minTime(weeks[0], baseline).Add(lead), end)
	if err != nil {
		return Result{}, err
	}
	history, err := store.DestinationHistory(ctx, decWeeks[0].Add(lead), end)
	if err != nil {
		return Result{}, err
	}
	voyages := trade.BuildVoyages(calls)
	flows := trade.Flows(voyages, weeks)
	var deceptions []trade.Deception
	for _, d := range trade.Deceptions(voyages, history) {
		if !d.Arrival.Before(decWeeks[0]) && d.Arrival.Before(end) {
			deceptions = append(deceptions, d)
		}
	}
	shifts := trade.Shifts(voyages, last)
	gen := Generation()
	if err := store.WriteRouteFlows(ctx, gen, weeks, flows); err != nil {
		return Result{}, err
	}
	if err := store.WriteRouteDeceptions(ctx, gen, decWeeks, deceptions); err != nil {
		return Result{}, err
	}
	if err := store.WriteRouteShifts(ctx, gen, shifts); err != nil {
		return Result{}, err
	}
	return Result{From: weeks[0], To: end, Rows: len(flows) + len(deceptions) + len(shifts), Watermark: last}, nil
}
