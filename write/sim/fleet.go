package sim

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"overwatch/maritime/vessel"

	"overwatch"
)

// Class is a kind of vessel in the simulated fleet, with the ranges its
// members are drawn from.
type Class struct {
	Name         string
	Share        float64 // of the fleet
	ShipType     uint8   // ITU-R M.1371 ship type
	Length       [2]float64
	Beam         [2]float64
	DesignDraft  [2]float64
	Speed        [2]float64 // service speed, knots
	BallastRatio float64    // ballast draught over design draught
	Cargo        []string   // commodities it carries
	LoadRate     float64    // tonnes per day alongside
	Tanker       bool
}

// Classes are the fleet's classes; shares sum to 1.
var Classes = []Class{
	{Name: "handysize", Share: 0.15, ShipType: 70, Length: [2]float64{170, 190}, Beam: [2]float64{27, 32}, DesignDraft: [2]float64{9.8, 10.8}, Speed: [2]float64{12, 14}, BallastRatio: 0.5, Cargo: []string{overwatch.CommodityGrain, overwatch.CommodityOilseeds}, LoadRate: 18000},
	{Name: "supramax", Share: 0.17, ShipType: 70, Length: [2]float64{185, 200}, Beam: [2]float64{32, 32.3}, DesignDraft: [2]float64{12.5, 13.3}, Speed: [2]float64{12.5, 14}, BallastRatio: 0.5, Cargo: []string{overwatch.CommodityGrain, overwatch.CommodityOilseeds, overwatch.CommodityCoal}, LoadRate: 25000},
	{Name: "panamax", Share: 0.15, ShipType: 70, Length: [2]float64{225, 229}, Beam: [2]float64{32.2, 32.3}, DesignDraft: [2]float64{13.8, 14.5}, Speed: [2]float64{12.5, 14}, BallastRatio: 0.5, Cargo: []string{overwatch.CommodityGrain, overwatch.CommodityCoal, overwatch.CommodityIronOre}, LoadRate: 30000},
	{Name: "capesize", Share: 0.10, ShipType: 70, Length: [2]float64{285, 300}, Beam: [2]float64{45, 50}, DesignDraft: [2]float64{17.5, 18.5}, Speed: [2]float64{12, 13.5}, BallastRatio: 0.45, Cargo: []string{overwatch.CommodityIronOre, overwatch.CommodityCoal}, LoadRate: 90000},
	{Name: "crude_tanker", Share: 0.10, ShipType: 80, Length: [2]float64{245, 275}, Beam: [2]float64{44, 48}, DesignDraft: [2]float64{14.8, 17.2}, Speed: [2]float64{13, 15}, BallastRatio: 0.5, Cargo: []string{overwatch.CommodityCrude}, LoadRate: 80000, Tanker: true},
	{Name: "product_tanker", Share: 0.12, ShipType: 80, Length: [2]float64{180, 228}, Beam: [2]float64{32.2, 32.3}, DesignDraft: [2]float64{12, 13.5}, Speed: [2]float64{13, 14.5}, BallastRatio: 0.5, Cargo: []string{overwatch.CommodityProducts}, LoadRate: 40000, Tanker: true},
	{Name: "lng_carrier", Share: 0.06, ShipType: 84, Length: [2]float64{285, 300}, Beam: [2]float64{46, 49}, DesignDraft: [2]float64{11.5, 12.5}, Speed: [2]float64{17, 19.5}, BallastRatio: 0.78, Cargo: []string{overwatch.CommodityLNG}, LoadRate: 70000},
	{Name: "container", Share: 0.15, ShipType: 71, Length: [2]float64{300, 366}, Beam: [2]float64{48, 51}, DesignDraft: [2]float64{14.5, 16}, Speed: [2]float64{16, 19}, BallastRatio: 0.8, Cargo: []string{overwatch.CommodityContainers}, LoadRate: 120000},
}

// Identity is what a vessel transmits about itself.
type Identity struct {
	MMSI     uint32 `json:"mmsi"`
	Name     string `json:"name"`
	CallSign string `json:"call_sign"`
	Flag     string `json:"flag"`
}

