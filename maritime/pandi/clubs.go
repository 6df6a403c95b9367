// Package pandi is the table of protection-and-indemnity (P&I) insurers:
// the twelve clubs of the International Group of P&I Clubs since the
// February 2023 merger of North and Standard into NorthStandard, and other
// insurers seen on vessels, each with a risk tier and its reason; and the
// fuzzy matching of the club names written in coverage files (docs/pi-coverage.md).
package pandi

// The risk tiers of an insurer.
const (
	// TierLow is an International Group club: pooled claims, reinsurance
	// and the certificates port states accept.
	TierLow = "low"
	// TierMedium is an established fixed-premium insurer outside the
	// Group: real cover, smaller limits.
	TierMedium = "medium"
	// TierHigh is an insurer that is unknown, or of a sanctioned
	// jurisdiction or itself sanctioned: cover that may not answer.
	TierHigh = "high"
)

// Source is where the International Group rows of the table come from:
// the Group's published member list (checked against its "about" page,
// which counts twelve clubs after NorthStandard was formed on 20 February
// 2023).
const Source = "International Group of P&I Clubs, member clubs list (https://www.igpandi.org/group-clubs/; https://www.igpandi.org/article/about)"

// Club is one insurer of the table.
type Club struct {
	ID          string   // stable slug ("gard", "northstandard")
	Name        string   // the short name in use
	LegalName   string   // the entity the Group lists
	Domicile    string   // the country of the managers' head office or the club's seat
	GroupMember bool     // a club of the International Group
	Tier        string   // TierLow, TierMedium or TierHigh
	Reason      string   // why the tier
	FormerNames []string // names the club or its predecessors went by
	Aliases     []string // other ways files write it (matched like former names)
	Source      string   // where the row comes from
}

// sourceOFAC2025 is where the designations of the Russian insurers are
// reported: OFAC's action of 10 January 2025, as a Group club's circular
// summarises it.
const sourceOFAC2025 = "OFAC designations of 10 January 2025 (UK P&I Club: https://ukpandi.com/news-and-resources/news/article/ofac-intensifies-us-sanctions-against-russias-energy-sector)"

const reasonGroup = "International Group club: claims pooled and reinsured by the Group, certificates accepted by port states"

