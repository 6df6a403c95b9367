package history

import (
	"bytes"
	"fmt"
	"strings"
)

// DMA: the Danish Maritime Authority's aisdk CSV,
// # Timestamp,Type of mobile,MMSI,Latitude,Longitude,Navigational status,ROT,SOG,COG,Heading,IMO,Callsign,Name,Ship type,Cargo type,Width,Length,Type of position fixing device,Draught,Destination,ETA,Data source type[,A,B,C,D]
// matched by column name. Times are day first (01/06/2018 00:00:00).

// The columns a DMA parser reads, indexes into dmaNames.
const (
	dmaTime = iota
	dmaMobile
	dmaMMSI
	dmaLat
	dmaLon
	dmaNav
	dmaSOG
	dmaCOG
	dmaHeading
	dmaIMO
	dmaCall
	dmaName
	dmaType
	dmaWidth
	dmaLength
	dmaDraught
	dmaDest
	dmaETA
	dmaA
	dmaB
	dmaC
	dmaD
	dmaCols
)

var dmaNames = [][]string{
	dmaTime:    {"timestamp"},
	dmaMobile:  {"typeofmobile"},
	dmaMMSI:    {"mmsi"},
	dmaLat:     {"latitude"},
	dmaLon:     {"longitude"},
	dmaNav:     {"navigationalstatus"},
	dmaSOG:     {"sog"},
	dmaCOG:     {"cog"},
	dmaHeading: {"heading"},
	dmaIMO:     {"imo"},
	dmaCall:    {"callsign"},
	dmaName:    {"name"},
	dmaType:    {"shiptype"},
	dmaWidth:   {"width"},
	dmaLength:  {"length"},
	dmaDraught: {"draught"},
	dmaDest:    {"destination"},
	dmaETA:     {"eta"},
	dmaA:       {"a"},
	dmaB:       {"b"},
	dmaC:       {"c"},
	dmaD:       {"d"},
}

// dma reads the rows of one aisdk CSV.
type dma struct {
	col  [dmaCols]int
	ncol int
	csvRow
}

func newDMA(header []byte) (*dma, error) {
	idx, n, err := columns(header, ',', dmaNames)
	if err != nil {
		return nil, err
	}
	p := &dma{ncol: n}
	copy(p.col[:], idx)
	var missing []string
	for _, c := range []int{dmaTime, dmaMobile, dmaMMSI, dmaLat, dmaLon} {
		if p.col[c] < 0 {
			missing = append(missing, dmaNames[c][0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("DMA header lacks %s", strings.Join(missing, ", "))
	}
	return p, nil
}

// mobile classifies DMA's "Type of mobile": the skip reason of a mobile
// that is not a vessel, or whether a vessel is class B.
func mobile(b []byte) (why rid, classB bool) {
	switch string(b) {
	case "Class A":
		return rNone, false
	case "Class B":
		return rNone, true
	case "Base Station":
		return rBaseStation, false
	case "AtoN":
		return rAidToNavigation, false
	case "SAR Airborne":
		return rSARAircraft, false
	case "Search and Rescue Transponder", "Man Overboard Device":
		return rNotAVessel, false
	}
	switch {
	case bytes.EqualFold(b, []byte("class a")):
		return rNone, false
	case bytes.EqualFold(b, []byte("class b")):
		return rNone, true
	}
	return rUnknownMobile, false
}

// placeholder reports DMA's words for "no value" in text columns.
func placeholder(b []byte) bool {
	return bytes.EqualFold(b, []byte("Unknown")) || bytes.EqualFold(b, []byte("Undefined"))
}

// row reads one row: a position report (type 1 for class A, 18 for class
// B) preceded by a static report (type 5 or 24) when the vessel's static
// data changed. Base stations, aids to navigation, SAR aircraft and other
// mobiles are skipped.
func (p *dma) row(r *Reader, line []byte) rid {
	if !p.split(line, ',') || p.n != p.ncol {
		return rBadRow
	}
	q := &r.q
	mmsi, ok := parseUint(p.field(p.col[dmaMMSI], q))
	if !ok || !validMMSI(mmsi) {
		return rInvalidMMSI
	}
	v := r.vessel(uint32(mmsi))
	h := hashBytes(line)
	if v.line == h {
		return rDuplicate
	}
	v.line = h
	why, classB := mobile(p.field(p.col[dmaMobile], q))
	if why != rNone {
		return why
	}
	ts, ok := parseDMY(p.field(p.col[dmaTime], q))
	if !ok {
		return rBadTime
	}
	if classB {
		q.add(rClassB)
	}

	var pos position
	lat, okLat := p.num(p.col[dmaLat], q)
	lon, okLon := p.num(p.col[dmaLon], q)
	if okLat && okLon {
		pos.setLatLon(lat, lon)
	}
	if x, ok := p.num(p.col[dmaSOG], q); ok {
		pos.setSOG(x, q)
	}
	if x, ok := p.num(p.col[dmaCOG], q); ok {
		pos.setCOG(x, q)
	}
	if x, ok := p.num(p.col[dmaHeading], q); ok {
		pos.setHeading(x, q)
	}
	if f := p.field(p.col[dmaNav], q); len(f) > 0 {
		if code, ok := navStatusCode(f); ok {
			pos.setNav(float64(code))
		} else {
			q.add(rBadField)
		}
	}

	var s static
	if f := p.field(p.col[dmaName], q); !placeholder(f) {
		s.setName(f)
	}
	if f := p.field(p.col[dmaCall], q); !placeholder(f) {
		s.setCall(f)
	}
	if f := p.field(p.col[dmaDest], q); !placeholder(f) {
		s.setDest(f)
	}
	s.setIMOText(p.field(p.col[dmaIMO], q), q)
	if f := p.field(p.col[dmaType], q); len(f) > 0 {
		if code, ok := shipTypeCode(f); ok {
			s.setShipType(float64(code))
		} else {
			q.add(rBadField)
		}
	}
	p.dims(&s, q)
	if x, ok := p.num(p.col[dmaDraught], q); ok {
		s.setDraught(x)
	}
	if f := p.field(p.col[dmaETA], q); len(f) > 0 {
		if eta, ok := parseDMY(f); ok {
			s.setETA(eta)
		} else {
			q.add(rBadField)
		}
	}
	posType, statType := reportTypes(classB)
	return r.combined(v, uint32(mmsi), ts, posType, statType, &pos, &s)
}

// dims takes A, B, C, D (distances to bow, stern, port, starboard) when
// the file has them and they are given, else Length and Width.
func (p *dma) dims(s *static, q *quirks) {
	var d [4]uint16
	given := false
	for k, c := range [4]int{dmaA, dmaB, dmaC, dmaD} {
		if x, ok := p.num(p.col[c], q); ok {
			v, ok := dim(x)
			if !ok {
				q.add(rBadField)
				return
			}
			d[k], given = v, true
		}
	}
	if given && d[0]|d[1]|d[2]|d[3] != 0 {
		s.setDims(d[0], d[1], d[2], d[3])
		return
	}
	length, okL := p.num(p.col[dmaLength], q)
	width, okW := p.num(p.col[dmaWidth], q)
	if okL || okW {
		l, ok1 := dim(length)
		w, ok2 := dim(width)
		if !ok1 || !ok2 {
			q.add(rBadField)
			return
		}
		s.setLengthWidth(l, w)
	}
}
