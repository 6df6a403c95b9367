package terminals

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The bundled metadata parses and maps every terminal the issue names
// onto a service port with berths of its commodities.
func TestBundledTerminals(t *testing.T) {
	lng, mining := LNG(), Mining()
	if len(lng) != 5 || len(mining) != 8 {
		t.Fatalf("%d LNG, %d mining terminals", len(lng), len(mining))
	}
	for _, x := range append(append([]Terminal{}, lng...), mining...) {
		if x.Port.Slug != x.ID || len(x.Berths) == 0 || x.Lat == 0 || x.CoordSource == "" || x.Operator.Value == "" || x.Operator.Source == "" {
			t.Errorf("%s/%s: %+v", x.Sector, x.ID, x)
		}
		if x.Capacity.Source == "" || x.Status.Source == "" || x.StartYear.Source == "" {
			t.Errorf("%s: a value without source", x.ID)
		}
	}
	byID := map[string]Terminal{}
	for _, x := range lng {
		byID[x.ID] = x
		if !strings.Contains(x.Capacity.Source, "CC BY 4.0") {
			t.Errorf("%s: no attribution in %q", x.ID, x.Capacity.Source)
		}
	}
	// Sabine Pass: the six operating export trains, 5 × 5 + 4.5 Mtpa, from 2016
	// (the import terminal and the proposed Stage 5 are left out).
	sp := byID["sabine-pass"]
	if sp.Capacity.Value == nil || *sp.Capacity.Value != 29.5 || *sp.StartYear.Value != 2016 || sp.Projects[0].Trains != 6 {
		t.Errorf("sabine pass: %v %v %+v", *sp.Capacity.Value, *sp.StartYear.Value, sp.Projects)
	}
	// Bonny: NLNG T1–T6 operating (3 × 3.3 + 3 × 4.1 = 22.2), T7 under construction.
	if b := byID["bonny"]; *b.Capacity.Value != 22.2 || *b.StartYear.Value != 1999 || b.Status.Value != "operating" {
		t.Errorf("bonny: %v %v", *b.Capacity.Value, *b.StartYear.Value)
	}
	// Ras Laffan: Qatargas 1–2 and RasGas, 14 operating trains.
	trains := 0
	for _, p := range byID["ras-laffan"].Projects {
		trains += p.Trains
	}
	if trains != 14 {
		t.Errorf("ras laffan: %d trains", trains)
	}
	// Dampier is a terminal of each sector, with the berth of its commodity.
	if d := byID["dampier"]; d.CommodityOf("dampier-berth-2") != "lng" || d.CommodityOf("dampier-berth-1") != "" {
		t.Errorf("dampier lng berths %v", d.Berths)
	}
	var tub Terminal
	for _, x := range mining {
		if x.ID == "tubarao" {
			tub = x
		}
	}
	if tub.CommodityOf("tubarao-berth-1") != "iron_ore" || tub.CommodityOf("tubarao-berth-2") != "coal" {
		t.Errorf("tubarao berths %v", tub.Berths)
	}
}

// The full tracker sheet and the iron-ore WPI extract parse (real bytes).
func TestParseRealFiles(t *testing.T) {
	b, err := os.ReadFile("testdata/gem_ggit_lng_terminals_2024-01.main_sheet.csv")
	if err != nil {
		t.Fatal(err)
	}
	units, err := ParseGEM(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	noCoord, ops := 0, 0
	for _, u := range units {
		if u.Lat == nil {
			noCoord++
		}
		if u.Status == "Operating" {
			ops++
		}
	}
	if len(units) != 1256 || noCoord != 5 || ops != 374 {
		t.Errorf("%d units, %d without coordinates, %d operating", len(units), noCoord, ops)
	}
	w, err := os.ReadFile("testdata/iron_ore_export_ports_wpi_extract.csv")
	if err != nil {
		t.Fatal(err)
	}
	ports, err := ParseWPI(bytes.NewReader(w))
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) != 15 || ports[0].Name == "" {
		t.Fatalf("%d ports", len(ports))
	}
	found := false
	for _, p := range ports {
		if p.Name == "Port Hedland" && p.LOCODE == "AUPHE" && p.Number == 54620 {
			found = true
		}
	}
	if !found {
		t.Errorf("no Port Hedland in %+v", ports)
	}
	for _, bad := range []string{"", "TerminalID\n", "TerminalID,ComboID\nT1,T1\n"} {
		if _, err := ParseGEM(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseGEM(%q): no error", bad)
		}
		if _, err := ParseWPI(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseWPI(%q): no error", bad)
		}
	}
}

