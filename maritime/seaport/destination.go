package seaport

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// OfDestination maps the free-text destination a crew typed into AIS
// (message type 5, 20 six-bit characters) to the slug of one of the
// reference ports, or reports ok false when the text names none of them.
// It is called for every port call, so it works on a precomputed index,
// without regular expressions and without allocating.
//
// Normalisation:
//   - letters are upper-cased and folded to ASCII (PARANAGUÁ, CONSTANȚA,
//     SÃO LUÍS); '@', the six-bit padding, counts as a space wherever it is;
//   - "FROM>TO" and "FROM > TO": only the part after the last '>' counts, and
//     an empty part after it ("SANTOS>") names no port;
//   - every other character (space, '.', '-', ',', ';', apostrophe, ...)
//     separates words, and words are compared without the spaces between
//     them, so "BR SSZ" is BRSSZ, "P.HEDLAND" is PHEDLAND, "R'DAM" is RDAM
//     and "RIO-GRANDE" is RIOGRANDE; '/' too is only a separator, not a
//     route ("R'DAM/LWARDEN" names no port);
//   - leading "TO", "FOR" and "PORT OF" are dropped ("TO SANTOS", "FOR ORDERS");
//   - text longer than 64 letters and digits, or of more than 12 words, is
//     not a destination.
//
// Matching, first rule that applies:
//  1. values that name no port: ORDERS (and FOR ORDERS), TBA, TBN, TBC, TBD,
//     SEA, AT SEA, NONE, NIL, NA (N/A), UNKNOWN, OPL, and blank text;
//  2. an exact spelling: each port's official UN/LOCODE (BRSSZ, "BR SSZ"),
//     its name as listed (Ponta da Madeira (São Luís)), the name without
//     and the part within the parentheses, and the spellings in
//     destinationSpellings: alternate LOCODEs seen in the World Port Index
//     and in use (CNQDG and CNQIN for Qingdao, CNDAL for Dalian, CNSGH for
//     Shanghai, USNOL for New Orleans, CNTSN for Tianjin, USNSS for Sabine
//     Pass, nearby codes inside the port area such as BRSLZ and BRVIX),
//     abbreviations (PHEDLAND, PT HEDLAND, NOVO, NVRSK, RBCT, DBCT, QHD, PDM,
//     NOLA, RDAM) and other names of the same place (VITORIA for Tubarão;
//     SAO LUIS and ITAQUI for Ponta da Madeira; PUSAN; ILLICHIVSK; XINGANG
//     for Tianjin; KWINANA; EUROPOORT; HAYPOINT). A spelling of a place
//     outside the port area is not listed (BUSAN NEW PORT, YANGSHAN,
//     DONGJIAKOU), and a name that is common elsewhere (SAN LORENZO for the
//     Up-River terminals) counts only when a country or region follows;
//  3. a prefix of at least 5 letters of a port's name or main other name,
//     spaces removed (PARANAG, BAHIAB, NEWCA, RIOGR, PORTH, SAOLU), that
//     names one port only and, for a name of several words, is longer than
//     its first word (BAHIA is a Brazilian state, PONTA and TANJUNG begin
//     many ports' names) or is a cut of at least 6 letters of a first word
//     of 7 letters or more that is no such common beginning (RICHAR for
//     Richards Bay: crews cut names to fit). The name as listed counts with
//     the part in parentheses, so that a name cut at AIS's 20 characters
//     still names its port ("JAKARTA (TANJUNG PRI", "DAMMAM (KING ABDULAZ"),
//     with a country after it too ("JAKARTA (TANJUNG PRI ID", rule 4).
//     PARANA and PARAN are refused: they are the river,
//     the Argentine river port and the Brazilian state as much as Paranaguá;
//  4. otherwise, trailing words are dropped one at a time and the rules
//     retried: a country (ISO code, alpha-3 code or name: BR, BRA, BRAZIL,
//     BRASIL, SOUTH AFRICA) or a region of the port (NSW, QLD, WA, BC, SP,
//     RS, LA, TX, ...), which the port found must then be in ("SANTOS BR",
//     "NEWCASTLE NSW"; "NEWCASTLE UK", "VANCOUVER WA", "RIO GRANDE AR" and
//     "ALEXANDRIA US" name none of the ports), or a word that only says
//     where in the port (ANCH, ANCHORAGE, ROADS, OPL, PILOT, PORT, HARBOUR,
//     TERMINAL, BERTH, LNG). Any other trailing word means no port: a
//     port's name at the start of a longer name does not capture it
//     (ALEXANDRIA BAY, SANTOS DUMONT, NEWCASTLE UPON TYNE).
//
// Unqualified names go to the reference port: NEWCASTLE is Newcastle NSW,
// ALEXANDRIA is Alexandria in Egypt, ODESSA is Odesa.
func OfDestination(text string) (slug string, ok bool) {
	ix := destinations()
	var d destText
	if !d.parse(text) {
		return "", false
	}
	p := ix.lookup(&d)
	if p < 0 {
		return "", false
	}
	return ix.slugs[p], true
}

