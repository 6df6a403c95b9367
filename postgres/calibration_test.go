package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"overwatch/maritime/calibration"
)

// Manual overrides: set, replaced by a later set of the same port and
// commodity, listed in order with who and when, cleared once; a factor out
// of range is refused by the table.
func TestCalibrationOverrides(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	port := fmt.Sprintf("test-port-%d", time.Now().UnixNano())
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	t.Cleanup(func() {
		db.ClearCalibrationOverride(ctx, port, "corn")          //nolint:errcheck
		db.ClearCalibrationOverride(ctx, port, calibration.All) //nolint:errcheck
	})
	m, err := db.SetCalibrationOverride(ctx, calibration.Manual{Port: port, Commodity: "corn", Factor: 1.25, Reason: "USDA revision", By: "alice", At: at})
	if err != nil || m.Factor != 1.25 || m.By != "alice" || !m.At.Equal(at) {
		t.Fatalf("set: %+v %v", m, err)
	}
	if _, err := db.SetCalibrationOverride(ctx, calibration.Manual{Port: port, Commodity: calibration.All, Factor: 0.9, Reason: "r", By: "bob", At: at}); err != nil {
		t.Fatal(err)
	}
	later := at.Add(time.Hour)
	if _, err := db.SetCalibrationOverride(ctx, calibration.Manual{Port: port, Commodity: "corn", Factor: 1.5, Reason: "second look", By: "carol", At: later}); err != nil {
		t.Fatal(err)
	}
	list, err := db.CalibrationOverrides(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var mine []calibration.Manual
	for _, m := range list {
		if m.Port == port {
			mine = append(mine, m)
		}
	}
	if len(mine) != 2 || mine[0].Commodity != calibration.All || mine[1].Commodity != "corn" ||
		mine[1].Factor != 1.5 || mine[1].By != "carol" || mine[1].Reason != "second look" || !mine[1].At.Equal(later) {
		t.Fatalf("listed %+v", mine)
	}
	for _, bad := range []float64{0, -1, 101} {
		if _, err := db.SetCalibrationOverride(ctx, calibration.Manual{Port: port, Commodity: "x", Factor: bad, Reason: "r", By: "b", At: at}); err == nil {
			t.Errorf("factor %v stored", bad)
		}
	}
	if ok, err := db.ClearCalibrationOverride(ctx, port, "corn"); !ok || err != nil {
		t.Errorf("clear: %v %v", ok, err)
	}
	if ok, err := db.ClearCalibrationOverride(ctx, port, "corn"); ok || err != nil {
		t.Errorf("second clear: %v %v", ok, err)
	}
}
