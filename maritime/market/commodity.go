package market

import "strings"

// Commodities lists the service's commodity names, the values of
// Price.Commodity and Rate.Commodity.
var Commodities = []string{
	"wheat", "maize", "soybeans", "soybean_meal", "soybean_oil", "rice",
	"barley", "sorghum", "palm_oil", "sugar", "crude_oil", "natural_gas",
	"lng", "coal", "iron_ore", "urea", "dap", "tsp", "potash",
	"phosphate_rock", "grain",
}

// synonyms maps other names (normalised: lower case, words joined by one
// space) to a service name.
var synonyms = map[string]string{
	"corn": "maize", "yellow corn": "maize", "maiz": "maize",
	"soy": "soybeans", "soya": "soybeans", "soybean": "soybeans", "soya beans": "soybeans",
	"soyabeans": "soybeans", "soy beans": "soybeans", "soya bean": "soybeans",
	"soymeal": "soybean_meal", "soy meal": "soybean_meal", "soya meal": "soybean_meal",
	"soybeans meal": "soybean_meal", "soyabean meal": "soybean_meal",
	"soyoil": "soybean_oil", "soy oil": "soybean_oil", "soya oil": "soybean_oil",
	"soybeans oil": "soybean_oil", "soyabean oil": "soybean_oil",
	"paddy": "rice",
	"crude": "crude_oil", "oil": "crude_oil", "brent": "crude_oil", "wti": "crude_oil",
	"dubai": "crude_oil", "petroleum": "crude_oil", "crude petroleum": "crude_oil",
	"brent crude": "crude_oil", "crude oil brent": "crude_oil",
	"gas": "natural_gas", "ngas": "natural_gas", "natgas": "natural_gas",
	"liquefied natural gas": "lng", "liquified natural gas": "lng",
	"thermal coal": "coal", "steam coal": "coal",
	"iron": "iron_ore", "ironore": "iron_ore",
	"diammonium phosphate": "dap", "triple superphosphate": "tsp",
	"potassium chloride": "potash", "muriate of potash": "potash", "mop": "potash",
	"phosphate": "phosphate_rock", "phosrock": "phosphate_rock",
	"palm": "palm_oil", "grains": "grain",
}

var known = func() map[string]bool {
	m := make(map[string]bool, len(Commodities))
	for _, c := range Commodities {
		m[c] = true
	}
	return m
}()

// Commodity returns the service name of a commodity name or synonym,
// ignoring case, spacing, hyphens and underscores ("corn" and "Maize" are
// maize, "soy" soybeans, "soybean meal" soybean_meal, "Brent" crude_oil),
// and false for a name it does not know.
func Commodity(name string) (string, bool) {
	f := strings.Fields(strings.NewReplacer("_", " ", "-", " ", ",", " ").Replace(strings.ToLower(name)))
	key := strings.Join(f, " ")
	if c, ok := synonyms[key]; ok {
		return c, true
	}
	if c := strings.Join(f, "_"); known[c] {
		return c, true
	}
	return "", false
}
