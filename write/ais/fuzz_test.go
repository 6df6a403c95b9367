package ais

import (
	"bytes"
	"math"
	"testing"
	"time"
)

// fuzzSeeds are real lines from the captures (and multi-line inputs that
// start multi-sentence messages); FuzzDecodeLine splits its input on '\n'.
var fuzzSeeds = []string{
	pos1,
	frag1 + "\n" + frag2,
	frag2 + "\n" + frag1,
	frag1 + "\n" + frag1 + "\n" + frag2,
	"!AIVDM,1,1,,A,H7lca<@P5<qE9w3F22222222220,2*2F\n!AIVDM,1,1,,A,H7lca<DlPPPPPPPI4koloP1h>550,0*0E",
	"!AIVDM,2,1,5,B,ENk`sBG37a:@84Ra1Rh4W62b@61=8Ab37o5n,0*1A\n!AIVDM,2,2,5,B,000003vP08=P,0*50",
	"!AIVDM,1,1,,B,C6:W26h00:9RAr4THs4cTRv0jbhBL@bOSQWii0000000S4862S0P,0*71",
	"!AIVDM,1,1,,A,K3KLehP0rPTJ10Qr,0*2A",
	"!AIVDM,1,1,,A,B3KLehP0B@LTN6`Vl;rrBE063P06,0*5A",
	"!AIVDM,1,1,,B,403OviQuMGCqWrRO9>E6fE700@GO,0*4D",
	"!AIVDM,1,1,,2,601uEP19bi7P04810,6*5D",
	`\g:1-2-27300,n:636994,s:b003669710,c:1428621738*5F\!SAVDM,2,1,2,B,55Mw@A7J1adAL@?;7WPl58F0U<h4pB222222220t1PN5553fN4g?` + "`" + `4iSp5Rc,0*26` + "\n" + `\g:2-2-27300,n:636995*15\!SAVDM,2,2,2,B,iP` + "`" + `88888880,2*5E`,
	`\g:1-2-73874,n:157036,s:r003669945,c:12415440354*A\!AIVDM,1,1,,B,15N4cJ005Jrek0H@9nDW5608EP,013`,
	`\s:blah,c:1747818025*5A\!AAVDM,0,1,,B,16UK7Fi0?w4tQF0l4Q@>401v1PS;,0*0F`,
	"1550303566167766932 !ABVDM,2,1,9,A,602=WITp2uLn01mVIj<04CH>NB0000PCEnUdK6UQKG=4HGIaI21:KnqQ,0*7E\n1550303566167776369 !ABVDM,2,2,9,A,M6QQKR1@JG9aI@0,2*69",
	"$PGHP,1,2008,5,9,0,0,0,10,338,2,,1,09*17\n!AIVDM,1,1,,B,15NBj>PP1gG>1PVKTDTUJOv00<0M,0*09",
	"!AIVDM,1,1,,B,15Mw1U?P00qNGTP@v`0@9wwn26sd,0*0E,b2003669950,1272412827",
	"!AIVDM,1,1,,B,KuTOOvuuubehD70,2*62,d-123,S2077,t081955.00,T55.40475095,r11RPAR1,1272442796",
	"!AIVDM,1,1,,B,,0*25",
	"$GPGGA,184353.07,1929.045,S,02410.506,E,1,04,2.6,100.00,M,-33.9,M,,0000*6D\r\n",
	"foobar\n# comment\n\n",
	"!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C\n!AIVDM,2,2,1,A,88888888880,2*25",
}

// FuzzDecodeLine feeds arbitrary lines to one Decoder (a small MaxPending
// and a clock that moves): no panic, the counters add up, the pending
// partial messages never exceed MaxPending, and every message returned is
// well formed.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		now := time.Unix(1700000000, 0)
		const maxPending = 3
		d := NewDecoder(Options{MaxPending: maxPending, ReassemblyTimeout: 5 * time.Second, Now: func() time.Time { return now }})
		for _, line := range bytes.Split(data, []byte("\n")) {
			keep := bytes.Clone(line)
			m, ok := d.Decode(line)
			if !bytes.Equal(line, keep) {
				t.Fatalf("Decode modified its input")
			}
			now = now.Add(time.Second)
			if ok {
				checkMessage(t, &m)
			}
			s := d.Stats()
			checkInvariants(t, s, maxPending)
			if t.Failed() {
				t.FailNow()
			}
		}
	})
}

