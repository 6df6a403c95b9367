package chaos

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// pgBin holds initdb and pg_ctl of PostgreSQL 15 (Debian's layout);
// OVERWATCH_CHAOS_PG_BIN changes it.
func pgBin() string {
	if b := os.Getenv("OVERWATCH_CHAOS_PG_BIN"); b != "" {
		return b
	}
	return "/usr/lib/postgresql/15/bin"
}

// privatePG is a PostgreSQL cluster of the test's own (its data directory
// and port), so that stopping it leaves the shared server on :5432 alone.
// initdb refuses root: as root the commands run as the user postgres.
type privatePG struct {
	dir  string
	port int
	uid  int // the owner of dir, -1 when the test's own user
}

// startPG initialises and starts the cluster; it is stopped and deleted
// at cleanup.
func startPG(t *testing.T) *privatePG {
	t.Helper()
	dir, err := os.MkdirTemp(scratch(), "overwatch-chaos-pg-")
	if err != nil {
		t.Fatal(err)
	}
	p := &privatePG{dir: dir, port: freePort(t), uid: -1}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("PostgreSQL refuses to run as root and there is no user postgres: %v", err)
		}
		p.uid, _ = strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, p.uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		p.pgctl("stop", "-m", "immediate") //nolint:errcheck // may be stopped already
		os.RemoveAll(dir)
	})
	data := filepath.Join(dir, "data")
	if out, err := p.run(filepath.Join(pgBin(), "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	p.start(t)
	return p
}

// run runs a PostgreSQL program, as the user postgres when the test is root.
func (p *privatePG) run(prog string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if p.uid >= 0 {
		args = append([]string{"-u", "postgres", "--", prog}, args...)
		prog = "runuser"
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = p.dir
	return cmd.CombinedOutput()
}

func (p *privatePG) pgctl(args ...string) ([]byte, error) {
	args = append(args, "-D", filepath.Join(p.dir, "data"))
	return p.run(filepath.Join(pgBin(), "pg_ctl"), args...)
}

// start starts the server and waits until it accepts connections.
func (p *privatePG) start(t *testing.T) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", p.port, p.dir)
	if out, err := p.pgctl("start", "-w", "-t", "60", "-l", filepath.Join(p.dir, "server.log"), "-o", opts); err != nil {
		t.Fatalf("pg_ctl start: %v\n%s", err, out)
	}
}

// crash stops the server at once (SIGQUIT to the postmaster, like a crash:
// no checkpoint, connections cut).
func (p *privatePG) crash(t *testing.T) {
	t.Helper()
	if out, err := p.pgctl("stop", "-m", "immediate", "-w"); err != nil {
		t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

// psql runs query on the database db with psql and returns its output (or
// the error): for the reports of a failed check.
func (p *privatePG) psql(db, query string) string {
	out, err := p.run(filepath.Join(pgBin(), "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(p.port), "-U", "postgres", "-d", db, "-c", query)
	if err != nil {
		return fmt.Sprintf("psql: %v: %s", err, out)
	}
	return string(out)
}

// url is the URL of a database of the cluster.
func (p *privatePG) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", p.port, db)
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
