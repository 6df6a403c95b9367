package jobs

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-co-op/gocron/v2"

	"overwatch/sources"
)

// The job table: unique names, each with a kind, an interval when on, its
// singleton mode, the tables a derivation or a refresh rewrites; every
// derivation the old list ran is in it, chokepoints and calibration too;
// the alerts and delivery jobs are on when their stores are given, and a
// refresh is on when its source is, off (and why) otherwise.
func TestJobTable(t *testing.T) {
	t.Parallel()
	src := sources.Refresh(func(context.Context) (sources.Result, error) { return sources.Result{}, nil })
	all := All(Deps{Alerts: &memSink{}, Deliveries: &memQueue{}, Poster: posterFunc(func(Delivery) (int, error) { return 200, nil }),
		PurgeRateWindows: func(context.Context) (int64, error) { return 0, nil },
		Freight:          publisherFunc(nil),
		Sources:          Sources{News: SourceRefresh{Refresh: src, Every: time.Hour}, RiverLevels: SourceRefresh{Setting: "OVERWATCH_RIVER_URL"}}})
	byName := map[string]Job{}
	for _, j := range all {
		if _, dup := byName[j.Name]; dup {
			t.Errorf("job %s twice", j.Name)
		}
		if j.Kind != Derivation && j.Kind != Refresh && j.Kind != Upkeep || j.Singleton != gocron.LimitModeReschedule {
			t.Errorf("job %s: kind %q, singleton mode %v", j.Name, j.Kind, j.Singleton)
		}
		if on := j.Off == ""; on && (j.Every <= 0 || j.Run == nil) || !on && j.Run != nil {
			t.Errorf("job %s: off %q, every %s, run %v", j.Name, j.Off, j.Every, j.Run != nil)
		}
		if (j.Kind == Derivation || j.Kind == Refresh) && len(j.Writes) == 0 {
			t.Errorf("job %s writes no table", j.Name)
		}
		byName[j.Name] = j
	}
	want := []string{"port_calls", "emissions", "congestion", "berth_utilization", "fleet_age", "export_estimates", "forecasts", "anomalies",
		"destination_reliability", "predictions", "presence", "trade_routes", "earnings", "risk_events", "risk_scores", "risk_baselines", "chokepoints", "calibration"}
	if got := Derivations(all); !slices.Equal(got, want) {
		t.Errorf("derivations %v, want %v", got, want)
	}
	if j := byName["alerts"]; j.Every != 5*time.Minute || j.Off != "" {
		t.Errorf("alerts every %s, off %q", j.Every, j.Off)
	}
	if j := byName["webhook_delivery"]; j.Every != 5*time.Second || j.Off != "" {
		t.Errorf("webhook_delivery every %s, off %q", j.Every, j.Off)
	}
	if j := byName["freight_publication"]; j.Kind != Upkeep || j.Every != 15*time.Minute || j.Off != "" ||
		!slices.Equal(j.Writes, []string{"freight_rate_aggregates"}) {
		t.Errorf("freight_publication %+v", j)
	}
	if j := byName["news_refresh"]; j.Kind != Refresh || j.Off != "" || j.Every != time.Hour {
		t.Errorf("news_refresh %+v", j)
	}
	if j := byName["river_levels"]; j.Off != "its source is not configured (OVERWATCH_RIVER_URL)" {
		t.Errorf("river_levels off %q", j.Off)
	}
	// Without their stores, the alerts and delivery jobs are off.
	for _, j := range All(Deps{}) {
		if (j.Name == "alerts" || j.Name == "webhook_delivery" || j.Name == "freight_publication" || j.Kind == Refresh) && j.Off == "" {
			t.Errorf("%s on without its dependency", j.Name)
		}
	}
}

// The scheduler registers the jobs of the table that are on, and only
// them.
func TestSchedulerRegistersTheTable(t *testing.T) {
	t.Parallel()
	table := All(Deps{Sources: Sources{News: SourceRefresh{Refresh: func(context.Context) (sources.Result, error) { return sources.Result{}, nil }, Every: time.Hour}}})
	sc, err := NewScheduler(table, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var on []string
	for _, j := range table {
		if j.Off == "" {
			on = append(on, j.Name)
		}
	}
	got := sc.Registered()
	slices.Sort(got)
	slices.Sort(on)
	if !slices.Equal(got, on) || !slices.Contains(got, "news_refresh") || slices.Contains(got, "alerts") {
		t.Errorf("registered %v, want %v", got, on)
	}
	if len(sc.Table()) != len(table) {
		t.Errorf("table of %d, want %d", len(sc.Table()), len(table))
	}
}

// publisherFunc is a function as a FreightPublisher (nil: publishes
// nothing); the job against the real store is postgres's
// TestFreightPublication.
type publisherFunc func(now time.Time, minContributors int) (int, int, error)

func (f publisherFunc) PublishFreightWeeks(_ context.Context, now time.Time, minContributors int) (int, int, error) {
	if f == nil {
		return 0, 0, nil
	}
	return f(now, minContributors)
}
