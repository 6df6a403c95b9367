package ais

import (
	"math/rand"
	"strings"
	"testing"
)

// TestArmourSet checks every byte: "0"-"W" and "`"-"w" are the 64 armour
// characters, everything else rejects the payload.
func TestArmourSet(t *testing.T) {
	t.Parallel()
	seen := map[byte]bool{}
	for c := 0; c < 256; c++ {
		valid := c >= '0' && c <= 'W' || c >= '`' && c <= 'w'
		v := armour[c]
		if valid != (v != 0xFF) {
			t.Errorf("%q: value %d, valid %v", rune(c), v, valid)
		}
		if valid {
			if v > 63 || seen[v] {
				t.Errorf("%q: value %d out of range or repeated", rune(c), v)
			}
			seen[v] = true
		}
		var b bitBuf
		b.reset(1)
		if ok := b.appendArmoured([]byte{byte(c)}, 0); ok != valid {
			t.Errorf("%q: appendArmoured %v", rune(c), ok)
		}
	}
}

// reference reads bits from a string of '0' and '1'.
func reference(bits string, start, width int) uint32 {
	var v uint32
	for i := start; i < start+width; i++ {
		v <<= 1
		if i < len(bits) && bits[i] == '1' {
			v |= 1
		}
	}
	return v
}

// TestBitReader compares u and s with a bit-string reference on random
// payloads, every offset and width, fill bits included.
func TestBitReader(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	const alphabet = "0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW`abcdefghijklmnopqrstuvw"
	for n := 0; n < 200; n++ {
		p := make([]byte, 1+rng.Intn(80))
		var bits strings.Builder
		for i := range p {
			p[i] = alphabet[rng.Intn(64)]
			v := armour[p[i]]
			for j := 5; j >= 0; j-- {
				bits.WriteByte('0' + v>>uint(j)&1)
			}
		}
		fill := rng.Intn(min(6, 6*len(p)))
		ref := bits.String()[:6*len(p)-fill]
		var b bitBuf
		b.reset(len(p))
		if !b.appendArmoured(p, fill) || b.n != len(ref) {
			t.Fatalf("%s fill %d: n %d", p, fill, b.n)
		}
		for start := 0; start < len(ref)+8; start++ {
			for _, width := range []int{1, 2, 6, 8, 17, 27, 28, 30, 32} {
				want := reference(ref, start, width)
				if got := b.u(uint(start), uint(width)); got != want {
					t.Fatalf("%s: u(%d,%d) = %x, want %x", p, start, width, got, want)
				}
				sw := int32(want<<(32-width)) >> (32 - width)
				if got := b.s(uint(start), uint(width)); got != sw {
					t.Fatalf("%s: s(%d,%d) = %d, want %d", p, start, width, got, sw)
				}
			}
		}
	}
}

// TestFragmentBitsJoin checks that joining fragments honours the fill bits
// of each one.
func TestFragmentBitsJoin(t *testing.T) {
	t.Parallel()
	var b bitBuf
	b.reset(3)
	if !b.appendArmoured([]byte("w"), 2) || !b.appendArmoured([]byte("ww"), 1) {
		t.Fatal("append failed")
	}
	// 4 bits of 1, then 11 bits of 1: 15 bits, then zeros.
	if b.n != 15 || b.u(0, 15) != 0x7FFF || b.u(15, 16) != 0 {
		t.Fatalf("n %d bits %x", b.n, b.u(0, 32))
	}
	if b.appendArmoured([]byte("w"), 7) {
		t.Error("fill larger than the fragment accepted")
	}
}

// sixbitPayload builds the bits of text characters.
func textBits(text string) *bitBuf {
	var w bitWriter
	for i := 0; i < len(text); i++ {
		w.put(sixbitValue(text[i]), 6)
	}
	var b bitBuf
	copy(b.b[:], w.b[:])
	b.n = w.n
	return &b
}

// TestText checks gpsd's clean-up: "@" ends the text, trailing spaces go,
// leading and inner spaces stay.
func TestText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"EVER DIADEM@@@@@@@@@":  "EVER DIADEM",
		"NEW YORK            ":  "NEW YORK",
		"  LEAD@TRAIL ":         "  LEAD",
		"@ABC":                  "",
		"                    ":  "",
		"R'DAM/LWARDEN  @@@@@@": "R'DAM/LWARDEN",
		"A B C?":                "A B C?",
	} {
		b := textBits(in)
		if got := b.text(0, uint(len(in))); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if got := textBits("ABCDEF").text(6, 3); got != "BCD" {
		t.Errorf("offset text %q", got)
	}
}

func TestNormalizeText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"Ever Diadem", 20, "EVER DIADEM"},
		{"mail@example", 20, "MAIL?EXAMPLE"},
		{"Ålesund ~{|}", 20, "?LESUND ????"},
		{"tab\there", 20, "TAB?HERE"},
		{"A NAME LONGER THAN TWENTY", 20, "A NAME LONGER THAN T"},
		{"CUT AT SPACE  X", 13, "CUT AT SPACE"},
		{"[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?", 40, "[\\]^_ !\"#$%&'()*+,-./0123456789:;<=>?"},
		{"\xff", 5, "?"},
	} {
		if got := NormalizeText(c.in, c.width); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
		var w bitWriter
		w.putText(c.in, c.width)
		b := bitBuf{n: w.n}
		copy(b.b[:], w.b[:])
		if got := b.text(0, uint(c.width)); got != c.want {
			t.Errorf("%q encoded and decoded: %q, want %q", c.in, got, c.want)
		}
	}
}
