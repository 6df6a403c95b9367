package history

import (
	"bytes"
	"hash/maphash"
	"math"
	"strconv"
)

// Parsing of the text fields of CSV rows, without allocating.

// parseUint reads up to 19 ASCII digits.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat reads a decimal number. The common form [-+]digits[.digits]
// with at most 15 significant digits is read directly (the division of
// two exact values is correctly rounded, as strconv's result is); others
// go through strconv. NaN and infinities are refused.
func parseFloat(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	i, neg := 0, false
	if b[0] == '-' || b[0] == '+' {
		neg, i = b[0] == '-', 1
	}
	var mant uint64
	digits, frac, dot, saw := 0, 0, false, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			saw = true
			if digits > 0 || c != '0' {
				digits++
			}
			mant = mant*10 + uint64(c-'0')
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return slowFloat(b)
		}
		if digits > 15 {
			return slowFloat(b)
		}
	}
	if !saw {
		return 0, false // a sign or a dot alone
	}
	if frac >= len(pow10) {
		return slowFloat(b)
	}
	f := float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

func slowFloat(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// trimField trims spaces and tabs; blankOnly reports a field that held
// only spaces (DMA's ", ,"), which the caller counts as a quirk.
func trimField(b []byte) (out []byte, blankOnly bool) {
	if len(b) == 0 || (b[0] != ' ' && b[0] != '\t' && b[len(b)-1] != ' ' && b[len(b)-1] != '\t') {
		return b, false
	}
	out = bytes.Trim(b, " \t")
	return out, len(out) == 0
}

// round1 rounds to one decimal: the resolution of AIS speed and course,
// which float32 archives write as 8.6999998093.
func round1(f float64) float64 { return math.Round(f*10) / 10 }

// hashSeed seeds the hashes of the duplicate and change checks: they
// compare values within one run only, so a random seed is fine.
var hashSeed = maphash.MakeSeed()

// hashBytes hashes a line or a static record.
func hashBytes(b []byte) uint64 { return maphash.Bytes(hashSeed, b) }
