package e2e

import (
	"context"
	"io"
	"os"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse"
	"overwatch/clickhouse/chtest"
	"overwatch/maritime/seaport"
	"overwatch/maritime/tracktest"
	"overwatch/postgres/pgtest"
	"overwatch/testclock"
	"overwatch/write/ais"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOrphanedPortCallClaimedLater: a vessel sails into Santos, lies at a
// berth, goes dark for 4.4 days and only then sends its static report (type
// 5, with its IMO) as it leaves. Its positions before the report waited
// longer than the attribution window and were stored without an IMO; the
// report claims them for the vessel, and the port call derived from the
// capture (replayed, then `jobs --once`) starts at the true arrival, not
// when the vessel was first named.
func TestOrphanedPortCallClaimedLater(t *testing.T) {
	t.Parallel() // its own databases
	name := "e2e_orphans"
	r := &apptest.EvalRun{ChURL: chtest.URL(t, name), PgURL: pgtest.URL(t, name)}
	r.Env = map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL, "OVERWATCH_SPOOL_DIR": t.TempDir(), "OVERWATCH_LOG_LEVEL": "warn"}
	port, ok := seaport.BySlug("santos")
	if !ok {
		t.Fatal("no Santos")
	}
	berth := tracktest.ZonePoint(port.Berths[0])
	sea := tracktest.Offset(berth, -30, 10)
	const mmsi = 710012345
	imo := overwatch.IMO(9074729)
	t0 := testclock.Now().UTC().Truncate(time.Hour).Add(-12 * 24 * time.Hour)
	var lines []string
	add := func(m ais.Message, at time.Time) {
		ls, err := ais.Encode(m, ais.EncodeOptions{TagBlock: true, Time: at})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, ls...)
	}
	position := func(p tracktest.LL, sog float64, status uint8, at time.Time) {
		add(ais.Message{Type: 1, MMSI: mmsi, Lat: p.Lat, Lon: p.Lon, SOG: sog, COG: 0, NavStatus: status,
			Fields: ais.HasPosition | ais.HasSOG | ais.HasCOG | ais.HasNavStatus}, at)
	}
	leg := func(from, to tracktest.LL, start time.Time, steps int, sog float64) time.Time {
		for i := 0; i <= steps; i++ {
			f := float64(i) / float64(steps)
			position(tracktest.LL{Lat: from.Lat + f*(to.Lat-from.Lat), Lon: from.Lon + f*(to.Lon-from.Lon)}, sog, 0, start.Add(time.Duration(i)*10*time.Minute))
		}
		return start.Add(time.Duration(steps) * 10 * time.Minute)
	}
	arrival := leg(sea, berth, t0, 12, 10)
	at := arrival
	for i := 1; i <= 6*30; i++ { // 30 hours at the berth
		at = arrival.Add(time.Duration(i) * 10 * time.Minute)
		position(berth, 0, 5, at)
	}
	back := at.Add(106 * time.Hour) // 4.4 days dark
	add(ais.Message{Type: 5, MMSI: mmsi, IMO: imo, Name: "ORPHAN TRADER", CallSign: "PPXY", ShipType: 70, Draught: 12.4,
		ToBow: 150, ToStern: 40, ToPort: 16, ToStarboard: 16,
		Fields: ais.HasIMO | ais.HasName | ais.HasCallSign | ais.HasShipType | ais.HasDraught | ais.HasDimensions}, back)
	position(berth, 0, 5, back.Add(time.Minute))
	leg(berth, sea, back.Add(10*time.Minute), 12, 10)
	// Another vessel reports every minute throughout (a class B at sea),
	// so that the feed's clock runs on while the first is dark: its
	// positions wait their window and are stored without an IMO. Sorted
	// into the capture by time.
	var filler []timedLine
	for ft := t0; ft.Before(back.Add(3 * time.Hour)); ft = ft.Add(time.Minute) {
		ls, err := ais.Encode(ais.Message{Type: 18, MMSI: 710099999, Lat: sea.Lat - 0.5, Lon: sea.Lon, SOG: 0.1,
			Fields: ais.HasPosition | ais.HasSOG}, ais.EncodeOptions{TagBlock: true, Time: ft})
		if err != nil {
			t.Fatal(err)
		}
		filler = append(filler, timedLine{ft, ls[0]})
	}
	lines = mergeByTime(t, lines, filler)

	path := filepath.Join(t.TempDir(), "orphan.nmea")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var summary strings.Builder
	r.Command(t, &summary, "replay", "--source", "aishub", path)
	if !strings.Contains(summary.String(), ", 1 MMSIs claimed later,") {
		t.Errorf("the replay's summary does not count the claimed MMSI: %s", summary.String())
	}
	r.Command(t, io.Discard, "jobs", "--once")
	ch, err := clickhouse.Open(r.ChURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	calls, err := ch.Calls(context.Background(), t0.Add(-24*time.Hour), back.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range calls {
		if c.IMO != imo || c.Port != "santos" {
			continue
		}
		found = true
		if d := c.Arrival.Sub(arrival); d < -time.Hour || d > time.Hour {
			t.Errorf("call arrives %v, the vessel arrived %v", c.Arrival, arrival)
		}
	}
	if !found {
		t.Fatalf("no call at Santos for IMO %s: %+v", imo, calls)
	}
}

// timedLine is a capture line and its tag-block time.
type timedLine struct {
	at   time.Time
	line string
}

// mergeByTime merges the filler lines into lines (both in time order),
// reading each line's time from its tag block; a line without one (a
// later fragment) stays with the line before it.
func mergeByTime(t *testing.T, lines []string, filler []timedLine) []string {
	t.Helper()
	var out []string
	j := 0
	var last time.Time
	for _, l := range lines {
		if at, ok := tagTime(l); ok {
			last = at
		}
		for j < len(filler) && filler[j].at.Before(last) {
			out = append(out, filler[j].line)
			j++
		}
		out = append(out, l)
	}
	for ; j < len(filler); j++ {
		out = append(out, filler[j].line)
	}
	return out
}

// tagTime reads the "c:" of a line's tag block.
func tagTime(line string) (time.Time, bool) {
	i := strings.Index(line, "c:")
	if i < 0 {
		return time.Time{}, false
	}
	j := i + 2
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	var sec int64
	for _, c := range line[i+2 : j] {
		sec = sec*10 + int64(c-'0')
	}
	return time.Unix(sec, 0), j > i+2
}
