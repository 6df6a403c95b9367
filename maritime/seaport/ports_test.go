package seaport

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"overwatch"
	"overwatch/maritime/geo"
)

// Rules the reference port data in ports.json must keep. The land rule
// (anchorage centres of non-river ports at sea, berth centres on or within
// 1.5 km of the water on the Natural Earth 1:10m land mask) is checked by
// TestLandPortAnchorages and TestPortBerthsAtTheWater.

const (
	refPortCount      = 40
	refLNGCount       = 5
	refMiningCount    = 8
	refMaxRiverPorts  = 3
	refMaxWPIOffsetKM = 25.0
	refAnchMinKM      = 1.5
	refAnchMaxKM      = 6.0
	refBerthMinKM     = 0.5
	refBerthMaxKM     = 3.0
	refMaxCapacity    = 12
	refAnchBerthMinKM = 2.0
	// Liquid and LNG trades the fleet simulator runs between the ports.
	refMinCrudeLoaders  = 3 // ports loading crude oil (refCrudeLoaders)
	refMinCrudeTakers   = 5 // other ports whose berths take crude oil
	refMinProductPorts  = 6 // ports whose berths handle refined products
	refMinLNGOtherPorts = 6 // ports handling LNG besides the LNG terminals
	// Dry-bulk trades: the iron-ore and coal terminals load; these ports take.
	refMinIronOreTakers = 4 // ports besides the iron_ore terminals whose berths handle iron ore
	refMinCoalTakers    = 5 // ports besides the coal terminals whose berths handle coal
	// refGoldenSlug's ID is fixed: it is stored by clients, so it must never
	// change (nor must portNamespace).
	refGoldenSlug = "santos"
	refGoldenID   = "bff9cfc8-536e-572f-af8f-a9f9142b9ff4"
)

var (
	refSlugRE   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	refLOCODERE = regexp.MustCompile(`^[A-Z]{2}[A-Z2-9]{3}$`)
	refUUIDv5RE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

	// ISO 3166-1 alpha-2 codes of the countries of the reference ports.
	refCountries = map[string]string{
		"AR": "Argentina", "AU": "Australia", "BE": "Belgium", "BR": "Brazil",
		"CA": "Canada", "CN": "China", "EG": "Egypt", "FR": "France",
		"ID": "Indonesia", "IN": "India", "JP": "Japan", "KR": "South Korea",
		"NG": "Nigeria", "NL": "Netherlands", "QA": "Qatar", "RO": "Romania",
		"RU": "Russia", "SA": "Saudi Arabia", "UA": "Ukraine", "US": "United States",
		"ZA": "South Africa",
	}
	refRegions = map[string]bool{
		"us-gulf": true, "pacific-northwest": true, "east-coast-south-america": true,
		"black-sea": true, "baltic": true, "northwest-europe": true, "china": true,
		"north-asia": true, "southeast-asia": true, "india": true, "middle-east": true,
		"australia": true, "africa": true,
	}
	refKinds = map[string]bool{
		KindGrainExport: true, KindGrainImport: true, KindLNGExport: true, KindLNGImport: true,
		KindIronOre: true, KindCoal: true, KindMultiBulk: true,
	}
	refCommodities = map[string]bool{
		overwatch.CommodityGrain: true, overwatch.CommodityOilseeds: true, overwatch.CommodityLNG: true, overwatch.CommodityIronOre: true,
		overwatch.CommodityCoal: true, overwatch.CommodityCrude: true, overwatch.CommodityProducts: true, overwatch.CommodityContainers: true,
	}
	// The LNG terminals and the mining terminals, with their kinds: the
	// kinds of these ports, and which ports they are, do not change.
	refLNGKinds = map[string]string{
		"bonny": KindLNGExport, "gladstone-curtis-island": KindLNGExport, "ras-laffan": KindLNGExport,
		"sabine-pass": KindLNGExport, "zeebrugge": KindLNGImport,
	}
	refMiningKinds = map[string]string{
		"dampier": KindIronOre, "ponta-da-madeira": KindIronOre, "port-hedland": KindIronOre, "tubarao": KindIronOre,
		"hay-point": KindCoal, "newcastle": KindCoal, "qinhuangdao": KindCoal, "richards-bay": KindCoal,
	}
	// Ports that load crude oil (as the fleet simulator has it); every other
	// port whose berths handle crude oil takes it.
	refCrudeLoaders = []string{"bonny", "novorossiysk", "ras-laffan"}
	// WPI rows whose UN/LOCODE column is not the official code: WPI number ->
	// the WPI spelling (spaces removed). Every other row must give the port's
	// code, spelled "US SAB" or "USSAB".
	refWPIUnofficialLOCODE = map[int]string{
		60140: "CNQIN", // Qingdao, official CNTAO
		60250: "CNDAL", // Dalian, official CNDLC
		59970: "CNSGH", // Shanghai, official CNSHA
	}
)

