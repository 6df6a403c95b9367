package overwatch

import (
	"errors"
	"testing"
)

func TestIMO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		imo  uint32
		want bool
	}{
		{9074729, true},
		{9321483, true},
		{9486910, true},
		{9339301, true},
		{8814275, true},
		{9321484, false},
		{9074720, false},
		{1234568, false},
		// 1234567 passes the check digit (7+12+15+16+15+12 = 77): the
		// check is arithmetic, not a register lookup.
		{1234567, true},
		{0, false},
		{907472, false},   // six digits
		{90747290, false}, // eight digits
		{4294967295, false},
	} {
		if got := IMO(tc.imo).Valid(); got != tc.want {
			t.Errorf("IMO(%d).Valid() = %v, want %v", tc.imo, got, tc.want)
		}
	}
	for _, tc := range []struct{ first6, want uint32 }{
		{907472, 9}, {932148, 3}, {948691, 0}, {933930, 1}, {881427, 5}, {0, 0},
	} {
		if got := IMOCheckDigit(tc.first6); got != tc.want {
			t.Errorf("IMOCheckDigit(%d) = %d, want %d", tc.first6, got, tc.want)
		}
	}
	for first6 := uint32(100000); first6 < 1_000_000; first6 += 7919 {
		if imo := first6*10 + IMOCheckDigit(first6); !IMO(imo).Valid() {
			t.Errorf("IMO(%d).Valid() = false for its own check digit", imo)
		}
	}
}

func TestParseIMO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want IMO
		err  error
	}{
		{"9321483", 9321483, nil},
		{"1234567", 1234567, nil},
		{"9321484", 0, ErrIMOCheckDigit},
		{"0000000", 0, ErrIMOCheckDigit},
		{"932148", 0, ErrIMO},
		{"93214830", 0, ErrIMO},
		{"932148a", 0, ErrIMO},
		{"+932148", 0, ErrIMO},
		{" 932148", 0, ErrIMO},
		{"IMO9321483", 0, ErrIMO},
		{"", 0, ErrIMO},
		{"９３２１４８３", 0, ErrIMO},
	} {
		got, err := ParseIMO(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("ParseIMO(%q) = %v, %v; want %v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
	if s := IMO(123456).String(); s != "0123456" {
		t.Errorf("String = %q, want zero padded", s)
	}
}

func FuzzParseIMO(f *testing.F) {
	for _, s := range []string{"9321483", "0000000", "932148", "93214830", "abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		imo, err := ParseIMO(s)
		if err != nil {
			if imo != 0 {
				t.Fatalf("ParseIMO(%q) = %v with error %v", s, imo, err)
			}
			return
		}
		if !imo.Valid() || imo.String() != s {
			t.Fatalf("ParseIMO(%q) = %v: not valid or not the same text", s, imo)
		}
	})
}

func TestIMOText(t *testing.T) {
	t.Parallel()
	for _, n := range []IMO{0, 42, 9321483, 123456789} {
		b, err := n.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back IMO
		if err := back.UnmarshalText(b); err != nil || back != n {
			t.Errorf("%d: %q read back as %d, %v", n, b, back, err)
		}
	}
	for _, js := range []string{`"9321483"`, `9321483`} {
		var n IMO
		if err := n.UnmarshalJSON([]byte(js)); err != nil || n != 9321483 {
			t.Errorf("UnmarshalJSON(%s) = %d, %v", js, n, err)
		}
	}
	for _, bad := range []string{``, `"-1"`, `"+5"`, `"abc"`, `"99999999999"`, `1.5`} {
		var n IMO
		if err := n.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("UnmarshalJSON(%s) accepted as %d", bad, n)
		}
	}
}
