package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
	"overwatch/read"
	"overwatch/write"
)

func piRows(t *testing.T, csv string) []write.PICoverageRow {
	t.Helper()
	rows, ans, err := write.ParsePICoverageCSV([]byte(csv))
	if err != nil || ans.RejectedCount != 0 {
		t.Fatalf("parse: %v %+v", err, ans)
	}
	return rows
}

func piCoverage(t *testing.T, db *postgres.DB, account int64, imo overwatch.IMO) []read.PICoverageRecord {
	t.Helper()
	recs, err := db.PICoverage(context.Background(), account, imo)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The shared base is seen by every account, an account's records by it
// alone; a re-import replaces the record of the same vessel, insurer and
// start; the account's records go with it.
func TestPICoverageStoreTenancy(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	const imo = overwatch.IMO(9321483)
	base := piRows(t, "imo,club,vessel_name,effective_from,effective_to\n9321483,Gard P. & I.,BASE SHIP,2024-02-20,2025-02-20\n")
	if n, err := db.ImportPICoverage(ctx, 0, base, "test base"); err != nil || n != 1 {
		t.Fatalf("base import: %d %v", n, err)
	}
	own := piRows(t, "imo,club,effective_from\n9321483,North of England P&I,2025-02-20\n9321483,Acme Cover,2025-02-20\n")
	if n, err := db.ImportPICoverage(ctx, a, own, write.PICoverageSourceOwn); err != nil || n != 2 {
		t.Fatalf("own import: %d %v", n, err)
	}
	// Again: replaced, not duplicated.
	if n, err := db.ImportPICoverage(ctx, a, own, write.PICoverageSourceOwn); err != nil || n != 2 {
		t.Fatalf("re-import: %d %v", n, err)
	}
	ra := piCoverage(t, db, a, imo)
	if len(ra) != 3 {
		t.Fatalf("account a sees %d records: %+v", len(ra), ra)
	}
	owned := 0
	for _, r := range ra {
		if r.Own {
			owned++
			if r.Source != "own" || r.From != time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC) || !r.To.IsZero() {
				t.Errorf("own record %+v", r)
			}
		} else if r.ClubID != "gard" || r.VesselName != "BASE SHIP" || r.Source != "test base" || r.To != time.Date(2025, 2, 20, 0, 0, 0, 0, time.UTC) {
			t.Errorf("base record %+v", r)
		}
	}
	if owned != 2 {
		t.Errorf("%d own records, want 2", owned)
	}
	rb := piCoverage(t, db, b, imo)
	if len(rb) != 1 || rb[0].Own || rb[0].ClubID != "gard" {
		t.Errorf("account b sees %+v, want the base record only", rb)
	}
	if names, err := db.PIBaseUnlisted(ctx, 10); err != nil || len(names) != 0 {
		t.Errorf("unlisted insurers of the base %q %v: an account's are never listed", names, err)
	}
	if other := piCoverage(t, db, a, overwatch.IMO(9074729)); len(other) != 0 {
		t.Errorf("another vessel: %+v", other)
	}
	if err := db.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, a); err != nil {
		t.Fatal(err)
	}
	if ra := piCoverage(t, db, a, imo); len(ra) != 1 {
		t.Errorf("after the account is gone: %+v", ra)
	}
}

// The risk score's read of the base: the shared records in force on the
// day (open ends in force, both ends inclusive), never an account's own.
func TestPIBaseCurrent(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	base := piRows(t, "imo,club,effective_from,effective_to\n"+
		"9876543,Gard,2024-01-01,2024-12-31\n"+ // in force on both ends
		"9123453,Acme Cover Ltd,2025-01-01,\n"+ // starts later
		"9187629,Skuld,,\n") // open both ends
	if _, err := db.ImportPICoverage(ctx, 0, base, "test base"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportPICoverage(ctx, a, piRows(t, "imo,club\n9876543,Acme Cover Ltd\n"), write.PICoverageSourceOwn); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		day  time.Time
		want string
	}{
		{time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "9187629 skuld|9876543 gard"},
		{time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC), "9187629 skuld|9876543 gard"},
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "9123453 Acme Cover Ltd|9187629 skuld"},
	} {
		got, err := db.PIBaseCurrent(ctx, c.day)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range got {
			if r.IMO != 9876543 && r.IMO != 9123453 && r.IMO != 9187629 {
				continue // another test's records in the package's database
			}
			id := r.ClubID
			if id == "" {
				id = r.ClubName
			}
			names = append(names, fmt.Sprintf("%d %s", r.IMO, id))
		}
		if s := strings.Join(names, "|"); s != c.want {
			t.Errorf("%s: %s, want %s", c.day.Format("2006-01-02"), s, c.want)
		}
	}
}

// The list of records is layered in the store, so that a page is exact:
// an own record hides the base record of the same vessel, insurer and
// start (an undated start included), another account's never shows, and
// the rows come by IMO, newest start first (undated last), own first.
func TestPICoverageList(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	base := piRows(t, "imo,club,effective_from\n9400019,Gard,2024-02-20\n9400019,Skuld,\n9400007,Britannia,2023-02-20\n9400021,Gard,\n")
	if _, err := db.ImportPICoverage(ctx, 0, base, "test base"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportPICoverage(ctx, a, piRows(t, "imo,club,effective_from\n9400019,Gard,2024-02-20\n9400019,Skuld,\n9400007,Acme Cover Ltd,2025-02-20\n"),
		write.PICoverageSourceOwn); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportPICoverage(ctx, b, piRows(t, "imo,club\n9400007,Gard\n"), write.PICoverageSourceOwn); err != nil {
		t.Fatal(err)
	}
	imos := []overwatch.IMO{9400007, 9400019, 9400021}
	list := func(account int64, imos []overwatch.IMO, limit int) string {
		t.Helper()
		recs, err := db.PICoverageList(ctx, account, imos, limit)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, r := range recs {
			rows = append(rows, fmt.Sprintf("%d %s %s", r.IMO, r.ClubKey, r.Source))
		}
		return strings.Join(rows, "|")
	}
	want := "9400007 name:acme cover own|9400007 britannia test base|9400019 gard own|9400019 skuld own|9400021 gard test base"
	if got := list(a, imos, 0); got != want {
		t.Errorf("account a:\n%s, want\n%s", got, want)
	}
	if got := list(a, imos, 3); got != strings.Join(strings.Split(want, "|")[:3], "|") {
		t.Errorf("account a, 3 rows: %s", got)
	}
	if got, want := list(b, []overwatch.IMO{9400007}, 0), "9400007 britannia test base|9400007 gard own"; got != want {
		t.Errorf("account b: %s, want %s", got, want)
	}
	all, err := db.PICoverageList(ctx, a, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for i, r := range all {
		if i > 0 && r.IMO < all[i-1].IMO {
			t.Errorf("every vessel's list is not by IMO at %d: %+v", i, r)
		}
		if r.IMO >= 9400007 && r.IMO <= 9400021 {
			seen++
		}
	}
	if seen != 5 {
		t.Errorf("every vessel's list holds %d of the 5 records", seen)
	}
}
