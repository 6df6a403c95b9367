package sanctions

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	domain "overwatch/maritime/sanctions"
)

// sanctionsDir finds ../shared/data/sanctions above the working directory
// (the data shared by the project's sessions); the real-file tests skip
// without it.
func sanctionsDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("OVERWATCH_SANCTIONS_DATA"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for range 6 {
		d := filepath.Join(dir, "shared", "data", "sanctions")
		if _, err := os.Stat(filepath.Join(d, "sanctions_ofac_sdn_2021-07_full.csv")); err == nil {
			return d
		}
		dir = filepath.Dir(dir)
	}
	t.Skip("the OFAC files of shared/data/sanctions are not here (set OVERWATCH_SANCTIONS_DATA)")
	return ""
}

func parseRealSDN(t testing.TB) []domain.Entry {
	t.Helper()
	dir := sanctionsDir(t)
	open := func(name string) *os.File {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	entries, err := ParseSDN(open("sanctions_ofac_sdn_2021-07_full.csv"), open("sanctions_ofac_alt_2021-07_full.csv"),
		open("sanctions_ofac_sdn_comments_2021-07.csv"), "")
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestParseSDNRealFiles(t *testing.T) {
	t.Parallel()
	entries := parseRealSDN(t)
	// SOURCES.md: 406 rows of SDN_Type vessel, 399 with "IMO nnnnnnn" in
	// the remarks, 51 with an MMSI. One more gives its IMO as
	// "Vessel Registration Identification 8606173"; 95 have aliases.
	if len(entries) != 406 {
		t.Errorf("%d vessel entries, want 406", len(entries))
	}
	withIMO, withMMSI, withAlias, byID := 0, 0, 0, map[string]domain.Entry{}
	for _, e := range entries {
		if e.ListSource != ListOFACSDN || e.EntryID == "" || e.Name == "" {
			t.Errorf("entry %+v lacks its source, id or name", e)
		}
		if e.IMO != 0 {
			withIMO++
			if !e.IMO.Valid() {
				t.Errorf("%s: IMO %d has a bad check digit", e.Name, e.IMO)
			}
		}
		if e.MMSI != 0 {
			withMMSI++
		}
		if len(e.Aliases) > 0 {
			withAlias++
		}
		if len(e.Flag) != 2 && e.Flag != "" {
			t.Errorf("%s: flag %q is no ISO code", e.Name, e.Flag)
		}
		byID[e.EntryID] = e
	}
	if withIMO != 400 {
		t.Errorf("%d entries with an IMO, want 400", withIMO)
	}
	if withMMSI != 51 {
		t.Errorf("%d entries with an MMSI, want 51", withMMSI)
	}
	if withAlias != 95 {
		t.Errorf("%d entries with aliases, want 95", withAlias)
	}
	want := []domain.Entry{
		{ListSource: ListOFACSDN, EntryID: "15036", Name: "ARTAVIL", Aliases: []string{"ABADAN", "SHONA", "ALPHA"},
			IMO: 9187629, MMSI: 572469210, Flag: "IR", Program: "IRAN", FormerFlags: []string{"MT", "TV", "TZ"},
			VesselType: "Crude/Oil Products Tanker", CallSign: "T2EU4", Tonnage: 99144, GRT: 56068},
		{ListSource: ListOFACSDN, EntryID: "17069", Name: "CHONG CHON GANG", IMO: 7937317, Flag: "KP", Program: "DPRK",
			VesselType: "General Cargo"},
		{ListSource: ListOFACSDN, EntryID: "17104", Name: "RYONG GUN BONG", IMO: 8606173, Flag: "KP", Program: "DPRK",
			VesselType: "General Cargo"},
		{ListSource: ListOFACSDN, EntryID: "4243", Name: "SAND SWAN", Aliases: []string{"ANA I"}, Flag: "CY", Program: "CUBA",
			VesselType: "General Cargo", CallSign: "P3QG3", Owner: "Sand & Swan Navigation Co. Ltd.", Tonnage: 2595, GRT: 1116},
	}
	for _, w := range want {
		got, ok := byID[w.EntryID]
		if !ok {
			t.Errorf("entry %s missing", w.EntryID)
			continue
		}
		w.Remarks = got.Remarks
		if !reflect.DeepEqual(got, w) {
			t.Errorf("entry %s:\n got %+v\nwant %+v", w.EntryID, got, w)
		}
	}
	if r := byID["15036"].Remarks; !strings.HasPrefix(r, "Former Vessel Flag Malta;") || !strings.HasSuffix(r, "NATIONAL IRANIAN TANKER COMPANY.") {
		t.Errorf("ARTAVIL's remarks: %q", r)
	}
	// Multi-program entries read as a list.
	multi := false
	for _, e := range entries {
		if e.Program == "IRAN; NPWMD; IFSR" {
			multi = true
		}
		if strings.ContainsAny(e.Program, "[]") {
			t.Errorf("%s: program %q keeps brackets", e.Name, e.Program)
		}
	}
	if !multi {
		t.Error("no entry of programs IRAN; NPWMD; IFSR")
	}
}

func TestParseSDNSynthetic(t *testing.T) {
	t.Parallel()
	sdn := "36,\"AEROCARIBBEAN AIRLINES\",-0- ,\"CUBA\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- \r\n" +
		"  900 , \"  M/T   SEA   GLORY \",  \"Vessel\",\t\"IRAN] [SDGT\",-0- ,\"9HAA1\",\"Crude Oil Tanker\",\"1,000\",\"-0-\",\"St. Kitts & Nevis\",-0- ," +
		"\"Former Vessel Name OCEAN DREAM; alt. Former Vessel Flag Democratic People's Republic of Korea; Other Vessel Flag Atlantis; " +
		"IMO 1234568; Vessel Registration Identification IMO 9187629; MMSI 123456789; a.k.a. 'GLORY'; Linked To: X CO. LT\"\r\n" +
		"901,\"BLUE\",\"vessel\",\"SYRIA\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,\"Vessel Flag Syria.\"\r\n\x1a"
	alt := "900,1,\"fka\",\"OCEAN DREAM\",-0- \r\n900,2,\"aka\",\"  SEA  GLORY \",-0- \r\n36,3,\"aka\",\"AERO\",-0- \r\n"
	comments := "900,\"D.\"\r\n"
	got, err := ParseSDN(strings.NewReader(sdn), strings.NewReader(alt), strings.NewReader(comments), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d entries, want 2: %+v", len(got), got)
	}
	e := got[0]
	want := domain.Entry{ListSource: ListOFACSDN, EntryID: "900", Name: "M/T SEA GLORY",
		Aliases: []string{"OCEAN DREAM", "SEA GLORY", "GLORY"}, IMO: 9187629, MMSI: 123456789, Flag: "KN",
		Program: "IRAN; SDGT", FormerFlags: []string{"KP", "Atlantis"}, VesselType: "Crude Oil Tanker", CallSign: "9HAA1",
		Tonnage: 1000}
	want.Remarks = e.Remarks
	if !reflect.DeepEqual(e, want) {
		t.Errorf("\n got %+v\nwant %+v", e, want)
	}
	if !strings.HasSuffix(e.Remarks, "Linked To: X CO. LTD.") {
		t.Errorf("remarks not continued: %q", e.Remarks)
	}
	if got[1].Flag != "SY" || got[1].Name != "BLUE" {
		t.Errorf("second entry %+v", got[1])
	}
}

func TestParseSDNLatin1AndNoExtras(t *testing.T) {
	t.Parallel()
	sdn := "7,\"S\xc3O JO\xc3O\",\"vessel\",\"CUBA\",-0- ,-0- ,-0- ,-0- ,-0- ,\"Panam\xe1\",-0- ,-0- \n"
	got, err := ParseSDN(strings.NewReader(sdn), nil, nil, "TEST")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "SÃO JOÃO" || got[0].ListSource != "TEST" || got[0].Flag != "PA" {
		t.Errorf("got %+v", got)
	}
}

func TestParseSDNErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, sdn, alt, comments, want string }{
		{"short row", "1,\"A\",\"vessel\"\n", "", "", "sdn: line 1: 3 fields, want 12"},
		{"bad ent_num", "1,\"A\",\"vessel\",,,,,,,,,\nX,\"B\",\"vessel\",,,,,,,,,\n", "", "", "sdn: line 2: ent_num \"X\""},
		{"bad quote", "1,\"A\",\"vessel\",,,,,,,,,\n2,\"B\"x,\"vessel\",,,,,,,,,\n", "", "", "sdn: line 2:"},
		{"alt width", "1,\"A\",\"vessel\",,,,,,,,,\n", "1,2,\"aka\"\n", "", "alt: line 1: 3 fields, want 5"},
		{"comment id", "1,\"A\",\"vessel\",,,,,,,,,\n", "", "\n\nabc,\"x\"\n", "comments: line 3: ent_num"},
	}
	for _, c := range cases {
		_, err := ParseSDN(strings.NewReader(c.sdn), strings.NewReader(c.alt), strings.NewReader(c.comments), "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := ParseSDN(nil, nil, nil, ""); err == nil {
		t.Error("no SDN file: no error")
	}
}

func TestFlagCode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Democratic People's Republic of Korea": "KP", "St. Kitts & Nevis": "KN", "Saint Kitts and Nevis": "KN",
		"St. Vincent and the Grenadines": "VC", " panama ": "PA", "None Identified": "", "": "", "lr": "LR",
		"Hong Kong": "HK", "Atlantis": "Atlantis", "XX": "XX", "Tanzania": "TZ",
	} {
		if got := FlagCode(in); got != want {
			t.Errorf("FlagCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParseSDN(f *testing.F) {
	f.Add([]byte("15036,\"ARTAVIL\",\"vessel\",\"IRAN\",-0- ,\"T2EU4\",\"Crude/Oil Products Tanker\",\"99,144\",\"56,068\",\"Iran\",-0- ,"+
		"\"Former Vessel Flag Malta; Vessel Registration Identification IMO 9187629; MMSI 572469210; f.k.a. 'ALPHA'; Linked To: NATIONAL IRANIAN TANKER COMPANY.\"\r\n\x1a"),
		[]byte("15036,22153,\"fka\",\"ABADAN\",-0- \r\n"), []byte("15036,\"MORE.\"\r\n"))
	f.Add([]byte("1,\"A\",\"vessel\",,,,,,,,,\"IMO 0000000; MMSI 999999999; Vessel Flag \"\n"), []byte(""), []byte(""))
	f.Add([]byte("\"unterminated\n"), []byte("1,2,3"), []byte("\xff\xfe"))
	f.Fuzz(func(t *testing.T, sdn, alt, comments []byte) {
		entries, err := ParseSDN(strings.NewReader(string(sdn)), strings.NewReader(string(alt)), strings.NewReader(string(comments)), "F")
		if err != nil {
			if entries != nil {
				t.Fatal("entries with an error")
			}
			return
		}
		for _, e := range entries {
			if e.EntryID == "" || e.ListSource != "F" {
				t.Fatalf("entry %+v", e)
			}
			if e.IMO != 0 && !e.IMO.Valid() {
				t.Fatalf("invalid IMO %d kept", e.IMO)
			}
			for _, a := range e.Aliases {
				if a == "" || strings.EqualFold(a, e.Name) {
					t.Fatalf("alias %q of %q", a, e.Name)
				}
			}
		}
	})
}
