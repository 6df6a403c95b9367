package history

import (
	"testing"
)

// samples gives the exact counts of every file in testdata: the real
// archives (see testdata/README.md) and the two constructed DMA files.
// The figures were checked against the NOTES of the collection and, for
// the JSON and CSV files, by an independent count of the rows (blank
// Status, IMO0000000, 511.0 headings, "00002460" ETAs, ...).
var samples = map[string]want{
	"noaa_marinecadastre_2022-03-31_51rows.csv": {
		format: MarineCadastre, rows: 51, kept: 51, reports: 102, mmsis: 51,
		// 16 IMO0000000 and IMO739103200; 29 headings 511.0; 10 COG
		// 360.0; 8 backward steps; 16 class B rows.
		quirks: map[Reason]uint64{QuirkClassB: 16, QuirkCOGUnavailable: 10, QuirkHeadingUnavailable: 29,
			QuirkIMOInvalid: 17, QuirkOutOfOrder: 8},
		first: "2022-03-31T00:00:00Z", last: "2022-03-31T00:00:15Z",
		types: map[uint8]int{1: 35, 5: 35, 18: 16, 24: 16},
	},
	"noaa_marinecadastre_2024-01-01_499rows.csv": {
		format: MarineCadastre, rows: 499, kept: 499, reports: 998, mmsis: 499,
		quirks: map[Reason]uint64{QuirkClassB: 19, QuirkCOGUnavailable: 44, QuirkCRLF: 499,
			QuirkHeadingUnavailable: 203, QuirkIMOInvalid: 84, QuirkOutOfOrder: 238},
		first: "2024-01-01T00:00:00Z", last: "2024-01-01T00:00:36Z",
		types: map[uint8]int{1: 480, 5: 480, 18: 19, 24: 19},
	},
	"dma_aisdk_constructed_2018_22col.csv": {
		format: DMA, rows: 20, kept: 8, reports: 14, mmsis: 6,
		skipped: map[Reason]uint64{SkipAidToNavigation: 1, SkipBadRow: 1, SkipBadTime: 1, SkipBaseStation: 1,
			SkipDuplicate: 1, SkipImpossiblePosition: 1, SkipInvalidMMSI: 1, SkipNotAVessel: 2,
			SkipPositionUnavailable: 1, SkipSARAircraft: 1, SkipUnknownMobile: 1},
		quirks: map[Reason]uint64{QuirkBlankField: 1, QuirkClassB: 1, QuirkCOGUnavailable: 1, QuirkCRLF: 8,
			QuirkHeadingUnavailable: 1, QuirkIMOInvalid: 3, QuirkOutOfOrder: 1,
			QuirkPositionUnavailableStaticKept: 1, QuirkSOGUnavailable: 1},
		first: "2018-06-01T00:00:01Z", last: "2018-06-01T00:00:21Z",
		types: map[uint8]int{1: 6, 5: 6, 18: 1, 24: 1},
	},
	"dma_aisdk_constructed_2023_26col.csv": {
		format: DMA, rows: 9, kept: 7, reports: 13, mmsis: 7,
		skipped: map[Reason]uint64{SkipBadRow: 1, SkipBaseStation: 1},
		quirks: map[Reason]uint64{QuirkBadField: 1, QuirkClassB: 1, QuirkCRLF: 1, QuirkIMOInvalid: 4,
			QuirkOutOfOrder: 1},
		first: "2023-02-27T00:00:00Z", last: "2023-02-27T00:00:04Z",
		types: map[uint8]int{1: 6, 5: 5, 18: 1, 24: 1},
	},
	"barentswatch_kystverket_get_ais_20230220.ndjson": {
		format: BarentsWatch, rows: 2140, kept: 2027, reports: 2027, mmsis: 1842,
		skipped: map[Reason]uint64{SkipAidToNavigation: 113},
		// 228 = 158 class B positions + 70 class B static; 159 draughts
		// (279 static records, 120 null); 61 ETAs with month 0, day 0,
		// hour 24 or minute 60.
		quirks: map[Reason]uint64{QuirkClassB: 228, QuirkDraughtDecimetres: 159, QuirkIMOInvalid: 2,
			QuirkOutOfOrder: 218, QuirkSentinelETA: 61},
		first: "2023-02-20T13:13:53Z", last: "2023-02-20T13:14:26Z",
		types: map[uint8]int{1: 1291, 3: 299, 5: 209, 18: 158, 24: 70},
	},
	"barentswatch_kystverket_combined_full_20230217.ndjson": {
		format: BarentsWatch, rows: 500, kept: 498, reports: 968, mmsis: 470,
		skipped: map[Reason]uint64{SkipDuplicate: 2},
		quirks: map[Reason]uint64{QuirkClassB: 19, QuirkDraughtDecimetres: 360, QuirkIMOInvalid: 5,
			QuirkOutOfOrder: 58, QuirkSentinelETA: 192},
		first: "2023-02-17T11:38:38Z", last: "2023-02-17T11:38:42Z",
		types: map[uint8]int{1: 479, 5: 452, 18: 19, 24: 18},
	},
	"gfw_gpsdio_segment_263576000.ndjson": {
		// 19 null positions and the 91/181 record; 31 lines that repeat
		// the previous kept line (the file repeats 39 lines in all: 5 are
		// null positions, skipped as such, 3 repeat an older line).
		format: GFW, rows: 948, kept: 897, reports: 897, mmsis: 1,
		skipped: map[Reason]uint64{SkipDuplicate: 31, SkipPositionUnavailable: 20},
		first:   "2015-10-15T02:39:55Z", last: "2015-10-16T20:09:10Z",
		types: map[uint8]int{1: 897},
	},
	"gfw_gpsdio_segment_338013000.ndjson": {
		format: GFW, rows: 1253, kept: 1023, reports: 1023, mmsis: 1,
		skipped: map[Reason]uint64{SkipDuplicate: 170, SkipPositionUnavailable: 60},
		first:   "2017-07-18T00:07:20Z", last: "2017-07-20T23:29:09Z",
		types: map[uint8]int{1: 1023},
	},
	"gfw_gpsdio_segment_416000000.ndjson": {
		format: GFW, rows: 1668, kept: 1561, reports: 1561, mmsis: 1,
		skipped: map[Reason]uint64{SkipDuplicate: 107},
		first:   "2014-01-01T01:14:25Z", last: "2014-01-31T11:45:45Z",
		types: map[uint8]int{1: 1561},
	},
	"gfw_gpsdio_types.ndjson": {
		// Kept: types 1, 3, 5 and 18. Impossible: type 2 at lat -101.5
		// and type 27 at lon 200.23; the all-null type 24 has nothing;
		// 10-digit MMSIs of types 15, 17 and 26.
		format: GFW, rows: 26, kept: 4, reports: 4, mmsis: 4,
		skipped: map[Reason]uint64{SkipAidToNavigation: 1, SkipBaseStation: 1, SkipImpossiblePosition: 2,
			SkipInvalidMMSI: 3, SkipOtherMessage: 13, SkipPositionUnavailable: 1, SkipSARAircraft: 1},
		quirks: map[Reason]uint64{QuirkClassB: 1, QuirkHeadingUnavailable: 2, QuirkSentinelETA: 1},
		first:  "2012-01-01T05:01:00Z", last: "2012-01-01T05:03:56Z",
		types: map[uint8]int{1: 1, 3: 1, 5: 1, 18: 1},
	},
	"gfw_gpsdio_types_uscg.nmea": {
		// The NMEA of the file above, timed by the USCG suffixes. The
		// decoder leaves out the impossible positions (types 2 and 27).
		format: NMEA, rows: 26, kept: 5, reports: 5, mmsis: 4,
		skipped: map[Reason]uint64{SkipAidToNavigation: 1, SkipBaseStation: 1, SkipInvalidMMSI: 3,
			SkipOtherMessage: 13, SkipPositionUnavailable: 2, SkipSARAircraft: 1},
		quirks: map[Reason]uint64{QuirkClassB: 2, QuirkHeadingUnavailable: 2},
		first:  "2012-01-01T05:00:01Z", last: "2012-01-01T05:10:45Z",
		types: map[uint8]int{1: 1, 3: 1, 5: 1, 18: 1, 24: 1},
	},
	"dma_aislib_replay_dump_20130318_pghp.nmea": {
		format: NMEA, rows: 108, kept: 48, reports: 48, mmsis: 32,
		skipped: map[Reason]uint64{SkipBaseStation: 2, SkipFragment: 1, SkipOtherNMEA: 57},
		quirks: map[Reason]uint64{QuirkClassB: 3, QuirkCOGUnavailable: 5, QuirkHeadingUnavailable: 12,
			QuirkSOGUnavailable: 5},
		first: "2013-03-18T09:19:09Z", last: "2013-03-18T09:19:30Z",
		types: map[uint8]int{1: 43, 3: 1, 5: 1, 18: 1, 24: 2},
	},
	"dma_aislib_stream_example_20100611_pghp.nmea": {
		// 4,051 $PGHP lines, 449 first fragments of two-part messages,
		// 18 "!--VDM" sentences the decoder refuses.
		format: NMEA, rows: 8551, kept: 3453, reports: 3453, mmsis: 1714,
		skipped: map[Reason]uint64{SkipAidToNavigation: 37, SkipBaseStation: 129, SkipFragment: 449,
			SkipInvalidMMSI: 2, SkipInvalidNMEA: 18, SkipOtherMessage: 380, SkipOtherNMEA: 4051,
			SkipPositionUnavailable: 31, SkipSARAircraft: 1},
		quirks: map[Reason]uint64{QuirkClassB: 173, QuirkCOGUnavailable: 7, QuirkHeadingUnavailable: 524,
			QuirkIMOInvalid: 122, QuirkOutOfOrder: 311, QuirkSentinelETA: 114, QuirkSOGUnavailable: 5},
		first: "2010-06-11T11:46:10Z", last: "2010-06-11T11:46:38Z",
		types: map[uint8]int{1: 2488, 2: 7, 3: 369, 5: 416, 18: 101, 24: 72},
	},
	"stonesoup_solent_ais_20160112_130211.csv.gz": {
		// The Stone Soup recording, stored gzipped: 3 exact duplicate
		// rows, 1,027 COG 360; the outlier at lon 54.83 is a valid
		// coordinate and kept.
		format: CSV, rows: 18623, kept: 18620, reports: 18620, mmsis: 91,
		skipped: map[Reason]uint64{SkipDuplicate: 3},
		quirks:  map[Reason]uint64{QuirkCOGUnavailable: 1027},
		first:   "2016-01-12T13:02:11Z", last: "2016-01-12T14:26:41Z",
		types: map[uint8]int{1: 18620},
	},
	"simula_damast_kystverket_style_semicolon.csv": {
		format: CSV, rows: 13, kept: 13, reports: 18, mmsis: 5,
		quirks: map[Reason]uint64{QuirkOutOfOrder: 2},
		first:  "2022-09-01T03:35:36Z", last: "2022-09-01T18:15:52Z",
		types: map[uint8]int{1: 13, 5: 5},
	},
	"simula_damast_barentswatch_api.csv": {
		format: CSV, rows: 3, kept: 3, reports: 4, mmsis: 1,
		first: "2026-06-30T05:49:19Z", last: "2026-06-30T05:53:20Z",
		types: map[uint8]int{1: 3, 5: 1},
	},
}

// TestSamples reads every sample with format detection and with its
// format forced, and checks the exact counts.
func TestSamples(t *testing.T) {
	t.Parallel()
	for name, w := range samples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, f := range []Format{Auto, w.format} {
				reps, s := readAll(t, sample(name), f)
				checkStats(t, s, reps, w)
				if s.File != sample(name) || s.Size == 0 || s.BytesRead != s.Size {
					t.Errorf("file %q size %d read %d", s.File, s.Size, s.BytesRead)
				}
			}
		})
	}
}

// TestDeterministic: reading a file twice gives identical reports.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for name := range samples {
		a, _ := readAll(t, sample(name), Auto)
		b, _ := readAll(t, sample(name), Auto)
		if len(a) != len(b) {
			t.Fatalf("%s: %d then %d reports", name, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: report %d differs:\n%+v\n%+v", name, i, a[i], b[i])
			}
		}
	}
}