// FuzzDecodePayload decodes arbitrary armoured payloads with arbitrary
// fill bits: no panic, and a decoded message is well formed; for the types
// the encoder supports, encoding it and decoding again gives it back.
func FuzzDecodePayload(f *testing.F) {
	for _, p := range []string{
		"15RTgt0PAso;90TKcjM8h6g208CQ", "403OviQuMGCqWrRO9>E6fE700@GO", "H7lca<@P5<qE9w3F22222222220", "H7lca<DlPPPPPPPI4koloP1h>550",
		"55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp888888888880", "K3KLehP0rPTJ10Qr",
		"ENk`sBG37a:@84Ra1Rh4W62b@61=8Ab37o5n000003vP08=P", "C6:W26h00:9RAr4THs4cTRv0jbhBL@bOSQWii0000000S4862S0P",
		"B3KLehP0B@LTN6`Vl;rrBE063P06", "601uEP19bi7P04810", "w", "",
	} {
		f.Add([]byte(p), uint8(0))
		f.Add([]byte(p), uint8(2))
	}
	f.Fuzz(func(t *testing.T, payload []byte, fill uint8) {
		m, err := DecodePayload(payload, int(fill))
		if err != nil {
			return
		}
		checkMessage(t, &m)
		switch m.Type {
		case 1, 2, 3, 5, 18, 19, 24, 27:
		default:
			return
		}
		p, fill2, err := EncodePayload(&m)
		if err != nil {
			t.Fatalf("encoding a decoded message: %v", err)
		}
		m2, err := DecodePayload([]byte(p), fill2)
		if err != nil {
			t.Fatalf("decoding %q: %v", p, err)
		}
		if e := sameMessage(m2, m); len(e) > 0 {
			t.Fatalf("%q fill %d re-encoded as %q: %v", payload, fill, p, e)
		}
	})
}

// checkMessage verifies what every decoded message guarantees.
func checkMessage(t *testing.T, m *Message) {
	t.Helper()
	if m.Type < 1 || m.Type > 27 || m.Repeat > 3 || m.MMSI >= 1<<30 {
		t.Fatalf("bad header %+v", m)
	}
	has := m.Fields.Has
	if has(HasPosition) != (!math.IsNaN(m.Lat) && !math.IsNaN(m.Lon)) ||
		has(HasPosition) && (math.Abs(m.Lat) > 90 || math.Abs(m.Lon) > 180) {
		t.Fatalf("position %v,%v fields %b", m.Lat, m.Lon, m.Fields)
	}
	if has(HasSOG) == math.IsNaN(m.SOG) || has(HasSOG) && (m.SOG < 0 || m.SOG > 102.2) {
		t.Fatalf("SOG %v fields %b", m.SOG, m.Fields)
	}
	if has(HasCOG) == math.IsNaN(m.COG) || has(HasCOG) && (m.COG < 0 || m.COG >= 360) {
		t.Fatalf("COG %v fields %b", m.COG, m.Fields)
	}
	if has(HasDraught) == math.IsNaN(m.Draught) || m.Heading >= 360 || !has(HasHeading) && m.Heading != 0 {
		t.Fatalf("draught %v heading %d fields %b", m.Draught, m.Heading, m.Fields)
	}
	if has(HasETA) && (m.ETAMonth < 1 || m.ETAMonth > 12 || m.ETADay < 1) || has(HasETATime) && (m.ETAHour > 23 || m.ETAMinute > 59) {
		t.Fatalf("ETA %+v", m)
	}
	for _, s := range []string{m.Name, m.CallSign, m.Destination, m.VendorID} {
		if len(s) > 34 || s != NormalizeText(s, 34) {
			t.Fatalf("text %q is not clean six-bit text", s)
		}
	}
	if has(HasName) != (m.Name != "") || has(HasCallSign) != (m.CallSign != "") || has(HasDestination) != (m.Destination != "") {
		t.Fatalf("text presence %b: %+v", m.Fields, m)
	}
	if !Decoded(m.Type) && m.Fields != 0 {
		t.Fatalf("fields on an undecoded type: %+v", m)
	}
}
