package history

// DMA writes the navigational status and the ship type as text; these
// tables give the ITU-R M.1371 codes. Keys are normalised by normKey
// (lower case, letters and digits only), so that spelling variants of
// case, spaces and hyphens match.

// navStatusCodes maps DMA's "Navigational status" to the ITU code.
var navStatusCodes = map[string]uint8{
	"underwayusingengine":                            0,
	"atanchor":                                       1,
	"notundercommand":                                2,
	"restrictedmaneuverability":                      3,
	"restrictedmanoeuvrability":                      3,
	"restrictedmanoeuverability":                     3,
	"restrictedmaneuvrability":                       3,
	"constrainedbyherdraught":                        4,
	"constrainedbyherdraft":                          4,
	"moored":                                         5,
	"aground":                                        6,
	"engagedinfishing":                               7,
	"underwaysailing":                                8,
	"reservedforfutureamendmenthsc":                  9,
	"reservedforhsc":                                 9,
	"reservedforfutureamendmentwig":                  10,
	"reservedforwig":                                 10,
	"powerdrivenvesseltowingastern":                  11,
	"powerdrivenvesselpushingaheadortowingalongside": 12,
	"reservedforfutureuse":                           13,
	"aissart":                                        14,
	"aissartisactive":                                14,
	"unknownvalue":                                   15,
	"unknown":                                        15,
	"undefined":                                      15,
	"notdefined":                                     15,
	"notdefineddefault":                              15,
}

// shipTypeCodes maps DMA's "Ship type" categories to a representative
// ITU ship and cargo type (the first code of the category, with no cargo
// hazard digit); 0 is "not available".
var shipTypeCodes = map[string]uint8{
	"wig":                20,
	"wingingroundcraft":  20,
	"fishing":            30,
	"towing":             31,
	"towinglongwide":     32,
	"towinglengthwidth":  32,
	"dredging":           33,
	"diving":             34,
	"military":           35,
	"sailing":            36,
	"pleasure":           37,
	"pleasurecraft":      37,
	"hsc":                40,
	"highspeedcraft":     40,
	"pilot":              50,
	"sar":                51,
	"searchandrescue":    51,
	"tug":                52,
	"porttender":         53,
	"antipollution":      54,
	"lawenforcement":     55,
	"medical":            58,
	"notpartytoconflict": 59,
	"passenger":          60,
	"cargo":              70,
	"tanker":             80,
	"other":              90,
	"reserved":           0,
	"spare":              0,
	"spare1":             0,
	"spare2":             0,
	"undefined":          0,
	"unknown":            0,
	"notavailable":       0,
}

// normKey appends b lower-cased, letters and digits only, to dst.
func normKey(dst, b []byte) []byte {
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			dst = append(dst, c)
		}
	}
	return dst
}

// lookup finds a text in a table (a number is taken as the code itself
// when it is at most max).
func lookup(table map[string]uint8, b []byte, max uint64) (uint8, bool) {
	if v, ok := parseUint(b); ok {
		return uint8(v), v <= max
	}
	if len(b) > 64 {
		return 0, false
	}
	var buf [64]byte
	code, ok := table[string(normKey(buf[:0], b))]
	return code, ok
}

// navStatusCode returns the ITU code of a DMA navigational status.
func navStatusCode(b []byte) (uint8, bool) { return lookup(navStatusCodes, b, 15) }

// shipTypeCode returns the ITU code of a DMA ship type.
func shipTypeCode(b []byte) (uint8, bool) { return lookup(shipTypeCodes, b, 255) }
