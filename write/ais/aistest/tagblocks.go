// Package aistest builds AIS test inputs from real captures: the NMEA 4.10
// tag-block grouped rewrite of a capture that the conformance and
// end-to-end tests decode.
package aistest

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// The grouped captures of the conformance tests are built from the real
// captures the way NMEA 4.10 feeds of coastal administrations send them
// (the Norwegian Coastal Administration's open feed, for one):
//   - every sentence behind a tag block; a single-sentence message with
//     "s:<station>,c:<unix time>";
//   - the first sentence of a multi-sentence message with
//     "g:1-<n>-<group id>,s:...,c:..." and the others with only
//     "g:<k>-<n>-<group id>" or, one message in three, with a "c:" of their
//     own a second later than the first's;
//   - the sequential message id of the !AIVDM inside left empty;
//   - two stations taking turns, one writing "c:" in seconds and the other
//     in milliseconds, each numbering its groups (from 1000 and 5000).
//
// A group holds the fragments that gpsd joins (the next fragment on the
// same channel), whatever their sequential ids were. With interleave set,
// two consecutive two-sentence messages of the two stations arrive mixed
// (X1, Y1, X2, Y2), as the lines of several stations do in a merged feed;
// gpsd cannot decode that stream, so it is compared with the same capture
// not interleaved.

// WrapStart is the feed time of the first wrapped line.
var WrapStart = time.Date(2025, 3, 1, 6, 0, 0, 0, time.UTC)

// Wrapped is a grouped capture and, line for line, the same stream with
// the tag blocks removed: what gpsdecode is given as the reference.
type Wrapped struct {
	Lines    [][]byte
	Stripped [][]byte
}

// wrapLine is one line of a grouped capture being built.
type wrapLine struct {
	line, stripped []byte
	msg            int // multi-part message number, -1 for other lines
	num, count     string
}

// WrapTagBlocks builds the grouped capture of lines (see the package
// documentation of the rewrite, in tagblocks.go). Lines
// that are not AIVDM/AIVDO sentences with a valid checksum are kept as
// they are; an envelope they had (tag block, time prefix, USCG fields) is
// replaced.
func WrapTagBlocks(lines [][]byte, interleave bool) Wrapped {
	type open struct {
		group, station, n int
		next              string
	}
	var out []wrapLine
	pending := map[string]*open{} // by channel: the message under way
	singles, multis := 0, 0
	newGroup := func() *open {
		g := &open{group: [2]int{1000, 5000}[multis%2] + multis/2, station: multis % 2, n: multis}
		multis++
		return g
	}
	for i, line := range lines {
		sentence, ok := bareSentence(line)
		if !ok {
			out = append(out, wrapLine{line: line, stripped: append(bytes.TrimRight(line, "\r\n"), '\n'), msg: -1})
			continue
		}
		f := strings.Split(sentence[1:strings.IndexByte(sentence, '*')], ",")
		count, num, channel := f[1], f[2], f[4]
		f[3] = "" // the sequential id, left empty
		body := strings.Join(f, ",")
		s := fmt.Sprintf("%c%s*%02X", sentence[0], body, xor(body))
		now := WrapStart.Add(time.Duration(i/7) * time.Second)
		var tb string
		msg := -1
		switch g := pending[channel]; {
		case count == "1":
			station := singles % 2
			singles++
			tb = fmt.Sprintf("s:%s,c:%s", wrapStation(station), wrapTime(station, now))
		case num == "1":
			g = newGroup()
			g.next = "2"
			pending[channel] = g
			msg = g.n
			tb = fmt.Sprintf("g:1-%s-%d,s:%s,c:%s", count, g.group, wrapStation(g.station), wrapTime(g.station, now))
		default:
			if g == nil || g.next != num {
				// A fragment that does not follow its predecessor: a
				// group of its own, which never completes.
				g = newGroup()
			}
			msg = g.n
			tb = fmt.Sprintf("g:%s-%s-%d", num, count, g.group)
			if g.n%3 == 0 {
				tb += ",c:" + wrapTime(g.station, now.Add(time.Second))
			}
			g.next = fmt.Sprint(int(num[0]-'0') + 1)
			if num == count {
				delete(pending, channel)
			}
		}
		out = append(out, wrapLine{
			line:     fmt.Appendf(nil, "\\%s*%02X\\%s\r\n", tb, xor(tb), s),
			stripped: []byte(s + "\r\n"),
			msg:      msg, num: num, count: count,
		})
	}
	if interleave {
		interleaveGroups(out)
	}
	var w Wrapped
	for _, l := range out {
		w.Lines = append(w.Lines, l.line)
		w.Stripped = append(w.Stripped, l.stripped)
	}
	return w
}

// interleaveGroups turns every run X1, X2, Y1, Y2 of two complete
// two-sentence messages into X1, Y1, X2, Y2.
func interleaveGroups(ls []wrapLine) {
	frag := func(l wrapLine, num string) bool { return l.msg >= 0 && l.count == "2" && l.num == num }
	for i := 0; i+3 < len(ls); i++ {
		a, b, c, d := ls[i], ls[i+1], ls[i+2], ls[i+3]
		if frag(a, "1") && frag(b, "2") && frag(c, "1") && frag(d, "2") && a.msg == b.msg && c.msg == d.msg {
			ls[i+1], ls[i+2] = c, b
			i += 3
		}
	}
}

func wrapStation(k int) string { return [2]string{"2573135", "2573250"}[k] }

func wrapTime(station int, t time.Time) string {
	if station == 0 {
		return fmt.Sprint(t.Unix())
	}
	return fmt.Sprint(t.UnixMilli())
}

// bareSentence returns the AIVDM/AIVDO sentence of a line without its
// envelope (a time prefix, tag blocks, fields after the checksum), when
// its checksum is right.
func bareSentence(line []byte) (string, bool) {
	s := string(bytes.TrimSpace(line))
	for strings.HasPrefix(s, "\\") {
		end := strings.IndexByte(s[1:], '\\')
		if end < 0 {
			return "", false
		}
		s = s[end+2:]
	}
	if i := strings.IndexAny(s, "!$"); i > 0 && strings.TrimLeft(s[:i], "0123456789. \t") == "" {
		s = s[i:]
	}
	if len(s) < 7 || (s[0] != '!' && s[0] != '$') || (s[3:7] != "VDM," && s[3:7] != "VDO,") {
		return "", false
	}
	star := strings.IndexByte(s, '*')
	if star < 0 || star+3 > len(s) || fmt.Sprintf("%02X", xor(s[1:star])) != strings.ToUpper(s[star+1:star+3]) {
		return "", false
	}
	s = s[:star+3]
	if f := strings.Split(s, ","); len(f) != 7 {
		return "", false
	}
	return s, true
}

// xor is the NMEA checksum of s.
func xor(s string) byte {
	var x byte
	for i := 0; i < len(s); i++ {
		x ^= s[i]
	}
	return x
}
