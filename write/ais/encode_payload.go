package ais

import (
	"errors"
	"math"
)

// Errors of encoding.
var (
	// ErrEncodeType: the message type is not one the encoder writes (or
	// not one the called function writes).
	ErrEncodeType = errors.New("ais: message type not supported by the encoder")
	// ErrEncodeMMSI: MMSI above 2^30-1 (30 bits).
	ErrEncodeMMSI = errors.New("ais: MMSI does not fit in 30 bits")
	// ErrEncodeOptions: talker, channel or station not representable.
	ErrEncodeOptions = errors.New("ais: bad encode options")
)

// bitWriter builds a payload, most significant bit first.
type bitWriter struct {
	b [maxBits/8 + 8]byte
	n int
}

// put appends the width (1-32) low bits of v.
func (w *bitWriter) put(v uint32, width int) {
	for i := width - 1; i >= 0; i-- {
		if v>>uint(i)&1 != 0 {
			w.b[w.n>>3] |= 0x80 >> (w.n & 7)
		}
		w.n++
	}
}

func (w *bitWriter) putBool(v bool) {
	if v {
		w.put(1, 1)
	} else {
		w.put(0, 1)
	}
}

// putText appends s as chars six-bit characters: mapped as NormalizeText
// maps them, truncated, padded with "@".
func (w *bitWriter) putText(s string, chars int) {
	k := 0
	for _, r := range s {
		if k == chars {
			break
		}
		w.put(sixbitValue(sixbitChar(r)), 6)
		k++
	}
	for ; k < chars; k++ {
		w.put(0, 6) // '@'
	}
}

// armoured returns the payload characters and the fill-bit count.
func (w *bitWriter) armoured() (string, int) {
	chars := (w.n + 5) / 6
	out := make([]byte, chars)
	for i := range out {
		v := byte(0)
		for j := 0; j < 6; j++ {
			pos := i*6 + j
			v <<= 1
			if pos < w.n && w.b[pos>>3]&(0x80>>(pos&7)) != 0 {
				v |= 1
			}
		}
		if v < 40 {
			out[i] = v + 48
		} else {
			out[i] = v + 56
		}
	}
	return string(out), chars*6 - w.n
}

// finite reports a usable float.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// wireLonLat gives the position in 1/scale minutes, or the not-available
// values when absent, NaN or out of range.
func wireLonLat(m *Message, scale float64) (lon, lat int32) {
	if m.Fields&HasPosition != 0 && finite(m.Lon) && finite(m.Lat) &&
		m.Lon >= -180 && m.Lon <= 180 && m.Lat >= -90 && m.Lat <= 90 {
		return int32(math.Round(m.Lon * scale)), int32(math.Round(m.Lat * scale))
	}
	return int32(181 * scale), int32(91 * scale)
}

// wireSOG gives SOG in tenths of a knot: 1023 when absent, NaN or
// negative, at most 1022 (102.2 knots or more).
func wireSOG(m *Message) uint32 {
	if m.Fields&HasSOG == 0 || !finite(m.SOG) || m.SOG < 0 {
		return sogNA
	}
	return uint32(math.Min(math.Round(m.SOG*10), 1022))
}

// wireCOG gives COG in tenths of a degree, normalised to [0, 360): 3600
// when absent or NaN.
func wireCOG(m *Message) uint32 {
	if m.Fields&HasCOG == 0 || !finite(m.COG) {
		return cogNA
	}
	c := math.Mod(math.Round(m.COG*10), 3600)
	if c < 0 {
		c += 3600
	}
	return uint32(c)
}

// wireHeading gives the heading modulo 360, or 511 when absent.
func wireHeading(m *Message) uint32 {
	if m.Fields&HasHeading == 0 {
		return headingNA
	}
	return uint32(m.Heading % 360)
}

// wireStatus gives the navigational status, 15 when absent.
func wireStatus(m *Message) uint32 {
	if m.Fields&HasNavStatus == 0 || m.NavStatus > 15 {
		return 15
	}
	return uint32(m.NavStatus)
}