// table is the insurers, Group clubs first in the Group's order.
var table = []Club{
	{ID: "american", Name: "American Club", LegalName: "American Steamship Owners Mutual Protection and Indemnity Association, Inc.",
		Domicile: "United States", GroupMember: true, Aliases: []string{"American Steamship Owners Mutual", "Eagle Ocean Marine"}},
	{ID: "britannia", Name: "Britannia", LegalName: "The Britannia Steam Ship Insurance Association Limited",
		Domicile: "United Kingdom", GroupMember: true, Aliases: []string{"Britannia Steam Ship", "Britannia Steam Ship Insurance Association Europe"}},
	{ID: "gard", Name: "Gard", LegalName: "Gard P. & I. (Bermuda) Ltd",
		Domicile: "Norway", GroupMember: true, FormerNames: []string{"Assuranceforeningen Gard"}, Aliases: []string{"Gard AS"}},
	{ID: "japan", Name: "Japan P&I Club", LegalName: "The Japan Ship Owners' Mutual Protection & Indemnity Association",
		Domicile: "Japan", GroupMember: true, Aliases: []string{"Japan Ship Owners Mutual", "JPIA"}},
	{ID: "london", Name: "London P&I Club", LegalName: "The London Steam-Ship Owners' Mutual Insurance Association Limited",
		Domicile: "United Kingdom", GroupMember: true, Aliases: []string{"London Steam Ship Owners", "London Steamship Owners"}},
	{ID: "northstandard", Name: "NorthStandard", LegalName: "NorthStandard Limited",
		Domicile: "United Kingdom", GroupMember: true,
		FormerNames: []string{"The North of England Protecting and Indemnity Association Limited", "North of England", "North P&I Club",
			"The Standard Club Ltd", "The Standard Club Europe Ltd", "The Standard Club Asia Ltd",
			"The Standard Steamship Owners' Protection and Indemnity Association", "Standard Club", "North"},
		Aliases: []string{"North Standard"}},
	{ID: "shipowners", Name: "The Shipowners' Club", LegalName: "The Shipowners' Mutual Protection and Indemnity Association (Luxembourg)",
		Domicile: "Luxembourg", GroupMember: true, Aliases: []string{"Shipowners Mutual", "Shipowners"}},
	{ID: "skuld", Name: "Skuld", LegalName: "Assuranceforeningen Skuld (Gjensidig)",
		Domicile: "Norway", GroupMember: true, Aliases: []string{"Skuld Mutual Protection and Indemnity Association (Bermuda)"}},
	{ID: "steamship", Name: "Steamship Mutual", LegalName: "The Steamship Mutual Underwriting Association Limited",
		Domicile: "United Kingdom", GroupMember: true, Aliases: []string{"Steamship Mutual Underwriting Association (Bermuda)", "Steamship"}},
	{ID: "swedish", Name: "The Swedish Club", LegalName: "Sveriges Ångfartygs Assurans Förening",
		Domicile: "Sweden", GroupMember: true, Aliases: []string{"Swedish"}},
	{ID: "uk", Name: "UK P&I Club", LegalName: "United Kingdom Mutual Steam Ship Assurance Association Limited",
		Domicile: "United Kingdom", GroupMember: true, Aliases: []string{"United Kingdom Mutual Steam Ship", "UK Club", "UK"}},
	{ID: "west-of-england", Name: "West of England", LegalName: "The West of England Ship Owners Mutual Insurance Association (Luxembourg)",
		Domicile: "Luxembourg", GroupMember: true, Aliases: []string{"West of England Ship Owners", "West"}},

	// Other insurers seen on vessels (docs/pi-coverage.md gives the sources).
	{ID: "british-marine", Name: "British Marine", LegalName: "British Marine (QBE Europe SA/NV)", Domicile: "United Kingdom",
		Tier: TierMedium, Reason: "established fixed-premium P&I insurer (QBE group) outside the International Group: real cover, lower limits",
		FormerNames: []string{"British Marine Mutual"}},
	{ID: "hydor", Name: "Hydor", LegalName: "Hydor AS", Domicile: "Norway",
		Tier: TierMedium, Reason: "established fixed-premium P&I provider outside the International Group: real cover, lower limits"},
	{ID: "lodestar", Name: "Lodestar Marine", LegalName: "Lodestar Marine Ltd", Domicile: "United Kingdom",
		Tier: TierMedium, Reason: "established fixed-premium P&I provider outside the International Group: real cover, lower limits"},
	{ID: "thomas-miller-specialty", Name: "Thomas Miller Specialty", LegalName: "Thomas Miller Specialty", Domicile: "United Kingdom",
		Tier: TierMedium, Reason: "established fixed-premium P&I underwriting outside the International Group: real cover, lower limits",
		Aliases: []string{"TM Specialty"}},
	{ID: "ingosstrakh", Name: "Ingosstrakh", LegalName: "Ingosstrakh Insurance Company", Domicile: "Russia",
		Tier: TierHigh, Reason: "Russian insurer covering tankers outside the International Group; designated under US sanctions on Russia's energy sector (OFAC, January 2025)",
		Aliases: []string{"Ingosstrakh Insurance"}, Source: sourceOFAC2025},
	{ID: "alfastrakhovanie", Name: "AlfaStrakhovanie", LegalName: "AlfaStrakhovanie JSC", Domicile: "Russia",
		Tier: TierHigh, Reason: "Russian insurer covering tankers outside the International Group; designated under US sanctions on Russia's energy sector (OFAC, January 2025)",
		Aliases: []string{"Alfa Strakhovanie", "Alfa Insurance"}, Source: sourceOFAC2025},
	{ID: "kish", Name: "Kish P&I", LegalName: "Kish Protection & Indemnity Club", Domicile: "Iran",
		Tier: TierHigh, Reason: "insurer of a sanctioned jurisdiction (Iran): cover not recognised by most port states and counterparties"},
}

func init() {
	for i := range table {
		c := &table[i]
		if c.GroupMember {
			c.Tier, c.Reason, c.Source = TierLow, reasonGroup, Source
		} else if c.Source == "" {
			c.Source = "Overwatch insurer table (docs/pi-coverage.md)"
		}
	}
	buildIndex()
}

// Clubs returns the insurers of the table: the twelve International Group
// clubs, then the other insurers. The slice is a copy.
func Clubs() []Club {
	out := make([]Club, len(table))
	copy(out, table)
	for i := range out {
		out[i].FormerNames = append([]string(nil), out[i].FormerNames...)
		out[i].Aliases = append([]string(nil), out[i].Aliases...)
	}
	return out
}

// ByID returns the insurer of a slug.
func ByID(id string) (Club, bool) {
	for _, c := range table {
		if c.ID == id {
			return c, true
		}
	}
	return Club{}, false
}

// Unknown is the tier and reason of an insurer the table does not know.
func Unknown(name string) Club {
	return Club{Name: name, Tier: TierHigh, Reason: "insurer not in the table: unknown cover, not of the International Group"}
}
