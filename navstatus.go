package overwatch

// navStatusTexts are the navigational status texts of ITU-R M.1371-5
// Table 45 in the words gpsd prints as "status_text" (checked against the
// gpsd ground truth of the AIS decoder's test data: "Restricted
// maneuverability", 12 "Power-driven vessel pushing ahead or towing
// alongside", 15 "Not defined").
var navStatusTexts = [16]string{
	"Under way using engine",
	"At anchor",
	"Not under command",
	"Restricted maneuverability",
	"Constrained by her draught",
	"Moored",
	"Aground",
	"Engaged in fishing",
	"Under way sailing",
	"Reserved for HSC",
	"Reserved for WIG",
	"Power-driven vessel towing astern",
	"Power-driven vessel pushing ahead or towing alongside",
	"Reserved",
	"AIS-SART is active",
	"Not defined",
}

// NavStatusUndefined is the navigational status code meaning "not defined":
// the vessel did not say.
const NavStatusUndefined = 15

// NavStatusText is the ITU-R M.1371 text of a navigational status code;
// codes above 15 (not representable on the wire) give "Not defined".
func NavStatusText(code uint8) string {
	if code > NavStatusUndefined {
		return navStatusTexts[NavStatusUndefined]
	}
	return navStatusTexts[code]
}
