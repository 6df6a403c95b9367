package jobs

import (
	"context"
	"testing"
	"time"
)

// The job table: unique names, an interval each, every derivation in it
// with the tables it rewrites, the alerts and delivery jobs when their
// stores are given.
func TestJobTable(t *testing.T) {
	t.Parallel()
	all := All(Deps{Alerts: &memSink{}, Deliveries: &memQueue{}, Poster: posterFunc(func(Delivery) (int, error) { return 200, nil }),
		PurgeRateWindows: func(context.Context) (int64, error) { return 0, nil }})
	byName := map[string]Job{}
	for _, j := range all {
		if _, dup := byName[j.Name]; dup {
			t.Errorf("job %s twice", j.Name)
		}
		if j.Every <= 0 || j.Run == nil {
			t.Errorf("job %s: every %s, run %v", j.Name, j.Every, j.Run != nil)
		}
		byName[j.Name] = j
	}
	for _, name := range Derivations {
		if j, ok := byName[name]; !ok || len(j.Writes) == 0 {
			t.Errorf("derivation %s: in the table %v, writes %v", name, ok, j.Writes)
		}
	}
	if j := byName["alerts"]; j.Every != 5*time.Minute {
		t.Errorf("alerts every %s", j.Every)
	}
	if j := byName["webhook_delivery"]; j.Every != 5*time.Second {
		t.Errorf("webhook_delivery every %s", j.Every)
	}
}
