package ais

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkDecodeVsGPSDecode measures the decoder against its anchor,
// Debian's gpsdecode, on the AISHub sample in the same run: each
// iteration runs `gpsdecode -j` once over the capture and then the
// decoder over it decodePasses times, and compares CPU time (the child's
// user and system time against this process's per pass), which a loaded
// machine's waits for a core do not inflate. Run with -cpu 1 -benchtime
// Nx for N interleaved rounds; the medians are reported.
func BenchmarkDecodeVsGPSDecode(b *testing.B) {
	bin, err := exec.LookPath("gpsdecode")
	if err != nil {
		b.Skip("gpsdecode not found (Debian package gpsd-clients)")
	}
	lines := readLines(b, benchSample)
	const decodePasses = 10
	var gpsd, ours []float64 // CPU milliseconds per pass
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		in, err := os.Open(benchSample)
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(bin, "-j")
		cmd.Stdin, cmd.Stdout = in, io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		in.Close()
		st := cmd.ProcessState
		gpsd = append(gpsd, float64(st.UserTime()+st.SystemTime())/float64(time.Millisecond))
		cpu := cpuTime()
		for range decodePasses {
			d := NewDecoder(Options{})
			for _, l := range lines {
				d.Decode(l)
			}
		}
		ours = append(ours, float64(cpuTime()-cpu)/float64(time.Millisecond)/decodePasses)
	}
	g, o := medianOf(gpsd), medianOf(ours)
	b.ReportMetric(g, "gpsdecode-cpu-ms")
	b.ReportMetric(o, "decode-cpu-ms/pass")
	if o > 0 {
		b.ReportMetric(g/o, "x-gpsdecode")
	}
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
