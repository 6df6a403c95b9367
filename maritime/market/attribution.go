package market

// attributions are the credits each source asks for (their licences are
// in docs/market-sources.md and README).
var attributions = map[string]string{
	SourceFRED:        "Federal Reserve Bank of St. Louis, FRED; series of the IMF Primary Commodity Prices (citation required) and the U.S. EIA (public domain)",
	SourceWorldBank:   "World Bank Commodity Price Data (The Pink Sheet), CC BY 4.0",
	SourceAMS:         "USDA Agricultural Marketing Service, Market News (public domain)",
	SourceAgTransport: "USDA Agricultural Marketing Service, Agricultural Transportation Open Data (public domain); ocean rates by O'Neil Commodity Consulting",
}

// Attribution is the credit a source asks its users to give, "" for a
// source the service does not know.
func Attribution(source string) string {
	return attributions[source]
}

// grains are the commodities a rate published for grain as a whole
// covers.
var grains = map[string]bool{"wheat": true, "maize": true, "soybeans": true, "sorghum": true, "barley": true, "rice": true}

// IsGrain reports whether a rate published for "grain" covers the
// commodity.
func IsGrain(commodity string) bool {
	return grains[commodity]
}
