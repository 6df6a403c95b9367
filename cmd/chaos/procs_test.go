package chaos

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"overwatch/testclock"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary is the overwatch binary the processes run: OVERWATCH_BIN (what
// `make chaos` builds), else one built into dir.
func binary(t *testing.T, dir string) string {
	t.Helper()
	if b := os.Getenv("OVERWATCH_BIN"); b != "" {
		abs, err := filepath.Abs(b)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	out := filepath.Join(dir, "overwatch")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/overwatch")
	cmd.Dir = repoRoot
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// proc is one process of the binary.
type proc struct {
	name    string
	cmd     *exec.Cmd
	log     string // its standard output and error
	base    string // the API's base URL (serve)
	metrics string // the base URL of its /metrics (serve, ingest)
	done    chan struct{}
	err     error
}

// procs starts processes of the binary with a common environment.
type procs struct {
	bin  string
	dir  string
	env  map[string]string
	all  []*proc
	tail int // log lines shown for each process when the test fails
}

// start runs `overwatch <command>` with the common environment and extra
// on top; it is stopped at cleanup if still running.
func (ps *procs) start(t *testing.T, name, command string, extra map[string]string) *proc {
	t.Helper()
	p := &proc{name: name, log: filepath.Join(ps.dir, name+".log"), done: make(chan struct{})}
	vars := map[string]string{}
	for k, v := range ps.env {
		vars[k] = v
	}
	// The processes run on the tests' clock, which the feed's messages
	// are stamped on.
	if testclock.Set() {
		vars["OVERWATCH_CLOCK_START"] = testclock.Now().Format(time.RFC3339Nano)
	}
	for k, v := range extra {
		vars[k] = v
	}
	if command == "serve" || command == "ingest" {
		p.metrics = fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
		vars["OVERWATCH_METRICS_ADDR"] = strings.TrimPrefix(p.metrics, "http://")
	}
	if command == "serve" {
		addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		vars["OVERWATCH_ADDR"] = addr
		p.base = "http://" + addr
	}
	logf, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(ps.bin, command)
	p.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ps.dir, "TZ=UTC"}
	for k, v := range vars {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	p.cmd.Dir = ps.dir
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	ps.all = append(ps.all, p)
	t.Cleanup(func() {
		p.stop(10 * time.Second)
		if t.Failed() {
			t.Logf("%s: last lines of %s:\n%s", name, p.log, lastLines(p.log, ps.tail))
		}
	})
	switch {
	case p.base != "":
		p.waitListening(t, strings.TrimPrefix(p.base, "http://"))
	case p.metrics != "":
		p.waitListening(t, strings.TrimPrefix(p.metrics, "http://"))
	}
	return p
}

// waitListening waits until addr accepts connections (the process has
// migrated and serves), or fails the test when the process exits first.
func (p *proc) waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited: %v\n%s", p.name, p.err, lastLines(p.log, 30))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not listen on %s after 90 s\n%s", p.name, addr, lastLines(p.log, 30))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the exit.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL) //nolint:errcheck // may have exited
	<-p.done
}

// stop sends SIGTERM (a graceful stop: ingest flushes its batches) and
// waits up to timeout, then kills; it returns the exit error of a process
// that had to be killed or failed.
func (p *proc) stop(timeout time.Duration) error {
	select {
	case <-p.done:
		return p.err
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		p.kill()
		return fmt.Errorf("%s did not stop within %v: killed", p.name, timeout)
	}
}

// stopAll stops every process still running, all at once (the cleanups
// would stop them one after the other).
func (ps *procs) stopAll(timeout time.Duration) {
	var wg sync.WaitGroup
	for _, p := range ps.all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.stop(timeout) //nolint:errcheck // the run is over
		}()
	}
	wg.Wait()
}

// running reports whether the process has not exited.
func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// metric reads one sample of /metrics: the first line whose name and
// labels start with series (e.g. `overwatch_ingest_written_total{table="positions"}`).
func (p *proc) metric(series string) (float64, error) {
	resp, err := http.Get(p.metrics + "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, series) && len(line) > len(series) && (line[len(series)] == ' ' || series[len(series)-1] == '}' || line[len(series)] == '{') {
			f := strings.Fields(line)
			return strconv.ParseFloat(f[len(f)-1], 64)
		}
	}
	return 0, fmt.Errorf("%s: no %s in /metrics", p.name, series)
}

// lastLines returns the last n lines of a file.
func lastLines(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 400 {
			lines[i] = l[:400] + "..."
		}
	}
	return strings.Join(lines, "\n")
}

// waitFor polls fn every 200 ms until it returns nil or the timeout
// passes; it returns the last error.
func waitFor(ctx context.Context, timeout time.Duration, fn func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := fn()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}