// refWPIRow is what the tests use of a row of testdata/wpi_ports.csv.
type refWPIRow struct {
	name     string
	locode   string
	lat, lon float64
}

// wpiRecord is a row of the WPI extract, its columns named by the file's
// header (gocsv's mapping); the rest of its columns are not read.
type wpiRecord struct {
	Number float64 `csv:"World Port Index Number"`
	Name   string  `csv:"Main Port Name"`
	LOCODE string  `csv:"UN/LOCODE"`
	Lat    float64 `csv:"Latitude"`
	Lon    float64 `csv:"Longitude"`
}

func refLoadWPI(t *testing.T) map[int]refWPIRow {
	t.Helper()
	raw, err := os.ReadFile("testdata/wpi_ports.csv")
	if err != nil {
		t.Fatalf("testdata/wpi_ports.csv: %v", err)
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	var recs []wpiRecord
	if err := gocsv.UnmarshalBytes(raw, &recs); err != nil {
		t.Fatalf("testdata/wpi_ports.csv: %v", err)
	}
	if len(recs) == 0 || recs[0].Number == 0 || recs[0].Name == "" {
		t.Fatalf("testdata/wpi_ports.csv: no rows, or not the columns the test reads: %+v", recs)
	}
	rows := map[int]refWPIRow{}
	for _, r := range recs {
		n := int(r.Number)
		if _, dup := rows[n]; dup {
			t.Fatalf("testdata/wpi_ports.csv: WPI number %d twice", n)
		}
		rows[n] = refWPIRow{name: r.Name, locode: strings.ReplaceAll(r.LOCODE, " ", ""), lat: r.Lat, lon: r.Lon}
	}
	return rows
}

// refZones returns the anchorages and berths of the port, with their kind.
func refZones(p Port) (zones []Zone, kinds []string) {
	for _, z := range p.Anchorages {
		zones, kinds = append(zones, z), append(kinds, "anchorage")
	}
	for _, z := range p.Berths {
		zones, kinds = append(zones, z), append(kinds, "berth")
	}
	return zones, kinds
}

func TestReferencePortsJSONShape(t *testing.T) {
	t.Parallel()
	// The ID is derived from the slug at load time, so ports.json must not
	// carry one; and every field must be one that Port knows.
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(portsJSON, &raw); err != nil {
		t.Fatalf("ports.json: %v", err)
	}
	for i, obj := range raw {
		if _, ok := obj["id"]; ok {
			t.Errorf("ports.json entry %d: has an \"id\"; IDs are computed from the slug, leave it out", i)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(portsJSON))
	dec.DisallowUnknownFields()
	var ports []Port
	if err := dec.Decode(&ports); err != nil {
		t.Fatalf("ports.json has a field Port does not know: %v", err)
	}
}

func TestReferencePortsCountAndComposition(t *testing.T) {
	t.Parallel()
	ports := All()
	if len(ports) != refPortCount {
		t.Fatalf("rule: exactly %d ports; ports.json has %d", refPortCount, len(ports))
	}
	var lng, mining, river int
	for _, p := range ports {
		switch {
		case p.IsLNG():
			lng++
		case p.IsMining():
			mining++
		case p.Kind == KindGrainExport || p.Kind == KindGrainImport || p.Kind == KindMultiBulk:
		default:
			t.Errorf("port %s: rule: kind is LNG, mining, grain or multipurpose; got %q", p.Slug, p.Kind)
		}
		if p.River {
			river++
		}
	}
	if lng != refLNGCount {
		t.Errorf("rule: exactly %d LNG terminals (IsLNG); got %d", refLNGCount, lng)
	}
	if mining != refMiningCount {
		t.Errorf("rule: exactly %d iron-ore and coal terminals (IsMining); got %d", refMiningCount, mining)
	}
	if river > refMaxRiverPorts {
		t.Errorf("rule: at most %d river ports; got %d", refMaxRiverPorts, river)
	}
}

func TestReferencePortsFields(t *testing.T) {
	t.Parallel()
	slugs, names, locodes, zoneIDs, wpis := map[string]bool{}, map[string]string{}, map[string]string{}, map[string]string{}, map[int]string{}
	for _, p := range All() {
		s := p.Slug
		if !refSlugRE.MatchString(s) {
			t.Errorf("port %q: rule: slug is lower-case words joined by hyphens", s)
		}
		if slugs[s] {
			t.Errorf("port %s: rule: slugs are unique; slug used twice", s)
		}
		slugs[s] = true
		if strings.TrimSpace(p.Name) == "" {
			t.Errorf("port %s: rule: name is set", s)
		}
		if other, ok := names[p.Name]; ok {
			t.Errorf("port %s: rule: names are unique; %q is also the name of %s", s, p.Name, other)
		}
		names[p.Name] = s
		if _, ok := refCountries[p.Country]; !ok {
			t.Errorf("port %s: rule: country is an ISO 3166-1 alpha-2 code of the list; got %q", s, p.Country)
		}
		if !refRegions[p.Region] {
			t.Errorf("port %s: rule: region is one of the allowed regions; got %q", s, p.Region)
		}
		if !refLOCODERE.MatchString(p.LOCODE) {
			t.Errorf("port %s: rule: LOCODE is 5 characters, country then 3 of A-Z, 2-9; got %q", s, p.LOCODE)
		}
		if !strings.HasPrefix(p.LOCODE, p.Country) {
			t.Errorf("port %s: rule: LOCODE %q starts with the country code %q", s, p.LOCODE, p.Country)
		}
		if other, ok := locodes[p.LOCODE]; ok {
			t.Errorf("port %s: rule: LOCODEs are unique; %s is also the LOCODE of %s", s, p.LOCODE, other)
		}
		locodes[p.LOCODE] = s
		if p.WPINumber <= 0 {
			t.Errorf("port %s: rule: wpi_number is set", s)
		} else if other, ok := wpis[p.WPINumber]; ok {
			t.Errorf("port %s: rule: WPI numbers are unique; %d is also the WPI row of %s", s, p.WPINumber, other)
		}
		wpis[p.WPINumber] = s
		if p.Lat < -90 || p.Lat > 90 || p.Lon < -180 || p.Lon > 180 {
			t.Errorf("port %s: rule: latitude/longitude in range; got %v, %v", s, p.Lat, p.Lon)
		}
		if !refKinds[p.Kind] {
			t.Errorf("port %s: rule: kind is one of the Kind constants; got %q", s, p.Kind)
		}
		if len(p.Commodities) == 0 {
			t.Errorf("port %s: rule: at least one commodity", s)
		}
		seen := map[string]bool{}
		for _, c := range p.Commodities {
			if !refCommodities[c] {
				t.Errorf("port %s: rule: commodities are Commodity constants; got %q", s, c)
			}
			if seen[c] {
				t.Errorf("port %s: rule: commodities are listed once; %q twice", s, c)
			}
			seen[c] = true
		}
		switch p.Kind {
		case KindLNGExport, KindLNGImport:
			if !seen[overwatch.CommodityLNG] {
				t.Errorf("port %s: rule: an LNG terminal carries %q", s, overwatch.CommodityLNG)
			}
		case KindIronOre:
			if !seen[overwatch.CommodityIronOre] {
				t.Errorf("port %s: rule: an iron-ore terminal carries %q", s, overwatch.CommodityIronOre)
			}
		case KindCoal:
			if !seen[overwatch.CommodityCoal] {
				t.Errorf("port %s: rule: a coal terminal carries %q", s, overwatch.CommodityCoal)
			}
		case KindGrainExport, KindGrainImport:
			if !seen[overwatch.CommodityGrain] {
				t.Errorf("port %s: rule: a grain port carries %q", s, overwatch.CommodityGrain)
			}
		}
		if p.MaxDraftM < 8 || p.MaxDraftM > 25 {
			t.Errorf("port %s: rule: max_draft_m is a realistic draught (8-25 m); got %v", s, p.MaxDraftM)
		}

		// Zone IDs: <slug>-area, <slug>-anch-<n>, <slug>-berth-<n>, unique
		// across all ports; every zone is named.
		want := []string{s + "-area"}
		got := []string{p.Area.ID}
		for i, z := range p.Anchorages {
			want, got = append(want, fmt.Sprintf("%s-anch-%d", s, i+1)), append(got, z.ID)
		}
		for i, z := range p.Berths {
			want, got = append(want, fmt.Sprintf("%s-berth-%d", s, i+1)), append(got, z.ID)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("port %s: rule: zone IDs are <slug>-area, <slug>-anch-<n>, <slug>-berth-<n>; got %q, want %q", s, got[i], want[i])
			}
			if other, ok := zoneIDs[got[i]]; ok {
				t.Errorf("port %s: rule: zone IDs are unique; %q is also used by %s", s, got[i], other)
			}
			zoneIDs[got[i]] = s
		}
		for _, z := range append([]Zone{p.Area}, append(append([]Zone{}, p.Anchorages...), p.Berths...)...) {
			if strings.TrimSpace(z.Name) == "" {
				t.Errorf("port %s: zone %s: rule: zones are named", s, z.ID)
			}
		}
	}
}

func TestReferencePortsZones(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		s := p.Slug
		if p.Area.RadiusKM <= 0 {
			t.Errorf("port %s: rule: the area has a radius", s)
		}
		if p.Area.Capacity != 0 {
			t.Errorf("port %s: rule: only berths have a capacity; the area has %d", s, p.Area.Capacity)
		}
		if len(p.Anchorages) == 0 {
			t.Errorf("port %s: rule: at least one anchorage", s)
		}
		if len(p.Berths) == 0 {
			t.Errorf("port %s: rule: at least one berth zone", s)
		}
		for _, a := range p.Anchorages {
			if a.RadiusKM < refAnchMinKM || a.RadiusKM > refAnchMaxKM {
				t.Errorf("port %s: anchorage %s: rule: radius %v-%v km; got %v", s, a.ID, refAnchMinKM, refAnchMaxKM, a.RadiusKM)
			}
			if a.Capacity != 0 {
				t.Errorf("port %s: anchorage %s: rule: only berths have a capacity; got %d", s, a.ID, a.Capacity)
			}
			for _, b := range p.Berths {
				if d := geo.DistanceKM(a.Lat, a.Lon, b.Lat, b.Lon); d < refAnchBerthMinKM {
					t.Errorf("port %s: anchorage %s: rule: at least %v km from every berth centre; %.2f km from %s", s, a.ID, refAnchBerthMinKM, d, b.ID)
				}
			}
		}
		for _, b := range p.Berths {
			if b.RadiusKM < refBerthMinKM || b.RadiusKM > refBerthMaxKM {
				t.Errorf("port %s: berth %s: rule: radius %v-%v km; got %v", s, b.ID, refBerthMinKM, refBerthMaxKM, b.RadiusKM)
			}
			if b.Capacity < 1 || b.Capacity > refMaxCapacity {
				t.Errorf("port %s: berth %s: rule: capacity 1-%d; got %d", s, b.ID, refMaxCapacity, b.Capacity)
			}
		}
		zones, kinds := refZones(p)
		for i, z := range zones {
			// Wholly inside the area: centre distance + radius <= area radius.
			if d := geo.DistanceKM(p.Area.Lat, p.Area.Lon, z.Lat, z.Lon); d+z.RadiusKM > p.Area.RadiusKM {
				t.Errorf("port %s: %s %s: rule: lies wholly inside the area; %.2f km + %.2f km > %.2f km",
					s, kinds[i], z.ID, d, z.RadiusKM, p.Area.RadiusKM)
			}
			// No two zones of a port overlap, so a ship is in one at a time.
			for j := i + 1; j < len(zones); j++ {
				o := zones[j]
				if d := geo.DistanceKM(z.Lat, z.Lon, o.Lat, o.Lon); d <= z.RadiusKM+o.RadiusKM {
					t.Errorf("port %s: rule: zones do not overlap; %s %s and %s %s are %.2f km apart, radii %.2f + %.2f km",
						s, kinds[i], z.ID, kinds[j], o.ID, d, z.RadiusKM, o.RadiusKM)
				}
			}
		}
	}
}