// destinationSpellings are the spellings of each port beyond the automatic
// ones (official LOCODE, name, name parts). names also match by prefix
// (rule 3); aliases match exactly; qualified match exactly only with a
// country or region after; regions are the words accepted after the name
// besides the country's.
var destinationSpellings = map[string]struct{ names, aliases, qualified, regions []string }{
	"alexandria": {
		names:   []string{"EL DEKHEILA", "DEKHEILA"},
		aliases: []string{"ALEX", "EL DEKHILA", "DEKHILA", "AL ISKANDARIYAH"}},
	"bahia-blanca": {aliases: []string{"B BLANCA", "INGENIERO WHITE", "ING WHITE", "PUERTO GALVAN"}},
	"bonny":        {names: []string{"FINIMA"}, aliases: []string{"NLNG", "BONNY ISLAND", "BONNY RIVER"}},
	"busan":        {names: []string{"PUSAN"}, aliases: []string{"BUSAN NORTH PORT", "BUSAN NORTH"}},
	"chiba":        {aliases: []string{"CHIBA KO"}},
	"chornomorsk": {
		names:   []string{"ILLICHIVSK"},
		aliases: []string{"CHERNOMORSK", "ILYICHEVSK", "ILICHEVSK", "ILLICHEVSK"}},
	"constanta": {aliases: []string{"CONSTANTZA", "CONSTANTSA", "KONSTANTA"}},
	"dalian":    {aliases: []string{"CNDAL", "DAIREN", "DALIAN XINGANG", "DALIAN NEW PORT", "DAGUSHAN"}},
	"dammam": {aliases: []string{"KING ABDUL AZIZ PORT", "KING ABDUL AZIZ", "KING ABDULAZIZ", "AD DAMMAM",
		"AL DAMMAM"}},
	"dampier":   {regions: []string{"WA"}},
	"fremantle": {aliases: []string{"FREO", "COCKBURN SOUND", "AUKWI"}, regions: []string{"WA"}},
	"gladstone-curtis-island": {
		names:   []string{"CURTIS ISLAND"},
		aliases: []string{"PORT CURTIS", "QCLNG", "APLNG", "GLNG"},
		regions: []string{"QLD"}},
	"hay-point": {
		aliases: []string{"DBCT", "HPCT", "DALRYMPLE BAY", "DALRYMPLE BAY COAL TERMINAL", "HAY POINT COAL TERMINAL"},
		regions: []string{"QLD"}},
	"jakarta": {aliases: []string{"TG PRIOK", "TJ PRIOK", "TANJ PRIOK", "PRIOK", "DJAKARTA", "IDTPP",
		"TANDJOENGPRIOK", "TANDJONG PRIOK"}},
	"la-pallice": {
		names:   []string{"LA PALLICE", "LA ROCHELLE"},
		aliases: []string{"FRLRH", "LA ROCHELLE LA PALLICE"}},
	"mundra": {aliases: []string{"ADANI MUNDRA"}},
	"new-orleans": {
		aliases: []string{"USNOL", "NOLA", "N ORLEANS", "MISSISSIPPI RIVER", "MISS RIVER", "MISSISSIPPI",
			"LOWER MISS", "DESTREHAN", "WESTWEGO"},
		regions: []string{"LA"}},
	"newcastle": {regions: []string{"NSW"}},
	"novorossiysk": {aliases: []string{"NOVO", "NVRSK", "NOVOROSSIISK", "NOVOROSSIJSK", "NOVOROSIYSK",
		"NOVOROSSISK"}},
	"odesa":     {names: []string{"ODESSA"}, aliases: []string{"ODYESSA"}},
	"paranagua": {regions: []string{"PR"}},
	"ponta-da-madeira": {
		names: []string{"ITAQUI"},
		aliases: []string{"PONTA DE MADEIRA", "PTA DA MADEIRA", "PTA MADEIRA", "P DA MADEIRA", "PDM", "TMPM",
			"SAO LUIZ", "SAO LUIS DO MARANHAO", "BRSLZ"},
		regions: []string{"MA"}},
	"port-hedland": {
		names:   []string{"PT HEDLAND"},
		aliases: []string{"P HEDLAND", "HEDLAND", "PORT HEADLAND", "PT HEADLAND"},
		regions: []string{"WA"}},
	"qingdao": {aliases: []string{"CNQDG", "CNQIN", "TSINGTAO", "TSINGTAU", "QINGDAO GANG", "QIANWAN",
		"HUANGDAO"}},
	"qinhuangdao": {aliases: []string{"QHD", "CHINWANGTAO", "CHIN HUANG TAO", "SHANHAIGUAN"}},
	"ras-laffan":  {aliases: []string{"RAS LAFAN", "R LAFFAN"}},
	"richards-bay": {
		aliases: []string{"RBCT", "RICHARDS", "RICHARD BAY", "R BAY", "RICHARDS BAY COAL TERMINAL"},
		regions: []string{"SA", "KZN"}},
	"rio-grande": {aliases: []string{"RIO GRANDE DO SUL", "R GRANDE"}, regions: []string{"RS"}},
	"rizhao":     {aliases: []string{"SHIJIU", "SHIJIUSUO"}},
	"rosario": {
		aliases: []string{"UP RIVER", "ARSLO", "PUERTO GENERAL SAN MARTIN", "PTO GRAL SAN MARTIN",
			"GENERAL SAN MARTIN", "VILLA GOBERNADOR GALVEZ"},
		qualified: []string{"SAN LORENZO", "SAN MARTIN"}},
	"rotterdam": {aliases: []string{"NLEUR", "EUROPOORT", "MAASVLAKTE", "MAASVLAKTE 2", "MAASVLAKTE II",
		"RDAM", "ROTTERDAM EUROPOORT"}},
	"sabine-pass": {
		names:   []string{"SABINE PASS"},
		aliases: []string{"SABINE", "USNSS"},
		regions: []string{"TX", "LA"}},
	"santos":    {regions: []string{"SP"}},
	"seattle":   {regions: []string{"WA"}},
	"shanghai":  {aliases: []string{"CNSGH", "CNWGQ", "WGQ"}},
	"tacoma":    {regions: []string{"WA"}},
	"tianjin":   {names: []string{"TIANJIN", "XINGANG"}, aliases: []string{"CNTSN", "TIENTSIN", "TIANJIN NEW PORT"}},
	"tubarao":   {aliases: []string{"VITORIA", "BRVIX", "PRAIA MOLE", "VITORIA TUBARAO"}, regions: []string{"ES"}},
	"vancouver": {aliases: []string{"NORTH VANCOUVER"}, regions: []string{"BC"}},
	"zeebrugge": {names: []string{"ZEEBRUGGE"}, aliases: []string{"ZEEBRUGES", "ZEEBRUGE"}},
}

