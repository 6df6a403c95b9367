package seaport

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// destinationCases are spellings crews use, as they arrive from AIS or
// from feeds that pass the text on.
var destinationCases = map[string][]string{
	"santos": {"SANTOS", "BRSSZ", "BR SSZ", "santos br", "SANTOS BRAZIL", "SANTOS BRASIL", "SANTOS SP",
		"SANTOS@@@@@@@@@@@@@@", "SANTOS@@@@BR", "@SAN@TOS", "TO SANTOS", "SANTOS ANCH", "SANTO", "BR-SSZ", "SANTOS,BR", "SANTOS SP BRAZIL"},
	"paranagua": {"PARANAGUA", "Paranaguá", "BRPNG", "BR PNG", "PARANAGUA BR", "PARANAG", "PARANAGU",
		"PARANAGUA PR", "FOR PARANAGUA", "PARANAGUA ANCH"},
	"port-hedland": {"PORT HEDLAND", "PHEDLAND", "PT HEDLAND", "P.HEDLAND", "PT.HEDLAND", "AUPHE", "AU PHE",
		"PORT HEADLAND", "HEDLAND", "PORTHEDLAND", "PORT HEDLAND WA", "PT HEDLAND AUS", "PORTH"},
	"novorossiysk": {"NOVOROSSIYSK", "NOVO", "NVRSK", "RUNVS", "RU NVS", "NOVOROSSIISK", "NOVOROS",
		"NOVOROSSIYSK RUSSIA", "NOVOROSSIYSK ROADS"},
	"richards-bay": {"RICHARDS BAY", "RICHARDSBAY", "RBCT", "ZARCB", "ZA RCB", "R.BAY", "RICHARDS BAY SA",
		"RICHARDS BAY RSA", "RICHARDS BAY SOUTH AFRICA", "RICHARDS", "RICHARD BAY"},
	"qingdao": {"QINGDAO", "CNTAO", "CN TAO", "CNQDG", "CN QIN", "CNQIN", "TSINGTAO", "QINGDAO CHINA",
		"QINGDAO CN", "QINGD", "QING DAO", "HUANGDAO"},
	"qinhuangdao": {"QINHUANGDAO", "QHD", "CNSHP", "CN SHP", "QINHUANG", "QINHUANGDAO CHINA", "CHINWANGTAO",
		"QINHU"},
	"tianjin": {"TIANJIN", "XINGANG", "XIN GANG", "CNTXG", "CN TXG", "CNTSN", "TIANJIN XINGANG",
		"TIANJIN NEW PORT", "TIANJ", "TIENTSIN", "TIANJIN CHINA"},
	"dalian": {"DALIAN", "CNDLC", "CN DLC", "CNDAL", "CN DAL", "DALIAN CHINA", "DALIA", "DALIAN XINGANG",
		"DAGUSHAN"},
	"shanghai": {"SHANGHAI", "CNSHA", "CNSGH", "CN SGH", "WAIGAOQIAO", "WGQ", "SHANG HAI", "SHANGHAI CN",
		"SHANG"},
	"new-orleans": {"NEW ORLEANS", "USMSY", "US MSY", "USNOL", "NOLA", "NEW ORLEANS LA", "N.ORLEANS",
		"NEWORLEANS", "MISS RIVER", "NEW ORLEANS USA", "NEWOR"},
	"bahia-blanca": {"BAHIA BLANCA", "Bahía Blanca", "BAHIAB", "BAHIABLANCA", "B.BLANCA", "ARBHI", "AR BHI",
		"BAHIA BLANCA ARG", "BAHIA BLAN", "INGENIERO WHITE"},
	"ponta-da-madeira": {"PONTA DA MADEIRA", "PDM", "SAO LUIS", "São Luís", "ITAQUI", "BRIQI", "BR IQI",
		"PONTA DE MADEIRA", "PTA DA MADEIRA", "PONTADAMAD", "SAO LUIS BRAZIL", "BRSLZ"},
	"tubarao": {"TUBARAO", "Tubarão", "VITORIA", "BRTUB", "BR TUB", "BRVIX", "TUBARAO BRAZIL", "PRAIA MOLE",
		"TUBAR", "VITORIA ES"},
	"hay-point": {"HAY POINT", "HAYPOINT", "DBCT", "AUHPT", "AU HPT", "DALRYMPLE BAY", "HAY POINT QLD",
		"HAYPO", "HPCT"},
	"rosario": {"ROSARIO", "ARROS", "AR ROS", "UP RIVER", "UPRIVER", "UP-RIVER PARANA", "ROSARIO ARG",
		"SAN LORENZO ARG", "SAN LORENZO AR", "ARSLO", "ROSAR"},
	"constanta": {"CONSTANTA", "Constanța", "CONSTANȚA", "Constanţa", "ROCND", "RO CND", "CONSTANTZA",
		"CONSTANTA ROADS", "CONST", "CONSTANTA ROMANIA"},
	"chornomorsk": {"CHORNOMORSK", "ILLICHIVSK", "ILYICHEVSK", "UAILK", "UA ILK", "CHERNOMORSK", "CHORNO"},
	"newcastle":   {"NEWCASTLE", "AUNTL", "AU NTL", "NEWCASTLE NSW", "NEWCASTLE AUS", "NEWCASTLE AU", "NEWCA"},
	"rotterdam": {"ROTTERDAM", "NLRTM", "NL RTM", "EUROPOORT", "MAASVLAKTE", "RDAM", "R'DAM", "ROTTERDAM NL",
		"ROTTERDAM PILOT", "ROTTE"},
	"sabine-pass": {"SABINE PASS", "SABINE", "USSAB", "US SAB", "USNSS", "SABINE PASS LNG", "SABINE PASS TX",
		"SABINE PASS LA", "SABINEPA"},
	"alexandria": {"ALEXANDRIA", "ALEX", "EGALY", "EG ALY", "ALEXANDRIA EGYPT", "EL DEKHEILA", "DEKHEILA",
		"ALEXA"},
	"gladstone-curtis-island": {"GLADSTONE", "AUGLT", "CURTIS ISLAND", "PORT CURTIS", "QCLNG", "APLNG",
		"GLADSTONE QLD", "GLADSTONE LNG"},
	"jakarta":    {"JAKARTA", "IDJKT", "TANJUNG PRIOK", "TG PRIOK", "TJ.PRIOK", "PRIOK", "IDTPP", "TANJUNGPR"},
	"la-pallice": {"LA PALLICE", "LA ROCHELLE", "FRLPE", "FRLRH", "LA ROCHELLE-PALLICE", "LAPAL", "LA ROCH"},
	"dammam":     {"DAMMAM", "SADMM", "KING ABDULAZIZ PORT", "KING ABDUL AZIZ PORT", "DAMMAM KSA", "DAMMAM SA"},
	"odesa":      {"ODESA", "ODESSA", "UAODS", "UA ODS", "ODESSA UKRAINE", "ODESS"},
	"vancouver": {"VANCOUVER", "CAVAN", "CA VAN", "VANCOUVER BC", "VANCOUVER CANADA", "NORTH VANCOUVER",
		"VANCO"},
	"zeebrugge": {"ZEEBRUGGE", "BEZEE", "BE ZEE", "ZEEBRUGES", "ZEEBRUGGE LNG", "ZEEBRUGGE BELGIUM", "ZEEBR"},
	"seattle":   {"SEATTLE", "USSEA", "US SEA", "SEATTLE WA", "SEATT"},
	"tacoma":    {"TACOMA", "USTIW", "US TIW", "TACOMA WA", "TACOM"},
	"busan":     {"BUSAN", "PUSAN", "KRPUS", "KR PUS", "BUSAN KOREA", "BUSAN SOUTH KOREA", "BUSAN NORTH PORT"},
}