func TestReferencePortsAreasDisjoint(t *testing.T) {
	t.Parallel()
	ports := All()
	for i, p := range ports {
		for _, q := range ports[i+1:] {
			d := geo.DistanceKM(p.Area.Lat, p.Area.Lon, q.Area.Lat, q.Area.Lon)
			if d <= p.Area.RadiusKM+q.Area.RadiusKM {
				t.Errorf("ports %s and %s: rule: port areas do not overlap; centres %.1f km apart, radii %.1f + %.1f km",
					p.Slug, q.Slug, d, p.Area.RadiusKM, q.Area.RadiusKM)
			}
		}
	}
	// So every point belongs to at most one port: check it on the zone centres.
	for _, p := range ports {
		zones, _ := refZones(p)
		for _, z := range append(zones, p.Area) {
			var in []string
			for _, q := range ports {
				if q.Area.Contains(z.Lat, z.Lon) {
					in = append(in, q.Slug)
				}
			}
			if len(in) != 1 || in[0] != p.Slug {
				t.Errorf("port %s: zone %s: rule: its centre lies in its own port's area only; in %v", p.Slug, z.ID, in)
			}
		}
	}
}

func TestReferencePortsMatchWPI(t *testing.T) {
	t.Parallel()
	wpi := refLoadWPI(t)
	ports := All()
	if len(wpi) != len(ports) {
		t.Errorf("rule: testdata/wpi_ports.csv has one row per port; %d rows for %d ports", len(wpi), len(ports))
	}
	used := map[int]bool{}
	for _, p := range ports {
		row, ok := wpi[p.WPINumber]
		if !ok {
			t.Errorf("port %s: rule: wpi_number %d is a row of testdata/wpi_ports.csv", p.Slug, p.WPINumber)
			continue
		}
		used[p.WPINumber] = true
		if d := geo.DistanceKM(p.Lat, p.Lon, row.lat, row.lon); d > refMaxWPIOffsetKM {
			t.Errorf("port %s: rule: within %v km of its WPI row (%d %s); %.1f km away",
				p.Slug, refMaxWPIOffsetKM, p.WPINumber, row.name, d)
		}
		if bad, ok := refWPIUnofficialLOCODE[p.WPINumber]; ok {
			if row.locode != bad {
				t.Errorf("port %s: WPI row %d: its UN/LOCODE is %q now, not the unofficial %q: review the LOCODE", p.Slug, p.WPINumber, row.locode, bad)
			}
			if p.LOCODE == bad {
				t.Errorf("port %s: rule: official LOCODE, not the WPI's unofficial %q", p.Slug, bad)
			}
		} else if row.locode != p.LOCODE {
			t.Errorf("port %s: rule: LOCODE matches its WPI row (%d %s) unless listed as unofficial; WPI %q, port %q",
				p.Slug, p.WPINumber, row.name, row.locode, p.LOCODE)
		}
	}
	for n := range wpi {
		if !used[n] {
			t.Errorf("testdata/wpi_ports.csv: rule: every row is a reference port's; row %d is no port's", n)
		}
	}
}

