package ais

import (
	"testing"
	"time"
)

func TestStamp(t *testing.T) {
	t.Parallel()
	line := "!AIVDM,1,1,,B,15NG6V0P01G?cFhE`R2IU?wn28R>,0*05"
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	stamped := Stamp(line, at, "rORBCOMM000")
	d := NewDecoder(Options{})
	m, ok := d.Decode([]byte(stamped))
	if !ok || !m.TimeFromFeed || !m.Time.Equal(at) || m.Station != "rORBCOMM000" || m.MMSI == 0 {
		t.Fatalf("decoded %+v %v", m, ok)
	}
	if s := Stamp(line, at, "bad station*"); s[:3] != `\c:` {
		t.Errorf("an invalid station is left out: %s", s)
	}
}