// countryWords are the words besides the ISO code that name a country.
var countryWords = map[string][]string{
	"AR": {"ARG", "ARGENTINA"}, "AU": {"AUS", "AUST", "AUSTRALIA"}, "BE": {"BEL", "BELGIUM"},
	"BR": {"BRA", "BRAZIL", "BRASIL"}, "CA": {"CAN", "CANADA"}, "CN": {"CHN", "CHINA", "PRC"},
	"EG": {"EGY", "EGYPT"}, "FR": {"FRA", "FRANCE"}, "ID": {"IDN", "INDONESIA"}, "IN": {"IND", "INDIA"},
	"JP": {"JPN", "JAPAN"}, "KR": {"KOR", "KOREA", "SOUTH KOREA", "S KOREA", "ROK"},
	"NG": {"NGA", "NIGERIA"}, "NL": {"NLD", "NETHERLANDS", "HOLLAND"}, "QA": {"QAT", "QATAR"},
	"RO": {"ROU", "ROMANIA"}, "RU": {"RUS", "RUSSIA"}, "SA": {"SAU", "KSA", "SAUDI", "SAUDI ARABIA"},
	"UA": {"UKR", "UKRAINE"}, "US": {"USA"}, "ZA": {"ZAF", "RSA", "SOUTH AFRICA", "S AFRICA"},
}

