package ais

import (
	"fmt"
	"strings"
	"testing"
)

// withSum appends "*hh" to an NMEA sentence that starts with '!' or '$'.
func withSum(s string) string {
	return fmt.Sprintf("%s*%02X", s, nmeaSum([]byte(s[1:])))
}

// lowerSum writes the checksum digits in lower case.
func lowerSum(s string) string { return s[:len(s)-2] + strings.ToLower(s[len(s)-2:]) }

// tag builds a valid tag block around fields.
func tag(fields string) string {
	return fmt.Sprintf(`\%s*%02X\`, fields, nmeaSum([]byte(fields)))
}

func TestParseSentence(t *testing.T) {
	t.Parallel()
	const p = "15RTgt0PAso;90TKcjM8h6g208CQ"
	for _, c := range []struct {
		line   string
		result int
		want   sentence // checked when parsedOK (payload by length)
	}{
		{withSum("!AIVDM,1,1,,A," + p + ",0"), parsedOK, sentence{talker: [2]byte{'A', 'I'}, count: 1, num: 1, seq: noSeq, channel: 'A'}},
		{withSum("!ABVDM,2,1,7,B," + p + ",0"), parsedOK, sentence{talker: [2]byte{'A', 'B'}, count: 2, num: 1, seq: 7, channel: 'B'}},
		{withSum("!BSVDO,2,2,12,1," + p + ",2"), parsedOK, sentence{talker: [2]byte{'B', 'S'}, own: true, count: 2, num: 2, seq: 12, channel: '1', fill: 2}},
		{withSum("$SAVDM,1,1,,," + p + ","), parsedOK, sentence{talker: [2]byte{'S', 'A'}, count: 1, num: 1, seq: noSeq}},
		{withSum("!ANVDM,1,1,,2,"+p+",6") + ",b003669710,1272412827", parsedOK, sentence{talker: [2]byte{'A', 'N'}, count: 1, num: 1, seq: noSeq, channel: '2', fill: 6}},
		{lowerSum(withSum("!AIVDM,1,1,,B,18,0")), parsedOK, sentence{talker: [2]byte{'A', 'I'}, count: 1, num: 1, seq: noSeq, channel: 'B'}},
		// checksums
		{"!AIVDM,1,1,,A," + p + ",0", parsedBadSum, sentence{}},
		{"!AIVDM,1,1,,A," + p + ",0*00", parsedBadSum, sentence{}},
		{"!AIVDM,1,1,,A," + p + ",0*4", parsedBadSum, sentence{}},
		{"!AIVDM,1,1,,A," + p + ",0*", parsedBadSum, sentence{}},
		{"!AIVDM,1,1,,A," + p + ",0*G4", parsedBadSum, sentence{}},
		// fields
		{withSum("!AIVDM,0,1,,A," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,2,,A," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,x,1,,A," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,10,1,,A," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,abc,A," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,AB," + p + ",0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A,,0"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A," + p + ",7"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A," + p + ",x"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A,1,6"), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A," + p), parsedMalformed, sentence{}},
		{withSum("!AIVDM,1,1,,A," + p + ",0,0"), parsedMalformed, sentence{}},
		// not AIS
		{withSum("$GPRMC,184353.07,A"), parsedNotAIS, sentence{}},
		{withSum("!AIVDX,1,1,,A," + p + ",0"), parsedNotAIS, sentence{}},
		{withSum("!aiVDM,1,1,,A," + p + ",0"), parsedNotAIS, sentence{}},
		{"!AIVDM", parsedNotAIS, sentence{}},
	} {
		var s sentence
		r := parseSentence([]byte(c.line), &s)
		if r != c.result {
			t.Errorf("%q: result %d, want %d", c.line, r, c.result)
			continue
		}
		if r != parsedOK {
			continue
		}
		if s.talker != c.want.talker || s.own != c.want.own || s.count != c.want.count || s.num != c.want.num ||
			s.seq != c.want.seq || s.channel != c.want.channel || s.fill != c.want.fill {
			t.Errorf("%q: got %+v, want %+v", c.line, s, c.want)
		}
	}
}

// TestSuffixKept checks that text after the checksum is left for the
// USCG fields (and junk is tolerated, as gpsd does).
func TestSuffixKept(t *testing.T) {
	t.Parallel()
	line := withSum("!AIVDM,1,1,,A,1,0") + `\x0d\x0a`
	var s sentence
	if r := parseSentence([]byte(line), &s); r != parsedOK || string(s.suffix) != `\x0d\x0a` {
		t.Fatalf("result %d suffix %q", r, s.suffix)
	}
}

func TestIsNMEALike(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"$GPRMC,1,2*00": true, "$GPR00,A,B,C*29": true, "$PGHP,1*00": true, "!ABC,": true,
		"foobar": false, "$": false, "$g,": false, "IamNotAnAisMessage1111": false, "$GP": false,
	} {
		if isNMEALike([]byte(s)) != want {
			t.Errorf("%q: want %v", s, want)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", " \t\r\n": "", "\x00!A\r\n": "!A", "  #x  ": "#x"} {
		if got := string(trimSpace([]byte(in))); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
