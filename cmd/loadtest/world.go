package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"overwatch"
	"overwatch/clickhouse"
	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/write/ais"
)

// runWorld measures a world fleet in accelerated time: -vessels vessels
// (under way: a position report every -interval of simulated time; at
// anchor: every 3 minutes; each a static report every 6 minutes) for
// -minutes of simulated time (both databases dropped first), sent at -speed times real time as AIVDM
// lines with tag blocks through a pipe into `overwatch replay` (the real
// decoding, attribution, batching and writes), while `overwatch jobs`
// runs every scheduled job on the same store at its own interval. It
// reports how far behind the schedule the feed fell (none: ingest kept
// the speed), each job's runs and longest run against its interval, the
// CPU of each process, and the stored bytes per position.
func runWorld(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("loadtest world", flag.ContinueOnError)
	bin := fs.String("bin", "bin/overwatch", "the overwatch binary")
	chServer := fs.String("clickhouse", "clickhouse://127.0.0.1:9000", "ClickHouse server")
	pgServer := fs.String("postgres", "postgres://postgres@127.0.0.1:5432", "PostgreSQL server")
	database := fs.String("database", "overwatch_bench_world", "database of the run (dropped first)")
	vessels := fs.Int("vessels", 20000, "vessels of the fleet")
	anchored := fs.Float64("anchored", 0.05, "share of the fleet at anchor (a report every 3 minutes)")
	interval := fs.Duration("interval", time.Second, "report interval of a vessel under way, in simulated time (1 s: 20,000 vessels give about 19,000 messages/s)")
	minutes := fs.Int("minutes", 60, "simulated minutes")
	speed := fs.Float64("speed", 5, "simulated time over real time")
	chPIDFile := fs.String("clickhouse-pid", ".data/clickhouse/clickhouse.pid", "the ClickHouse server's pid file (its CPU is reported)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// A fresh store: the jobs' state of an earlier run (watermarks,
	// counts) would change what they do and what is counted.
	if err := dropDatabase(ctx, *chServer, *pgServer, *database); err != nil {
		return err
	}
	path, err := filepath.Abs(*bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "overwatch-world-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	env := append(append(os.Environ(), offlineSources...), "CLICKHOUSE_URL="+*chServer+"/"+*database,
		"DATABASE_URL="+*pgServer+"/"+*database+"?sslmode=disable", "OVERWATCH_LOG_LEVEL=warn", "OVERWATCH_SPOOL_DIR="+filepath.Join(dir, "spool"))
	migrate := exec.CommandContext(ctx, path, "migrate")
	migrate.Env = env
	if b, err := migrate.CombinedOutput(); err != nil {
		return fmt.Errorf("migrate: %v\n%s", err, b)
	}
	pg, err := postgres.Open(ctx, *pgServer+"/"+*database+"?sslmode=disable")
	if err != nil {
		return err
	}
	defer pg.Close()

	fifo := filepath.Join(dir, "feed.nmea")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return err
	}
	var replayOut strings.Builder
	replay := exec.CommandContext(ctx, path, "replay", "--source", "aishub", fifo)
	replay.Env, replay.Stdout, replay.Stderr = env, &replayOut, &replayOut
	if err := replay.Start(); err != nil {
		return err
	}
	var jobsOut strings.Builder
	scheduler := exec.CommandContext(ctx, path, "jobs")
	scheduler.Env, scheduler.Stdout, scheduler.Stderr = env, &jobsOut, &jobsOut
	if err := scheduler.Start(); err != nil {
		return err
	}
	defer func() {
		if scheduler.ProcessState == nil {
			scheduler.Process.Kill() //nolint:errcheck
			scheduler.Wait()         //nolint:errcheck
		}
	}()
	chPID := 0
	if b, err := os.ReadFile(*chPIDFile); err == nil {
		chPID, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	jobsCPU0, chCPU0 := cpuSeconds(scheduler.Process.Pid), cpuSeconds(chPID)

	simDur := time.Duration(*minutes) * time.Minute
	wallDur := time.Duration(float64(simDur) / *speed)
	fmt.Fprintf(out, "world fleet: %d vessels (%.0f%% at anchor), a report every %s under way, %d simulated minutes at %.1fx real time (%s), into %s; load average %s\n",
		*vessels, 100**anchored, *interval, *minutes, *speed, wallDur, *database, loadAverage())

	// The job table's intervals, and their runs sampled every 5 s.
	every := map[string]time.Duration{}
	for _, j := range jobs.All(jobs.Deps{}) {
		every[j.Name] = j.Every
	}
	type jobSeen struct {
		runs, failures int64
		longest        time.Duration
		lastError      string
	}
	seen := map[string]*jobSeen{}
	sample := func() error {
		states, err := pg.JobStates(ctx)
		for _, st := range states {
			s := seen[st.Name]
			if s == nil {
				s = &jobSeen{}
				seen[st.Name] = s
			}
			s.runs, s.failures = st.Runs, st.Failures
			if st.LastError != "" {
				s.lastError = st.LastError
			}
			s.longest = max(s.longest, st.LastDuration)
		}
		return err
	}
	stopSampling := make(chan struct{})
	sampled := make(chan error, 1)
	go func() {
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stopSampling:
				sampled <- sample()
				return
			case <-tick.C:
				if err := sample(); err != nil {
					sampled <- err
					return
				}
			}
		}
	}()

	start := time.Now()
	simStart := start.Add(wallDur - simDur).Truncate(time.Second) // the feed's last second is about the run's end
	sent, positions, behind, err := feedWorld(fifo, worldFleet(*vessels, *anchored, *interval), simStart, simDur, *speed, start)
	if err != nil {
		return err
	}
	fed := time.Since(start)
	if err := replay.Wait(); err != nil {
		return fmt.Errorf("replay: %v\n%s", err, replayOut.String())
	}
	stored := time.Since(start)
	close(stopSampling)
	if err := <-sampled; err != nil {
		return err
	}
	// The replay's over its whole life (it has exited), the others' over the run.
	replayCPU := (replay.ProcessState.UserTime() + replay.ProcessState.SystemTime()).Seconds()
	jobsCPU, chCPU := cpuSeconds(scheduler.Process.Pid)-jobsCPU0, cpuSeconds(chPID)-chCPU0
	scheduler.Process.Signal(os.Interrupt) //nolint:errcheck
	scheduler.Wait()                       //nolint:errcheck

	fmt.Fprintf(out, "  fed %d messages in %s (%.0f messages/s; the schedule asked %.0f/s), at most %s behind the schedule; stored by %s: %.2fx real time end to end (goal >= 5x)\n",
		sent, fed.Round(time.Millisecond), float64(sent)/fed.Seconds(), float64(sent)/wallDur.Seconds(), behind.Round(time.Millisecond),
		stored.Round(time.Millisecond), simDur.Seconds()/stored.Seconds())
	fmt.Fprintf(out, "  replay: %s\n", strings.TrimSpace(lastLine(replayOut.String())))
	fmt.Fprintf(out, "  CPU over the run (%s wall, 2 cores = %.0f CPU-s): replay %.1f s, jobs %.1f s, ClickHouse %.1f s; load average %s\n",
		stored.Round(time.Second), 2*stored.Seconds(), replayCPU, jobsCPU, chCPU, loadAverage())
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	kept := true
	fmt.Fprintf(out, "  jobs during the run (runs, failures, longest run sampled / interval):\n")
	for _, n := range names {
		s := seen[n]
		if s.runs == 0 {
			continue
		}
		mark := ""
		if e := every[n]; e > 0 && s.longest >= e {
			mark, kept = "  LONGER THAN ITS INTERVAL", false
		}
		if s.failures > 0 {
			mark, kept = mark+"  FAILED: "+s.lastError, false
		}
		fmt.Fprintf(out, "    %-24s %3d runs %2d failures  %9s / %s%s\n", n, s.runs, s.failures, s.longest.Round(time.Millisecond), every[n], mark)
	}
	fmt.Fprintf(out, "  every job succeeded within its interval: %v\n", kept)

	db, err := clickhouse.Open(*chServer + "/" + *database)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, bytes, err := db.StoredBytes(ctx, "positions")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  positions sent %d, stored %d, %.1f bytes each after OPTIMIZE ... FINAL (goal <= 35)\n", positions, rows, float64(bytes)/float64(rows))
	if rows != uint64(positions) {
		return fmt.Errorf("%d position reports sent, %d stored", positions, rows)
	}
	return nil
}

