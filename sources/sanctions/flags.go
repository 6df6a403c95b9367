package sanctions

import (
	"strings"

	"overwatch/maritime/country"
)

// noFlag are the list's ways of saying the vessel flies no known flag.
var noFlag = map[string]bool{"NONE IDENTIFIED": true, "UNKNOWN": true, "NONE": true}

// FlagCode returns the ISO 3166-1 alpha-2 code of a flag state named the
// way sanctions lists name it ("Democratic People's Republic of Korea",
// "St. Kitts & Nevis"), read with the one country table
// (maritime/country); a two-letter code is returned upper-cased; a name
// it does not know is returned as given (trimmed), and "None Identified"
// as "".
func FlagCode(name string) string {
	name = strings.Join(strings.Fields(name), " ")
	key := country.Key(name)
	if key == "" || noFlag[key] {
		return ""
	}
	if c, ok := country.Lookup(name); ok && c.ISO2 != "" && (len(key) != 2 || c.ISO2 == key) {
		return c.ISO2
	}
	return name
}