// The LNG model: capacity × fill × density from the deadweight.
func TestLNGCargo(t *testing.T) {
	if got := LNGCargoTonnes(87000); got != 63072 { // 139,200 m³ × 0.985 × 0.46
		t.Errorf("LNGCargoTonnes(87000) = %v", got)
	}
	if LNGCargoTonnes(0) != 0 || LNGCargoTonnes(-1) != 0 {
		t.Error("no deadweight, no cargo")
	}
}

func TestSummarise(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	at := func(h int) *time.Time { x := now.Add(time.Duration(h) * time.Hour); return &x }
	stale, fresh := now.Add(-30*time.Hour), now.Add(-time.Hour)
	calls := []Call{
		{IMO: 1, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-72 * time.Hour), Departure: at(-24), Operation: "load", CargoTonnes: 150000},
		{IMO: 2, Port: "tubarao", BerthZone: "tubarao-berth-2", Arrival: now.Add(-72 * time.Hour), Departure: at(-2), Operation: "load", CargoTonnes: 60000},
		{IMO: 3, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-300 * time.Hour), Departure: at(-200), Operation: "load", CargoTonnes: 1},
		{IMO: 4, Port: "tubarao", BerthZone: "", Category: "cargo", Arrival: now.Add(-5 * time.Hour)},
		{IMO: 5, Port: "tubarao", BerthZone: "", Category: "tanker", Arrival: now.Add(-5 * time.Hour)},
		{IMO: 6, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-5 * time.Hour), Departure: at(3)},
		{IMO: 8, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-90 * time.Hour), Seen: &stale, SeenLat: -20.29, SeenLon: -40.25},
		{IMO: 9, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-90 * time.Hour), Seen: &fresh, SeenLat: -25, SeenLon: -40.25},
		{IMO: 10, Port: "tubarao", BerthZone: "tubarao-berth-1", Arrival: now.Add(-90 * time.Hour), Seen: &fresh, SeenLat: -20.29, SeenLon: -40.25},
		{IMO: 7, Port: "dampier", BerthZone: "dampier-berth-2", Arrival: now.Add(-30 * time.Hour), Departure: at(-1), Operation: "none", DWTEstimate: 87000},
	}
	m := Summarise(Mining(), calls, now)
	for _, a := range m {
		switch a.Terminal.ID {
		case "tubarao":
			if a.Departures != 2 || a.ByCommodity["coal"] != 1 || a.ByCommodity["iron_ore"] != 1 || a.VolumeTonnes != 210000 || a.CarriersNow != 3 {
				t.Errorf("tubarao %+v", a)
			}
		case "dampier":
			if a.Departures != 0 || a.Active() {
				t.Errorf("mining dampier counts the LNG jetty: %+v", a)
			}
		}
	}
	for _, a := range Summarise(LNG(), calls, now) {
		if a.Terminal.ID == "dampier" && (a.Departures != 1 || a.VolumeTonnes != 63072) {
			t.Errorf("lng dampier %+v", a)
		}
	}
}

func FuzzParseGEM(f *testing.F) {
	for _, p := range []string{"data/gem_lng_terminals_selected.csv", "testdata/gem_ggit_lng_terminals_2024-01.main_sheet.csv"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 20000 {
			b = b[:20000]
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		units, err := ParseGEM(bytes.NewReader(b))
		if err == nil {
			for _, u := range units {
				if u.TerminalID == "" || u.ComboID == "" {
					t.Fatal("unit without id")
				}
			}
		}
	})
}

func FuzzParseWPI(f *testing.F) {
	for _, p := range []string{"data/wpi_terminal_ports.csv", "testdata/iron_ore_export_ports_wpi_extract.csv"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ports, err := ParseWPI(bytes.NewReader(b))
		if err == nil {
			for _, p := range ports {
				if p.Number <= 0 || p.Name == "" {
					t.Fatal("port without number or name")
				}
			}
		}
	})
}
