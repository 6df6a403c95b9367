package history

import (
	"fmt"
	"strings"
)

// MarineCadastre: NOAA/BOEM's daily CSV,
// MMSI,BaseDateTime,LAT,LON,SOG,COG,Heading,VesselName,IMO,CallSign,VesselType,Status,Length,Width,Draft,Cargo[,TransceiverClass]
// matched by column name (no destination column; read as vesselCSV rows).

// mcNames gives the synonyms of each column role of csvNames that a
// MarineCadastre file has, normalised as headerNames makes them.
var mcNames = [][]string{
	gMMSI:    {"mmsi"},
	gTime:    {"basedatetime"},
	gLat:     {"lat", "latitude"},
	gLon:     {"lon", "longitude"},
	gSOG:     {"sog"},
	gCOG:     {"cog"},
	gHeading: {"heading"},
	gNav:     {"status"},
	gIMO:     {"imo"},
	gName:    {"vesselname"},
	gCall:    {"callsign"},
	gType:    {"vesseltype"},
	gLength:  {"length"},
	gWidth:   {"width"},
	gDraught: {"draft"},
	gDest:    nil,
	gClass:   {"transceiverclass", "transceiver"},
}

// newMarineCadastre makes the parser of a MarineCadastre file from its
// header, which must name the MMSI, the time, the latitude and the
// longitude.
func newMarineCadastre(header []byte) (*vesselCSV, error) {
	idx, n, err := columns(header, ',', mcNames)
	if err != nil {
		return nil, err
	}
	p := &vesselCSV{sep: ',', ncol: n, time: parseISO}
	copy(p.col[:], idx)
	var missing []string
	for _, c := range []int{gMMSI, gTime, gLat, gLon} {
		if p.col[c] < 0 {
			missing = append(missing, mcNames[c][0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("MarineCadastre header lacks %s", strings.Join(missing, ", "))
	}
	return p, nil
}
