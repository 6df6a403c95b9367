package chtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// Private is a ClickHouse server of the test's own, on free ports with its
// data in a temporary directory, which the test may stop and start again:
// the real thing for fault tests, without disturbing the shared server.
type Private struct {
	URL  string // clickhouse://127.0.0.1:<port>
	dir  string
	cmd  *exec.Cmd
	port int
}

// StartPrivate starts a private server from the project's local
// configuration (clickhouse/local/config.xml). It skips, or fails in CI,
// when clickhouse-server is not installed.
func StartPrivate(t testing.TB) *Private {
	t.Helper()
	if _, err := exec.LookPath("clickhouse-server"); err != nil {
		Unavailable(t, err)
	}
	root, err := projectRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tcp, http := freePort(t), freePort(t)
	conf, err := os.ReadFile(filepath.Join(root, "clickhouse", "local", "config.xml"))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("@DATA@", dir, "@TCP_PORT@", fmt.Sprint(tcp), "@HTTP_PORT@", fmt.Sprint(http))
	if err := os.WriteFile(filepath.Join(dir, "config.xml"), []byte(r.Replace(string(conf))), 0o644); err != nil {
		t.Fatal(err)
	}
	users, err := os.ReadFile(filepath.Join(root, "clickhouse", "local", "users.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "users.xml"), users, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"data", "tmp", "log", "user_files"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755) //nolint:errcheck
	}
	p := &Private{URL: fmt.Sprintf("clickhouse://127.0.0.1:%d", tcp), dir: dir, port: tcp}
	p.Start(t)
	t.Cleanup(func() { p.Stop(t, false) })
	return p
}

// Start runs the server and waits until it answers.
func (p *Private) Start(t testing.TB) {
	t.Helper()
	p.cmd = exec.Command("clickhouse-server", "--config-file="+filepath.Join(p.dir, "config.xml"))
	p.cmd.Dir = p.dir
	p.cmd.Stdout, p.cmd.Stderr = nil, nil
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := p.ping(); err == nil {
			return
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(p.dir, "log", "error.log"))
			t.Fatalf("private ClickHouse did not answer within 60 s:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop ends the server: gracefully, or with kill set as a crash would.
func (p *Private) Stop(t testing.TB, kill bool) {
	t.Helper()
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	p.cmd.Process.Signal(sig) //nolint:errcheck
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }() //nolint:errcheck
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill() //nolint:errcheck
		<-done
	}
	p.cmd = nil
	// The port must be free before a restart binds it again.
	for i := 0; i < 100; i++ {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", p.port), 100*time.Millisecond)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(100 * time.Millisecond)
	}
}

func (p *Private) ping() error {
	opts, err := ch.ParseDSN(p.URL + "/default")
	if err != nil {
		return err
	}
	opts.DialTimeout = time.Second
	conn, err := ch.Open(opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return conn.Ping(ctx)
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// projectRoot finds the directory holding go.mod.
func projectRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
