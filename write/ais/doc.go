// Package ais decodes and encodes AIS messages (ITU-R M.1371-5) carried in
// NMEA 0183 / IEC 61162-1 AIVDM and AIVDO sentences. Its one job is to turn
// the lines of a feed into Messages, and Messages back into sentences.
//
// # Decoding
//
// A Decoder reads one line at a time (Decode) and returns the message that
// line completes. It:
//
//   - skips and counts comments ("#"), blank lines, other NMEA sentences,
//     garbage, bad tag blocks, bad checksums and bad payloads (see Stats;
//     every line lands in exactly one counter, and Stats.Invalid sums the
//     invalid ones by reason);
//   - accepts "!" or "$", any two-letter talker, VDM and VDO, channel
//     A/B/1/2/empty, and rejects a sentence with a bad or missing checksum
//     (never guessed); a tag block with a wrong or missing checksum costs
//     its line only when the sentence behind it fails its own checksum (or
//     is no AIS sentence): else the line is decoded and counted by reason
//     (Stats.TagBlockSumWithoutGroup when the checksum is that of the
//     block without its "g:", as some receivers write it, and
//     TagBlockSumMismatch, TagBlockSumMissing);
//   - reads NMEA 4.10 tag blocks completely ("\g:1-2-6734,s:2573135,
//     c:1740808800*hh\"): "c:" is a unix time in seconds below 10^11 and
//     in milliseconds above (10^11 s is the year 5138, 10^11 ms 1973);
//     "s:" names the receiving station; "g:<n>-<total>-<id>" (or the first
//     NMEA 4.0 form "<n>G<total>:<id>") groups sentences; other parameters
//     (n, r, d, t, ...) are ignored. The later
//     sentences of a group, which usually carry "g:" alone, take the
//     station and time of its first;
//   - reassembles multi-sentence messages, in or out of order: sentences
//     with a group by group id and station (stations number their groups
//     independently; the sequential message id is often empty) with the
//     channel and sequential id (some feeds write one group id on every
//     group), others by
//     talker, channel, sequential id and fragment count (a first fragment
//     may follow its successors by up to 8 sentences); ignores duplicates;
//     gives up on a message after a timeout (default 10 s, feed time when
//     the fragments carry one, else the ingest clock) and keeps at most
//     MaxPending partial messages (default 1,024, the oldest evicted). A
//     message takes the time of its first sentence;
//   - honours fill bits (0-5, and 6 as seen in the wild) and rejects any
//     payload character outside "0"-"W" and "`"-"w";
//   - decodes types 1, 2, 3, 4, 5, 18, 19, 21, 24 and 27 field by field;
//     other types 1-27 are returned with their header only and counted as
//     Unsupported; types 0 and 28-63 and payloads whose length their type
//     does not allow, with gpsd's bounds (types 1-3 need 163 bits, type 5
//     420, type 24 part A 160, type 27 is 96 or 168 bits, type 21 272 to
//     368, ...: see typeLengths), are rejected and counted as BadPayload;
//   - takes the time of each message from the feed: an NMEA 4.10 tag
//     block's "c:", a "<unix time> " prefix (seconds to nanoseconds, by
//     magnitude), a GateHouse $PGHP sentence (stamps the message whose
//     first sentence follows it), or the old USCG suffix after the
//     checksum (",b003669710,1272412827": last field the unix time, first
//     "r"/"b" field the station). Without any, Time is zero and
//     TimeFromFeed false: the caller stamps the message with its ingest
//     clock.
//
// Position reports decode without allocating; strings are allocated only
// for the text fields of static messages (station names are interned).
//
// Not-available values (longitude 181, latitude 91, SOG 102.3, COG 360,
// heading 511, turn -128, draught 0, IMO 0, ETA month 0 / day 0 / hour 24 /
// minute 60, type 27's own 181/91 in 1/10 minute, SOG 63 and COG 511) and
// out-of-range values never surface as numbers: the matching bit of
// Message.Fields is clear, float fields hold NaN and integer fields zero.
// Text fields are six-bit ASCII cut at the first "@" (padding) with
// trailing spaces trimmed, as gpsd prints them; NavStatusText and
// ShipTypeText give gpsd's status_text and shiptype_text.
//
// # Encoding
//
// Encode, EncodePosition and EncodeStatic (and the Encoder, which rotates
// sequential and group ids) turn a Message of type 1, 2, 3, 5, 18, 19, 24
// or 27 into complete sentences ("!AIVDM", talker "AI" by default, channel
// A or B), types 5 and 19 over two sentences, optionally behind a tag block
// with "c:", "s:" and "g:". Absent fields are written as "not available",
// values out of range are clamped or written as not available (see
// EncodePayload), and text is normalised as NormalizeText says, so that
// decoding what was encoded gives the same fields at wire resolution.
package ais
