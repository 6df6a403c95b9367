package sanctions

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"overwatch/maritime/vessel"

	"overwatch"
)

// Sanctions match types (SanctionsMatch.MatchType, the subtype of a
// sanctions_match event).
const (
	MatchIMO  = "direct_imo"
	MatchMMSI = "mmsi"
	MatchName = "name"
)

// Confidence of each kind of sanctions match. An IMO number is the hull's
// for life, so a match on it is certain. An MMSI belongs to a radio
// licence, and is reassigned when a ship changes flag: a vessel that used
// the MMSI of a listed ship is very likely that ship, unless the entry
// names another IMO number (then the vessel took over a sanctioned ship's
// MMSI: worth a look, not a finding). A name is no identifier: a name
// match counts only when the name is distinctive (NameDistinctive), and
// its confidence rises with what else agrees: the flag (the entry's flag
// among the flags the vessel has flown, or the flags of the MIDs of the
// MMSIs it has used) and the ship type (the entry's vessel type, when the
// entry gives one, of the category of one of the vessel's AIS ship
// types). When the entry and the vessel carry different valid IMO
// numbers, they are two hulls that share a name (a namesake): no match,
// unless flag or type agree too, which is how a stolen identity looks;
// then a low-confidence one.
const (
	ConfidenceIMO          = 1.0
	ConfidenceMMSI         = 0.9
	ConfidenceMMSIOtherIMO = 0.5
	ConfidenceName         = 0.5  // the name alone
	ConfidenceNameType     = 0.6  // name and ship type
	ConfidenceNameFlag     = 0.75 // name and flag
	ConfidenceNameFlagType = 0.85 // name, flag and ship type
	ConfidenceNameOtherIMO = 0.3  // name and flag or type, but the entry names another IMO
)

// minDistinctiveNameLetters is how many letters a one-word name needs to
// be matched on.
const minDistinctiveNameLetters = 6

// MatchVessels matches our vessels to the entries of sanctions lists,
// by IMO number (direct_imo), by any MMSI the vessel has used per its
// identity history (mmsi), and by normalised name (name): the vessel's
// name and every former name of its identity history, against each
// entry's name and aliases (former names included). Each vessel gets at
// most one match per entry, the most confident (see the Confidence
// constants for the rules); vessels known only from identities are
// matched too. The result is ordered by IMO, then confidence (highest
// first), then list and entry.
func MatchVessels(entries []Entry, vessels []vessel.Profile, identities []vessel.Identity) []Match {
	type listed struct {
		entry int
		name  string // the list's spelling
	}
	byIMO, byMMSI, byName := map[overwatch.IMO][]int{}, map[uint32][]int{}, map[string][]listed{}
	for i, e := range entries {
		if e.IMO.Valid() {
			byIMO[e.IMO] = append(byIMO[e.IMO], i)
		}
		if validMMSI(e.MMSI) {
			byMMSI[e.MMSI] = append(byMMSI[e.MMSI], i)
		}
		seen := map[string]bool{}
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if k, ok := NameKey(n); ok && !seen[k] {
				seen[k] = true
				byName[k] = append(byName[k], listed{i, n})
			}
		}
	}
	history := map[overwatch.IMO][]vessel.Identity{}
	for _, r := range identities {
		history[r.IMO] = append(history[r.IMO], r)
	}
	profiles := append([]vessel.Profile(nil), vessels...)
	known := map[overwatch.IMO]bool{}
	for _, v := range vessels {
		known[v.IMO] = true
	}
	for imo, rows := range history {
		if !known[imo] {
			last := rows[0]
			for _, r := range rows {
				if r.ValidFrom.After(last.ValidFrom) {
					last = r
				}
			}
			profiles = append(profiles, vessel.Profile{IMO: imo, Name: last.Name, Flag: last.Flag, ShipType: last.ShipType})
		}
	}
	var out []Match
	for _, v := range profiles {
		rows := history[v.IMO]
		best := map[int]Match{}
		consider := func(i int, kind, on string, conf float64) {
			if b, ok := best[i]; !ok || conf > b.Confidence {
				best[i] = Match{IMO: v.IMO, Entry: entries[i], MatchType: kind, MatchedOn: on, Confidence: conf}
			}
		}
		ourIMO := v.IMO.Valid()
		if ourIMO {
			for _, i := range byIMO[v.IMO] {
				consider(i, MatchIMO, strconv.FormatUint(uint64(v.IMO), 10), ConfidenceIMO)
			}
		}
		flags, cats := map[string]bool{}, map[string]bool{}
		addType := func(t uint8) {
			if c, ok := vessel.CategoryOf(t); ok {
				cats[c.Name] = true
			}
		}
		names := []string{v.Name}
		flags[v.Flag] = true
		addType(v.ShipType)
		for _, r := range rows {
			names = append(names, r.Name)
			flags[r.Flag] = true
			flags[vessel.FlagOfMMSI(r.MMSI)] = true
			addType(r.ShipType)
			for _, i := range byMMSI[r.MMSI] {
				conf := ConfidenceMMSI
				if e := entries[i]; ourIMO && e.IMO.Valid() && e.IMO != v.IMO {
					conf = ConfidenceMMSIOtherIMO
				}
				consider(i, MatchMMSI, strconv.FormatUint(uint64(r.MMSI), 10), conf)
			}
		}
		delete(flags, "")
		for _, n := range names {
			k, ok := NameKey(n)
			if !ok {
				continue
			}
			for _, l := range byName[k] {
				e := entries[l.entry]
				flag := e.Flag != "" && flags[strings.ToUpper(e.Flag)]
				cat := TypeCategory(e)
				typ := cat != "" && cats[cat]
				conf := nameConfidence(flag, typ, ourIMO && e.IMO.Valid() && e.IMO != v.IMO)
				if conf > 0 {
					consider(l.entry, MatchName, l.name, conf)
				}
			}
		}
		for _, m := range best {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.IMO != b.IMO {
			return a.IMO < b.IMO
		}
		if a.Confidence != b.Confidence {
			return a.Confidence > b.Confidence
		}
		if a.Entry.ListSource != b.Entry.ListSource {
			return a.Entry.ListSource < b.Entry.ListSource
		}
		return a.Entry.EntryID < b.Entry.EntryID
	})
	return out
}

