package risk

import (
	"time"

	"overwatch/maritime/geo"
)

// FactorSpec documents one factor of the risk score: a vessel's value
// of the factor (in Unit, over Window) adds Weight × min(1, value / Full)
// points to its score (age and flag_risk are step functions, see
// ScoreVessel). Reason says why it is evidence of risk, Source where the
// indicator comes from.
type FactorSpec struct {
	Name   string
	Weight float64 // the most points the factor adds to the 0–100 score
	Full   float64 // the value at which it adds its whole weight
	Unit   string
	Window string
	Reason string
	Source string
}

// Windows of the risk score: behaviour counts over the last 90 days,
// identity changes over a year, port calls over 180 days.
const (
	ScoreWindow     = 90 * 24 * time.Hour
	IdentityWindow  = 365 * 24 * time.Hour
	PortCallsWindow = 180 * 24 * time.Hour
)

// Names of the risk factors, in the order of RiskFactors.
const (
	FactorSanctions          = "sanctions_match"
	FactorGaps               = "ais_gaps"
	FactorGapHours           = "gap_hours"
	FactorIntentional        = "intentional_disabling"
	FactorSTS                = "sts_transfers"
	FactorLoitering          = "loitering_hours"
	FactorIdentity           = "identity_changes"
	FactorMismatches         = "draught_mismatches"
	FactorSpoofing           = "spoofing"
	FactorFlag               = "flag_risk"
	FactorAge                = "age"
	FactorDestination        = "destination_unreliability"
	FactorHighRiskPorts      = "high_risk_port_calls"
	FactorDarkNearSanctioned = "dark_time_near_sanctioned_areas"
	FactorPICover            = "pi_cover"
)

