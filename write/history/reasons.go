package history

// Reason names why a row gave no report (Stats.Skipped) or how a kept row
// was fixed up (Stats.Quirks). Values are snake_case, stable, and meant to
// be printed as they are.
type Reason string

// Reasons a row gives no report. Every row lands in exactly one of these or
// gives at least one report.
const (
	// SkipBaseStation: a base station (DMA "Base Station", AIS type 4).
	SkipBaseStation Reason = "base_station"
	// SkipAidToNavigation: an aid to navigation (DMA "AtoN", BarentsWatch
	// "Aton", AIS type 21).
	SkipAidToNavigation Reason = "aid_to_navigation"
	// SkipSARAircraft: a search and rescue aircraft (DMA "SAR Airborne",
	// AIS type 9).
	SkipSARAircraft Reason = "sar_aircraft"
	// SkipNotAVessel: another mobile that is not a vessel (DMA "Search and
	// Rescue Transponder", "Man Overboard Device").
	SkipNotAVessel Reason = "not_a_vessel"
	// SkipUnknownMobile: DMA "Type of mobile" "Undefined" or a value this
	// package does not know: the row cannot be told to be a vessel's.
	SkipUnknownMobile Reason = "unknown_mobile"
	// SkipOtherMessage: an AIS message that carries neither a vessel's
	// position nor its static data (binary, safety, acknowledgement,
	// interrogation, channel management, UTC responses, ...), or a
	// BarentsWatch record of an unknown type.
	SkipOtherMessage Reason = "other_message"
	// SkipInvalidMMSI: the MMSI is missing, not a number, zero or longer
	// than nine digits.
	SkipInvalidMMSI Reason = "invalid_mmsi"
	// SkipBadTime: the time is missing, unreadable, or outside 1990-2099.
	SkipBadTime Reason = "bad_time"
	// SkipNoTime: an NMEA message that carried no time of its own (no tag
	// block, $PGHP, USCG suffix or time prefix): history cannot place it.
	SkipNoTime Reason = "no_time"
	// SkipPositionUnavailable: no valid position and no static data
	// (latitude 91 / longitude 181, blank, or unreadable).
	SkipPositionUnavailable Reason = "position_unavailable"
	// SkipImpossiblePosition: a latitude beyond ±90 or a longitude beyond
	// ±180 that is not the "not available" sentinel, on a row without
	// static data.
	SkipImpossiblePosition Reason = "impossible_position"
	// SkipBadRow: a row that cannot be read: a CSV row with the wrong
	// number of columns or broken quoting, a line that is not a JSON
	// object, a line longer than MaxLine.
	SkipBadRow Reason = "bad_row"
	// SkipInvalidNMEA: an NMEA line the decoder rejected: garbage, a bad
	// or missing checksum, a malformed sentence or payload (ais.Stats
	// Garbage, BadChecksum and BadPayload).
	SkipInvalidNMEA Reason = "invalid_nmea"
	// SkipOtherNMEA: an NMEA line that is not AIS: GateHouse $PGHP time
	// sentences (whose time stamps the next message), other talkers'
	// sentences, comments (ais.Stats OtherNMEA and Comments).
	SkipOtherNMEA Reason = "other_nmea"
	// SkipFragment: a sentence of a multi-sentence message; the message's
	// report counts on the line that completes it.
	SkipFragment Reason = "fragment"
	// SkipDuplicate: the same line as the previous kept line of the same
	// MMSI (CSV and JSON lines), or an NMEA fragment received twice.
	SkipDuplicate Reason = "duplicate"
)