// destinationNoise are trailing words that say where in a port, not which.
var destinationNoise = []string{"ANCH", "ANCHORAGE", "ROADS", "RDS", "OPL", "PILOT", "PILOTS", "PORT",
	"HARBOUR", "HARBOR", "HBR", "TERMINAL", "TML", "BERTH", "LNG"}

// destinationNoPort are values that name no port (rule 1).
var destinationNoPort = []string{"ORDERS", "TBA", "TBN", "TBC", "TBD", "SEA", "AT SEA", "NONE", "NIL",
	"NA", "UNKNOWN", "OPL"}

// destinationRefused are prefixes that rule 3 must not resolve.
var destinationRefused = []string{"PARAN", "PARANA"}

// destinationGeneric are first words that begin many places' names: no cut
// of them names a port (TANJUN is not Tanjung Priok).
var destinationGeneric = []string{"TANJUNG"}

const (
	destMaxLen   = 64
	destMaxWords = 12
	destMinPref  = 5
	destCutWord  = 7 // a first word this long or longer...
	destCutMin   = 6 // ...may be cut to this many letters or more
)

// destText is a destination after normalisation: its letters and digits
// without separators in b, and where each word starts and ends.
type destText struct {
	b     [destMaxLen]byte
	n     int
	words [destMaxWords][2]uint8
	nw    int
}

// asciiFold maps U+00C0..U+017F to an ASCII capital (' ' for × and ÷).
const asciiFold = "AAAAAAACEEEEIIIIDNOOOOO OUUUUYTSAAAAAAACEEEEIIIIDNOOOOO OUUUUYTY" + // U+00C0
	"AAAAAACCCCCCCCDDDDEEEEEEEEEEGGGGGGGGHHHHIIIIIIIIIIIIJJKKKLLLLLLLLLLNNNNNNNNN" + // U+0100
	"OOOOOOOORRRRRRSSSSSSSSTTTTTTUUUUUUUUUUUUWWYYYZZZZZZS" // U+014C

// parse normalises text into d; false if it is too long to be a destination.
func (d *destText) parse(text string) bool {
	d.n, d.nw = 0, 0
	inWord, over := false, false
	for _, r := range text {
		c := byte(' ')
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			c = byte(r)
		case r >= 'a' && r <= 'z':
			c = byte(r) - 'a' + 'A'
		case r == '>':
			d.n, d.nw, inWord, over = 0, 0, false, false
			continue
		case r >= 0xC0 && r < 0x180:
			c = asciiFold[r-0xC0]
		case r >= 0x218 && r <= 0x21B: // Ș ș Ț ț (Romanian comma below)
			c = "SSTT"[r-0x218]
		}
		if c == ' ' {
			inWord = false
			continue
		}
		if over || d.n == destMaxLen || (!inWord && d.nw == destMaxWords) {
			over = true
			continue
		}
		if !inWord {
			d.words[d.nw] = [2]uint8{uint8(d.n), uint8(d.n)}
			d.nw++
			inWord = true
		}
		d.b[d.n] = c
		d.n++
		d.words[d.nw-1][1] = uint8(d.n)
	}
	return !over
}

// span is words lo..hi-1 without the spaces between them.
func (d *destText) span(lo, hi int) []byte { return d.b[d.words[lo][0]:d.words[hi-1][1]] }

type destEntry struct {
	port      int
	qualified bool
}

type destIndex struct {
	slugs  []string
	exact  map[string]destEntry
	prefix map[string]int    // port, or -1 where ambiguous or refused
	suffix map[string]uint64 // country and region words: the ports they fit
	noise  map[string]bool
	noPort map[string]bool
}

var destinations = sync.OnceValue(func() *destIndex { return newDestIndex(All()) })

// compactOf is s normalised and without spaces, and the length of its first word.
func compactOf(s string) (string, int) {
	var d destText
	if !d.parse(s) || d.nw == 0 {
		panic(fmt.Sprintf("destination spelling %q", s))
	}
	return string(d.span(0, d.nw)), int(d.words[0][1])
}

