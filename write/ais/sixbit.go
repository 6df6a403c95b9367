package ais

import (
	"encoding/binary"
	"unicode/utf8"
)

// maxPayloadChars bounds the armoured payload of one message (all its
// fragments): 256 characters are 1,536 bits, more than the longest AIS
// message (type 26, 1,064 bits).
const maxPayloadChars = 256

// maxBits is the largest message in bits.
const maxBits = maxPayloadChars * 6

// bitBuf holds a de-armoured message, most significant bit first, followed
// by at least 8 zero bytes so that any read at a bit offset below maxBits
// stays inside the array and reads zeros past the end of the message.
type bitBuf struct {
	b [maxBits/8 + 16]byte
	n int // length of the message in bits (fill bits removed)
}

// armour maps a payload character to its six-bit value, or 0xFF for a
// character outside "0"-"W" and "`"-"w".
var armour = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for c := '0'; c <= 'W'; c++ {
		t[c] = byte(c - '0')
	}
	for c := '`'; c <= 'w'; c++ {
		t[c] = byte(c - '0' - 8)
	}
	return t
}()

// reset empties the buffer for a message of at most chars characters.
func (b *bitBuf) reset(chars int) {
	end := (chars*6+7)/8 + 8
	if end > len(b.b) {
		end = len(b.b)
	}
	clear(b.b[:end])
	b.n = 0
}

// appendArmoured adds the payload characters p and removes fill trailing
// bits. It reports false for a character outside the armour set, a fill
// larger than the bits added, or a message longer than maxBits; the
// buffer must have been reset for at least b.n/6+len(p) characters.
func (b *bitBuf) appendArmoured(p []byte, fill int) bool {
	if b.n+6*len(p) > maxBits || fill < 0 || fill > 6*len(p) {
		return false
	}
	pos, end := b.n, b.n+6*len(p)
	if pos&7 == 0 {
		// Byte-aligned (every single-sentence message): 4 characters
		// make 3 bytes, written whole.
		i := pos >> 3
		for len(p) >= 4 {
			v0, v1, v2, v3 := armour[p[0]], armour[p[1]], armour[p[2]], armour[p[3]]
			if (v0|v1|v2|v3)&0xC0 != 0 {
				return false
			}
			w := uint32(v0)<<18 | uint32(v1)<<12 | uint32(v2)<<6 | uint32(v3)
			b.b[i], b.b[i+1], b.b[i+2] = byte(w>>16), byte(w>>8), byte(w)
			i += 3
			pos += 24
			p = p[4:]
		}
	}
	for _, c := range p {
		v := armour[c]
		if v == 0xFF {
			return false
		}
		i, sh := pos>>3, pos&7
		w := uint16(v) << (10 - sh)
		b.b[i] |= byte(w >> 8)
		b.b[i+1] |= byte(w)
		pos += 6
	}
	pos -= fill
	// Zero the fill bits so that later fragments and reads see zeros.
	if r := pos & 7; r != 0 {
		b.b[pos>>3] &= byte(0xFF << (8 - r))
	}
	for i := (pos + 7) >> 3; i < (end+7)>>3; i++ {
		b.b[i] = 0
	}
	b.n = pos
	return true
}

// u reads width (1-32) bits at bit offset start as an unsigned integer.
func (b *bitBuf) u(start, width uint) uint32 {
	i := start >> 3
	if i+8 > uint(len(b.b)) {
		return 0
	}
	v := binary.BigEndian.Uint64(b.b[i : i+8])
	v <<= start & 7
	return uint32(v >> (64 - width))
}

// s reads width bits at start as a two's complement signed integer.
func (b *bitBuf) s(start, width uint) int32 {
	v := b.u(start, width)
	shift := 32 - width
	return int32(v<<shift) >> shift
}

// flag reads one bit.
func (b *bitBuf) flag(start uint) bool { return b.u(start, 1) != 0 }

// sixbitASCII maps a six-bit value to its character: 0-31 are "@A-Z[\]^_",
// 32-63 are " !"#$%&'()*+,-./0-9:;<=>?".
func sixbitASCII(v uint32) byte {
	if v < 32 {
		return byte(v + 64)
	}
	return byte(v)
}

// textBytes decodes up to chars six-bit characters from bit start into
// dst, gpsd's way: decoding stops at the first "@" (padding). It returns
// the untrimmed characters.
func (b *bitBuf) textBytes(dst []byte, start, chars uint) []byte {
	for k := uint(0); k < chars; k++ {
		c := sixbitASCII(b.u(start+6*k, 6))
		if c == '@' {
			break
		}
		dst = append(dst, c)
	}
	return dst
}

// trimText removes trailing spaces and "@" (gpsd's trim_spaces_on_right_end).
func trimText(t []byte) []byte {
	for len(t) > 0 && (t[len(t)-1] == ' ' || t[len(t)-1] == '@') {
		t = t[:len(t)-1]
	}
	return t
}

// text decodes a six-bit text field: stops at the first "@", trims
// trailing spaces. It allocates only for a non-empty result.
func (b *bitBuf) text(start, chars uint) string {
	var tmp [64]byte
	t := trimText(b.textBytes(tmp[:0], start, chars))
	if len(t) == 0 {
		return ""
	}
	return string(t)
}

// NormalizeText is what a text field becomes on the wire and back: letters
// upper-cased, every character outside the six-bit set (including "@",
// which is padding, and every non-ASCII character) replaced by "?",
// truncated to width characters, trailing spaces removed. Encoding s and
// decoding the result gives NormalizeText(s, width).
func NormalizeText(s string, width int) string {
	out := make([]byte, 0, min(len(s), width))
	for _, r := range s {
		if len(out) == width {
			break
		}
		out = append(out, sixbitChar(r))
	}
	return string(trimText(out))
}

// sixbitChar maps a rune to a character of the six-bit set other than "@".
func sixbitChar(r rune) byte {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r - 'a' + 'A')
	case r == '@' || r >= 96 || r < 32 || r == utf8.RuneError:
		return '?'
	}
	return byte(r)
}

// sixbitValue is the six-bit code of a character of the six-bit set.
func sixbitValue(c byte) uint32 {
	if c >= 64 {
		return uint32(c - 64)
	}
	return uint32(c)
}
