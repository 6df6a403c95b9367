package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
	"overwatch/write"
)

func freightRate(vt, origin, dest string, rate float64, date time.Time) write.NewFreightRate {
	return write.NewFreightRate{VesselType: vt, Origin: origin, Destination: dest, Rate: rate, Unit: "usd_per_tonne", Date: date, Notes: "n"}
}

func submit(t *testing.T, db *postgres.DB, account int64, r write.NewFreightRate, day time.Time) overwatch.FreightRecord {
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
	if rec.ID == 0 || rec.CreatedAt.IsZero() || !rec.Date.Equal(today.AddDate(0, 0, -3)) {
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