// Factors are the 15 factors of the risk score, with their weights:
// the table docs/risk.md and the API documentation show. The weights of
// the 14 behavioural and profile factors add up to 151, so a vessel need
// not show every behaviour to reach 100; sanctions_match alone gives 75
// for a direct IMO match, and a direct match makes the vessel critical
// whatever its score.
var Factors = []FactorSpec{
	{FactorSanctions, 75, 1, "match confidence (0–1)", "current lists",
		"The vessel is on a sanctions list: by IMO number (confidence 1), by an MMSI it used, or by a distinctive name with flag or type agreeing (see MatchSanctions).",
		"OFAC SDN list; the 2020 US Global Maritime Sanctions Advisory"},
	{FactorGaps, 10, 6, "AIS gaps", "90 days",
		"Gaps of 12 hours or more in the vessel's AIS reports. Many have innocent causes (poor reception), so each weighs little.",
		"Global Fishing Watch AIS-disabling events; METHODS.md"},
	{FactorGapHours, 10, 168, "hours dark", "90 days",
		"Time spent dark: a week without AIS in three months is as much as this factor counts.",
		"Global Fishing Watch; Windward and Pole Star dark-activity indicators"},
	{FactorIntentional, 20, 2, "suspected intentional gaps", "90 days",
		"Gaps of 12 hours or more far from shore (both ends > 50 nm) after dense reception, or across which the reported draught changed by 1 m or more (cargo moved while dark): AIS switched off, not lost. Disabling AIS is the first deceptive practice of the 2020 US advisory.",
		"2020 US Global Maritime Sanctions Advisory; GFW intentional-disabling criteria"},
	{FactorSTS, 15, 3, "transfers (high 1, medium 0.6, low 0.3)", "90 days",
		"Ship-to-ship transfers at sea away from anchorages, weighted by the detector's confidence: the usual way sanctioned cargo changes hands.",
		"2020 US advisory; Miller et al. 2018 encounters"},
	{FactorLoitering, 8, 48, "hours", "90 days",
		"Hours drifting or idling at sea far from shore, often waiting for a transfer or for orders that cannot be given openly.",
		"Global Fishing Watch loitering events"},
	{FactorIdentity, 12, 3, "changes", "365 days",
		"Changes of flag, name or MMSI (changes at the same time count once): flag hopping and renaming hide a vessel's history.",
		"2020 US advisory (false flags and flag hopping); Windward and Pole Star identity escalators"},
	{FactorMismatches, 10, 3, "mismatches", "90 days",
		"Draught changes that no port call explains (loaded or discharged somewhere unreported), implausible changes, or calls with no change.",
		"Windward and Pole Star: draught change across a dark period; 2020 US advisory (falsified cargo documents)"},
	{FactorSpoofing, 10, 3, "impossible jumps", "90 days",
		"Reported positions the vessel cannot have reached: a manipulated or borrowed AIS identity.",
		"2020 US advisory (manipulating AIS)"},
	{FactorFlag, 12, 1, "flag risk (0–1)", "current flag",
		"The flag's risk class: 1 for the flags of comprehensively sanctioned states, 0.7 for the registries of the dark fleet and the Paris MoU black list, 0.5 for Russia (see HighRiskFlags).",
		"Paris MoU White, Grey and Black List; OFAC SDN vessel flags; Lloyd's List dark-fleet reporting"},
	{FactorAge, 8, 25, "years", "build year",
		"Half the weight over 20 years of age, all of it over 25: the dark fleet is old tonnage bought for one last trade, and most charterers avoid it.",
		"Lloyd's List and S&P Global dark-fleet age profiles"},
	{FactorDestination, 6, 1, "share of declared calls not matched (0–1)", "whole history",
		"How often the destination the vessel declared was not the port it reached, over its completed calls with a destination declared on the way in (at least 3): voyage irregularities.",
		"2020 US advisory (voyage irregularities); destination reliability"},
	{FactorHighRiskPorts, 10, 3, "calls", "180 days",
		"Calls at high-risk ports: Novorossiysk (Russia's Black Sea crude and products terminal), and, for tankers, Qingdao and Rizhao (Shandong, where most of the Iranian crude shipped to China lands) (see HighRiskPorts).",
		"G7/EU price cap on Russian oil; OFAC designations of Shandong refineries and terminal operators (2025)"},
	{FactorDarkNearSanctioned, 15, 48, "hours", "90 days",
		"Hours of AIS gaps that began or ended within 100 nm of a port or terminal of a sanctioned state (Iran, Syria, Venezuela, North Korea, Cuba, Crimea) or a Russian crude export terminal (see SanctionedAreas): where a dark voyage leads.",
		"2020 US advisory; OFAC Iran, Syria, Venezuela, DPRK, Cuba and Crimea programs"},
	{FactorPICover, 5, 1, "insurer tier (0 Group cover or no record, 0.5 medium, 1 high)", "cover in force",
		"The vessel's P&I cover in force, from the shared coverage base (docs/pi-coverage.md): none of the 12 International Group clubs, and an insurer of medium tier (an established fixed-premium insurer) or high tier (unknown or sanctioned). Shadow-fleet tankers trade without Group cover; no record known counts nothing, since a missing record is not evidence of missing cover.",
		"International Group of P&I Clubs; 2020 US advisory (insurance); G7/EU price cap attestation rules"},
}

// HighRiskFlags is the risk class of flags (ISO 3166-1 alpha-2): 1 for the
// flags of states under comprehensive US sanctions, whose ships are
// blocked; 0.7 for the registries the dark fleet uses, the simulator's
// dark-fleet flags (write/sim/fleet.go): Cameroon and Tanzania ("very high
// risk" on the Paris MoU 2023 Black List), Togo and Sierra Leone (Paris MoU
// Black List; 4 and 7 of the OFAC SDN vessels of July 2021 fly them),
// Comoros, Palau and Gabon (registries that took on shadow-fleet tankers,
// per Lloyd's List; each flies an SDN vessel of 2021), São Tomé and
// Príncipe (flag of tankers designated by OFAC in 2025); and 0.5 for
// Russia, whose state tanker fleet (Sovcomflot) is sanctioned by the US
// and the UK. Open registries (Panama, Liberia, Marshall Islands) carry
// most of the world fleet and are not listed: their flag says nothing.
var HighRiskFlags = map[string]float64{
	"IR": 1, "KP": 1, "SY": 1, "VE": 1, "CU": 1,
	"CM": 0.7, "TZ": 0.7, "TG": 0.7, "SL": 0.7, "KM": 0.7, "PW": 0.7, "GA": 0.7, "ST": 0.7,
	"RU": 0.5,
}