func newDestIndex(ports []Port) *destIndex {
	if len(ports) > 64 {
		panic("destination index: more than 64 ports")
	}
	ix := &destIndex{exact: map[string]destEntry{}, prefix: map[string]int{}, suffix: map[string]uint64{},
		noise: map[string]bool{}, noPort: map[string]bool{}}
	exact := func(i int, s string, qualified bool) {
		k, _ := compactOf(s)
		if e, ok := ix.exact[k]; ok && e.port != i {
			panic(fmt.Sprintf("destination %q names both %s and %s", s, ports[e.port].Slug, ports[i].Slug))
		}
		ix.exact[k] = destEntry{port: i, qualified: qualified}
	}
	prefix := func(i int, k string) {
		if p, ok := ix.prefix[k]; ok && p != i {
			ix.prefix[k] = -1
		} else {
			ix.prefix[k] = i
		}
	}
	name := func(i int, s string) {
		exact(i, s, false)
		k, first := compactOf(s)
		if first == len(k) {
			first = 0 // one word: any prefix of destMinPref letters or more
		} else if first >= destCutWord && !slices.Contains(destinationGeneric, k[:first]) {
			for l := destCutMin; l < first; l++ {
				prefix(i, k[:l]) // the first word cut to fit (RICHAR)
			}
		}
		for l := max(destMinPref, first+1); l <= len(k); l++ {
			prefix(i, k[:l])
		}
	}
	suffix := func(i int, s string) {
		k, _ := compactOf(s)
		ix.suffix[k] |= 1 << i
	}
	for i, p := range ports {
		ix.slugs = append(ix.slugs, p.Slug)
		exact(i, p.LOCODE, false)
		exact(i, p.Name, false)
		name(i, p.Name) // and its beginnings: a name cut to AIS's 20 characters
		base, paren, _ := strings.Cut(p.Name, "(")
		name(i, base)
		if paren = strings.TrimSuffix(paren, ")"); paren != "" {
			name(i, paren)
		}
		sp := destinationSpellings[p.Slug]
		for _, s := range sp.names {
			name(i, s)
		}
		for _, s := range sp.aliases {
			exact(i, s, false)
		}
		for _, s := range sp.qualified {
			exact(i, s, true)
		}
		for _, s := range append(append([]string{p.Country}, countryWords[p.Country]...), sp.regions...) {
			suffix(i, s)
		}
	}
	for _, s := range destinationRefused {
		ix.prefix[s] = -1
	}
	for _, s := range destinationNoise {
		ix.noise[s] = true
	}
	for _, s := range destinationNoPort {
		k, _ := compactOf(s)
		ix.noPort[k] = true
	}
	return ix
}

// lookup applies the matching rules to d; the port's index or -1.
func (ix *destIndex) lookup(d *destText) int {
	lo, hi := 0, d.nw
	for hi-lo >= 2 {
		if w := d.span(lo, lo+1); string(w) == "TO" || string(w) == "FOR" {
			lo++
		} else if string(w) == "PORT" && hi-lo >= 3 && string(d.span(lo+1, lo+2)) == "OF" {
			lo += 2
		} else {
			break
		}
	}
	if lo == hi || ix.noPort[string(d.span(lo, hi))] {
		return -1
	}
	fits, qualified := ^uint64(0), false
	for {
		if e, ok := ix.exact[string(d.span(lo, hi))]; ok && (!e.qualified || qualified) {
			return fit(e.port, fits)
		}
		if p, ok := ix.prefix[string(d.span(lo, hi))]; ok {
			return fit(p, fits)
		}
		if hi-lo < 2 {
			return -1
		}
		if m, ok := ix.suffix[string(d.span(hi-2, hi))]; ok && hi-lo >= 3 {
			fits, qualified, hi = fits&m, true, hi-2
		} else if m, ok := ix.suffix[string(d.span(hi-1, hi))]; ok {
			fits, qualified, hi = fits&m, true, hi-1
		} else if ix.noise[string(d.span(hi-1, hi))] {
			hi--
		} else {
			return -1
		}
	}
}

// fit is port p if the trailing country and region words fit it, else -1.
func fit(p int, fits uint64) int {
	if p < 0 || fits&(1<<p) == 0 {
		return -1
	}
	return p
}
