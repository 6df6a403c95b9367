package jobs

import (
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/maritime/predict"
	"overwatch/testclock"
)

func TestETAChanges(t *testing.T) {
	at := testclock.Now().UTC().Truncate(time.Second)
	eta := at.Add(48 * time.Hour)
	pred := func(imo overwatch.IMO, port string, eta time.Time) predict.Prediction {
		return predict.Prediction{IMO: imo, Next: []predict.NextPort{{Port: port, Probability: 0.9, ETA: eta}}}
	}
	prev := []predict.Prediction{pred(9074729, "santos", eta), pred(9187629, "santos", eta), pred(9319466, "santos", eta)}
	cur := []predict.Prediction{
		pred(9074729, "santos", eta.Add(5*time.Hour)), // within the 6 h
		pred(9187629, "santos", eta.Add(-7*time.Hour)),
		pred(9319466, "rotterdam", eta),
		pred(9395044, "santos", eta), // new: nothing to compare with
	}
	events := ETAChanges(at, cur, prev, 0)
	if len(events) != 2 || events[0].IMO != "9187629" || events[1].IMO != "9319466" {
		t.Fatalf("events %+v", events)
	}
	if e := events[0]; e.Type != AlertETAChanged || !strings.Contains(e.Title, "-7.0 h") || e.Port != "santos" || !e.At.Equal(at) {
		t.Errorf("ETA move: %+v", e)
	}
	if e := events[1]; !strings.Contains(e.Message, "from Santos to Rotterdam") {
		t.Errorf("port change: %+v", e)
	}
	if events[0].Key == events[1].Key {
		t.Error("two events share a key")
	}
	if n := len(ETAChanges(at, cur, prev, 4.5)); n != 3 {
		t.Errorf("a 4.5 h threshold: %d events, want 3", n)
	}
}
