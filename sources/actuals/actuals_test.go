package actuals

import (
	"overwatch/maritime/calibration"
	"strings"
	"testing"
	"time"
)

func TestParseActuals(t *testing.T) {
	t.Parallel()
	rows, err := ParseActuals(strings.NewReader("\ufeffWeek,Port,Tonnes,Commodity\r\n2026-W10,santos,412000,Soybeans\n2026-03-04,USMSY,1250000.5,corn\n2021-W01, BR SSZ ,1,x\n"), "USDA")
	if err != nil {
		t.Fatal(err)
	}
	want := []calibration.Actual{
		{Port: "santos", Week: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Commodity: "soybeans", Tonnes: 412000, Source: "USDA"},
		{Port: "new-orleans", Week: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), Commodity: "corn", Tonnes: 1250000.5, Source: "USDA"},
		{Port: "santos", Week: time.Date(2021, 1, 4, 0, 0, 0, 0, time.UTC), Commodity: "x", Tonnes: 1, Source: "USDA"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, rows[i], want[i])
		}
	}
}

func TestParseActualsRefusesBadRows(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", "port,week,tonnes\n",
		"port,week,commodity,tonnes\natlantis,2026-W10,corn,1\n",
		"port,week,commodity,tonnes\nsantos,2026-W54,corn,1\n",
		"port,week,commodity,tonnes\nsantos,2025-W53,corn,1\n", // 2025 has 52 ISO weeks
		"port,week,commodity,tonnes\nsantos,2026-13-01,corn,1\n",
		"port,week,commodity,tonnes\nsantos,2026-W10,corn,-1\n",
		"port,week,commodity,tonnes\nsantos,2026-W10,corn,NaN\n",
		"port,week,commodity,tonnes\nsantos,2026-W10,,1\n",
		"port,week,commodity,tonnes\nsantos,2026-W10,corn,1\n\"unterminated\n",
	} {
		if rows, err := ParseActuals(strings.NewReader(in), ""); err == nil {
			t.Errorf("%q: accepted %+v", in, rows)
		}
	}
}

func FuzzParseActuals(f *testing.F) {
	f.Add("port,week,commodity,tonnes\nsantos,2026-W10,corn,1\n")
	f.Add("week,port,tonnes,commodity,source\n2026-03-04,USMSY,1e6,corn,\"USDA, AMS\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ParseActuals(strings.NewReader(in), "src")
		if err != nil {
			return
		}
		for _, r := range rows {
			if r.Week.Weekday() != time.Monday || r.Tonnes < 0 || r.Port == "" || r.Commodity == "" {
				t.Fatalf("bad row %+v from %q", r, in)
			}
		}
	})
}

func TestParseActualsHeaderAndLines(t *testing.T) {
	t.Parallel()
	rows, err := ParseActuals(strings.NewReader("\ufeffPORT, Week ,commodity,TONNES\r\nsantos,2026-W10,Corn,1\r\n"), "src")
	if err != nil || len(rows) != 1 || rows[0].Commodity != "corn" || rows[0].Source != "src" {
		t.Fatalf("a header with a byte-order mark, capitals and spaces: %+v %v", rows, err)
	}
	_, err = ParseActuals(strings.NewReader("port,week,commodity,tonnes\nsantos,2026-W10,corn,1\natlantis,2026-W10,corn,1\n"), "")
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "atlantis") {
		t.Errorf("a bad third line: %v", err)
	}
}