// wireSecond gives the time stamp second (0-63 as set; above 63: 60).
func wireSecond(m *Message) uint32 {
	if m.Second > 63 {
		return 60
	}
	return uint32(m.Second)
}

func clampU(v uint16, max uint16) uint32 { return uint32(min(v, max)) }

// putDimensions writes bow/stern (9 bits, at most 511) and port/starboard
// (6 bits, at most 63), zeros when absent.
func (w *bitWriter) putDimensions(m *Message) {
	if m.Fields&HasDimensions == 0 {
		w.put(0, 30)
		return
	}
	w.put(clampU(m.ToBow, 511), 9)
	w.put(clampU(m.ToStern, 511), 9)
	w.put(clampU(m.ToPort, 63), 6)
	w.put(clampU(m.ToStarboard, 63), 6)
}

func (w *bitWriter) putShipType(m *Message) {
	if m.Fields&HasShipType == 0 {
		w.put(0, 8)
		return
	}
	w.put(uint32(m.ShipType), 8)
}

// EncodePayload armours the payload of a message of type 1, 2, 3, 5, 18,
// 19, 24 (PartNumber 0 or 1) or 27 and returns it with its fill bits.
// Absent fields are written as "not available"; values out of range are
// clamped (SOG to 102.2 kn, dimensions to 511/63 m, draught to 25.5 m,
// type 27 SOG to 62 kn) or written as not available (a position outside
// ±180/±90, a negative SOG, an IMO above 30 bits, invalid ETA parts).
// Courses and headings are taken modulo 360. Text is upper-cased, limited
// to the six-bit set (see NormalizeText) and padded with "@"; the text
// fields are written whatever their Has bits (empty means not available).
func EncodePayload(m *Message) (string, int, error) {
	if m.MMSI >= 1<<30 {
		return "", 0, ErrEncodeMMSI
	}
	var w bitWriter
	w.put(uint32(m.Type), 6)
	w.put(uint32(min(m.Repeat, 3)), 2)
	w.put(m.MMSI, 30)
	switch m.Type {
	case 1, 2, 3:
		putClassA(&w, m)
	case 5:
		putStaticVoyage(&w, m)
	case 18:
		putClassB(&w, m)
	case 19:
		putClassBExtended(&w, m)
	case 24:
		if m.PartNumber > 1 {
			return "", 0, ErrEncodeType
		}
		putStaticDataReport(&w, m)
	case 27:
		putLongRange(&w, m)
	default:
		return "", 0, ErrEncodeType
	}
	p, fill := w.armoured()
	return p, fill, nil
}

func putClassA(w *bitWriter, m *Message) {
	w.put(wireStatus(m), 4)
	turn := int32(turnNA)
	if m.Fields&HasTurn != 0 {
		turn = int32(max(m.Turn, -127))
	}
	w.put(uint32(turn), 8)
	w.put(wireSOG(m), 10)
	w.putBool(m.Accuracy)
	lon, lat := wireLonLat(m, 600000)
	w.put(uint32(lon), 28)
	w.put(uint32(lat), 27)
	w.put(wireCOG(m), 12)
	w.put(wireHeading(m), 9)
	w.put(wireSecond(m), 6)
	w.put(uint32(m.Maneuver&3), 2)
	w.put(0, 3) // spare
	w.putBool(m.RAIM)
	w.put(0, 19) // radio status
}

func putClassB(w *bitWriter, m *Message) {
	w.put(0, 8) // regional reserved
	w.put(wireSOG(m), 10)
	w.putBool(m.Accuracy)
	lon, lat := wireLonLat(m, 600000)
	w.put(uint32(lon), 28)
	w.put(uint32(lat), 27)
	w.put(wireCOG(m), 12)
	w.put(wireHeading(m), 9)
	w.put(wireSecond(m), 6)
	w.put(0, 2) // regional reserved
	for _, f := range [...]bool{m.CS, m.Display, m.DSC, m.Band, m.Msg22, m.Assigned, m.RAIM} {
		w.putBool(f)
	}
	w.put(0, 20) // radio status
}

