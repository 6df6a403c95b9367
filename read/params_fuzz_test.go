package read

import "testing"

func FuzzParseIMO(f *testing.F) {
	for _, s := range []string{"9321483", "0000000", "932148", "93214830", "93214a3", "\x00", "９３２１４８３"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		imo, ok := ParseIMO(s)
		if !ok {
			return
		}
		if FormatIMO(imo) != s {
			t.Fatalf("ParseIMO(%q) = %d, which formats as %q", s, imo, FormatIMO(imo))
		}
	})
}
