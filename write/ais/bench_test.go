package ais

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// benchSample is the ingest benchmark input: three minutes of the
// worldwide AISHub feed, 85,182 sentences.
const benchSample = "testdata/ais_aishub_3min_live_sample_gpsd_contrib.log"

// readLines splits a capture into lines (line ends kept off).
func readLines(tb testing.TB, path string) [][]byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines
}

// BenchmarkDecodeAISHubSample decodes the whole AISHub sample per
// iteration and reports sentences per second.
func BenchmarkDecodeAISHubSample(b *testing.B) {
	lines := readLines(b, benchSample)
	d := NewDecoder(Options{})
	for _, l := range lines {
		d.Decode(l)
	}
	sentences := d.Stats().Sentences
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		d := NewDecoder(Options{})
		for _, l := range lines {
			d.Decode(l)
		}
	}
	elapsed, used := time.Since(start), cpuTime()-cpu
	total := float64(sentences) * float64(b.N)
	b.ReportMetric(total/elapsed.Seconds(), "sentences/s")
	b.ReportMetric(float64(elapsed.Nanoseconds())/total, "ns/sentence")
	// On a shared machine the wall clock counts time the process waited
	// for a core; the process CPU time does not.
	if used > 0 {
		b.ReportMetric(total/used.Seconds(), "sentences/cpu-s")
	}
}

// BenchmarkDecodeKystverketCapture decodes the Norwegian Coastal
// Administration capture per iteration: every line behind a tag block, a
// quarter of them grouped with the checksum of the block without "g:".
func BenchmarkDecodeKystverketCapture(b *testing.B) {
	lines := readLines(b, kystverketGrouped)
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		d := NewDecoder(Options{})
		for _, l := range lines {
			d.Decode(l)
		}
	}
	elapsed, used := time.Since(start), cpuTime()-cpu
	total := float64(len(lines)) * float64(b.N)
	b.ReportMetric(float64(elapsed.Nanoseconds())/total, "ns/line")
	if used > 0 {
		b.ReportMetric(total/used.Seconds(), "lines/cpu-s")
	}
}

// BenchmarkDecodePosition decodes one class A position report: it must
// not allocate.
func BenchmarkDecodePosition(b *testing.B) {
	line := []byte("!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A")
	d := NewDecoder(Options{})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := d.Decode(line); !ok {
			b.Fatal("not decoded")
		}
	}
}

// BenchmarkEncode encodes a position report and a two-sentence static
// report with tag blocks, as the fleet simulator does.
func BenchmarkEncode(b *testing.B) {
	pos := base(1, 371798000)
	pos.Fields = HasPosition | HasSOG | HasCOG | HasHeading | HasNavStatus
	pos.Lat, pos.Lon, pos.SOG, pos.COG, pos.Heading = 48.38, -123.39, 12.3, 224, 215
	static := base(5, 351759000)
	static.Fields = HasIMO | HasCallSign | HasName | HasDestination | HasDraught
	static.IMO, static.CallSign, static.Name, static.Destination, static.Draught = 9134270, "3FOF8", "EVER DIADEM", "NEW YORK", 12.2
	e := NewEncoder(EncodeOptions{TagBlock: true, Station: "sim"})
	t := time.Unix(1700000000, 0)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := e.Encode(pos, t); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Encode(static, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*float64(b.N)/time.Since(start).Seconds(), "messages/s")
}