func TestPortOfDestinationSpellings(t *testing.T) {
	t.Parallel()
	ports := 0
	for slug, spellings := range destinationCases {
		if _, ok := BySlug(slug); !ok {
			t.Fatalf("unknown slug %q", slug)
		}
		if len(spellings) >= 5 {
			ports++
		}
		for _, s := range spellings {
			if got, ok := OfDestination(s); !ok || got != slug {
				t.Errorf("PortOfDestination(%q) = %q, %v; want %q", s, got, ok, slug)
			}
		}
	}
	if ports < 10 {
		t.Errorf("only %d ports with five spellings", ports)
	}
}

var foldName = strings.NewReplacer("á", "a", "ã", "a", "í", "i", "ț", "t")

func TestPortOfDestinationEveryPort(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		base, _, _ := strings.Cut(p.Name, " (")
		ascii := foldName.Replace(base)
		for _, s := range []string{
			p.LOCODE, p.LOCODE[:2] + " " + p.LOCODE[2:], strings.ToLower(p.LOCODE), p.LOCODE + "@@@@@@@@@",
			p.Name, base, ascii, strings.ToUpper(ascii), strings.ToLower(ascii),
			strings.ToUpper(ascii) + " " + p.Country, "TO " + strings.ToUpper(ascii),
		} {
			if utf8.RuneCountInString(s) > 20 && s != p.Name {
				continue // longer than an AIS destination; the full name is tried anyway
			}
			if got, ok := OfDestination(s); !ok || got != p.Slug {
				t.Errorf("%s: PortOfDestination(%q) = %q, %v", p.Slug, s, got, ok)
			}
		}
		if p.WPINumber == 0 || len(p.LOCODE) != 5 {
			t.Errorf("%s: LOCODE %q", p.Slug, p.LOCODE)
		}
	}
}

