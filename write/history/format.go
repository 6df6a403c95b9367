package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Format names an archive format.
type Format string

// The formats a Reader understands.
const (
	// Auto detects the format from the first lines of the file.
	Auto Format = "auto"
	// MarineCadastre is NOAA/BOEM's daily CSV (MMSI,BaseDateTime,LAT,...).
	MarineCadastre Format = "marinecadastre"
	// DMA is the Danish Maritime Authority's aisdk CSV (# Timestamp,Type
	// of mobile,MMSI,...).
	DMA Format = "dma"
	// BarentsWatch is Kystverket/BarentsWatch JSON lines (msgtime, type
	// Position/Staticdata/Aton, or the flat combined records).
	BarentsWatch Format = "barentswatch"
	// GFW is Global Fishing Watch gpsdio JSON lines (ssvid or mmsi,
	// timestamp, lat, lon, ...).
	GFW Format = "gfw"
	// NMEA is raw AIVDM/AIVDO sentences with a time from tag blocks,
	// GateHouse $PGHP sentences, USCG suffixes or time prefixes.
	NMEA Format = "nmea"
	// CSV is any other delimited file (comma, semicolon or tab) whose
	// header names an MMSI, a time, a latitude and a longitude by their
	// usual names (Stone Soup, the Norwegian semicolon exports, ...).
	CSV Format = "csv"
)

// Formats lists the formats ParseFormat accepts, Auto first.
func Formats() []Format {
	return []Format{Auto, MarineCadastre, DMA, BarentsWatch, GFW, NMEA, CSV}
}

// ParseFormat reads a format name (case and surrounding spaces ignored);
// the empty string is Auto.
func ParseFormat(s string) (Format, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Auto, nil
	}
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: %s", s, understood)
}

// understood says which formats the package reads, for error messages.
const understood = "formats understood: marinecadastre (CSV with BaseDateTime), " +
	"dma (CSV with # Timestamp,Type of mobile), barentswatch (JSON lines with msgtime), " +
	"gfw (gpsdio JSON lines with ssvid or mmsi and timestamp), " +
	"nmea (lines starting with !, $, \\ or a unix time), " +
	"csv (a header naming MMSI, a time, latitude and longitude)"

// errBinary is the error for a line holding control bytes.
var errBinary = errors.New("binary data, not a text AIS archive")

// utf8BOM may open a CSV written by Windows tools.
var utf8BOM = []byte("\xef\xbb\xbf")

// detect returns the format a significant first line announces, or "".
func detect(line []byte) Format {
	line = bytes.TrimSpace(bytes.TrimPrefix(line, utf8BOM))
	if len(line) == 0 {
		return ""
	}
	switch c := line[0]; {
	case c == '{':
		return detectJSON(line)
	case c == '!' || c == '$' || c == '\\':
		return NMEA
	case c >= '0' && c <= '9':
		i := 0
		for i < len(line) && (line[i] >= '0' && line[i] <= '9' || line[i] == '.') {
			i++
		}
		rest := bytes.TrimLeft(line[i:], " \t")
		if len(rest) < len(line[i:]) && len(rest) > 0 && (rest[0] == '!' || rest[0] == '\\' || rest[0] == '$') {
			return NMEA
		}
	}
	return detectCSV(line)
}

// detectJSON reads the keys of a first JSON record.
func detectJSON(line []byte) Format {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return ""
	}
	if _, ok := m["msgtime"]; ok {
		return BarentsWatch
	}
	if t, ok := m["type"]; ok {
		switch string(bytes.TrimSpace(t)) {
		case `"Position"`, `"Staticdata"`, `"Aton"`:
			return BarentsWatch
		}
	}
	if _, ok := m["ssvid"]; ok {
		return GFW
	}
	_, mmsi := m["mmsi"]
	_, ts := m["timestamp"]
	if mmsi && ts {
		return GFW
	}
	return ""
}

// detectCSV recognises the CSV headers by their column names.
func detectCSV(line []byte) Format {
	cols := headerNames(line, ',')
	for _, c := range cols {
		if c == "basedatetime" {
			return MarineCadastre
		}
	}
	if len(cols) > 1 && cols[0] == "timestamp" {
		for _, c := range cols {
			if c == "typeofmobile" {
				return DMA
			}
		}
	}
	if genericSep(line) != 0 {
		return CSV
	}
	return ""
}

// headerNames splits a header line and normalises each name: lower case,
// letters and digits only ("# Timestamp" is "timestamp", "Type of mobile"
// "typeofmobile").
func headerNames(line []byte, sep byte) []string {
	line = bytes.TrimPrefix(line, utf8BOM)
	var out []string
	for _, f := range bytes.Split(line, []byte{sep}) {
		var b strings.Builder
		for _, c := range bytes.ToLower(bytes.Trim(f, "\" \t\r")) {
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				b.WriteByte(c)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// describe says what a format's first line looks like, for errors.
func describe(f Format) string {
	switch f {
	case MarineCadastre:
		return "a MarineCadastre CSV header (MMSI,BaseDateTime,LAT,LON,...)"
	case DMA:
		return "a DMA aisdk CSV header (# Timestamp,Type of mobile,MMSI,...)"
	case BarentsWatch:
		return "a BarentsWatch JSON record (mmsi, msgtime)"
	case GFW:
		return "a gpsdio JSON record (ssvid or mmsi, timestamp)"
	case NMEA:
		return "an NMEA sentence (!AIVDM, $PGHP, a tag block or a unix time prefix)"
	case CSV:
		return "a CSV header naming an MMSI, a time, a latitude and a longitude"
	}
	return string(f)
}

// checkFormat decides the format of an entry from its first significant
// line: the detected one for Auto, else the forced one if it matches.
func checkFormat(first []byte, forced Format) (Format, error) {
	got := detect(first)
	if forced == Auto || forced == "" {
		if got == "" {
			return "", fmt.Errorf("unrecognised format (first line %s); %s", quoteStart(first), understood)
		}
		return got, nil
	}
	if got != forced {
		also := ""
		if got != "" {
			also = fmt.Sprintf("; it looks like %s", got)
		}
		return "", fmt.Errorf("not a %s file: want %s, got %s%s", forced, describe(forced), quoteStart(first), also)
	}
	return got, nil
}

// quoteStart quotes the first 80 bytes of a line for an error message.
func quoteStart(line []byte) string {
	if len(line) > 80 {
		return fmt.Sprintf("%q...", line[:80])
	}
	return fmt.Sprintf("%q", line)
}