// HighRiskPort is a reference port whose calls count in the
// high_risk_port_calls factor; TankersOnly limits it to tankers.
type HighRiskPort struct {
	Slug        string
	TankersOnly bool
	Reason      string
}

// HighRiskPorts are the reference ports (ports.json) of high risk. None of
// the 40 is in a comprehensively sanctioned state; Novorossiysk loads the
// Russian crude and products under the G7/EU price cap that the shadow
// fleet carries; Qingdao and Rizhao (Shandong) receive most of the Iranian
// crude shipped to China, whose refineries and terminal operators OFAC
// designated in 2025, and count for tankers only (their grain and ore
// trades are not at issue).
var HighRiskPorts = []HighRiskPort{
	{"novorossiysk", false, "Russian crude and products terminal (G7/EU price cap)"},
	{"qingdao", true, "Shandong: Iranian crude discharge (OFAC 2025 designations)"},
	{"rizhao", true, "Shandong: Iranian crude discharge (OFAC 2025 designations)"},
}

// SanctionedArea is a port or terminal of a sanctioned state: dark time
// that begins or ends within SanctionedAreaRadiusKM of it counts in
// dark_time_near_sanctioned_areas.
type SanctionedArea struct {
	Name     string
	Country  string
	Lat, Lon float64
}

// SanctionedAreaRadiusKM is 100 nautical miles.
const SanctionedAreaRadiusKM = 100 * 1.852

// SanctionedAreas are the main oil and cargo ports of the states under
// comprehensive US sanctions (Iran, Syria, Venezuela, North Korea, Cuba),
// of Crimea (EO 13685), and Russia's crude export terminals.
var SanctionedAreas = []SanctionedArea{
	{"Kharg Island", "IR", 29.23, 50.31}, {"Bandar Abbas", "IR", 27.15, 56.20}, {"Assaluyeh", "IR", 27.48, 52.60},
	{"Bandar Imam Khomeini", "IR", 30.43, 49.08}, {"Jask", "IR", 25.64, 57.77},
	{"Baniyas", "SY", 35.18, 35.94}, {"Tartus", "SY", 34.90, 35.87}, {"Latakia", "SY", 35.52, 35.77},
	{"Jose terminal", "VE", 10.10, -64.85}, {"Puerto la Cruz", "VE", 10.22, -64.63}, {"Amuay", "VE", 11.75, -70.22},
	{"Puerto Cabello", "VE", 10.48, -68.01},
	{"Nampo", "KP", 38.73, 125.38}, {"Chongjin", "KP", 41.77, 129.82}, {"Wonsan", "KP", 39.15, 127.45},
	{"Havana", "CU", 23.14, -82.35}, {"Matanzas", "CU", 23.05, -81.57}, {"Cienfuegos", "CU", 22.14, -80.45},
	{"Sevastopol", "UA-43", 44.62, 33.53}, {"Kerch", "UA-43", 45.35, 36.48}, {"Feodosia", "UA-43", 45.03, 35.40},
	{"Novorossiysk", "RU", 44.72, 37.80}, {"Primorsk", "RU", 60.35, 28.70}, {"Ust-Luga", "RU", 59.68, 28.40},
	{"Kozmino", "RU", 42.73, 133.03}, {"Taman", "RU", 45.10, 36.75},
}

// NearSanctionedArea returns the sanctioned area within
// SanctionedAreaRadiusKM of the point, or nil.
func NearSanctionedArea(lat, lon float64) *SanctionedArea {
	if !scoreValidPosition(lat, lon) {
		return nil
	}
	for i := range SanctionedAreas {
		a := &SanctionedAreas[i]
		if geo.DistanceKM(lat, lon, a.Lat, a.Lon) <= SanctionedAreaRadiusKM {
			return a
		}
	}
	return nil
}

// scoreValidPosition reports whether a position is real: finite, in range,
// and not 0,0 (what a missing position reads as).
func scoreValidPosition(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 && (lat != 0 || lon != 0)
}
