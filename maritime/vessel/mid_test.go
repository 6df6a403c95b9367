package vessel

import (
	"slices"
	"testing"
)

func TestFlagOfMMSI(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mmsi uint32
		want string
	}{
		{636012345, "LR"},
		{637000001, "LR"},
		{538001234, "MH"},
		{477123456, "HK"},
		{453000001, "MO"},
		{416000001, "TW"},
		{366999999, "US"},
		{303123456, "US"}, // Alaska
		{338000001, "US"},
		{235012345, "GB"},
		{236111111, "GI"},
		{244660000, "NL"},
		{257123456, "NO"},
		{413000000, "CN"},
		{209000001, "CY"},
		{256000001, "MT"},
		{218000001, "DE"},
		{306000001, "CW"},
		{307000001, "AW"},
		{341000001, "KN"},
		{577000001, "VU"},
		{355000001, "PA"},
		{373000001, "PA"},
		{204000001, "PT"}, // Azores
		{255000001, "PT"}, // Madeira
		{775999999, "VE"},
		{201000000, "AL"},
		{992351000, "GB"}, // AtoN, MID 235
		{982570001, "NO"}, // craft of a parent ship, MID 257
		{111232000, "GB"}, // SAR aircraft, MID 232
		{2320001, "GB"},   // 002320001 coast station, MID 232
		{2442000, "NL"},   // 002442000 coast station, MID 244
		{23200001, "GB"},  // 023200001 group call, MID 232
		{823212345, "GB"}, // handheld, MID 232
		{970123456, ""},   // AIS-SART
		{972012345, ""},   // MOB
		{974012345, ""},   // EPIRB-AIS
		{12345, ""},
		{0, ""},
		{200000000, ""},  // MID 200 unallocated
		{217123456, ""},  // MID 217 unallocated
		{800000000, ""},  // handheld with MID 000
		{112232000, ""},  // 112 is no SAR prefix
		{999999999, ""},  // AtoN with MID 999
		{1000000000, ""}, // ten digits
		{4294967295, ""}, // ten digits
		{2000000000, ""}, // ten digits starting 2
		{960000000, ""},  // 96 names nothing
		{199999999, ""},  // 1 but not 111
		{111999000, ""},  // SAR aircraft with MID 999
	} {
		if got := FlagOfMMSI(tc.mmsi); got != tc.want {
			t.Errorf("FlagOfMMSI(%09d) = %q, want %q", tc.mmsi, got, tc.want)
		}
	}
}

func TestMIDTableWellFormed(t *testing.T) {
	t.Parallel()
	if n := len(midTable); n < 280 || n > 300 {
		t.Errorf("%d MIDs in the table, want about 290", n)
	}
	for i, r := range midTable {
		if r.mid < 201 || r.mid > 775 {
			t.Errorf("MID %d out of 201..775", r.mid)
		}
		if i > 0 && midTable[i-1].mid >= r.mid {
			t.Errorf("MID %d after %d: table not sorted or duplicated", r.mid, midTable[i-1].mid)
		}
		if !isAlpha2(r.flag) {
			t.Errorf("MID %d maps to %q, not two upper-case letters", r.mid, r.flag)
		}
	}
}

func TestMIDsOfFlagInvertsFlagOfMMSI(t *testing.T) {
	t.Parallel()
	for _, r := range midTable {
		mmsi := uint32(r.mid)*1_000_000 + 123456
		flag := FlagOfMMSI(mmsi)
		if flag != r.flag {
			t.Errorf("FlagOfMMSI(%d) = %q, want %q", mmsi, flag, r.flag)
		}
		mids := MIDsOfFlag(flag)
		if !slices.Contains(mids, r.mid) {
			t.Errorf("MIDsOfFlag(%q) = %v lacks %d", flag, mids, r.mid)
		}
		if !slices.IsSorted(mids) {
			t.Errorf("MIDsOfFlag(%q) = %v not ascending", flag, mids)
		}
		for _, m := range mids {
			if got := FlagOfMMSI(uint32(m) * 1_000_000); got != flag {
				t.Errorf("MIDsOfFlag(%q) has %d, which reads as %q", flag, m, got)
			}
		}
	}
	for flag, mids := range midShared {
		got := MIDsOfFlag(flag)
		if !slices.Equal(got, mids) {
			t.Errorf("MIDsOfFlag(%q) = %v, want %v", flag, got, mids)
		}
		for _, m := range got {
			if FlagOfMMSI(uint32(m)*1_000_000) == "" {
				t.Errorf("shared MID %d of %s is not in the table", m, flag)
			}
		}
	}
}

func TestMIDsOfFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flag string
		want []int
	}{
		{"PA", []int{351, 352, 353, 354, 355, 356, 357, 370, 371, 372, 373, 374}},
		{"LR", []int{636, 637}},
		{"MH", []int{538}},
		{"mh", []int{538}},
		{"US", []int{303, 338, 366, 367, 368, 369}},
		{"GB", []int{232, 233, 234, 235}},
		{"CY", []int{209, 210, 212}},
		{"MT", []int{215, 229, 248, 249, 256}},
		{"DE", []int{211, 218}},
		{"CN", []int{412, 413, 414}},
		{"SG", []int{563, 564, 565, 566}},
		{"VC", []int{375, 376, 377}},
		{"BS", []int{308, 309, 311}},
		{"GR", []int{237, 239, 240, 241}},
		{"NO", []int{257, 258, 259}},
		{"PT", []int{204, 255, 263}},
		{"TF", []int{607, 618, 635}},
		{"SX", []int{306}},
		{"BQ", []int{306}},
		{"CW", []int{306}},
		{"XX", nil},
		{"", nil},
	} {
		if got := MIDsOfFlag(tc.flag); !slices.Equal(got, tc.want) {
			t.Errorf("MIDsOfFlag(%q) = %v, want %v", tc.flag, got, tc.want)
		}
	}
	a := MIDsOfFlag("SX")
	a[0] = 0
	if MIDsOfFlag("SX")[0] != 306 {
		t.Error("MIDsOfFlag returned shared storage")
	}
}

func FuzzFlagOfMMSI(f *testing.F) {
	for _, m := range []uint32{0, 12345, 2320001, 23200001, 111232000, 235012345, 636012345, 823212345,
		970123456, 972012345, 974012345, 982570001, 992351000, 999999999, 1000000000, 4294967295} {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, mmsi uint32) {
		flag := FlagOfMMSI(mmsi)
		if flag == "" {
			return
		}
		if !isAlpha2(flag) {
			t.Fatalf("FlagOfMMSI(%d) = %q", mmsi, flag)
		}
		if len(MIDsOfFlag(flag)) == 0 {
			t.Fatalf("FlagOfMMSI(%d) = %q, which has no MIDs", mmsi, flag)
		}
	})
}

func isAlpha2(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}
