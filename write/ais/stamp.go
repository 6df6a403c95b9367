package ais

import "time"

// Stamp prefixes a sentence received from elsewhere with an NMEA 4.0 tag
// block carrying its receive time ("c:", unix seconds) and, when not empty,
// the station ("s:"). A sentence that already has a tag block gets a second
// one in front, which the decoder reads first.
func Stamp(sentence string, t time.Time, station string) string {
	if station != "" && !validStation(station) {
		station = ""
	}
	buf := appendTagBlock(make([]byte, 0, len(sentence)+32), EncodeOptions{Time: t, Station: station}, 1, 1, 0)
	return string(buf) + sentence
}