// Quirks of rows that were kept: counted once per kept row and reason, in
// addition to the row's report(s).
const (
	// QuirkIMOInvalid: an IMO that is not seven digits with a valid check
	// digit (IMO739103200, IMO0000000, Unknown, 0) was dropped.
	QuirkIMOInvalid Reason = "imo_invalid"
	// QuirkHeadingUnavailable: heading 511 (or outside 0-359): no heading.
	QuirkHeadingUnavailable Reason = "heading_unavailable"
	// QuirkSOGUnavailable: speed 102.3 (or negative): no speed.
	QuirkSOGUnavailable Reason = "sog_unavailable"
	// QuirkCOGUnavailable: course 360 (or outside 0-360, such as an
	// unscaled 3600): no course.
	QuirkCOGUnavailable Reason = "cog_unavailable"
	// QuirkPositionUnavailableStaticKept: a row without a valid position
	// that still gave its static data.
	QuirkPositionUnavailableStaticKept Reason = "position_unavailable_static_kept"
	// QuirkClassB: a class B transponder (reported as types 18 and 24).
	QuirkClassB Reason = "class_b"
	// QuirkOutOfOrder: the row's time is before the previous kept row's.
	QuirkOutOfOrder Reason = "out_of_order"
	// QuirkBlankField: a field holding only spaces (DMA's ", ,") was read
	// as empty.
	QuirkBlankField Reason = "blank_field"
	// QuirkCRLF: the line ended in CR LF.
	QuirkCRLF Reason = "crlf"
	// QuirkDraughtDecimetres: a BarentsWatch draught in decimetres was
	// converted to metres.
	QuirkDraughtDecimetres Reason = "draught_decimetres"
	// QuirkSentinelETA: an ETA with "not available" parts (month 0, day 0,
	// hour 24, minute 60; BarentsWatch "00002460" and "00000000"): no ETA,
	// or a date-only ETA at midnight when only the time was missing.
	QuirkSentinelETA Reason = "sentinel_eta"
	// QuirkBadField: a field that could not be read (not a number, not a
	// date) was left out; the rest of the row was kept.
	QuirkBadField Reason = "bad_field"
)

// rid indexes a Reason in the counters; 0 is "none".
type rid uint8

const (
	rNone rid = iota
	rBaseStation
	rAidToNavigation
	rSARAircraft
	rNotAVessel
	rUnknownMobile
	rOtherMessage
	rInvalidMMSI
	rBadTime
	rNoTime
	rPositionUnavailable
	rImpossiblePosition
	rBadRow
	rInvalidNMEA
	rOtherNMEA
	rFragment
	rDuplicate
	rIMOInvalid
	rHeadingUnavailable
	rSOGUnavailable
	rCOGUnavailable
	rPositionUnavailableStaticKept
	rClassB
	rOutOfOrder
	rBlankField
	rCRLF
	rDraughtDecimetres
	rSentinelETA
	rBadField
	nReasons
)

// reasons names each rid.
var reasons = [nReasons]Reason{
	rBaseStation:                   SkipBaseStation,
	rAidToNavigation:               SkipAidToNavigation,
	rSARAircraft:                   SkipSARAircraft,
	rNotAVessel:                    SkipNotAVessel,
	rUnknownMobile:                 SkipUnknownMobile,
	rOtherMessage:                  SkipOtherMessage,
	rInvalidMMSI:                   SkipInvalidMMSI,
	rBadTime:                       SkipBadTime,
	rNoTime:                        SkipNoTime,
	rPositionUnavailable:           SkipPositionUnavailable,
	rImpossiblePosition:            SkipImpossiblePosition,
	rBadRow:                        SkipBadRow,
	rInvalidNMEA:                   SkipInvalidNMEA,
	rOtherNMEA:                     SkipOtherNMEA,
	rFragment:                      SkipFragment,
	rDuplicate:                     SkipDuplicate,
	rIMOInvalid:                    QuirkIMOInvalid,
	rHeadingUnavailable:            QuirkHeadingUnavailable,
	rSOGUnavailable:                QuirkSOGUnavailable,
	rCOGUnavailable:                QuirkCOGUnavailable,
	rPositionUnavailableStaticKept: QuirkPositionUnavailableStaticKept,
	rClassB:                        QuirkClassB,
	rOutOfOrder:                    QuirkOutOfOrder,
	rBlankField:                    QuirkBlankField,
	rCRLF:                          QuirkCRLF,
	rDraughtDecimetres:             QuirkDraughtDecimetres,
	rSentinelETA:                   QuirkSentinelETA,
	rBadField:                      QuirkBadField,
}

// firstQuirk is the first rid that is a quirk, not a skip reason.
const firstQuirk = rIMOInvalid

// quirks is a set of quirk rids, one bit each.
type quirks uint64

func (q *quirks) add(r rid) { *q |= 1 << r }

// SkipReasons lists every reason a row may be skipped for, in a fixed
// order (for printing).
func SkipReasons() []Reason { return reasonList(rNone+1, firstQuirk) }

// QuirkReasons lists every quirk, in a fixed order (for printing).
func QuirkReasons() []Reason { return reasonList(firstQuirk, nReasons) }

func reasonList(from, to rid) []Reason {
	l := make([]Reason, 0, to-from)
	for i := from; i < to; i++ {
		l = append(l, reasons[i])
	}
	return l
}
