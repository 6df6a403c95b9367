// Package terminals holds the LNG and mining export terminals of the
// GET /v1/lng and GET /v1/mining dashboards: their metadata (LNG from the
// Global Energy Monitor LNG terminal tracker, mining from the World Port
// Index and the operators' published capacities, each value with its
// source), their mapping onto the service's ports and berth zones
// (maritime/seaport), and the volume models of their departures.
package terminals

import (
	"bytes"
	_ "embed" // the bundled metadata
	"fmt"
	"sort"
	"strings"
	"sync"

	"overwatch"
	"overwatch/maritime/seaport"
)

// Sectors of the dashboards.
const (
	SectorLNG    = "lng"
	SectorMining = "mining"
)

// GEMAttribution is the citation the tracker's CC BY 4.0 licence asks for.
const GEMAttribution = "Global Energy Monitor, Global Gas Infrastructure Tracker, January 2024 release (CC BY 4.0)"

// WPIAttribution names the World Port Index the mining coordinates come from.
const WPIAttribution = "NGA World Port Index (Pub. 150), public domain"

//go:embed data/gem_lng_terminals_selected.csv
var gemCSV []byte

//go:embed data/wpi_terminal_ports.csv
var wpiCSV []byte

// Project is one GEM terminal (a TerminalID) of an LNG export terminal.
type Project struct {
	GEMTerminalID  string   `json:"gem_terminal_id"`
	Name           string   `json:"name"`
	Owners         string   `json:"owners"`
	Trains         int      `json:"operating_trains"`
	CapacityMtpa   *float64 `json:"operating_capacity_mtpa"`
	FirstStartYear *int     `json:"first_start_year"`
}

// Terminal is one terminal of a dashboard. Its ID is the service port's
// slug (Dampier is a terminal of each sector). Berths are the port's berth
// zones that handle the terminal's commodities; a call at one of them is a
// call at the terminal.
type Terminal struct {
	ID          string
	Sector      string
	Name        string
	Port        seaport.Port
	Commodities []string
	Berths      map[string]string // berth zone id → the commodity it handles
	Operator    Value[string]
	Capacity    Value[*float64] // million tonnes per year
	Status      Value[string]
	StartYear   Value[*int]
	Lat, Lon    float64
	CoordSource string
	Projects    []Project // LNG only
}

// Value is a metadata value with its source.
type Value[T any] struct {
	Value  T      `json:"value"`
	Source string `json:"source"`
}

// The terminals of each sector, in the order the dashboards list them.
var (
	lngPorts    = []string{"ras-laffan", "sabine-pass", "bonny", "gladstone-curtis-island", "dampier"}
	miningPorts = []string{"port-hedland", "dampier", "ponta-da-madeira", "tubarao", "hay-point", "newcastle", "richards-bay", "qinhuangdao"}
)

// gemTerminals are the GEM TerminalIDs of each LNG terminal (export
// facilities only): Ras Laffan's Qatargas 1–2 and RasGas units; Sabine
// Pass; Nigeria LNG at Bonny; the three Curtis Island plants (APLNG,
// QCLNG, GLNG); Dampier's North West Shelf and Pluto.
var gemTerminals = map[string][]string{
	"ras-laffan":              {"T0594", "T0595", "T0596", "T0597", "T0598", "T0599", "T0600"},
	"sabine-pass":             {"T0240"},
	"bonny":                   {"T0259"},
	"gladstone-curtis-island": {"T0327", "T0340", "T0333"},
	"dampier":                 {"T0337", "T0338"},
}

var (
	loadOnce sync.Once
	lngList  []Terminal
	mineList []Terminal
	loadErr  error
)

func load() {
	gem, err := ParseGEM(bytes.NewReader(gemCSV))
	if err != nil {
		loadErr = err
		return
	}
	wpi, err := ParseWPI(bytes.NewReader(wpiCSV))
	if err != nil {
		loadErr = err
		return
	}
	for _, slug := range lngPorts {
		t, err := lngTerminal(slug, gem)
		if err != nil {
			loadErr = err
			return
		}
		lngList = append(lngList, t)
	}
	for _, slug := range miningPorts {
		t, err := miningTerminal(slug, wpi)
		if err != nil {
			loadErr = err
			return
		}
		mineList = append(mineList, t)
	}
}

// LNG returns the five LNG export terminals.
func LNG() []Terminal {
	loadOnce.Do(load)
	if loadErr != nil {
		panic("terminals: bundled metadata: " + loadErr.Error()) // tested: the embedded files parse
	}
	return lngList
}

// Mining returns the eight iron-ore and coal export terminals.
func Mining() []Terminal {
	loadOnce.Do(load)
	if loadErr != nil {
		panic("terminals: bundled metadata: " + loadErr.Error())
	}
	return mineList
}

// Of returns the terminals of a sector (SectorLNG or SectorMining).
func Of(sector string) []Terminal {
	if sector == SectorLNG {
		return LNG()
	}
	return Mining()
}

