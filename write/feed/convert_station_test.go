package feed

import (
	"testing"
	"time"

	"overwatch"
	"overwatch/write/ais"
)

// A position decoded from a line whose tag block names the receiving
// station keeps the station: it is stored with the fix (provenance).
func TestFromAISKeepsTheStation(t *testing.T) {
	line := []byte(`\s:rORBCOMM999,c:1733782037*2B\!AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0*24`)
	d := ais.NewDecoder(ais.Options{})
	m, ok := d.Decode(line)
	if !ok {
		t.Fatal("the line does not decode")
	}
	r, ok := FromAIS(&m, overwatch.SourceAISStream, time.Unix(1733782040, 0))
	if !ok || r.Station != "rORBCOMM999" {
		t.Fatalf("report %+v (ok %v), station %q", r, ok, m.Station)
	}
}
