package earnings

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"overwatch"
	"overwatch/maritime/seaport"
)

// RateObs is one published ocean freight rate (a row of transport_rates
// with mode 'ocean'): its dataset, route as published, vessel size text,
// period start and rate in USD per metric tonne.
type RateObs struct {
	Dataset     string
	Origin      string
	Destination string
	VesselSize  string
	Commodity   string
	Date        time.Time
	USDPerTonne float64
}

// Rate is the freight rate a voyage is valued at: USD per tonne with its
// bounds, where it comes from (Basis "dataset" or "model"), a source line
// naming it, and the observation's date (zero for the model).
type Rate struct {
	USDPerTonne Bounds    `json:"usd_per_tonne"`
	Basis       string    `json:"basis"`
	Source      string    `json:"source"`
	Date        time.Time `json:"date"`
}

// Rate uncertainties: a published index rate is for a reference vessel
// and lane and varies within its period; one older than StaleAfter is
// wider; the distance model's spread is its residuals' 90th percentile
// against the dataset rates it was fitted on (docs/earnings.md).
const (
	DatasetUncertainty = 0.10
	StaleUncertainty   = 0.20
	ModelUncertainty   = 0.25
	StaleAfter         = 100 * 24 * time.Hour
)

// The distance model, fitted by least squares on the 100 ocean grain
// rates of the AgTransport datasets ehs5-yac3 (U.S. Gulf and Pacific
// Northwest to Japan, 2023-04…2026-07) and 2n8s-739j (Black Sea,
// 2025), each brought to a 60,000 DWT vessel by SizeFactor, against the
// sea-lane distance of their lanes: USD/t = ModelBase + ModelPerKNM ×
// distance / 1000 NM.
const (
	ModelBase      = 7.28
	ModelPerKNM    = 5.06
	ModelRefDWT    = 60_000.0
	modelSizePower = -0.25
)

// SizeFactor scales a rate per tonne by vessel size: (DWT / 60,000)^-0.25,
// within [0.6, 2]; 1 when the size is unknown.
func SizeFactor(dwt float64) float64 {
	if dwt <= 0 || math.IsNaN(dwt) {
		return 1
	}
	return math.Min(2, math.Max(0.6, math.Pow(dwt/ModelRefDWT, modelSizePower)))
}

// ModelRate is the distance model's rate for a lane of distanceNM and a
// vessel of dwt.
func ModelRate(distanceNM, dwt float64) Rate {
	c := (ModelBase + ModelPerKNM*math.Max(0, distanceNM)/1000) * SizeFactor(dwt)
	return Rate{USDPerTonne: Spread(c, ModelUncertainty, ModelUncertainty), Basis: "model",
		Source: fmt.Sprintf("distance model: (%.2f + %.2f × %.0f NM / 1000) × size factor %.2f", ModelBase, ModelPerKNM, distanceNM, SizeFactor(dwt))}
}

// Lane names the ports a published route covers: an origin matches a
// port of Region (or the port named, when OriginPort is set); a
// destination a port of Country (or the named port).
type lane struct {
	region, originPort string
	country, destPort  string
}

// laneOf reads a published route. ok is false for a route no port of the
// reference set stands for.
func laneOf(origin, destination string) (lane, bool) {
	o, d := norm(origin), norm(destination)
	var l lane
	switch {
	case strings.Contains(o, "gulf"):
		l.region = "us-gulf"
	case strings.Contains(o, "pacific northwest") || o == "pnw":
		l.region = "pacific-northwest"
	case o == "odesa" || o == "odessa" || o == "izmail" || o == "constanta" || o == "chornomorsk":
		p, ok := portNamed(o)
		if !ok {
			return lane{}, false // Izmail: no reference port
		}
		l.region, l.originPort = "black-sea", p
	default:
		return lane{}, false
	}
	switch {
	case strings.Contains(d, "japan"):
		l.country = "JP"
	default:
		city := strings.TrimSpace(strings.Split(d, ",")[0])
		p, ok := portNamed(city)
		if !ok {
			return lane{}, false
		}
		l.destPort = p
	}
	return l, true
}

