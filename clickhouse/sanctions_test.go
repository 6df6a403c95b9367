package clickhouse_test

import (
	"context"
	"os"
	sanctionsource "overwatch/sources/sanctions"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/sanctions"
)

func openSanctionsDB(t *testing.T) (*clickhouse.DB, string) {
	t.Helper()
	return chtest.DB(t, "sanctions"), chtest.URL(t, "sanctions")
}

// stored is what SanctionsEntries returns for an imported entry: the list
// it was imported as, a negative tonnage as 0, empty lists as nil.
func stored(list string, e sanctions.Entry) sanctions.Entry {
	e.ListSource = list
	e.Tonnage, e.GRT = max(e.Tonnage, 0), max(e.GRT, 0)
	if len(e.Aliases) == 0 {
		e.Aliases = nil
	}
	if len(e.FormerFlags) == 0 {
		e.FormerFlags = nil
	}
	return e
}

func TestReplaceSanctions(t *testing.T) {
	db, url := openSanctionsDB(t)
	ctx := context.Background()
	artavil := sanctions.Entry{EntryID: "15036", Name: "ARTAVIL", Aliases: []string{"ABADAN", "SHONA"}, IMO: 9187629,
		MMSI: 572469210, Flag: "IR", Program: "IRAN", Remarks: "Vessel Registration Identification IMO 9187629.",
		FormerFlags: []string{"MT"}, VesselType: "Crude Oil Tanker", Tonnage: 99144}
	ark := sanctions.Entry{EntryID: "15037", Name: "ARK", IMO: 9187655, Flag: "PA", Program: "IRAN"}
	hermann := sanctions.Entry{EntryID: "4234", Name: "HERMANN", Flag: "CU", Program: "CUBA", Tonnage: -5}
	if err := db.ReplaceSanctions(ctx, "OFAC SDN", []sanctions.Entry{artavil, ark, hermann}); err != nil {
		t.Fatal(err)
	}
	got, err := db.SanctionsEntries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []sanctions.Entry{stored("OFAC SDN", hermann), stored("OFAC SDN", artavil), stored("OFAC SDN", ark)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("first import:\n got %+v\nwant %+v", got, want)
	}

	// A new import replaces the list whole: ARK delisted, ARTAVIL renamed.
	artavil.Name, artavil.Aliases = "ARTAVIL II", append(artavil.Aliases, "ARTAVIL")
	if err := db.ReplaceSanctions(ctx, "OFAC SDN", []sanctions.Entry{artavil, hermann}); err != nil {
		t.Fatal(err)
	}
	// Another list is kept apart.
	un := sanctions.Entry{EntryID: "KPe.1", Name: "CHONG CHON GANG", IMO: 7937317, Flag: "KP"}
	if err := db.ReplaceSanctions(ctx, "UN 1718", []sanctions.Entry{un}); err != nil {
		t.Fatal(err)
	}
	want = []sanctions.Entry{stored("OFAC SDN", hermann), stored("OFAC SDN", artavil), stored("UN 1718", un)}
	if got, err = db.SanctionsEntries(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after the second import (%v):\n got %+v\nwant %+v", err, got, want)
	}

	// An empty import is refused; the list stays.
	if err := db.ReplaceSanctions(ctx, "OFAC SDN", nil); err == nil {
		t.Error("an empty import was accepted")
	}
	if err := db.ReplaceSanctions(ctx, " ", []sanctions.Entry{ark}); err == nil {
		t.Error("an import without a list source was accepted")
	}

	// Rows of an import that never completed (written, not recorded) are
	// never seen, even under a newer generation.
	chtest.Open(t, url).Insert(t, "sanctions_entries", []string{"list_source", "gen", "entry_id", "name", "aliases", "former_flags", "imported_at"},
		[]any{"OFAC SDN", uint64(time.Now().Add(time.Hour).UnixNano()), "99", "HALF", []string{}, []string{}, time.Now().UTC()})
	if got, err = db.SanctionsEntries(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("a half import is seen (%v): %+v", err, got)
	}

	imports, err := db.SanctionsImports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) != 2 || imports[0].ListSource != "OFAC SDN" || imports[0].Entries != 2 || imports[1].Entries != 1 ||
		time.Since(imports[0].ImportedAt) > time.Minute {
		t.Errorf("imports: %+v", imports)
	}
}

// The real OFAC files round-trip: every vessel entry comes back as parsed.
func TestReplaceSanctionsRealSDN(t *testing.T) {
	dir := ""
	wd, _ := os.Getwd()
	for range 6 {
		d := filepath.Join(wd, "shared", "data", "sanctions")
		if _, err := os.Stat(filepath.Join(d, "sanctions_ofac_sdn_2021-07_full.csv")); err == nil {
			dir = d
			break
		}
		wd = filepath.Dir(wd)
	}
	if dir == "" {
		t.Skip("the OFAC files of shared/data/sanctions are not here")
	}
	db, _ := openSanctionsDB(t)
	ctx := context.Background()
	open := func(name string) *os.File {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	entries, err := sanctionsource.ParseSDN(open("sanctions_ofac_sdn_2021-07_full.csv"), open("sanctions_ofac_alt_2021-07_full.csv"),
		open("sanctions_ofac_sdn_comments_2021-07.csv"), sanctionsource.ListOFACSDN)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ReplaceSanctions(ctx, "OFAC SDN 2021-07", entries); err != nil {
		t.Fatal(err)
	}
	got, err := db.SanctionsEntries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]sanctions.Entry{}
	for _, e := range got {
		if e.ListSource == "OFAC SDN 2021-07" {
			byID[e.EntryID] = e
		}
	}
	if len(byID) != len(entries) || len(entries) != 406 {
		t.Fatalf("%d entries back of %d", len(byID), len(entries))
	}
	for _, e := range entries {
		if w := stored("OFAC SDN 2021-07", e); !reflect.DeepEqual(byID[e.EntryID], w) {
			t.Errorf("entry %s:\n got %+v\nwant %+v", e.EntryID, byID[e.EntryID], w)
		}
	}
}
