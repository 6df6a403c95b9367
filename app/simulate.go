package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/write/feed"
	"overwatch/write/ingest"
	"overwatch/write/sim"
)

// simFlags are the settings of a simulation shared by `overwatch simulate`
// and the demo of `overwatch run`.
func simFlags(fs *flag.FlagSet) (*sim.Config, *int) {
	c := &sim.Config{Rates: sim.DefaultRates}
	days := fs.Int("days", 30, "days to backfill")
	fs.Func("seed", "random seed (the same seed gives the same fleet and sentences)", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		c.Seed = n
		return err
	})
	fs.IntVar(&c.Vessels, "vessels", 800, "fleet size")
	fs.IntVar(&c.Downsample, "downsample", 30, "report intervals over the ITU cadence: 30 gives a position every 5 min under way, every 15 min stopped, static data every 30 min")
	fs.IntVar(&c.Sanctioned, "sanctioned", 12, "tankers sailing under IMOs of the OFAC SDN list")
	fs.IntVar(&c.DarkFleet, "dark-fleet", 40, "tankers of the dark fleet (8 of them STS shuttles)")
	fs.Float64Var(&c.Rates.Gap, "gap-rate", c.Rates.Gap, "per open-ocean leg: AIS off 6-48 h (x5 in the dark fleet)")
	fs.Float64Var(&c.Rates.DarkCall, "dark-call-rate", c.Rates.DarkCall, "per loading call of a dark-fleet tanker: the call made dark")
	fs.Float64Var(&c.Rates.STS, "sts-rate", c.Rates.STS, "per tanker leg passing a transfer area: a ship-to-ship transfer")
	fs.Float64Var(&c.Rates.Loiter, "loiter-rate", c.Rates.Loiter, "per leg: offshore loitering")
	fs.Float64Var(&c.Rates.Identity, "identity-rate", c.Rates.Identity, "per vessel and 30 days: an identity change")
	fs.Float64Var(&c.Rates.Mismatch, "mismatch-rate", c.Rates.Mismatch, "per call: a draught misreport")
	fs.Float64Var(&c.Rates.Destination, "destination-rate", c.Rates.Destination, "per leg: a false declared destination")
	fs.Float64Var(&c.Rates.Spoof, "spoof-rate", c.Rates.Spoof, "per leg: spoofed positions")
	chokepointFlag(fs, c)
	return c, days
}

// simulateCommand runs `overwatch simulate`: a backfill of the fleet into
// ClickHouse through the ingest pipeline (or, with --serve, over NMEA TCP
// servers that `overwatch ingest` connects to), then, with --live, real
// time.
func simulateCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c, days := simFlags(fs)
	trade := tradeFlags(fs)
	startText := fs.String("start", "", "time of the first report (RFC 3339; default: now less --days)")
	truthPath := fs.String("truth", "", "write the ground truth (JSON lines) to this file")
	live := fs.Bool("live", false, "after the backfill, keep simulating in real time")
	serve := fs.String("serve", "", "serve NMEA over TCP instead of ingesting: aishub, aisstream, satellite and spire on this port and the next three (port 0: free ports, logged)")
	out := fs.String("out", "", "write the transmitted sentences (each once, behind a tag block with its time) to this capture file instead of ingesting; `overwatch import history` reads it")
	if err := fs.Parse(args); err != nil {
		return ErrUsage
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if err := trade.days(days); err != nil {
		return err
	}
	if *days < 0 || *days > 3650 {
		return errors.New("simulate: --days must be 0 to 3650")
	}
	now := cfg.clock()().UTC().Truncate(time.Minute)
	c.Start = now.Add(-time.Duration(*days) * 24 * time.Hour)
	if *startText != "" {
		t, err := time.Parse(time.RFC3339, *startText)
		if err != nil {
			return fmt.Errorf("simulate: --start: %w", err)
		}
		c.Start = t.UTC()
	}
	end := c.Start.Add(time.Duration(*days) * 24 * time.Hour)
	trade.apply(c, end)
	var truth io.Writer
	if *truthPath != "" {
		f, err := os.Create(*truthPath)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriterSize(f, 1<<20)
		defer bw.Flush()
		truth = bw
	}
	s, err := sim.New(*c, truth)
	if err != nil {
		return err
	}
	if *serve != "" {
		return serveSimulation(ctx, s, *serve, end, *live, cfg.clock(), log)
	}
	if *out != "" {
		return writeSimulation(ctx, s, *out, end, stdout)
	}
	ch, err := clickhouse.Open(cfg.ClickHouseURL)
	if err != nil {
		return err
	}
	defer ch.Close()
	if _, err := ch.Migrate(ctx); err != nil {
		return err
	}
	p, err := ingest.New(ch, ingest.Options{SpoolDir: cfg.SpoolDir, AttributionWindow: simAttribution(cfg, c), Log: log, Now: cfg.clock()})
	if err != nil {
		return err
	}
	if err := p.Start(ctx); err != nil {
		return err
	}
	d := newSimDelivery(p, s, cfg.clock())
	started := time.Now()
	err = s.EmitUntil(ctx, end, d.withProgress(stderr, c.Start, end))
	if err == nil && !*live {
		s.Finish()
	}
	d.flush()
	if err == nil && *live {
		fmt.Fprintf(stdout, "backfill done at %s; simulating in real time (Ctrl-C to stop)\n", s.At().Format(time.RFC3339))
		err = s.Live(ctx, time.Second, cfg.clock(), d.deliver)
		d.flush()
	}
	elapsed := time.Since(started)
	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	closeErr := p.Close(closeCtx)
	st := p.Stats()
	fmt.Fprintf(stdout, "simulated %d vessels from %s to %s: %d messages (%d lines to providers), %d reports written, in %s (%.0f messages/min)\n",
		c.Vessels, c.Start.Format(time.RFC3339), s.At().Format(time.RFC3339), s.Messages(), d.lines, st.Written,
		elapsed.Round(time.Millisecond), float64(s.Messages())/elapsed.Minutes())
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return closeErr
}

