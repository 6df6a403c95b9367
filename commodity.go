package overwatch

// Commodities carried through the reference ports.
const (
	CommodityGrain      = "grain"
	CommodityOilseeds   = "oilseeds"
	CommodityLNG        = "lng"
	CommodityIronOre    = "iron_ore"
	CommodityCoal       = "coal"
	CommodityCrude      = "crude_oil"
	CommodityProducts   = "refined_products"
	CommodityContainers = "containers"
)