// newTerminal maps the service port and its berth zones of the commodities.
func newTerminal(sector, slug string, commodities ...string) (Terminal, error) {
	p, ok := seaport.BySlug(slug)
	if !ok {
		return Terminal{}, fmt.Errorf("terminals: no service port %q", slug)
	}
	t := Terminal{ID: slug, Sector: sector, Port: p, Berths: map[string]string{}}
	seen := map[string]bool{}
	for _, b := range p.Berths {
		for _, c := range commodities {
			if b.Handles(c) {
				t.Berths[b.ID] = c
				seen[c] = true
				break
			}
		}
	}
	for _, c := range commodities {
		if seen[c] {
			t.Commodities = append(t.Commodities, c)
		}
	}
	if len(t.Berths) == 0 {
		return Terminal{}, fmt.Errorf("terminals: port %q has no berth of %v", slug, commodities)
	}
	return t, nil
}

// lngTerminal builds an LNG terminal from its GEM export units: operating
// capacity the sum of the operating units' CapacityInMtpa, start year the
// earliest operating unit's, coordinates the first operating unit's.
func lngTerminal(slug string, gem []GEMUnit) (Terminal, error) {
	t, err := newTerminal(SectorLNG, slug, overwatch.CommodityLNG)
	if err != nil {
		return t, err
	}
	ids := map[string]bool{}
	for _, id := range gemTerminals[slug] {
		ids[id] = true
	}
	byID := map[string]*Project{}
	var order []string
	var capSum float64
	var first *int
	haveCoord, operating := false, false
	var owners []string
	for _, u := range gem {
		if !ids[u.TerminalID] || u.FacilityType != "Export" {
			continue
		}
		pr := byID[u.TerminalID]
		if pr == nil {
			pr = &Project{GEMTerminalID: u.TerminalID, Name: u.TerminalName, Owners: u.Owner}
			byID[u.TerminalID] = pr
			order = append(order, u.TerminalID)
		}
		if u.Status != "Operating" {
			continue
		}
		operating = true
		pr.Trains++
		if u.CapacityMtpa != nil {
			c := *u.CapacityMtpa
			if pr.CapacityMtpa != nil {
				c += *pr.CapacityMtpa
			}
			pr.CapacityMtpa = round2(c)
			capSum += *u.CapacityMtpa
		}
		if u.StartYear > 0 {
			y := u.StartYear
			if pr.FirstStartYear == nil || y < *pr.FirstStartYear {
				pr.FirstStartYear = &y
			}
			if first == nil || y < *first {
				first = &y
			}
		}
		if !haveCoord && u.Lat != nil && u.Lon != nil {
			t.Lat, t.Lon, haveCoord = *u.Lat, *u.Lon, true
		}
		if !contains(owners, u.Owner) {
			owners = append(owners, u.Owner)
		}
	}
	if len(order) == 0 || !haveCoord {
		return t, fmt.Errorf("terminals: no operating GEM export unit with coordinates for %q", slug)
	}
	for _, id := range order {
		t.Projects = append(t.Projects, *byID[id])
	}
	names := make([]string, len(t.Projects))
	for i, p := range t.Projects {
		names[i] = p.Name
	}
	t.Name = t.Port.Name
	src := GEMAttribution + ": TerminalID " + strings.Join(gemTerminals[slug], ", ")
	t.Operator = Value[string]{Value: strings.Join(owners, " | "), Source: src + " (Owner of the operating units)"}
	t.Capacity = Value[*float64]{Value: round2(capSum), Source: src + " (sum of CapacityInMtpa of the operating units)"}
	status := "not operating"
	if operating {
		status = "operating"
	}
	t.Status = Value[string]{Value: status, Source: src + " (Status)"}
	t.StartYear = Value[*int]{Value: first, Source: src + " (earliest StartYear1 of the operating units)"}
	t.CoordSource = src + " (Latitude, Longitude)"
	return t, nil
}

// miningTerminal builds a mining terminal from its WPI row and the
// operator table (operators.go).
func miningTerminal(slug string, wpi []WPIPort) (Terminal, error) {
	m, ok := miningMeta[slug]
	if !ok {
		return Terminal{}, fmt.Errorf("terminals: no metadata for %q", slug)
	}
	t, err := newTerminal(SectorMining, slug, overwatch.CommodityIronOre, overwatch.CommodityCoal)
	if err != nil {
		return t, err
	}
	var row *WPIPort
	for i := range wpi {
		if wpi[i].Number == t.Port.WPINumber {
			row = &wpi[i]
		}
	}
	if row == nil {
		return t, fmt.Errorf("terminals: no WPI row %d for %q", t.Port.WPINumber, slug)
	}
	t.Name = t.Port.Name
	t.Lat, t.Lon = row.Lat, row.Lon
	t.CoordSource = fmt.Sprintf("%s: World Port Index Number %d (%s), the port's reference point", WPIAttribution, row.Number, row.Name)
	t.Operator, t.Capacity, t.Status, t.StartYear = m.Operator, m.Capacity, m.Status, m.StartYear
	return t, nil
}

// CommodityOf is the commodity of a call at the terminal's berth zone, ""
// when the zone is not one of the terminal's.
func (t Terminal) CommodityOf(berthZone string) string { return t.Berths[berthZone] }

// BerthIDs are the terminal's berth zones, sorted.
func (t Terminal) BerthIDs() []string {
	out := make([]string, 0, len(t.Berths))
	for id := range t.Berths {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func round2(v float64) *float64 {
	r := float64(int64(v*100+0.5)) / 100
	return &r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
