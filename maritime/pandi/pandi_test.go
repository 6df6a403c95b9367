package pandi

import "testing"

func TestTwelveGroupClubs(t *testing.T) {
	n := 0
	ids := map[string]bool{}
	for _, c := range Clubs() {
		if ids[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		ids[c.ID] = true
		if c.GroupMember {
			n++
			if c.Tier != TierLow || c.Domicile == "" || c.Source != Source {
				t.Errorf("%s: %+v", c.ID, c)
			}
		} else if c.Tier != TierMedium && c.Tier != TierHigh || c.Reason == "" {
			t.Errorf("%s: tier %q reason %q", c.ID, c.Tier, c.Reason)
		}
	}
	if n != 12 {
		t.Errorf("%d International Group clubs, want 12", n)
	}
	for _, gone := range []string{"north", "standard"} {
		if ids[gone] {
			t.Errorf("%s is part of NorthStandard since February 2023", gone)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := map[string]string{
		"Gard P. & I.":                     "gard",
		"Gard P&I (Bermuda) Ltd":           "gard",
		"Assuranceforeningen Gard":         "gard",
		"North of England P&I Association": "northstandard",
		"The North of England Protecting & Indemnity Association Limited": "northstandard",
		"Standard Club":                         "northstandard",
		"The Standard Club Europe Ltd.":         "northstandard",
		"NORTH P&I":                             "northstandard",
		"NorthStandard":                         "northstandard",
		"Sveriges Ångfartygs Assurans Förening": "swedish",
		"Sveriges Angfartygs Assurans Forening": "swedish",
		"the swedish club":                      "swedish",
		"UK P&I Club":                           "uk",
		"United Kingdom Mutual Steam Ship Assurance Association (Europe) Ltd": "uk",
		"West of England P&I": "west-of-england",
		"Steamship Mutual Underwriting Association (Bermuda) Limited": "steamship",
		"Skuld":                "skuld",
		"Skulld":               "skuld",
		"Britania P&I":         "britannia",
		"Japan P&I":            "japan",
		"The Shipowners' Club": "shipowners",
		"London P&I Club":      "london",
		"American Club":        "american",
		"Ingosstrakh":          "ingosstrakh",
		"British Marine":       "british-marine",
	}
	for in, want := range cases {
		c, ok := Match(in)
		if !ok || c.ID != want {
			t.Errorf("Match(%q) = %q %v, want %q", in, c.ID, ok, want)
		}
	}
	for _, in := range []string{"", "P&I", "Standard Marine Underwriters", "Acme Shipping Insurance", "North Sea Fixed Premium", "Club"} {
		if c, ok := Match(in); ok {
			t.Errorf("Match(%q) = %q, want no match", in, c.ID)
		}
	}
}

// No key of the table stands for two insurers.
func TestKeysUnambiguous(t *testing.T) {
	seen := map[string]int{}
	for _, e := range index {
		if c, ok := seen[e.joined]; ok && c != e.club {
			t.Errorf("key %q names %s and %s", e.joined, table[c].ID, table[e.club].ID)
		}
		seen[e.joined] = e.club
	}
}

func FuzzMatch(f *testing.F) {
	for _, s := range []string{"Gard P. & I.", "North of England", "Sveriges Ångfartygs", "\xff\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := Match(s); ok && c.ID == "" {
			t.Fatal("matched without id")
		}
	})
}

func TestAssess(t *testing.T) {
	gard, _ := ByID("gard")
	hydor, _ := ByID("hydor")
	kish, _ := ByID("kish")
	if a := Assess(nil); a.Tier != "" || a.GroupCover {
		t.Errorf("no records: %+v", a)
	}
	if a := Assess([]Club{hydor, gard}); a.Tier != TierLow || !a.GroupCover {
		t.Errorf("group cover: %+v", a)
	}
	if a := Assess([]Club{hydor}); a.Tier != TierMedium || a.GroupCover {
		t.Errorf("fixed premium: %+v", a)
	}
	if a := Assess([]Club{hydor, kish}); a.Tier != TierHigh {
		t.Errorf("sanctioned: %+v", a)
	}
	if a := Assess([]Club{Unknown("Acme")}); a.Tier != TierHigh {
		t.Errorf("unknown: %+v", a)
	}
}
