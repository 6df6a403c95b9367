package ais

import (
	"bytes"
	"encoding/binary"
)

// sentence is one parsed AIVDM/AIVDO sentence; its slices point into the
// line and must not outlive the call that parsed it.
type sentence struct {
	talker  [2]byte
	own     bool  // VDO
	count   uint8 // fragments in the message, 1-9
	num     uint8 // this fragment, 1-count
	seq     uint8 // sequential message id, noSeq when empty
	channel byte  // as written, 0 when empty
	payload []byte
	fill    int
	suffix  []byte // text after "*hh" (the USCG fields), may be empty
}

// noSeq marks an empty sequential message id.
const noSeq = 0xFF

// parse outcomes
const (
	parsedOK        = iota
	parsedNotAIS    // not a VDM/VDO sentence
	parsedBadSum    // bad or missing checksum
	parsedMalformed // checksum right, fields wrong
)

// hexVal is the value of a hexadecimal digit, or -1.
func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// checkSum verifies "<body>*hh" where s[0] is the start character ('!',
// '$' or '\\' excluded from the sum). It returns the index just after the
// two hex digits, or -1 if the checksum is missing or wrong. Like gpsd,
// whatever follows the digits is left to the caller (USCG fields, or junk
// such as a literal "\x0d\x0a" seen in gpsd's own test data).
func checkSum(s []byte) int {
	star := bytes.IndexByte(s, '*')
	if star < 1 || star+3 > len(s) {
		return -1
	}
	h, l := hexVal(s[star+1]), hexVal(s[star+2])
	if h < 0 || l < 0 || byte(h<<4|l) != xorBytes(s[1:star]) {
		return -1
	}
	return star + 3
}

// xorBytes is the XOR of the bytes of b, eight at a time.
func xorBytes(b []byte) byte {
	var x uint64
	for len(b) >= 8 {
		x ^= binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	x ^= x >> 32
	x ^= x >> 16
	x ^= x >> 8
	sum := byte(x)
	for _, c := range b {
		sum ^= c
	}
	return sum
}

// isAISHeader reports whether s starts like "!AIVDM," or "$BSVDO,".
func isAISHeader(s []byte) bool {
	return len(s) >= 7 && (s[0] == '!' || s[0] == '$') && isUpper(s[1]) && isUpper(s[2]) &&
		s[3] == 'V' && s[4] == 'D' && (s[5] == 'M' || s[5] == 'O') && s[6] == ','
}

// parseSentence parses an AIVDM/AIVDO sentence into out.
func parseSentence(s []byte, out *sentence) int {
	if !isAISHeader(s) {
		return parsedNotAIS
	}
	end := checkSum(s)
	if end < 0 {
		return parsedBadSum
	}
	star := end - 3
	out.suffix = s[end:]
	// Six fields after the address: count, number, sequential id, channel,
	// payload, fill bits. Short ones are scanned by hand, the payload with
	// IndexByte.
	var fields [6][]byte
	body := s[7:star]
	for k := 0; k < 6; k++ {
		i := 0
		if k == 4 {
			if i = bytes.IndexByte(body, ','); i < 0 {
				return parsedMalformed
			}
		} else {
			for i < len(body) && body[i] != ',' {
				i++
			}
		}
		if k < 5 && i == len(body) {
			return parsedMalformed
		}
		fields[k] = body[:i]
		if k < 5 {
			body = body[i+1:]
		} else if i != len(body) {
			return parsedMalformed // a seventh field
		}
	}
	out.talker = [2]byte{s[1], s[2]}
	out.own = s[5] == 'O'
	f := fields[0]
	if len(f) != 1 || f[0] < '1' || f[0] > '9' {
		return parsedMalformed
	}
	out.count = f[0] - '0'
	f = fields[1]
	if len(f) != 1 || f[0] < '1' || f[0] > '9' || f[0]-'0' > out.count {
		return parsedMalformed
	}
	out.num = f[0] - '0'
	f = fields[2]
	switch {
	case len(f) == 0:
		out.seq = noSeq
	case len(f) == 1 && isDigit(f[0]):
		out.seq = f[0] - '0'
	case len(f) == 2 && isDigit(f[0]) && isDigit(f[1]):
		out.seq = (f[0]-'0')*10 + f[1] - '0'
	default:
		return parsedMalformed
	}
	f = fields[3]
	switch {
	case len(f) == 0:
		out.channel = 0
	case len(f) == 1 && (isUpper(f[0]) || isDigit(f[0])):
		out.channel = f[0]
	default:
		return parsedMalformed
	}
	out.payload = fields[4]
	if len(out.payload) == 0 || len(out.payload) > maxPayloadChars {
		return parsedMalformed
	}
	f = fields[5]
	switch {
	case len(f) == 0:
		out.fill = 0
	case len(f) == 1 && f[0] >= '0' && f[0] <= '6':
		// 0-5 per IEC 61162-1; 6 (a whole spare character) is seen in
		// the wild and accepted, as gpsd does.
		out.fill = int(f[0] - '0')
	default:
		return parsedMalformed
	}
	if out.fill >= 6*len(out.payload) {
		return parsedMalformed
	}
	return parsedOK
}

// isNMEALike reports whether s looks like an NMEA sentence other than AIS:
// '$' or '!' then an address of letters and digits then ','.
func isNMEALike(s []byte) bool {
	if len(s) < 4 || (s[0] != '$' && s[0] != '!') {
		return false
	}
	i := 1
	for i < len(s) && i <= 8 && (isUpper(s[i]) || isDigit(s[i])) {
		i++
	}
	return i >= 3 && i < len(s) && (s[i] == ',' || s[i] == '*')
}

// trimSpace removes leading and trailing blanks and line ends.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0 }