func TestPortOfDestinationFromTo(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{
		"CNQDG>BRSSZ":          "santos",
		"BR SSZ > CN QIN":      "qingdao",
		"SANTOS>QINGDAO":       "qingdao",
		"SANTOS > QINGDAO":     "qingdao",
		"ROS>BAHIA BLANCA":     "bahia-blanca",
		"AU PHE>CN RZH":        "rizhao",
		"XX>>NVRSK":            "novorossiysk",
		"FROM US MSY>TO CNTAO": "qingdao",
		"BRSSZ->RTM>NLRTM":     "rotterdam",
		"NOLA=>CHIBA":          "chiba",
	} {
		if got, ok := OfDestination(s); !ok || got != want {
			t.Errorf("PortOfDestination(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"SANTOS>", "SANTOS >", "SANTOS>@@@@", "BRSSZ>FOR ORDERS", "QINGDAO>TBA", ">",
		"SANTOS>SEA"} {
		if got, ok := OfDestination(s); ok {
			t.Errorf("PortOfDestination(%q) = %q, want no port", s, got)
		}
	}
}

func TestPortOfDestinationNoPort(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", " ", "@@@@", "@@@@@@@@@@@@@@@@@@@@", "FOR ORDERS", "FOR ORDER", "ORDERS", "F.O.", "TBA", "T.B.A.", "TBN",
		"SEA", "AT SEA", "NONE", "N/A", "UNKNOWN", "OPL", "FISHING", "TO", "FOR", "PORT OF", "?", "-->",
		"CHINA", "BRAZIL", "AUSTRALIA", "BR", "US", "ANCH", "PORT", "LNG", "12345", "\x00\xff",
	} {
		if got, ok := OfDestination(s); ok {
			t.Errorf("PortOfDestination(%q) = %q, want no port", s, got)
		}
	}
}

// TestPortOfDestinationAmbiguity: names that start like a reference port's,
// the same name elsewhere, and prefixes that are not one port's.
func TestPortOfDestinationAmbiguity(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"PARANA", "PARAN", "PARANA RIVER", "BAHIA", "PONTA", "PONTA DELGADA", "TANJUNG", "TANJUNG PELEPAS",
		"NEW", "NEWC", "PORT", "RIO", "SAN", "QIN", "QING", "SAN LORENZO", "SAN MARTIN", "ALEXANDRIA BAY",
		"ALEXANDRIA VA", "ALEXANDRIA US", "SANTOS DUMONT", "SANTOSX", "NEWCASTLE UK", "NEWCASTLE UPON TYNE",
		"VANCOUVER WA", "VANCOUVER USA", "USVAN", "RIO GRANDE AR", "ARRGA", "BUSAN NEW PORT", "YANGSHAN",
		"GLADSTONE US", "ODESSA TX", "PORTLAND", "PORTO", "RICHA", "SABIN", "DAM", "SHANGHAI JAPAN",
		"SANTA MARTA", "ROSARITO", "SEATTLE AU", "NEWCASTLE WA", "VITORIA SPAIN",
	} {
		if got, ok := OfDestination(s); ok {
			t.Errorf("PortOfDestination(%q) = %q, want no port", s, got)
		}
	}
	// Names that share a beginning resolve to their own port, never each other.
	for s, want := range map[string]string{
		"QINGDAO": "qingdao", "QINHUANGDAO": "qinhuangdao", "QINGD": "qingdao", "QINHU": "qinhuangdao",
		"NEWCASTLE": "newcastle", "NEW ORLEANS": "new-orleans", "NEWCA": "newcastle", "NEWOR": "new-orleans",
		"DALIAN XINGANG": "dalian", "XINGANG": "tianjin", "SHANHAIGUAN": "qinhuangdao", "SHANGHAI": "shanghai",
		"DAMPIER": "dampier", "DAMMAM": "dammam", "DAMPI": "dampier", "DAMMA": "dammam",
		"SANTOS": "santos", "SAO LUIS": "ponta-da-madeira", "SABINE": "sabine-pass",
		"RIO GRANDE": "rio-grande", "RIO GRANDE DO SUL": "rio-grande", "RIZHAO": "rizhao",
		"PORT HEDLAND": "port-hedland", "PORT CURTIS": "gladstone-curtis-island",
		"PARANAGUA": "paranagua", "UP RIVER PARANA": "rosario", "ODESA": "odesa", "ODESSA": "odesa",
	} {
		if got, ok := OfDestination(s); !ok || got != want {
			t.Errorf("PortOfDestination(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

// TestPortOfDestinationCut: names cut to fit AIS's 20 characters (a long
// name with its country after it, as the simulator's crews type them) or
// cut short by hand (RICHAR, TIANJI, JAKARTA (TANJUNG PRI ID and
// DAMMAM (KING ABDULAZ SA named no port).
func TestPortOfDestinationCut(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{
		"RICHAR": "richards-bay", "RICHARD": "richards-bay", "TIANJI": "tianjin", "ROSARI": "rosario",
		"JAKARTA (TANJUNG PRI": "jakarta", "JAKARTA (TANJUNG PRI ID": "jakarta",
		"DAMMAM (KING ABDULAZ": "dammam", "DAMMAM (KING ABDULAZ SA": "dammam",
		"NEW ORLEANS (LOWER M US": "new-orleans", "PONTA DA MADEIRA (SA BR": "ponta-da-madeira",
		"ROSARIO (UP-RIVER PA AR": "rosario", "GLADSTONE (CURTIS IS AU": "gladstone-curtis-island",
	} {
		if got, ok := OfDestination(s); !ok || got != want {
			t.Errorf("PortOfDestination(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, p := range All() {
		name := strings.ToUpper(foldName.Replace(p.Name))
		if len(name) > 20 {
			name = name[:20]
		}
		for _, s := range []string{name, name + " " + p.Country} {
			if got, ok := OfDestination(s); !ok || got != p.Slug {
				t.Errorf("%s: PortOfDestination(%q) = %q, %v", p.Slug, s, got, ok)
			}
		}
	}
	for _, s := range []string{"TANJUN", "RICHA", "PARANA", "JAKARTA (TANJUNG PRI US"} {
		if got, ok := OfDestination(s); ok {
			t.Errorf("PortOfDestination(%q) = %q, want no port", s, got)
		}
	}
}

func TestDestinationIndex(t *testing.T) {
	t.Parallel()
	ix := newDestIndex(All())
	for slug := range destinationSpellings {
		if _, ok := BySlug(slug); !ok {
			t.Errorf("destinationSpellings: unknown slug %q", slug)
		}
	}
	for k, p := range ix.prefix {
		if len(k) < destMinPref {
			t.Errorf("prefix %q shorter than %d", k, destMinPref)
		}
		if p >= 0 {
			if _, ok := ix.exact[k]; !ok && ix.noPort[k] {
				t.Errorf("prefix %q is a no-port value", k)
			}
		}
	}
	for k := range ix.noPort {
		if _, ok := ix.exact[k]; ok {
			t.Errorf("no-port value %q is also a port spelling", k)
		}
		if _, ok := ix.prefix[k]; ok {
			t.Errorf("no-port value %q is also a prefix", k)
		}
	}
	for k := range ix.suffix {
		if e, ok := ix.exact[k]; ok {
			t.Errorf("country or region word %q is also a spelling of %s", k, ix.slugs[e.port])
		}
	}
}

func TestDestinationFold(t *testing.T) {
	t.Parallel()
	if len(asciiFold) != 0x180-0xC0 {
		t.Fatalf("asciiFold has %d entries", len(asciiFold))
	}
	var d destText
	if !d.parse("ÀÉÎÕÜ çñ ĂĄČĐĘĞĪŁŃŐŘŚŠŤŮŽ ȘșȚț São Luís") {
		t.Fatal("parse")
	}
	if got := string(d.span(0, d.nw)); got != "AEIOUCNAACDEGILNORSSTUZSSTTSAOLUIS" {
		t.Errorf("folded to %q", got)
	}
	if d.parse(strings.Repeat("A", destMaxLen+1)) || d.parse(strings.Repeat("A ", destMaxWords+1)) {
		t.Error("overlong text accepted")
	}
	if !d.parse(strings.Repeat("A", 100)+">SANTOS") || string(d.span(0, d.nw)) != "SANTOS" {
		t.Error("text before '>' not dropped")
	}
}

func FuzzPortOfDestination(f *testing.F) {
	for _, spellings := range destinationCases {
		for _, s := range spellings {
			f.Add(s)
		}
	}
	for _, s := range []string{"", "@@@@", "FOR ORDERS", ">", "SANTOS>", "\xff>\xfe", "PARANA", "NEWCASTLE UK"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		slug, ok := OfDestination(s)
		if !ok {
			if slug != "" {
				t.Fatalf("%q: not ok but slug %q", s, slug)
			}
			return
		}
		if _, known := BySlug(slug); !known {
			t.Fatalf("%q: unknown slug %q", s, slug)
		}
		// '@' padding, a FROM part and (for ASCII) case do not change the answer.
		variants := []string{s + "@@@", "@" + s, "XX>" + s, "AU PHE > " + s}
		if isASCII(s) {
			variants = append(variants, strings.ToLower(s))
		}
		for _, v := range variants {
			if got, ok := OfDestination(v); !ok || got != slug {
				t.Fatalf("%q gives %q but %q gives %q, %v", s, slug, v, got, ok)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var benchDestinations = []string{
	"SANTOS", "BR SSZ", "CNQDG>BRSSZ", "PT HEDLAND", "FOR ORDERS", "NEWCASTLE NSW", "SANTOS@@@@@@@@@@@@@@",
	"Paranaguá", "QINHUANGDAO ANCH", "TBA", "RICHARDS BAY SA", "BAHIAB", "UNKNOWN PORT XYZ", "US MSY>CN TAO",
}

func BenchmarkPortOfDestination(b *testing.B) {
	OfDestination("")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		OfDestination(benchDestinations[i%len(benchDestinations)])
		i++
	}
}
