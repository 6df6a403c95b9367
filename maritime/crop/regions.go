package crop

// Crops the regions grow, as the endpoints name them.
const (
	Wheat    = "wheat"
	Corn     = "corn"
	Soybeans = "soybeans"
)

// Crops lists every crop of the regions.
var Crops = []string{Corn, Soybeans, Wheat}

// Series names where a region's official figures come from: a USDA PSD
// commodity of the region's country, or a WASDE table's commodity and
// region (million metric tons or million bushels).
type Series struct {
	PSDCommodity   string // PSD Commodity_Code, a zero-padded string ("0440000"); "" when WASDE
	WASDETable     string // WASDE ReportTitle of the production and domestic use
	WASDECommodity string
	WASDERegion    string
	DomesticAttr   string // the WASDE attribute of domestic use
	// Yield series for the official view when the production series has
	// none: a PSD commodity of the country, or a WASDE table.
	YieldPSDCommodity   string
	YieldWASDETable     string
	YieldWASDECommodity string
	YieldWASDERegion    string
	YieldWASDEAttr      string
}

// Region is a crop region feeding export ports.
type Region struct {
	Slug       string
	Name       string
	Belt       string // the wider belt it belongs to ("" when none)
	PSDCountry string // USDA PSD Country_Code
	Country    string // PSD Country_Name
	Crops      []string
	Ports      []string // seaport slugs
	// Polygon is a closed ring of [longitude, latitude] points (GeoJSON
	// order) outlining the region's main cropland, drawn coarsely from
	// published crop maps (USDA FAS crop explorer production maps).
	Polygon [][2]float64
	// Sources gives each crop's official series.
	Sources map[string]Series
	// Scope says what the official baseline covers: "national" (the PSD
	// or WASDE country figure) or "class" (a U.S. wheat class).
	Scope map[string]string
}

// PSD commodity codes used by the regions (strings: zero-padded).
const (
	PSDWheat = "0410000"
	PSDCorn  = "0440000"
)

// WASDE table titles used by the regions.
const (
	wasdeWorldSoy   = "World Soybean Supply and Use"
	wasdeUSSoy      = "U.S. Soybeans and Products Supply and Use (Domestic Measure)"
	wasdeWheatClass = "U.S. Wheat by Class: Supply and Use"
)

func psd(code string) Series { return Series{PSDCommodity: code} }

func worldSoy(region string, yield bool) Series {
	s := Series{WASDETable: wasdeWorldSoy, WASDECommodity: "Oilseed, Soybean", WASDERegion: region, DomesticAttr: "Domestic Total"}
	if yield {
		s.YieldWASDETable, s.YieldWASDECommodity, s.YieldWASDERegion, s.YieldWASDEAttr = wasdeUSSoy, "Oilseed, Soybean", "United States", "Yield per Harvested Acre"
	}
	return s
}

func rect(w, s, e, n float64) [][2]float64 {
	return [][2]float64{{w, s}, {e, s}, {e, n}, {w, n}, {w, s}}
}

