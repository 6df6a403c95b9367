package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
	"overwatch/read"
	"overwatch/write"
)

func freightRate(vt, origin, dest string, rate float64, date time.Time) write.NewFreightRate {
	return write.NewFreightRate{VesselType: vt, Origin: origin, Destination: dest, Rate: rate, Unit: "usd_per_tonne", Date: date, Notes: "n"}
}

func submit(t *testing.T, db *postgres.DB, account int64, r write.NewFreightRate, day time.Time) write.FreightRecord {
	t.Helper()
	rec, ok, err := db.CreateFreightRate(context.Background(), account, r, day, write.FreightDailyCap)
	if err != nil || !ok {
		t.Fatalf("submit: %v %v", ok, err)
	}
	return rec
}

// Records belong to their account: listed and deleted only by it; the
// daily cap counts submissions (deleting does not give them back) and
// holds under concurrency; the next day starts afresh.
func TestFreightRateStoreOwnershipAndCap(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	rec := submit(t, db, a, freightRate("panamax", "new-orleans", "rotterdam", 45.5, today.AddDate(0, 0, -3)), today)
	if rec.ID == 0 || rec.CreatedAt.IsZero() || rec.Date != "2026-11-23" || rec.Source != "own" {
		t.Fatalf("record %+v", rec)
	}
	submit(t, db, a, freightRate("capesize", "port-hedland", "qingdao", 12, today), today)

	wantCode(t, "delete across accounts", db.DeleteFreightRate(ctx, b, rec.ID), overwatch.NotFound)
	if own, err := db.OwnFreightRates(ctx, b, "", 50); err != nil || len(own) != 0 {
		t.Errorf("b sees %v %v", own, err)
	}
	own, err := db.OwnFreightRates(ctx, a, "", 50)
	if err != nil || len(own) != 2 || own[0].VesselType != "capesize" || own[1].ID != rec.ID || own[1].Rate != 45.5 ||
		!own[1].Date.Equal(today.AddDate(0, 0, -3)) || own[1].Notes != "n" {
		t.Fatalf("a's records: %+v %v", own, err)
	}
	if own, _ := db.OwnFreightRates(ctx, a, "panamax", 50); len(own) != 1 {
		t.Errorf("panamax only: %+v", own)
	}
	if err := db.DeleteFreightRate(ctx, a, rec.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "delete twice", db.DeleteFreightRate(ctx, a, rec.ID), overwatch.NotFound)
	if n, err := db.DeleteFreightRates(ctx, a); err != nil || n != 1 {
		t.Errorf("delete all: %d %v", n, err)
	}

	// 30 concurrent submissions with a cap of 10: exactly 10 stored.
	c := newAccount(t, db)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		oks int
	)
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := db.CreateFreightRate(ctx, c, freightRate("supramax", "santos", "qingdao", 30, today), today, 10)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				oks++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if own, _ := db.OwnFreightRates(ctx, c, "", 100); oks != 10 || len(own) != 10 {
		t.Errorf("%d accepted, %d stored, want 10", oks, len(own))
	}
	if n, _ := db.DeleteFreightRates(ctx, c); n != 10 {
		t.Errorf("deleted %d", n)
	}
	if _, ok, _ := db.CreateFreightRate(ctx, c, freightRate("supramax", "santos", "qingdao", 30, today), today, 10); ok {
		t.Error("deleting gave the cap back")
	}
	if _, ok, _ := db.CreateFreightRate(ctx, c, freightRate("supramax", "santos", "qingdao", 30, today), today.AddDate(0, 0, 1), 10); !ok {
		t.Error("the next day is capped too")
	}
}

// Aggregates: per route and ISO week, over other accounts only, one
// value per account (the median of its records), shown from
// MinContributors accounts on.
func TestFreightAggregates(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	monday := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	caller := newAccount(t, db)
	var others []int64
	for i := 0; i < 3; i++ {
		others = append(others, newAccount(t, db))
	}
	route := func(acct int64, rate float64, date time.Time) {
		submit(t, db, acct, freightRate("handysize", "odesa-test", "alexandria-test", rate, date), monday.AddDate(0, 0, 10))
	}
	// Week of the 16th: three other accounts (one twice) and the caller.
	route(others[0], 20, monday)
	route(others[0], 22, monday.AddDate(0, 0, 6)) // Sunday: the same ISO week
	route(others[1], 30, monday.AddDate(0, 0, 2))
	route(others[2], 25, monday.AddDate(0, 0, 4))
	route(caller, 1000, monday)
	// The week before: two accounts only.
	route(others[0], 18, monday.AddDate(0, 0, -1))
	route(others[1], 19, monday.AddDate(0, 0, -3))

	aggs, err := db.FreightAggregates(ctx, read.FreightAggregateRequest{AccountID: caller, MinContributors: 3, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var mine []read.FreightAggregate
	for _, a := range aggs {
		if a.Origin == "odesa-test" {
			mine = append(mine, a)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("aggregates %+v", mine)
	}
	a := mine[0]
	if !a.Week.Equal(monday) || a.Count != 4 || !slices.Equal(a.Values, []float64{21, 25, 30}) ||
		a.VesselType != "handysize" || a.Unit != "usd_per_tonne" {
		t.Errorf("aggregate %+v", a)
	}
	// Seen from one of them, its own records are left out (the caller
	// above is one of its three others); with a fourth account required,
	// nothing is shown.
	aggs, _ = db.FreightAggregates(ctx, read.FreightAggregateRequest{AccountID: others[0], MinContributors: 3, Limit: 50})
	for _, a := range aggs {
		if a.Origin == "odesa-test" && (a.Count != 3 || !slices.Equal(a.Values, []float64{25, 30, 1000})) {
			t.Errorf("seen from a contributor: %+v", a)
		}
	}
	aggs, _ = db.FreightAggregates(ctx, read.FreightAggregateRequest{AccountID: others[0], MinContributors: 4, Limit: 50})
	for _, a := range aggs {
		if a.Origin == "odesa-test" {
			t.Errorf("shown with three accounts where four are required: %+v", a)
		}
	}
	// Since and vessel type filter.
	aggs, _ = db.FreightAggregates(ctx, read.FreightAggregateRequest{AccountID: caller, VesselType: "panamax", MinContributors: 3, Limit: 50})
	for _, a := range aggs {
		if a.Origin == "odesa-test" {
			t.Errorf("panamax filter: %+v", a)
		}
	}
	aggs, _ = db.FreightAggregates(ctx, read.FreightAggregateRequest{AccountID: caller, Since: monday.AddDate(0, 0, 5), MinContributors: 3, Limit: 50})
	for _, a := range aggs {
		if a.Origin == "odesa-test" {
			t.Errorf("since filter: %+v", a)
		}
	}
}
