package clickhouse

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"time"

	"overwatch/maritime/emissions"
)

// The result column of voyage_emissions holds a voyage's result in a
// compact binary form: the API reads 10,000 of them per query (totals are
// over every matching voyage), and JSON took a second to transfer and
// decode. Rows written as JSON (the first version, starting with '{') are
// still read. The factor names are in their own column, not here.
//
//	1 (version) | departure, arrival: int64 Unix ns (MinInt64: zero) | 31 float64 | flags byte
//	| strings: imo, name, class, from, to, commodity, fuel, method,
//	  distance source, speed source, reason | uvarint count, flag strings
//
// Integers little-endian; strings uvarint length then bytes.
const resultCodecV1 = 1

// resultFloats lists the result's numbers in their stored order.
func resultFloats(v *emissions.Voyage) []*float64 {
	out := []*float64{&v.DistanceNM, &v.FactorTTW, &v.FactorWTW, &v.MainEngineFuelTonnes, &v.AuxiliaryFuelTonnes,
		&v.BoilerFuelTonnes, &v.MainEnginePowerKW, &v.DesignSpeedKnots, &v.MainEngineLoad}
	for _, b := range []*emissions.Bounds{&v.CargoTonnes, &v.TonneMiles, &v.FuelTonnes, &v.TTW, &v.WTW, &v.IntensityTTW, &v.IntensityWTW} {
		out = append(out, &b.Low, &b.Central, &b.High)
	}
	return out
}

// resultStrings lists the result's strings in their stored order, after
// the IMO.
func resultStrings(v *emissions.Voyage) []*string {
	return []*string{&v.Name, (*string)(&v.Class), &v.From, &v.To, &v.Commodity, (*string)(&v.Fuel), (*string)(&v.Method),
		&v.DistanceSource, &v.SpeedSource, &v.Reason}
}

// encodeVoyageResult encodes a result (without its factor names).
func encodeVoyageResult(v emissions.Voyage) []byte {
	b := make([]byte, 0, 400)
	b = append(b, resultCodecV1)
	b = binary.LittleEndian.AppendUint64(b, uint64(unixNano(v.Departure)))
	b = binary.LittleEndian.AppendUint64(b, uint64(unixNano(v.Arrival)))
	for _, f := range resultFloats(&v) {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(*f))
	}
	var bits byte
	if v.AISDistance {
		bits |= 1
	}
	if v.AISCargo {
		bits |= 2
	}
	b = append(b, bits)
	appendString := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	appendString(v.IMO.String()) // the stored form keeps the IMO as the first string
	for _, s := range resultStrings(&v) {
		appendString(*s)
	}
	b = binary.AppendUvarint(b, uint64(len(v.Flags)))
	for _, f := range v.Flags {
		appendString(string(f))
	}
	return b
}

var errResultCodec = errors.New("malformed voyage result")

// noTime stands for the zero time, which Unix nanoseconds cannot hold.
const noTime = math.MinInt64

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return noTime
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == noTime {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// interner returns one copy of each distinct string: most strings of the
// rows (classes, ports, fuels, flags, the vessels' names) repeat.
type interner map[string]string

func (in interner) get(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// decodeVoyageResult decodes a result of either version.
func decodeVoyageResult(b []byte, in interner) (emissions.Voyage, error) {
	var v emissions.Voyage
	if len(b) > 0 && b[0] == '{' {
		err := json.Unmarshal(b, &v)
		v.Departure, v.Arrival = v.Departure.UTC(), v.Arrival.UTC()
		return v, err
	}
	if len(b) < 17 || b[0] != resultCodecV1 {
		return v, errResultCodec
	}
	v.Departure = fromUnixNano(int64(binary.LittleEndian.Uint64(b[1:])))
	v.Arrival = fromUnixNano(int64(binary.LittleEndian.Uint64(b[9:])))
	b = b[17:]
	floats := resultFloats(&v)
	if len(b) < 8*len(floats)+1 {
		return v, errResultCodec
	}
	for _, f := range floats {
		*f = math.Float64frombits(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	v.AISDistance, v.AISCargo = b[0]&1 != 0, b[0]&2 != 0
	b = b[1:]
	next := func() (string, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return "", false
		}
		s := in.get(b[k : k+int(n)])
		b = b[k+int(n):]
		return s, true
	}
	imo, ok := next()
	if !ok || v.IMO.UnmarshalText([]byte(imo)) != nil {
		return v, errResultCodec
	}
	for _, s := range resultStrings(&v) {
		if *s, ok = next(); !ok {
			return v, errResultCodec
		}
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > 64 {
		return v, errResultCodec
	}
	b = b[k:]
	v.Flags = make([]emissions.Flag, n)
	for i := range v.Flags {
		s, ok := next()
		if !ok {
			return v, errResultCodec
		}
		v.Flags[i] = emissions.Flag(s)
	}
	return v, nil
}
