package sanctions

import "overwatch"

// Entry is a vessel of a sanctions list (the OFAC SDN list: entries of
// type "vessel", with their aliases and remarks), as its files say: the one
// type the import parses, the store keeps and the matcher reads.
type Entry struct {
	ListSource string        // e.g. "OFAC SDN"
	EntryID    string        // the list's own id (SDN ent_num)
	Name       string        // the vessel's name on the list
	Aliases    []string      // former and alternative names (ALT file, f.k.a., a.k.a., Former Vessel Name)
	IMO        overwatch.IMO // 0 when the entry gives no IMO number with a valid check digit
	MMSI       uint32        // 0 when none
	Flag       string        // ISO 3166-1 alpha-2 where the flag's name is known, else the name as listed
	Program    string        // the sanctions programs, "; "-separated (IRAN; NPWMD; IFSR)
	Remarks    string        // the remarks, continued from the comments file

	FormerFlags []string // "Former Vessel Flag" and "Other Vessel Flag" of the remarks, like Flag
	VesselType  string   // as listed: "Crude Oil Tanker", "General Cargo", ...
	CallSign    string
	Owner       string
	Tonnage     int // deadweight tonnes as listed, 0 when none
	GRT         int // gross register tons, 0 when none
}

// Match is a vessel of ours matched to a sanctions entry.
type Match struct {
	IMO        overwatch.IMO
	Entry      Entry
	MatchType  string // "direct_imo", "mmsi" or "name" (including former names)
	MatchedOn  string // the value that matched
	Confidence float64
}