func putLongRange(w *bitWriter, m *Message) {
	w.putBool(m.Accuracy)
	w.putBool(m.RAIM)
	w.put(wireStatus(m), 4)
	lon, lat := wireLonLat(m, 600)
	w.put(uint32(lon), 18)
	w.put(uint32(lat), 17)
	sog := uint32(sogNA27)
	if m.Fields&HasSOG != 0 && finite(m.SOG) && m.SOG >= 0 {
		sog = uint32(math.Min(math.Round(m.SOG), 62))
	}
	w.put(sog, 6)
	cog := uint32(cogNA27)
	if m.Fields&HasCOG != 0 && finite(m.COG) {
		c := math.Mod(math.Round(m.COG), 360)
		if c < 0 {
			c += 360
		}
		cog = uint32(c)
	}
	w.put(cog, 9)
	w.putBool(m.Latency)
	w.put(0, 1) // spare
}

func putStaticVoyage(w *bitWriter, m *Message) {
	w.put(uint32(m.AISVersion&3), 2)
	imo := uint32(0)
	if m.Fields&HasIMO != 0 && m.IMO < 1<<30 {
		imo = uint32(m.IMO)
	}
	w.put(imo, 30)
	w.putText(m.CallSign, 7)
	w.putText(m.Name, 20)
	w.putShipType(m)
	w.putDimensions(m)
	w.put(uint32(m.EPFD&15), 4)
	month, day, hour, minute := uint32(0), uint32(0), uint32(24), uint32(60)
	if m.Fields&HasETA != 0 && m.ETAMonth >= 1 && m.ETAMonth <= 12 && m.ETADay >= 1 && m.ETADay <= 31 {
		month, day = uint32(m.ETAMonth), uint32(m.ETADay)
	}
	if m.Fields&HasETATime != 0 && m.ETAHour < 24 && m.ETAMinute < 60 {
		hour, minute = uint32(m.ETAHour), uint32(m.ETAMinute)
	}
	w.put(month, 4)
	w.put(day, 5)
	w.put(hour, 5)
	w.put(minute, 6)
	draught := uint32(0)
	if m.Fields&HasDraught != 0 && finite(m.Draught) && m.Draught > 0 {
		draught = uint32(math.Max(1, math.Min(math.Round(m.Draught*10), 255)))
	}
	w.put(draught, 8)
	w.putText(m.Destination, 20)
	w.putBool(m.DTE)
	w.put(0, 1) // spare
}

func putClassBExtended(w *bitWriter, m *Message) {
	w.put(0, 8) // regional reserved
	w.put(wireSOG(m), 10)
	w.putBool(m.Accuracy)
	lon, lat := wireLonLat(m, 600000)
	w.put(uint32(lon), 28)
	w.put(uint32(lat), 27)
	w.put(wireCOG(m), 12)
	w.put(wireHeading(m), 9)
	w.put(wireSecond(m), 6)
	w.put(0, 4) // regional reserved
	w.putText(m.Name, 20)
	w.putShipType(m)
	w.putDimensions(m)
	w.put(uint32(m.EPFD&15), 4)
	w.putBool(m.RAIM)
	w.putBool(m.DTE)
	w.putBool(m.Assigned)
	w.put(0, 4) // spare
}

func putStaticDataReport(w *bitWriter, m *Message) {
	w.put(uint32(m.PartNumber), 2)
	if m.PartNumber == 0 {
		w.putText(m.Name, 20)
		w.put(0, 8) // spare
		return
	}
	w.putShipType(m)
	w.putText(m.VendorID, 3)
	w.put(uint32(m.Model&15), 4)
	w.put(m.Serial&(1<<20-1), 20)
	w.putText(m.CallSign, 7)
	if isAuxiliary(m.MMSI) {
		ms := uint32(0)
		if m.Fields&HasMothership != 0 && m.MothershipMMSI < 1<<30 {
			ms = m.MothershipMMSI
		}
		w.put(ms, 30)
	} else {
		w.putDimensions(m)
	}
	w.put(0, 6) // spare
}
