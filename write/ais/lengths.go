package ais

// typeLength is the number of bits a message type may have: at least min,
// at most max (0: no bound besides the 1,024 bits of five sentences).
type typeLength struct{ min, max int }

// typeLengths are the bounds gpsd applies (measured against gpsdecode 3.22
// with every even length from 38 to 1,198 bits), for the types not decoded
// field by field and the upper bounds of the others; the decoders of
// types 1-5, 18, 19, 21 and 24 check their own minimum. Types 25 and 26
// also need the bits their addressed and structured flags announce
// (checkLength), and type 27 is 96 bits or, from some transmitters, 168.
var typeLengths = [28]typeLength{
	4: {168, 0}, 6: {88, 1008}, 7: {72, 168}, 8: {56, 1008}, 9: {168, 0},
	10: {72, 0}, 11: {168, 0}, 12: {72, 1008}, 13: {72, 168}, 14: {40, 1008},
	15: {88, 168}, 16: {96, 168}, 17: {80, 816}, 20: {72, 186}, 21: {272, 368},
	22: {168, 0}, 23: {160, 0}, 25: {40, 168}, 26: {60, 1004}, 27: {96, 168},
}

// checkLength rejects a message whose length its type does not allow, as
// gpsd does: a payload of another length is line noise, not a message.
func checkLength(b *bitBuf, typ uint8) error {
	l := typeLengths[typ]
	switch {
	case b.n < l.min:
		return ErrShort
	case l.max > 0 && b.n > l.max:
		return ErrLong
	}
	switch typ {
	case 25, 26:
		need := 40
		if b.flag(39) { // structured: a 16-bit application id
			need += 16
		}
		if b.flag(38) { // addressed: a 30-bit destination MMSI
			need += 30
		}
		if typ == 26 {
			need += 20 // the communication state
		}
		if b.n < need {
			return ErrShort
		}
	case 27:
		if b.n != 96 && b.n != 168 {
			return ErrShort
		}
	}
	return nil
}
