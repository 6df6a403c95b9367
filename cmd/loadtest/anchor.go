package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The lookup's anchor: a Fiber hello world answering the public lookup's
// path, the fastest answer Fiber gives on this machine. On a shared
// machine absolute requests per second say little; the lookup is judged by
// its ratio to the anchor measured in the same run, the two driven in
// turn (anchor, lookup, anchor, lookup, ...) by the same wrk command.

// helloPath is the public lookup's route, as the anchor mounts it.
const helloPath = "/v1/ais/:provider/:imo/location/latest"

// runHello serves the hello world on -addr until ctx ends (`loadtest
// hello`, started by the lookup benchmark as a process of its own).
func runHello(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("loadtest hello", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:18490", "listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get(helloPath, func(c *fiber.Ctx) error { return c.SendString("Hello, World!") })
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_ = app.ShutdownWithTimeout(5 * time.Second)
	}()
	return app.Listener(ln)
}

// startHello starts the anchor as a child process (this binary, `hello`)
// and waits until it answers.
func startHello(ctx context.Context, addr string) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "hello", "-addr", addr)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, stop: func() {
		// End only the process we started, by its PID.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	}}
	url := fmt.Sprintf("http://%s/v1/ais/any/1000007/location/latest", addr)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("the hello-world anchor did not answer on %s within 30 s", addr)
		}
	}
}

// anchorGoal is the lookup's goal against the anchor: at least this share
// of its requests per second, a p99 at most this multiple of its p99.
const (
	anchorMinShare = 0.90
	anchorMaxP99   = 1.2
)

// compareWithAnchor drives the anchor and the lookup in turn, rounds
// times each, with the same wrk command, and prints every run with the
// load average at its start, each round's ratios and the medians. It
// reports whether the median ratios meet the goal.
func compareWithAnchor(ctx context.Context, o options, srv *server, rounds int, helloAddr string, out io.Writer) (bool, error) {
	hello, err := startHello(ctx, helloAddr)
	if err != nil {
		return false, err
	}
	defer hello.stop()
	anchor := o
	anchor.addr = helloAddr
	var shares, p99s, cpus []float64
	fmt.Fprintf(out, "anchor (Fiber hello world on the same path) and lookup in turn, wrk -t%d -c%d -d%s, %d rounds:\n", o.threads, o.connections, o.duration, rounds)
	for i := 1; i <= rounds; i++ {
		la, cpu := loadAverage(), cpuSeconds(hello.cmd.Process.Pid)
		a, err := loadWith(ctx, anchor)
		if err != nil {
			return false, err
		}
		aCPU := (cpuSeconds(hello.cmd.Process.Pid) - cpu) / float64(a.total) * 1e6
		fmt.Fprintf(out, "  round %d anchor  %7.0f req/s  p50 %-9s p99 %-9s %5.1f us CPU/request (load average %s)\n", i, a.rps, a.p50, a.p99, aCPU, la)
		la, cpu = loadAverage(), cpuSeconds(srv.cmd.Process.Pid)
		l, err := loadWith(ctx, o)
		if err != nil {
			return false, err
		}
		lCPU := (cpuSeconds(srv.cmd.Process.Pid) - cpu) / float64(l.total) * 1e6
		cpus = append(cpus, lCPU/aCPU)
		if l.non2xx > 0 {
			return false, fmt.Errorf("round %d: %d of %d lookups failed", i, l.non2xx, l.total)
		}
		share, p99 := l.rps/a.rps, float64(l.p99)/float64(a.p99)
		shares, p99s = append(shares, share), append(p99s, p99)
		fmt.Fprintf(out, "  round %d lookup  %7.0f req/s  p50 %-9s p99 %-9s %5.1f us CPU/request (load average %s)  = %.0f%% of the anchor's rate, p99 %.2f x, CPU/request %.2f x\n",
			i, l.rps, l.p50, l.p99, lCPU, la, 100*share, p99, lCPU/aCPU)
	}
	share, p99 := median(shares), median(p99s)
	met := share >= anchorMinShare && p99 <= anchorMaxP99
	fmt.Fprintf(out, "  median: %.0f%% of the anchor's rate (goal >= %.0f%%), p99 %.2f x the anchor's (goal <= %.1f x): goal %s; server CPU per request %.2f x the anchor's\n",
		100*share, 100*anchorMinShare, p99, anchorMaxP99, map[bool]string{true: "met", false: "not met"}[met], median(cpus))
	return met, nil
}

// cpuSeconds is the user and system CPU time a process has used, from
// /proc (0 when unreadable): on a shared machine, CPU per request says
// what a request costs the server whatever share of the cores it got.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces) start at
	// the state, field 3; utime and stime are fields 14 and 15, in clock
	// ticks (100 a second on Linux).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
