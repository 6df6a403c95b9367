package history

import (
	"bytes"
	"fmt"
)

// CSV: any other delimited file (comma, semicolon or tab) whose header
// names an MMSI, a time, a latitude and a longitude by one of their usual
// names (Stone Soup's Time,MMSI,Latitude_degrees,...; the Norwegian
// mmsi;imo_nr;length;date_time_utc;lon;lat;...; BarentsWatch API dumps).

// The columns a generic CSV parser reads, indexes into csvNames.
const (
	gMMSI = iota
	gTime
	gLat
	gLon
	gSOG
	gCOG
	gHeading
	gNav
	gIMO
	gName
	gCall
	gType
	gLength
	gWidth
	gDraught
	gDest
	gClass
	gCols
)

// csvNames gives the synonyms of each column, normalised as headerNames
// does.
var csvNames = [][]string{
	gMMSI:    {"mmsi", "userid", "ssvid"},
	gTime:    {"time", "timestamp", "datetimeutc", "datetime", "msgtime", "timeutc", "basedatetime"},
	gLat:     {"lat", "latitude", "latitudedegrees"},
	gLon:     {"lon", "long", "lng", "longitude", "longitudedegrees"},
	gSOG:     {"sog", "sogknots", "speedoverground", "speed"},
	gCOG:     {"cog", "cogdegrees", "courseoverground", "course"},
	gHeading: {"heading", "trueheading", "headingdegrees"},
	gNav:     {"navstatus", "navigationalstatus", "status"},
	gIMO:     {"imo", "imonr", "imonumber"},
	gName:    {"name", "shipname", "vesselname"},
	gCall:    {"callsign"},
	gType:    {"shiptype", "vesseltype", "shipandcargotype"},
	gLength:  {"length", "shiplength"},
	gWidth:   {"width", "beam", "shipwidth"},
	gDraught: {"draught", "draft"},
	gDest:    {"destination"},
	gClass:   {"class", "aisclass", "transceiverclass", "reportclass"},
}

// csvSeps are the delimiters a generic CSV may use.
var csvSeps = []byte{',', ';', '\t'}

// genericSep returns the delimiter of a header that names the columns a
// generic CSV needs, or 0.
func genericSep(header []byte) byte {
	for _, sep := range csvSeps {
		if bytes.IndexByte(header, sep) < 0 {
			continue
		}
		idx, _, err := columns(header, sep, csvNames)
		if err == nil && idx[gMMSI] >= 0 && idx[gTime] >= 0 && idx[gLat] >= 0 && idx[gLon] >= 0 {
			return sep
		}
	}
	return 0
}

// newGeneric makes the parser of a generic CSV from its header.
func newGeneric(header []byte) (*vesselCSV, error) {
	sep := genericSep(header)
	if sep == 0 {
		return nil, fmt.Errorf("CSV header lacks an MMSI, a time, a latitude or a longitude column")
	}
	idx, n, err := columns(header, sep, csvNames)
	if err != nil {
		return nil, err
	}
	p := &vesselCSV{sep: sep, ncol: n, nulls: true, time: genericTime}
	copy(p.col[:], idx)
	return p, nil
}

// genericTime reads ISO 8601, DMA's day-first form or unix seconds.
func genericTime(b []byte) (int64, bool) {
	if t, ok := parseISO(b); ok {
		return t, true
	}
	if t, ok := parseDMY(b); ok {
		return t, true
	}
	if v, ok := parseUint(b); ok && len(b) == 10 {
		t := int64(v)
		return t, t >= 631152000 && t < 4102444800 // 1990 to 2099
	}
	return 0, false
}
