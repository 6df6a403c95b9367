package chaos

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
	"overwatch/testclock"
	"overwatch/write/ais"
	"overwatch/write/feed"
	"overwatch/write/ingest"
)

// sampleCapture is AISHub's 3-minute live sample (85,182 sentences),
// re-stamped below so that every sentence is a distinct report.
var sampleCapture = filepath.Join(repoRoot, "write/ais/testdata/ais_aishub_3min_live_sample_gpsd_contrib.log")

// source is what the feeds send: the sample repeated copies times, each
// sentence stamped one second after the previous one (so that every report
// is unique and the pipeline's dedup keeps them all), split by MMSI into
// two halves, one per ingest instance (a vessel's static report and its
// positions go to the same instance, as on a real feed).
type source struct {
	parts     [2][]string
	positions uint64          // position reports the halves decode into
	statics   uint64          // static reports (types 5, 19, 24)
	imos      []overwatch.IMO // vessels named early in the stream, with positions after
}

// newSource builds the source; the last sentence is stamped at end.
func newSource(t *testing.T, copies int, end time.Time) *source {
	t.Helper()
	f, err := os.Open(sampleCapture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sentences []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "!") {
			sentences = append(sentences, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	total := len(sentences) * copies
	base := end.Truncate(time.Second).Add(-time.Duration(total) * time.Second)
	s := &source{}
	dec := ais.NewDecoder(ais.Options{})
	var pending []string
	named := map[uint32]overwatch.IMO{} // MMSI -> IMO from early static reports
	withPosition := map[overwatch.IMO]bool{}
	for i := 0; i < total; i++ {
		line := ais.Stamp(sentences[i%len(sentences)], base.Add(time.Duration(i)*time.Second), "")
		pending = append(pending, line)
		m, ok := dec.Decode([]byte(line))
		if !ok {
			continue
		}
		half := (m.MMSI * 2654435761 >> 7) % 2 // by MMSI, mixed: many MMSIs end in 0
		s.parts[half] = append(s.parts[half], pending...)
		pending = pending[:0]
		if i < total/20 {
			if r, ok := feed.FromAIS(&m, overwatch.SourceAISHub, testclock.Now()); ok && r.Type == 5 && r.Has&ingest.HasIMO != 0 && r.IMO.Valid() {
				named[r.MMSI] = r.IMO
			}
		} else if imo, ok := named[m.MMSI]; ok && i < total/5 {
			if r, ok := feed.FromAIS(&m, overwatch.SourceAISHub, testclock.Now()); ok && r.Has&ingest.HasPosition != 0 {
				withPosition[imo] = true
			}
		}
	}
	s.parts[0] = append(s.parts[0], pending...)
	// What each ingest instance decodes from its half, as it reads it.
	for _, part := range s.parts {
		dec := ais.NewDecoder(ais.Options{})
		for _, l := range part {
			m, ok := dec.Decode([]byte(l))
			if !ok {
				continue
			}
			r, ok := feed.FromAIS(&m, overwatch.SourceAISHub, testclock.Now())
			if !ok {
				continue
			}
			if r.Has&ingest.HasPosition != 0 {
				s.positions++
			}
			if r.Type == 5 || r.Type == 19 || r.Type == 24 {
				s.statics++
			}
		}
	}
	for imo := range withPosition {
		s.imos = append(s.imos, imo)
	}
	sort.Slice(s.imos, func(i, j int) bool { return s.imos[i] < s.imos[j] })
	if len(s.imos) > 12 {
		s.imos = s.imos[:12]
	}
	if len(s.imos) == 0 {
		t.Fatal("no vessel of the sample has a static report and positions early in the stream")
	}
	return s
}

// feedServer serves one half of the source as raw NMEA over TCP at a set
// rate (lines per second) to whoever connects (one ingest instance),
// resuming where it stopped if the connection breaks. Everything left is
// sent at once after hurry.
type feedServer struct {
	ln    net.Listener
	lines []string
	rate  float64
	sent  atomic.Int64
	rush  chan struct{}
	once  sync.Once
	done  chan struct{}
	drops atomic.Int64 // connections that broke while sending
}

func newFeedServer(t *testing.T, lines []string, rate float64) *feedServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fs := &feedServer{ln: ln, lines: lines, rate: rate, rush: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(func() { ln.Close() })
	go fs.serve()
	return fs
}

// url is the feed's address in OVERWATCH_FEEDS.
func (fs *feedServer) url() string { return "tcp://" + fs.ln.Addr().String() }

// hurry sends what is left without pacing.
func (fs *feedServer) hurry() { fs.once.Do(func() { close(fs.rush) }) }

func (fs *feedServer) serve() {
	defer close(fs.done)
	var start time.Time
	for int(fs.sent.Load()) < len(fs.lines) {
		c, err := fs.ln.Accept()
		if err != nil {
			return
		}
		if start.IsZero() {
			start = time.Now()
		}
		w := bufio.NewWriterSize(c, 64<<10)
		tick := time.NewTicker(10 * time.Millisecond)
		for int(fs.sent.Load()) < len(fs.lines) {
			target := len(fs.lines)
			select {
			case <-fs.rush:
			default:
				target = min(target, int(time.Since(start).Seconds()*fs.rate))
			}
			broke := false
			for i := int(fs.sent.Load()); i < target; i++ {
				w.WriteString(fs.lines[i]) //nolint:errcheck // Flush reports it
				w.WriteString("\r\n")      //nolint:errcheck
				fs.sent.Add(1)
			}
			if err := w.Flush(); err != nil {
				broke = true
			}
			if broke {
				fs.drops.Add(1)
				break
			}
			select {
			case <-tick.C:
			case <-fs.rush:
			}
		}
		tick.Stop()
		if int(fs.sent.Load()) >= len(fs.lines) {
			// Keep the connection open: a closed feed makes ingest
			// reconnect, which is not what is tested here.
			<-fs.rush
			time.Sleep(100 * time.Millisecond)
		}
		c.Close()
	}
}