// worldVessel is a vessel of the world fleet: where it is, where it goes,
// how often it reports.
type worldVessel struct {
	mmsi, imo      uint32
	lat, lon       float64
	sog, cog       float64 // knots, degrees
	every          int     // seconds between position reports (simulated)
	phase, static  int     // offsets of the reports in their periods
	name, callSign string
}

// worldFleet places n vessels at random over the open latitudes, a share
// of them at anchor.
func worldFleet(n int, anchored float64, interval time.Duration) []worldVessel {
	rng := rand.New(rand.NewPCG(20000, 19000))
	fleet := make([]worldVessel, n)
	step := max(1, int(interval/time.Second))
	for i := range fleet {
		v := worldVessel{mmsi: uint32(211000000 + i), imo: uint32(900000+i)*10 + overwatch.IMOCheckDigit(uint32(900000+i)),
			lat: -60 + 130*rng.Float64(), lon: -180 + 360*rng.Float64(), cog: 360 * rng.Float64(),
			sog: 8 + 12*rng.Float64(), every: step, phase: rng.IntN(180), static: rng.IntN(360),
			name: fmt.Sprintf("WORLD %05d", i), callSign: fmt.Sprintf("W%05d", i)}
		if rng.Float64() < anchored {
			v.sog, v.every = 0, 180
		}
		fleet[i] = v
	}
	return fleet
}