func TestReferencePortsLookup(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		if got, ok := BySlug(p.Slug); !ok || got.Slug != p.Slug || got.ID != p.ID {
			t.Errorf("port %s: rule: PortBySlug finds it by slug; got %q, %v", p.Slug, got.Slug, ok)
		}
		if got, ok := ByRef(p.Slug); !ok || got.Slug != p.Slug {
			t.Errorf("port %s: rule: PortByRef finds it by slug; got %q, %v", p.Slug, got.Slug, ok)
		}
		if got, ok := ByRef(p.ID); !ok || got.Slug != p.Slug {
			t.Errorf("port %s: rule: PortByRef finds it by ID %s; got %q, %v", p.Slug, p.ID, got.Slug, ok)
		}
		if got, ok := ByRef(strings.ToUpper(p.ID)); !ok || got.Slug != p.Slug {
			t.Errorf("port %s: rule: PortByRef finds it by ID in capitals; got %q, %v", p.Slug, got.Slug, ok)
		}
		if _, ok := BySlug(p.ID); ok {
			t.Errorf("port %s: rule: PortBySlug takes slugs only; it found the port by ID", p.Slug)
		}
	}
	for _, ref := range []string{"", "atlantis", "SANTOS", "00000000-0000-0000-0000-000000000000"} {
		if p, ok := ByRef(ref); ok {
			t.Errorf("PortByRef(%q): rule: no port for an unknown reference; found %s", ref, p.Slug)
		}
		if p, ok := BySlug(ref); ok {
			t.Errorf("PortBySlug(%q): rule: no port for an unknown slug; found %s", ref, p.Slug)
		}
	}
}

