package terminals

// miningMeta is the operator table of the mining terminals: operators and
// nameplate capacities as the operators (or the port authority) publish
// them, each with its source. No copy of these pages is bundled (the GEM
// Global Coal Terminals Tracker was not available, see docs/terminals.md);
// a value no source was recorded for is null with the reason as its
// source. Coordinates come from the World Port Index (wpi.go), not from
// this table.
var miningMeta = map[string]struct {
	Operator  Value[string]
	Capacity  Value[*float64]
	Status    Value[string]
	StartYear Value[*int]
}{
	"port-hedland": {
		Operator:  Value[string]{"Pilbara Ports Authority (port); BHP, Fortescue, Roy Hill and Mineral Resources berths", "Pilbara Ports Authority, Port Hedland port information, pilbaraports.com.au"},
		Capacity:  Value[*float64]{f(660), "Government of Western Australia, Port of Port Hedland development plan endorsed in January 2022: iron ore capacity 660 Mtpa (Ports Minister R. Saffioti; Port Hedland Industries Council, 2022-03-10)"},
		Status:    operating("World Port Index row present; Pilbara Ports Authority trade statistics"),
		StartYear: Value[*int]{i(1966), "Pilbara Ports Authority, Port Hedland history: first iron ore shipment 1966"},
	},
	"dampier": {
		Operator:  Value[string]{"Rio Tinto (Parker Point and East Intercourse Island)", "Rio Tinto, Pilbara iron ore operations, riotinto.com"},
		Capacity:  unknownCapacity("Rio Tinto publishes the Pilbara port system's capacity (Dampier with Cape Lambert), not Dampier's alone"),
		Status:    operating("Pilbara Ports Authority trade statistics, Port of Dampier"),
		StartYear: Value[*int]{i(1966), "Rio Tinto (Hamersley Iron), first shipment from Parker Point 1966"},
	},
	"ponta-da-madeira": {
		Operator:  Value[string]{"Vale (Terminal Marítimo de Ponta da Madeira)", "Vale, Northern System (Carajás–Ponta da Madeira), vale.com"},
		Capacity:  unknownCapacity("no nameplate capacity recorded from Vale's publications"),
		Status:    operating("Vale production and sales reports (Northern System shipments)"),
		StartYear: Value[*int]{i(1986), "Vale, Carajás railway and Ponta da Madeira terminal opened 1985–1986"},
	},
	"tubarao": {
		Operator:  Value[string]{"Vale (Complexo de Tubarão)", "Vale, Southeastern System, vale.com"},
		Capacity:  unknownCapacity("no nameplate capacity recorded from Vale's publications"),
		Status:    operating("Vale production and sales reports (Southeastern System shipments)"),
		StartYear: Value[*int]{i(1966), "Vale, Tubarão port opened 1966"},
	},
	"hay-point": {
		Operator:  Value[string]{"BHP Mitsubishi Alliance (Hay Point Coal Terminal); Dalrymple Bay Infrastructure (Dalrymple Bay Coal Terminal)", "North Queensland Bulk Ports, Port of Hay Point, nqbp.com.au"},
		Capacity:  Value[*float64]{f(139.2), "Dalrymple Bay Coal Terminal 84.2 Mtpa (dbct.com.au) + Hay Point Coal Terminal 55 Mtpa (BMA/NQBP)"},
		Status:    operating("North Queensland Bulk Ports trade statistics, Port of Hay Point"),
		StartYear: Value[*int]{i(1971), "North Queensland Bulk Ports: Hay Point Coal Terminal opened 1971"},
	},
	"newcastle": {
		Operator:  Value[string]{"Port Waratah Coal Services (Carrington, Kooragang); Newcastle Coal Infrastructure Group", "Port of Newcastle, coal terminals, portofnewcastle.com.au"},
		Capacity:  Value[*float64]{f(211), "Port Waratah Coal Services 145 Mtpa (pwcs.com.au) + NCIG 66 Mtpa (ncig.com.au)"},
		Status:    operating("Port of Newcastle trade reports"),
		StartYear: Value[*int]{nil, "not recorded: coal has left Newcastle since the 1800s; the present terminals opened 1976–2010"},
	},
	"richards-bay": {
		Operator:  Value[string]{"Richards Bay Coal Terminal", "Richards Bay Coal Terminal, rbct.co.za"},
		Capacity:  Value[*float64]{f(91), "Richards Bay Coal Terminal: design capacity 91 Mtpa (rbct.co.za)"},
		Status:    operating("Richards Bay Coal Terminal export statistics"),
		StartYear: Value[*int]{i(1976), "Richards Bay Coal Terminal: operations began 1976 (rbct.co.za)"},
	},
	"qinhuangdao": {
		Operator:  Value[string]{"Qinhuangdao Port Co. (Hebei Port Group)", "Qinhuangdao Port Co., Ltd. annual report (HKEX 3369)"},
		Capacity:  unknownCapacity("no nameplate capacity recorded from the operator's publications"),
		Status:    operating("Qinhuangdao Port Co., Ltd. annual report (coal throughput)"),
		StartYear: Value[*int]{nil, "not recorded"},
	},
}

func f(v float64) *float64 { return &v }
func i(v int) *int         { return &v }

func operating(source string) Value[string] { return Value[string]{"operating", source} }

func unknownCapacity(why string) Value[*float64] { return Value[*float64]{nil, "not recorded: " + why} }