// feedWorld writes the fleet's reports of each simulated second, stamped
// with it, into the pipe once the wall clock reaches that second over
// speed; it returns the messages sent and how far behind its schedule the
// writing fell at most (the pipe blocks while the replay is behind).
func feedWorld(fifo string, fleet []worldVessel, simStart time.Time, simDur time.Duration, speed float64, start time.Time) (sent, positions int, behind time.Duration, err error) {
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := ais.NewEncoder(ais.EncodeOptions{TagBlock: true})
	for s := 0; s < int(simDur/time.Second); s++ {
		due := start.Add(time.Duration(float64(s) * float64(time.Second) / speed))
		if d := time.Until(due); d > 0 {
			if err := w.Flush(); err != nil {
				return sent, positions, behind, err
			}
			time.Sleep(d)
		} else if -d > behind {
			behind = -d
		}
		at := simStart.Add(time.Duration(s) * time.Second)
		for i := range fleet {
			v := &fleet[i]
			var msgs []ais.Message
			if (s+v.phase)%v.every == 0 {
				// Dead reckoning over the interval, on a sphere's flat
				// approximation (no land: the ingest does not care).
				d := v.sog * float64(v.every) / 3600 / 60 // degrees of arc
				v.lat = math.Max(-80, math.Min(80, v.lat+d*math.Cos(v.cog*math.Pi/180)))
				v.lon = math.Mod(v.lon+d*math.Sin(v.cog*math.Pi/180)/math.Cos(v.lat*math.Pi/180)+540, 360) - 180
				nav := uint8(0)
				if v.sog == 0 {
					nav = 1
				}
				msgs = append(msgs, ais.Message{Type: 1, MMSI: v.mmsi, NavStatus: nav, Lat: v.lat, Lon: v.lon, SOG: math.Round(v.sog*10) / 10,
					COG: math.Round(v.cog*10) / 10, Heading: uint16(v.cog), Second: uint8(at.Second()),
					Fields: ais.HasPosition | ais.HasSOG | ais.HasCOG | ais.HasHeading | ais.HasNavStatus})
				positions++
			}
			if s == 0 || (s+v.static)%360 == 0 { // every vessel's identity first
				msgs = append(msgs, ais.Message{Type: 5, MMSI: v.mmsi, IMO: overwatch.IMO(v.imo), CallSign: v.callSign, Name: v.name, ShipType: 70,
					ToBow: 150, ToStern: 40, ToPort: 15, ToStarboard: 15, EPFD: 1, Destination: "WORLD",
					Fields: ais.HasIMO | ais.HasCallSign | ais.HasName | ais.HasShipType | ais.HasDimensions | ais.HasDestination})
			}
			for _, m := range msgs {
				lines, err := enc.Encode(m, at)
				if err != nil {
					return sent, positions, behind, err
				}
				for _, l := range lines {
					w.WriteString(l)  //nolint:errcheck
					w.WriteByte('\n') //nolint:errcheck
				}
				sent++
			}
		}
	}
	if err := w.Flush(); err != nil {
		return sent, positions, behind, err
	}
	return sent, positions, behind, f.Close()
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
