package sanctions

// Entry is a vessel of a sanctions list (the OFAC SDN list:
// entries of type "vessel", with their aliases and remarks).
type Entry struct {
	ListSource string // e.g. "OFAC SDN"
	EntryID    string // the list's own id (SDN ent_num)
	Name       string
	Aliases    []string // former and alternative names
	IMO        uint32   // 0 when the entry gives none
	MMSI       uint32   // 0 when none
	Flag       string
	Program    string
	Remarks    string
}

// Match is a vessel of ours matched to a sanctions entry.
type Match struct {
	IMO        uint32
	Entry      Entry
	MatchType  string // "direct_imo", "mmsi" or "name" (including former names)
	MatchedOn  string // the value that matched
	Confidence float64
}