var regions = []Region{
	{Slug: "us-corn-belt", Name: "US Corn Belt", PSDCountry: "US", Country: "United States",
		Crops: []string{Corn, Soybeans}, Ports: []string{"new-orleans"},
		Polygon: rect(-100, 37, -82, 45.5),
		Sources: map[string]Series{Corn: psd(PSDCorn), Soybeans: worldSoy("United States", true)},
		Scope:   map[string]string{Corn: "national", Soybeans: "national"}},
	{Slug: "us-pacific-northwest", Name: "US Pacific Northwest wheat (Palouse, Columbia Plateau)", PSDCountry: "US", Country: "United States",
		Crops: []string{Wheat}, Ports: []string{"seattle", "tacoma", "vancouver"},
		Polygon: rect(-121.5, 45.3, -116.5, 48.2),
		Sources: map[string]Series{Wheat: {WASDETable: wasdeWheatClass, WASDECommodity: "Wheat, White", WASDERegion: "United States",
			DomesticAttr: "Domestic Use", YieldPSDCommodity: PSDWheat}},
		Scope: map[string]string{Wheat: "class"}},
	{Slug: "brazil-mato-grosso-parana", Name: "Mato Grosso and Paraná", PSDCountry: "BR", Country: "Brazil",
		Crops: []string{Corn, Soybeans}, Ports: []string{"santos", "paranagua"},
		Polygon: [][2]float64{{-61.5, -8}, {-50.5, -8}, {-50.5, -18}, {-53, -22.5}, {-48, -23}, {-48.5, -26.5}, {-54.5, -26.5}, {-58, -17}, {-61.5, -14}, {-61.5, -8}},
		Sources: map[string]Series{Corn: psd(PSDCorn), Soybeans: worldSoy("Brazil", false)},
		Scope:   map[string]string{Corn: "national", Soybeans: "national"}},
	{Slug: "argentina-pampas", Name: "Pampas", PSDCountry: "AR", Country: "Argentina",
		Crops: []string{Wheat, Corn, Soybeans}, Ports: []string{"rosario", "bahia-blanca"},
		Polygon: rect(-65, -39.5, -57.5, -30),
		Sources: map[string]Series{Wheat: psd(PSDWheat), Corn: psd(PSDCorn), Soybeans: worldSoy("Argentina", false)},
		Scope:   map[string]string{Wheat: "national", Corn: "national", Soybeans: "national"}},
	{Slug: "ukraine-steppe", Name: "Ukrainian steppe", Belt: "Black Sea wheat belt", PSDCountry: "UP", Country: "Ukraine",
		Crops: []string{Wheat, Corn}, Ports: []string{"odesa", "chornomorsk"},
		Polygon: rect(28.5, 45.5, 38.5, 50.5),
		Sources: map[string]Series{Wheat: psd(PSDWheat), Corn: psd(PSDCorn)},
		Scope:   map[string]string{Wheat: "national", Corn: "national"}},
	{Slug: "russia-south", Name: "Southern Russia (Krasnodar, Rostov, Stavropol, Volga)", Belt: "Black Sea wheat belt", PSDCountry: "RS", Country: "Russia",
		Crops: []string{Wheat, Corn}, Ports: []string{"novorossiysk"},
		Polygon: rect(37, 43.5, 48, 52),
		Sources: map[string]Series{Wheat: psd(PSDWheat), Corn: psd(PSDCorn)},
		Scope:   map[string]string{Wheat: "national", Corn: "national"}},
	{Slug: "romania-lower-danube", Name: "Romanian Lower Danube plain and Dobruja", Belt: "Black Sea wheat belt", PSDCountry: "RO", Country: "Romania",
		Crops: []string{Wheat, Corn}, Ports: []string{"constanta"},
		Polygon: rect(22.5, 43.6, 29.7, 45.5),
		Sources: map[string]Series{Wheat: psd(PSDWheat), Corn: psd(PSDCorn)},
		Scope:   map[string]string{Wheat: "national", Corn: "national"}},
	{Slug: "western-australia-wheatbelt", Name: "Western Australian wheatbelt", PSDCountry: "AS", Country: "Australia",
		Crops: []string{Wheat}, Ports: []string{"fremantle"},
		Polygon: [][2]float64{{114.8, -27.5}, {117.5, -27.5}, {119.5, -30.5}, {121.5, -33}, {119, -34.5}, {116, -34}, {114.8, -27.5}},
		Sources: map[string]Series{Wheat: psd(PSDWheat)},
		Scope:   map[string]string{Wheat: "national"}},
}

// Regions lists the crop regions (a copy).
func Regions() []Region {
	out := make([]Region, len(regions))
	copy(out, regions)
	return out
}

// RegionBySlug finds a region.
func RegionBySlug(slug string) (Region, bool) {
	for _, r := range regions {
		if r.Slug == slug {
			return r, true
		}
	}
	return Region{}, false
}

// Ports lists every port slug the regions feed, in region order.
func Ports() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range regions {
		for _, p := range r.Ports {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Has reports whether the region grows crop.
func (r Region) Has(crop string) bool {
	for _, c := range r.Crops {
		if c == crop {
			return true
		}
	}
	return false
}

// Feeds reports whether the region feeds port.
func (r Region) Feeds(port string) bool {
	for _, p := range r.Ports {
		if p == port {
			return true
		}
	}
	return false
}
