package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/read"
	"overwatch/testclock"
	"overwatch/write"
)

func newAccount(t *testing.T, db *postgres.DB) int64 {
	t.Helper()
	_, nk := newKey(t)
	id, _, err := db.CreateAccountKey(context.Background(), uniqueEmail(t), overwatch.PlanPro, nk, write.MaxActiveKeys)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func wantCode(t *testing.T, what string, err error, code overwatch.Code) {
	t.Helper()
	var e *overwatch.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: %v, want code %v", what, err, code)
	}
}

// raise stores one alert per key for the account and returns their ids,
// newest first.
func raise(t *testing.T, db *postgres.DB, account int64, keys ...string) []int64 {
	t.Helper()
	ctx := context.Background()
	var as []jobs.Alert
	for _, k := range keys {
		as = append(as, jobs.Alert{AccountID: account, Type: jobs.AlertDarkFleet, Severity: jobs.SeverityWarning, Title: "t " + k,
			Message: "m", IMO: "9074729", EventKey: k, EventAt: testclock.Now()})
	}
	if n, err := db.RaiseAlerts(ctx, as); err != nil || n != len(keys) {
		t.Fatalf("raise: %d %v", n, err)
	}
	rows, err := db.Alerts(ctx, account, read.AlertFilter{Now: testclock.Now(), Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, r := range rows {
		if slices.Contains(keys, r.Title[2:]) {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

func TestWatchlistAndPortfoliosStore(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	if err := db.ReplaceWatchlist(ctx, a, []string{"9074729"}, []string{"santos"}); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		db.AddWatched(ctx, a, write.WatchVessel, "9321483", 2),
		db.AddWatched(ctx, a, write.WatchVessel, "9321483", 2), // idempotent, even at the cap
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, "past the cap", db.AddWatched(ctx, a, write.WatchVessel, "9176187", 2), overwatch.Conflict)
	wantCode(t, "remove another account's entry", db.RemoveWatched(ctx, b, write.WatchVessel, "9321483"), overwatch.NotFound)
	if err := db.RemoveWatched(ctx, a, write.WatchPort, "santos"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "remove twice", db.RemoveWatched(ctx, a, write.WatchPort, "santos"), overwatch.NotFound)
	w, err := db.Watchlist(ctx, a)
	if err != nil || !slices.Equal(w.Vessels, []string{"9074729", "9321483"}) || len(w.Ports) != 0 {
		t.Errorf("watchlist: %+v %v", w, err)
	}
	if w, err := db.Watchlist(ctx, b); err != nil || len(w.Vessels)+len(w.Ports) != 0 {
		t.Errorf("the other account's watchlist: %+v %v", w, err)
	}

	p := write.WatchedSet{ID: fmt.Sprintf("pf_%016x", time.Now().UnixNano()), Name: "Tankers", Vessels: []string{"9176187"}, Ports: []string{"rotterdam"}}
	if _, err := db.CreatePortfolio(ctx, a, p, 1); err != nil {
		t.Fatal(err)
	}
	_, err = db.CreatePortfolio(ctx, a, write.WatchedSet{ID: p.ID + "x", Name: "more", Vessels: []string{}, Ports: []string{}}, 1)
	wantCode(t, "past the portfolio cap", err, overwatch.Conflict)
	got, err := db.Portfolio(ctx, a, p.ID)
	if err != nil || got.Name != "Tankers" || !slices.Equal(got.Ports, p.Ports) {
		t.Errorf("portfolio: %+v %v", got, err)
	}
	_, err = db.Portfolio(ctx, b, p.ID)
	wantCode(t, "another account's portfolio", err, overwatch.NotFound)
	wantCode(t, "delete another account's portfolio", db.DeletePortfolio(ctx, b, p.ID), overwatch.NotFound)
	if ps, err := db.Portfolios(ctx, b); err != nil || len(ps) != 0 {
		t.Errorf("the other account's portfolios: %+v %v", ps, err)
	}

	watchers, err := db.Watchers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range watchers {
		if w.AccountID == a {
			found = w.Vessels["9074729"] && w.Vessels["9176187"] && w.Ports["rotterdam"] && !w.Ports["santos"]
		}
		if w.AccountID == b {
			t.Errorf("an account watching nothing is a watcher: %+v", w)
		}
	}
	if !found {
		t.Errorf("watchers: %+v", watchers)
	}
	if err := db.DeletePortfolio(ctx, a, p.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "delete twice", db.DeletePortfolio(ctx, a, p.ID), overwatch.NotFound)
}

func TestRaiseAlertsOncePerEventAndFeed(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	at := testclock.Now().Add(-time.Hour)
	alerts := []jobs.Alert{
		{AccountID: a, Type: jobs.AlertSanctions, Severity: jobs.SeverityCritical, Title: "s", Message: "m", IMO: "9074729", EventKey: "k1", EventAt: at},
		{AccountID: a, Type: jobs.AlertDarkFleet, Severity: jobs.SeverityWarning, Title: "d", Message: "m", IMO: "9321483", EventKey: "k2", EventAt: at},
		{AccountID: a, Type: jobs.AlertRiverLevel, Severity: jobs.SeverityInfo, Title: "r", Message: "m", Port: "santos", EventKey: "k3", EventAt: at},
		{AccountID: b, Type: jobs.AlertSanctions, Severity: jobs.SeverityCritical, Title: "s", Message: "m", IMO: "9074729", EventKey: "k1", EventAt: at},
	}
	if n, err := db.RaiseAlerts(ctx, alerts); err != nil || n != 4 {
		t.Fatalf("first raise: %d %v", n, err)
	}
	if n, err := db.RaiseAlerts(ctx, alerts); err != nil || n != 0 {
		t.Fatalf("second raise: %d new %v", n, err)
	}
	now := testclock.Now()
	count := func(f read.AlertFilter) []read.AlertRow {
		t.Helper()
		f.Now, f.Limit = now, 100
		rows, err := db.Alerts(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if n := len(count(read.AlertFilter{})); n != 3 {
		t.Errorf("all: %d", n)
	}
	if rows := count(read.AlertFilter{Severity: "critical"}); len(rows) != 1 || rows[0].Type != jobs.AlertSanctions {
		t.Errorf("critical: %+v", rows)
	}
	if rows := count(read.AlertFilter{Type: jobs.AlertRiverLevel}); len(rows) != 1 || rows[0].Port != "santos" {
		t.Errorf("river: %+v", rows)
	}
	if rows := count(read.AlertFilter{Watch: &read.WatchSet{Vessels: []string{"9321483"}, Ports: []string{"santos"}}}); len(rows) != 2 {
		t.Errorf("watch: %+v", rows)
	}
	// Keyset pages of one: each alert once, newest first.
	var seen []int64
	f := read.AlertFilter{Now: now, Limit: 1}
	for range 5 {
		rows, err := db.Alerts(ctx, a, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			break
		}
		seen = append(seen, rows[0].ID)
		f.BeforeAt, f.BeforeID = rows[0].CreatedAt, rows[0].ID
	}
	if len(seen) != 3 || !slices.IsSortedFunc(seen, func(x, y int64) int { return int(y - x) }) {
		t.Errorf("pages: %v", seen)
	}
	// Acknowledgement and the other account's alert.
	if _, err := db.SetAlertState(ctx, a, seen[0], overwatch.ActionRead, now, now); err != nil {
		t.Fatal(err)
	}
	if n := len(count(read.AlertFilter{Unacknowledged: true})); n != 2 {
		t.Errorf("unacknowledged: %d", n)
	}
	// Counts ignore the limit: all the matching alerts.
	for _, c := range []struct {
		f    read.AlertFilter
		want int
	}{
		{read.AlertFilter{Now: now, Limit: 1}, 3},
		{read.AlertFilter{Now: now, Limit: 1, Unacknowledged: true}, 2},
		{read.AlertFilter{Now: now, Severity: "warning", Unacknowledged: true}, 1},
		{read.AlertFilter{Now: now, Severity: "info", Unacknowledged: true}, 0},
		{read.AlertFilter{Now: now, Type: jobs.AlertSanctions}, 1},
	} {
		if n, err := db.CountAlerts(ctx, a, c.f); err != nil || n != c.want {
			t.Errorf("count %+v: %d %v, want %d", c.f, n, err, c.want)
		}
	}
	rowsB, err := db.Alerts(ctx, b, read.AlertFilter{Now: now, Limit: 10})
	if err != nil || len(rowsB) != 1 {
		t.Fatalf("b: %+v %v", rowsB, err)
	}
	_, err = db.SetAlertState(ctx, a, rowsB[0].ID, overwatch.ActionRead, now, now)
	wantCode(t, "another account's alert", err, overwatch.NotFound)
	if rowsB, _ := db.Alerts(ctx, b, read.AlertFilter{Now: now, Limit: 10}); rowsB[0].Times != (overwatch.AlertTimes{}) {
		t.Errorf("the other account's state changed: %+v", rowsB[0].Times)
	}
}

// Every (state, action) pair through Postgres, including the snoozes that
// have passed (open again, or read again).
func TestAlertStatePairsStore(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	now := testclock.Now().UTC().Truncate(time.Microsecond)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	type step struct {
		action overwatch.AlertAction
		at     time.Time
		until  time.Time
	}
	// How each starting state is reached, and what it counts as now.
	fixtures := []struct {
		name  string
		steps []step
		is    overwatch.AlertState
	}{
		{"open", nil, overwatch.AlertOpen},
		{"read", []step{{overwatch.ActionRead, ago(time.Hour), time.Time{}}}, overwatch.AlertRead},
		{"snoozed", []step{{overwatch.ActionSnooze, ago(time.Hour), now.Add(time.Hour)}}, overwatch.AlertSnoozed},
		{"resolved", []step{{overwatch.ActionResolve, ago(time.Hour), time.Time{}}}, overwatch.AlertResolved},
		{"snooze passed", []step{{overwatch.ActionSnooze, ago(3 * time.Hour), ago(time.Hour)}}, overwatch.AlertOpen},
		{"read, snooze passed", []step{{overwatch.ActionRead, ago(4 * time.Hour), time.Time{}}, {overwatch.ActionSnooze, ago(3 * time.Hour), ago(time.Hour)}}, overwatch.AlertRead},
	}
	// want: the state after the action, "" for a 409.
	want := map[overwatch.AlertState]map[overwatch.AlertAction]overwatch.AlertState{
		overwatch.AlertOpen:     {overwatch.ActionRead: overwatch.AlertRead, overwatch.ActionResolve: overwatch.AlertResolved, overwatch.ActionSnooze: overwatch.AlertSnoozed, overwatch.ActionOpen: ""},
		overwatch.AlertRead:     {overwatch.ActionRead: overwatch.AlertRead, overwatch.ActionResolve: overwatch.AlertResolved, overwatch.ActionSnooze: overwatch.AlertSnoozed, overwatch.ActionOpen: overwatch.AlertOpen},
		overwatch.AlertSnoozed:  {overwatch.ActionRead: overwatch.AlertSnoozed, overwatch.ActionResolve: overwatch.AlertResolved, overwatch.ActionSnooze: overwatch.AlertSnoozed, overwatch.ActionOpen: overwatch.AlertOpen},
		overwatch.AlertResolved: {overwatch.ActionRead: "", overwatch.ActionResolve: "", overwatch.ActionSnooze: "", overwatch.ActionOpen: overwatch.AlertOpen},
	}
	actions := []overwatch.AlertAction{overwatch.ActionRead, overwatch.ActionResolve, overwatch.ActionSnooze, overwatch.ActionOpen}
	var keys []string
	for _, fx := range fixtures {
		for _, a := range actions {
			keys = append(keys, fmt.Sprintf("pair/%s/%s/%d", fx.name, a, now.UnixNano()))
		}
	}
	ids := raise(t, db, account, keys...)
	if len(ids) != len(keys) {
		t.Fatalf("%d alerts for %d pairs", len(ids), len(keys))
	}
	stateOf := func(id int64) overwatch.AlertTimes {
		t.Helper()
		rows, err := db.Alerts(ctx, account, read.AlertFilter{Now: now, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.ID == id {
				return r.Times
			}
		}
		t.Fatalf("alert %d is gone", id)
		return overwatch.AlertTimes{}
	}
	i := 0
	for _, fx := range fixtures {
		for _, action := range actions {
			id := ids[i]
			i++
			for _, s := range fx.steps {
				if _, err := db.SetAlertState(ctx, account, id, s.action, s.at, s.until); err != nil {
					t.Fatalf("%s: fixture step %s: %v", fx.name, s.action, err)
				}
			}
			before := stateOf(id)
			if got := before.StateAt(now); got != fx.is {
				t.Fatalf("fixture %s is %s", fx.name, got)
			}
			until := now.Add(24 * time.Hour)
			ans, err := db.SetAlertState(ctx, account, id, action, now, until)
			after := stateOf(id)
			to := want[fx.is][action]
			if to == "" {
				wantCode(t, fx.name+" + "+string(action), err, overwatch.Conflict)
				if after.StateAt(now) != fx.is {
					t.Errorf("%s + %s: a refused action changed the state to %s", fx.name, action, after.StateAt(now))
				}
				continue
			}
			if err != nil || after.StateAt(now) != to || ans.StateAt(now) != to {
				t.Errorf("%s + %s: stored %s, answered %s (%v), want %s", fx.name, action, after.StateAt(now), ans.StateAt(now), err, to)
			}
			switch action {
			case overwatch.ActionResolve:
				if after.SnoozedUntil != nil || after.ResolvedAt == nil || !after.ResolvedAt.Equal(now) {
					t.Errorf("%s + resolve: %+v", fx.name, after)
				}
			case overwatch.ActionOpen:
				if after != (overwatch.AlertTimes{}) {
					t.Errorf("%s + open: %+v", fx.name, after)
				}
			case overwatch.ActionSnooze:
				if after.SnoozedUntil == nil || !after.SnoozedUntil.Equal(until) {
					t.Errorf("%s + snooze: %+v", fx.name, after)
				}
			case overwatch.ActionRead:
				if after.ReadAt == nil || before.ReadAt != nil && !after.ReadAt.Equal(*before.ReadAt) {
					t.Errorf("%s + read: %+v (was %+v)", fx.name, after, before)
				}
			}
		}
	}
}

// 50 concurrent resolve and open actions on one alert: the row lock makes
// them apply one after another, so the successes alternate (resolve, open,
// resolve, ...) and the final state is the last success's.
func TestAlertStateConcurrentStore(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	id := raise(t, db, account, fmt.Sprintf("concurrent/%d", time.Now().UnixNano()))[0]
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := map[overwatch.AlertAction]int{}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			action := overwatch.ActionResolve
			if i%2 == 1 {
				action = overwatch.ActionOpen
			}
			now := testclock.Now()
			_, err := db.SetAlertState(ctx, account, id, action, now, now.Add(time.Hour))
			var e *overwatch.Error
			switch {
			case err == nil:
				mu.Lock()
				ok[action]++
				mu.Unlock()
			case !errors.As(err, &e) || e.Code != overwatch.Conflict:
				t.Errorf("%s: %v", action, err)
			}
		}()
	}
	wg.Wait()
	r, o := ok[overwatch.ActionResolve], ok[overwatch.ActionOpen]
	rows, err := db.Alerts(ctx, account, read.AlertFilter{Now: testclock.Now(), Limit: 10})
	if err != nil || len(rows) != 1 {
		t.Fatalf("%+v %v", rows, err)
	}
	final := rows[0].Times.StateAt(testclock.Now())
	switch {
	case r == 0:
		t.Errorf("no resolution succeeded")
	case r == o+1 && final == overwatch.AlertResolved && rows[0].Times.SnoozedUntil == nil:
	case r == o && final == overwatch.AlertOpen && rows[0].Times == (overwatch.AlertTimes{}):
	default:
		t.Errorf("%d resolutions and %d reopenings succeeded, final state %s %+v", r, o, final, rows[0].Times)
	}
	t.Logf("%d resolutions and %d reopenings succeeded, final %s", r, o, final)
}

// An alert raised again with a higher severity is escalated in place
// (open again, queued again); a lower or equal severity, or a resolved
// alert, changes nothing.
func TestRaiseAlertsEscalation(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	hook := newHook(t, db, a, jobs.AlertDarkFleet)
	at := testclock.Now().Add(-time.Hour)
	alert := func(key, severity string) jobs.Alert {
		return jobs.Alert{AccountID: a, Type: jobs.AlertDarkFleet, Severity: severity, Title: key + " " + severity, Message: "m " + severity,
			IMO: "9321483", EventKey: key, EventAt: at}
	}
	raiseN := func(want int, as ...jobs.Alert) {
		t.Helper()
		if n, err := db.RaiseAlerts(ctx, as); err != nil || n != want {
			t.Fatalf("raise %+v: %d %v, want %d", as, n, err, want)
		}
	}
	get := func(key string) read.AlertRow {
		t.Helper()
		rows, err := db.Alerts(ctx, a, read.AlertFilter{Now: testclock.Now(), Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if strings.HasPrefix(r.Title, key+" ") {
				return r
			}
		}
		t.Fatalf("no alert %s", key)
		return read.AlertRow{}
	}
	raiseN(2, alert("gap", jobs.SeverityInfo), alert("sts", jobs.SeverityWarning))
	gap := get("gap")
	now := testclock.Now()
	if _, err := db.SetAlertState(ctx, a, gap.ID, overwatch.ActionSnooze, now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	raiseN(0, alert("gap", jobs.SeverityInfo))
	raiseN(1, alert("gap", jobs.SeverityWarning))
	if g := get("gap"); g.ID != gap.ID || g.Severity != jobs.SeverityWarning || g.Title != "gap warning" || g.Times != (overwatch.AlertTimes{}) || !g.CreatedAt.Equal(gap.CreatedAt) {
		t.Errorf("escalated to warning: %+v", g)
	}
	if _, err := db.SetAlertState(ctx, a, gap.ID, overwatch.ActionRead, now, now); err != nil {
		t.Fatal(err)
	}
	raiseN(1, alert("gap", jobs.SeverityCritical))
	raiseN(0, alert("gap", jobs.SeverityWarning), alert("gap", jobs.SeverityInfo), alert("gap", jobs.SeverityCritical))
	if g := get("gap"); g.Severity != jobs.SeverityCritical || g.Times.ReadAt != nil {
		t.Errorf("escalated to critical: %+v", g)
	}
	if n, err := db.CountAlerts(ctx, a, read.AlertFilter{Now: testclock.Now(), Unacknowledged: true}); err != nil || n != 2 {
		t.Errorf("unacknowledged after the escalation: %d %v", n, err)
	}
	// A resolved alert stays as the account left it.
	sts := get("sts")
	if _, err := db.SetAlertState(ctx, a, sts.ID, overwatch.ActionResolve, now, now); err != nil {
		t.Fatal(err)
	}
	raiseN(0, alert("sts", jobs.SeverityCritical))
	if s := get("sts"); s.Severity != jobs.SeverityWarning || s.Times.ResolvedAt == nil {
		t.Errorf("a resolved alert changed: %+v", s)
	}
	// The webhook got the new alerts and each escalation.
	log, err := db.Deliveries(ctx, a, hook, 100)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range log {
		ids = append(ids, d.EventID)
	}
	slices.Sort(ids)
	want := []string{fmt.Sprintf("alert_%d", gap.ID), fmt.Sprintf("alert_%d_critical", gap.ID), fmt.Sprintf("alert_%d_warning", gap.ID), fmt.Sprintf("alert_%d", sts.ID)}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("deliveries %v, want %v", ids, want)
	}
}