// matches reports whether the lane stands for the voyage's ports.
func (l lane) matches(origin, destination *seaport.Port) bool {
	if origin.Region != l.region || (l.originPort != "" && l.originPort != origin.Slug) {
		return false
	}
	if l.destPort != "" {
		return destination.Slug == l.destPort
	}
	return destination.Country == l.country
}

func norm(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer(".", "", "u s ", "us ", "  ", " ").Replace(s)
	return s
}

// portNamed is the slug of the reference port with the name.
func portNamed(name string) (string, bool) {
	for _, p := range seaport.All() {
		if norm(p.Name) == name || p.Slug == name {
			return p.Slug, true
		}
	}
	return "", false
}

// sizeMid reads a published vessel size ("25,000-30,000", "3,000") as its
// midpoint in DWT; 0 when it says none.
func sizeMid(s string) float64 {
	s = strings.ReplaceAll(s, ",", "")
	parts := strings.Split(s, "-")
	sum, n := 0.0, 0
	for _, p := range parts {
		if v, err := strconv.ParseFloat(strings.TrimSpace(p), 64); err == nil && v > 0 {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// grainCargo are the commodities the ocean datasets' heavy-grain rates
// stand for; every other cargo is valued by the distance model.
var grainCargo = map[string]bool{overwatch.CommodityGrain: true, overwatch.CommodityOilseeds: true}

// RateFor is the rate of a voyage from origin to destination (slugs) of a
// grain or oilseeds cargo (else the distance model) on a vessel of dwt
// departing at: the newest published observation at or
// before the departure (else the oldest after it) of a dataset lane that
// stands for the ports, of the published vessel size nearest the vessel's
// (the published rate brought to its size by SizeFactor when the size
// differs), else the distance model. A rate older than StaleAfter (or
// later than the departure by as much) is StaleUncertainty wide.
func RateFor(obs []RateObs, origin, destination, commodity string, distanceNM, dwt float64, at time.Time) Rate {
	o, ok1 := seaport.BySlug(origin)
	d, ok2 := seaport.BySlug(destination)
	if !ok1 || !ok2 || !grainCargo[commodity] {
		return ModelRate(distanceNM, dwt)
	}
	var cands []RateObs
	for _, x := range obs {
		if x.USDPerTonne <= 0 || math.IsNaN(x.USDPerTonne) || math.IsInf(x.USDPerTonne, 0) {
			continue
		}
		if l, ok := laneOf(x.Origin, x.Destination); ok && l.matches(&o, &d) {
			cands = append(cands, x)
		}
	}
	if len(cands) == 0 {
		return ModelRate(distanceNM, dwt)
	}
	size := func(x RateObs) float64 {
		m := sizeMid(x.VesselSize)
		if m == 0 || dwt <= 0 {
			return 0
		}
		return math.Abs(math.Log(m / dwt))
	}
	sort.SliceStable(cands, func(i, j int) bool {
		si, sj := size(cands[i]), size(cands[j])
		if si != sj {
			return si < sj
		}
		bi, bj := !cands[i].Date.After(at), !cands[j].Date.After(at)
		if bi != bj {
			return bi
		}
		if bi {
			return cands[i].Date.After(cands[j].Date)
		}
		return cands[i].Date.Before(cands[j].Date)
	})
	best := cands[0]
	c := best.USDPerTonne
	scaled := ""
	if m := sizeMid(best.VesselSize); m > 0 && dwt > 0 {
		f := SizeFactor(dwt) / SizeFactor(m)
		c *= f
		if math.Abs(f-1) > 0.005 {
			scaled = fmt.Sprintf(" × size factor %.2f", f)
		}
	}
	unc := DatasetUncertainty
	if gap := at.Sub(best.Date); gap > StaleAfter || -gap > StaleAfter {
		unc = StaleUncertainty
	}
	src := fmt.Sprintf("usda_agtransport:%s %s → %s", best.Dataset, best.Origin, best.Destination)
	if best.VesselSize != "" {
		src += " (" + best.VesselSize + " DWT)"
	}
	return Rate{USDPerTonne: Spread(c, unc, unc), Basis: "dataset", Source: src + scaled, Date: best.Date.UTC()}
}