// refUUIDv5 is RFC 4122 name-based UUID version 5 (SHA-1), written with the
// standard library, to check the IDs independently of the uuid package.
func refUUIDv5(ns [16]byte, name string) string {
	h := sha1.New()
	h.Write(ns[:])
	h.Write([]byte(name))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	x := hex.EncodeToString(u[:])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

func TestReferencePortsIDs(t *testing.T) {
	t.Parallel()
	ids := map[string]string{}
	for _, p := range All() {
		if !refUUIDv5RE.MatchString(p.ID) {
			t.Errorf("port %s: rule: ID is a lower-case version-5 UUID; got %q", p.Slug, p.ID)
		}
		if other, ok := ids[p.ID]; ok {
			t.Errorf("port %s: rule: IDs are distinct; %s is also the ID of %s", p.Slug, p.ID, other)
		}
		ids[p.ID] = p.Slug
		if want := refUUIDv5(portNamespace, p.Slug); p.ID != want {
			t.Errorf("port %s: rule: ID is the SHA-1 UUID of the slug in portNamespace; got %s, want %s", p.Slug, p.ID, want)
		}
	}
	p, ok := BySlug(refGoldenSlug)
	if !ok {
		t.Fatalf("port %s: missing; it holds the golden ID", refGoldenSlug)
	}
	if p.ID != refGoldenID {
		t.Errorf("port %s: rule: IDs are stable; got %s, want the stored %s", p.Slug, p.ID, refGoldenID)
	}
}

func TestReferencePortsSorted(t *testing.T) {
	t.Parallel()
	ports := All()
	if !sort.SliceIsSorted(ports, func(i, j int) bool { return ports[i].Slug < ports[j].Slug }) {
		t.Errorf("rule: Ports() is sorted by slug")
	}
	for i := 1; i < len(ports); i++ {
		if ports[i-1].Slug >= ports[i].Slug {
			t.Errorf("ports %s and %s: rule: Ports() is in strictly increasing slug order", ports[i-1].Slug, ports[i].Slug)
		}
	}
}