// simAttribution is the attribution window for simulated data: long
// enough for the static report that a downsampled cadence sends less often.
func simAttribution(cfg Config, c *sim.Config) time.Duration {
	static := 6 * time.Minute * time.Duration(max(1, c.Downsample/6))
	return max(cfg.AttributionWindow, 2*static)
}

// simDelivery hands each provider's lines to its own decoder, as four
// feeds would.
type simDelivery struct {
	feeds map[overwatch.Source]*feed.Lines
	ctx   context.Context
	lines uint64
}

func newSimDelivery(p *ingest.Pipeline, s *sim.Simulation, now func() time.Time) *simDelivery {
	d := &simDelivery{feeds: map[overwatch.Source]*feed.Lines{}, ctx: context.Background()}
	for _, src := range overwatch.Sources {
		d.feeds[src] = feed.NewLines(src, p, now)
	}
	return d
}

func (d *simDelivery) deliver(at time.Time, lines []string, providers []overwatch.Source) error {
	for _, p := range providers {
		l := d.feeds[p]
		for _, line := range lines {
			d.lines++
			if err := l.Line(d.ctx, []byte(line)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *simDelivery) flush() {
	for _, l := range d.feeds {
		l.Flush()
	}
}

// withProgress wraps deliver with a progress bar of simulated time on a
// terminal.
func (d *simDelivery) withProgress(w io.Writer, start, end time.Time) sim.Deliver {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return d.deliver
	}
	bar := progressbar.NewOptions64(int64(end.Sub(start).Hours()), progressbar.OptionSetDescription("simulating (hours)"),
		progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionThrottle(200*time.Millisecond))
	return func(at time.Time, lines []string, providers []overwatch.Source) error {
		bar.Set64(int64(at.Sub(start).Hours())) //nolint:errcheck
		return d.deliver(at, lines, providers)
	}
}

// writeSimulation writes the simulated sentences to a capture file, each
// once whatever the providers that heard it, in time order.
func writeSimulation(ctx context.Context, s *sim.Simulation, path string, end time.Time, stdout io.Writer) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n := 0
	err = s.EmitUntil(ctx, end, func(_ time.Time, lines []string, _ []overwatch.Source) error {
		for _, l := range lines {
			w.WriteString(l)      //nolint:errcheck // the error is Flush's
			w.WriteString("\r\n") //nolint:errcheck
		}
		n += len(lines)
		return nil
	})
	if err == nil {
		s.Finish()
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("simulate: %s: %w", path, err)
	}
	fmt.Fprintf(stdout, "simulated %d messages (%d sentences) to %s until %s\n", s.Messages(), n, path, s.At().Format(time.RFC3339))
	return nil
}

// serveSimulation serves the simulated feed as raw NMEA over TCP, one port
// per provider, waiting for a client on each before it starts; TCP's
// back-pressure paces the backfill to what the client takes.
func serveSimulation(ctx context.Context, s *sim.Simulation, addr string, end time.Time, live bool, now func() time.Time, log *slog.Logger) error {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("simulate: --serve: %w", err)
	}
	base, err := strconv.Atoi(portText)
	if err != nil {
		return fmt.Errorf("simulate: --serve: bad port %q", portText)
	}
	outs := map[overwatch.Source]*nmeaServer{}
	feeds := ""
	for i, src := range overwatch.Sources {
		port := base + i
		if base == 0 {
			port = 0 // each provider on a free port of its own
		}
		srv, err := listenNMEA(ctx, net.JoinHostPort(host, strconv.Itoa(port)))
		if err != nil {
			return err
		}
		defer srv.close()
		outs[src] = srv
		feeds += fmt.Sprintf("%s=tcp://%s ", src, srv.ln.Addr())
	}
	log.Info("serving the simulated feed; waiting for ingest", "OVERWATCH_FEEDS", feeds)
	deliver := func(at time.Time, lines []string, providers []overwatch.Source) error {
		for _, p := range providers {
			if err := outs[p].write(ctx, lines); err != nil {
				return err
			}
		}
		return nil
	}
	if err := s.EmitUntil(ctx, end, deliver); err != nil {
		return err
	}
	for _, o := range outs {
		o.flush()
	}
	if live {
		return s.Live(ctx, time.Second, now, deliver)
	}
	s.Finish()
	return nil
}

