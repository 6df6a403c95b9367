// Package history streams historical AIS archive files into ingest
// reports: its one job is to turn the files agencies publish into the
// ingest.Report values the live feeds produce, counting every row.
//
// # Files and formats
//
// Open reads a plain file, a gzip file or a zip archive (each file entry
// in order, __MACOSX/ entries left out), told apart by their first bytes;
// NewReader reads a stream already opened and decompressed. The format is
// given or detected (Auto) from the first non-blank line that is not a
// "#" comment:
//
//   - marinecadastre: NOAA/BOEM's daily CSV, a header naming BaseDateTime;
//     columns matched by name (16 columns before 2018, 17 with
//     TransceiverClass after: without it rows are taken as class A; the
//     snake_case names too). Times have no zone (UTC). VesselType is the
//     ship type; Cargo is not read.
//   - dma: the Danish Maritime Authority's aisdk CSV, a header starting
//     "# Timestamp" and naming "Type of mobile": 22 columns before 2019,
//     26 with A,B,C,D after. Times and ETA day first (01/06/2018 00:00:00);
//     navigational status and ship type as text, mapped to ITU codes (ship
//     types to a representative code per category: Cargo 70, Tanker 80,
//     Passenger 60, Fishing 30, Tug 52, ...; Reserved, Spare, Undefined 0,
//     Other 90); "Unknown" and "Undefined" in text columns mean nothing.
//     Base stations, AtoN, SAR aircraft, SART and MOB devices are skipped,
//     and so are mobiles of type "Undefined" (unknown_mobile): nothing says
//     they are vessels.
//   - barentswatch: Kystverket/BarentsWatch JSON lines, a first record with
//     msgtime: "Position", "Staticdata" and "Aton" records in one stream,
//     or flat records with position and static data together. Draught is
//     in decimetres; null is "not available"; eta is "MMDDhhmm".
//   - gfw: Global Fishing Watch gpsdio JSON lines, a first record with
//     ssvid, or mmsi and timestamp: tracks without a message type (taken
//     as type 1), or decoded messages of every type with raw ITU sentinels.
//     Speed and course are rounded to 0.1 (float32 archives).
//   - nmea: AIVDM/AIVDO lines, decoded by write/ais (tag blocks, GateHouse
//     $PGHP sentences, old USCG suffixes, time prefixes) and converted by
//     feed.FromAIS. A message without a time of its own cannot be placed in
//     history and is skipped (no_time) rather than stamped with the clock.
//   - csv: any other delimited file (comma, semicolon or tab) whose header
//     names an MMSI, a time, a latitude and a longitude by their usual
//     names (Stone Soup's Time,MMSI,Latitude_degrees,...; the Norwegian
//     mmsi;imo_nr;length;date_time_utc;lon;lat;...; BarentsWatch API dumps
//     with "None"), read as MarineCadastre rows are (class A unless a class
//     column says B). Parquet is not read.
//
// A file whose first line fits no format (a wrong header, binary bytes)
// fails at once with a *FileError naming the file and line and listing the
// formats understood; so does a forced format whose header does not match.
//
// # Reports
//
// Each row gives zero, one or two reports, deterministically (reading a
// file twice gives identical reports):
//
//   - A CSV row (and a flat BarentsWatch record) carries a position and
//     static data. It gives a position report (type 1 for class A, 18 for
//     class B) and, before it so that the IMO is known when the position
//     arrives, a static report (type 5, or 24 for class B) when the MMSI's
//     static data (IMO, name, call sign, ship type, dimensions, draught,
//     destination, ETA) differs from the last static report this Reader
//     emitted for it. A row without a valid position still gives its
//     static data.
//   - Static records (BarentsWatch Staticdata, gpsdio and NMEA types 5 and
//     24) always give their static report; type 19 gives one report with
//     both, as the live decoder does.
//   - TS is the archive's time in UTC, truncated to the second, and
//     ReceivedAt is TS (archives keep no receive time; this makes a
//     re-import identical).
//   - As in feed.FromAIS: text is trimmed (and cut at "@"), not-available
//     values leave their Has bit clear (heading 511, SOG 102.3, COG 360,
//     latitude 91, longitude 181, draught 0, ship type 0, navigational
//     status 15), ship types above 99 (NAIS codes 1001-1025) are left out.
//     IMO numbers are kept only when seven digits with a valid check digit
//     (imo_invalid counts the others, NMEA type 5 included, whose IMO the
//     live feeds store as reported).
//   - Archives give overall dimensions only (MarineCadastre Length and
//     Width, DMA without A-D, BarentsWatch without dimensionA-D): they are
//     reported as ToBow = length, ToStern = 0, ToPort = width,
//     ToStarboard = 0, so that bow+stern and port+starboard give them back.
//
// # Counting
//
// Stats counts rows (CSV rows without the header, JSON lines, NMEA lines;
// blank lines are not rows). Every row lands in exactly one of Skipped, by
// reason, or Kept (it gave at least one report); Quirks count kept rows
// again for what was fixed up. The reasons are the Skip* and Quirk*
// constants: base_station, aid_to_navigation, sar_aircraft, not_a_vessel,
// unknown_mobile, other_message, invalid_mmsi, bad_time, no_time,
// position_unavailable, impossible_position, bad_row, invalid_nmea,
// other_nmea, fragment, duplicate; imo_invalid, heading_unavailable,
// sog_unavailable, cog_unavailable, position_unavailable_static_kept,
// class_b, out_of_order, blank_field, crlf, draught_decimetres,
// sentinel_eta, bad_field. A quirky row never stops a file: only
// structural failures do (*FileError: an unknown format, binary bytes, a
// truncated gzip or zip stream), and Next keeps returning the error.
//
// Duplicates are counted when a line repeats the previous kept line of
// the same MMSI exactly (CSV and JSON lines; NMEA fragments received
// twice); the ingest pipeline deduplicates the rest.
//
// # Memory and speed
//
// Files are streamed with lines of at most MaxLine bytes (a longer line
// is a bad_row); the Reader keeps two hashes per MMSI it reported. The CSV
// formats are split and parsed without allocating: a MarineCadastre row
// whose static data did not change allocates nothing.
package history
