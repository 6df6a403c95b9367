package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
)

// mondayOf is the Monday 00:00 UTC of t's ISO week.
func mondayOf(t time.Time) time.Time {
	d := t.UTC().Truncate(24 * time.Hour)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// The weekly aggregates are published once per week that has ended, from
// the records submitted in it (created_at, whatever their date), one value
// per account (the median of its records), only for routes of at least k
// accounts; concurrent publishers publish each week once; after that, no
// deletion of records or accounts, no record landing in the week late and
// no second publication changes a published row.
func TestFreightPublication(t *testing.T) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.URL(t, "freight_publication"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	now := testclock.Now()
	thisWeek := mondayOf(now)
	older, last := thisWeek.AddDate(0, 0, -14), thisWeek.AddDate(0, 0, -7)
	today := now.UTC().Truncate(24 * time.Hour)
	var accounts []int64
	for i := 0; i < 6; i++ {
		accounts = append(accounts, newAccount(t, db))
	}
	// submitted stores a record dated date as submitted at created.
	submitted := func(acct int64, vt, origin string, rate float64, date, created time.Time) int64 {
		t.Helper()
		rec := submit(t, db, acct, freightRate(vt, origin, "alexandria", rate, date), today)
		if err := db.Exec(ctx, `UPDATE freight_rates SET created_at = $1 WHERE id = $2`, created, rec.ID); err != nil {
			t.Fatal(err)
		}
		return rec.ID
	}
	// The older week: five accounts on odesa (the first twice, on Monday
	// and Sunday night, its value their median 21), whatever the records'
	// dates; three on izmail.
	submitted(accounts[0], "handysize", "odesa", 20, older.AddDate(0, 0, -40), older)
	submitted(accounts[0], "handysize", "odesa", 22, older, older.AddDate(0, 0, 7).Add(-time.Second))
	for i, v := range []float64{30, 25, 28, 26} {
		submitted(accounts[i+1], "handysize", "odesa", v, older.AddDate(0, 0, 2), older.AddDate(0, 0, i).Add(time.Hour))
	}
	for i := 0; i < 3; i++ {
		submitted(accounts[i], "handysize", "izmail", 40, older, older.AddDate(0, 0, 3))
	}
	// The last ended week: four accounts on odesa, one of them with a
	// record dated in the older week.
	for i := 0; i < 4; i++ {
		submitted(accounts[i], "handysize", "odesa", 50, older.AddDate(0, 0, 1), last.AddDate(0, 0, 1))
	}
	// This week, not ended: all six on odesa.
	for i := range accounts {
		submitted(accounts[i], "handysize", "odesa", 60, today, thisWeek.Add(time.Minute))
	}

	// Eight publishers at once (each on a connection of its own, started
	// together): each week is published by one of them.
	var (
		wg                sync.WaitGroup
		mu                sync.Mutex
		weeks, aggregates int
	)
	const publishers = 8
	for i := 0; i < publishers; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = db.Exec(ctx, `SELECT pg_sleep(0.05)`) }()
	}
	wg.Wait()
	start := make(chan struct{})
	for i := 0; i < publishers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			w, n, err := db.PublishFreightWeeks(ctx, now, 5)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			weeks, aggregates = weeks+w, aggregates+n
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if weeks != 2 || aggregates != 1 {
		t.Errorf("published %d weeks and %d aggregates, want 2 and 1", weeks, aggregates)
	}
	want := read.FreightAggregate{VesselType: "handysize", Origin: "odesa", Destination: "alexandria", Unit: "usd_per_tonne",
		Week: older, Rate: 26, Count: 6, Contributors: 5}
	check := func(what string) {
		t.Helper()
		got, err := db.FreightAggregates(ctx, read.FreightAggregateRequest{Limit: 50})
		if err != nil || !slices.Equal(got, []read.FreightAggregate{want}) {
			t.Errorf("%s: %+v %v, want only %+v", what, got, err, want)
		}
	}
	check("published")

	// Deleting records and an account, and a record landing in the older
	// week after its publication, change nothing; nor does publishing again.
	if n, err := db.DeleteFreightRates(ctx, accounts[1]); err != nil || n == 0 {
		t.Fatalf("delete records: %d %v", n, err)
	}
	if err := db.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, accounts[2]); err != nil {
		t.Fatal(err)
	}
	submitted(accounts[5], "handysize", "odesa", 499, older, older.AddDate(0, 0, 4))
	if w, n, err := db.PublishFreightWeeks(ctx, now, 5); w != 0 || n != 0 || err != nil {
		t.Errorf("published again: %d weeks, %d aggregates, %v", w, n, err)
	}
	check("after deletions")
	// Even with the week marks gone, a second publication of the older
	// week keeps each published row as it was (ON CONFLICT DO NOTHING).
	submitted(accounts[3], "handysize", "odesa", 499, older, older.AddDate(0, 0, 4))
	if err := db.Exec(ctx, `DELETE FROM freight_rate_weeks`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.PublishFreightWeeks(ctx, now, 4); err != nil {
		t.Fatal(err)
	}
	check("published a second time")

	// Filters: the vessel type; the weeks that ended after Since.
	for _, r := range []read.FreightAggregateRequest{{VesselType: "panamax", Limit: 50}, {Since: older.AddDate(0, 0, 7), Limit: 50}} {
		if got, _ := db.FreightAggregates(ctx, r); len(got) != 0 {
			t.Errorf("%+v: %+v", r, got)
		}
	}
	if got, _ := db.FreightAggregates(ctx, read.FreightAggregateRequest{Since: older.AddDate(0, 0, 7).Add(-time.Second), Limit: 50}); len(got) != 1 {
		t.Errorf("the week that ended a second after Since: %+v", got)
	}

	// This week is published when it has ended, not a moment before: the
	// four accounts left, with k 4.
	end := thisWeek.AddDate(0, 0, 7)
	if w, _, err := db.PublishFreightWeeks(ctx, end.Add(-time.Nanosecond), 4); w != 0 || err != nil {
		t.Errorf("this week published before it ended: %d, %v", w, err)
	}
	// The job of the table publishes it.
	res, err := jobs.FreightPublication(db, func() time.Time { return end }, 4)(ctx, jobs.State{})
	if res.Rows != 1 || res.Detail["weeks"] != 1 || !res.Watermark.Equal(end) || err != nil {
		t.Errorf("this week once ended: %+v, %v", res, err)
	}
	got, _ := db.FreightAggregates(ctx, read.FreightAggregateRequest{Limit: 1})
	if len(got) != 1 || !got[0].Week.Equal(thisWeek) || got[0].Rate != 60 || got[0].Contributors != 4 || got[0].Count != 4 {
		t.Errorf("this week: %+v", got)
	}
}