// nmeaServer is one provider's TCP server: it writes lines to its client,
// waiting for one when none is connected.
type nmeaServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conn  net.Conn
	w     *bufio.Writer
	ready chan struct{}
}

func listenNMEA(ctx context.Context, addr string) (*nmeaServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &nmeaServer{ln: ln, ready: make(chan struct{}, 1)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			if s.conn != nil {
				s.conn.Close()
			}
			s.conn, s.w = c, bufio.NewWriterSize(c, 64<<10)
			s.mu.Unlock()
			select {
			case s.ready <- struct{}{}:
			default:
			}
		}
	}()
	return s, nil
}

func (s *nmeaServer) write(ctx context.Context, lines []string) error {
	for {
		s.mu.Lock()
		if s.w != nil {
			var err error
			for _, l := range lines {
				if _, err = s.w.WriteString(l + "\r\n"); err != nil {
					break
				}
			}
			if err != nil {
				s.conn.Close()
				s.conn, s.w = nil, nil
				s.mu.Unlock()
				continue // the lines go to the next client
			}
			s.mu.Unlock()
			return nil
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ready:
		}
	}
}

func (s *nmeaServer) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w != nil {
		s.w.Flush() //nolint:errcheck
	}
}

func (s *nmeaServer) close() {
	s.flush()
	s.ln.Close()
	s.mu.Lock()
	if s.conn != nil {
		s.conn.Close()
	}
	s.mu.Unlock()
}

// simState is what the demo of `overwatch run` keeps in the data directory
// to resume its simulation after a restart: the simulation is
// deterministic, so the seed and the start are enough.
type simState struct {
	Seed       uint64    `json:"seed"`
	Start      time.Time `json:"start"`
	Vessels    int       `json:"vessels"`
	Downsample int       `json:"downsample"`
	// The trade world (seasons and trade truths) and the cheap older
	// history of the demo, fixed by the first backfill's end (absent in
	// the state of an older demo: none).
	Trade  bool          `json:"trade,omitempty"`
	End    time.Time     `json:"end,omitzero"`
	Recent time.Duration `json:"recent,omitempty"`
}

func loadSimState(dir string) (simState, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "simulation.json"))
	if err != nil {
		return simState{}, false
	}
	var s simState
	return s, json.Unmarshal(b, &s) == nil && s.Seed != 0 && !s.Start.IsZero()
}

func saveSimState(dir string, s simState) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	return os.WriteFile(filepath.Join(dir, "simulation.json"), b, 0o644)
}
