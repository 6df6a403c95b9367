package app

import (
	"context"
	"io"
	"strings"
	"testing"

	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
)

// `overwatch import river|sar|news|portwatch` on the sources' real files
// (the GDELT and PortWatch fixtures are built from their documented layout,
// as their testdata READMEs say): every file is stored, and a bad file
// (an HTML page, a truncated answer, GDELT's plain-text error) stores
// nothing of itself or of the files named with it.
func TestImportSignals(t *testing.T) {
	chURL, pgURL := chtest.URL(t, "import_signals"), pgtest.URL(t, "import_signals")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	imp := func(args ...string) (string, error) {
		var out strings.Builder
		err := Run(context.Background(), append([]string{"overwatch", "import"}, args...), clockEnv(func(k string) string { return env[k] }), &out, io.Discard)
		return out.String(), err
	}
	db, err := clickhouse.Open(chURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count := func(table string) uint64 {
		t.Helper()
		n, err := db.Count(context.Background(), "SELECT count() FROM "+table)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	const river, sar, gdelt, pw = "../sources/river/testdata/", "../sources/sar/testdata/", "../sources/gdelt/testdata/", "../sources/portwatch/testdata/"
	for _, c := range []struct {
		args  []string
		table string
	}{
		{[]string{"river", river + "nwis_iv_waterml_json_01491000_01645000.json"}, "river_readings"},
		{[]string{"sar", sar + "asf_searchapi_Fairbanks_SLC_jsonlite.json", sar + "asf_searchapi_Fairbanks_SLC.csv",
			sar + "asf_datapool_results_2019-10-01_250placemarks.kml", sar + "asf_search_S1_response_geojson_feature_with_umm.yml",
			sar + "s1a_iw_grdh_20210809_039156_stac_item.json"}, "sar_products"},
		{[]string{"news", "--subject", "suez", gdelt + "artlist_documented_format.json"}, "disruption_signals"},
		{[]string{"portwatch", pw + "daily_chokepoints_documented_layout.json"}, "portwatch_chokepoint_daily"},
	} {
		out, err := imp(c.args...)
		if err != nil {
			t.Fatalf("import %v: %v\n%s", c.args, err, out)
		}
		if n := count(c.table); n == 0 || !strings.Contains(out, "rows imported") {
			t.Errorf("import %s: %d rows in %s\n%s", c.args[0], n, c.table, out)
		}
		t.Logf("%s", out)
	}
	before := map[string]uint64{}
	for _, table := range []string{"river_readings", "sar_products", "disruption_signals"} {
		before[table] = count(table)
	}
	for _, c := range []struct {
		args  []string
		table string
	}{
		{[]string{"news", "--subject", "rotterdam", gdelt + "artlist_documented_format.json", gdelt + "artlist_truncated.json"}, "disruption_signals"},
		{[]string{"news", "--subject", "rotterdam", gdelt + "error_rate_limit.txt"}, "disruption_signals"},
		{[]string{"sar", sar + "asf_searchapi_Fairbanks_SLC_jsonlite.json", "../sources/market/testdata/README.md"}, "sar_products"},
	} {
		if _, err := imp(c.args...); err == nil {
			t.Errorf("import %v: no error", c.args)
		}
		if n := count(c.table); n != before[c.table] {
			t.Errorf("import %v: %d rows stored by a failed import", c.args, n-before[c.table])
		}
	}
	if _, err := imp("news", "--subject", "atlantis", gdelt+"artlist_documented_format.json"); err == nil || !strings.Contains(err.Error(), "atlantis") {
		t.Errorf("an unknown subject: %v", err)
	}
}
