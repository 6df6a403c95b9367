package ais

import "overwatch"

// NavStatusText is the ITU-R M.1371 text of a navigational status code;
// codes above 15 (not representable on the wire) give "Not defined". The
// table is the shared vocabulary's (overwatch.NavStatusText).
func NavStatusText(code uint8) string { return overwatch.NavStatusText(code) }

// shipTypeGroups name the first digit of codes 20-99 that are split by
// hazard category (ITU-R M.1371-5 Table 53), as gpsd words them.
var shipTypeGroups = [10]string{
	2: "Wing in ground (WIG)",
	4: "High speed craft (HSC)",
	6: "Passenger",
	7: "Cargo",
	8: "Tanker",
	9: "Other Type",
}

// shipTypeSpecial are codes 30-39 and 50-59, one type each.
var shipTypeSpecial = [20]string{
	"Fishing",
	"Towing",
	"Towing: length exceeds 200m or breadth exceeds 25m",
	"Dredging or underwater ops",
	"Diving ops",
	"Military ops",
	"Sailing",
	"Pleasure Craft",
	"Reserved",
	"Reserved",
	"Pilot Vessel",
	"Search and Rescue vessel",
	"Tug",
	"Port Tender",
	"Anti-pollution equipment",
	"Law Enforcement",
	"Spare - Local Vessel",
	"Spare - Local Vessel",
	"Medical Transport",
	"Ship according to RR Resolution No. 18",
}

// shipTypeSecond name the second digit of the grouped codes.
var shipTypeSecond = [10]string{
	"all ships of this type",
	"Hazardous category A",
	"Hazardous category B",
	"Hazardous category C",
	"Hazardous category D",
	"Reserved for future use",
	"Reserved for future use",
	"Reserved for future use",
	"Reserved for future use",
	"No additional information",
}

// shipTypeTexts is filled from the tables above, once, at package
// initialisation of this variable (no init function).
var shipTypeTexts = buildShipTypeTexts()

func buildShipTypeTexts() [256]string {
	var t [256]string
	for c := 0; c < 256; c++ {
		d1, d2 := c/10, c%10
		switch {
		case c == 0:
			t[c] = "Not available"
		case c < 20:
			t[c] = "Reserved for future use"
		case c < 100 && (d1 == 3 || d1 == 5):
			t[c] = shipTypeSpecial[(d1-3)/2*10+d2]
		case c < 100:
			second := shipTypeSecond[d2]
			if d1 == 2 && d2 == 9 {
				second = "Reserved for future use" // gpsd: WIG has no "No additional information"
			}
			if d1 == 9 && d2 == 9 {
				second = "no additional information" // gpsd's spelling
			}
			t[c] = shipTypeGroups[d1] + " - " + second
		case c < 200:
			t[c] = "Reserved for regional use"
		default:
			t[c] = "Reserved for future use"
		}
	}
	return t
}

// ShipTypeText is the ITU-R M.1371-5 Table 53 text of a ship and cargo
// type code, worded as gpsd's "shiptype_text" for codes 0-99. Codes
// 100-199 give "Reserved for regional use" and 200-255 "Reserved for
// future use" (the ITU wording; gpsd prints "INVALID SHIP TYPE").
func ShipTypeText(code uint8) string { return shipTypeTexts[code] }

var epfdTexts = [16]string{
	"Undefined",
	"GPS",
	"GLONASS",
	"Combined GPS/GLONASS",
	"Loran-C",
	"Chayka",
	"Integrated navigation system",
	"Surveyed",
	"Galileo",
	"Reserved",
	"Reserved",
	"Reserved",
	"Reserved",
	"Reserved",
	"Reserved",
	"Internal GNSS",
}

// EPFDText names a type of electronic position fixing device (0-15).
func EPFDText(code uint8) string { return epfdTexts[code&15] }

var aidTypeTexts = [32]string{
	"Unspecified",
	"Reference point",
	"RACON",
	"Fixed offshore structure",
	"Spare, Reserved for future use.",
	"Light, without sectors",
	"Light, with sectors",
	"Leading Light Front",
	"Leading Light Rear",
	"Beacon, Cardinal N",
	"Beacon, Cardinal E",
	"Beacon, Cardinal S",
	"Beacon, Cardinal W",
	"Beacon, Port hand",
	"Beacon, Starboard hand",
	"Beacon, Preferred Channel port hand",
	"Beacon, Preferred Channel starboard hand",
	"Beacon, Isolated danger",
	"Beacon, Safe water",
	"Beacon, Special mark",
	"Cardinal Mark N",
	"Cardinal Mark E",
	"Cardinal Mark S",
	"Cardinal Mark W",
	"Port hand Mark",
	"Starboard hand Mark",
	"Preferred Channel Port hand",
	"Preferred Channel Starboard hand",
	"Isolated danger",
	"Safe Water",
	"Special Mark",
	"Light Vessel / LANBY / Rigs",
}

// AidTypeText names an aid-to-navigation type (type 21, 0-31), as gpsd's
// "aid_type_text".
func AidTypeText(code uint8) string { return aidTypeTexts[code&31] }
