package tradestats

import (
	"sort"
	"strings"
)

// hsCommodities maps HS headings (4 digits) to the service's commodity
// names. The HS 2022 nomenclature (WCO) names each heading: 1001 wheat and
// meslin, 1003 barley, 1005 maize (corn), 1006 rice, 1007 grain sorghum,
// 1201 soya beans, 1507 soya-bean oil, 2304 soya-bean oil-cake (meal),
// 1701 cane or beet sugar, 2601 iron ores and concentrates, 2603 copper
// ores, 2606 aluminium ores (bauxite), 2701 coal, 2709 crude petroleum
// oils, 2710 petroleum oils other than crude (refined products), 2711
// petroleum gases (LNG and LPG; the service names the heading lng, which
// it mostly is in seaborne trade), 3102 nitrogenous fertilisers, 7207
// semi-finished iron or steel.
var hsCommodities = map[string]string{
	"1001": "wheat",
	"1003": "barley",
	"1005": "maize",
	"1006": "rice",
	"1007": "sorghum",
	"1201": "soybeans",
	"1507": "soybean_oil",
	"2304": "soybean_meal",
	"1701": "sugar",
	"2601": "iron_ore",
	"2603": "copper_ore",
	"2606": "bauxite",
	"2701": "coal",
	"2709": "crude_oil",
	"2710": "refined_products",
	"2711": "lng",
	"3102": "fertilizer",
	"7207": "steel_semis",
}

// CommodityAll is the name of Comtrade's TOTAL code (all commodities).
const CommodityAll = "all"

// CommodityOfHS names the commodity of an HS code: its 4-digit heading's
// name (codes of 6 digits or more fall under their heading), "all" for
// TOTAL, and "hs<code>" for a heading the service does not name.
func CommodityOfHS(code string) string {
	code = strings.TrimSpace(code)
	if strings.EqualFold(code, "TOTAL") {
		return CommodityAll
	}
	if len(code) >= 4 {
		if n, ok := hsCommodities[code[:4]]; ok {
			return n
		}
	}
	return "hs" + code
}

// HSOfCommodity gives the HS heading of a commodity name
// (case-insensitive; "hs1201" and "1201" name the heading directly);
// false for a name the service does not know.
func HSOfCommodity(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == CommodityAll || n == "total" {
		return "TOTAL", true
	}
	n = strings.TrimPrefix(n, "hs")
	if _, ok := hsCommodities[n]; ok {
		return n, true
	}
	n = strings.ReplaceAll(strings.ReplaceAll(n, " ", "_"), "-", "_")
	if n == "corn" {
		n = "maize"
	}
	for hs, c := range hsCommodities {
		if c == n {
			return hs, true
		}
	}
	return "", false
}

// Commodities lists the named commodities, in name order.
func Commodities() []string {
	out := make([]string, 0, len(hsCommodities))
	for _, c := range hsCommodities {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}