// nameConfidence is the confidence of a name match (see the Confidence
// constants), 0 for none.
func nameConfidence(flag, typ, otherIMO bool) float64 {
	switch {
	case otherIMO && (flag || typ):
		return ConfidenceNameOtherIMO
	case otherIMO:
		return 0
	case flag && typ:
		return ConfidenceNameFlagType
	case flag:
		return ConfidenceNameFlag
	case typ:
		return ConfidenceNameType
	}
	return ConfidenceName
}

func validMMSI(m uint32) bool { return m >= 100_000_000 && m <= 999_999_999 }

// vesselPrefixes are the abbreviations written before ships' names (motor
// vessel, motor tanker, motor ship, steamship, motor yacht, fishing
// vessel), dropped from names before they are compared.
var vesselPrefixes = map[string]bool{"MV": true, "MT": true, "MS": true, "SS": true, "MY": true, "FV": true, "TS": true}

// NameKey normalises a vessel name for matching: upper case, Latin
// accents dropped, punctuation as spaces, a leading vessel prefix (M/V,
// MV, M.T., MT, M/S, SS, M/Y, F/V) dropped, and the words joined without
// spaces, so that "M/T Sea-Pride" and "SEAPRIDE" have the same key. ok is
// false when the name is not distinctive enough to match on
// (NameDistinctive).
func NameKey(name string) (key string, ok bool) {
	words := nameWords(name)
	return strings.Join(words, ""), NameDistinctive(words)
}

// NameDistinctive reports whether a normalised name (its words) is
// distinctive enough to match vessels on: at least two words, or at least
// six letters. "ARK", "DORE" and "ELENI" are not; "DEEP SEA" and
// "ARTAVIL" are.
func NameDistinctive(words []string) bool {
	if len(words) >= 2 {
		return true
	}
	letters := 0
	for _, w := range words {
		for _, r := range w {
			if r >= 'A' && r <= 'Z' {
				letters++
			}
		}
	}
	return letters >= minDistinctiveNameLetters
}

func nameWords(name string) []string {
	var b strings.Builder
	for _, r := range strings.ToUpper(name) {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'À' && r <= 'Ý' && nameFold[r-'À'] != '_':
			b.WriteByte(nameFold[r-'À'])
		case r == '\'' || r == '’':
		default:
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	switch {
	case len(words) > 1 && vesselPrefixes[words[0]]:
		words = words[1:]
	case len(words) > 2 && len(words[0]) == 1 && len(words[1]) == 1 && vesselPrefixes[words[0]+words[1]]:
		words = words[2:]
	}
	return words
}

// nameFold is the unaccented letter of each upper-case Latin-1 letter from
// À (U+00C0) to Ý (U+00DD); '_' where there is none.
const nameFold = "AAAAAA_CEEEEIIII_NOOOOO_OUUUUY"

var reVesselType = regexp.MustCompile(`(?i)\b(?:Other )?Vessel Type:?\s+([^;.]+)`)

// TypeCategory returns the ship category (vessel.Categories' names) of the
// vessel type a sanctions entry gives ("Crude Oil Tanker": tanker), "" when
// it gives none or one of no category. The type is the list's vessel type
// column, else what its remarks say ("Vessel Type X", "Other Vessel Type
// X").
func TypeCategory(e Entry) string {
	if c := VesselTypeCategory(e.VesselType); c != "" {
		return c
	}
	m := reVesselType.FindStringSubmatch(e.Remarks)
	if m == nil {
		return ""
	}
	return VesselTypeCategory(m[1])
}

// VesselTypeCategory returns the ship category of a vessel type written
// out ("Crude/Oil Products Tanker", "Bulk Carrier", "Tug"), "" when none.
func VesselTypeCategory(t string) string {
	t = strings.ToUpper(t)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("TANKER"):
		return "tanker"
	case has("PASSENGER", "FERRY", "CRUISE"):
		return "passenger"
	case has("FISHING", "TRAWLER"):
		return "fishing"
	case has("TUG"):
		return "tug"
	case has("PLEASURE", "YACHT"):
		return "pleasure"
	case has("CARGO", "BULK", "CONTAINER", "ROLL-ON", "RO-RO", "REEFER", "CARRIER", "LANDING CRAFT"):
		return "cargo"
	case has("SUPPLY", "ANCHOR HANDLING", "DRILLING", "DREDGER", "RESEARCH"):
		return "special"
	}
	return ""
}