// Vessel is one simulated ship.
type Vessel struct {
	Index        int           `json:"-"`
	IMO          overwatch.IMO `json:"imo"`
	Identity                   // the identity at the start
	Class        string        `json:"class"`
	ShipType     uint8         `json:"ship_type"`
	LengthM      float64       `json:"length_m"`
	BeamM        float64       `json:"beam_m"`
	DesignDraftM float64       `json:"design_draft_m"`
	DWT          float64       `json:"dwt"`
	BuildYear    int           `json:"build_year"`
	SpeedKn      float64       `json:"service_speed_kn"`
	Sanctioned   string        `json:"sanctioned,omitempty"` // the sanctions program of the IMO
	DarkFleet    bool          `json:"dark_fleet,omitempty"`
	class        *Class
}

// BallastDraft is the vessel's draught with no cargo.
func (v *Vessel) BallastDraft() float64 { return round1(v.DesignDraftM * v.class.BallastRatio) }

//go:embed sanctioned.json
var sanctionedJSON []byte

// listedIMOs are the IMO numbers on the whole sanctions list the
// simulator's sanctioned vessels come from, one per line.
//
//go:embed listed_imos.txt
var listedIMOs string

type sanctionedVessel struct {
	IMO     overwatch.IMO `json:"imo"`
	Name    string        `json:"name"`
	Kind    string        `json:"kind"`
	Program string        `json:"program"`
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func between(r *rand.Rand, lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }

// flagWeights is the registry mix of the world fleet (by share of
// deadweight, rounded); darkFlags are the registries of the dark fleet.
var (
	flagWeights = []struct {
		flag   string
		weight float64
	}{
		{"PA", 16}, {"LR", 15}, {"MH", 13}, {"HK", 8}, {"SG", 7}, {"MT", 6}, {"BS", 4}, {"GR", 4}, {"CN", 4},
		{"CY", 3}, {"JP", 2}, {"NO", 2}, {"PT", 2}, {"DK", 1}, {"IT", 1}, {"BM", 1}, {"GB", 1}, {"KR", 1}, {"IN", 1},
	}
	darkFlags = []string{"CM", "GA", "KM", "PW", "TG", "SL", "TZ", "ST"}
)

var callPrefix = map[string]string{
	"PA": "3E", "LR": "A8", "MH": "V7", "HK": "VR", "SG": "9V", "MT": "9H", "BS": "C6", "GR": "SV", "CN": "BR",
	"CY": "5B", "JP": "7J", "NO": "LA", "PT": "CQ", "DK": "OZ", "IT": "IB", "BM": "ZC", "GB": "2G", "KR": "D7",
	"IN": "AV", "CM": "TJ", "GA": "TR", "KM": "D6", "PW": "T8", "TG": "5V", "SL": "9L", "TZ": "5I", "ST": "S9",
}

var (
	namePrefix = []string{"OCEAN", "SEA", "STAR", "PACIFIC", "ATLANTIC", "GOLDEN", "GLOBAL", "NORDIC", "AEGEAN", "EASTERN",
		"CAPE", "GREAT", "ROYAL", "SILVER", "BLUE", "GREEN", "LUCKY", "NEW", "MIGHTY", "BRIGHT", "SOUTHERN", "CORAL",
		"IRON", "GRAIN", "POLAR", "DELTA", "ALPHA", "SUNNY", "JADE", "MARINE"}
	nameSuffix = []string{"PIONEER", "GLORY", "SPIRIT", "HARMONY", "DREAM", "FORTUNE", "VENTURE", "TRADER", "CARRIER",
		"EXPLORER", "PRIDE", "WAVE", "HORIZON", "PEARL", "EMERALD", "LIBERTY", "VICTORY", "UNITY", "PROSPERITY",
		"BREEZE", "LEGEND", "SPLENDOUR", "ENDEAVOUR", "COURAGE", "QUEEN", "MERCHANT", "FALCON", "EAGLE"}
	greek   = []string{"AGIOS NIKOLAOS", "ELENI", "KATERINA", "MARIA K", "IOANNIS", "ANASTASIA", "DIMITRIS", "ELPIDA", "PANAGIA", "THEODORA"}
	chinese = []string{"HUA HAI", "XIN ZHOU", "GUO YUAN", "HONG YUN", "ZHE HAI", "MIN HAI", "JIN HAI", "AN TAI"}
)

// NewFleet draws n vessels from the seed: classes by share, identities,
// dimensions and build years. Sanctioned vessels take real IMOs and names
// from the OFAC SDN list (2021-07, public domain); dark-fleet vessels are
// older tankers under high-risk flags.
func NewFleet(seed uint64, n, sanctioned, darkFleet int) ([]*Vessel, error) {
	r := rand.New(rand.NewPCG(seed, 0xf1ee7))
	var sdn []sanctionedVessel
	if err := json.Unmarshal(sanctionedJSON, &sdn); err != nil {
		return nil, fmt.Errorf("sim: sanctioned.json: %w", err)
	}
	counts := make([]int, len(Classes))
	total := 0
	for i, c := range Classes {
		counts[i] = int(math.Round(c.Share * float64(n)))
		total += counts[i]
	}
	counts[0] += n - total
	usedIMO := map[overwatch.IMO]bool{}
	usedMMSI := map[uint32]bool{}
	usedName := map[string]bool{}
	var fleet []*Vessel
	for ci := range Classes {
		c := &Classes[ci]
		for k := 0; k < counts[ci]; k++ {
			v := &Vessel{Index: len(fleet), Class: c.Name, ShipType: c.ShipType, class: c}
			v.LengthM = math.Round(between(r, c.Length[0], c.Length[1]))
			v.BeamM = round1(between(r, c.Beam[0], c.Beam[1]))
			v.DesignDraftM = round1(between(r, c.DesignDraft[0], c.DesignDraft[1]))
			// The deadweight of the hull form (what the analytics estimate
			// from the reported dimensions), give or take 5 %.
			dwt, _ := vessel.EstimateDWT(c.ShipType, v.LengthM, v.BeamM, v.DesignDraftM)
			v.DWT = math.Round(dwt*(0.95+0.1*r.Float64())/100) * 100
			v.SpeedKn = round1(between(r, c.Speed[0], c.Speed[1]))
			year := 1998 + int(math.Round(r.NormFloat64()*5+12)) // mean 2010
			v.BuildYear = min(2025, max(1996, year))
			v.Flag = pickFlag(r)
			fleet = append(fleet, v)
		}
	}
	// Dark fleet: old tankers under high-risk flags; the first of them sail
	// under sanctioned IMOs.
	var tankers []*Vessel
	for _, v := range fleet {
		if v.class.Tanker {
			tankers = append(tankers, v)
		}
	}
	r.Shuffle(len(tankers), func(i, j int) { tankers[i], tankers[j] = tankers[j], tankers[i] })
	for i := 0; i < darkFleet && i < len(tankers); i++ {
		v := tankers[i]
		v.DarkFleet = true
		v.BuildYear = 1999 + r.IntN(8)
		v.Flag = darkFlags[r.IntN(len(darkFlags))]
	}
	var sdnTankers []sanctionedVessel
	for _, s := range sdn {
		if s.Kind != "bulk" {
			sdnTankers = append(sdnTankers, s)
		}
	}
	for i := 0; i < sanctioned && i < len(tankers) && i < len(sdnTankers); i++ {
		s := sdnTankers[(i*7)%len(sdnTankers)]
		v := tankers[i]
		v.IMO, v.Name, v.Sanctioned = s.IMO, strings.ToUpper(s.Name), s.Program
		usedIMO[s.IMO], usedName[v.Name] = true, true
	}
	for _, v := range fleet {
		if v.IMO == 0 {
			v.IMO = newIMO(r, v.BuildYear, usedIMO)
		}
		if v.Name == "" {
			v.Name = newName(r, v, usedName)
		}
		v.MMSI = NewMMSI(r, v.Flag, usedMMSI)
		v.CallSign = newCallSign(r, v.Flag)
	}
	sort.SliceStable(fleet, func(i, j int) bool { return fleet[i].IMO < fleet[j].IMO })
	for i, v := range fleet {
		v.Index = i
	}
	avoidListedIMOs(seed, fleet, usedIMO)
	return fleet, nil
}

// avoidListedIMOs gives a vessel that is not one of the sanctioned ones,
// but drew an IMO number on the sanctions list, another number, from a
// generator of its own: the rest of the fleet, and its order, stay as the
// seed made them (the simulations of earlier seeds do not change), while
// only the sanctioned vessels match the list by IMO.
func avoidListedIMOs(seed uint64, fleet []*Vessel, used map[overwatch.IMO]bool) {
	listed := map[overwatch.IMO]bool{}
	for _, line := range strings.Split(listedIMOs, "\n") {
		if n, err := strconv.ParseUint(strings.TrimSpace(line), 10, 32); err == nil {
			listed[overwatch.IMO(n)], used[overwatch.IMO(n)] = true, true
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x11573d))
	for _, v := range fleet {
		if v.Sanctioned == "" && listed[v.IMO] {
			v.IMO = newIMO(r, v.BuildYear, used)
		}
	}
}

func pickFlag(r *rand.Rand) string {
	total := 0.0
	for _, f := range flagWeights {
		total += f.weight
	}
	x := r.Float64() * total
	for _, f := range flagWeights {
		if x < f.weight {
			return f.flag
		}
		x -= f.weight
	}
	return flagWeights[0].flag
}

func newIMO(r *rand.Rand, year int, used map[overwatch.IMO]bool) overwatch.IMO {
	for {
		base := vessel.IMOForYear(float64(year) + r.Float64()) // within the year
		first6 := uint32(base/10) + uint32(r.IntN(1500)) - 750
		imo := overwatch.IMO(first6*10 + overwatch.IMOCheckDigit(first6))
		if !used[imo] && imo.Valid() {
			used[imo] = true
			return imo
		}
	}
}

// NewMMSI draws an unused ship-station MMSI whose MID belongs to the flag.
func NewMMSI(r *rand.Rand, flag string, used map[uint32]bool) uint32 {
	mids := vessel.MIDsOfFlag(flag)
	if len(mids) == 0 {
		mids = vessel.MIDsOfFlag("PA")
	}
	for {
		mmsi := uint32(mids[r.IntN(len(mids))])*1_000_000 + uint32(100000+r.IntN(900000))
		if !used[mmsi] {
			used[mmsi] = true
			return mmsi
		}
	}
}

func newName(r *rand.Rand, v *Vessel, used map[string]bool) string {
	for i := 0; ; i++ {
		var name string
		switch {
		case v.Flag == "GR" || v.Flag == "CY" || (v.Flag == "MT" && r.IntN(2) == 0):
			name = greek[r.IntN(len(greek))]
		case v.Flag == "CN" || v.Flag == "HK":
			name = fmt.Sprintf("%s %d", chinese[r.IntN(len(chinese))], 1+r.IntN(60))
		case v.Flag == "JP":
			name = namePrefix[r.IntN(len(namePrefix))] + " MARU"
		default:
			name = namePrefix[r.IntN(len(namePrefix))] + " " + nameSuffix[r.IntN(len(nameSuffix))]
		}
		if i > 3 || used[name] {
			name = fmt.Sprintf("%s %s", name, romanOrNumber(r))
		}
		if len(name) <= 20 && !used[name] {
			used[name] = true
			return name
		}
	}
}

func romanOrNumber(r *rand.Rand) string {
	roman := []string{"II", "III", "IV", "V", "VI", "VII", "VIII", "IX"}
	if r.IntN(2) == 0 {
		return roman[r.IntN(len(roman))]
	}
	return fmt.Sprint(1 + r.IntN(99))
}

func newCallSign(r *rand.Rand, flag string) string {
	prefix, ok := callPrefix[flag]
	if !ok {
		prefix = "3E"
	}
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := []byte(prefix)
	for len(b) < 6 {
		if len(b) < 4 {
			b = append(b, letters[r.IntN(26)])
		} else {
			b = append(b, byte('0'+r.IntN(10)))
		}
	}
	return string(b)
}
